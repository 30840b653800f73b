"""The Blogger page around a post: <head>, header, post footer, pager, sidebar widgets and the closing scripts.

Both Blogger layouts use these (``pages_blogger``): the "Simple" template of 2012+ (threaded comments) and the
old "Minima" template (classic comments).  Markup follows saved blogspot.com pages: ``div.post-footer`` with
"Posted by X at 4:20 PM", share buttons and "Labels:", the ``blog-pager`` ("Newer Post / Older Post / Home"),
the Profile ("About Me"), Followers, BlogArchive (the viewed post's year and month expanded, so it differs per
page) and Labels widgets.
"""

from __future__ import annotations

from urllib.parse import quote

from tests.themes.model import Post, Site
from tests.themes.words import DAYS, MONTHS

from .base import attr, clock, esc, iso, long_id, months, neighbours


def ids(site: Site) -> tuple[int, int]:
    """The blog id and the author's profile id."""
    return long_id(site.theme, "blog"), long_id(site.theme, "profile", digits=20)


def label_url(site: Site, label: str) -> str:
    return f"{site.base}search/label/{quote(label)}"


def date_header(site: Site, post: Post, pad: bool) -> str:
    """The date header above a day's posts: "Saturday, March 3, 2012" (``pad``: "March 03")."""
    d = site.local(post.date)
    day = f"{d.day:02d}" if pad else str(d.day)
    return f"{DAYS[d.weekday()]}, {MONTHS[d.month - 1]} {day}, {d.year}"


def head(site: Site, post: Post, modern: bool) -> str:
    """The <head>: Blogger's meta tags, feeds, the skin stylesheet and the widget scripts."""
    blog, prof = ids(site)
    b, name, t = site.base, attr(site.name), attr(post.title)
    desc = attr(next(x[1] for x in post.blocks if x[0] == "p")[:150])
    og = (
        f"<meta content='{post.url}' property='og:url'/>\n<meta content='{t}' property='og:title'/>\n"
        f"<meta content='{desc}' property='og:description'/>\n"
        if modern
        else ""
    )
    return (
        f"<meta content='width=1100' name='viewport'/>\n<meta content='IE=EmulateIE7' http-equiv='X-UA-Compatible'/>\n"
        f"<meta content='text/html; charset=UTF-8' http-equiv='Content-Type'/>\n<meta content='blogger' name="
        f"'generator'/>\n<link href='{b}favicon.ico' rel='icon' type='image/x-icon'/>\n<link href='{post.url}' "
        f'rel=\'canonical\'/>\n<link rel="alternate" type="application/atom+xml" title="{name} - Atom" href="'
        f'{b}feeds/posts/default" />\n<link rel="alternate" type="application/rss+xml" title="{name} - RSS" href="'
        f'{b}feeds/posts/default?alt=rss" />\n<link rel="service.post" type="application/atom+xml" title="{name} - '
        f'Atom" href="https://www.blogger.com/feeds/{blog}/posts/default" />\n<link rel="alternate" type="application'
        f'/atom+xml" title="{name} - Atom" href="{b}feeds/{post.id}/comments/default" />\n<link rel="me" href="'
        f'https://www.blogger.com/profile/{prof}" />\n<link rel="openid.server" href="https://www.blogger.com/openid-'
        f'server.g" />\n<link rel="openid.delegate" href="{b}" />\n{og}<title>{name}: {t}</title>\n<style id=\'page-'
        f"skin-1' type='text/css'><!--\n/* Content\n----------------------------------------------- */\nbody {{\n  "
        f"font: normal normal 12px Arial, Tahoma, Helvetica, FreeSans, sans-serif;\n  color: #222222;\n  background: "
        f"#66bbdd none repeat scroll top left;\n}}\n.comments .comments-content .icon.blog-author {{\n  background-"
        f"repeat: no-repeat;\n}}\n--></style>\n<link type='text/css' rel='stylesheet' href='https://www.blogger.com/"
        f"static/v1/widgets/2437439463-widget_css_bundle.css' />\n<link type='text/css' rel='stylesheet' href='"
        f"https://www.blogger.com/dyn-css/authorization.css?targetBlogID={blog}&amp;zx=8d0f8f43-d5ab' />\n<script "
        f'type="text/javascript" src="https://www.blogger.com/static/v1/jsbin/3101730221-widgets.js"></script>\n'
        f"<script type='text/javascript'>\nwindow['__wavt'] = 'AOuZoY5mV0yQ:{post.id % 10**9}';_WidgetManager._Init("
        f"'//www.blogger.com/rearrange?blogID\\x3d{blog}','//{b[8:]}','{blog}');\n</script>\n"
    )


def post_footer(site: Site, post: Post, modern: bool) -> str:
    """``div.post-footer``: "Posted by X at 4:20 PM", the icons, share buttons (``modern``) and "Labels:"."""
    blog, prof = ids(site)
    d = site.local(post.date)
    who = (
        f"<span class='fn' itemprop='author' itemscope='itemscope' itemtype='http://schema.org/Person'>\n<meta "
        f"content='https://www.blogger.com/profile/{prof}' itemprop='url'/>\n<a class='g-profile' href='https://www."
        f"blogger.com/profile/{prof}' rel='author' title='author profile'>\n<span itemprop='name'>{esc(post.author)}"
        f"</span>\n</a>\n</span>"
        if modern
        else f"<span class='fn'>{esc(post.author)}</span>"
    )
    share = "".join(
        f"<a class='goog-inline-block share-button sb-{k}' href='https://www.blogger.com/share-post.g?blogID={blog}"
        f"&amp;postID={post.id}&amp;target={k}' target='_blank' title='{t}'><span class='share-button-link-text'>"
        f"{t}</span></a>"
        for k, t in [
            ("email", "Email This"),
            ("blog", "BlogThis!"),
            ("twitter", "Share to Twitter"),
            ("facebook", "Share to Facebook"),
            ("pinterest", "Share to Pinterest"),
        ]
    )
    labels = ",\n".join(f"<a href='{label_url(site, c)}' rel='tag'>{esc(c)}</a>" for c in post.cats + post.tags)
    return (
        f"<div class='post-footer'>\n<div class='post-footer-line post-footer-line-1'>\n<span class='post-author "
        f"vcard'>\nPosted by\n{who}\n</span>\n<span class='post-timestamp'>\nat\n"
        + (f"<meta content='{post.url}' itemprop='url'/>\n" if modern else "")
        + f"<a class='timestamp-link' href='{post.url}' rel='bookmark' title='permanent link'><abbr class='published'"
        + (" itemprop='datePublished'" if modern else "")
        + f" title='{iso(site, post.date)}'>{clock(d)}</abbr></a>\n</span>\n<span class='post-comment-link'>\n</span>"
        f"\n<span class='post-icons'>\n<span class='item-action'>\n<a href='https://www.blogger.com/email-post.g?"
        f"blogID={blog}&amp;postID={post.id}' title='Email Post'>\n<img alt='' class='icon-action' height='13' "
        f"src='https://resources.blogblog.com/img/icon18_email.gif' width='18'/>\n</a>\n</span>\n<span class='item-"
        f"control blog-admin pid-{prof % 10**10}'>\n<a href='https://www.blogger.com/post-edit.g?blogID={blog}&amp;"
        f"postID={post.id}&amp;from=pencil' title='Edit Post'>\n<img alt='' class='icon-action' height='18' src='"
        f"https://resources.blogblog.com/img/icon18_edit_allbkg.gif' width='18'/>\n</a>\n</span>\n</span>\n"
        + (f"<div class='post-share-buttons goog-inline-block'>\n{share}\n</div>\n" if modern else "")
        + "</div>\n<div class='post-footer-line post-footer-line-2'>\n<span class='post-labels'>\n"
        + (f"Labels:\n{labels}\n" if labels else "")
        + "</span>\n</div>\n<div class='post-footer-line post-footer-line-3'>\n<span class='post-location'>\n</span>\n"
        "</div>\n</div>"
    )


def pager(site: Site, post: Post) -> str:
    """The ``blog-pager``: Newer Post, Older Post, Home, and the post's comment feed link."""
    older, newer = neighbours(site, post)
    links = [
        f"<span id='blog-pager-{k}-link'>\n<a class='blog-pager-{k}-link' href='{p.url}' id='Blog1_blog-pager-{k}-"
        f"link' title='{t}'>{t}</a>\n</span>"
        for k, t, p in [("newer", "Newer Post", newer), ("older", "Older Post", older)]
        if p
    ]
    return (
        "<div class='blog-pager' id='blog-pager'>\n"
        + "\n".join(links)
        + f"\n<a class='home-link' href='{site.base}'>Home</a>\n</div>\n<div class='clear'></div>\n<div class='post-"
        f"feeds'>\n<div class='feed-links'>\nSubscribe to:\n<a class='feed-link' href='{site.base}feeds/{post.id}/"
        f"comments/default' target='_blank' type='application/atom+xml'>Post Comments (Atom)</a>\n</div>\n</div>"
    )


def widget(kind: str, wid: str, title: str | None, inner: str) -> str:
    """One sidebar widget (``div.widget``), with its edit control."""
    cls = "" if kind == "Profile" else " class='title'"
    h = f"<h2{cls}>{title}</h2>\n" if title else ""
    return (
        f"<div class='widget {kind}' data-version='1' id='{wid}'>\n{h}<div class='widget-content'>\n{inner}\n</div>\n"
        f"<div class='clear'></div>\n<span class='widget-item-control'>\n<span class='item-control blog-admin'>\n"
        f"<a class='quickedit' href='//www.blogger.com/rearrange?widgetType={kind}&amp;widgetId={wid}&amp;action="
        f"editWidget&amp;sectionId=sidebar-right-1' target='config{wid}' title='Edit'>\n<img alt='' height='18' src="
        f"'https://resources.blogblog.com/img/icon18_wrench_allbkg.png' width='18'/>\n</a>\n</span>\n</span>\n"
        f"<div class='clear'></div>\n</div>"
    )


def archive(site: Site, post: Post) -> str:
    """BlogArchive, hierarchy style: years and months with counts; the viewed post's month lists its posts."""
    d = site.local(post.date)
    years: dict[int, list[tuple[int, list[Post]]]] = {}
    for y, m, ps in months(site):
        years.setdefault(y, []).append((m, ps))
    out = []
    for y, ms in years.items():
        sub = []
        for m, ps in ms:
            open_ = (y, m) == (d.year, d.month)
            posts = (
                "\n<ul class='posts'>\n"
                + "".join(f"<li><a href='{p.url}'>{esc(p.title)}</a></li>\n" for p in ps)
                + "</ul>"
                if open_
                else ""
            )
            sub.append(
                f"<ul class='hierarchy'>\n<li class='archivedate {'expanded' if open_ else 'collapsed'}'>\n<a class="
                f"'toggle' href='javascript:void(0)'>\n<span class='zippy{' toggle-open' if open_ else ''}'>\n"
                f"{'&#9660;&#160;' if open_ else '&#9658;&#160;'}\n</span>\n</a>\n<a class='post-count-link' href='"
                f"{site.base}{y}/{m:02d}/'>\n{MONTHS[m - 1]}\n</a>\n<span class='post-count' dir='ltr'>({len(ps)})"
                f"</span>{posts}\n</li>\n</ul>"
            )
        open_y = y == d.year
        out.append(
            f"<ul class='hierarchy'>\n<li class='archivedate {'expanded' if open_y else 'collapsed'}'>\n<a class='"
            f"toggle' href='javascript:void(0)'>\n<span class='zippy{' toggle-open' if open_y else ''}'>\n"
            f"{'&#9660;&#160;' if open_y else '&#9658;&#160;'}\n</span>\n</a>\n<a class='post-count-link' href='"
            f"{site.base}{y}/'>\n{y}\n</a>\n<span class='post-count' dir='ltr'>({sum(len(p) for _, p in ms)})</span>\n"
            + "\n".join(sub)
            + "\n</li>\n</ul>"
        )
    return "<div id='ArchiveList'>\n<div id='BlogArchive1_ArchiveList'>\n" + "\n".join(out) + "\n</div>\n</div>"


def sidebar(site: Site, post: Post, followers: bool) -> str:
    """The sidebar: About Me (Profile), Followers (``followers``), Blog Archive and Labels."""
    _, prof = ids(site)
    author = site.cfg["authors"][0][0]
    profile = (
        f"<a href='https://www.blogger.com/profile/{prof}'><img alt='My photo' class='profile-img' height='80' src='"
        f"//blogger.googleusercontent.com/img/b/R29vZ2xl/{prof % 10**8}/s80/me.jpg' width='60'/></a>\n<dl class='"
        f"profile-datablock'>\n<dt class='profile-data'>\n<a class='profile-name-link g-profile' href='https://www."
        f"blogger.com/profile/{prof}' rel='author' style='background-image: url(//www.blogger.com/img/logo-16.png);'"
        f">\n{esc(author)}\n</a>\n</dt>\n<dd class='profile-textblock'>{esc(site.cfg['tagline'])}.</dd>\n</dl>\n<a "
        f"class='profile-link' href='https://www.blogger.com/profile/{prof}' rel='author'>View my complete profile"
        f"</a>"
    )
    counts: dict[str, int] = {}
    for p in site.posts:
        for lab in p.cats + p.tags:
            counts[lab] = counts.get(lab, 0) + 1
    labels = (
        "<ul>\n"
        + "".join(
            f"<li>\n<a dir='ltr' href='{label_url(site, k)}'>{esc(k)}</a>\n<span dir='ltr'>({n})</span>\n</li>\n"
            for k, n in sorted(counts.items(), key=lambda kv: kv[0].lower())
        )
        + "</ul>"
    )
    out = [widget("Profile", "Profile1", "About Me", profile)]
    if followers:
        out.append(
            widget(
                "Followers",
                "Followers1",
                f"Followers ({20 + len(site.posts)})",
                "<div id='Followers1-wrapper'>\n<div style='margin-right:2px;'>\n<div><script type=\"text/javascript\""
                ' src="https://apis.google.com/js/platform.js"></script>\n<div id="followers-iframe-container"></div>'
                "\n</div>\n</div>\n</div>",
            )
        )
    out += [widget("BlogArchive", "BlogArchive1", "Blog Archive", archive(site, post))]
    out += [widget("Label", "Label1", "Labels", labels)]
    return "\n".join(out)


def closing_scripts(site: Site, post: Post) -> str:
    """The widget manager calls Blogger prints before </body>."""
    blog, _ = ids(site)
    calls = "".join(
        f"_WidgetManager._RegisterWidget('_{k}View', new _WidgetInfo('{w}', '{sec}', null, document.getElementById("
        f"'{w}'), {{}}, 'displayModeFull'));\n"
        for k, w, sec in [
            ("Navbar", "Navbar1", "navbar"),
            ("Header", "Header1", "header"),
            ("Blog", "Blog1", "main"),
            ("Profile", "Profile1", "sidebar-right-1"),
            ("BlogArchive", "BlogArchive1", "sidebar-right-1"),
            ("Label", "Label1", "sidebar-right-1"),
        ]
    )
    return (
        f'<script type="text/javascript" src="https://www.blogger.com/static/v1/widgets/1667664774-widgets.js">'
        f"</script>\n<script type='text/javascript'>\nwindow['__wavt'] = 'AOuZoY7:{blog % 10**6}';_WidgetManager._Init("
        f"'//www.blogger.com/rearrange?blogID\\x3d{blog}','//{site.base[8:]}','{blog}');\n_WidgetManager._SetDataContext"
        f"([{{'name': 'blog', 'data': {{'blogId': '{blog}', 'title': '{attr(site.name)}', 'url': '{post.url}', "
        f"'pageType': 'item', 'postId': '{post.id}'}}}}]);\n{calls}</script>"
    )
