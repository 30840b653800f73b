"""Movable Type 4.x entry pages (``movabletype``), from the default "Classic Blog" templates.

Entry (``entry.mtml``): ``div#entry-N.entry-asset.asset.hentry`` with ``div.asset-header`` (``h1.asset-name``,
``div.asset-meta`` byline "By X on <abbr>", comment and trackback counts), ``div.asset-content`` >
``div.asset-body``, ``div.asset-footer`` (categories, tags); the ``p.content-nav`` above it; TrackBack info.
Comments (``comments.mtml`` / ``comment_detail.mtml``): ``div#comments.comments`` > ``h2.comments-header``
"N Comments" > ``div#comments-content.comments-content`` > ``div.comment#comment-N`` > ``div.inner`` >
``div.comment-header`` > ``div.asset-meta`` > ``span.byline`` ("<a>Name</a> replied to <a>comment from X</a> |
<a><abbr>March  3, 2012 04:20 PM</abbr></a> | Reply") and ``div.comment-content`` (paragraphs).  MT 4 lists
replies flat in date order; the parent shows only in the "replied to comment from X" line (the truth keeps the
parent).  The Reply link is in the byline, as ``MTCommentReplyToLink`` in MT 4's Comment Detail template (not a
separate ``div.comment-footer``; not verified against a 4.x template file, only against MT's l10n strings and
tag tests).  Sidebar: search, "About this Entry" (differs per page), recent entries, categories and monthly
archives with counts, tag cloud, feed, "Powered by Movable Type".
"""

from __future__ import annotations

import re
from datetime import datetime

from tests.themes.model import Comment, Post, Site
from tests.themes.words import MONTHS

from .base import attr, body, clock, esc, iso, months, neighbours, newest

VERSION = "Movable Type Pro 4.38"


def basename(title: str) -> str:
    """MT's entry basename: dirified title, underscores, at most 30 characters."""
    return re.sub(r"[^a-z0-9]+", "_", title.lower().replace("’", "").replace("'", "")).strip("_")[:30].strip("_")


def adapt_mt(site: Site) -> None:
    """MT entry ids and /2012/03/basename.html URLs; comment ids and parents as generated (flat display)."""
    for p in site.posts:
        d = site.local(p.date)
        p.url = f"{site.base}{d.year}/{d.month:02d}/{basename(p.title)}.html"
        p.id += 100


def mtdate(site: Site, dt: datetime) -> str:
    """``<$MTCommentDate$>`` / ``%x %X``: "March  3, 2012 04:20 PM" (%e is space-padded)."""
    d = site.local(dt)
    return f"{MONTHS[d.month - 1]} {d.day:2d}, {d.year} {clock(d, pad=True)}"


def cat_url(site: Site, cat: str) -> str:
    return f"{site.base}{basename(cat)}/"


def comment(site: Site, post: Post, c: Comment, last: bool) -> str:
    """One ``div.comment`` (Comment Detail)."""
    by = {x.id: x for x in post.comments}
    name = (
        f'<a title="{attr(c.url)}" href="{attr(c.url)}" rel="nofollow">{esc(c.author)}</a>' if c.url else esc(c.author)
    )
    ident = (
        f'<a class="commenter-profile" href="{site.base}cgi-bin/mt/mt-cp.cgi?__mode=view&amp;blog_id=1&amp;id=1"><img '
        f'alt="Author Profile Page" src="{site.base}mt-static/images/comment/mt_logo.png" width="16" height="16" /></a>'
        if c.mine
        else ""
    )
    who = f'<span class="vcard author">{name}</span>'
    if c.parent is not None:
        who += f' replied to <a href="{post.url}#comment-{c.parent}">comment from {esc(by[c.parent].author)}</a>'
    text = "\n".join(f"<p>{esc(x)}</p>" for x in c.paras)
    return (
        f'<div class="comment{" last" if last else ""}" id="comment-{c.id}">\n    <div class="inner">\n        <div '
        f'class="comment-header">\n            <div class="asset-meta">\n                <span class="byline">\n'
        f'                    {ident}\n                    {who}\n                    <span class="separator">|'
        f'</span> <a href="{post.url}#comment-{c.id}"><abbr class="published" title="{iso(site, c.date)}">'
        f'{mtdate(site, c.date)}</abbr></a>\n                    <span class="separator">|</span> <a title="Reply" '
        f'href="javascript:void(0);" onclick="mtReplyCommentOnClick({c.id}, \'{attr(c.author)}\')">Reply</a>\n'
        f'                </span>\n            </div>\n        </div>\n        <div class="comment-content">\n'
        f"            {text}\n        </div>\n    </div>\n</div>"
    )


def comments(site: Site, post: Post) -> str:
    """The Comments module: header and comments (only when there are some), then the form."""
    n = len(post.comments)
    listing = (
        f'<h2 class="comments-header">{"1 Comment" if n == 1 else f"{n} Comments"}</h2>\n<div id="comments-content" '
        'class="comments-content">\n'
        + "\n".join(comment(site, post, c, i == n - 1) for i, c in enumerate(post.comments))
        + "\n</div>\n"
        if n
        else ""
    )
    fields = "".join(
        f'<div id="comment-form-{k}">\n<label for="comment-{f}">{lab}</label>\n<input id="comment-{f}" name="{f}" '
        f'size="30" value="" onfocus="mtCommentFormOnFocus()" />\n</div>\n'
        for k, f, lab in [("name", "author", "Name"), ("email", "email", "Email Address"), ("url", "url", "URL")]
    )
    return (
        f'<div id="comments" class="comments">\n{listing}<div class="comments-open" id="comments-open">\n<h2 class='
        f'"comments-open-header">Leave a comment</h2>\n<div class="comments-open-content">\n<div id="comment-greeting">'
        f'</div>\n<form method="post" action="{site.base}cgi-bin/mt/mt-comments.cgi" name="comments_form" id="comments-'
        f'form" onsubmit="return mtCommentOnSubmit(this)">\n<input type="hidden" name="static" value="1" />\n<input '
        f'type="hidden" name="entry_id" value="{post.id}" />\n<input type="hidden" name="__lang" value="en" />\n<input '
        'type="hidden" name="parent_id" value="" id="comment-parent-id" />\n<input type="hidden" name="armor" value="1'
        f'" />\n<div id="comments-open-data">\n{fields}<div id="comment-form-remember-me">\n<input type="checkbox" id="'
        f'comment-bake-cookie" name="bakecookie" onclick="mtRememberMeOnClick(this)" value="1" accesskey="r" />\n<label'
        f' for="comment-bake-cookie">Remember personal info?</label>\n</div>\n</div>\n<div id="comment-form-reply" '
        f'style="display:none">\n<input type="checkbox" id="comment-reply" name="comment_reply" value="" onclick="'
        f'mtSetCommentParentID()" />\n<label for="comment-reply" id="comment-reply-label"></label>\n</div>\n<div id="'
        f'comments-open-text">\n<label for="comment-text">Comments</label>\n<textarea id="comment-text" name="text" '
        f'rows="15" cols="50" onfocus="mtCommentFormOnFocus()"></textarea>\n</div>\n<div id="comments-open-footer">\n'
        f'<input type="submit" accesskey="v" name="preview_button" id="comment-preview" value="Preview" onclick="this.'
        f'form.preview.value=\'1\';" />\n<input type="submit" accesskey="s" name="post" id="comment-submit" '
        f'value="Submit" />\n</div>\n</form>\n</div>\n</div>\n<script type="text/javascript">\n<!--\nmtAttachEvent('
        f'"load", mtEntryOnLoad);\nmtAttachEvent("unload", mtEntryOnUnload);\n//-->\n</script>\n</div>'
    )


def sidebar(site: Site, post: Post) -> str:
    """The beta column: search, About this Entry, recent entries, categories, monthly archives, tags, feed, powered."""
    prev, nxt = neighbours(site, post)

    def w(cls: str, title: str | None, inner: str) -> str:
        h = f'<h3 class="widget-header">{title}</h3>\n' if title else ""
        return f'<div class="{cls} widget">\n{h}<div class="widget-content">\n{inner}\n</div>\n</div>'

    about = (
        f'<p class="first">This page contains a single entry by <a href="{site.base}about.html">{esc(post.author)}</a>'
        f" published on <em>{mtdate(site, post.date)}</em>.</p>\n"
        + (f'<p><a href="{prev.url}">{esc(prev.title)}</a> was the previous entry in this blog.</p>\n' if prev else "")
        + (f'<p><a href="{nxt.url}">{esc(nxt.title)}</a> is the next entry in this blog.</p>\n' if nxt else "")
        + f'<p>Find recent content on the <a href="{site.base}">main index</a> or look in the <a href="{site.base}'
        'archives.html">archives</a> to find all content.</p>'
    )
    cats = {c: sum(c in p.cats for p in site.posts) for c in site.cfg["cats"]}
    tags = sorted({t for p in site.posts for t in p.tags})
    out = [
        w(
            "widget-search",
            "Search",
            f'<form method="get" action="{site.base}cgi-bin/mt/mt-search.cgi">\n<input type="text" id="search" class='
            '"ti" name="search" value="" />\n<input type="hidden" name="IncludeBlogs" value="1" />\n<input type="hidden'
            '" name="limit" value="20" />\n<input type="submit" accesskey="4" value="Search" />\n</form>',
        ),
        w("widget-about-this-page", "About this Entry", about),
        w(
            "widget-recent-entries",
            "Recent Entries",
            '<ul class="widget-list">\n'
            + "".join(
                f'<li class="widget-list-item"><a href="{p.url}">{esc(p.title)}</a></li>\n' for p in newest(site, 5)
            )
            + "</ul>",
        ),
        w(
            "widget-archive widget-archive-category",
            "Categories",
            "<ul>\n"
            + "".join(f'<li><a href="{cat_url(site, c)}">{esc(c)} ({n})</a></li>\n' for c, n in cats.items() if n)
            + "</ul>",
        ),
        w(
            "widget-archive-monthly widget-archive",
            f'Monthly <a href="{site.base}archives.html">Archives</a>',
            "<ul>\n"
            + "".join(
                f'<li><a href="{site.base}{y}/{m:02d}/">{MONTHS[m - 1]} {y} ({len(ps)})</a></li>\n'
                for y, m, ps in months(site)
            )
            + "</ul>",
        ),
        w(
            "widget-cloud",
            "Tag Cloud",
            '<ul class="widget-list">\n'
            + "".join(
                f'<li class="rank-{i % 6 + 1} widget-list-item"><a href="{site.base}cgi-bin/mt/mt-search.cgi?tag='
                f'{attr(t)}&amp;blog_id=1">{esc(t)}</a></li>\n'
                for i, t in enumerate(tags)
            )
            + "</ul>",
        ),
        w(
            "widget-syndication",
            None,
            f'<ul>\n<li><img src="{site.base}mt-static/images/status_icons/feed.gif" alt="Subscribe to feed" width="9" '
            f'height="9" /> <a href="{site.base}atom.xml">Subscribe to this blog\'s feed</a></li>\n</ul>',
        ),
        w(
            "widget-powered",
            None,
            f'<a href="http://www.movabletype.com/"><img src="{site.base}mt-static/images/bug-pbmt-white.png" alt="'
            f'Powered by {VERSION}" width="120" height="75" /></a>',
        ),
    ]
    return "\n".join(out)


def page_mt(site: Site, post: Post) -> str:
    """A whole MT 4 individual entry archive page."""
    b, n = site.base, len(post.comments)
    prev, nxt = neighbours(site, post)
    d = site.local(post.date)

    def img(x: tuple) -> str:
        f = f"img_{x[3]:04d}"
        tag = (
            f'<span style="display: inline;" class="mt-enclosure mt-enclosure-image"><a href="{b}{d.year}/{d.month:02d}'
            f'/{f}.jpg"><img alt="{f}.jpg" src="{b}assets_c/{d.year}/{d.month:02d}/{f}-thumb-400x266-{x[3]}.jpg" '
            f'width="400" height="266" class="mt-image-center" style="text-align: center; display: block; margin: 0 '
            f'auto 20px;" /></a></span>'
        )
        return f"<p>{tag}</p>" + (f"\n\n<p><em>{esc(x[2])}</em></p>" if x[2] else "")

    nav = (
        '<p class="content-nav">\n'
        + (f'<a href="{prev.url}">&laquo; {esc(prev.title)}</a> |\n' if prev else "")
        + f'<a href="{b}">Main Index</a>\n'
        + (f'| <a href="{nxt.url}">{esc(nxt.title)} &raquo;</a>\n' if nxt else "")
        + "</p>"
    )
    cats = "".join(
        f'<li class="entry-category"><a href="{cat_url(site, c)}" rel="tag">{esc(c)}</a></li>' for c in post.cats
    )
    tags = "".join(
        f'<li class="entry-tag"><a href="javascript:void(0)" onclick="location.href=\'{b}cgi-bin/mt/mt-search.cgi?'
        f'tag={attr(t)}&amp;blog_id=1\';return false;" rel="tag">{esc(t)}</a></li> '
        for t in post.tags
    )
    cnt = "No Comments" if not n else "1 Comment" if n == 1 else f"{n} Comments"
    links = "".join(
        f'<link rel="{r} bookmark" href="{p.url}" title="{attr(p.title)}" />\n'
        for r, p in [("prev", prev), ("next", nxt)]
        if p
    )
    entry = (
        f'<div id="entry-{post.id}" class="entry-asset asset hentry">\n<div class="asset-header">\n<h1 id="page-title" '
        f'class="asset-name entry-title">{esc(post.title)}</h1>\n<div class="asset-meta">\n<span class="byline">\nBy <s'
        "pan"
        f' class="vcard author"><a class="fn url" href="{b}about.html">{esc(post.author)}</a></span> on <abbr class="'
        f'published" title="{iso(site, post.date)}">{mtdate(site, post.date)}</abbr>\n</span>\n<span class="separator">'
        f'|</span> <a class="permalink" href="{post.url}">Permalink</a>\n<span class="separator">|</span> <a href="'
        f'{post.url}#comments">{cnt}</a>\n<span class="separator">|</span> <a href="{post.url}#trackback">No TrackBacks'
        f'</a>\n</div>\n</div>\n<div class="asset-content entry-content">\n<div class="asset-body">\n'
        f'{body(post, img, sep=chr(10) * 2)}\n</div>\n</div>\n<div class="asset-footer">\n<div class="entry-'
        f'categories">\n<h4>Categories<span class="delimiter">:</span></h4>\n<ul>\n{cats}\n</ul>\n</div>\n'
        + (
            f'<div class="entry-tags">\n<h4>Tags<span class="delimiter">:</span></h4>\n<ul>\n{tags}\n</ul>\n</div>\n'
            if post.tags
            else ""
        )
        + "</div>\n</div>"
    )
    trackbacks = (
        f'<div id="trackbacks" class="trackbacks">\n<h2 class="trackbacks-header">TrackBack</h2>\n<div class="'
        f'trackbacks-info">\n<p>TrackBack URL for this entry: <span id="trackbacks-link">{b}cgi-bin/mt/mt-tb.cgi/'
        f"{post.id}</span></p>\n</div>\n</div>"
    )
    menu = "".join(
        f'<li class="nav-list-item"><a href="{u}">{t}</a></li>'
        for t, u in [("Home", b), ("About", b + "about.html"), ("Archives", b + "archives.html")]
    )
    return (
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"\n    "http://www.w3.org/TR/xhtml1/DTD/xhtml1-'
        'transitional.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml" id="sixapart-standard">\n<head>\n<meta http-'
        f'equiv="Content-Type" content="text/html; charset=UTF-8" />\n<meta name="generator" content="{VERSION}" />\n'
        f'<link rel="stylesheet" href="{b}styles.css" type="text/css" />\n<link rel="start" href="{b}" title="Home" />'
        "\n"
        f'<link rel="alternate" type="application/atom+xml" title="Recent Entries" href="{b}atom.xml" />\n<script type='
        f'"text/javascript" src="{b}mt.js"></script>\n<title>{esc(post.title)} - {esc(site.name)}</title>\n{links}'
        f'<!--\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"\n         xmlns:trackback="http://'
        f'madskills.com/public/xml/rss/module/trackback/"\n         xmlns:dc="http://purl.org/dc/elements/1.1/">\n<rdf:'
        f'Description\n    rdf:about="{post.url}"\n    trackback:ping="{b}cgi-bin/mt/mt-tb.cgi/{post.id}"\n    dc:title'
        f'="{attr(post.title)}"\n    dc:identifier="{post.url}" />\n</rdf:RDF>\n-->\n</head>\n<body class="mt-entry-'
        f'archive layout-wt" onload="individualArchivesOnLoad(commenter_name)">\n<div id="container">\n<div id="'
        'container-inner">\n<div id="header">\n<div id="header-inner">\n<div id="header-content">\n<div id="header-nam'
        'e">'
        f'<a href="{b}" accesskey="1">{esc(site.name)}</a></div>\n<div id="header-description">'
        f'{esc(site.cfg["tagline"])}</div>\n<ul class="nav-list">{menu}</ul>\n</div>\n</div>\n</div>\n<div id="content"'
        f'>\n<div id="content-inner">\n<div id="alpha">\n<div id="alpha-inner">\n{nav}\n{entry}\n{trackbacks}\n'
        f'{comments(site, post)}\n</div>\n</div>\n<div id="beta">\n<div id="beta-inner">\n{sidebar(site, post)}\n</div>'
        f'\n</div>\n</div>\n</div>\n<div id="footer">\n<div id="footer-inner">\n<div id="footer-content">\n<div class="'
        f'widget-powered">\n<div class="widget-content">\nPowered by <a href="http://www.movabletype.com/" rel="'
        f'generator">Movable Type Pro</a>\n</div>\n</div>\n<div class="widget-creative-commons">\n<div class="widget-'
        'content">\nThis blog is licensed under a <a href="http://creativecommons.org/licenses/by-nc-sa/3.0/">Creative'
        f" Commons License</a>.\n</div>\n</div>\n</div>\n</div>\n</div>\n</div>\n</div>\n</body>\n</html>\n"
    )
