"""Blogger (blogspot.com) post pages: ``blogger-threaded`` (2012+ "Simple" layout) and ``blogger-classic`` ("Minima").

Threaded comments follow saved blogspot pages: ``div.comments#comments`` > ``h4`` "N comments:" >
``div.comments-content`` (the comments script, then ``div#comment-holder``) >
``div.comment-thread.toplevel-thread`` > ``ol#top-ra`` > ``li.comment#c<id>`` with ``div.avatar-image-container``,
``div.comment-block`` (``div.comment-header`` with ``cite.user`` and ``span.datetime`` "March 3, 2012 at 4:20 PM",
``p.comment-content`` with paragraphs joined by ``<br/>``, ``span.comment-actions`` Reply/Delete) and
``div.comment-replies`` holding an inline ``div.comment-thread``.  Blogger nests one level only: a reply to a
reply joins the thread of the top comment (the truth's parent is that top comment), and replies have no Reply
link of their own.  A post without comments prints the classic empty ``dl#comments-block`` (Blogger only switches
to the threaded markup when there is something to thread; from memory, not checked against a saved page).

Classic comments (old layout): ``div#comments`` > ``h4`` "N comments:" > ``dl#comments-block`` with, per comment,
``dt.comment-author`` ("<a>Name</a> said..."), ``dd.comment-body`` (the text) and ``dd.comment-footer`` (date link
"3/03/2012 4:20 PM" and the delete icon): author and text are siblings, not one element.  No nesting.
"""

from __future__ import annotations

from tests.themes.model import Comment, Post, Site
from tests.themes.words import MONTHS

from .base import attr, body, clock, esc, limit_depth, long_id, renumber, slug
from .blogger_chrome import closing_scripts, date_header, head, ids, pager, post_footer, sidebar


def adapt(site: Site, depth: int) -> None:
    """Blogger ids and URLs (/2012/03/slug.html); replies limited to ``depth`` levels."""
    posts = []
    for p in site.posts:
        d = site.local(p.date)
        url = f"{site.base}{d.year}/{d.month:02d}/{slug(p.title, 39)}.html"
        p.comments = limit_depth(p.comments, depth)
        posts.append(renumber(p, long_id(site.theme, "post", p.id), url, lambda i: long_id(site.theme, "c", i)))
    site.posts = posts


def adapt_threaded(site: Site) -> None:
    adapt(site, 2)


def adapt_classic(site: Site) -> None:
    adapt(site, 1)


def post_body(site: Site, post: Post, modern: bool) -> str:
    """The post body as Blogger's editor saves it: <div> lines (``modern``) or text with <br /> (old editor)."""
    d = site.local(post.date)

    def img(b: tuple) -> str:
        h = long_id(site.theme, "img", b[3], digits=12)
        src = f"https://{h % 4 + 1}.bp.blogspot.com/-{h:x}/T{b[3]:05d}/AAAAAAAAA{d.month:02d}/s320/img_{b[3]:04d}.jpg"
        pic = (
            f'<a href="{src.replace("/s320/", "/s1600/")}" style="margin-left: 1em; margin-right: 1em;"><img border='
            f'"0" height="213" src="{src}" width="320" /></a>'
        )
        if not b[2]:
            return f'<div class="separator" style="clear: both; text-align: center;">{pic}</div>'
        return (
            '<table align="center" cellpadding="0" cellspacing="0" class="tr-caption-container" style="margin-left: '
            f'auto; margin-right: auto; text-align: center;"><tbody><tr><td style="text-align: center;">{pic}</td>'
            f'</tr><tr><td class="tr-caption" style="text-align: center;">{esc(b[2])}</td></tr></tbody></table>'
        )

    if modern:
        return body(
            post,
            img,
            p=lambda s: f"<div>{s}</div><div><br /></div>",
            quote=lambda s: f'<blockquote class="tr_bq">{s}</blockquote>',
        )
    return body(post, img, p=lambda s: f"{s}<br />\n<br />", quote=lambda s: f"<blockquote>{s}</blockquote>")


def author(site: Site, post: Post, c: Comment) -> str:
    """The commenter: the blog author's profile link, a Name/URL link, or the plain name."""
    _, prof = ids(site)
    if c.mine:
        return f'<a href="https://www.blogger.com/profile/{prof}" rel="nofollow">{esc(c.author)}</a>'
    return f'<a href="{attr(c.url)}" rel="nofollow">{esc(c.author)}</a>' if c.url else esc(c.author)


def permalink(post: Post, c: Comment) -> str:
    return f"{post.url}?showComment={int(c.date.timestamp() * 1000)}#c{c.id}"


def threaded(site: Site, post: Post) -> str:
    """Blogger's threaded comments: top-level comments, each with its inline reply thread."""
    blog, prof = ids(site)
    kids: dict[int | None, list[Comment]] = {}
    for c in post.comments:
        kids.setdefault(c.parent, []).append(c)

    def li(c: Comment, top: bool) -> str:
        d = site.local(c.date)
        ts = f"{MONTHS[d.month - 1]} {d.day}, {d.year} at {clock(d)}"
        av = (
            "//www.blogger.com/img/blogger_logo_round_35.png"
            if c.mine or c.url
            else "//resources.blogblog.com/img/blank.gif"
        )
        reply = f'<a class="comment-reply" data-comment-id="{c.id}" target="_self">Reply</a>' if top else ""
        replies = "".join(li(k, False) for k in kids.get(c.id, []))
        hidden = "" if replies else " hidden"
        return (
            f'<li class="comment" id="c{c.id}"><div class="avatar-image-container"><img alt="" src="{av}"/></div><div '
            f'class="comment-block"><div class="comment-header"><cite class="user">{author(site, post, c)}</cite>'
            f'<span class="icon user{" blog-author" if c.mine else ""}"></span><span class="datetime secondary-text">'
            f'<a href="{permalink(post, c)}" rel="nofollow">{ts}</a></span></div><p class="comment-content">'
            + "<br/><br/>".join(esc(x) for x in c.paras)
            + f'</p><span class="comment-actions secondary-text">{reply}<span class="item-control blog-admin blog-admin'
            f' pid-{prof % 10**10}"><a href="https://www.blogger.com/delete-comment.g?blogID={blog}&amp;postID={c.id}"'
            f' target="_self">Delete</a></span></span></div><div class="comment-replies"><div class="comment-thread '
            f'inline-thread{hidden}" id="c{c.id}-rt"><span class="thread-toggle thread-expanded"><span class="thread-'
            f'arrow"></span><span class="thread-count"><a target="_self">Replies</a></span></span><ol class="thread-'
            f'chrome thread-expanded" id="c{c.id}-ra"><div>{replies}</div><div class="continue" id="c{c.id}-continue">'
            f'<a class="comment-reply" data-comment-id="{c.id}" target="_self">Reply</a></div></ol></div></div><div '
            f'class="comment-replybox-single" id="c{c.id}-ce"></div></li>'
        )

    script = (
        "<script async='async' src='' type='text/javascript'></script>\n<script type='text/javascript'>\n    (function("
        ") {\n      var items = null;\n      var msgs = null;\n      var config = {};\n\n// <![CDATA[\n      "
        "var cursor "
        "= null;\n      if (items && items.length > 0) {\n        cursor = parseInt(items[items.length - 1].timestamp)"
        " + 1;\n      }\n      var render = function() {\n        if (window.goog && window.goog.comments) {\n       "
        "   var holder = document.getElementById('comment-holder');\n          window.goog.comments.render(holder, "
        "provider);\n        }\n      };\n// ]]>\n    })();\n  </script>"
    )
    return (
        f"<div class='comments-content'>\n{script}\n<div id='comment-holder'>\n<div class=\"comment-thread toplevel-"
        f'thread"><ol id="top-ra">'
        + "".join(li(c, True) for c in kids.get(None, []))
        + '</ol><div class="continue" id="top-continue"><a class="comment-reply" target="_self">Add comment</a></div>'
        f'<div class="comment-replybox-thread" id="top-ce"></div><div class="loadmore hidden" data-post-id="{post.id}">'
        f'<a target="_self">Load more...</a></div></div>\n</div>\n</div>'
    )


def classic(site: Site, post: Post, avatars: bool) -> str:
    """The classic ``dl#comments-block``: dt author "said...", dd body, dd footer with the date."""
    blog, prof = ids(site)
    out = []
    for c in post.comments:
        d = site.local(c.date)
        ts = f"{d.month}/{d.day:02d}/{d.year} {clock(d)}"
        av = (
            '<div class="avatar-image-container avatar-stock"><span dir="ltr"><img src="https://resources.blogblog.com'
            f'/img/blank.gif" width="16" height="16" alt="" title="{attr(c.author)}">\n\n</span></div>\n'
            if avatars
            else ""
        )
        body_ = "<br /><br />".join(esc(x) for x in c.paras)
        out.append(
            f"<dt class='comment-author {'blog-author' if c.mine else ''}' id='c{c.id}'>\n<a name='c{c.id}'></a>\n{av}"
            f"{author(site, post, c)}\nsaid...\n</dt>\n<dd class='comment-body' id='Blog1_cmt-{c.id}'>\n<p>\n{body_}\n"
            f"</p>\n</dd>\n<dd class='comment-footer'>\n<span class='comment-timestamp'>\n<a href='{permalink(post, c)}"
            f"' title='comment permalink'>\n{ts}\n</a>\n<span class='item-control blog-admin pid-{prof % 10**10}'>\n<a "
            f"href='https://www.blogger.com/delete-comment.g?blogID={blog}&amp;postID={c.id}' title='Delete Comment'>"
            f"\n<img src='https://resources.blogblog.com/img/icon_delete13.gif'/>\n</a>\n</span>\n</span>\n</dd>"
        )
    cls = " class='avatar-comment-indent'" if avatars else ""
    return (
        f"<div id='Blog1_comments-block-wrapper'>\n<dl{cls} id='comments-block'>\n" + "\n".join(out) + "\n</dl>\n</div>"
    )


def comments(site: Site, post: Post, modern: bool) -> str:
    """The comments section: heading, comments, and the comment form (iframe) or the "Post a Comment" link."""
    blog, _ = ids(site)
    n = len(post.comments)
    h4 = ("No comments:" if modern else "0 comments:") if not n else "1 comment:" if n == 1 else f"{n} comments:"
    inner = threaded(site, post) if modern and n else classic(site, post, modern)
    form = (
        f"<div class='comment-form'>\n<a name='comment-form'></a>\n<h4 id='comment-post-message'>Post a Comment</h4>\n"
        f"<p>\n</p>\n<a href='https://www.blogger.com/comment-iframe.g?blogID={blog}&amp;postID={post.id}' id='"
        f"comment-editor-src'></a>\n<iframe allowtransparency='true' class='blogger-iframe-colorize blogger-comment-"
        f"from-post' frameborder='0' height='410px' id='comment-editor' name='comment-editor' src='' width='100%'>"
        f"</iframe>\n<script src='https://www.blogger.com/static/v1/jsbin/2315299244-comment_from_post_iframe.js' type="
        f"'text/javascript'></script>\n<script type='text/javascript'>\n      BLOG_CMT_createIframe('https://www."
        f"blogger.com/rpc_relay.html');\n    </script>\n</div>"
        if modern
        else f"<p class='comment-footer'>\n<a href='https://www.blogger.com/comment.g?blogID={blog}&amp;postID="
        f"{post.id}' onclick=''>Post a Comment</a>\n</p>"
    )
    backlinks = (
        "<div id='backlinks-container'>\n<div id='Blog1_backlinks-container'>\n"
        + (
            ""
            if modern
            else "<a name='links'></a><h4>Links to this post:</h4>\n<p class='comment-footer'>\n<a class='comment-link'"
            " href='https://www.blogger.com/blog-this.g' id='Blog1_backlinks-create-link' target='_blank'>Create a "
            "Link</a>\n</p>\n"
        )
        + "</div>\n</div>"
    )
    if modern:
        form = f"<p class='comment-footer'>\n{form}\n</p>"
    return (
        f"<div class='comments' id='comments'>\n<a name='comments'></a>\n<h4>{h4}</h4>\n{inner}\n{form}\n{backlinks}"
        "\n</div>"
    )


def page(site: Site, post: Post, modern: bool) -> str:
    """A whole Blogger post page (``modern``: Simple template with threaded comments, else Minima)."""
    blog, _ = ids(site)
    b, name = site.base, esc(site.name)
    title = (
        f"<h3 class='post-title entry-title' itemprop='name'>\n{esc(post.title)}\n</h3>"
        if modern
        else f"<h3 class='post-title entry-title'>\n<a href='{post.url}'>{esc(post.title)}</a>\n</h3>"
    )
    main = (
        f"<div class='blog-posts hfeed'>\n<div class=\"date-outer\">\n<h2 class='date-header'><span>"
        f"{date_header(site, post, not modern)}</span></h2>\n<div class=\"date-posts\">\n<div class='post-outer'>\n"
        f"<div class='post hentry uncustomized-post-template'"
        + (" itemprop='blogPost' itemscope='itemscope' itemtype='http://schema.org/BlogPosting'" if modern else "")
        + f">\n<meta content='{blog}' itemprop='blogId'/>\n<meta content='{post.id}' itemprop='postId'/>\n<a name='"
        f"{post.id}'></a>\n{title}\n<div class='post-header'>\n<div class='post-header-line-1'></div>\n</div>\n<div "
        f"class='post-body entry-content' id='post-body-{post.id}'>\n{post_body(site, post, modern)}\n<div style='"
        f"clear: both;'></div>\n</div>\n{post_footer(site, post, modern)}\n</div>\n{comments(site, post, modern)}\n"
        f"</div>\n</div></div>\n</div>\n{pager(site, post)}"
    )
    sel = " class='selected'"
    menu = "".join(
        f"<li{'' if i else sel}><a href='{u}'>{t}</a></li>\n"
        for i, (t, u) in enumerate([("Home", b), ("About", b + "p/about.html"), ("Recipes", b + "p/recipes.html")])
    )
    header = (
        f"<div class='header section' id='header'><div class='widget Header' data-version='1' id='Header1'>\n<div "
        f"id='header-inner'>\n<div class='titlewrapper'>\n<h1 class='title'>\n<a href='{b}'>{name}</a>\n</h1>\n</div>"
        f"\n<div class='descriptionwrapper'>\n<p class='description'><span>{esc(site.cfg['tagline'])}</span></p>\n"
        f"</div>\n</div>\n</div></div>"
    )
    navbar = (
        "<div class='navbar section' id='navbar'><div class='widget Navbar' data-version='1' id='Navbar1'><script type="
        '"text/javascript">\n    function setAttributeOnload(object, attribute, val) {\n      if(window.addEventListene'
        "r)"
        " {\n        window.addEventListener('load',\n          function(){ object[attribute] = val; }, false);\n      "
        '}\n    }\n  </script>\n<div id="navbar-iframe-container"></div></div></div>'
    )
    if modern:
        layout = (
            f"<div class='content'>\n<div class='content-outer'>\n<div class='content-inner'>\n<header>\n<div class='"
            f"header-outer'>\n<div class='region-inner header-inner'>\n{header}\n</div>\n</div>\n</header>\n<div class="
            f"'tabs-outer'>\n<div class='tabs section' id='crosscol'><div class='widget PageList' data-version='1' id="
            f"'PageList1'>\n<div class='widget-content'>\n<ul>\n{menu}</ul>\n</div>\n</div></div>\n</div>\n<div class="
            f"'main-outer'>\n<div class='main-inner columns-fix-width'>\n<div class='columns fauxcolumns'>\n<div class="
            f"'column-center-outer'>\n<div class='column-center-inner'>\n<div class='main section' id='main'><div class"
            f"='widget Blog' data-version='1' id='Blog1'>\n{main}\n</div></div>\n</div>\n</div>\n<div class='column-"
            f"right-outer'>\n<div class='column-right-inner'>\n<aside>\n<div class='sidebar section' id='sidebar-right-"
            f"1'>{sidebar(site, post, True)}</div>\n</aside>\n</div>\n</div>\n</div>\n</div>\n</div>\n<footer>\n<div "
            "class='footer-outer'>\n<div class='foot section' id='footer-1'></div>\n<div class='section' id='footer-3'"
            f"><div class='widget Attribution' data-version='1' id='Attribution1'>\n<div class='widget-content' style="
            f"'text-align: center;'>\nSimple theme. Powered by <a href='https://www.blogger.com' target='_blank'>"
            f"Blogger</a>.\n</div>\n</div></div>\n</div>\n</footer>\n</div>\n</div>\n</div>"
        )
    else:
        layout = (
            f"<div id='outer-wrapper'><div id='wrap2'>\n<span id='skiplinks' style='display:none;'>\n<a href='#main'>"
            f"skip to main </a> |\n<a href='#sidebar'>skip to sidebar</a>\n</span>\n<div id='header-wrapper'>\n{header}"
            f"\n</div>\n<div id='content-wrapper'>\n<div id='crosscol-wrapper' style='text-align:center'>\n<div class='"
            "crosscol no-items section' id='crosscol'></div>\n</div>\n<div id='main-wrapper'>\n<div class='main sectio"
            f"n' id='main'><div class='widget Blog' data-version='1' id='Blog1'>\n{main}\n</div></div>\n</div>"
            "\n<div id="
            f"'sidebar-wrapper'>\n<div class='sidebar section' id='sidebar'>{sidebar(site, post, False)}</div>\n</div>"
            f"\n<div style='clear: both'></div>\n</div>\n<div id='footer-wrapper'>\n<div class='footer section' id='"
            f"footer'><div class='widget Attribution' data-version='1' id='Attribution1'>\n<div class='widget-content' "
            f"style='text-align: center;'>\nPowered by <a href='https://www.blogger.com' target='_blank'>Blogger</a>.\n"
            f"</div>\n</div></div>\n</div>\n</div></div>"
        )
    html_open = (
        "<html class='v2' dir='ltr' xmlns='http://www.w3.org/1999/xhtml' xmlns:b='http://www.google.com/2005/gml/b' "
        "xmlns:data='http://www.google.com/2005/gml/data' xmlns:expr='http://www.google.com/2005/gml/expr'>"
        if modern
        else "<html dir='ltr' xmlns='http://www.w3.org/1999/xhtml' xmlns:b='http://www.google.com/2005/gml/b' "
        "xmlns:data='http://www.google.com/2005/gml/data' xmlns:expr='http://www.google.com/2005/gml/expr'>"
    )
    doctype = (
        "<!DOCTYPE html>"
        if modern
        else (
            '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">'
        )
    )
    return (
        f"{doctype}\n{html_open}\n<head>\n{head(site, post, modern)}</head>\n<body class='{'loading' if modern else ''}"
        f"'>\n{navbar}\n{layout}\n{closing_scripts(site, post)}\n</body>\n</html>\n"
    )


def page_threaded(site: Site, post: Post) -> str:
    return page(site, post, True)


def page_classic(site: Site, post: Post) -> str:
    return page(site, post, False)
