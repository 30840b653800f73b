"""Page markup shared by the themes: the post body, <head>, menus, sidebar widgets, post links and page frame.

The markup is what WordPress 6.1 core prints (``the_content``, ``wp_head``, ``wp_nav_menu``, the core widgets);
the themes wrap it in their own templates (``pages_twenty``, ``pages_other``).
"""

from __future__ import annotations

from collections.abc import Callable

from .comments import author_link
from .model import Post, Site, eh, slugify, tx
from .words import MONTHS, W

WidgetFn = Callable[[str, str, str | None, str], str]
"""``wrap(id, class, title, inner) -> html``: a theme's widget markup (``title`` None: no title)."""


PLAIN_H2 = ("twentytwenty", "twentynineteen", "twentyseventeen", "classic-xhtml")
"""Themes whose headings have no ``wp-block-heading`` class (blogs from before WordPress 6.2)."""


def body_html(site: Site, post: Post, modern: bool = True) -> str:
    """the_content() of the post: block-editor markup, or classic-editor markup (WordPress 3.x) if not ``modern``."""
    out, hcls, qcls = [], ' class="wp-block-heading"', ' class="wp-block-quote"'
    for b in post.blocks:
        if b[0] == "p":
            s, w = tx(b[1]), tx(b[2] or "")
            if b[2]:
                tag = f'<a href="https://example.org/notes/{slugify(b[2]) or "x"}">' if b[3] == "a" else f"<{b[3]}>"
                s = s.replace(w, f"{tag}{w}</{b[3]}>", 1)
            out.append(f"<p>{s}</p>")
        elif b[0] == "h2":
            out.append(f"<h2{'' if site.theme in PLAIN_H2 else hcls}>{tx(b[1])}</h2>")
        elif b[0] == "ul":
            out.append("<ul>\n" + "\n".join(f"<li>{tx(x)}</li>" for x in b[1]) + "\n</ul>")
        elif b[0] == "quote":
            out.append(f"<blockquote{qcls if modern else ''}><p>{tx(b[1])}</p></blockquote>")
        else:
            d = site.local(post.date)
            src = f"{site.base}wp-content/uploads/{d.year}/{d.month:02d}/img_{b[3]:04d}-1024x683.jpg"
            if modern:
                cap = f'<figcaption class="wp-element-caption">{tx(b[2])}</figcaption>' if b[2] else ""
                out.append(
                    f'<figure class="wp-block-image size-large"><img decoding="async" loading="lazy" '
                    f'width="1024" height="683" src="{src}" alt="{eh(b[1])}" class="wp-image-{b[3]}"/>'
                    f"{cap}</figure>"
                )
            else:
                img = (
                    f'<img class="size-medium wp-image-{b[3]}" title="img_{b[3]:04d}" src="{src}" '
                    f'alt="{eh(b[1])}" width="500" height="333" />'
                )
                out.append(
                    f'<div id="attachment_{b[3]}" class="wp-caption aligncenter" style="width: 510px">{img}'
                    f'<p class="wp-caption-text">{tx(b[2])}</p></div>'
                    if b[2]
                    else f"<p>{img}</p>"
                )
    return ("\n\n\n\n" if modern else "\n\n").join(out)


COLORS = [
    ("black", "#000000"),
    ("cyan-bluish-gray", "#abb8c3"),
    ("white", "#ffffff"),
    ("pale-pink", "#f78da7"),
    ("vivid-red", "#cf2e2e"),
    ("luminous-vivid-orange", "#ff6900"),
    ("luminous-vivid-amber", "#fcb900"),
    ("light-green-cyan", "#7bdcb5"),
    ("vivid-green-cyan", "#00d084"),
    ("pale-cyan-blue", "#8ed1fc"),
    ("vivid-cyan-blue", "#0693e3"),
    ("vivid-purple", "#9b51e0"),
]
DUO = [
    ("dark-grayscale", "0 0.49803921568627"),
    ("grayscale", "0 1"),
    ("purple-yellow", "0.54901960784314 1"),
    ("blue-red", "0 1"),
    ("midnight", "0 0"),
    ("magenta-yellow", "0.78039215686275 1"),
    ("purple-green", "0.65098039215686 0.40392156862745"),
    ("blue-orange", "0.098039215686275 1"),
]


def head_modern(site: Site, post: Post, styles: list[str], sep: str = "&#8211;", wp: str = "6.1.1") -> str:
    """The <head> contents of a WordPress ``wp`` single post (wp_head(): emoji script, global styles, links)."""
    b, name = site.base, eh(site.name)
    css = "body{" + "".join(f"--wp--preset--color--{n}: {h};" for n, h in COLORS)
    css += "".join(f"--wp--preset--duotone--{n}: url('#wp-duotone-{n}');" for n, _ in DUO)
    css += "".join(f"--wp--preset--font-size--{n}: {s}px;" for n, s in [("small", 13), ("medium", 20), ("large", 36)])
    css += "}" + "".join(
        f".has-{n}-{k}{{{k}: var(--wp--preset--color--{n}) !important;}}"
        for k in ["color", "background-color", "border-color"]
        for n, _ in COLORS
    )
    links = "\n".join(
        f"<link rel='stylesheet' id='{i}-css' href='{b}{p}?ver={wp}' media='all' />"
        for i, p in [
            ("wp-block-library", "wp-includes/css/dist/block-library/style.min.css"),
            ("classic-theme-styles", "wp-includes/css/classic-themes.min.css"),
        ]
        + [(f"{site.theme}-{s}", f"wp-content/themes/{site.theme}/{s}.css") for s in styles]
    )
    feeds = "".join(
        f'<link rel="alternate" type="application/rss+xml" title="{name} &raquo; {t}" href="{u}" />\n'
        for t, u in [
            ("フィード" if site.ja else "Feed", b + "feed/"),
            ("コメントフィード" if site.ja else "Comments Feed", b + "comments/feed/"),
        ]
    )
    emoji = b.replace("/", "\\/")
    return (
        f'<meta charset="UTF-8" />\n<meta name="viewport" content="width=device-width, initial-scale=1" />\n'
        f"<title>{tx(post.title)} {sep} {name}</title>\n<meta name='robots' content='max-image-preview:large' />\n"
        f"<link rel='dns-prefetch' href='//s.w.org' />\n{feeds}"
        f'<script>\nwindow._wpemojiSettings = {{"baseUrl":"https:\\/\\/s.w.org\\/images\\/core\\/emoji\\/14.0.0\\/'
        f'72x72\\/","ext":".png","source":{{"concatemoji":"{emoji}wp-includes\\/js\\/wp-emoji-release.min.js?'
        f'ver={wp}"}}}};\n!function(e,a,t){{var n,r,o,i=a.createElement("canvas");function c(e){{var t=a.'
        f'createElement("script");t.src=e,t.defer=t.type="text/javascript",a.getElementsByTagName("head")[0].'
        f"appendChild(t)}}}}(window,document,window._wpemojiSettings);\n</script>\n<style>\nimg.wp-smiley,img.emoji"
        f"{{display:inline !important;border:none !important;height:1em !important;width:1em !important;margin:0 "
        f"0.07em !important;vertical-align:-0.1em !important;}}\n</style>\n{links}\n<style id='global-styles-inline-"
        f"css'>\n{css}\n</style>\n<script src='{b}wp-includes/js/jquery/jquery.min.js?ver=3.6.1' id='jquery-core-"
        f'js\'></script>\n<link rel="https://api.w.org/" href="{b}wp-json/" /><link rel="alternate" type="'
        f'application/json" href="{b}wp-json/wp/v2/posts/{post.id}" /><link rel="EditURI" type="application/rsd+'
        f'xml" title="RSD" href="{b}xmlrpc.php?rsd" />\n<meta name="generator" content="WordPress {wp}" />\n'
        f"<link rel=\"canonical\" href=\"{post.url}\" />\n<link rel='shortlink' href='{b}?p={post.id}' />\n"
    )


def duotone_svgs() -> str:
    """The duotone filter SVGs that WordPress 6.1 prints at the start of <body>."""
    return "".join(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 0" width="0" height="0" focusable="false" role="none" '
        f'style="visibility: hidden; position: absolute; left: -9999px; overflow: hidden;" ><defs><filter '
        f'id="wp-duotone-{n}"><feColorMatrix color-interpolation-filters="sRGB" type="matrix" values=" .299 .587 .114 '
        f'0 0 .299 .587 .114 0 0 .299 .587 .114 0 0 .299 .587 .114 0 0 " /><feComponentTransfer color-interpolation-'
        f'filters="sRGB" ><feFuncR type="table" tableValues="{t}" /><feFuncG type="table" tableValues="{t}" /><feFuncB '
        f'type="table" tableValues="{t}" /><feFuncA type="table" tableValues="1 1" /></feComponentTransfer>'
        f'<feComposite in2="SourceGraphic" operator="in" /></filter></defs></svg>'
        for n, t in DUO
    )


def menu_items(site: Site) -> list[tuple[str, str]]:
    """The menu's (label, url) items: home, about, three categories, contact."""
    b = site.base
    items = [("ホーム", b), ("プロフィール", b + "profile/")] if site.ja else [("Home", b), ("About", b + "about/")]
    return (
        items
        + [(c, site.cat_url(c)) for c in site.cfg["cats"][:3]]
        + [("お問い合わせ" if site.ja else "Contact", b + "contact/")]
    )


def menu(site: Site, ul: str, a_cls: str = "", wrap: Callable[[str], str] = lambda s: s) -> str:
    """wp_nav_menu(): home, about, three categories, contact; ``ul`` is the <ul>'s attributes."""
    items = menu_items(site)
    return (
        f"<ul {ul}>"
        + "".join(
            f'<li id="menu-item-{20 + i}" class="menu-item menu-item-type-custom menu-item-object-custom'
            f'{"" if i else " menu-item-home"} menu-item-{20 + i}"><a href="{u}"{a_cls}>{wrap(eh(t))}</a></li>'
            for i, (t, u) in enumerate(items)
        )
        + "</ul>"
    )


def widgets(site: Site, wrap: WidgetFn, recent_comments: bool = False, old: bool = False) -> str:
    """The core widgets: search, recent posts (and comments), archives, categories, meta.

    ``wrap(id, class, title, inner)`` gives a widget's markup; ``old``: the search form of WordPress 3.x.
    """
    ja, b = site.ja, site.base
    L = (
        W("検索|最近の投稿|最近のコメント|アーカイブ|カテゴリー|メタ情報")
        if ja
        else W("Search|Recent Posts|Recent Comments|Archives|Categories|Meta")
    )
    posts = sorted(site.posts, key=lambda p: p.date, reverse=True)
    search = (
        (
            f'<form method="get" id="searchform" action="{b}"><label class="screen-reader-text" for="s">Search for:'
            f'</label><input type="text" value="" name="s" id="s" /><input type="submit" id="searchsubmit" '
            f'value="Search" /></form>'
        )
        if old
        else (
            f'<form role="search" method="get" class="search-form" action="{b}"><label><span class="screen-reader-text"'
            f">"
            f'{"検索:" if ja else "Search for:"}</span><input type="search" class="search-field" placeholder="'
            f'{L[0]} &hellip;" value="" name="s" /></label><input type="submit" class="search-submit" value="{L[0]}" />'
            f"</form>"
        )
    )
    out = [
        wrap("search-2", "widget_search", None, search),
        wrap(
            "recent-posts-2",
            "widget_recent_entries",
            L[1],
            "<ul>\n" + "".join(f'<li>\n<a href="{p.url}">{tx(p.title)}</a>\n</li>\n' for p in posts[:5]) + "</ul>",
        ),
    ]
    if recent_comments:
        cs = sorted(((c, p) for p in site.posts for c in p.comments), key=lambda x: x[0].date, reverse=True)[:5]
        out.append(
            wrap(
                "recent-comments-2",
                "widget_recent_comments",
                L[2],
                '<ul id="recentcomments">'
                + "".join(
                    f'<li class="recentcomments"><span class="comment-author-link">{author_link(c)}</span> on '
                    f'<a href="{p.url}#comment-{c.id}">{tx(p.title)}</a></li>'
                    for c, p in cs
                )
                + "</ul>",
            )
        )
    months = sorted({(site.local(p.date).year, site.local(p.date).month) for p in site.posts}, reverse=True)
    out.append(
        wrap(
            "archives-2",
            "widget_archive",
            L[3],
            "<ul>\n"
            + "".join(
                f"\t<li><a href='{site.month_url(y, m)}'>{f'{y}年{m}月' if ja else f'{MONTHS[m - 1]} {y}'}</a></li>\n"
                for y, m in months
            )
            + "</ul>",
        )
    )
    out.append(
        wrap(
            "categories-2",
            "widget_categories",
            L[4],
            "<ul>\n"
            + "".join(
                f'\t<li class="cat-item cat-item-{site.cfg["cats"].index(c) + 3}"><a href="{site.cat_url(c)}">'
                f"{eh(c)}</a>\n</li>\n"
                for c in sorted(site.cfg["cats"])
            )
            + "</ul>",
        )
    )
    meta = [
        ("ログイン" if ja else "Log in", "wp-login.php"),
        ("投稿フィード" if ja else "Entries feed", "feed/"),
        ("コメントフィード" if ja else "Comments feed", "comments/feed/"),
    ]
    out.append(
        wrap(
            "meta-2",
            "widget_meta",
            L[5],
            "<ul>\n"
            + "".join(f'<li><a href="{b}{u}">{t}</a></li>\n' for t, u in meta)
            + '<li><a href="https://wordpress.org/">WordPress.org</a></li>\n</ul>',
        )
    )
    return "\n".join(out)


def neighbours(site: Site, post: Post) -> tuple[Post | None, Post | None]:
    """The previous (older) and next (newer) post."""
    i = site.posts.index(post)
    return (site.posts[i - 1] if i else None), (site.posts[i + 1] if i + 1 < len(site.posts) else None)


def links(site: Site, post: Post, kind: str = "cat", sep: str = ", ") -> str:
    """the_category() / the_tags() links of the post (``kind`` "cat" or "tag")."""
    if kind == "cat":
        return sep.join(f'<a href="{site.cat_url(c)}" rel="category tag">{eh(c)}</a>' for c in post.cats)
    return sep.join(f'<a href="{site.tag_url(t)}" rel="tag">{eh(t)}</a>' for t in post.tags)


def svg(name: str, size: int = 18) -> str:
    """An inline SVG icon (a made-up path; only the markup matters)."""
    d = "".join(f"M{(i * 7 + len(name)) % size} {i * 3 % size}h{size // 2}v{size // 3}" for i in range(6))
    return (
        f'<svg class="svg-icon" aria-hidden="true" role="img" focusable="false" xmlns="http://www.w3.org/2000/svg" '
        f'width="{size}" height="{size}" viewBox="0 0 {size} {size}"><path fill="" d="{d}z"></path></svg>'
    )


def pcls(post: Post) -> str:
    """post_class() of the post."""
    return (
        f"post-{post.id} post type-post status-publish format-standard hentry "
        + " ".join(f"category-{slugify(c) or 'uncategorized'}" for c in post.cats)
        + "".join(f" tag-{slugify(t) or 'tag'}" for t in post.tags)
    )


def doc(head: str, body_cls: str, parts: list[str], lang: str = "en-US") -> str:
    """An HTML5 page: <head> contents, body classes, body parts (joined by newlines)."""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n{head}</head>\n\n<body class="{body_cls}">\n'
        + "\n".join(parts)
        + "\n</body>\n</html>\n"
    )


def body_cls(post: Post, extra: str) -> str:
    """body_class() of a single post, with the theme's ``extra`` classes."""
    return f"post-template-default single single-post postid-{post.id} single-format-standard {extra}"


def post_nav(site: Site, post: Post, fmt: Callable[[str, str, Post], str]) -> str:
    """the_post_navigation(); ``fmt(kind, label, post)`` is the inner html of a link."""
    prev, nxt = neighbours(site, post)
    return (
        '<nav class="navigation post-navigation" aria-label="Posts">\n<h2 class="screen-reader-text">Post navigation'
        '</h2>\n<div class="nav-links">'
        + "".join(
            f'<div class="nav-{k}"><a href="{p.url}" rel="{r}">{fmt(k, lab, p)}</a></div>'
            for k, r, lab, p in [("previous", "prev", "Previous", prev), ("next", "next", "Next", nxt)]
            if p
        )
        + "</div>\n</nav>"
    )
