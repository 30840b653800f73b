"""Drupal 9 article pages (``drupal``): Bartik page chrome, Classy comment templates, threaded comments.

Comments (Classy ``field--comment.html.twig`` and ``comment.html.twig``): ``section.comment-wrapper`` >
``h2.title`` "Comments", then per comment ``<a id="comment-N">`` and ``article.comment.js-comment`` with
``mark.hidden``, ``footer.comment__meta`` (user picture, ``p.comment__submitted`` "Submitted by <span>Name (not
verified)</span> on Sat, 03/03/2012 - 16:20", the hidden "In reply to …" line, the "Permalink" link) and
``div.content`` (``h3`` subject link, ``div.field--name-comment-body`` paragraphs, ``ul.links.inline``
Delete / Edit / Reply); replies follow their parent inside ``div.indented`` (any depth), then "Add new comment"
and the form.

Comment subjects: Drupal prints each comment's subject as an ``h3`` heading of the comment; a commenter either
types one or Drupal makes it from the first 29 characters of the text (cut at a word, with "…").  The truth
counts the subject as part of the comment: it is the first line of the comment's text, the body's paragraphs
follow.  Authors in truth are the names without Drupal's " (not verified)" suffix for anonymous commenters.
The sidebar's "Recent comments" block lists the newest subjects on every page, "Recent content" the newest posts.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from datetime import datetime

from tests.themes.model import Comment, Post, Site
from tests.themes.words import DAYS, W

from .base import attr, body, crawl_time, esc, newest, slug

SUBJECTS = W(
    "Great write-up|Thanks for this|Same here|Quick question|Brilliant|Good tip|Agreed|Nice one|Very useful|"
    "Been there too|Lovely photos|Spot on"
)


def auto_subject(text: str, length: int = 29) -> str:
    """Drupal's default subject: the text truncated word-safe to ``length`` characters with an ellipsis."""
    if len(text) <= length:
        return text
    cut = text[: length - 1]
    m = re.match(r"^(.*)[\s.,;:!?)]", text[:length])
    if m and m.group(1).strip():
        cut = m.group(1)
    return cut.rstrip(" .,;:!?") + "…"


def adapt_drupal(site: Site) -> None:
    """Path aliases /blog/<slug>, node ids; each comment gets its subject as the first line of its text."""
    for p in site.posts:
        p.url = f"{site.base}blog/{slug(p.title, 60)}"
        cs = []
        for c in p.comments:
            r = random.Random(f"drupal:{c.id}:{c.paras[0]}")
            subject = auto_subject(c.paras[0]) if c.mine or r.random() < 0.5 else r.choice(SUBJECTS)
            cs.append(replace(c, paras=[subject, *c.paras]))
        p.comments = cs


def medium(site: Site, dt: datetime) -> str:
    """Drupal's "medium" date format: Sat, 03/03/2012 - 16:20."""
    d = site.local(dt)
    return f"{DAYS[d.weekday()][:3]}, {d:%m/%d/%Y - %H:%M}"


def ago(now: datetime, then: datetime) -> str:
    """format_interval() with granularity 2: "1 year 3 months ago"."""
    s = int((now - then).total_seconds())
    units = [("year", 31536000), ("month", 2592000), ("week", 604800), ("day", 86400), ("hour", 3600), ("min", 60)]
    out: list[str] = []
    left = 2  # granularity: a unit after the first counts even when it is zero
    for name, n in units:
        if s >= n:
            k, s = divmod(s, n)
            out.append(f"{k} {name}{'s' if k != 1 and name != 'min' else ''}")
            left -= 1
        elif out:
            left -= 1
        if not left:
            break
    return " ".join(out or ["0 sec"]) + " ago"


def username(site: Site, c: Comment) -> str:
    """The author: the site user's name, or the anonymous name "(not verified)", linked to its homepage."""
    if c.mine:
        return (
            f'<a title="View user profile." href="/user/1" lang="" about="/user/1" typeof="schema:Person" property="'
            f'schema:name" datatype="">{esc(c.author)}</a>'
        )
    name = f"{esc(c.author)} (not verified)"
    if c.url:
        return (
            f'<a rel="nofollow" href="{attr(c.url)}" lang="" typeof="schema:Person" property="schema:name" datatype="">'
            f"{name}</a>"
        )
    return f'<span lang="" typeof="schema:Person" property="schema:name" datatype="">{name}</span>'


def article(site: Site, post: Post, c: Comment, by: dict[int, Comment]) -> str:
    """One comment: anchor and ``article.comment``."""
    subject = (
        f'<a href="/comment/{c.id}#comment-{c.id}" class="permalink" rel="bookmark" hreflang="en">{esc(c.paras[0])}</a>'
    )
    parent = ""
    if c.parent is not None:
        pc = by[c.parent]
        parent = (
            f'\n<p class="parent visually-hidden">In reply to <a href="/comment/{pc.id}#comment-{pc.id}" class="'
            f'permalink" rel="bookmark" hreflang="en">{esc(pc.paras[0])}</a> by {username(site, pc)}</p>'
        )
    pic = (
        '<article typeof="schema:Person" about="/user/1" class="profile">\n<div class="field field--name-user-picture '
        'field--type-image field--label-hidden field__item"><a href="/user/1" hreflang="en"><img loading="lazy" src="/'
        'sites/default/files/styles/thumbnail/public/pictures/2019-03/me.jpg?itok=Xq2mT0aZ" width="100" height="100" '
        'alt="Profile picture for user ' + esc(c.author) + '" typeof="foaf:Image" class="image-style-thumbnail" /></a>'
        "</div>\n</article>\n"
        if c.mine
        else ""
    )
    cls = "comment js-comment" + (" by-node-author" if c.mine else " by-anonymous")
    text = "".join(f"<p>{esc(x)}</p>" for x in c.paras[1:])
    return (
        f'<a id="comment-{c.id}"></a>\n<article data-comment-user-id="{1 if c.mine else 0}" role="article" class="{cls}'
        '">'
        f'\n<mark class="hidden" data-comment-timestamp="{int(c.date.timestamp())}"></mark>\n<footer class="comment__'
        f'meta">\n{pic}<p class="comment__submitted">Submitted by {username(site, c)} on {medium(site, c.date)}</p>'
        f'{parent}\n<a href="/comment/{c.id}#comment-{c.id}" hreflang="en">Permalink</a>\n</footer>\n<div class="'
        f'content">\n<h3>{subject}</h3>\n<div class="clearfix text-formatted field field--name-comment-body field--type'
        f'-text-long field--label-hidden field__item">{text}</div>\n<ul class="links inline"><li '
        'class="comment-delete">'
        f'<a href="/comment/{c.id}/delete" hreflang="en">Delete</a></li><li class="comment-edit"><a href="/comment/'
        f'{c.id}/edit" hreflang="en">Edit</a></li><li class="comment-reply"><a href="/comment/reply/node/{post.id}/'
        f'comment/{c.id}" hreflang="en">Reply</a></li></ul>\n</div>\n</article>'
    )


def comments(site: Site, post: Post) -> str:
    """The comment field: heading, the threaded comments, "Add new comment" and the form."""
    by = {c.id: c for c in post.comments}
    kids: dict[int | None, list[Comment]] = {}
    for c in post.comments:
        kids.setdefault(c.parent, []).append(c)

    def thread(c: Comment) -> str:
        out = article(site, post, c, by)
        if c.id in kids:
            out += '\n<div class="indented">' + "\n".join(thread(k) for k in kids[c.id]) + "</div>"
        return out

    listing = (
        '<h2 class="title">Comments</h2>\n' + "\n".join(thread(c) for c in kids.get(None, [])) + "\n"
        if post.comments
        else ""
    )
    fields = "".join(
        f'<div class="js-form-item form-item js-form-type-{t} form-type-{t} js-form-item-{k} form-item-{k}">\n<label '
        f'for="edit-{k}">{lab}</label>\n<input data-drupal-selector="edit-{k}" type="{t}" id="edit-{k}" name="{k}" '
        f'value="" size="30" maxlength="64" class="form-{t}" />\n{note}</div>\n'
        for k, t, lab, note in [
            ("name", "text", "Your name", ""),
            (
                "mail",
                "email",
                "Email",
                '<div id="edit-mail--description" class="description">\nThe content of this field is kept private and '
                "will not be shown publicly.\n</div>\n",
            ),
            ("homepage", "url", "Homepage", ""),
            ("subject-0-value", "text", "Subject", ""),
        ]
    )
    return (
        f'<section class="field field--name-comment field--type-comment field--label-above comment-wrapper">\n{listing}'
        f'<h2 class="title comment-form__title">Add new comment</h2>\n<form class="comment-comment-form comment-form" '
        f'data-drupal-selector="comment-form" action="/comment/reply/node/{post.id}/comment" method="post" id="comment-'
        f'form" accept-charset="UTF-8">\n{fields}<div class="js-form-item form-item js-form-type-textarea form-item-'
        f'comment-body-0-value">\n<label for="edit-comment-body-0-value" class="js-form-required form-required">Comment'
        '</label>\n<div class="form-textarea-wrapper">\n<textarea data-drupal-selector="edit-comment-body-0-value" id='
        f'"edit-comment-body-0-value" name="comment_body[0][value]" rows="5" cols="60" class="form-textarea required" '
        f'required="required" aria-required="true"></textarea>\n</div>\n</div>\n<div class="filter-guidelines">\n<ul '
        f'class="tips">\n<li>Allowed HTML tags: &lt;a href hreflang&gt; &lt;em&gt; &lt;strong&gt; &lt;cite&gt; &lt;'
        f"blockquote cite&gt; &lt;code&gt; &lt;ul type&gt; &lt;ol start type&gt; &lt;li&gt;</li>\n<li>Lines and "
        f"paragraphs break automatically.</li>\n<li>Web page addresses and email addresses turn into links "
        f'automatically.</li>\n</ul>\n</div>\n<div data-drupal-selector="edit-actions" class="form-actions js-form-'
        f'wrapper form-wrapper" id="edit-actions"><input data-drupal-selector="edit-submit" type="submit" id="edit-'
        f'submit" name="op" value="Save" class="button button--primary js-form-submit form-submit" />\n<input data-'
        f'drupal-selector="edit-preview" type="submit" id="edit-preview" name="op" value="Preview" class="button js-'
        f'form-submit form-submit" />\n</div>\n</form>\n</section>'
    )


def sidebar(site: Site) -> str:
    """Search, Recent comments (newest subjects, "… ago") and Recent content blocks."""
    now = crawl_time(site)
    recent_c = sorted(((c, p) for p in site.posts for c in p.comments), key=lambda x: x[0].date, reverse=True)[:10]
    rc = "".join(
        f'<li><div class="views-field views-field-subject"><span class="field-content"><a href="/comment/{c.id}#comment'
        f'-{c.id}" hreflang="en">{esc(c.paras[0])}</a></span></div><div class="views-field views-field-changed"><span '
        f'class="field-content">{ago(now, c.date)}</span></div></li>\n'
        for c, _ in recent_c
    )
    rp = "".join(
        f'<tr><td class="views-field views-field-title"><a href="{p.url[len(site.base) - 1 :]}" hreflang="en">'
        f'{esc(p.title)}</a></td><td class="views-field views-field-changed">{ago(now, p.date)}</td></tr>\n'
        for p in newest(site, 5)
    )
    return (
        '<div class="search-block-form block block-search container-inline" data-drupal-selector="search-block-form" '
        'id="block-bartik-search" role="search">\n<h2 class="visually-hidden">Search</h2>\n<div class="content '
        'container-inline">\n<form action="/search/node" method="get" id="search-block-form" accept-charset="UTF-8">\n'
        '<input title="Enter the terms you wish to search for." data-drupal-selector="edit-keys" type="search" id="edit'
        '-keys" name="keys" value="" size="15" maxlength="128" class="form-search" />\n<input '
        'data-drupal-selector="edit'
        '-submit" type="submit" value="Search" class="button js-form-submit form-submit" />\n</form>\n</div>\n</div>\n'
        '<div class="views-element-container block block-views block-views-blockcomments-recent-block-1" id="block-'
        'bartik-views-block-comments-recent-block-1">\n<h2>Recent comments</h2>\n<div class="content">\n<div class="js-'
        f'view-dom-id-1f0c">\n<div class="item-list">\n<ul>\n{rc}</ul>\n</div>\n</div>\n</div>\n</div>\n<div class="vie'
        "ws-"
        'element-container block block-views block-views-blockcontent-recent-block-1" id="block-bartik-views-block-'
        'content-recent-block-1">\n<h2>Recent content</h2>\n<div class="content">\n<div class="js-view-dom-id-9a2e">\n'
        f'<table class="views-table views-view-table cols-0">\n<tbody>\n{rp}</tbody>\n</table>\n</div>\n</div>\n</div>'
    )


def page_drupal(site: Site, post: Post) -> str:
    """A whole Drupal 9 node page (Bartik)."""
    name, b = esc(site.name), site.base
    path = post.url[len(b) - 1 :]

    def img(x: tuple) -> str:
        tag = (
            f'<img alt="{attr(x[1])}" data-entity-type="file" data-entity-uuid="{x[3]:08x}-5c1e-4a39-9f0e-2b7c0d'
            f"{x[3]:06d}"
            f'" src="/sites/default/files/inline-images/img_{x[3]:04d}.jpg" width="1024" height="683" loading="lazy" />'
        )
        if not x[2]:
            return f"<p>{tag}</p>"
        return (
            f'<figure role="group" class="caption caption-img align-center">\n{tag}\n<figcaption>{esc(x[2])}'
            "</figcaption>\n</figure>"
        )

    terms = post.cats + post.tags
    tags = (
        '<div class="field field--name-field-tags field--type-entity-reference field--label-above clearfix">\n<h3 class'
        '="'
        'field__label">Tags</h3>\n<ul class="links field__items">'
        + "".join(
            f'<li><a href="/taxonomy/term/{site.cfg["cats"].index(t) + 1 if t in site.cfg["cats"] else 20}" hreflang="'
            f'en">{esc(t)}</a></li>'
            for t in terms
        )
        + "</ul>\n</div>\n"
    )
    user = (
        '<span lang="" about="/user/1" typeof="schema:Person" property="schema:name" datatype="">'
        f"{esc(post.author)}</span>"
    )
    node = (
        f'<article data-history-node-id="{post.id}" role="article" about="{path}" class="node node--type-article node--'
        f'promoted node--view-mode-full">\n<header>\n<div class="node__meta">\n<span>\nSubmitted by <span class="field '
        f'field--name-uid field--type-entity-reference field--label-hidden">{user}</span> on <span class="field field--'
        f'name-created field--type-created field--label-hidden">{medium(site, post.date)}</span>\n</span>\n</div>\n'
        f'</header>\n<div class="node__content clearfix">\n<div class="clearfix text-formatted field field--name-body '
        f'field--type-text-with-summary field--label-hidden field__item">{body(post, img)}</div>\n{tags}'
        f"{comments(site, post)}\n</div>\n</article>"
    )
    menu = "".join(
        f'<li class="menu-item"><a href="{u}" data-drupal-link-system-path="{s}">{t}</a></li>'
        for t, u, s in [("Home", "/", "&lt;front&gt;"), ("Walks", "/blog", "blog"), ("About", "/about", "node/1")]
    )
    return (
        '<!DOCTYPE html>\n<html lang="en" dir="ltr" prefix="content: http://purl.org/rss/1.0/modules/content/  dc: '
        "http://purl.org/dc/terms/  foaf: http://xmlns.com/foaf/0.1/  og: http://ogp.me/ns#  schema: http://schema.org/"
        '  sioc: http://rdfs.org/sioc/ns#">\n<head>\n<meta charset="utf-8" />\n<meta name="Generator" content="Drupal 9'
        ' (https://www.drupal.org)" />\n<meta name="MobileOptimized" content="width" />\n<meta name="HandheldFriendly" '
        'content="true" />\n<meta name="viewport" content="width=device-width, initial-scale=1.0" />\n<link rel="icon" '
        f'href="/core/misc/favicon.ico" type="image/vnd.microsoft.icon" />\n<link rel="canonical" href="{post.url}" />'
        "\n"
        f'<link rel="shortlink" href="{b}node/{post.id}" />\n<title>{esc(post.title)} | {name}</title>\n<link rel="'
        'stylesheet" media="all" href="/sites/default/files/css/css_3qfF2Xj0sfvCKx0Ff8JmNuHQ9dYtkaQpEGq4S3mqRV0.css" />'
        "\n"
        '<script src="/core/assets/vendor/modernizr/modernizr.min.js?v=3.11.7"></script>\n</head>\n<body class="layout-'
        'one-sidebar layout-sidebar-second path-node page-node-type-article">\n<a href="#main-content" class="visually-'
        'hidden focusable skip-link">\nSkip to main content\n</a>\n<div class="dialog-off-canvas-main-canvas" data-off-'
        'canvas-main-canvas>\n<div id="page-wrapper">\n<div id="page">\n<header id="header" class="header" role="banner'
        '">'
        '\n<div class="section layout-container clearfix">\n<div class="clearfix region region-header">\n<div id="block'
        '-bartik-branding" class="clearfix site-branding block block-system block-system-branding-block">\n<a href="/" '
        'rel="home" class="site-branding__logo"><img src="/core/themes/bartik/logo.svg" alt="Home" /></a>\n<div class="'
        f'site-branding__text">\n<div class="site-branding__name"><a href="/" rel="home">{name}</a></div>\n<div class="'
        f'site-branding__slogan">{esc(site.cfg["tagline"])}</div>\n</div>\n</div>\n</div>\n<div class="region region-'
        'primary-menu">\n<nav role="navigation" aria-labelledby="block-bartik-main-menu-menu" id="block-bartik-main-men'
        'u"'
        ' class="block block-menu navigation menu--main">\n<h2 class="visually-hidden" id="block-bartik-main-menu-menu"'
        f'>Main navigation</h2>\n<div class="content">\n<ul class="clearfix menu">{menu}</ul>\n</div>\n</nav>\n</div>\n'
        '</div>\n</header>\n<div id="main-wrapper" class="layout-main-wrapper layout-container clearfix">\n<div id="mai'
        'n" '
        'class="layout-main clearfix">\n<div class="region region-breadcrumb">\n<div id="block-bartik-breadcrumbs" clas'
        "s="
        '"block block-system block-system-breadcrumb-block">\n<div class="content">\n<nav class="breadcrumb" role="'
        'navigation" aria-labelledby="system-breadcrumb">\n<h2 id="system-breadcrumb" class="visually-hidden">Breadcrum'
        'b</h2>\n<ol>\n<li><a href="/">Home</a></li>\n<li><a href="/blog">Blog</a></li>\n</ol>\n</nav>\n</div>'
        "\n</div>\n"
        '</div>\n<main id="content" class="column main-content" role="main">\n<section class="section">\n<a id="main-'
        'content" tabindex="-1"></a>\n<div class="region region-content">\n<div id="block-bartik-page-title" class="blo'
        "ck"
        ' block-core block-page-title-block">\n<div class="content">\n<h1 class="title page-title"><span class="field '
        f'field--name-title field--type-string field--label-hidden">{esc(post.title)}</span></h1>\n</div>\n</div>\n<div'
        ' id="block-bartik-content" class="block block-system block-system-main-block">\n<div class="content">\n'
        f'{node}\n</div>\n</div>\n</div>\n</section>\n</main>\n<div id="sidebar-second" class="column sidebar">\n<aside'
        f' class="section" role="complementary">\n{sidebar(site)}\n</aside>\n</div>\n</div>\n</div>\n<footer '
        'class="site'
        '-footer">\n<div class="layout-container">\n<div class="site-footer__bottom">\n<div class="region '
        "region-footer-"
        'fifth">\n<div id="block-bartik-powered" class="block block-system block-system-powered-by-block">\n<div class='
        '"content">\n<span>Powered by <a href="https://www.drupal.org">Drupal</a></span>\n</div>\n</div>\n</div>\n</div>\n'
        '</div>\n</footer>\n</div>\n</div>\n</div>\n<script type="application/json" data-drupal-selector="drupal-settin'
        "gs-"
        f'json">{{"path":{{"baseUrl":"\\/","currentPath":"node\\/{post.id}","currentPathIsAdmin":false,"isFront":false,'
        '"currentLanguage":"en"},"pluralDelimiter":"\\u0003","ajaxTrustedUrl":{"\\/search\\/node":true},"user":{"uid":0'
        '}}</script>\n<script src="/sites/default/files/js/js_BKcMdIbOMdbTdLn9dkUq3KCJfIKKo2SvKoQ1AnB8D-g.js"></script>'
        "\n"
        "</body>\n</html>\n"
    )
