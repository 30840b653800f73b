"""Typepad post pages (``typepad``): the standard two-column layout of typepad.com blogs.

Entry: ``h2.date-header``, ``div.entry#entry-<asset id>`` > ``h3.entry-header``, ``div.entry-content`` >
``div.entry-body``, ``div.entry-footer`` > ``p.entry-footer-info`` ("Posted by X on March 03, 2012 at 04:20 PM in
Category | Permalink") and tags; ``p.content-nav`` above.  Comments: ``div.comments#comments`` >
``h3.comments-header``, ``div.comments-info`` (comment feed), ``div.comments-content`` > ``div.comment#comment-<asset
id>`` > ``div.comment-content`` (paragraphs) then ``p.comment-footer`` "Posted by: <a>Name</a> | <a>March 03, 2012 at
04:20 PM</a>": author and date come after the text, in one line.  Flat (no threading).  Truth comment ids are the
Typepad asset ids of the page ("6a00d83451c45669e2…").  Then the "Post a comment" form and the sidebar modules
(About, Recent Posts, Archives, Categories, feed, "Blog powered by Typepad").  Markup written from memory of
saved Typepad pages: no Typepad template source was found to check it against.
"""

from __future__ import annotations

from datetime import datetime

from tests.themes.model import Post, Site
from tests.themes.words import MONTHS

from .base import attr, body, clock, esc, hex_id, limit_depth, months, neighbours, newest, slug


def typepad_id(cid: int) -> str:
    """The asset id a Typepad page gives comment ``cid``."""
    return hex_id("typepad-comment", cid)


def adapt_typepad(site: Site) -> None:
    """Typepad URLs (/blog/2012/03/slug.html); comments flat."""
    for p in site.posts:
        d = site.local(p.date)
        p.url = f"{site.base}blog/{d.year}/{d.month:02d}/{slug(p.title, 30)}.html"
        p.comments = limit_depth(p.comments, 1)


def tpdate(site: Site, dt: datetime, time: bool = True) -> str:
    """ "March 03, 2012 at 04:20 PM" (``time`` False: the date only)."""
    d = site.local(dt)
    s = f"{MONTHS[d.month - 1]} {d.day:02d}, {d.year}"
    return f"{s} at {clock(d, pad=True)}" if time else s


def comments(site: Site, post: Post) -> str:
    """The comments block (only when there are comments) and the comment form."""
    b = site.base
    items = []
    for c in post.comments:
        tid = typepad_id(c.id)
        who = (
            f'<a href="https://profile.typepad.com/{site.cfg["authors"][0][1]}" rel="nofollow">{esc(c.author)}</a>'
            if c.mine
            else f'<a rel="nofollow" href="{attr(c.url)}">{esc(c.author)}</a>'
            if c.url
            else esc(c.author)
        )
        text = "\n".join(f"<p>{esc(x)}</p>" for x in c.paras)
        items.append(
            f'<a id="c{tid}"></a>\n<div class="comment font-entrybody" id="comment-{tid}">\n<div class="comment-content'
            f' font-entrybody" id="comment-{tid}-content">\n<span id="comment-{tid}-content">{text}</span>\n</div>\n<p '
            f'class="comment-footer font-entryfooter">\nPosted by: {who} |\n<a href="{post.url}?cid={tid}#comment-'
            f'{tid}">{tpdate(site, c.date)}</a>\n</p>\n</div>'
        )
    listing = (
        '<div class="comments" id="comments">\n<h3 class="comments-header">Comments</h3>\n<div class="comments-info">'
        "\n"
        f'<p><a href="{b}blog/{post.id}/comments/atom.xml"><img alt="Feed" class="feed-icon" src="https://static.'
        'typepad.com/.shared/images/feed-icon-14x14.png" /></a> You can follow this conversation by subscribing to the'
        f' <a href="{b}blog/{post.id}/comments/atom.xml">comment feed</a> for this post.</p>\n</div>\n<div class="'
        f'comments-content" id="comments-content">\n' + "\n".join(items) + "\n</div>\n</div>\n"
        if items
        else ""
    )
    return (
        f'{listing}<div class="comments-open" id="comments-open">\n<h2 class="comments-open-header">Post a comment</h2>'
        "\n"
        f'<div class="comments-open-content">\n<p class="comments-open-moderated">Comments are moderated, and will not '
        f'appear until the author has approved them.</p>\n<form id="comment-form" method="post" action="https://www.'
        f'typepad.com/services/comment">\n<input type="hidden" name="entry_xid" value="{hex_id("entry", post.id)}" />\n'
        f'<p class="comments-open-labels">Your Information</p>\n<p>(Name and email address are required. Email address '
        f'will not be displayed with the comment.)</p>\n<label for="comment-author">Name</label> <input id="comment-'
        'author" name="author" size="30" />\n<label for="comment-email">Email Address</label> <input id="comment-email'
        '" name="email" size="30" />\n<label for="comment-url">URL</label> <input id="comment-url" name="url" '
        'size="30"'
        f' />\n<textarea id="comment-text" name="text" rows="10" cols="30"></textarea>\n<input type="submit" name="'
        f'preview" id="comment-preview" value="Preview" />\n<input type="submit" name="post" id="comment-post" value="'
        f'Post" />\n</form>\n</div>\n</div>'
    )


def sidebar(site: Site) -> str:
    """The beta column's modules."""
    b = site.base

    def mod(cls: str, title: str | None, inner: str) -> str:
        h = f'<h2 class="module-header">{title}</h2>\n' if title else ""
        return f'<div class="module-{cls} module">\n{h}<div class="module-content">\n{inner}\n</div>\n</div>'

    def lst(items: list[tuple[str, str]]) -> str:
        return (
            '<ul class="module-list">\n'
            + "".join(f'<li class="module-list-item"><a href="{u}">{t}</a></li>\n' for t, u in items)
            + "</ul>"
        )

    ms = months(site)
    return "\n".join(
        [
            mod("about", "About", f"<p>{esc(site.cfg['tagline'])}. Written by {esc(site.cfg['authors'][0][0])}.</p>"),
            mod("recent-posts", "Recent Posts", lst([(esc(p.title), p.url) for p in newest(site, 5)])),
            mod(
                "archives",
                f'<a href="{b}blog/archives.html">Archives</a>',
                lst(
                    [(f"{MONTHS[m - 1]} {y}", f"{b}blog/{y}/{m:02d}/index.html") for y, m, _ in ms[:6]]
                    + [("More...", f"{b}blog/archives.html")]
                ),
            ),
            mod(
                "categories",
                "Categories",
                lst([(esc(c), f"{b}blog/{slug(c)}/index.html") for c in sorted(site.cfg["cats"])]),
            ),
            mod(
                "syndicate",
                None,
                f'<a href="{b}blog/atom.xml"><img src="https://static.typepad.com/.shared/images/feed-icon-14x14.png" '
                f'alt="Subscribe to this blog\'s feed" /></a> <a href="{b}blog/atom.xml">Subscribe to this blog\'s feed'
                f"</a>",
            ),
            mod("powered", None, 'Blog powered by <a href="https://www.typepad.com/">Typepad</a>'),
        ]
    )


def page_typepad(site: Site, post: Post) -> str:
    """A whole Typepad post page."""
    b, name = site.base, esc(site.name)
    prev, nxt = neighbours(site, post)
    eid = hex_id("entry", post.id)

    def img(x: tuple) -> str:
        src = f"{b}.a/{hex_id('img', x[3])}-500wi"
        tag = (
            f'<a class="asset-img-link" href="{src.replace("-500wi", "-pi")}" style="display: block; margin-left: auto;'
            f' margin-right: auto;"><img alt="{attr(x[1])}" class="asset  asset-image at-xid-{hex_id("img", x[3])} '
            f'img-responsive" src="{src}" style="display: block; margin-left: auto; margin-right: auto;" title="'
            f'{attr(x[1])}" /></a>'
        )
        return f"<p>{tag}</p>" + (f'\n<p style="text-align: center;"><em>{esc(x[2])}</em></p>' if x[2] else "")

    nav = (
        '<p class="content-nav">\n'
        + (f'<a href="{prev.url}">&laquo; {esc(prev.title)}</a> |\n' if prev else "")
        + f'<a href="{b}blog/">Main</a>\n'
        + (f'| <a href="{nxt.url}">{esc(nxt.title)} &raquo;</a>\n' if nxt else "")
        + "</p>"
    )
    cats = ", ".join(f'<a href="{b}blog/{slug(c)}/index.html">{esc(c)}</a>' for c in post.cats)
    tags = (
        '<div class="technorati-tags">\n<p>Tags: '
        + ", ".join(f'<a rel="tag" href="{b}blog/tags/{slug(t)}/">{esc(t)}</a>' for t in post.tags)
        + "</p>\n</div>\n"
        if post.tags
        else ""
    )
    entry = (
        f'<h2 class="date-header">{tpdate(site, post.date, False)}</h2>\n<div class="entry-category-'
        f"{slug(post.cats[0])} "
        f'entry-author-{site.cfg["authors"][0][1]} entry-type-post entry" id="entry-{eid}">\n<h3 class="entry-header">'
        f'{esc(post.title)}</h3>\n<div class="entry-content">\n<div class="entry-body">\n{body(post, img)}\n</div>\n'
        f'</div>\n<div class="entry-footer">\n<p class="entry-footer-info">\n<span class="post-footers">Posted by '
        f'{esc(post.author)} on {tpdate(site, post.date)} in {cats} </span> <span class="separator">|</span> <a '
        f'class="permalink" href="{post.url}">Permalink</a>\n</p>\n{tags}</div>\n</div>'
    )
    n = len(post.comments)
    feeds = "".join(
        f'<link rel="alternate" type="application/{k}+xml" title="Posts on \'{attr(site.name)}\' ({t})" href="{b}blog/'
        f'{f}" />\n'
        for k, t, f in [("atom", "Atom", "atom.xml"), ("rss", "RSS 2.0", "rss.xml")]
    )
    return (
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-'
        'transitional.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml" id="typepad-standard" xmlns:fb="http://www.'
        'facebook.com/2008/fbml">\n<head>\n<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />\n<meta'
        ' name="generator" content="http://www.typepad.com/" />\n<meta name="keywords" content="'
        f'{attr(", ".join(post.tags))}"'
        f' />\n<link rel="stylesheet" href="{b}blog/styles.css?v=6" type="text/css" media="screen" />\n<link rel="'
        'stylesheet" href="https://static.typepad.com/.shared/themes/common/print.css" type="text/css" media="print" /'
        f'>\n{feeds}<script type="text/javascript">var TPApp = {{}}; TPApp.app_uri = "https://www.typepad.com/"; TPApp.'
        f'blog_uri = "{b}blog/"; TPApp.entry_id = "{eid}"; TPApp.comment_count = {n};</script>\n<title>{name}: '
        f'{esc(post.title)}</title>\n<link rel="canonical" href="{post.url}" />\n<meta property="og:title" content="'
        f'{attr(post.title)}" />\n<meta property="og:url" content="{post.url}" />\n</head>\n<body class="layout-two-'
        f'column-right post">\n<div id="container" class="container">\n<div id="container-inner" class="pkg">\n<div '
        f'class="row">\n<div id="banner">\n<div id="banner-inner" class="pkg">\n<h1 id="banner-header"><a href="{b}'
        f'blog/" accesskey="1">{name}</a></h1>\n<h2 id="banner-description">{esc(site.cfg["tagline"])}</h2>\n</div>\n'
        f'</div>\n</div>\n<ul id="nav" class="nav-list"><li><a href="{b}blog/">Home</a></li><li><a href="{b}about.html"'
        f'>About</a></li><li><a href="{b}blog/archives.html">Archives</a></li></ul>\n<div id="pagebody">\n<div id="'
        f'pagebody-inner" class="pkg">\n<div id="alpha">\n<div id="alpha-inner" class="pkg">\n{nav}\n{entry}\n'
        f'{comments(site, post)}\n</div>\n</div>\n<div id="beta">\n<div id="beta-inner" class="pkg">\n{sidebar(site)}\n'
        f'</div>\n</div>\n</div>\n</div>\n</div>\n</div>\n<script type="text/javascript" src="https://static.typepad.'
        f'com/.shared/js/yui/yahoo-dom-event.js,/js/app/thumbnail-gallery-min.js"></script>\n<script type="text/'
        f'javascript">TPApp.renderComments && TPApp.renderComments();</script>\n</body>\n</html>\n'
    )
