"""Single-post pages of the block theme Twenty Twenty-Four and of the Japanese theme SWELL (WordPress 6.4).

Twenty Twenty-Four renders its comments with the core/comments blocks: a ``wp-block-comment-template`` list whose
items are the template's groups (avatar, author name, date, content, reply link), replies in a bare ``<ol>``.
SWELL lists core html5 comments in ``ul.c-commentList`` under its "コメント" section.
Each ``page_*(site, post)`` returns the whole HTML page of one post.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count

from .comments import avatar, comment_form, core_one, ctext, reply_link, reply_title, theme_form, walk
from .markup import body_cls, body_html, doc, head_modern, links, menu, menu_items, neighbours, widgets
from .model import Comment, Post, Site, eh, tx
from .pages_more import WP, related

EMOJI = (
    '<script>\nwindow._wpemojiSettings = {"baseUrl":"https:\\/\\/s.w.org\\/images\\/core\\/emoji\\/14.0.0\\/72x72\\/'
    '","ext":".png","svgUrl":"https:\\/\\/s.w.org\\/images\\/core\\/emoji\\/14.0.0\\/svg\\/","svgExt":".svg"};\n'
    "/*! This file is auto-generated */\n!function(i,n){var o,s,e;function c(e){try{var t={supportTests:e,timestamp:"
    "(new Date).valueOf()};sessionStorage.setItem(o,JSON.stringify(t))}catch(e){}}}(window,document);\n</script>\n"
)
BLOCK_CSS = {
    "site-title": ".wp-block-site-title a{color:inherit}",
    "navigation-link": ".wp-block-navigation .wp-block-navigation-item__label{overflow-wrap:break-word}",
    "post-title": ".wp-block-post-title{box-sizing:border-box;word-break:break-word}",
    "post-date": ".wp-block-post-date{box-sizing:border-box}",
    "post-terms": ".wp-block-post-terms{box-sizing:border-box}.wp-block-post-terms .wp-block-post-terms__separator"
    "{white-space:pre-wrap}",
    "post-navigation-link": ".wp-block-post-navigation-link .wp-block-post-navigation-link__arrow-previous{display:"
    "inline-block;margin-right:1ch}",
    "avatar": ".wp-block-avatar{line-height:0}.wp-block-avatar,.wp-block-avatar img{box-sizing:border-box}",
    "comment-template": ".wp-block-comment-template{box-sizing:border-box;list-style:none;margin-bottom:0;max-width:"
    "100%;padding:0}.wp-block-comment-template li{clear:both}.wp-block-comment-template ol{list-style:none;margin-"
    "bottom:0;max-width:100%;padding-left:2rem}",
    "comments": ".wp-block-post-comments{box-sizing:border-box}.wp-block-post-comments .comment-form-author label,"
    ".wp-block-post-comments .comment-form-email label{display:block}",
}


def head_block(site: Site, post: Post, theme: str) -> str:
    """The <head> contents of a block theme's single post (WordPress 6.4: inline block styles, theme.json CSS)."""
    b, name, T = site.base, eh(site.name), tx(post.title)
    styles = "".join(f"<style id='wp-block-{k}-inline-css'>\n{v}\n</style>\n" for k, v in BLOCK_CSS.items())
    gl = (
        "body{--wp--preset--color--base: #f9f9f9;--wp--preset--color--base-2: #ffffff;--wp--preset--color--contrast:"
        " #111111;--wp--preset--color--contrast-2: #636363;--wp--preset--color--accent: #cfcabe;--wp--preset--font-"
        'family--body: "Inter", sans-serif;--wp--preset--font-family--heading: Cardo;--wp--preset--spacing--10: '
        "1rem;--wp--preset--spacing--20: min(1.5rem, 2vw);--wp--preset--spacing--30: min(2.5rem, 3vw);--wp--preset--"
        "spacing--40: min(4rem, 5vw);--wp--preset--spacing--50: min(6.5rem, 8vw);}"
    )
    return (
        f'<meta charset="UTF-8" />\n<meta name="viewport" content="width=device-width, initial-scale=1" />\n<meta '
        f"name='robots' content='max-image-preview:large' />\n<title>{T} &#8211; {name}</title>\n"
        + "".join(
            f'<link rel="alternate" type="application/rss+xml" title="{name} &raquo; {t}" href="{u}" />\n'
            for t, u in [
                ("Feed", b + "feed/"),
                ("Comments Feed", b + "comments/feed/"),
                (f"{T} Comments Feed", post.url + "feed/"),
            ]
        )
        + f"{EMOJI}{styles}<style id='global-styles-inline-css'>\n{gl}\n</style>\n<link rel='stylesheet' id='"
        f"{theme}-button-style-outline-css' href='{b}wp-content/themes/{theme}/assets/css/button-outline.css?ver=1.0' "
        f'media=\'all\' />\n<link rel="https://api.w.org/" href="{b}wp-json/" /><link rel="alternate" type="'
        f'application/json" href="{b}wp-json/wp/v2/posts/{post.id}" /><link rel="EditURI" type="application/rsd+xml"'
        f' title="RSD" href="{b}xmlrpc.php?rsd" />\n<meta name="generator" content="WordPress {WP}" />\n<link rel="'
        f"canonical\" href=\"{post.url}\" />\n<link rel='shortlink' href='{b}?p={post.id}' />\n"
    )


def nav_block(site: Site, lay: Iterator[int]) -> str:
    """A core/navigation block (overlay menu) with the blog's menu items."""
    lis = "".join(
        f'<li class=" wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content"'
        f'  href="{u}"><span class="wp-block-navigation-item__label">{eh(t)}</span></a></li>'
        for t, u in menu_items(site)
    )
    return (
        f'<nav class="is-responsive items-justified-right wp-block-navigation is-horizontal is-content-justification-'
        f'right is-layout-flex wp-container-core-navigation-is-layout-{next(lay)} wp-block-navigation-is-layout-flex" '
        f'aria-label="Header navigation"><button aria-haspopup="true" aria-label="Open menu" class="wp-block-'
        f'navigation__responsive-container-open " data-micromodal-trigger="modal-1"><svg width="24" height="24" '
        f'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="4" '
        f'y="7.5" width="16" height="1.5" /><rect x="4" y="15" width="16" height="1.5" /></svg></button>\n\t\t\t<div '
        f'class="wp-block-navigation__responsive-container  " style="" id="modal-1"><div class="wp-block-navigation__'
        f'responsive-close" tabindex="-1" data-micromodal-close><div class="wp-block-navigation__responsive-dialog" '
        f'aria-label="Menu"><button aria-label="Close menu" data-micromodal-close class="wp-block-navigation__'
        f'responsive-container-close"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height'
        f'="24" aria-hidden="true" focusable="false"><path d="M13 11.8l6.1-6.3-1-1-6.1 6.2-6.1-6.2-1 1 6.1 6.3-6.5 '
        f'6.7 1 1 6.5-6.6 6.5 6.6 1-1z"></path></svg></button><div class="wp-block-navigation__responsive-container-'
        f'content" id="modal-1-content"><ul class="wp-block-navigation__container is-responsive items-justified-'
        f'right wp-block-navigation">{lis}</ul></div></div></div></div></nav>'
    )


def page_twentytwentyfour(site: Site, post: Post) -> str:
    """Twenty Twenty-Four 1.0: the single template, post-meta and comments patterns, core/comments blocks."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)
    lay = count(1)

    def grp(extra: str = "", flex: str | None = None) -> str:
        """A group block's classes: flow layout, or flex (``flex``: its extra classes) with a container id."""
        if flex is None:
            return f"wp-block-group{extra} is-layout-flow wp-block-group-is-layout-flow"
        pre = f"{flex} " if flex else ""
        return f"wp-block-group{extra} {pre}is-layout-flex wp-container-core-group-is-layout-{next(lay)} " + (
            "wp-block-group-is-layout-flex"
        )

    def one(c: Comment, depth: int, cls: str) -> str:
        img = avatar(c, 40).replace("alt=''", f"alt='{eh(c.author)} Avatar'")
        img = img.replace("photo'", "photo wp-block-avatar__image'").replace("/>", " style='margin-top:0.5em;'/>")
        name = (
            f'<a rel="external nofollow ugc" href="{c.url}" target="_self" >{eh(c.author)}</a>'
            if c.url
            else (eh(c.author))
        )
        return (
            f'<li id="comment-{c.id}" class="{cls.replace(" parent", "")}">\n<div class="{grp()}" style="margin-top:0;'
            f'margin-bottom:var(--wp--preset--spacing--30)">\n\t\t\t\n<div class="{grp(flex="is-nowrap")}">\n\t\t\t\t'
            f'<div class="wp-block-avatar">{img}</div>\n\t\t\t\t\n'
            f'<div class="{grp()}">\n\t\t\t\t\t<div class="wp-block-comment-author-name">{name}</div>\n\t\t\t\t\t<div '
            f'class="wp-block-comment-date"><time datetime="{site.iso(c.date)}"><a href="{post.url}#comment-{c.id}">'
            f"{site.stamp(c.date)}</a></time></div>\n\t\t\t\t</div>\n\t\t\t\t\n\t\t\t</div>\n\t\t\t\n\t\t\t<div class="
            f'"wp-block-comment-content">{ctext(c)}</div>\n\t\t\t\n<div class="{grp(flex="is-nowrap")}">\n\t\t\t\t\n'
            f'\t\t\t\t<div class="wp-block-comment-reply-link">{reply_link(site, post, c, "comment")}</div>\n\t\t\t'
            f"</div>\n\t\t\t\n\t\t</div>\n\t\t"
        )

    top = grp(" alignwide", "is-content-justification-space-between")
    head = (
        f'<header class="wp-block-template-part">\n<div class="{top}" style="padding-top:20px;padding-bottom:var(--'
        f'wp--preset--spacing--40)">\n\t\n<div class="'
        f'{grp(flex="")}">\n\t\t\n\t\t\n<div class="{grp()}">\n\t\t\t<p class="wp-block-site-title"><a href="{b}" '
        f'target="_self" rel="home">{eh(site.name)}</a></p>\n\t\t</div>\n\t\t</div>\n\t\n<div class="'
        f'{grp(flex="is-nowrap")}">\n\t\t{nav_block(site, lay)}\n\t</div>\n\t</div>\n</header>'
    )
    g_meta, g_nav = (
        grp(flex="is-content-justification-left"),
        grp(flex="is-content-justification-space-between is-nowrap"),
    )
    title = "One response" if n == 1 else f"{n} responses"
    comments = (
        f'\t<h3 id="comments" class="wp-block-comments-title">{title} to &#8220;{T}&#8221;</h3>\n\t<ol class="wp-block'
        f'-comment-template">{walk(post, one, ("<ol>", "</ol>"), "</li>")}</ol>\n'
        if n
        else ""
    )
    form = (
        comment_form(site, post)
        .replace('class="comment-respond"', 'class="comment-respond wp-block-post-comments-form"', 1)
        .replace('<p class="form-submit">', '<p class="form-submit wp-block-button">', 1)
        .replace('class="submit"', 'class="wp-block-button__link wp-element-button"', 1)
    )
    tags = "".join(f'<a href="{site.tag_url(t)}" rel="tag">{eh(t)}</a>' for t in post.tags)
    tags = tags.replace("</a><a", '</a><span class="wp-block-post-terms__separator">  </span><a')
    arrow = '<span class="wp-block-post-navigation-link__arrow-{0} is-arrow-arrow" aria-hidden="true">{1}</span>'
    pn = [
        (
            f'<a href="{p.url}" rel="{r}"><span class="post-navigation-link__label">{lab}: </span> <span class="post-'
            f'navigation-link__title">{tx(p.title)}</span></a>'
            if p
            else ""
        )
        for p, r, lab in [(prev, "prev", "Previous"), (nxt, "next", "Next")]
    ]
    pnav = (
        f'<div class="post-navigation-link-previous wp-block-post-navigation-link">'
        f'{arrow.format("previous", "←") if prev else ""}{pn[0]}</div>\n<div class="post-navigation-link-next wp-block'
        f'-post-navigation-link">{pn[1]}{arrow.format("next", "→") if nxt else ""}</div>'
    )
    cats = links(site, post, "cat", '<span class="wp-block-post-terms__separator">, </span>').replace(
        ' rel="category tag"', ' rel="tag"'
    )
    d = site.local(post.date)
    footer_nav = "".join(
        f'<div class="{grp(flex="is-vertical is-content-justification-stretch")}">\n<h3 class="wp-block-heading has-'
        f'medium-font-size has-body-font-family" style="font-style:normal;font-weight:600">{h}</h3>\n\n\n<div class="'
        f'{grp(flex="is-vertical")}"><nav style="font-style:normal;font-weight:400;" class="has-small-font-size is-'
        f'vertical wp-block-navigation is-layout-flex wp-block-navigation-is-layout-flex" aria-label="{h}"><ul class'
        f'="wp-block-navigation__container has-small-font-size is-vertical wp-block-navigation has-small-font-size">'
        + "".join(
            f'<li class="has-small-font-size wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-'
            f'navigation-item__content"  href="#"><span class="wp-block-navigation-item__label">{x}</span></a></li>'
            for x in items.split("|")
        )
        + "</ul></nav></div>\n</div>\n"
        for h, items in [
            ("About", "Team|History|Careers"),
            ("Privacy", "Privacy Policy|Terms and Conditions|Contact Us"),
            ("Social Media", "Facebook|Instagram|Twitter/X"),
        ]
    )
    return doc(
        head_block(site, post, "twentytwentyfour"),
        body_cls(post, "wp-embed-responsive"),
        [
            f'<div class="wp-site-blocks">{head}\n\n\n<main class="{grp()}" style="margin-top:var(--wp--preset--'
            f'spacing--50)">\n\t\n<div class="{grp(" has-global-padding")}">\n'
            + f'\t\t<h1 class="has-text-align-center wp-block-post-title">{T}</h1>\n\t\t\n<div class="wp-block-group '
            f'has-global-padding is-layout-constrained wp-block-group-is-layout-constrained">\n\t\n<div class="'
            f'{g_meta}">\n\t\t<div class="wp-block-post-date"><time datetime="'
            f'{site.iso(post.date)}"><a href="{post.url}">{d.strftime("%b")} {d.day}, {d.year}</a></time></div>\n\n'
            f'\t\t\n\t\t<p class="has-contrast-2-color has-text-color has-link-color">—</p>\n\t\t\n\n\t\t\n\t\t<p '
            f'class="has-small-font-size">by</p>\n\t\t\n\n\t\t<div class="wp-block-post-author-name"><a href="{b}'
            f'author/{post.login}/" target="_self" class="wp-block-post-author-name__link">{eh(post.author)}</a></div>'
            f'\n\n\t\t<div class="taxonomy-category wp-block-post-terms"><span class="wp-block-post-terms__prefix">in '
            f'</span>{cats}</div>\n\t</div>\n\t\n</div>\n\n\t</div>\n\t\n\n\t<div class="entry-content alignfull wp-'
            f"block-post-content has-global-padding is-layout-constrained wp-block-post-content-is-layout-constrained"
            f'">{body_html(site, post)}</div>\n\n\t\n<div class="wp-block-group has-global-padding is-layout-'
            'constrained wp-block-group-is-layout-constrained" sty'
            'le="margin-top:var(--wp--preset--spacing--40)">\n\t\t'
            + (f'<div class="taxonomy-post_tag is-style-pill wp-block-post-terms">{tags}</div>\n\t\t' if tags else "")
            + f'\n<nav class="{g_nav}" aria-label="Posts" '
            f'style="padding-bottom:0vh">\n{pnav}\n</nav>\n\n\t</div>\n\t\n\n<div class="wp-block-comments wp-block-'
            f'comments-query-loop">\n{comments}\n\t\n\n\t{form}\n</div>\n\n</main>\n\n\n<footer class="wp-block-'
            f'template-part">\n<div class="wp-block-group has-global-padding is-layout-constrained wp-block-group-is-'
            f'layout-constrained" style="padding-top:var(--wp--preset--spacing--50);padding-bottom:var(--wp--preset--'
            f'spacing--50)">\n<div class="wp-block-columns alignwide is-layout-flex wp-container-core-columns-is-layout'
            f'-{next(lay)} wp-block-columns-is-layout-flex">\n<div '
            'class="wp-block-column is-layout-flow wp-block-column'
            f'-is-layout-flow" style="flex-basis:30%">\n<div class="{grp(flex="is-vertical")}">\n<p class="wp-block-'
            f'site-title has-medium-font-size"><a href="{b}" target="_self" rel="home">{eh(site.name)}</a></p>\n\n<p '
            f'class="wp-block-site-tagline has-small-font-size">{tx(site.cfg["tagline"])}</p></div>\n</div>\n\n<div '
            f'class="wp-block-column is-layout-flow wp-block-column-is-layout-flow" style="flex-basis:20%"></div>\n\n'
            f'<div class="wp-block-column is-layout-flow wp-block-column-is-layout-flow" style="flex-basis:50%">\n<div '
            f'class="{grp(flex="is-content-justification-space-between")}">{footer_nav}</div>\n</div>\n</div>\n\n<div '
            f'class="wp-block-group alignwide is-layout-flow wp-block-group-is-layout-flow" style="padding-top:var(--'
            f'wp--preset--spacing--50);padding-bottom:0">\n<p class="has-contrast-2-color has-text-color has-link-'
            f'color has-small-font-size">Designed with <a href="https://wordpress.org" rel="nofollow">WordPress</a>'
            f"</p>\n</div>\n</div>\n</footer>\n</div>",
            f"<script src='{b}wp-includes/js/comment-reply.min.js?ver={WP}' id='comment-reply-js' async "
            f"data-wp-strategy='async'></script>",
        ],
    )


def page_swell_ja(site: Site, post: Post) -> str:
    """SWELL 2.9 (Japanese): core html5 comments in ``ul.c-commentList``, related posts, share buttons, sidebar."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)
    d = site.local(post.date)

    def ymd(p: Post) -> str:
        return site.local(p.date).strftime("%Y-%m-%d")

    def gnav(s: str) -> str:
        return f'<span class="ttl">{s}</span>'

    ul_children = ('<ul class="children">', "</ul><!-- .children -->")
    comments = (
        f'\t\t\t<h3 class="p-commentArea__title -for-list">\n\t\t\t\t<i class="icon-bubbles"></i> コメント一覧\n'
        f'\t\t\t\t<span>（{n}件）</span>\n\t\t\t</h3>\n\t\t\t<ul class="c-commentList">\n'
        f"{walk(post, core_one(site, post, 48, '返信'), ul_children)}\n"
        f"\t\t\t</ul>\n\t\t\t\t\t"
        if n
        else ""
    )
    form = theme_form(
        site,
        post,
        reply_title(
            site, post, "コメントする", '<h3 class="p-commentArea__title -for-write"><i class="icon-pen"></i> ', "</h3>"
        ),
        notes="",
    )
    cat = post.cats[0]
    cats = "".join(
        f'<a class="c-categoryList__link hov-flash-up" href="{site.cat_url(c)}" data-cat-id="'
        f'{site.cfg["cats"].index(c) + 3}">{eh(c)}</a>'
        for c in post.cats
    )
    tags = "".join(
        f'<a class="c-tagList__link hov-flash-up" href="{site.tag_url(t)}" data-tag-id="'
        f'{site.cfg["tags"].index(t) + 9}">{eh(t)}</a>'
        for t in post.tags
    )
    times = (
        f'<div class="p-articleMetas__times c-postTimes u-thin">\n\t<time class="c-postTimes__posted icon-posted" '
        f'datetime="{ymd(post)}" aria-label="公開日">{site.fdate(post.date)}</time></div>\n'
    )
    pn = "".join(
        f'<li class="p-pnLinks__item -{k}"><a href="{p.url}" rel="{k}" class="p-pnLinks__link"><span class="p-pnLinks'
        f'__title">{tx(p.title)}</span></a></li>'
        for k, p in [("prev", prev), ("next", nxt)]
        if p
    )
    rel = "".join(
        f'<li class="p-postList__item">\n\t<a href="{p.url}" class="p-postList__link">\n\t\t<div class="p-postList__'
        f'thumb c-postThumb"><figure class="c-postThumb__figure"><img src="{b}wp-content/themes/swell/assets/img/'
        f'no_img.png" alt="" class="c-postThumb__img u-obf-cover" width="320" height="180"></figure></div>\n\t\t<div '
        f'class="p-postList__body">\n\t\t\t<div class="p-postList__title">{tx(p.title)}</div>\n\t\t\t<div class="p-'
        f'postList__meta"><div class="p-postList__times c-postTimes u-thin">\n\t<time class="c-postTimes__posted '
        f'icon-posted" datetime="{ymd(p)}" aria-label="公開日">{site.fdate(p.date)}</time></div>\n</div>\n\t\t</div>'
        f"\n\t</a>\n</li>\n"
        for p in related(site, post, 4)
    )
    share = "".join(
        f'<li class="c-shareBtns__item -{k}"><a class="c-shareBtns__btn " href="{u}{post.url}" title="{lab}" '
        f"onclick=\"javascript:window.open(this.href, '_blank', 'menubar=no,toolbar=no,resizable=yes,scrollbars=yes"
        f',height=400,width=600\');return false;" target="_blank" role="button" tabindex="0"><i class="snsicon c-'
        f'shareBtns__icon icon-{k}" aria-hidden="true"></i></a></li>'
        for k, u, lab in [
            ("facebook", "https://www.facebook.com/sharer/sharer.php?u=", "Facebookでシェア"),
            ("twitter-x", "https://twitter.com/intent/tweet?url=", "X（Twitter）でシェア"),
            ("hatebu", "//b.hatena.ne.jp/add?mode=confirm&amp;url=", "はてなブックマークに登録"),
            ("line", "https://social-plugins.line.me/lineit/share?url=", "LINEに送る"),
        ]
    )
    wid = widgets(
        site,
        lambda i, c, t, x: (
            (
                f'<div id="{i}" class="c-widget {c}">'
                + (f'<div class="c-widget__title -side">{t}</div>' if t else "")
                + x
            )
            + "</div>"
        ),
    )
    gnav_ul, foot_ul = 'class="c-gnav"', 'class="l-footer__nav"'
    crumbs = (
        f'<li class="p-breadcrumb__item"><a href="{b}" class="p'
        '-breadcrumb__text"><span class="__home icon-home"> ホーム'
        f'</span></a></li><li class="p-breadcrumb__item"><a href="{site.cat_url(cat)}" class="p-breadcrumb__text">'
        f'<span>{eh(cat)}</span></a></li><li class="p-breadcrumb__item"><span class="p-breadcrumb__text">{T}</span>'
        f"</li>"
    )
    return doc(
        head_modern(site, post, ["main", "blocks"], "|", wp=WP).replace("swell-ja", "swell"),
        body_cls(post, ""),
        [
            f'<div id="body_wrap" class="post-template-default single single-post postid-{post.id} single-format-'
            f'standard -body-solid -sidebar-on -frame-off id_{post.id}" >\n<header id="header" class="l-header -series'
            f' -series-right -parallel-bottom" data-spfix="1">\n<div class="l-header__inner l-container">\n\t<div '
            f'class="l-header__logo">\n\t\t<div class="c-headLogo -txt"><a href="{b}" title="{eh(site.name)}" class="'
            f'c-headLogo__link" rel="home">{eh(site.name)}</a></div>\t\t\t<div class="c-tagline">'
            f'{tx(site.cfg["tagline"])}</div>\n\t\t\t</div>\n\t<nav id="gnav" class="l-header__gnav c-gnavWrap">\n\t'
            f'\t{menu(site, gnav_ul, wrap=gnav)}\n\t</nav>\n</div>\n</header>\n<div id="breadcrumb" class="p-'
            f'breadcrumb -bg-on"><ol class="p-breadcrumb__list l-container">{crumbs}</ol></div><div id="content" class'
            f'="l-content l-container" data-postid="{post.id}" data-pvct="true">\n<main id="main_content" class="l-'
            f'mainContent l-article">\n\t<article class="l-mainContent__inner" data-clarity-region="article">\n\t\t<div'
            f' class="p-articleHead c-postTitle">\n\t<h1 class="c-postTitle__ttl">{T}</h1>\n\t\t\t<time class="c-post'
            f'Title__date u-thin" datetime="{ymd(post)}" aria-hidden="true">\n\t\t\t<span class="__y">{d.year}</span>\n'
            f'\t\t\t<span class="__md">{d.month}/{d.day:02d}</span>\n\t\t</time>\n\t</div>\n<div class="p-articleMetas'
            f' -top">\n\t\t<div class="p-articleMetas__termList c-categoryList">\n\t\t\t{cats}\t\t</div>\n\t{times}'
            f'\t\t<div class="p-articleMetas__author c-listAuthor">\n\t<a href="{b}author/{post.login}/" class="c-list'
            f'Author__link">\n\t\t<span class="c-listAuthor__name u-thin">{eh(post.author)}</span>\n\t</a>\n</div>\n'
            f'</div>\n\n\t\t<div class="post_content">\n\t\t\t{body_html(site, post)}\n\t\t</div>\n\t\t<div class="p-'
            f'articleFoot">\n\t<div class="p-articleMetas -bottom">\n\t\t\t<div class="p-articleMetas__termList c-'
            f'categoryList">\n\t\t\t{cats}\t\t</div>\n'
            + (f'\t\t\t<div class="p-articleMetas__termList c-tagList">\n\t\t\t{tags}\t\t</div>\n' if tags else "")
            + f'\t</div>\n</div>\n<div class="c-shareBtns -bottom -style-block">\n\t\t\t<div class="c-shareBtns__'
            f'message">\n\t\t\t<span class="__text">\n\t\t\t\tよかったらシェアしてね！\t\t\t</span>\n\t\t</div>\n\t\t\t'
            f'<ul class="c-shareBtns__list">\n\t\t\t{share}\n\t\t</ul>\n\n\t</div>\n\t\t<div id="after_article" class='
            f'"l-articleBottom">\n\t\t\t<ul class="p-pnLinks -style-normal">\n\t\t\t{pn}\n\t\t</ul>\n<section class="l-'
            'articleBottom__section -related">\n\t<h2 class="l-a'
            'rticleBottom__title c-secTitle">関連記事</h2><ul class='
            f'"p-postList p-relatedPosts -type-card">{rel}</ul></section>\n<section id="comments" class="l-article'
            'Bottom__section -comment">\n\t<h2 class="l-articleB'
            'ottom__title c-secTitle">\n\t\tコメント\t</h2>\n\t<div '
            f'class="p-commentArea">\n{comments}{form}\n\t</div>\n</section>\n\t\t</div>\n\t\t\t</article>\n\t</main>\n'
            f'<aside id="sidebar" class="l-sidebar">\n\t{wid}</aside>\n</div>\n<footer id="footer" class="l-footer">\n'
            f'\t<div class="l-footer__inner">\n\t\t\t<div class="l-footer__foot">\n\t\t\t<div class="l-container">\n'
            f'\t\t\t{menu(site, foot_ul)}\n\t\t\t<p class="copyright">\n\t\t\t\t<span lang="en">&copy;'
            f"</span>\n\t\t\t\t{eh(site.name)}.\t\t\t</p>\n\t\t\t\t"
            '\t</div>\n\t</div>\n</div>\n</footer>\n<div class="p-'
            f'fixBtnWrap">\n\t\t\t<div id="pagetop" class="c-fixBtn c-plainBtn hov-bg-main" role="button" aria-label="'
            f'ページトップボタン" data-onclick="pageTop">\n\t\t\t<i class="c-fixBtn__icon icon-chevron-up" role="'
            f'presentation"></i>\n\t\t</div>\n\t</div>\n</div><!--/ #all_wrapp-->',
        ],
        lang="ja",
    )
