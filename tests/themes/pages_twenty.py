"""Single-post pages in the markup of the default themes Twenty Twenty, Twenty Nineteen and Twenty Seventeen.

Each ``page_*(site, post)`` returns the whole HTML page of one post as WordPress 6.1 with that theme serves it.
"""

from __future__ import annotations

from .comments import avatar, comment_form, core_one, ctext, reply_link, walk
from .markup import (
    body_cls,
    body_html,
    doc,
    duotone_svgs,
    head_modern,
    links,
    menu,
    neighbours,
    pcls,
    post_nav,
    svg,
    widgets,
)
from .model import Comment, Post, Site, eh, tx
from .words import W


def page_twentytwenty(site: Site, post: Post) -> str:
    """Twenty Twenty: TwentyTwenty_Walker_Comment, style 'div'; widgets in the footer."""
    n, (prev, nxt), T = len(post.comments), neighbours(site, post), tx(post.title)
    ul = 'class="primary-menu reset-list-style"'

    def one(c: Comment, depth: int, cls: str) -> str:
        ts, a = site.stamp(c.date), f'<a href="{c.url}" rel="external nofollow" class="url">' if c.url else ""
        by = '<span class="by-post-author">By Post Author</span>' if c.mine else ""
        return (
            f'<div id="comment-{c.id}" class="{cls}">\n<article id="div-comment-{c.id}" class="comment-body">\n'
            f'<footer class="comment-meta">\n<div class="comment-author vcard">\n{a}{avatar(c, 120)}<span class="fn">'
            f'{eh(c.author)}</span><span class="screen-reader-text says">says:</span>{"</a>" if c.url else ""}'
            f'</div><!-- .comment-author -->\n<div class="comment-metadata">\n<a href="{post.url}#comment-{c.id}">'
            f'<time datetime="{site.iso(c.date)}">{ts}</time></a></div><!-- .comment-metadata -->\n'
            f'</footer><!-- .comment-meta -->\n<div class="comment-content entry-content">\n\n{ctext(c)}\n</div>'
            f'<!-- .comment-content -->\n<footer class="comment-footer-meta">\n<span class="comment-reply">'
            f"{reply_link(site, post, c)}</span>{by}\n</footer>\n</article><!-- .comment-body -->\n"
        )

    comments = (
        ""
        if not n
        else (
            f'<div class="comments" id="comments">\n<div class="comments-header section-inner small max-percentage">'
            f"\n<h2 "
            f'class="comment-reply-title">\n{"One reply" if n == 1 else f"{n} replies"} on &ldquo;{T}&rdquo;</h2><!-- '
            f'.comments-title -->\n</div><!-- .comments-header -->\n<div class="comments-inner section-inner thin max-'
            f'percentage">\n{walk(post, one, ("", ""), "</div><!-- #comment-## -->")}\n</div><!-- .comments-inner -->\n'
            f'</div><!-- comments -->\n<hr class="styled-separator is-style-wide section-inner" aria-hidden="true" />\n'
        )
    )
    pag = "".join(
        f'<a class="{k}-post" href="{p.url}"><span class="arrow" aria-hidden="true">{arr}</span><span '
        f'class="title"><span class="title-inner">{tx(p.title)}</span></span></a>'
        for k, p, arr in [("previous", prev, "&larr;"), ("next", nxt, "&rarr;")]
        if p
    )
    wid = widgets(
        site,
        lambda i, c, t, x: (
            f'<div class="widget {c}"><div class="widget-content">'
            + (
                f'<h2 class="widget-title subheading heading-size-3">{t}</h2><nav aria-label="{t}">{x}</nav>'
                if t
                else x
            )
            + "</div></div>"
        ),
    )
    meta = [
        ("post-author", "Post author", "user", f'By <a href="{site.base}author/{post.login}/">{eh(post.author)}</a>'),
        ("post-date", "Post date", "calendar", f'<a href="{post.url}">{site.fdate(post.date)}</a>'),
        (
            "post-comment-link",
            "",
            "comment",
            f'<a href="{post.url}#{"comments" if n else "respond"}">'
            f'{f"{n} Comment" + "s" * (n != 1) if n else "No Comments"}<span class="screen-reader-text"> on {T}'
            f"</span></a>",
        ),
    ]
    meta_ul = "".join(
        f'<li class="{k} meta-wrapper">\n<span class="meta-icon">\n<span class="screen-reader-text">{s}'
        f'</span>\n{svg(i)}</span>\n<span class="meta-text">\n{x}</span>\n</li>\n'
        for k, s, i, x in meta
    )
    return doc(
        head_modern(site, post, ["style", "print"]),
        body_cls(
            post,
            "wp-embed-responsive singular enable-search-modal missing-post-thumbnail has-single-pagination "
            "showing-comments show-avatars footer-top-visible",
        ),
        [
            duotone_svgs(),
            '<a class="skip-link screen-reader-text" href="#site-content">Skip to the content</a>',
            f'<header id="site-header" class="header-footer-group">\n<div class="header-inner section-inner">\n<div '
            f'class="header-titles-wrapper">\n<div class="header-titles">\n<div class="site-title faux-heading"><a '
            f'href="{site.base}">{eh(site.name)}</a></div><div class="site-description">{tx(site.cfg["tagline"])}</div>'
            f"\n</div>"
            f'\n</div>\n<div class="header-navigation-wrapper">\n<nav class="primary-menu-wrapper" '
            f'aria-label="Horizontal">'
            f"\n{menu(site, ul)}\n</nav>\n</div>\n</div>\n</header>",
            f'<main id="site-content">\n<article class="{pcls(post)}" id="post-{post.id}">\n<header '
            f'class="entry-header has-text-align-center header-footer-group">\n<div class="entry-header-inner '
            f'section-inner medium">\n<div class="entry-categories">\n<span class="screen-reader-text">Categories'
            f'</span>\n<div class="entry-categories-inner">\n{links(site, post, "cat", " ")}</div><!-- '
            f".entry-categories-inner -->\n</div><!-- "
            f".entry-categories"
            f' -->\n<h1 class="entry-title">{T}</h1>\n<div class="post-meta-wrapper post-meta-single '
            f'post-meta-single-top">\n<ul class="post-meta">\n{meta_ul}</ul><!-- .post-meta -->\n</div><!-- '
            f'.post-meta-wrapper -->\n</div>\n</header><!-- .entry-header -->\n<div class="post-inner thin ">\n<div '
            f'class="entry-content">\n\n'
            f"{body_html(site, post)}\n\n</div><!-- .entry-content -->\n</div><!-- .post-inner -->\n<div "
            f'class="section-inner">\n<div class="post-meta-wrapper post-meta-single post-meta-single-bottom">\n<ul '
            f'class="post-meta">'
            f"\n"
            + (
                f'<li class="post-tags meta-wrapper">\n<span class="meta-icon">\n<span class="screen-reader-text">'
                f"Tags</span>"
                f'\n{svg("tag")}</span>\n<span class="meta-text">\n{links(site, post, "tag")}</span>\n</li>\n'
                if post.tags
                else ""
            )
            + f'</ul>\n</div>\n</div><!-- .section-inner -->\n<nav class="pagination-single section-inner" '
            f'aria-label="Post">\n<hr class="styled-separator is-style-wide" aria-hidden="true" />\n<div '
            f'class="pagination-single-inner">'
            f"\n"
            f'{pag}\n</div><!-- .pagination-single-inner -->\n<hr class="styled-separator is-style-wide" '
            f'aria-hidden="true" />\n</nav><!-- .pagination-single -->\n<div class="comments-wrapper '
            f'section-inner">\n{comments}'
            f"{comment_form(site, post, 'h2', cls='section-inner thin max-percentage')}\n</div><!-- .comments-wrapper "
            f"-->\n</article><!-- .post -->\n</main><!-- #site-content -->",
            f'<div class="footer-nav-widgets-wrapper header-footer-group">\n<div class="footer-inner section-inner">'
            f"\n<aside "
            f'class="footer-widgets-outer-wrapper">\n<div class="footer-widgets-wrapper">\n<div class="footer-widgets '
            f'column-one grid-item">\n{wid}\n</div>\n</div>\n</aside>\n</div>\n</div>\n<footer id="site-footer" '
            f'class="header-footer-group">\n<div class="section-inner">\n<div class="footer-credits">\n<p '
            f'class="footer-copyright">&copy;\n2026 <a href="{site.base}">{eh(site.name)}</a>\n</p>\n<p '
            f'class="powered-by-wordpress">\n<a href="https://wordpress.org/">\nPowered by '
            f'WordPress</a>\n</p>\n</div><!-- .footer-credits -->\n<a class="to-the-top" href="#site-header">\n<span '
            f'class="to-the-top-long">\nTo the top <span class="arrow" aria-hidden="true">'
            f"&uarr;</span></span>\n</a>\n</div>\n</footer><!-- #site-footer -->",
            f"<script src='{site.base}wp-includes/js/comment-reply.min.js?ver=6.1.1' id='comment-reply-js'></script>",
        ],
    )


def page_twentynineteen(site: Site, post: Post) -> str:
    """Twenty Nineteen: TwentyNineteen_Walker_Comment, style 'ol', a discussion avatar list; widgets in the footer."""
    n, T, ul = len(post.comments), tx(post.title), 'id="menu-primary" class="main-menu"'

    def one(c: Comment, depth: int, cls: str) -> str:
        ts, a = site.stamp(c.date), f'<a href="{c.url}" rel="external nofollow" class="url">' if c.url else ""
        badge = f'<span class="post-author-badge" aria-hidden="true">{svg("check", 24)}</span>' if c.mine else ""
        return (
            f'<li id="comment-{c.id}" class="{cls}">\n<article id="div-comment-{c.id}" class="comment-body">\n<footer '
            f'class="comment-meta">\n<div class="comment-author vcard">\n{a}{avatar(c, 60)}{badge}<b class="fn">'
            f'{eh(c.author)}</b> <span class="screen-reader-text says">says:</span>{"</a>" if c.url else ""}</div>'
            f'<!-- .comment-author -->\n<div class="comment-metadata">\n<a href="{post.url}#comment-{c.id}"><time '
            f'datetime="{site.iso(c.date)}" title="{ts}">\n{ts}</time>\n</a>\n</div><!-- .comment-metadata -->\n'
            f'</footer><!-- .comment-meta -->\n<div class="comment-content">\n{ctext(c)}</div><!-- .comment-content '
            f'-->\n</article><!-- .comment-body -->\n<div class="comment-reply">{reply_link(site, post, c)}</div>'
        )

    cnt = (
        f"{n} Comment{'s' * (n != 1)}" if n else "Leave a comment"
    ) + f'<span class="screen-reader-text"> on {T}</span>'
    byline = (
        f'<span class="byline">{svg("person", 16)}<span class="screen-reader-text">Posted by</span><span class="'
        f'author vcard"><a class="url fn n" href="{site.base}author/{post.login}/">{eh(post.author)}</a></span>'
        f'</span><span class="posted-on">{svg("watch", 16)}<a href="{post.url}" rel="bookmark"><time class="'
        f'entry-date published updated" datetime="{site.iso(post.date)}">{site.fdate(post.date)}</time></a></span>'
    )
    if n:
        avs = "".join(
            f'<li><div class="comment-user-avatar comment-author vcard">{avatar(c, 60)}</div></li>'
            for c in {c.author: c for c in post.comments}.values()
        )
        comments = (
            f'<div class="comments-title-wrap">\n<h2 class="comments-title">\nJoin the Conversation</h2><!-- '
            f'.comments-title -->\n<div class="discussion-meta">\n<ol class="discussion-avatar-list">{avs}</ol>'
            f'<!-- .discussion-avatar-list -->\n<p class="discussion-meta-info">{svg("comment", 24)}<span>{n} '
            f"Comment{'s' * (n != 1)}</span></p>\n</div><!-- .discussion-meta -->\n</div><!-- .comments-title-flex"
            f' -->\n<ol class="comment-list">\n{walk(post, one)}\n</ol><!-- .comment-list -->\n<div class="'
            f'comment-form-flex">\n<span class="screen-reader-text">Leave a comment</span>\n'
            f'{comment_form(site, post, title="")}\n<h2 class="comments-title" aria-hidden="true">Leave a comment'
            f"</h2>\n</div>"
        )
    else:
        comments = (
            f'<div class="comments-title-wrap no-responses">\n<h2 class="comments-title">\nLeave a comment</h2>'
            f"<!-- .comments-title -->\n</div><!-- .comments-title-flex -->\n{comment_form(site, post, title='')}"
        )
    nav = post_nav(
        site,
        post,
        lambda k, lab, p: (
            f'<span class="meta-nav" aria-hidden="true">{lab} Post</span> <span '
            f'class="screen-reader-text">{lab} post:</span> <br/><span class="post-title">{tx(p.title)}</span>'
        ),
    )
    wid = widgets(
        site,
        lambda i, c, t, x: (
            f'<section id="{i}" class="widget {c}">'
            + (f'<h2 class="widget-title">{t}</h2>' if t else "")
            + f"{x}</section>"
        ),
    )
    return doc(
        head_modern(site, post, ["style", "print-style"]),
        body_cls(post, "wp-embed-responsive singular image-filters-enabled"),
        [
            duotone_svgs(),
            f'<div id="page" class="site">\n<a class="skip-link screen-'
            f'reader-text" href="#content">Skip to content</a>\n<header id="masthead" class="site-header">\n<div '
            f'class="site-branding-container">\n<div class="site-branding">\n<p class="site-title"><a href="'
            f'{site.base}" rel="home">{eh(site.name)}</a></p>\n<p class="site-description">\n'
            f'{tx(site.cfg["tagline"])}</p>\n<nav id="site-navigation" class="main-navigation" aria-label="Top '
            f'Menu">\n<div class="menu-primary-container">{menu(site, ul)}</div>'
            f"\n</nav><!-- #site-navigation -->\n</div><!-- .site-branding -->\n</div><!-- .site-branding-container "
            f'-->\n</header><!-- #masthead -->\n<div id="content" class="site-content">\n<div id="primary" class="'
            f'content-area">\n<main id="main" class="site-main">\n<article id="post-{post.id}" class="{pcls(post)} '
            f'entry">\n<header class="entry-header">\n<h1 class="entry-title">{T}</h1>\n<div class="entry-meta">\n'
            f'{byline}<span class="comment-count">{svg("comment", 16)}<span class="comments-link"><a href="'
            f'{post.url}#{"comments" if n else "respond"}">{cnt}</a></span></span></div><!-- .entry-meta -->\n'
            f'</header>\n<div class="entry-content">\n{body_html(site, post)}\n</div><!-- .entry-content -->\n'
            f'<footer class="entry-footer">\n{byline}<span class="cat-links">{svg("archive", 16)}<span class="'
            f'screen-reader-text">Posted in</span>{links(site, post)}</span>'
            + (
                f'<span class="tags-links">{svg("tag", 16)}<span class="screen-reader-text">Tags: </span>'
                f"{links(site, post, 'tag')}</span>"
                if post.tags
                else ""
            )
            + f'</footer><!-- .entry-footer -->\n<div class="author-bio">\n<h2 class="author-title">\n<span class="'
            f'author-heading">\nPublished by {eh(post.author)}</span>\n</h2>\n<p class="author-description">\n<a '
            f'class="author-link" href="{site.base}author/{post.login}/" rel="author">\nView more posts</a>\n</p><!-- '
            f".author-description -->\n</div><!-- .author-bio -->\n</article><!-- #post-{post.id} -->\n{nav}\n<div "
            f'id="comments" class="comments-area">\n{comments}\n</div><!-- #comments -->\n</main><!-- #main -->\n'
            f'</div><!-- #primary -->\n</div><!-- #content -->\n<footer id="colophon" class="site-footer">\n<aside '
            f'class="widget-area" aria-label="Footer">\n<div class="widget-column footer-widget-1">\n{wid}\n</div>\n'
            f'</aside><!-- .widget-area -->\n<div class="site-info">\n<a class="site-name" href="{site.base}" rel="'
            f'home">{eh(site.name)}</a>,\n<a href="https://wordpress.org/" class="imprint">\nProudly powered by '
            f"WordPress.</a>\n</div><!-- .site-info -->\n</footer><!-- #colophon -->\n</div><!-- #page -->",
        ],
    )


def page_twentyseventeen(site: Site, post: Post) -> str:
    """Twenty Seventeen: core html5 comments, a sidebar with a Recent Comments widget, an SVG icon sprite."""
    n, T, ul = len(post.comments), tx(post.title), 'id="top-menu" class="menu"'

    def icon(name: str) -> str:
        return (
            f'<svg class="icon icon-{name}" aria-hidden="true" role="img"> <use href="#icon-{name}" '
            f'xlink:href="#icon-{name}"></use> </svg>'
        )

    comments = (
        ""
        if not n
        else (
            f'<h2 class="comments-title">\n{"One Reply" if n == 1 else f"{n} Replies"} to &ldquo;{T}&rdquo;</h2>\n<ol '
            f'class="comment-list">\n{walk(post, core_one(site, post, 100, icon("mail-reply") + "Reply"))}\n</ol>\n'
        )
    )
    nav = post_nav(
        site,
        post,
        lambda k, lab, p: (
            f'<span class="screen-reader-text">{lab} Post</span><span aria-hidden='
            f'"true" class="nav-subtitle">{lab}</span> <span class="nav-title">'
            + (
                f'<span class="nav-title-icon-wrapper">{icon("arrow-left")}</span>{tx(p.title)}'
                if k == "previous"
                else f'{tx(p.title)}<span class="nav-title-icon-wrapper">{icon("arrow-right")}</span>'
            )
            + "</span>"
        ),
    )
    wid = widgets(
        site,
        lambda i, c, t, x: (
            f'<section id="{i}" class="widget {c}">'
            + (f'<h2 class="widget-title">{t}</h2>' if t else "")
            + f"{x}</section>"
        ),
        recent_comments=True,
    )
    sprite = "".join(
        f'<symbol id="icon-{s}" viewBox="0 0 32 32"><path class="path1" d="M{i + 3} {i * 2 + 1}l{14 - i} '
        f'{9 + i}-{7 + i} {11 - i}h{i + 5}z"></path></symbol>'
        for i, s in enumerate(
            W(
                "behance|deviantart|medium|slideshare|snapchat-ghost|yelp|vine|vk|search|close|angle-down|"
                "folder-open|twitter|facebook|instagram|mail-reply|arrow-left|arrow-right|hashtag|chain"
            )
        )
    )
    return doc(
        head_modern(site, post, ["style", "blocks"]),
        body_cls(post, "group-blog has-header-image has-sidebar colors-light"),
        [
            duotone_svgs(),
            f'<div id="page" class="site">\n<a class="skip-link screen-reader-text"'
            f' href="#content">Skip to content</a>\n<header id="masthead" class="site-header">\n<div class="custom-'
            f'header">\n<div class="custom-header-media">\n<div id="wp-custom-header" class="wp-custom-header"><img '
            f'src="{site.base}wp-content/themes/twentyseventeen/assets/images/header.jpg" width="2000" height="1200" '
            f'alt="" /></div></div>\n<div class="site-branding">\n<div class="wrap">\n<div class="site-branding-text">'
            f'\n<p class="site-title"><a href="{site.base}" rel="home">{eh(site.name)}</a></p>\n<p class="site-'
            f'description">{tx(site.cfg["tagline"])}</p>\n</div><!-- .site-branding-text -->\n</div><!-- .wrap -->\n'
            f'</div><!-- .site-branding -->\n</div><!-- .custom-header -->\n<div class="navigation-top">\n<div class='
            f'"wrap">\n<nav id="site-navigation" class="main-navigation" aria-label="Top Menu">\n<button class="menu-'
            f'toggle" aria-controls="top-menu" aria-expanded="false">{icon("bars")}Menu</button>\n<div class="menu-'
            f'top-container">{menu(site, ul)}</div>\n</nav><!-- #site-navigation -->\n</div>'
            f'<!-- .wrap -->\n</div><!-- .navigation-top -->\n</header><!-- #masthead -->\n<div class="site-content-'
            f'contain">\n<div id="content" class="site-content">\n<div class="wrap">\n<div id="primary" class="'
            f'content-area">\n<main id="main" class="site-main">\n<article id="post-{post.id}" class="{pcls(post)}">'
            f'\n<header class="entry-header">\n<div class="entry-meta"><span class="posted-on"><span class="screen-'
            f'reader-text">Posted on</span> <a href="{post.url}" rel="bookmark"><time class="entry-date published '
            f'updated" datetime="{site.iso(post.date)}">{site.fdate(post.date)}</time></a></span><span class="byline"'
            f'> by <span class="author vcard"><a class="url fn n" href="{site.base}author/{post.login}/">'
            f'{eh(post.author)}</a></span></span></div><!-- .entry-meta --><h1 class="entry-title">{T}</h1>\n'
            f'</header><!-- .entry-header -->\n<div class="entry-content">\n{body_html(site, post)}\n</div><!-- .entry'
            f'-content -->\n<footer class="entry-footer"><span class="cat-tags-links"><span class="cat-links">'
            f'{icon("folder-open")}<span class="screen-reader-text">Categories</span>{links(site, post)}</span>'
            + (
                f'<span class="tags-links">{icon("hashtag")}<span class="screen-reader-text">Tags</span>'
                f"{links(site, post, 'tag')}</span>"
                if post.tags
                else ""
            )
            + f'</span></footer> <!-- .entry-footer -->\n</article><!-- #post-{post.id} -->\n<div id="comments" '
            f'class="comments-area">\n{comments}{comment_form(site, post)}\n</div><!-- #comments -->\n{nav}\n</main>'
            f'<!-- #main -->\n</div><!-- #primary -->\n<aside id="secondary" class="widget-area" aria-label="Blog '
            f'Sidebar">\n{wid}\n</aside><!-- #secondary -->\n</div><!-- .wrap -->\n</div><!-- #content -->\n<footer '
            f'id="colophon" class="site-footer">\n<div class="wrap">\n<nav class="social-navigation" aria-label="'
            f'Footer Social Links Menu"></nav>\n<div class="site-info">\n<a href="https://wordpress.org/" class="'
            f'imprint">\nProudly powered by WordPress</a>\n</div><!-- .site-info -->\n</div><!-- .wrap -->\n</footer>'
            f"<!-- #colophon -->\n</div><!-- .site-content-contain -->\n</div><!-- #page -->",
            '<svg style="position: absolute; width: 0; height: 0; overflow: hidden;" version="1.1" xmlns="http://www'
            f'.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">\n<defs>\n{sprite}\n</defs>\n</svg>',
        ],
    )
