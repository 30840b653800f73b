"""Single-post pages of the default themes Twenty Thirteen and Twenty Fifteen (WordPress 6.4).

Both declare html5 support and list their comments with core's ``Walker_Comment::html5_comment()`` in
``ol.comment-list`` (avatar 74 and 56) under an "N thoughts on “Title”" heading.  Twenty Thirteen has a masthead
with the navbar and a sidebar after the content; Twenty Fifteen puts the title, menu and widgets in a fixed
left sidebar (``#secondary``) before the content and closes the post with ``entry-footer`` and the post navigation.
Each ``page_*(site, post)`` returns the whole HTML page of one post.
"""

from __future__ import annotations

from .comments import CommentFn, author_link, comment_form, core_one, walk
from .markup import body_cls, body_html, links, menu, neighbours, pcls, post_nav, widgets
from .model import Comment, Post, Site, eh, tx
from .pages_classic_defaults import author_link64, doc_classic, head64, widget_wrap


def html5_one(site: Site, post: Post, size: int) -> CommentFn:
    """Walker_Comment::html5_comment() of WordPress 6.4 (the 6.2+ author link)."""
    base = core_one(site, post, size)

    def one(c: Comment, depth: int, cls: str) -> str:
        return base(c, depth, cls).replace(author_link(c), author_link64(c, site), 1)

    return one


def thoughts(n: int, title: str) -> str:
    """The "N thoughts on “Title”" heading text of the themes' comments.php."""
    return f"One thought on &ldquo;{title}&rdquo;" if n == 1 else f"{n} thoughts on &ldquo;{title}&rdquo;"


def search_form(site: Site, label: str = "Search") -> str:
    """get_search_form() with html5 support."""
    return (
        f'<form role="search" method="get" class="search-form" action="{site.base}">\n\t\t\t\t<label>\n\t\t\t\t\t'
        f'<span class="screen-reader-text">Search for:</span>\n\t\t\t\t\t<input type="search" class="search-field" '
        f'placeholder="Search &hellip;" value="" name="s" />\n\t\t\t\t</label>\n\t\t\t\t<input type="submit" class="'
        f'search-submit" value="{label}" />\n\t\t\t</form>'
    )


def page_twentythirteen(site: Site, post: Post) -> str:
    """Twenty Thirteen 4.0: core html5 comments (avatar 74), entry-meta spans, post navigation, #tertiary sidebar."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)
    comments = (
        f'\t\t<h2 class="comments-title">\n\t\t\t{thoughts(n, f"<span>{T}</span>")}\t\t</h2>\n\n\t\t<ol class="'
        f'comment-list">\n\t\t\t{walk(post, html5_one(site, post, 74))}\n\t\t</ol><!-- .comment-list -->\n\n\t\t\n\t\t'
        f"\n\t\n\t"
        if n
        else ""
    )
    tags = f'<span class="tags-links">{links(site, post, "tag")}</span>' if post.tags else ""
    meta = (
        f'<span class="date"><a href="{post.url}" title="Permalink to {T}" rel="bookmark"><time class="entry-date" '
        f'datetime="{site.iso(post.date)}">{site.fdate(post.date)}</time></a></span><span class="categories-links">'
        f'{links(site, post)}</span>{tags}<span class="author vcard"><a class="url fn n" href="{b}author/'
        f'{post.login}/" title="View all posts by {eh(post.author)}" rel="author">{eh(post.author)}</a></span>'
    )
    pnav = "".join(
        f'\n\t\t\t\t\t\t\t<a href="{p.url}" rel="{r}">{lab.format(tx(p.title))}</a>'
        for p, r, lab in [
            (prev, "prev", '<span class="meta-nav">&larr;</span> {}'),
            (nxt, "next", '{} <span class="meta-nav">&rarr;</span>'),
        ]
        if p
    )
    nav_menu = menu(site, 'id="primary-menu" class="nav-menu"')
    wid = widgets(site, widget_wrap('<aside id="{i}" class="widget {c}">'))
    lead = (
        f'\t<meta charset="UTF-8">\n\t<meta name="viewport" content="width=device-width">\n\t<title>{T} | '
        f'{eh(site.name)}</title>\n\t<link rel="profile" href="https://gmpg.org/xfn/11">\n\t<link rel="pingback" href="'
        f'{b}xmlrpc.php">\n\t<!--[if lt IE 9]>\n\t<script src="{b}wp-content/themes/twentythirteen/js/html5.js?ver='
        f'3.7.0"></script>\n\t<![endif]-->\n\t'
    )
    pre = (
        '<!DOCTYPE html>\n<!--[if IE 7]>\n<html class="ie ie7" lang="en-US">\n<![endif]-->\n<!--[if IE 8]>\n<html '
        'class="ie ie8" lang="en-US">\n<![endif]-->\n<!--[if !(IE 7) & !(IE 8)]><!-->\n<html lang="en-US">\n'
        "<!--<![endif]-->"
    )
    body = (
        f'\t\t<div id="page" class="hfeed site">\n\t\t<header id="masthead" class="site-header">\n\t\t\t<a class="'
        f'home-link" href="{b}" rel="home">\n\t\t\t\t<h1 class="site-title">{eh(site.name)}</h1>\n\t\t\t\t<h2 class='
        f'"site-description">{tx(site.cfg["tagline"])}</h2>\n\t\t\t</a>\n\n\t\t\t<div id="navbar" class="navbar">\n'
        f'\t\t\t\t<nav id="site-navigation" class="navigation main-navigation">\n\t\t\t\t\t<button class="menu-toggle">'
        f'Menu</button>\n\t\t\t\t\t<a class="screen-reader-text skip-link" href="#content">Skip to content</a>\n\t\t\t'
        f'\t\t<div class="menu-main-container">{nav_menu}</div>\t\t\t\t\t{search_form(site)}\t\t\t\t</nav><!-- '
        f'#site-navigation -->\n\t\t\t</div><!-- #navbar -->\n\t\t</header><!-- #masthead -->\n\n\t\t<div id="main" '
        f'class="site-main">\n\n\t<div id="primary" class="content-area">\n\t\t<div id="content" class="site-content" '
        f'role="main">\n\n\t\t\t\n\t\t\t\t\n<article id="post-{post.id}" class="{pcls(post)}">\n\t<header class="'
        f'entry-header">\n\t\t\n\t\t\t\t<h1 class="entry-title">{T}</h1>\n\t\t\n\t\t<div class="entry-meta">\n\t\t\t'
        f'{meta}\t\t\t\t\t</div><!-- .entry-meta -->\n\t</header><!-- .entry-header -->\n\n\t\t<div class="entry-'
        f'content">\n\t\t{body_html(site, post)}\n\t\t\t</div><!-- .entry-content -->\n\t\n\t<footer class="entry-'
        f'meta">\n\t\t\n\t\t\t</footer><!-- .entry-meta -->\n</article><!-- #post -->\n\t\t\t\t\t<nav class="'
        f'navigation post-navigation">\n\t\t<h1 class="screen-reader-text">Post navigation</h1>\n\t\t<div class="nav-'
        f'links">\n{pnav}\n\n\t\t\t\t\t</div><!-- .nav-links -->\n\t\t</nav><!-- .navigation -->\n\t\t\t\t\t\n<div id='
        f'"comments" class="comments-area">\n\n\t{comments}{comment_form(site, post)}\n\n</div><!-- #comments -->\n\n'
        f'\t\t\t\n\t\t</div><!-- #content -->\n\t</div><!-- #primary -->\n\n\t<div id="tertiary" class="sidebar-'
        f'container" role="complementary">\n\t\t<div class="sidebar-inner">\n\t\t\t<div class="widget-area">\n\t\t\t\t'
        f"{wid}\t\t\t</div><!-- .widget-area -->\n\t\t</div><!-- .sidebar-inner -->\n\t</div><!-- #tertiary -->\n\n\t"
        f'\t</div><!-- #main -->\n\t\t<footer id="colophon" class="site-footer">\n\t\t\t\n\t\t\t<div class="site-info">'
        f'\n\t\t\t\t\t\t\t\t<a href="https://wordpress.org/" class="imprint">\n\t\t\t\t\tProudly powered by WordPress'
        f"\t\t\t\t</a>\n\t\t\t</div><!-- .site-info -->\n\t\t</footer><!-- #colophon -->\n\t</div><!-- #page -->"
    )
    head = head64(site, post, ["fonts", "genericons", "style", "block-style"], lead)
    return doc_classic(site, head, body_cls(post, "single-author sidebar"), body, pre)


def page_twentyfifteen(site: Site, post: Post) -> str:
    """Twenty Fifteen 3.6: core html5 comments (avatar 56), a left sidebar (menu, widgets), entry-footer meta."""
    n, T, b = len(post.comments), tx(post.title), site.base
    comments = (
        f'\t\t<h2 class="comments-title">\n\t\t\t{thoughts(n, T)}\t\t</h2>\n\n\t\t\n\t\t<ol class="comment-list">\n'
        f"\t\t\t{walk(post, html5_one(site, post, 56))}\n\t\t</ol><!-- .comment-list -->\n\n\t\t\n\t\n\t"
        if n
        else ""
    )
    tags = (
        f'<span class="tags-links"><span class="screen-reader-text">Tags </span>{links(site, post, "tag")}</span>'
        if post.tags
        else ""
    )
    meta = (
        f'<span class="posted-on"><span class="screen-reader-text">Posted on </span><a href="{post.url}" rel="bookmark'
        f'"><time class="entry-date published updated" datetime="{site.iso(post.date)}">{site.fdate(post.date)}'
        f'</time></a></span><span class="byline"><span class="author vcard"><span class="screen-reader-text">Author '
        f'</span><a class="url fn n" href="{b}?author={site.cfg["authors"].index((post.author, post.login)) + 1}">'
        f'{eh(post.author)}</a></span></span><span class="cat-links"><span class="screen-reader-text">Categories '
        f"</span>{links(site, post)}</span>{tags}"
    )
    nav = post_nav(
        site,
        post,
        lambda k, lab, p: (
            f'<span class="meta-nav" aria-hidden="true">{lab}</span> <span class="screen-reader-text">{lab} post:'
            f'</span> <span class="post-title">{tx(p.title)}</span>'
        ),
    )
    nav_menu = menu(site, 'id="menu-main" class="nav-menu"')
    wid = widgets(site, widget_wrap('<aside id="{i}" class="widget {c}">', "h2"), recent_comments=True)
    lead = (
        f'\t<meta charset="UTF-8">\n\t<meta name="viewport" content="width=device-width">\n\t<link rel="profile" href'
        f'="https://gmpg.org/xfn/11">\n\t<link rel="pingback" href="{b}xmlrpc.php">\n\t<!--[if lt IE 9]>\n\t<script '
        f'src="{b}wp-content/themes/twentyfifteen/js/html5.js?ver=3.7.0"></script>\n\t<![endif]-->\n\t<script>('
        f"function(){{document.documentElement.className='js'}})();</script>\n\t<title>{T} &#8211; {eh(site.name)}"
        "</title>\n"
    )
    body = (
        f'<div id="page" class="hfeed site">\n\t<a class="skip-link screen-reader-text" href="#content">\n\t\tSkip to '
        f'content\t</a>\n\n\t<div id="sidebar" class="sidebar">\n\t\t<header id="masthead" class="site-header">\n\t\t'
        f'\t<div class="site-branding">\n\t\t\t\t\t\t\t\t\t\t<p class="site-title"><a href="{b}" rel="home">'
        f'{eh(site.name)}</a></p>\n\t\t\t\t\t\t\t\t\t\t<p class="site-description">{tx(site.cfg["tagline"])}</p>\n'
        f'\t\t\t\t\t\t\t\t<button class="secondary-toggle">Menu and widgets</button>\n\t\t\t</div><!-- .site-branding'
        f' -->\n\t\t</header><!-- .site-header -->\n\n\t\t\t<div id="secondary" class="secondary">\n\n\t\t\t\t\t<nav '
        f'id="site-navigation" class="main-navigation">\n\t\t\t\t<div class="menu-main-container">{nav_menu}</div>\t'
        f'\t\t</nav><!-- .main-navigation -->\n\t\t\n\t\t\n\t\t\t\t\t<div id="widget-area" class="widget-area" role="'
        f'complementary">\n\t\t\t\t{wid}\n\t\t\t</div><!-- .widget-area -->\n\t\t\n\t</div><!-- .secondary -->\n\n\t'
        f'</div><!-- .sidebar -->\n\n\t<div id="content" class="site-content">\n\n\t<div id="primary" class="content-'
        f'area">\n\t\t<main id="main" class="site-main">\n\n\t\t\n<article id="post-{post.id}" class="{pcls(post)}">'
        f'\n\t\n\t<header class="entry-header">\n\t\t<h1 class="entry-title">{T}</h1>\t</header><!-- .entry-header '
        f'-->\n\n\t<div class="entry-content">\n\t\t{body_html(site, post)}\n\t</div><!-- .entry-content -->\n\n\t\n'
        f'\t<footer class="entry-footer">\n\t\t{meta}\t\t\t</footer><!-- .entry-footer -->\n\n</article><!-- #post-'
        f'{post.id} -->\n\n<div id="comments" class="comments-area">\n\n\t{comments}{comment_form(site, post)}\n\n'
        f"</div><!-- .comments-area -->\n\n\t{nav}\n\n\t\t</main><!-- .site-main -->\n\t</div><!-- .content-area -->"
        f'\n\n\n\t</div><!-- .site-content -->\n\n\t<footer id="colophon" class="site-footer">\n\t\t<div class="site-'
        f'info">\n\t\t\t\t\t\t\t\t<a href="https://wordpress.org/" class="imprint">\n\t\t\t\tProudly powered by '
        f"WordPress\t\t\t</a>\n\t\t</div><!-- .site-info -->\n\t</footer><!-- .site-footer -->\n\n</div><!-- .site -->"
    )
    head = head64(site, post, ["fonts", "genericons", "style", "block-style"], lead, "&#8211;")
    pre = '<!DOCTYPE html>\n<html lang="en-US" class="no-js">'
    return doc_classic(site, head, body_cls(post, "wp-embed-responsive"), body, pre)
