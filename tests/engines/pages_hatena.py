"""Hatena Blog entry pages (``hatena-ja``, Japanese), as hatenablog.com serves them with a Boilerplate-like theme.

``article.entry`` > ``header.entry-header`` (``div.date`` with the date in ``time`` spans, ``h1.entry-title``,
categories), ``div.entry-content``, ``footer.entry-footer`` (author ``span.fn`` and ``time``, Hatena Star,
share buttons, then the comment box): the comments sit inside the entry's footer, as ``div.comment-box`` >
``ul.comment.js-comment`` > ``li.entry-comment`` with ``p.comment-user-name`` (``a.comment-user-id`` "id:user"
for Hatena users, the nickname for guests), ``div.comment-content`` (paragraphs) and ``p.comment-metadata``
(``time`` "2016/05/09 16:20"), then the "コメントを書く" link.  Comments are flat.  Truth authors are the names
shown ("id:kenta", a guest's nickname; the blog author answers as "id:<login>").  Sidebar modules: プロフィール,
検索, リンク, 最新記事, 月別アーカイブ; a pager with the newer / older entry.  Class names are checked against
hatena/Hatena-Blog-Theme-Boilerplate's CSS; the element nesting and the guest-name markup are from memory.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

from tests.themes.model import Comment, Post, Site

from .base import attr, body, esc, limit_depth, long_id, months, neighbours, newest


def hatena_user(name: str) -> str | None:
    """The Hatena id of a commenter with an ASCII name (others comment as guests)."""
    return re.sub(r"[^a-z0-9_]", "", name.lower()) if name.isascii() else None


def adapt_hatena(site: Site) -> None:
    """Hatena entry URLs (/entry/2016/05/09/162000), long ids, flat comments named as the page shows them."""
    login = site.cfg["authors"][0][1]
    posts = []
    for p in site.posts:
        cs = []
        for c in limit_depth(p.comments, 1):
            user = login if c.mine else hatena_user(c.author)
            cs.append(replace(c, id=long_id("hatena-c", c.id, digits=17), author=f"id:{user}" if user else c.author))
        url = f"{site.base}entry/{site.local(p.date).strftime('%Y/%m/%d/%H%M%S')}"
        posts.append(replace(p, id=long_id("hatena-e", p.id, digits=17), url=url, comments=cs))
    site.posts = posts


def utcz(dt: datetime) -> str:
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def comment(site: Site, c: Comment) -> str:
    """One ``li.entry-comment``."""
    if c.author.startswith("id:"):
        u = c.author[3:]
        who = (
            f'<a class="comment-user-id" href="https://blog.hatena.ne.jp/{u}/"><span class="hatena-id-icon-wrapper"><im'
            f'g src="https://cdn.profile-image.st-hatena.com/users/{u}/profile.png" width="50" height="50" alt="{u}" '
            f'class="hatena-id-icon"></span>{esc(c.author)}</a>'
        )
    else:
        who = f'<span class="comment-nickname" data-user-name="">{esc(c.author)}</span>'
    text = "".join(f"<p>{esc(x)}</p>" for x in c.paras)
    return (
        f'<li id="comment-{c.id}" class="entry-comment js-entry-comment">\n<p class="comment-user-name">{who}</p>\n<div'
        f' class="comment-content">{text}</div>\n<p class="comment-metadata">\n<a class="comment-permalink" href="'
        f'#comment-{c.id}"><time data-relative datetime="{utcz(c.date)}" title="{utcz(c.date)}" class="updated">'
        f"{site.local(c.date).strftime('%Y/%m/%d %H:%M')}</time></a>\n</p>\n</li>"
    )


def module(cls: str, title: str, inner: str, extra: str = "") -> str:
    return (
        f'<div class="hatena-module hatena-module-{cls}"{extra}>\n<div class="hatena-module-title">{title}</div>\n<div '
        f'class="hatena-module-body">\n{inner}\n</div>\n</div>'
    )


def sidebar(site: Site) -> str:
    """The box2 modules: profile, search, links, recent entries, monthly archive."""
    b, u = site.base, site.cfg["authors"][0][1]
    profile = (
        f'<a href="{b}about" class="profile-icon-link"><img src="https://cdn.profile-image.st-hatena.com/users/{u}/'
        f'profile.png" alt="id:{u}" class="profile-icon" /></a>\n<span class="id"><a href="{b}about" class="hatena-id-'
        f'link"><span data-load-nickname="1" data-user-name="{u}">id:{u}</span></a></span>\n<div class="profile-'
        f'description"><p>{esc(site.cfg["tagline"])}</p></div>\n<div class="hatena-follow-button-box btn-subscribe js-'
        f'hatena-follow-button-box"><a href="#" class="hatena-follow-button js-hatena-follow-button"><span class="'
        'subscribing"><span class="foreground">読者です</span><span class="background">読者をやめる</span></span><span'
        f' class="unsubscribing"><span class="foreground">読者になる</span><span class="background">読者になる</span>'
        f'</span></a><div class="subscription-count-box js-subscription-count-box"><i></i><u></u><span class="'
        f'subscription-count js-subscription-count"></span></div></div>\n<div class="profile-about"><a href="{b}about"'
        f">このブログについて</a></div>"
    )
    search = (
        f'<form class="search-form" role="search" action="{b}search" method="get">\n<input type="text" name="q" class="'
        f'search-module-input" value="" placeholder="記事を検索" required>\n<input type="submit" value="検索" class="'
        f'search-module-button" />\n</form>'
    )
    links = (
        '<ul class="hatena-urllist">\n<li><a href="https://hatenablog.com/">はてなブログ</a></li>\n<li><a href="https://'
        'hatenablog.com/guide">ブログをはじめる</a></li>\n<li><a href="http://blog.hatenablog.com">週刊はてなブログ</a>'
        '</li>\n<li><a href="https://hatenablog.com/guide/pro">はてなブログ Pro</a></li>\n</ul>'
    )
    recent = (
        '<ul class="recent-entries hatena-urllist ">\n'
        + "".join(
            f'<li class="urllist-item recent-entries-item">\n<div class="urllist-item-inner recent-entries-item-inner">'
            f'\n<a href="{p.url}" class="urllist-title-link recent-entries-title-link  urllist-title recent-entries-'
            f'title">{esc(p.title)}</a>\n</div>\n</li>\n'
            for p in newest(site, 5)
        )
        + "</ul>"
    )
    years: dict[int, list[tuple[int, int]]] = {}
    for y, m, ps in months(site):
        years.setdefault(y, []).append((m, len(ps)))
    archive = (
        '<ul class="hatena-urllist archive-module-year-list">\n'
        + "".join(
            f'<li class="archive-module-year archive-module-year-hidden" data-year="{y}">\n<div class="archive-module-'
            f'button"><span class="archive-module-hide-button">▼</span><span class="archive-module-show-button">▶'
            f'</span></div>\n<a href="{b}archive/{y}" class="archive-module-year-title archive-module-year-{y}">{y}</a>'
            "\n"
            '<ul class="hatena-urllist archive-module-month-list">\n'
            + "".join(
                f'<li class="archive-module-month"><a href="{b}archive/{y}/{m:02d}" class="archive-module-month-title '
                f'archive-module-month-{y}-{m}">{y} / {m} ({n})</a></li>\n'
                for m, n in ms
            )
            + "</ul>\n</li>\n"
            for y, ms in years.items()
        )
        + "</ul>"
    )
    return "\n".join(
        [
            module("profile", "プロフィール", profile),
            module("search-box", "検索", search),
            module("links", "リンク", links),
            module("recent-entries ", f'<a href="{b}archive">最新記事</a>', recent),
            module("archive", f'<a href="{b}archive">月別アーカイブ</a>', archive, f' data-archive-url="{b}archive"'),
        ]
    )


def page_hatena(site: Site, post: Post) -> str:
    """A whole Hatena Blog entry page."""
    b, u, name = site.base, site.cfg["authors"][0][1], esc(site.name)
    older, newer = neighbours(site, post)
    d = site.local(post.date)

    def img(x: tuple) -> str:
        src = f"https://cdn-ak.f.st-hatena.com/images/fotolife/{u[0]}/{u}/{d:%Y%m%d}/{d:%Y%m%d}{x[3]:06d}.jpg"
        pic = (
            f'<p><span itemscope itemtype="http://schema.org/Photograph"><img src="{src}" alt="{attr(x[1])}" width="'
            f'1200" height="800" loading="lazy" title="" class="hatena-fotolife" itemprop="image"></span></p>'
        )
        if not x[2]:
            return pic
        return (
            f'<figure class="figure-image figure-image-fotolife" title="{attr(x[2])}">{pic}<figcaption>{esc(x[2])}'
            f"</figcaption></figure>"
        )

    content = body(post, img, h2=lambda s: f"<h3>{s}</h3>")
    cats = "".join(
        f'<a href="{b}archive/category/{attr(c)}" class="entry-category-link category-{attr(c)}">{esc(c)}</a>'
        for c in post.cats
    )
    crumbs = (
        f'<div class="breadcrumb"><div class="breadcrumb-inner"><a class="breadcrumb-link" href="{b}"><span>トップ'
        f'</span></a><span class="breadcrumb-gt">&gt;</span><span class="breadcrumb-child"><a class="breadcrumb-child-'
        f'link" href="{b}archive/category/{attr(post.cats[0])}"><span>{esc(post.cats[0])}</span></a></span><span '
        f'class="breadcrumb-gt">&gt;</span><span class="breadcrumb-child"><span>{esc(post.title)}</span></span></div>'
        f"</div>"
    )
    share = (
        f'<div class="social-buttons">\n<div class="social-button-item"><a href="https://b.hatena.ne.jp/entry/s/'
        f'{post.url[8:]}" class="hatena-bookmark-button" data-hatena-bookmark-url="{post.url}" data-hatena-bookmark-'
        'layout="vertical-balloon" data-hatena-bookmark-lang="ja" title="この記事をはてなブックマークに追加"><img src='
        '"https://b.st-hatena.com/images/entry-button/button-only.gif" alt="この記事をはてなブックマークに追加" '
        'width="20'
        '" height="20" style="border: none;" /></a></div>\n<div class="social-button-item"><div class="fb-share-button"'
        f' data-layout="box_count" data-href="{post.url}"></div></div>\n<div class="social-button-item"><a '
        'class="entry-'
        f'share-button entry-share-button-twitter" href="https://twitter.com/intent/tweet?text={attr(post.title)}&amp;'
        f'url={post.url}" title="X（Twitter）で投稿する"></a></div>\n</div>'
    )
    box = (
        '<div class="comment-box js-comment-box">\n<ul class="comment js-comment">\n<li class="read-more-comments" styl'
        "e="
        '"display: none;"><a>もっと読む</a></li>\n'
        + "\n".join(comment(site, c) for c in post.comments)
        + '\n</ul>\n<a class="leave-comment-title js-leave-comment-title">コメントを書く</a>\n</div>'
    )
    pager = (
        '<div class="pager pager-permalink permalink">\n'
        + (
            f'<span class="pager-prev">\n<a href="{newer.url}" rel="prev"><span class="pager-arrow">&laquo; </span>'
            f"{esc(newer.title)}</a>\n</span>\n"
            if newer
            else ""
        )
        + (
            f'<span class="pager-next">\n<a href="{older.url}" rel="next">{esc(older.title)}<span class="pager-arrow"> '
            f"&raquo;</span></a>\n</span>\n"
            if older
            else ""
        )
        + "</div>"
    )
    article = (
        f'<article class="entry hentry test-hentry js-entry-article date-first autopagerize_page_element chars-'
        f'{len(content) // 3} words-100 mode-html entry-odd" id="entry-{post.id}" data-uuid="{post.id}" data-'
        f'publication-type="entry">\n<div class="entry-inner">\n<header class="entry-header">\n<div class="date entry-'
        f'date first">\n<a href="{b}archive/{d:%Y/%m/%d}" rel="nofollow">\n<time datetime="{utcz(post.date)}" title="'
        f'{utcz(post.date)}">\n<span class="date-year">{d:%Y}</span><span class="hyphen">-</span><span class="date-'
        f'month">{d:%m}</span><span class="hyphen">-</span><span class="date-day">{d:%d}</span>\n</time>\n</a>\n</div>'
        f'\n<h1 class="entry-title">\n<a href="{post.url}" class="entry-title-link bookmark">{esc(post.title)}</a>\n'
        f'</h1>\n<div class="entry-categories categories">\n{cats}\n</div>\n</header>\n<div class="entry-content '
        f'hatenablog-entry">\n{content}\n</div>\n<footer class="entry-footer">\n<p class="entry-footer-section track-'
        f'inview-by-gtm" data-gtm-track-json="{{&quot;area&quot;: &quot;finish_reading&quot;}}">\n<span class="author '
        f'vcard"><span class="fn" data-load-nickname="1" data-user-name="{u}" >{u}</span></span>\n<span class="entry-'
        f'footer-time"><a href="{post.url}"><time data-relative datetime="{utcz(post.date)}" title="{utcz(post.date)}" '
        f'class="updated">{d:%Y-%m-%d %H:%M}</time></a></span>\n</p>\n<div class="hatena-star-container" data-hatena-'
        f'star-container data-hatena-star-url="{post.url}" data-hatena-star-title="{attr(post.title)}" data-hatena-'
        f'star-variant="profile-icon"></div>\n{share}\n<div class="customized-footer">\n</div>\n{box}\n</footer>\n'
        f"</div>\n</article>"
    )
    host = b[8:-1]
    return (
        f'<!DOCTYPE html>\n<html lang="ja" data-admin-domain="//blog.hatena.ne.jp" data-author="{u}" data-avail-langs="'
        f'ja en" data-blog="{host}" data-blog-host="{host}" data-blog-is-public="1" data-blog-name="{name}" data-blog-'
        f'owner="{u}" data-blog-uri="{b}" data-brand="hatenablog" data-device="pc" data-page="entry" data-static-domain'
        f'="https://cdn.blog.st-hatena.com">\n<head prefix="og: http://ogp.me/ns# fb: http://ogp.me/ns/fb# article: '
        f'http://ogp.me/ns/article#">\n<meta charset="utf-8"/>\n<meta name="viewport" content="width=device-width, '
        f'initial-scale=1.0" />\n<title>{esc(post.title)} - {name}</title>\n<link rel="shortcut icon" href="{b}icon/'
        f'favicon">\n<link rel="canonical" href="{post.url}"/>\n<meta property="og:title" content="{attr(post.title)} -'
        f' {name}" />\n<meta property="og:type" content="article" />\n<meta property="og:url" content="{post.url}" />\n'
        f'<link rel="alternate" type="application/atom+xml" title="Atom" href="{b}feed"/>\n<link rel="alternate" type="'
        f'application/rss+xml" title="RSS2.0" href="{b}rss"/>\n<link rel="stylesheet" type="text/css" href="https://cdn'
        f'.blog.st-hatena.com/css/blog.css?version=2f8c6e1d"/>\n<script src="https://cdn.blog.st-hatena.com/js/external'
        f'/jquery.min.js?v=1.12.4"></script>\n</head>\n<body class="page-entry header-image-enable category-'
        f'{attr(post.cats[0])} globalheader-off">\n<div id="globalheader-container" data-brand="hatenablog" style="'
        f'display: none"><iframe id="globalheader" height="37" frameborder="0" allowTransparency="true"></iframe></div>'
        '\n<div id="container">\n<div id="container-inner">\n<header id="blog-title" data-brand="hatenablog">\n<div id'
        f'="blog-title-inner">\n<div id="blog-title-content">\n<h1 id="title"><a href="{b}">{name}</a></h1>\n<h2 id="'
        f'blog-description">{esc(site.cfg["tagline"])}</h2>\n</div>\n</div>\n</header>\n<div id="top-editarea">\n<ul '
        f'class="global-nav"><li><a href="{b}">ホーム</a></li><li><a href="{b}about">このブログについて</a></li><li><a '
        f'href="{b}archive">記事一覧</a></li></ul>\n</div>\n<div id="content" class="hfeed">\n<div id="content-inner">'
        "\n"
        f'<div id="wrapper">\n<div id="main">\n<div id="main-inner">\n{crumbs}\n{article}\n<div class="entry-footer-'
        f'modules" id="entry-footer-secondary-modules"></div>\n{pager}\n</div>\n</div>\n</div>\n<aside id="box2">\n<div'
        f' id="box2-inner">\n{sidebar(site)}\n</div>\n</aside>\n</div>\n</div>\n<footer id="footer" data-brand="'
        f'hatenablog">\n<div id="footer-inner">\n<address class="footer-address">\n<a href="{b}">\n<span class="footer-'
        f'address-name">{name}</span>\n</a>\n</address>\n<p class="services">\nPowered by <a href="https://hatenablog.'
        f'com/">Hatena Blog</a>\n|\n<a href="https://blog.hatena.ne.jp/-/abuse_report?target_url={post.url}" class="'
        'report-abuse-link" target="_blank">ブログを報告する</a>\n</p>\n</div>\n</footer>\n</div>\n</div>\n<script src'
        f'="https://cdn.blog.st-hatena.com/js/texts-ja.js?version=2f8c6e1d"></script>\n<script id="vendors-js" data-'
        f'env="production" src="https://cdn.blog.st-hatena.com/js/vendors.js?version=2f8c6e1d" crossorigin="anonymous">'
        f"</script>\n</body>\n</html>\n"
    )
