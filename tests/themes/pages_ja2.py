"""Single-post pages of the Japanese themes SANGO and JIN (WordPress 6.4, ja), and core's XHTML comment markup.

SANGO lists comments with ``sng_comments()`` in ``wp_list_comments( style => div )``: each comment is a
``div.comment`` whose ``<article>`` holds a ``header.comment-author`` (avatar, ``cite.fn``, a ``<time>`` whose
``datetime`` is ``comment_time('Y-m-j')``, e.g. "2026-03-5", and the date only), ``section.comment_content`` and a
bare "返信する" link; replies are ``div``\\ s inside the parent ``div``.  JIN declares no html5 support and calls
``wp_list_comments('avatar_size=48')``: core's XHTML markup (``div.comment-body``, ``cite.fn`` + "より:", the date
and time as "2026年3月3日 4:20 PM", "返信"), inside a doubled ``div#comment-box`` under "POSTED COMMENT".
"""

from __future__ import annotations

from .comments import CommentFn, avatar, comment_form, ctext, form_strings, reply_link, reply_title, theme_form, walk
from .markup import body_cls, body_html, doc, menu, neighbours, pcls
from .model import Comment, Post, Site, eh, tx
from .pages_classic_defaults import author_link64
from .pages_more import WP, related
from .pages_more2 import cc, head, sidebar

MAIN = 'id="menu-main" class="menu"'


def xhtml_one(site: Site, post: Post, size: int) -> CommentFn:
    """Walker_Comment::comment() (no html5 support, WordPress 6.4) with the ja strings より: / 返信."""

    def one(c: Comment, depth: int, cls: str) -> str:
        return (
            f'\t\t<li class="{cls}" id="comment-{c.id}">\n\t\t\t\t<div id="div-comment-{c.id}" class="comment-body">\n'
            f'\t\t\t\t<div class="comment-author vcard">\n\t\t\t{avatar(c, size)}\t\t\t<cite class="fn">'
            f'{author_link64(c, site)}</cite> <span class="says">より:</span>\t\t</div>\n\t\t\n\t\t<div class="comment-'
            f'meta commentmetadata">\n\t\t\t<a href="{post.url}#comment-{c.id}">{site.stamp(c.date)}</a>\t\t</div>\n\n'
            f'\t\t{ctext(c)}\n\t\t<div class="reply">{reply_link(site, post, c, text="返信")}</div>\n\t\t\t\t</div>\n'
            "\t\t"
        )

    return one


def xhtml_form(site: Site, post: Post, head_html: str, **kw: object) -> str:
    """theme_form() of a theme without html5 support for the comment form (no ``novalidate``)."""
    return theme_form(site, post, head_html, **kw).replace(" novalidate>", ">")  # type: ignore[arg-type]


def copyright_years(site: Site) -> str:
    """get_copyright_date(): first post's year, or "first–last" (the newest post standing in for today)."""
    first, last = (site.local(p.date).year for p in (site.posts[0], site.posts[-1]))
    return str(first) if first == last else f"{first}–{last}"


def page_sango_ja(site: Site, post: Post) -> str:
    """SANGO 1.x: sng_comments() in ``section.commentlist``, share buttons, related posts, prev/next boxes."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)
    t = "\t"

    def one(c: Comment, depth: int, cls: str) -> str:
        d = site.local(c.date)
        rl = reply_link(site, post, c, "comment", "返信する")
        return (
            f'\t<div id="comment-{c.id}" class="{cc(cls, "cf")}">\n\t\t<article  class="cf">\n\t\t<header class="comm'
            "ent"
            f'-author vcard">\n{t * 3}\n{t * 3}{avatar(c, 40)}{t * 3}<cite class="fn">{author_link64(c, site)}</cite> '
            f'\n{t * 3}<time datetime="{d.year}-{d.month:02d}-{d.day}"><a href="{post.url}#comment-{c.id}" rel="nofol'
            "low"
            f'">{site.fdate(c.date)}</a></time>\n\t\t</header>\n\t\t\t\t<section class="comment_content cf">\n{t * 3}'
            f"{ctext(c)}\t\t</section>\n\t\t\t{rl}\t\t</article>\n\t\t"
        )

    comments = (
        f'\t<h3 id="comments-title" class="h2 dfont"><span>{n}</span> COMMENT{"S" * (n != 1)}</h3>\n\n\t<section clas'
        's="'
        f'commentlist">\n\t\t{walk(post, one, ("", ""), "</div><!-- #comment-## -->")}\n\t</section>\n\n\t\t\t\t\t\t'
        if n
        else ""
    )
    d = site.local(post.date)
    crumbs = "".join(
        f'<li itemprop="itemListElement" itemscope itemtype="http://schema.org/ListItem"><a href="{u}" itemprop="item">'
        f'<span itemprop="name">{eh(x)}</span></a><meta itemprop="position" content="{i}" /></li>'
        for i, (x, u) in enumerate([("ホーム", b), (post.cats[0], site.cat_url(post.cats[0]))], 1)
    )
    share = "".join(
        f'<li class="{k} sns-btn__item"><a href="{u}{post.url}" target="_blank" rel="nofollow noopener noreferrer" '
        f'aria-label="{lab}にシェアする"><i class="{ic}" aria-hidden="true"></i><span class="share_txt">{lab}</span>'
        f"</a></li>"
        for k, u, ic, lab in [
            ("tw", "https://twitter.com/intent/tweet?url=", "fab fa-twitter", "ツイート"),
            ("fb", "https://www.facebook.com/share.php?u=", "fab fa-facebook", "シェア"),
            ("hatebu", "http://b.hatena.ne.jp/add?mode=confirm&amp;url=", "fa fa-hatebu", "はてブ"),
            ("line", "https://social-plugins.line.me/lineit/share?url=", "fab fa-line", "LINE"),
        ]
    )
    cats = "".join(f'<li><a href="{site.cat_url(c)}" rel="category tag">{eh(c)}</a></li>' for c in post.cats)
    tags = "".join(f'<li><a href="{site.tag_url(g)}" rel="tag">{eh(g)}</a></li>' for g in post.tags)
    rel = "".join(
        f'<li><a href="{p.url}"><figure class="rlmg"><img src="{b}wp-content/themes/sango-theme/library/images/'
        f'default_small.jpg" width="520" height="300" alt="{tx(p.title)}"></figure><div class="rep"><p>{tx(p.title)}'
        f"</p></div></a></li>"
        for p in related(site, post, 4)
    )
    pn = "".join(
        f'\n\t<a href="{p.url}" class="prnx {k}">\n\t\t<p>{a}</p>\n\t\t<div class="prnx_tb">\n\t\t  \n\t\t<span class="'
        f'prev-next__text">{tx(p.title)}</span>\n\t\t</div>\n\t</a>\n\t\t'
        for k, a, p in [
            ("pr", '<i class="fa fa-angle-left" aria-hidden="true"></i> 前の記事', prev),
            ("nx", '次の記事 <i class="fa fa-angle-right" aria-hidden="true"></i>', nxt),
        ]
        if p
    )
    foot = menu(site, 'id="menu-footer" class="nav footer-nav cf"')
    return doc(
        head(site, post, "sango-theme", ["style"], "|"),
        body_cls(post, "fa5"),
        [
            '<div id="container">\n\t\t<header class="header">\n\t\t\t\t\t\t<div id="inner-header" class="wrap cf">'
            "\n\t"
            f'\t\t\t\t\t\t\t\t<div id="logo" class="header-logo h1 dfont">\n\t<a href="{b}" class="header-logo__link"'
            ">\n"
            f'\t\t\t\t{eh(site.name)}\t</a>\n\t</div>\n\t<div class="header-search">\n\t\t<label class="header-search__'
            'open" for="header-search-input"><i class="fas fa-search" aria-hidden="true"></i></label>\n\t</div>\n\t'
            "\t\t"
            f'\t\t\t\t\t\t<nav class="desktop-nav clearfix">{menu(site, MAIN)}'
            f'</nav>\t\t\t\t\t\t\t</div>\n\t\t\t\t\t</header>\n\t\t\t<div id="content">\n\t\t<div id="inner-content" '
            'class="wrap cf">\n\t\t\t<main id="main" class="m-all t-2of3 d-5of7 cf">\n\t\t\t\t\t\t\t<article id="ent'
            'ry" '
            f'class="cf {pcls(post)}">\n\t\t\t  <header class="article-header entry-header">\n\t<nav id="breadcrumb" '
            f'class="breadcrumb"><ul itemscope itemtype="http://schema.org/BreadcrumbList">{crumbs}</ul></nav>\t\t<h1 '
            f'class="entry-title single-title">{T}</h1>\n\t\t<div class="entry-meta vcard">\n\t\t\t<time class="pubda'
            "te "
            f'entry-time" itemprop="datePublished" datetime="{d:%Y-%m-%d}">{site.fdate(post.date)}</time>\t\t</div>\n\t'
            f'\t\t\t</header>\n<section class="entry-content cf">\n\t{body_html(site, post)}\n</section>\n<footer cla'
            'ss="'
            f'article-footer">\n\t<aside>\n\t\t<div class="footer-contents">\n\t\t\t\t<div class="sns-btn">\n\t\t<span '
            f'class="sns-btn__title dfont">SHARE</span>\t\t<ul>{share}</ul>\n\t</div>\n\t\t\t\t\t<div class="footer-m'
            "eta "
            'dfont">\n\t\t\t\t\t\t\t\t\t\t\t<p class="footer-meta_title">CATEGORY :</p>\n\t\t\t\t\t\t\t\t<ul class="'
            "post-"
            f'categories">{cats}</ul>\t\t\t\t\t\t\t\t\t\t\t\t\t\t'
            + (
                f'<div class="meta-tag">\n\t\t\t\t<p class="footer-meta_title">TAGS :</p>\n\t\t\t\t<ul>{tags}</ul>\t'
                "\t\t"
                "</div>\n\t\t\t"
                if tags
                else ""
            )
            + f'\t\t\t\t\t\t</div>\n\t\t\t\t\t\t\t<div class="related-posts type_a slide"><ul>{rel}</ul></div>\t\t\t'
            f'\t\t</div>\n\t\t\t</aside>\n</footer><div id="comments">\n{comments}'
            f'{comment_form(site, post)}\n</div>\n\t\t\t\t\t\t\t</article>\n\t\t\t\t\t\t\t\t<div class="prnx_box cf">'
            f'{pn}</div>\n\t\t\t\t\t\t\t\t\t\t\t\t</main>\n\t\t\t\t\t<div id="sidebar1" class="sidebar m-all t-1of3 '
            f'd-2of7 last-col cf" role="complementary">\n\t<aside class="insidesp">\n\t\t\t<div id="notfix" class="'
            f'normal-sidebar">\n\t\t\t\t{sidebar(site, "h4", "widgettitle dfont has-fa-before")}\t\t\t</div>\n\t\t\t\t'
            '\t</aside>\n\t</div>\n\t\t\t\t\t\t</div>\n\t</div>\n\t\t\t<footer class="footer">\n\t\t\t\t\t\t\t\t<div'
            ' id="'
            f'footer-menu">\n\t\t\t\t\t<div>\n\t\t\t\t\t\t<a class="footer-menu__btn dfont" href="{b}"><i class="fas '
            f'fa-home" aria-hidden="true"></i> HOME</a>\n\t\t\t\t\t</div>\n\t\t\t\t\t<nav>\n\t\t\t\t\t\t<div class="'
            f'footer-links cf">{foot}</div>\t\t\t\t\t\t\t\t\t\t\t</nav>\n\t\t\t\t\t<p class="copyright dfont">\n\t\t'
            "\t\t"
            f"\t\t&copy; {site.local(post.date).year}\t\t\t\t\t\t{eh(site.name)}\t\t\t\t\t\tAll rights reserved.\n\t"
            "\t\t\t"
            f"\t</p>\n\t\t\t\t</div>\n\t\t\t</footer>\n\t\t</div>",
            f"<script src='{b}wp-includes/js/comment-reply.min.js?ver={WP}' id='comment-reply-js' async "
            f"data-wp-strategy='async'></script>",
        ],
        lang="ja",
    )


def page_jin_ja(site: Site, post: Post) -> str:
    """JIN 2.x: core XHTML comments under "POSTED COMMENT", related entries, prev/next cards, right sidebar."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)
    cat = post.cats[0]
    comments = (
        f'\t\t<section id="comment-section">\n\t\t\t<article id="comment-area">\n\t\t\t\t<div id="comment-box">\n\t\t'
        f'\t\t\t<h3 id="comment-title"><span class="fa-headline ef"><i class="far fa-comment-alt" aria-hidden="true">'
        f'</i>POSTED COMMENT</span></h3>\n\t\t\t\t\t<ol class="comment-list">\n\t\t\t\t\t'
        f"{walk(post, xhtml_one(site, post, 48))}\n\t\t\t\t\t</ol>\n\t\t\t\t</div>\n\t\t\t</article>\n\t\t</section>"
        "\n\t"
        if n
        else ""
    )
    L = form_strings(site)
    title = '<span class="fa-headline ef"><i class="far fa-comment-alt fa-lg" aria-hidden="true"></i>COMMENT</span>'
    form = xhtml_form(
        site,
        post,
        reply_title(site, post, title, '<h3 id="reply-title" class="comment-reply-title">', "</h3>"),
        notes=f'<p class="comment-notes"><span id="email-notes">{L[2]}</span> <span class="required-field-message">'
        f'{L[3]} <span class="required">※</span></span></p>',
        comment='<div class="comment-flexbox"><p class="comment-form-comment"><textarea id="comment" name="comment" '
        'aria-required="true"></textarea></p>',
        fields='<div class="comment-child-flex"><p class="comment-form-author"><input id="author" placeholder="ニックネ'
        'ーム" name="author" type="text" value="" aria-required=\'true\' /></p><p class="comment-form-email"><input '
        'id="email" placeholder="メールアドレス" name="email" type="email" value="" aria-required=\'true\' /></p>'
        "</div></div>",
        submit=("form-submit", "submit", "submit", "送信する"),
    )
    date = (
        '<span class="cps-post-date"><i class="far fa-clock" aria-hidden="true"></i>&nbsp;<time class="entry-date da'
        "te "
        f'published updated" datetime="{site.iso(post.date)}">{site.fdate(post.date)}</time></span>'
    )
    crumbs = "".join(
        f'<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">{sep}{inner}<meta itemprop="'
        f'position" content="{i}"></li>'
        for i, (sep, inner) in enumerate(
            [
                (
                    "",
                    f'<a href="{b}" itemprop="item"><i class="fas fa-home space-i" aria-hidden="true"></i><span '
                    'itemprop="name">HOME</span></a>',
                ),
                (
                    '<i class="fa fa-angle-right space" aria-hidden="true"></i>',
                    f'<a href="{site.cat_url(cat)}" itemprop="item"><span itemprop="name">{eh(cat)}</span></a>',
                ),
                ('<i class="fa fa-angle-right space" aria-hidden="true"></i>', f'<span itemprop="name">{T}</span>'),
            ],
            1,
        )
    )
    tags = "".join(
        f'<span><a href="{site.tag_url(g)}"><span class="tagicon"><i class="fa fa-tag" aria-hidden="true"></i></span> '
        f"{eh(g)}</a></span>"
        for g in post.tags
    )
    rel = "".join(
        f'<article class="post-list-item" itemscope itemtype="https://schema.org/BlogPosting">\n\t<a class="post-list-'
        f'link" rel="bookmark" href="{p.url}" itemprop=\'mainEntityOfPage\'>\n\t\t<div class="post-list-inner">\n'
        f'\t\t\t<div class="post-list-thumb" itemprop="image" itemscope itemtype="https://schema.org/ImageObject">\n\t'
        f'\t\t\t\t\t\t\t\t\t\t\t<img src="{b}wp-content/themes/jin/img/noimg320.png" width="480" height="270" alt="no '
        f'image" />\n\t\t\t\t\t\t\t\t\t\t\t</div>\n\t\t\t<div class="post-list-meta vcard">\n\t\t\t\t<span class="'
        f'post-list-cat category-cat-{site.cfg["cats"].index(p.cats[0]) + 3}" style="background-color:!important;" '
        f'itemprop="keywords">{eh(p.cats[0])}</span>\n\n\t\t\t\t<h2 class="post-list-title entry-title" itemprop="'
        f'headline">{tx(p.title)}</h2>\n\n\t\t\t\t\t\t\t\t\t<span class="post-list-date date updated ef" itemprop="'
        f'datePublished dateModified" datetime="{site.iso(p.date)[:10]}" content="{site.iso(p.date)[:10]}">'
        f'{site.fdate(p.date)}</span>\n\t\t\t\t\n\t\t\t\t<span class="writer fn" itemprop="author" itemscope itemtype'
        f'="http://schema.org/Person"><span itemprop="name">{eh(p.author)}</span></span>\n\t\t\t</div>\n\t\t</div>\n'
        f"\t</a>\n</article>"
        for p in related(site, post, 3)
    )
    pn = "".join(
        (
            f'\n\t\t\t<a class="{k}" href="{p.url}" title="{tx(p.title)}">\n\t\t\t\t<div class="metabox">\n\t\t\t\t\t'
            + (img if k == "prev" else "")
            + f"\n\t\t\t\t\t<p>{tx(p.title)}</p>\n\t\t\t\t\t"
            + (img if k == "next" else "")
            + "\n\t\t\t\t</div>\n\t\t\t</a>\n\t\t"
        )
        if p
        else f'\n\t\t\t<div class="prevnext-none {k}"></div>\n\t\t'
        for k, p in [("prev", prev), ("next", nxt)]
        for img in [f'<img src="{b}wp-content/themes/jin/img/noimg320.png" alt="NO IMAGE" title="NO IMAGE" />']
    )
    nav = menu(site, 'class="menu-box"')
    return doc(
        head(site, post, "jin", ["style"], "｜"),
        body_cls(post, "") + '" id="nts-style',
        [
            '<div id="wrapper">\n\n\t\n\t\n\t\t<!--ヘッダー-->\n\n\t\t\t\t\t<div id="header-box" class="tn_on header'
            "-box "
            'animate">\n\t<div id="header" class="header-type1 header animate">\n\t\t\n\t\t<div id="site-info" class'
            '="ef'
            f"\">\n\t\t\t\t\t\t\t\t\t<span class=\"tn-logo-size\"><a href='{b}' title='{eh(site.name)}' rel='home'>"
            f"{eh(site.name)}</a></span>\n\t\t\t\t\t\t\t\t\t</div>\n\n\t\t\t\t<!--グローバルナビゲーション layout3-->"
            "\n\t"
            f'\t<div id="drawernav3" class="ef">\n\t\t\t<nav class="fixed-content ef">{nav}</nav>\t\t</div>\n\t\t<!--'
            "グロ"
            f'ーバルナビゲーション layout3-->\n\t\t\n\t\n\t\t\t</div>\n\t\n\t\t\n</div>\n\n\n<div id="scroll-content" '
            'class="animate">\n\t\n\t\t\n\t\t<!--ヘッダー-->\n\n\t\t<div class="clearfix"></div>\n\n\t\t\t\n\t<div i'
            'd="'
            'contents">\n\n\t\t<!--メインコンテンツ-->\n\t\t\t<main id="main-contents" class="main-contents article_'
            "style1 "
            'animate" itemprop="mainContentOfPage">\n\t\t\t\t<section class="cps-post-box hentry">\n\t\t\t\t\t\t<div'
            ' id="'
            f'breadcrumb" class="clearfix"><ul itemscope itemtype="https://schema.org/BreadcrumbList">{crumbs}</ul></'
            "div>"
            '\t\t\t\t\t\t\t\t\t\t\t<article class="cps-post">\n\t\t\t\t\t\t\t<header class="cps-post-header">\n\t\t'
            "\t\t"
            f'\t\t\t\t<span class="cps-post-cat category-cat-{site.cfg["cats"].index(cat) + 3}" itemprop="keywords"><a '
            f'href="{site.cat_url(cat)}" style="background-color:!important;">{eh(cat)}</a></span>\n\t\t\t\t\t\t\t\t<'
            "h1 "
            f'class="cps-post-title entry-title" itemprop="headline">{T}</h1>\n\t\t\t\t\t\t\t\t<div class="cps-post-m'
            "eta "
            'vcard">\n\t\t\t\t\t\t\t\t\t<span class="writer fn" itemprop="author" itemscope itemtype="http://schema.'
            "org/"
            f'Person"><span itemprop="name">{eh(post.author)}</span></span>\n\t\t\t\t\t\t\t\t\t<span class="cps-post-'
            "date-"
            f'box">\n\t\t\t\t\t\t\t\t\t\t\t{date}\n\t\t\t\t\t\t\t\t\t</span>\n\t\t\t\t\t\t\t\t</div>\n\t\t\t\t\t\t\t'
            "\t\n"
            f'\t\t\t\t\t\t\t</header>\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t<div class="cps-post-thumb" itemscope itemtype="'
            'http://schema.org/ImageObject">\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t</div>\n\t\t\t\t\t\t\t\n\t\t\t\t\t\t\t'
            "<div "
            'class="cps-post-main-box">\n\t\t\t\t\t\t\t\t<div class="cps-post-main    h2-style01 h3-style01 h4-style'
            "01 "
            f'entry-content m-size m-size-sp" itemprop="articleBody">\n\n\t\t\t\t\t\t\t\t\t\n\n\t\t\t\t\t\t\t\t\t'
            f"{body_html(site, post)}\n\t\t\t\t\t\t\t\t\t\n\t\t\t\t\t\t\t\t\t\n\t\t\t\t\t\t\t\t\t\n\t\t\t\t\t\t\t\t\t"
            + (f'<div class="tag-box">{tags}</div>' if tags else "")
            + '\n\t\t\t\t\t\t\t\t\t\n\t\t\t\t\t\t\t\t\t<div class="related-ad-unit-area"></div>\n\t\t\t\t\t\t\t\t\t\n\t'
            "\t\t\t\t\t\t\t</div>\n\t\t\t\t\t\t\t</div>\n\t\t\t\t\t\t</article>\n\t\t\t\t\t\t\n\t\t\t\t\t\t\t\t\t\t</"
            "section>"
            '\n\t\t\t\t\n\t\t\t\t\t\t\t\t\n\t\t\t\t\t\t\t\t<div class="toppost-list-box-simple">\n<section class="rel'
            "ated-"
            'entry-section toppost-list-box-inner">\n\t\t<div class="related-entry-headline">\n\t\t<div class="related-'
            'entry-headline-text ef"><span class="fa-headline"><i class="far fa-folder-open" aria-hidden="true"></i>関'
            "連記事"
            f'</span></div>\n\t</div>\n\t\t\t\t<div class="post-list-mag3col">\n\t\t{rel}\n\t\t</div>\n\t</section>\n'
            "</div>"
            f'\n<div class="clearfix"></div>\n\t\n\n\t\t\t\t\t\t\t\t\n\n<div id="comment-box">\n{comments}\t{form}\n\n'
            f'\t</div>\n\t\t\t\t\n\t\t\t\t\t<div id="prev-next" class="clearfix">\n\t\t\n{pn}\n\t</div>\n\t<div class="'
            'clearfix"></div>\n\t\t\t</main>\n\n\t\t<!--サイドバー-->\n<div id="sidebar" class="sideber sidebar-styl'
            "e1 "
            f'animate" role="complementary" itemscope itemtype="http://schema.org/WPSideBar">\n\t\t\n\t'
            f'{sidebar(site, "div", "widgettitle ef")}\n\t\n\t\t\t</div>\n\t</div>\n<div class="clearfix"></div>\n\t<'
            "!--"
            'フッター-->\n\t\t\t\t<footer role="contentinfo" itemscope itemtype="http://schema.org/WPFooter">\n\t\n\t'
            "\t<"
            "!--"
            'ここからフッターウィジェット-->\n\t\t\n\t\t\t\t\n\t\t\t\t\t\t\n\t\t<div class="clearfix"></div>\n\t\t\n'
            "\t\t<!--"
            'ここまでフッターウィジェット-->\n\t\n\t\t\t\t\t<div id="footer-box">\n\t\t\t\t<div class="footer-inner"'
            ">\n\t\t"
            '\t\t\t<span id="copyright-center" itemprop="copyrightHolder"><i class="far fa-copyright" aria-hidden="t'
            'rue">'
            f"</i>&nbsp;{copyright_years(site)}&nbsp;&nbsp;{eh(site.name)}</span>\n\t\t\t\t</div>\n\t\t\t</div>\n\t\t\t"
            '\t<div class="clearfix"></div>\n\t</footer>\n\t\n\t\n\t\n\t\t\n\t</div><!--scroll-content-->\n\t\n</div'
            "><!--"
            f"wrapper-->",
            f"<script src='{b}wp-includes/js/comment-reply.min.js?ver={WP}' id='comment-reply-js' async "
            f"data-wp-strategy='async'></script>",
        ],
        lang="ja",
    )
