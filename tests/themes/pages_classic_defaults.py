"""Single-post pages of the older default themes Twenty Ten, Twenty Eleven and Twenty Twelve (WordPress 6.4).

None of the three declares html5 support: each lists its comments with its own callback (``twentyten_comment``,
``twentyeleven_comment``, ``twentytwelve_comment``) in ``ol.commentlist``, the walker adds no ``parent`` class,
the reply link's ``data-belowelement`` is ``comment-N`` and the comment form is core's XHTML form.  Also the
WordPress 6.4 helpers the newer default themes share (``pages_html5_defaults``, ``pages_block_defaults``).
Each ``page_*(site, post)`` returns the whole HTML page of one post.
"""

from __future__ import annotations

from collections.abc import Callable

from .comments import CommentFn, avatar, comment_form, ctext, reply_link, walk
from .markup import body_cls, body_html, head_modern, links, menu, neighbours, pcls, widgets
from .model import Comment, Post, Site, eh, tx
from .pages_more import WP


def author_link64(c: Comment, site: Site) -> str:
    """get_comment_author_link() of WordPress 6.2+: ``rel="ugc"``, plus "external nofollow" off the site."""
    if not c.url:
        return eh(c.author)
    rel = "ugc" if c.url.startswith(site.base) else "ugc external nofollow"
    return f'<a href="{c.url}" class="url" rel="{rel}">{eh(c.author)}</a>'


def xhtml_form(site: Site, post: Post) -> str:
    """comment_form() of a theme without html5 support: no ``novalidate``, ``required="required"``, text inputs."""
    return (
        comment_form(site, post)
        .replace(" novalidate>", ">")
        .replace(" required>", ' required="required">')
        .replace(" required />", ' required="required" />')
        .replace('type="email"', 'type="text"')
        .replace('type="url"', 'type="text"')
    )


def callback_walk(post: Post, one: CommentFn) -> str:
    """wp_list_comments() with a theme callback: no ``parent`` class (only the walker's own methods add it)."""
    return walk(post, lambda c, d, cls: one(c, d, cls.replace(" parent", "")))


def widget_wrap(before: str, h: str = "h3", after: str = "</aside>") -> Callable[[str, str, str | None, str], str]:
    """A register_sidebar() wrapper: ``before`` with {i} and {c}, the title in ``h`` class widget-title."""
    return lambda i, c, t, x: (
        before.format(i=i, c=c) + (f'<{h} class="widget-title">{t}</{h}>' if t else "") + x + after
    )


def doc_classic(site: Site, head: str, cls: str, body: str, pre: str = '<!DOCTYPE html>\n<html lang="en-US">') -> str:
    """A classic theme's page: the opening of ``header.php`` (``pre``), <head>, body, the comment-reply script."""
    return (
        f'{pre}\n<head>\n{head}</head>\n\n<body class="{cls}">\n{body}\n\n<script src=\'{site.base}wp-includes/js/'
        f"comment-reply.min.js?ver={WP}' id='comment-reply-js' async data-wp-strategy='async'></script>\n\n</body>\n"
        "</html>\n"
    )


def head64(site: Site, post: Post, styles: list[str], lead: str, sep: str = "|") -> str:
    """The theme's own first <head> lines (``lead``: charset, title, links), then wp_head() of WordPress 6.4.

    ``head_modern`` without its first three lines (charset, viewport, title), which the classic themes print
    themselves.
    """
    return lead + head_modern(site, post, styles, sep, wp=WP).split("\n", 3)[3]


def page_twentyten(site: Site, post: Post) -> str:
    """Twenty Ten 4.0: twentyten_comment() (avatar 40, cite.fn, "%1$s at %2$s"), a right sidebar of widgets."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)
    t = "\t"

    def one(c: Comment, depth: int, cls: str) -> str:
        return (
            f'\t\t<li class="{cls}" id="li-comment-{c.id}">\n\t\t<div id="comment-{c.id}">\n\t\t\t<div class="comment-'
            f'author vcard">\n\t\t\t\t{avatar(c, 40)}\t\t\t\t<cite class="fn">{author_link64(c, site)}</cite> <span '
            f'class="says">says:</span>\t\t\t</div><!-- .comment-author .vcard -->\n\n\t\t\t\t\n\t\t\t\t\n\t\t\t<div '
            f'class="comment-meta commentmetadata"><a href="{post.url}#comment-{c.id}">\n\t\t\t\t{site.stamp(c.date)}'
            f"\t\t\t\t\t</a>\n\t\t\t\t\t\t\t\t\t</div><!-- .comment-meta .commentmetadata -->\n\n\t\t\t\t<div class="
            f'"comment-body">{ctext(c)}</div>\n\n\t\t\t\t<div class="reply">\n\t\t\t\t'
            f"{reply_link(site, post, c, 'comment')}\t\t\t\t</div><!-- .reply -->\n\t\t\t</div><!-- #comment-##  -->"
            "\n\n\t\t\t\t"
        )

    heading = f"One Response to <em>{T}</em>" if n == 1 else f"{n} Responses to <em>{T}</em>"
    comments = (
        f'\t\t\t<h3 id="comments-title">\n\t\t\t{heading}\t\t\t</h3>\n\n\t\n\t\t\t<ol class="commentlist">\n'
        f"\t\t\t\t{callback_walk(post, one)}\n\t\t\t</ol>\n\n\t\n\t\n\n"
        if n
        else ""
    )
    nav = "".join(
        f'\n{t * 5}<div class="nav-{k}">'
        + (f'<a href="{p.url}" rel="{r}">{lab.format(tx(p.title))}</a>' if p else "")
        + "</div>"
        for k, r, p, lab in [
            ("previous", "prev", prev, '<span class="meta-nav">&larr;</span> {}'),
            ("next", "next", nxt, '{} <span class="meta-nav">&rarr;</span>'),
        ]
    )
    tags = f" and tagged {links(site, post, 'tag')}" if post.tags else ""
    nav_menu = menu(site, 'id="menu-main" class="menu"')
    wid = widgets(
        site, widget_wrap('<li id="{i}" class="widget-container {c}">', after="</li>"), recent_comments=True, old=True
    )
    body = (
        f'<div id="wrapper" class="hfeed">\n\t<div id="header">\n\t\t<div id="masthead">\n\t\t\t<div id="branding" '
        f'role="banner">\n\t\t\t\t\t\t\t\t<div id="site-title">\n\t\t\t\t\t<span>\n\t\t\t\t\t\t<a href="{b}" title='
        f'"{eh(site.name)}" rel="home">{eh(site.name)}</a>\n\t\t\t\t\t</span>\n\t\t\t\t</div>\n\t\t\t\t<div id="'
        f'site-description">{tx(site.cfg["tagline"])}</div>\n\n\t\t\t\t\t\t\t\t\t\t<img src="{b}wp-content/themes/'
        f'twentyten/images/headers/path.jpg" width="940" height="198" alt="" />\n\t\t\t\t\t\t\t\t</div><!-- '
        f'#branding -->\n\n\t\t\t<div id="access" role="navigation">\n\t\t\t\t\t\t\t\t<div class="skip-link screen-'
        f'reader-text"><a href="#content" title="Skip to content">Skip to content</a></div>\n\t\t\t\t<div class="'
        f'menu-header">{nav_menu}</div>\t\t\t</div><!-- #access -->\n\t\t</div>'
        f'<!-- #masthead -->\n\t</div><!-- #header -->\n\n\t<div id="main">\n\n\t\t<div id="container">\n\t\t\t<div '
        f'id="content" role="main">\n\n\t\t\t\n\n\t\t\t\t<div id="nav-above" class="navigation">{nav}\n\t\t\t\t'
        f'</div><!-- #nav-above -->\n\n\t\t\t\t<div id="post-{post.id}" class="{pcls(post)}">\n\t\t\t\t\t<h1 class="'
        f'entry-title">{T}</h1>\n\n\t\t\t\t\t<div class="entry-meta">\n\t\t\t\t\t\t<span class="meta-prep meta-prep-'
        f'author">Posted on</span> <a href="{post.url}" title="{site.ftime(post.date)}" rel="bookmark"><span class='
        f'"entry-date">{site.fdate(post.date)}</span></a> <span class="meta-sep">by</span> <span class="author '
        f'vcard"><a class="url fn n" href="{b}author/{post.login}/" title="View all posts by {eh(post.author)}">'
        f'{eh(post.author)}</a></span>\t\t\t\t\t</div><!-- .entry-meta -->\n\n\t\t\t\t\t<div class="entry-content">'
        f"\n\t\t\t\t\t\t{body_html(site, post)}\n\t\t\t\t\t\t\t\t\t\t\t</div><!-- .entry-content -->\n\n\t\n\t\t\t\t"
        f'\t\t<div class="entry-utility">\n\t\t\t\t\t\t\tThis entry was posted in {links(site, post)}{tags}. '
        f'Bookmark the <a href="{post.url}" title="Permalink to {T}" rel="bookmark">permalink</a>.\t\t\t\t\t\t\t'
        f"\t\t\t\t\t\t</div><!-- .entry-utility -->\n\t\t\t\t\t</div><!-- #post-{post.id} -->\n\n\t\t\t\t\t<div id="
        f'"nav-below" class="navigation">{nav}\n\t\t\t\t\t</div><!-- #nav-below -->\n\n\t\t\t\t\t\n\t\t\t<div id="'
        f'comments">\n\n\n{comments}{xhtml_form(site, post)}\n\n</div><!-- #comments -->\n\n\t\n\t\t\t</div><!-- '
        f'#content -->\n\t\t</div><!-- #container -->\n\n\n\t\t<div id="primary" class="widget-area" role="'
        f'complementary">\n\t\t\t<ul class="xoxo">\n\n{wid}\n\t\t\t</ul>\n\t\t</div><!-- #primary .widget-area -->\n'
        f'\n\n\t</div><!-- #main -->\n\n\t<div id="footer" role="contentinfo">\n\t\t<div id="colophon">\n\n\n\n\t\t\t'
        f'<div id="site-info">\n\t\t\t\t<a href="{b}" title="{eh(site.name)}" rel="home">\n\t\t\t\t\t'
        f'{eh(site.name)}\t\t\t\t</a>\n\t\t\t\t\t\t\t</div><!-- #site-info -->\n\n\t\t\t<div id="site-generator">'
        f'\n\t\t\t\t\t\t\t\t<a href="https://wordpress.org/" class="imprint" title="Semantic Personal Publishing '
        f'Platform">\n\t\t\t\t\tProudly powered by WordPress.\t\t\t\t</a>\n\t\t\t</div><!-- #site-generator -->\n\n'
        f"\t\t</div><!-- #colophon -->\n\t</div><!-- #footer -->\n\n</div><!-- #wrapper -->"
    )
    lead = (
        f'<meta charset="UTF-8" />\n<title>\n{T} | {eh(site.name)}\t</title>\n<link rel="profile" href="http://'
        f'gmpg.org/xfn/11" />\n<link rel="stylesheet" type="text/css" media="all" href="{b}wp-content/themes/'
        f'twentyten/style.css?ver=20190507" />\n<link rel="pingback" href="{b}xmlrpc.php">\n'
    )
    return doc_classic(site, head64(site, post, ["block-style"], lead), body_cls(post, "").rstrip(), body)


def page_twentyeleven(site: Site, post: Post) -> str:
    """Twenty Eleven 4.5: twentyeleven_comment() (avatar 68 / 39, "Name on <time> said:"), widgets in the footer."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)

    def one(c: Comment, depth: int, cls: str) -> str:
        return (
            f'\t\t<li class="{cls}" id="li-comment-{c.id}">\n\t\t<article id="comment-{c.id}" class="comment">\n\t\t\t'
            f'<footer class="comment-meta">\n\t\t\t\t<div class="comment-author vcard">\n\t\t\t\t\t'
            f'{avatar(c, 39 if c.parent else 68)}<span class="fn">{author_link64(c, site)}</span> on <a href="'
            f'{post.url}#comment-{c.id}"><time datetime="{site.iso(c.date)}">{site.stamp(c.date)}</time></a> <span '
            f'class="says">said:</span>\n\t\t\t\t\t\t\t\t\t\t</div><!-- .comment-author .vcard -->\n\n\t\t\t\t\t\n\t'
            f'\t\t\t\t\n\t\t\t\t</footer>\n\n\t\t\t\t<div class="comment-content">{ctext(c)}</div>\n\n\t\t\t\t<div '
            f'class="reply">\n\t\t\t\t\t{reply_link(site, post, c, "comment", "Reply <span>&darr;</span>")}\t\t\t\t'
            f"</div><!-- .reply -->\n\t\t\t</article><!-- #comment-## -->\n\n\t\t\t\t"
        )

    heading = (
        f"One thought on &ldquo;<span>{T}</span>&rdquo;"
        if n == 1
        else f"{n} thoughts on &ldquo;<span>{T}</span>&rdquo;"
    )
    comments = (
        f'\t\t<h2 id="comments-title">\n\t\t\t{heading}\t\t</h2>\n\n\t\t\n\t\t<ol class="commentlist">\n\t\t\t\t'
        f"{callback_walk(post, one)}\n\t\t</ol>\n\n\t\t\n\t\t\n\t\n\t"
        if n
        else "\n\t\n\t"
    )
    nav = "".join(
        f'\n\t\t\t\t\t\t<span class="nav-{k}">' + (f'<a href="{p.url}" rel="{r}">{lab}</a>' if p else "") + "</span>"
        for k, r, p, lab in [
            ("previous", "prev", prev, '<span class="meta-nav">&larr;</span> Previous'),
            ("next", "next", nxt, 'Next <span class="meta-nav">&rarr;</span>'),
        ]
    )
    tags = f" and tagged {links(site, post, 'tag')}" if post.tags else ""
    nav_menu = menu(site, 'id="menu-main" class="menu"')
    wid = widgets(site, widget_wrap('<aside id="{i}" class="widget {c}">'), old=True)
    lead = (
        f'<meta charset="UTF-8" />\n<meta name="viewport" content="width=device-width, initial-scale=1.0" />\n<title>'
        f'{T} | {eh(site.name)}</title>\n<link rel="profile" href="https://gmpg.org/xfn/11" />\n<link rel="'
        f'stylesheet" type="text/css" media="all" href="{b}wp-content/themes/twentyeleven/style.css?ver=20231107" />\n'
        f'<link rel="pingback" href="{b}xmlrpc.php">\n'
    )
    body = (
        f'<div class="skip-link"><a class="assistive-text" href="#content">Skip to primary content</a></div><div id="'
        f'page" class="hfeed">\n\t<header id="branding">\n\t\t\t<hgroup>\n\t\t\t\t\t\t\t<h1 id="site-title"><span><a '
        f'href="{b}" rel="home">{eh(site.name)}</a></span></h1>\n\t\t\t\t<h2 id="site-description">'
        f'{tx(site.cfg["tagline"])}</h2>\n\t\t\t</hgroup>\n\n\t\t\t\t\t\t<a href="{b}">\n\t\t\t\t\t\t\t\t\t<img src="'
        f'{b}wp-content/themes/twentyeleven/images/headers/willow.jpg" width="1000" height="288" alt="'
        f'{eh(site.name)}" />\n\t\t\t\t\t\t\t</a>\n\t\t\t\n\t\t\t\t\t\t\t\t\t<form method="get" id="searchform" '
        f'action="{b}">\n\t\t<label for="s" class="assistive-text">Search</label>\n\t\t<input type="text" class="'
        f'field" name="s" id="s" placeholder="Search" />\n\t\t<input type="submit" class="submit" name="submit" id="'
        f'searchsubmit" value="Search" />\n\t</form>\n\t\t\t\n\t\t\t<nav id="access">\n\t\t\t\t<h3 class="assistive-'
        f'text">Main menu</h3>\n\t\t\t\t<div class="menu-main-container">{nav_menu}'
        f'</div>\t\t\t</nav><!-- #access -->\n\t</header><!-- #branding -->\n\n\n\t<div id="main">\n\n\t\t<div id="'
        f'primary">\n\t\t\t<div id="content" role="main">\n\n\t\t\t\t\n\t\t\t\t\t<nav id="nav-single">\n\t\t\t\t\t\t'
        f'<h3 class="assistive-text">Post navigation</h3>{nav}\n\t\t\t\t\t</nav><!-- #nav-single -->\n\n\t\t\t\t\t\n'
        f'<article id="post-{post.id}" class="{pcls(post)}">\n\t<header class="entry-header">\n\t\t<h1 class="entry-'
        f'title">{T}</h1>\n\n\t\t\t\t<div class="entry-meta">\n\t\t\t<span class="sep">Posted on </span><a href="'
        f'{post.url}" title="{site.ftime(post.date)}" rel="bookmark"><time class="entry-date" datetime="'
        f'{site.iso(post.date)}">{site.fdate(post.date)}</time></a><span class="by-author"> <span class="sep"> by '
        f'</span> <span class="author vcard"><a class="url fn n" href="{b}author/{post.login}/" title="View all posts '
        f'by {eh(post.author)}" rel="author">{eh(post.author)}</a></span></span>\t\t</div><!-- .entry-meta -->\n\t\t'
        f'\t</header><!-- .entry-header -->\n\n\t<div class="entry-content">\n\t\t{body_html(site, post)}\n\t\t\t</div>'
        f'<!-- .entry-content -->\n\n\t<footer class="entry-meta">\n\t\tThis entry was posted in {links(site, post)}'
        f'{tags} by <a href="{b}author/{post.login}/">{eh(post.author)}</a>. Bookmark the <a href="{post.url}" title="'
        f'Permalink to {T}" rel="bookmark">permalink</a>.\t\t\n\t\t\n\t\t\t</footer><!-- .entry-meta -->\n</article>'
        f'<!-- #post-{post.id} -->\n\n\t\t\t\t\t\t<div id="comments">\n\t\n\t\n{comments}{xhtml_form(site, post)}\n\n'
        f"</div><!-- #comments -->\n\n\t\t\t\t\n\t\t\t</div><!-- #content -->\n\t\t</div><!-- #primary -->\n\n\n"
        f'\t</div><!-- #main -->\n\n\t<footer id="colophon">\n\n\t\t\t\n<div id="supplementary" class="one">\n'
        f'\t\t<div id="first" class="widget-area" role="complementary">\n\t\t{wid}\n\t\t</div>'
        f'<!-- #first .widget-area -->\n\t\n\t\n\t</div><!-- #supplementary -->\n\n\t\t\t<div id="site-generator">\n'
        '\t\t\t\t\t\t\t\t\t\t\t\t<a href="https://wordpress.org/" class="imprint" title="Semantic Personal '
        'Publishing Platform">\n\t\t\t\t\tProudly powered by WordPress\t\t\t\t</a>\n\t\t\t</div>\n\t</footer>'
        "<!-- #colophon -->\n</div><!-- #page -->"
    )
    cls = body_cls(post, "single-author singular two-column right-sidebar")
    return doc_classic(site, head64(site, post, ["block-style"], lead), cls, body)


def page_twentytwelve(site: Site, post: Post) -> str:
    """Twenty Twelve 4.1: twentytwelve_comment() (avatar 44, cite > b.fn, "Post author", section.comment-content)."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)

    def one(c: Comment, depth: int, cls: str) -> str:
        mark = "<span>Post author</span>" if c.mine else ""
        return (
            f'\t\t<li class="{cls}" id="li-comment-{c.id}">\n\t\t<article id="comment-{c.id}" class="comment">\n\t\t\t'
            f'<header class="comment-meta comment-author vcard">\n\t\t\t\t{avatar(c, 44)}<cite><b class="fn">'
            f'{author_link64(c, site)}</b> {mark}</cite><a href="{post.url}#comment-{c.id}"><time datetime="'
            f'{site.iso(c.date)}">{site.stamp(c.date)}</time></a>\t\t\t\t</header><!-- .comment-meta -->\n\n\t\t\t\t'
            f'\n\t\t\t\t\n\t\t\t\t<section class="comment-content comment">\n\t\t\t\t{ctext(c)}\t\t\t\t\t\t\t\t'
            f'</section><!-- .comment-content -->\n\n\t\t\t\t<div class="reply">\n\t\t\t\t'
            f"{reply_link(site, post, c, 'comment')} <span>&darr;</span>\t\t\t\t</div><!-- .reply -->\n\t\t\t"
            f"</article><!-- #comment-## -->\n\t\t\t\t"
        )

    heading = (
        f"One thought on &ldquo;<span>{T}</span>&rdquo;"
        if n == 1
        else f"{n} thoughts on &ldquo;<span>{T}</span>&rdquo;"
    )
    comments = (
        f'\t\t<h2 class="comments-title">\n\t\t\t{heading}\t\t</h2>\n\n\t\t<ol class="commentlist">\n\t\t\t\t'
        f"{callback_walk(post, one)}\n\t\t</ol><!-- .commentlist -->\n\n\t\t\n\t\t\n\t\n\t"
        if n
        else ""
    )
    count = (
        f'<a href="{post.url}#comments">{"1 Reply" if n == 1 else f"{n} Replies"}</a>'
        if n
        else f'<a href="{post.url}#respond"><span class="leave-reply">Leave a reply</span></a>'
    )
    nav = "".join(
        f'\n\t\t\t\t\t<span class="nav-{k}">'
        + (f'<a href="{p.url}" rel="{r}">{lab.format(tx(p.title))}</a>' if p else "")
        + "</span>"
        for k, r, p, lab in [
            ("previous", "prev", prev, '<span class="meta-nav">&larr;</span> {}'),
            ("next", "next", nxt, '{} <span class="meta-nav">&rarr;</span>'),
        ]
    )
    tags = f" and tagged {links(site, post, 'tag')}" if post.tags else ""
    date = (
        f'<a href="{post.url}" title="{site.ftime(post.date)}" rel="bookmark"><time class="entry-date" datetime="'
        f'{site.iso(post.date)}">{site.fdate(post.date)}</time></a>'
    )
    nav_menu = menu(site, 'id="menu-main" class="nav-menu"')
    wid = widgets(site, widget_wrap('<aside id="{i}" class="widget {c}">'), old=True)
    lead = (
        f'<meta charset="UTF-8" />\n<meta name="viewport" content="width=device-width, initial-scale=1.0" />\n<title>'
        f'{T} | {eh(site.name)}</title>\n<link rel="profile" href="https://gmpg.org/xfn/11" />\n<link rel="pingback" '
        f'href="{b}xmlrpc.php">\n'
    )
    pre = (
        '<!DOCTYPE html>\n<!--[if IE 7]>\n<html class="ie ie7" lang="en-US">\n<![endif]-->\n<!--[if IE 8]>\n<html '
        'class="ie ie8" lang="en-US">\n<![endif]-->\n<!--[if !(IE 7) & !(IE 8)]><!-->\n<html lang="en-US">\n'
        "<!--<![endif]-->"
    )
    body = (
        f'<div id="page" class="hfeed site">\n\t<a class="screen-reader-text skip-link" href="#content">Skip to content'
        f'</a>\n\t<header id="masthead" class="site-header">\n\t\t<hgroup>\n\t\t\t\t\t\t\t<h1 class="site-title"><a '
        f'href="{b}" rel="home">{eh(site.name)}</a></h1>\n\t\t\t\t<h2 class="site-description">'
        f'{tx(site.cfg["tagline"])}</h2>\n\t\t\t</hgroup>\n\n\t\t<nav id="site-navigation" class="main-navigation">\n'
        f'\t\t\t<button class="menu-toggle">Menu</button>\n\t\t\t<a class="assistive-text" href="#content" title="'
        f'Skip to content">Skip to content</a>\n\t\t\t<div class="menu-main-container">'
        f"{nav_menu}</div>\t\t</nav><!-- #site-navigation -->\n\n\t\t\t\t</header>"
        f'<!-- #masthead -->\n\n\t<div id="main" class="wrapper">\n\n\t<div id="primary" class="site-content">\n\t\t'
        f'<div id="content" role="main">\n\n\t\t\t\n\t\t\t\t\n\t<article id="post-{post.id}" class="{pcls(post)}">'
        f'\n\t\t\t\t<header class="entry-header">\n\t\t\t\n\t\t\t\t\t\t<h1 class="entry-title">{T}</h1>\n\t\t\t\t\t'
        f'\t\t\t\t\t<div class="comments-link">\n\t\t\t\t\t{count}\t\t\t\t</div><!-- .comments-link -->\n\t\t\t\t\t'
        f'</header><!-- .entry-header -->\n\n\t\t\t\t<div class="entry-content">\n\t\t\t{body_html(site, post)}\n'
        f'\t\t\t\t\t</div><!-- .entry-content -->\n\t\t\n\t\t<footer class="entry-meta">\n\t\t\tThis entry was '
        f'posted in {links(site, post)}{tags} on {date}<span class="by-author"> by <span class="author vcard"><a class'
        f'="url fn n" href="{b}author/{post.login}/" title="View all posts by {eh(post.author)}" rel="author">'
        f"{eh(post.author)}</a></span></span>.\t\t\t\t\t\t\t\t</footer><!-- .entry-meta -->\n\t</article><!-- #post "
        f'-->\n\n\t\t\t\t<nav class="nav-single">\n\t\t\t\t\t<h3 class="assistive-text">Post navigation</h3>{nav}\n'
        f'\t\t\t\t</nav><!-- .nav-single -->\n\n\t\t\t\t\n<div id="comments" class="comments-area">\n\n\t\n\t{comments}'
        f"{xhtml_form(site, post)}\n\n</div><!-- #comments .comments-area -->\n\n\t\t\t\n\t\t</div><!-- #content -->\n"
        f'\t</div><!-- #primary -->\n\n\n\t\t\t<div id="secondary" class="widget-area" role="complementary">\n\t\t\t'
        f'{wid}\n\t\t</div><!-- #secondary -->\n\t\t</div><!-- #main .wrapper -->\n\t<footer id="colophon" role="'
        f'contentinfo">\n\t\t<div class="site-info">\n\t\t\t\t\t\t\t\t<a href="https://wordpress.org/" class="'
        f'imprint" title="Semantic Personal Publishing Platform">\n\t\t\t\tProudly powered by WordPress\t\t\t</a>\n'
        f"\t\t</div><!-- .site-info -->\n\t</footer><!-- #colophon -->\n</div><!-- #page -->"
    )
    head = head64(site, post, ["style", "block-style"], lead)
    return doc_classic(site, head, body_cls(post, "custom-font-enabled"), body, pre)
