"""Single-post pages of WooCommerce Storefront, Hello Elementor and Divi (WordPress 6.4).

Storefront prints comments with ``storefront_comment()``: ``div.comment-body`` holding ``comment-meta
commentmetadata`` (avatar, ``cite.fn``, the date only, in ``<time datetime>``) and ``div.comment-content`` (text and
reply link), under "N thoughts on “…”" in ``section#comments``.  Hello Elementor lists core html5 comments (avatar
42) in ``section#comments.comments-area`` between an Elementor Pro header and footer; the theme itself prints no
date, author or sidebar.  Divi uses ``et_custom_comments_display()`` (``div.comment_postinfo`` with ``span.fn`` and
"on March 3, 2026 at 4:20 pm", ``reply-container``) in ``section#comment-wrap``.  Each ``page_*(site, post)``
returns the whole HTML page of one post.
"""

from __future__ import annotations

from .comments import avatar, comment_form, core_one, ctext, reply_link, walk
from .markup import body_cls, body_html, doc, links, menu, menu_items, neighbours, pcls
from .model import Comment, Post, Site, eh, tx
from .pages_classic_defaults import author_link64
from .pages_more import WP
from .pages_more2 import cc, head, sidebar
from .words import MONTHS

UL_MAIN, UL_HANDHELD = 'id="menu-main" class="menu"', 'id="menu-main-1" class="menu"'


def page_storefront(site: Site, post: Post) -> str:
    """Storefront 4.5: storefront_comment(), post meta above the title, taxonomy, post navigation, sidebar."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)
    t = "\t"

    def one(c: Comment, depth: int, cls: str) -> str:
        return (
            f'\n\t\t<li class="{cls}" id="comment-{c.id}">\n{t * 2}<div class="comment-body">\n{t * 2}<div class="com'
            "ment"
            f'-meta commentmetadata">\n{t * 3}<div class="comment-author vcard">\n{t * 3}{avatar(c, 128)}{t * 3}<cite '
            f'class="fn">{author_link64(c, site)}</cite>\t\t\t</div>\n\t\t\t\n\t\t\t<a href="{post.url}#comment-'
            f'{c.id}" class="'
            f'comment-date">\n{t * 4}<time datetime="{site.iso(c.date)}">{site.fdate(c.date)}</time>\t\t\t</a>\n\t\t'
            f'</div>\n\t\t\t\t<div id="div-comment-{c.id}" class="comment-content">\n\t\t\t\t<div class="comment-text">'
            f'\n\t\t{ctext(c)}\t\t</div>\n\t\t<div class="reply">\n\t\t{reply_link(site, post, c)}\t\t\t\t</div>\n\t\t'
            f"</div>\n\t\t\t\t</div>\n\t\t\t\t"
        )

    title = (
        f"One thought on &ldquo;<span>{T}</span>&rdquo;"
        if n == 1
        else f"{n} thoughts on &ldquo;<span>{T}</span>&rdquo;"
    )
    comments = (
        f'\t\t<h2 class="comments-title">\n\t\t\t{title}\t\t</h2>\n\n\t\t\n\t\t<ol class="comment-list">\n\t\t\t'
        f"{walk(post, one)}\n\t\t</ol><!-- .comment-list -->\n\n\t\t"
        if n
        else ""
    )
    form = comment_form(site, post, "span").replace(
        '<span id="reply-title" class="comment-reply-title">',
        '<span id="reply-title" class="gamma comment-reply-title">',
    )
    cnt = "Leave a comment" if not n else "1 Comment" if n == 1 else f"{n} Comments"
    meta = (
        f'\n\t\t\t<span class="posted-on">Posted on <a href="{post.url}" rel="bookmark"><time class="entry-date '
        f'published updated" datetime="{site.iso(post.date)}">{site.fdate(post.date)}</time></a></span> <span class="'
        f'post-author">by <a href="{b}author/{post.login}/" class="url fn" rel="author">{eh(post.author)}</a></span> '
        f'<span class="post-comments">&mdash; <a href="{post.url}#{"comments" if n else "respond"}">{cnt}</a></span>'
    )
    tax = '\n\t\t<aside class="entry-taxonomy">\n\t\t\t\t\t<div class="cat-links">\n\t\t\t\tCategor' + (
        f"{'y' if len(post.cats) == 1 else 'ies'}: {links(site, post)}\t\t\t</div>\n\t\t\t\n\t\t\t"
        + (
            f'\t\t\t<div class="tags-links">\n\t\t\t\tTag{"s" * (len(post.tags) != 1)}: {links(site, post, "tag")}\t'
            "\t\t"
            "</div>\n\t\t\t"
            if post.tags
            else ""
        )
        + "\t\t</aside>\n\n\t\t"
    )
    pnav = "".join(
        f'<div class="nav-{k}"><a href="{p.url}" rel="{r}"><span class="screen-reader-text">{lab} post: </span>'
        f"{tx(p.title)}</a></div>"
        for k, r, lab, p in [("previous", "prev", "Previous", prev), ("next", "next", "Next", nxt)]
        if p
    )
    return doc(
        head(site, post, "storefront", ["style", "assets/css/base/icons"]),
        body_cls(
            post,
            "wp-embed-responsive no-wc-breadcrumb storefront-secondary-navigation storefront-align-wide right-sidebar",
        ),
        [
            f'\n\n<div id="page" class="hfeed site">\n\t\n\t<header id="masthead" class="site-header" role="banner" '
            'style="">\n\n\t\t<div class="col-full">\t\t<a class="skip-link screen-reader-text" href="#site-navigati'
            'on">'
            f'Skip to navigation</a>\n\t\t<a class="skip-link screen-reader-text" href="#content">Skip to content</a>\n'
            f'\t\t\t\t<div class="site-branding">\n\t\t\t<div class="site-title-and-description"><div class="beta site-'
            f'title"><a href="{b}" rel="home">{eh(site.name)}</a></div><p class="site-description">'
            f'{tx(site.cfg["tagline"])}</p></div>\t\t</div>\n\t\t\t\t</div><div class="storefront-primary-navigation">'
            '<div class="col-full">\t\t<nav id="site-navigation" class="main-navigation" role="navigation" aria-labe'
            'l="'
            'Primary Navigation">\n\t\t<button id="site-navigation-menu-toggle" class="menu-toggle" aria-controls="s'
            "ite-"
            f'navigation" aria-expanded="false"><span>Menu</span></button>\n\t\t\t<div class="primary-navigation">'
            f'{menu(site, UL_MAIN)}</div><div class="handheld-navigation">'
            f"{menu(site, UL_HANDHELD)}</div>\t\t</nav><!-- #site-navigation -->\n\t\t</div></div>\n"
            f'\t</header><!-- #masthead -->\n\n\t\n\t<div id="content" class="site-content" tabindex="-1">\n\t\t<div '
            f'class="col-full">\n\n\t\t<div class="woocommerce"></div>\n\t<div id="primary" class="content-area">\n\t\t'
            f'<main id="main" class="site-main" role="main">\n\n\t\t\n<article id="post-{post.id}" class="'
            f'{pcls(post)}">'
            f'\n\n\t\t<header class="entry-header">\n\t\t{meta}<h1 class="entry-title">{T}</h1>\t\t</header><!-- .ent'
            "ry-"
            f'header -->\n\t\t\t\t<div class="entry-content">\n\t\t{body_html(site, post)}\n\t\t</div><!-- .entry-con'
            "tent"
            f" -->\n\t\t{tax}"
            f'<nav class="navigation post-navigation" aria-label="Posts">\n\t\t<h2 class="screen-reader-text">Post '
            f'navigation</h2>\n\t\t<div class="nav-links">{pnav}</div>\n\t</nav>\n<section id="comments" class="comme'
            "nts-"
            f'area" aria-label="Post Comments">\n\n\t{comments}{form}\n</section><!-- #comments -->\n\t\t</article><!'
            "-- "
            '#post-## -->\n\n\t\t\n\t\t</main><!-- #main -->\n\t</div><!-- #primary -->\n\n\n<div id="secondary" cla'
            'ss="'
            f'widget-area" role="complementary">\n\t{sidebar(site, "span", "gamma widget-title")}\n</div><!-- #second'
            "ary "
            '-->\n\n\t\t</div><!-- .col-full -->\n\t</div><!-- #content -->\n\n\t\n\t<footer id="colophon" class="si'
            "te-"
            'footer" role="contentinfo">\n\t\t<div class="col-full">\n\n\t\t\t\t\t<div class="site-info">\n\t\t\t&co'
            "py; "
            f'{eh(site.name)} {site.local(post.date).year}\n\t\t\t\t\t\t\t\t<br />\n\t\t\t\t<a class="site-footer-cre'
            'dit" '
            f'href="https://woocommerce.com" target="_blank" title="WooCommerce - The Best eCommerce Platform for '
            'WordPress" rel="noreferrer nofollow">Built with WooCommerce</a>.\t\t\t\t\t</div><!-- .site-info -->\n\t'
            "\t\t"
            f"\t\t</div><!-- .col-full -->\n\t</footer><!-- #colophon -->\n\n\t\n</div><!-- #page -->\n",
            f"<script src='{b}wp-includes/js/comment-reply.min.js?ver={WP}' id='comment-reply-js' async "
            f"data-wp-strategy='async'></script>",
        ],
    )


def _el(eid: str, kind: str, inner: str, cls: str = "") -> str:
    """An Elementor widget element."""
    return (
        f'<div class="elementor-element elementor-element-{eid} elementor-widget elementor-widget-{kind}{cls}" data-i'
        'd="'
        f'{eid}" data-element_type="widget" data-widget_type="{kind}.default">\n\t\t\t\t<div class="elementor-widget-'
        f'container">\n\t\t\t{inner}\t\t</div>\n\t\t\t\t</div>\n\t\t\t\t'
    )


def _con(eid: str, inner: str) -> str:
    """An Elementor flexbox container."""
    return (
        f'<div class="elementor-element elementor-element-{eid} e-flex e-con-boxed e-con e-parent" data-id="{eid}" '
        f'data-element_type="container">\n\t\t\t\t\t<div class="e-con-inner">\n\t\t{inner}\t\t\t\t\t</div>\n\t\t\t\t'
        f"</div>\n\t\t\t\t"
    )


def page_hello_elementor(site: Site, post: Post) -> str:
    """Hello Elementor 3.0 with an Elementor Pro theme-builder header and footer: core html5 comments."""
    n, T, b = len(post.comments), tx(post.title), site.base
    items = "".join(
        f'<li class="menu-item menu-item-type-custom menu-item-object-custom menu-item-{20 + i}"><a href="{u}" class="'
        f'elementor-item">{eh(x)}</a></li>'
        for i, (x, u) in enumerate(menu_items(site))
    )
    nav = (
        f'<nav aria-label="Menu" class="elementor-nav-menu--main elementor-nav-menu__container elementor-nav-menu--'
        f'layout-horizontal e--pointer-underline e--animation-fade">\n\t\t\t\t<ul id="menu-1-7c1e2a4" class="elementor-'
        f'nav-menu">{items}</ul>\t\t\t</nav>\n\t\t\t\t\t<div class="elementor-menu-toggle" role="button" tabindex="0" '
        f'aria-label="Menu Toggle" aria-expanded="false"></div>\n\t\t\t'
    )
    title = f'<h2 class="elementor-heading-title elementor-size-default"><a href="{b}">{eh(site.name)}</a></h2>'
    header = (
        '<header data-elementor-type="header" data-elementor-id="41" class="elementor elementor-41 elementor-location-'
        'header" data-elementor-post-type="elementor_library">\n\t\t\t'
        + _con(
            "5f3c2a1",
            _el("2b9e4d7", "theme-site-title", title, " elementor-widget-heading") + _el("8d0a6c3", "nav-menu", nav),
        )
        + "</header>\n\t\t"
    )
    recent = sorted(site.posts, key=lambda p: p.date, reverse=True)[:3]
    posts_w = (
        '<div class="elementor-posts-container elementor-posts elementor-posts--skin-classic elementor-grid">\n'
        + "".join(
            f'\t\t\t\t<article class="elementor-post elementor-grid-item {pcls(p)}" role="listitem">\n\t\t\t\t<div cl'
            "ass="
            f'"elementor-post__text">\n\t\t\t\t<h3 class="elementor-post__title">\n\t\t\t<a href="{p.url}" >\n\t\t\t\t'
            f'{tx(p.title)}\t\t\t</a>\n\t\t</h3>\n\t\t\t\t<div class="elementor-post__meta-data">\n\t\t\t\t\t<span cl'
            "ass="
            f'"elementor-post-date">\n\t\t\t{site.fdate(p.date)}\t\t</span>\n\t\t\t\t</div>\n\t\t\t\t</div>\n\t\t\t\t'
            f"</article>\n"
            for p in recent
        )
        + "\t\t\t\t</div>\n\t\t"
    )
    copy = f"<p>&copy; {site.local(post.date).year} {eh(site.name)}. All rights reserved.</p>"
    footer = (
        '<footer data-elementor-type="footer" data-elementor-id="57" class="elementor elementor-57 elementor-location-'
        'footer" data-elementor-post-type="elementor_library">\n\t\t\t'
        + _con(
            "a4e8b12",
            _el("c71f0d9", "heading", '<h2 class="elementor-heading-title elementor-size-default">Latest stories</h2>')
            + _el("e3b5a70", "posts", posts_w, " elementor-grid-3 elementor-posts--thumbnail-none")
            + _el("f09c6d2", "text-editor", copy),
        )
        + "</footer>\n\t\t"
    )
    comments = (
        f'\t\t<h2 class="title-comments">\n\t\t\t{"One Response" if n == 1 else f"{n} Responses"}\t\t</h2>\n\n\t\t\n\t'
        f'\t<ol class="comment-list">\n\t\t\t{walk(post, core_one(site, post, 42))}\n\t\t</ol>\n\n\t\t\n\t'
        if n
        else ""
    )
    tags = links(site, post, "tag")
    return doc(
        head(site, post, "hello-elementor", ["style.min", "theme.min", "header-footer.min"]),
        body_cls(post, "wp-embed-responsive elementor-default elementor-kit-5"),
        [
            f'\n<a class="skip-link screen-reader-text" href="#content">Skip to content</a>\n\n\t\t{header}\n<main id="'
            f'content" class="site-main {pcls(post)}">\n\n\t\t\t<div class="page-header">\n\t\t\t<h1 class="entry-tit'
            'le">'
            f'{T}</h1>\t\t</div>\n\t\n\t<div class="page-content">\n\t\t{body_html(site, post)}\n\n\t\t\n\t\t\t\t'
            + (
                f'<div class="post-tags">\n\t\t\t<span class="tag-links">Tagged {tags}</span>\t\t</div>\n\t\t\t'
                if tags
                else ""
            )
            + f'\t</div>\n\n\t<section id="comments" class="comments-area">\n\n\t{comments}'
            f"{comment_form(site, post, 'h2')}\n</section>\n</main>\n\n\t\t{footer}\n",
            f"<script src='{b}wp-includes/js/comment-reply.min.js?ver={WP}' id='comment-reply-js' async "
            f"data-wp-strategy='async'></script>",
        ],
    )


def page_divi_like(site: Site, post: Post) -> str:
    """Divi 4: et_custom_comments_display(), post-meta line, #sidebar widgets, #main-header and #main-footer."""
    n, T, b = len(post.comments), tx(post.title), site.base
    t = "\t"

    def one(c: Comment, depth: int, cls: str) -> str:
        av = avatar(c, 80).replace("alt=''", f"alt='{eh(c.author)}'")
        rl = reply_link(site, post, c, "comment")
        return (
            f'\t<li class="{cc(cls, "et-pb-non-builder-comment")}" id="li-comment-{c.id}">\n\t\t<article id="comment-'
            f'{c.id}" class="comment-body clearfix">\n{t * 3}<div class="comment_avatar">\n{t * 5}{av}{t * 3}</div>\n\n'
            f'{t * 3}<div class="comment_postinfo">\n{t * 4}<span class="fn">{author_link64(c, site)}</span>{t * 4}<s'
            'pan class="'
            f'comment_date">\n{t * 4}on {site.stamp(c.date)}{t * 4}</span>\n{t * 4}{t * 3}</div>\n\n{t * 3}<div class="'
            f'comment_area">\n{t * 4}\n{t * 4}<div class="comment-content clearfix">\n{t * 4}{ctext(c)}<span class="'
            f'reply-container">{rl}</span>{t * 4}</div>\n{t * 3}</div>\n\t\t</article>\n\t\t'
        )

    word = "comment" if n == 1 else "comments"
    comments = (
        f'<h1 id="comments" class="page_title">{n} Comment{"s" * (n != 1)}</h1>\n\t\t\n\t\t\t\t\t<ol class="commentli'
        "st "
        f'clearfix">\n\t\t\t\t{walk(post, one)}\n\t\t\t</ol>\n\t\t\n\t\t\n\t\t\t'
        if n
        else '\t   <div id="comment-section" class="nocomments">\n\t\t  \t\t\t <!-- If comments are open, but there '
        "are no comments. -->\n\n\t\t  \t   </div>\n\t\t\t\t\t"
    )
    form = (
        comment_form(site, post, title="<span>Submit a Comment</span>")
        .replace('id="submit" class="submit"', 'id="submit" class="submit et_pb_button"')
        .replace('value="Post Comment"', 'value="Submit Comment"')
    )
    d = site.local(post.date)
    meta = (
        f'<p class="post-meta"> by <span class="author vcard"><a href="{b}author/{post.login}/" title="Posts by '
        f'{eh(post.author)}" rel="author">{eh(post.author)}</a></span> | <span class="published">'
        f'{MONTHS[d.month - 1][:3]} {d.day}, {d.year}</span> | {links(site, post)} | <span class="comments-number">'
        f'<a href="{post.url}#respond">{n} {word}</a></span></p>'
    )
    ul = 'id="top-menu" class="nav"'
    return doc(
        head(site, post, "Divi", ["style.min"], "|"),
        body_cls(
            post,
            "et_pb_button_helper_class et_fixed_nav et_show_nav et_primary_nav_dropdown_animation_fade "
            "et_secondary_nav_dropdown_animation_fade et_header_style_left et_pb_footer_columns4 et_cover_background "
            "et_pb_gutter linux et_pb_gutters3 et_right_sidebar et_divi_theme et-db",
        ),
        [
            f'<div id="page-container">\n<div id="et-boc" class="et-boc">\n\t\t\t\n\t\t\n\n\t\n\t\t\t<header id="main-'
            f'header" data-height-onload="66">\n\t\t\t<div class="container clearfix et_menu_container">\n\t\t\t\t<div '
            f'class="logo_container">\n\t\t\t\t\t<span class="logo_helper"></span>\n\t\t\t\t\t<a href="{b}">\n\t\t\t'
            "\t\t"
            f'\t<img src="{b}wp-content/themes/Divi/images/logo.png" width="93" height="43" alt="{eh(site.name)}" id='
            '"logo"'
            ' data-height-percentage="54" />\n\t\t\t\t\t</a>\n\t\t\t\t</div>\n\t\t\t\t\t\t\t<div id="et-top-navigati'
            'on" '
            f'data-height="66" data-fixed-height="40">\n\t\t\t\t\t\t\t\t\t\t\t<nav id="top-menu-nav">\n\t\t\t\t\t\t'
            f'{menu(site, ul)}\t\t\t\t\t\t</nav>\n\t\t\t\t\t\t\n\t\t\t\t\t\n\t\t\t\t\t\n\t\t\t\t\t<div id="et_mobile_'
            "nav_"
            f'menu">\n\t\t\t\t<div class="mobile_nav closed">\n\t\t\t\t\t<span class="select_page">Select Page</span>\n'
            '\t\t\t\t\t<span class="mobile_menu_bar mobile_menu_bar_toggle"></span>\n\t\t\t\t</div>\n\t\t\t</div>\t'
            "\t\t"
            f"\t</div> <!-- #et-top-navigation -->\n\t\t\t</div> <!-- .container -->\n\t\t\t\t\t</header> <!-- #main-"
            f'header -->\n\t\t\t<div id="et-main-area">\n\t\n<div id="main-content">\n\t\t<div class="container">\n\t\t'
            f'<div id="content-area" class="clearfix">\n\t\t\t<div id="left-area">\n\t\t\t\t\t\t\t\t\t\t\t<article id="'
            f'post-{post.id}" class="et_pb_post {pcls(post)}">\n\t\t\t\t\t\t\t\t\t\t\t<div class="et_post_meta_wrappe'
            'r">'
            f'\n\t\t\t\t\t\t\t<h1 class="entry-title">{T}</h1>\n\n\t\t\t\t\t\t{meta}\n\t\t\t\t\t\t\t\t\t\t\t\t</div>'
            "\n\t"
            f'\t\t\t\n\t\t\t\t\t<div class="entry-content">\n\t\t\t\t\t{body_html(site, post)}\n\t\t\t\t\t</div>\n\t\t'
            f'\t\t\t\t\t<div class="et_post_meta_wrapper">\n\t\t\t\t\t<!-- You can start editing here. -->\n\n<section '
            f'id="comment-wrap">\n{comments}{form}\n\t\t\t\t</section>\n\t\t\t\t\t</div>\n\t\t\t\t</article>\n\n\t\t'
            "\t\t"
            '\t\t\t</div>\n\n\t\t\t\t<div id="sidebar">\n\t\t'
            f"{sidebar(site, 'h4', 'widgettitle', extra='et_pb_widget')}"
            '\t</div>\n\t\t</div>\n\t</div>\n\t</div>\n\n\n\t\t\t<footer id="main-footer">\n\t\t\t\t\n\n\t\t\n\t\t\t'
            "\t<div"
            ' id="footer-bottom">\n\t\t\t\t\t<div class="container clearfix">\n\t\t\t\t<ul class="et-social-icons">'
            "\n\n"
            f'\t<li class="et-social-icon et-social-facebook">\n\t\t<a href="#" class="icon">\n\t\t\t<span>Facebook'
            '</span>\n\t\t</a>\n\t</li>\n\n</ul><div id="footer-info">Designed by <a href="https://www.elegantthemes'
            '.com" '
            f'title="Premium WordPress Themes">Elegant Themes</a> | Powered by <a href="https://www.wordpress.org">'
            "WordPress</a></div>\t\t\t\t\t</div>\n\t\t\t\t</div>\n\t\t\t</footer>\n\t\t</div>\n\n\t\t\t\n\t\t</div>"
            "\n\t"
            f"\t</div>\n\n\t",
            f"<script src='{b}wp-includes/js/comment-reply.min.js?ver={WP}' id='comment-reply-js' async "
            f"data-wp-strategy='async'></script>",
        ],
    )
