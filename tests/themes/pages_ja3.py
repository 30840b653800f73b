"""The single-post page of the Japanese theme AFFINGER (AFFINGER6, WordPress 6.4, ja).

AFFINGER calls ``wp_list_comments( 'avatar_size=55' )`` without html5 support, so its comments are core's XHTML
markup with the ja strings (``cite.fn`` + "より:", "2026年3月3日 4:20 PM", "返信") in ``ol.commets-list`` (the
theme's own spelling) inside ``div#comments``, after an ``<hr class="hrcss">``.  Comments, related posts
("関連記事", with excerpts of other posts) and the PREV/NEXT links all sit in one ``<aside>`` under the post.
"""

from __future__ import annotations

from .comments import form_strings, reply_title, walk
from .markup import body_cls, body_html, doc, menu, neighbours, pcls
from .model import Post, Site, eh, tx
from .pages_ja2 import xhtml_form, xhtml_one
from .pages_more import WP, related
from .pages_more2 import head

GLOBAL_UL = 'id="menu-global" class="menu"'


def _catgroup(site: Site, p: Post, cls: str = "st-catgroup") -> str:
    """The category labels of a post (``p.st-catgroup``)."""
    return (
        f'<p class="{cls}">'
        + " ".join(
            f'<a href="{site.cat_url(c)}" title="View all posts in {eh(c)}" rel="category tag"><span class="catname '
            f'st-catid{site.cfg["cats"].index(c) + 3}">{eh(c)}</span></a>'
            for c in p.cats
        )
        + "</p>"
    )


def _excerpt(p: Post) -> str:
    """st-excerpt: the first characters of a post's first paragraph."""
    text = next(b[1] for b in p.blocks if b[0] == "p")
    return tx(text[:50]) + ("..." if len(text) > 50 else "")


def page_affinger_ja(site: Site, post: Post) -> str:
    """AFFINGER6 single-type1: breadcrumb, category labels, date box, comments and related posts in ``<aside>``."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)
    L = form_strings(site)
    form = xhtml_form(
        site,
        post,
        reply_title(site, post, "comment", '<h3 id="reply-title" class="comment-reply-title">', "</h3>"),
        notes=f'<p class="comment-notes"><span id="email-notes">{L[2]}</span> <span class="required-field-message">'
        f'{L[3]} <span class="required">※</span></span></p>',
        submit=("form-submit", "submit", "submit", "送信"),
    )
    comments = (
        f'\t\t<ol class="commets-list">\n\t\t\t{walk(post, xhtml_one(site, post, 55))}\n\t\t</ol>\n\t' if n else ""
    )
    d = site.local(post.date)
    iso = site.iso(post.date).replace("+09:00", "+0900")
    crumbs = "".join(
        f'\n\t\t\t\t\t\t\t\t<li itemprop="itemListElement" itemscope itemtype="http://schema.org/ListItem">\n\t\t\t\t\t'
        f'\t\t\t\t<a href="{u}" itemprop="item">\n\t\t\t\t\t\t\t\t\t\t<span itemprop="name">{eh(x)}</span>\n\t\t\t\t\t'
        f'\t\t\t\t</a>\n\t\t\t\t\t\t\t\t\t&gt;\n\t\t\t\t\t\t\t\t\t<meta itemprop="position" content="{i}"/>\n\t\t\t\t\t'
        f"\t\t\t</li>"
        for i, (x, u) in enumerate([("HOME", b)] + [(c, site.cat_url(c)) for c in post.cats[:1]], 1)
    )
    kanren = "".join(
        f'\n\t\t\t<dl class="clearfix">\n\t\t\t\t<dt><a href="{p.url}">\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t'
        f'\t<img src="{b}wp-content/themes/affinger/images/no-img.png"\n\t\t\t\t\t\t\t\t\t\t     alt="no image" title='
        f'"no image" width="100" height="100"/>\n\t\t\t\t\t\t\t\t\n\t\t\t\t\t\t\t\t\t\t\t</a></dt>\n\t\t\t\t<dd>\n\t\t'
        f'\t\t\t{_catgroup(site, p, "st-catgroup itiran-category")}\n\n\t\t\t\t\t<h5 class="kanren-t">\n\t\t\t\t\t\t'
        f'<a href="{p.url}">{tx(p.title)}</a>\n\t\t\t\t\t</h5>\n\n\t\t\t\t\t\t<div class="st-excerpt smanone">\n\t\t'
        f"<p>{_excerpt(p)}</p>\n\t</div>\n\n\t\t\t\t</dd>\n\t\t\t</dl>\n\t\t"
        for p in related(site, post, 5)
    )
    pnav = "".join(
        f'<dt>{k}</dt><dd><a href="{p.url}">{tx(p.title)}</a></dd>' for k, p in [("PREV", prev), ("NEXT", nxt)] if p
    )
    newest = sorted(site.posts, key=lambda p: p.date, reverse=True)[:5]
    newpost = "".join(
        f'<dl class="clearfix">\n\t\t\t\t<dt><a href="{p.url}"><img src="{b}wp-content/themes/affinger/images/no-img.'
        'png"'
        f' alt="no image" title="no image" width="100" height="100"/></a></dt>\n\t\t\t\t<dd>\n\t\t\t\t\t<h5 class="'
        f'kanren-t"><a href="{p.url}">{tx(p.title)}</a></h5>\n\t\t\t\t\t<div class="blog_info">\n\t\t\t\t\t\t<p><i '
        f'class="st-fa st-svg-clock-o"></i>{site.fdate(p.date)}</p>\n\t\t\t\t\t</div>\n\t\t\t\t</dd>\n\t\t\t</dl>\n'
        for p in newest
    )
    side = "".join(
        f'<div id="{i}" class="side-widgets {c}"><p class="st-widgets-title"><span>{t}</span></p>{x}</div>'
        for i, c, t, x in [
            (
                "archives-2",
                "widget_archive",
                "アーカイブ",
                "<ul>\n"
                + "".join(
                    f"\t<li><a href='{site.month_url(y, m)}'>{y}年{m}月</a></li>\n"
                    for y, m in sorted(
                        {(site.local(p.date).year, site.local(p.date).month) for p in site.posts}, reverse=True
                    )
                )
                + "</ul>",
            ),
            (
                "categories-2",
                "widget_categories",
                "カテゴリー",
                "<ul>\n"
                + "".join(
                    f'\t<li class="cat-item cat-item-{site.cfg["cats"].index(c) + 3}"><a href="{site.cat_url(c)}">'
                    f"{eh(c)}</a>\n</li>\n"
                    for c in sorted(site.cfg["cats"])
                )
                + "</ul>",
            ),
        ]
    )
    tagst = (
        '\t\t\t\t\t\t<p class="tagst">\n\t\t\t\t\t\t\t<i class="st-fa st-svg-folder-open-o" aria-hidden="true"></i>-'
        + ", ".join(f'<a href="{site.cat_url(c)}" rel="category tag">{eh(c)}</a>' for c in post.cats)
        + "<br/>\n\t\t\t\t\t\t\t"
        + (
            '<i class="st-fa st-svg-tags"></i>-'
            + ", ".join(f'<a href="{site.tag_url(g)}" rel="tag">{eh(g)}</a>' for g in post.tags)
            if post.tags
            else ""
        )
        + "\t\t\t\t\t\t</p>\n"
    )
    sns = "".join(
        f'<li class="st-{k}"><a title="{lab}" href="{u}{post.url}" target="_blank" rel="nofollow noopener"><i class="'
        f'st-fa st-svg-{k}" aria-hidden="true"></i><span class="snstext " >{lab}</span></a></li>'
        for k, u, lab in [
            ("twitter", "//twitter.com/intent/tweet?url=", "Post"),
            ("facebook", "//www.facebook.com/sharer.php?src=bm&u=", "Share"),
            ("hatebu", "//b.hatena.ne.jp/entry/", "Bookmark"),
            ("line", "//line.me/R/msg/text/?", "LINEで送る"),
        ]
    )
    return doc(
        head(site, post, "affinger", ["style", "st-themecss-loader"], "｜"),
        body_cls(post, "") + '" data-st-body="affinger',
        [
            '<div id="st-ami">\n\t\t\t\t<div id="wrapper" class="">\n\t\t\t\t<div id="wrapper-in">\n\t\t\t\t\t\n<hea'
            "der "
            'id="">\n\t<div id="header-full">\n\t\t<div id="headbox-bg">\n\t\t\t<div id="headbox">\n\n\t\t\t\t\t<div'
            ' id="'
            'header-l">\n\t\t\t\t\t\t\n\t\t\t\t\t\t<div id="st-text-logo">\n\t\t\t\t\t\t\t\n\t\t\t<!-- キャプション '
            "-->\n"
            f'\t\t\t\t\t\t\t<p class="descr sitenametop">\n\t\t\t\t\t{tx(site.cfg["tagline"])}\t\t\t\t</p>\n\t\t\t\t'
            "\t\t\t"
            f'\t\t\t\t\t<!-- ロゴ又はブログ名 -->\n\t\t\t\t\t\t\t\t\t\t<p class="sitename"><a href="{b}">\n\t\t\t\t\t'
            "\t\t"
            f"\t\t\t\t\t\t\t\t\t{eh(site.name)}\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t</a></p>\n\t\t\t\t\t\t\t\t\t\t\t\t<!-- ロ"
            "ゴ又は"
            "ブログ名ここまで -->\n\n\t\t\t\n\t\t\n\t\t\t\t\t\t</div>\n\t\t\t\t\t</div><!-- /#header-l -->\n\n\t\t\t"
            "\t\t<div"
            ' id="header-r" class="smanone">\n\t\t\t\t\t\t\n\t\t\t\t\t</div><!-- /#header-r -->\n\n\t\t\t\t</div><!-'
            "- /#"
            'headbox -->\n\t\t</div><!-- /#headbox-bg clearfix -->\n\n\t\t\n\t\t\n\t\t\n\t\t\t\n<div id="gazou-wide"'
            ">\n\t"
            f'\t\t<div id="st-menubox">\n\t\t\t<div id="st-menuwide">\n\t\t\t\t<nav class="smanone clearfix">'
            f"{menu(site, GLOBAL_UL)}</nav>\n\t\t\t</div>\n\t\t</div>\n\t\t\t\t\t\t\t\t\t\t</div>\n\t\t\n\t</div><!-- #"
            'header-full -->\n\n\t\n\t\n\t\n</header>\n\n\t\t\t\t\t<div id="content-w">\n\n\t\t\t\t\t\n\t\t\t\t\t\n'
            "\t\n\t\n"
            '<div id="content" class="clearfix">\n\t<div id="contentInner">\n\t\t<main>\n\t\t\t<article>\n\t\t\t\t\t'
            "\t\t"
            f'\t\t<div id="post-{post.id}" class="st-post {pcls(post)}">\n\n\t\t\t\t\t\n\t\t\t\t\t\n\t\t\t\t\t<!--ぱ'
            "んく"
            "ず --"
            '>\n\t\t\t\t\t\t\t\t\t\t\t<div\n\t\t\t\t\t\t\tid="breadcrumb">\n\t\t\t\t\t\t\t<ol itemscope itemtype="ht'
            "tp://"
            f'schema.org/BreadcrumbList">{crumbs}\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t</ol>\n\n\t\t\t\t\t\t\t\t\t\t\t'
            "\t\t"
            "\t</div>\n\t\t\t\t\t\t\t\t\t<!--/ ぱんくず -->\n\n\t\t\t\t\t<!--ループ開始 -->\n\t\t\t\t\t\t\t\t\t\t\n"
            "\t\t\t"
            f'\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t{_catgroup(site, post)}\n\t\t\t\t\t\t\n\t\t\t\t\t\t<h1 class="entry-t'
            'itle">'
            f'{T}</h1>\n\n\t\t\t\t\t\t\n\t<div class="blogbox ">\n\t\t<p><span class="kdate">\n\t\t\t\t\t\t\t\t\t\t\t'
            "\t\t"
            f'\t\t<i class="st-fa st-svg-clock-o"></i><time class="updated" datetime="{iso}">{site.fdate(post.date)}'
            '</time>\n\t\t\t\t\t\t</span></p>\n\t</div>\n\t\t\t\t\t\n\t\t\t\t\t\n\t\t\t\t\t\n\t\t\t\t\t<div class="m'
            "ainbox"
            '">\n\t\t\t\t\t\t<div id="nocopy" ><!-- コピー禁止エリアここから -->\n\t\t\t\t\t\t\t\n\t\t\t\t\t\t\t\n\t'
            "\t\t\t"
            f'\t\t\t\n\t\t\t\t\t\t\t<div class="entry-content">\n\t\t\t\t\t\t\t\t{body_html(site, post)}\n\t\t\t\t\t'
            "\t\t"
            "</div>\n\t\t\t\t\t\t</div><!-- コピー禁止エリアここまで -->\n\n\t\t\t\t\t\t\t\t\t\t\t\n\t\t\t\t\t\t\n\t"
            "\t\t\t"
            '\t</div><!-- .mainboxここまで -->\n\n\t\t\t\t\t\t\t\n\t\t\t\t\t\n\t<div class="sns st-sns-singular">\n'
            "\t<ul "
            f'class="clearfix">{sns}</ul>\n\t</div>\n\n\t\t\t\t\t\t\t\t\t\t\n\t\t\t\t\t\t\t\t\t\t\t{tagst}\n\t\t\t\t'
            "\t<aside>"
            f'\n\t\t\t\t\t\t<p class="author" style="display:none;"><a href="{b}author/{post.login}/" title="'
            f'{eh(post.author)}" class="vcard author"><span class="fn">{eh(post.author)}</span></a></p>\n\t\t\t\t\t\t'
            "\t\t"
            '\t\t\t\t\t\t<!--ループ終了-->\n\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t<hr class="hrcss">\n\n<div id="comment'
            's">\n'
            f"{comments}\n\t{form}\n</div>\n\n\n<!-- END singer -->\n\t\t\t\t\t\t\t\t\t\t\t\n\t\t\t\t\t\t<!--関連記事"
            "-->\n"
            '\t\t\t\t\t\t\n\t\t\t<h4 class="point"><span class="point-in">関連記事</span></h4>\n\t\n<div class="kanr'
            'en" '
            f'data-st-load-more-content\n     data-st-load-more-id="{post.id:08x}-0000-4000-8000-000000000000">{kanren}'
            '\n</div>\n\n\n\t\t\t\t\t\t<!--ページナビ-->\n\t\t\t\t\t\t<div class="p-navi clearfix">\n\t<dl>\n\t\t'
            f"{pnav}\n"
            "\t</dl>\n</div>\n\n\t\t\t\t\t</aside>\n\n\t\t\t\t</div>\n\t\t\t\t<!--/post-->\n\t\t\t</article>\n\t\t</"
            "main>\n"
            '\t</div>\n\t<!-- /#contentInner -->\n\t\n\n\t\n\t\t\t<div id="side">\n\t\t\t<aside>\n\n\t\t\t\t\t\t\t\t'
            "\t<h4 "
            f'class="menu_underh2">NEW POST</h4><div class="kanren ">\n{newpost}</div>\n\t\t\t\t\t\t\t\t\t\t\t\t\t<di'
            'v id="'
            f'mybox">\n\t\t\t\t\t\t{side}\t\t\t\t\t</div>\n\t\t\t\t\n\t\t\t\t<div id="scrollad">\n\t\t\t\t\t\t\t\t\t<'
            "/div>"
            "\n\t\t\t</aside>\n\t\t</div>\n\t\t<!-- /#side -->\n\t\n\t\n\t\n\t</div>\n<!--/#content -->\n</div><!-- "
            "/contentw"
            ' -->\n\n\n\n<footer>\n\t<div id="footer">\n\t\t<div id="footer-in">\n\t\t\t\n\t<div class="footer-l">\n'
            "\t\t"
            '<!-- フッターのメインコンテンツ -->\n\t\t\t<div class="footerlogo">\n\t\t\t\t<div id="st-text-logo">\n'
            "\t\t\t\t\t"
            f'<p class="footer-description st-text-logo-top">\n\t\t\t\t\t\t{tx(site.cfg["tagline"])}\t\t\t\t\t</p>\n'
            "\t\t\t"
            f'\t\t<h3 class="footerlogo st-text-logo-bottom">\n\t\t\t\t\t\t<a href="{b}">\n\t\t\t\t\t\t\t'
            f"{eh(site.name)}"
            '\t\t\t\t\t\t</a>\n\t\t\t\t\t</h3>\n\t\t\t\t</div>\n\t\t\t</div>\n\t</div>\n\n\t\t</div>\n\t\t<p class="'
            'copyr">'
            f"<small>&copy; {d.year} {eh(site.name)}</small></p>\t</div>\n</footer>\n\t\t\t\t\t</div>\n\t\t\t\t\t<!--"
            " /#"
            f"wrapperin -->\n\t\t\t\t</div>\n\t\t\t\t<!-- /#wrapper -->\n\t\t\t\t</div><!-- /#st-ami -->",
            f"<script src='{b}wp-includes/js/comment-reply.min.js?ver={WP}' id='comment-reply-js' async "
            f"data-wp-strategy='async'></script>",
        ],
        lang="ja",
    )
