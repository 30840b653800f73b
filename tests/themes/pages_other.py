"""Single-post pages of the other themes: a classic XHTML theme, an Astra-like theme, a Japanese Lightning-like one.

Each ``page_*(site, post)`` returns the whole HTML page of one post as WordPress serves it with that theme.
"""

from __future__ import annotations

from .comments import author_link, avatar, comment_form, core_one, ctext, reply_link, walk
from .markup import body_cls, body_html, doc, duotone_svgs, head_modern, links, menu, neighbours, pcls, widgets
from .model import Comment, Post, Site, eh, tx
from .words import DAYS, MONTHS


def page_classic_xhtml(site: Site, post: Post) -> str:
    """A Kubrick-era theme (WordPress 3.5): XHTML 1.0, core XHTML comments, classic-editor content, a blogroll."""
    n, T, (prev, nxt), b = len(post.comments), tx(post.title), neighbours(site, post), site.base
    d = site.local(post.date)
    ul_children, aria = ('\t<ul class="children">', "</ul>"), " aria-required='true'"
    th = "th" if 10 <= d.day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d.day % 10, "th")

    def one(c: Comment, depth: int, cls: str) -> str:
        mv = f'return addComment.moveForm("div-comment-{c.id}", "{c.id}", "respond", "{post.id}")'
        return (
            f'\t\t<li class="{cls}" id="comment-{c.id}">\n\t\t\t\t<div id="div-comment-{c.id}" class="comment-body">\n'
            f'\t\t<div class="comment-author vcard">\n\t\t{avatar(c, 32, old=True)}\t\t<cite class="fn">'
            f'{author_link(c, old=True)}</cite> <span class="says">says:</span>\t\t</div>\n\n\t\t<div class="comment-'
            f'meta commentmetadata"><a href="{post.url}#comment-{c.id}">\n\t\t\t{site.stamp(c.date)}</a>\t\t</div>\n'
            f"\n\t\t{ctext(c)}\n\t\t<div class=\"reply\">\n\t\t<a class='comment-reply-link' href='/?p={post.id}&amp;"
            f"replytocom={c.id}#respond' onclick='{mv}'>Reply</a>\t\t</div>\n\t\t\t\t</div>\n"
        )

    nav = (
        '<div class="navigation">\n<div class="alignleft">'
        + (f'&laquo; <a href="{prev.url}" rel="prev">{tx(prev.title)}</a>' if prev else "")
        + '</div>\n<div class="alignright">'
        + (f'<a href="{nxt.url}" rel="next">{tx(nxt.title)}</a> &raquo;' if nxt else "")
        + "</div>\n</div>"
    )
    comments = (
        ""
        if not n
        else (
            f'<h3 id="comments">{"One Response" if n == 1 else f"{n} Responses"} to &#8220;{T}&#8221;</h3>\n\n<div '
            f'class="navigation">\n<div class="alignleft"></div>\n<div class="alignright"></div>\n</div>\n\n<ol '
            f'class="commentlist">\n{walk(post, one, ul_children, "</li>")}\n</ol>\n\n<div class="navigation">\n<div '
            f'class="alignleft"></div>\n<div class="alignright"></div>\n</div>'
            f"\n"
        )
    )
    form = (
        f'<div id="respond">\n\n<h3>Leave a Reply</h3>\n\n<div id="cancel-comment-reply">\n\t<small><a rel="nofollow"'
        f' id="cancel-comment-reply-link" href="/?p={post.id}#respond" style="display:none;">Click here to cancel '
        f'reply.</a></small>\n</div>\n\n<form action="{b}wp-comments-post.php" method="post" id="commentform">\n'
        + "".join(
            f'<p><input type="text" name="{k}" id="{k}" value="" size="22" tabindex="{i + 1}"'
            f'{aria if i < 2 else ""} />\n<label for="{k}"><small>'
            f"{lab}</small></label></p>\n\n"
            for i, (k, lab) in enumerate(
                [
                    ("author", "Name (required)"),
                    ("email", "Mail (will not be published) (required)"),
                    ("url", "Website"),
                ]
            )
        )
        + f"<p><small><strong>XHTML:</strong> You can use these tags: <code>&lt;a href=&quot;&quot; title=&quot;"
        f"&quot;&gt; &lt;abbr title=&quot;&quot;&gt; &lt;b&gt; &lt;blockquote cite=&quot;&quot;&gt; &lt;cite&gt; "
        f"&lt;code&gt; &lt;em&gt; &lt;i&gt; &lt;q cite=&quot;&quot;&gt; &lt;strike&gt; &lt;strong&gt; </code></small>"
        f'</p>\n\n<p><textarea name="comment" id="comment" cols="58" rows="10" tabindex="4"></textarea></p>\n\n<p>'
        f'<input name="submit" type="submit" id="submit" tabindex="5" value="Submit Comment" />\n<input type=\'hidden\''
        f" name='comment_post_ID' value='{post.id}' id='comment_post_ID' />\n<input type='hidden' name='comment_parent'"
        f" id='comment_parent' value='0' />\n</p>\n</form>\n\n</div>\n"
    )
    wid = widgets(
        site,
        lambda i, c, t, x: (
            f'<li id="{i}" class="widget {c}">' + (f'<h2 class="widgettitle">{t}</h2>' if t else "") + f"\t\t{x}\n</li>"
        ),
        old=True,
    )
    wid += (
        '\n<li id="linkcat-2" class="widget widget_links"><h2 class="widgettitle">Blogroll</h2>\n\t<ul class=\'xoxo '
        "blogroll'>\n"
        + "".join(
            f'<li><a href="{u}">{t}</a></li>\n'
            for t, u in [
                ("Documentation", "http://codex.wordpress.org/"),
                ("Plugins", "http://wordpress.org/extend/plugins/"),
                ("Suggest Ideas", "http://wordpress.org/extend/ideas/"),
                ("Support Forum", "http://wordpress.org/support/"),
                ("Themes", "http://wordpress.org/extend/themes/"),
                ("WordPress Blog", "http://wordpress.org/news/"),
                ("WordPress Planet", "http://planet.wordpress.org/"),
            ]
        )
        + "\n\t</ul>\n</li>"
    )
    return (
        f'<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-'
        f'transitional.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml" dir="ltr" lang="en-US">\n\n<head profile="'
        f'http://gmpg.org/xfn/11">\n<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />\n\n<title>'
        f'{eh(site.name)}  &raquo; Blog Archive   &raquo; {T}</title>\n\n<link rel="stylesheet" href="{b}wp-content/'
        f'themes/default/style.css" type="text/css" media="screen" />\n<link rel="pingback" href="{b}xmlrpc.php" />'
        f'\n\n<style type="text/css" media="screen">\n\t#page {{ background: url("{b}wp-content/themes/default/'
        f'images/kubrickbgwide.jpg") repeat-y top; border: none; }}\n</style>\n\n<link rel="alternate" type="'
        f'application/rss+xml" title="{eh(site.name)} &raquo; Feed" href="{b}?feed=rss2" />\n<link rel="alternate" '
        f'type="application/rss+xml" title="{eh(site.name)} &raquo; {T} Comments Feed" href="{b}?feed=rss2&amp;p='
        f"{post.id}\" />\n<script type='text/javascript' src='{b}wp-includes/js/comment-reply.js?ver=3.5.1'></script>"
        f"\n<script type='text/javascript' src='{b}wp-includes/js/jquery/jquery.js?ver=1.8.3'></script>\n<link rel="
        f'"EditURI" type="application/rsd+xml" title="RSD" href="{b}xmlrpc.php?rsd" />\n<link rel="wlwmanifest" type="'
        f'application/wlwmanifest+xml" href="{b}wp-includes/wlwmanifest.xml" />\n<meta name="generator" content="'
        f"WordPress 3.5.1\" />\n<link rel='canonical' href='{post.url}' />\n<link rel='shortlink' href='{post.url}' />"
        f'\n</head>\n<body class="single single-post postid-{post.id} single-format-standard">\n<div id="page">\n\n\n'
        f'<div id="header" role="banner">\n\t<div id="headerimg">\n\t\t<h1><a href="{b}">{eh(site.name)}</a></h1>\n'
        f'\t\t<div class="description">{tx(site.cfg["tagline"])}</div>\n\t</div>\n</div>\n<hr />\n\n\t<div id="'
        f'content" class="narrowcolumn" role="main">\n\n\t{nav}\n\n\t\t<div class="{pcls(post)}" id="post-{post.id}">'
        f"\n\t\t\t<h2>{T}</h2>\n\t\t\t<small>{MONTHS[d.month - 1]} {d.day}{th}, {d.year} <!-- by "
        f'{eh(post.author)} --></small>\n\n\t\t\t<div class="entry">\n\t\t\t\t{body_html(site, post, False)}\n\n'
        + (f"\t\t\t\t<p>Tags: {links(site, post, 'tag')}</p>\n" if post.tags else "")
        + f'\n\t\t\t\t<p class="postmetadata alt">\n\t\t\t\t\t<small>\n\t\t\t\t\t\tThis entry was posted on '
        f"{DAYS[d.weekday()]}, {MONTHS[d.month - 1]} {d.day}{th}, {d.year} at {site.ftime(post.date)}\t\t\t\t\t\tand "
        f"is filed under {links(site, post)}.\n\t\t\t\t\t\tYou can follow any responses to this entry through the <a "
        f"href='{b}?feed=rss2&amp;p={post.id}'>"
        f'RSS 2.0</a> feed.\n\t\t\t\t\t\tYou can leave a response, or <a href="{b}wp-trackback.php?p={post.id}" '
        f'rel="trackback">trackback</a> from your own site.\n\t\t\t\t\t</small>\n\t\t\t\t</p>\n\n\t\t\t</div>\n\t\t'
        f'</div>\n\n\t\n<!-- You can start editing here. -->\n\n{comments}\n\n{form}\n\n\t</div>\n\n\t<div id="sidebar'
        f'" role="complementary">\n\t\t<ul>\n{wid}\n\t\t</ul>\n\t</div>\n\n\n\n<hr />\n<div id="footer" role="'
        f'contentinfo">\n\t<p>\n\t\t{eh(site.name)} is proudly powered by\n\t\t<a href="http://wordpress.org/">'
        f'WordPress</a>\n\t\t<br /><a href="{b}?feed=rss2">Entries (RSS)</a>\n\t\tand <a href="{b}?feed=comments-'
        f'rss2">Comments (RSS)</a>.\n\t</p>\n</div>\n</div>\n\n\t\t</body>\n</html>\n'
    )


def page_astra_like(site: Site, post: Post) -> str:
    """Astra: the astra_theme_comment() callback, lots of wrapper divs, schema.org attributes."""
    n, T, b = len(post.comments), tx(post.title), site.base
    prev, nxt = neighbours(site, post)
    ast_ul, ast_a = (
        'id="ast-hf-menu-1" class="main-header-menu ast-menu-shadow ast-nav-menu ast-flex submenu-with-border '
        'stack-on-mobile"',
        ' class="menu-link"',
    )

    def one(c: Comment, depth: int, cls: str) -> str:
        pa = '<span class="ast-highlight-text ast-cmt-post-author"></span>' if c.mine else ""
        return (
            f'<li class="{cls}" id="li-comment-{c.id}">\n\n\t\t<article id="comment-{c.id}" class="ast-comment">\n\t'
            f"\t<div class= 'ast-comment-info'>\n\t\t\t<div class='ast-comment-avatar-wrap'>{avatar(c, 50)}</div>"
            f'<!-- Remove 1px Space\n\t\t\t--><div class="ast-comment-data-wrap">\n\t\t\t\t<div class="ast-comment-'
            f'meta-wrap">\n\t\t\t\t\t<header class="ast-comment-meta ast-row ast-comment-author vcard capitalize">'
            f'<div class="ast-comment-cite-wrap ast-col-lg-12"><cite><b class="fn">{author_link(c)}</b> {pa}</cite>'
            f'</div><div class="ast-comment-time ast-col-lg-12" ><span  class="timendate"><a href="{post.url}#comment-'
            f'{c.id}"><time datetime="{site.iso(c.date)}">{site.stamp(c.date)}</time></a></span></div>\t\t\t\t\t'
            f'</header> <!-- .ast-comment-meta -->\n\t\t\t\t</div>\n\t\t\t\t<section class="ast-comment-content '
            f'comment">\n\t\t\t\t\t{ctext(c)}\t\t\t\t\t<div class="ast-comment-edit-reply-wrap">\n\t\t\t\t\t\t<span '
            f'class="ast-reply-link">{reply_link(site, post, c, "comment")}</span>\t\t\t\t\t</div>\n\t\t\t\t\t\t\t\t'
            f"</section> <!-- .ast-comment-content -->\n\t\t\t</div>\n\t\t</div>\n\n\t\t</article><!-- .ast-comment -->"
        )

    comments = (
        ""
        if not n
        else (
            f'<div class="comments-count-wrapper">\n\t\t\t<h3 class="comments-title">\n\t\t\t\t{n} '
            f"thought{'s' * (n != 1)}"
            f' on &ldquo;{T}&rdquo;\t\t\t</h3>\n\t\t</div>\n\n\t\t<ol class="ast-comment-list">'
            f"\n{walk(post, one)}\n\t\t</ol><!-- .ast-comment-list -->\n"
        )
    )
    form = comment_form(site, post, title="Leave a Comment").replace("Cancel reply", "Cancel Reply")
    wid = widgets(
        site,
        lambda i, c, t, x: (
            f'<aside id="{i}" class="widget {c}">'
            + (f'<h2 class="widget-title">{t}</h2><nav aria-label="{t}">{x}</nav>' if t else x)
            + "</aside>"
        ),
    )
    hb = "ast-builder-layout-element ast-flex site-header-focus-item"
    meta = (
        f'<span class="comments-link">\n<a href="{post.url}#{"comments" if n else "respond"}">'
        f'{f"{n} Comment" + "s" * (n != 1) if n else "Leave a Comment"}</a>\n</span> / <span class="ast-terms-link">'
        f'{links(site, post)}</span> / By <span class="posted-by vcard author" itemtype="https://schema.org/Person" '
        f'itemscope="itemscope" itemprop="author">\t\t\t<a title="View all posts by {eh(post.author)}" href="{b}'
        f'author/{post.login}/" rel="author" class="url fn n" itemprop="url">\n\t\t\t\t<span class="author-name" '
        f'itemprop="name">{eh(post.author)}</span>\n\t\t\t</a>\n\t\t</span>\n'
    )
    pnav = "".join(
        f'<div class="nav-{k}"><a title="{tx(p.title)}" href="{p.url}" rel="{r}">{lab}</a></div>'
        for k, r, p, lab in [
            ("previous", "prev", prev, '<span class="ast-left-arrow">&larr;</span> Previous Post'),
            ("next", "next", nxt, 'Next Post <span class="ast-right-arrow">&rarr;</span>'),
        ]
        if p
    )
    return doc(
        head_modern(site, post, ["main.min", "astra-addon"]),
        body_cls(
            post,
            "ast-desktop ast-separate-container ast-right-sidebar astra-4.0.2 ast-blog-single-style-1 ast-single-post "
            "ast-inherit-site-logo-transparent ast-hfb-header ast-normal-title-enabled",
        )
        + '" itemtype="https://schema.org/Blog" itemscope="itemscope',
        [
            duotone_svgs(),
            '<a class="skip-link screen-reader-text" href="#content" '
            'role="link" title="Skip to content">Skip to content</a>',
            f'<div class="hfeed site" id="page">\n\t\t<header class="site-header header-main-layout-1 '
            f"ast-primary-menu-enabled ast-logo-title-inline ast-hide-custom-menu-mobile ast-builder-menu-toggle-icon "
            f'ast-mobile-header-inline" id="masthead" itemtype="https://schema.org/WPHeader" itemscope="itemscope" '
            f'itemid="#masthead">\n\t\t\t<div id="ast-desktop-header" data-toggle-type="dropdown">\n\t\t<div '
            f'class="ast-main-header-wrap main-header-bar-wrap ">\n\t\t<div class="ast-primary-header-bar '
            f'ast-primary-header main-header-bar site-header-focus-item" data-section="section-primary-header-builder">'
            f'\n\t\t\t<div class="site-primary-header-wrap ast-builder-grid-row-container site-header-focus-item '
            f'ast-container" data-section="section-primary-header-builder">\n\t\t\t\t<div class="ast-builder-grid-row '
            f'ast-builder-grid-row-has-sides ast-builder-grid-row-no-center">\n\t\t\t\t\t<div '
            f'class="site-header-primary-section-left site-header-section ast-flex '
            f'site-header-section-left">\n\t\t<div class="{hb}" data-section="title_tagline">\n\t\t<div '
            f'class="site-branding ast-site-identity" itemtype="https://schema.org/Organization" '
            f'itemscope="itemscope">\n\t\t\t\t<div class="ast-site-title-wrap">\n\t\t\t\t\t\t<span class="site-title" '
            f'itemprop="name">\n\t\t\t\t<a href="{b}" rel="home" itemprop="url" '
            f'>\n\t\t\t\t\t{eh(site.name)}\n\t\t\t\t</a>\n\t\t\t</span>\n\t\t\t\t\t\t<p class="site-description" '
            f'itemprop="description">\n\t\t\t\t{tx(site.cfg["tagline"])}\n\t\t\t</p>\n\t\t'
            f"\t\t\t\t\t</div>\t\t\t\t</div>\n\t\t\t<!-- .site-branding -->\n\t\t\t\t\t</div>\n\t\t\t\t\t\t\t\t\t</div>"
            f'\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t<div class="site-header-primary-section-right site-header-section ast-flex '
            f'ast-grid-right-section">\n\t\t\t\t\t\t\t\t\t\t<div class="ast-builder-menu-1 ast-builder-menu ast-flex '
            f'ast-builder-menu-1-focus-item {hb}" data-section="section-hb-menu-1">\n\t\t\t<div class="ast-main-header'
            f'-bar-alignment"><div class="main-header-bar-navigation"><nav class="site-navigation ast-flex-grow-1 '
            f'navigation-accessibility site-header-focus-item" id="primary-site-navigation-desktop" aria-label="Site '
            f'Navigation" itemtype="https://schema.org/SiteNavigationElement" itemscope="itemscope"><div class="main-'
            f'navigation ast-inline-flex">{menu(site, ast_ul, ast_a)}</div></nav></div></div>'
            f"\t\t</div>\n\t\t\t\t\t\t\t\t\t</div>\n\t\t\t\t\t\t</div>\n\t\t\t\t\t</div>\n\t\t\t\t\t</div>\n\t\t\t"
            f'</div>\n\t\t</div> <!-- Main Header Bar Wrap -->\n\t\t</header><!-- #masthead -->\n\t\t<div id="content" '
            f'class="site-content">\n\t\t<div class="ast-container">\n\t<div id="primary" class="content-area '
            f'primary">\n\t\t<main id="main" class="site-main">\n<article class="{pcls(post)} ast-article-single" '
            f'id="post-{post.id}" itemtype="https://schema.org/CreativeWork" itemscope="itemscope">\n<div '
            f'class="ast-post-format- single-layout-1">\n\t<header class="entry-header ">\n\t\t<h1 class="entry-title" '
            f'itemprop="headline">{T}</h1><div class="entry-meta">{meta}</div>\t</header><!-- .entry-header '
            f'-->\n\t<div class="entry-content clear" itemprop="text">\n\t\t{body_html(site, post)}\n\t</div><!-- '
            f'.entry-content .clear -->\n</div>\n</article><!-- #post-## -->\n\n\t<nav class="navigation '
            f'post-navigation" aria-label="Post navigation">\n\t\t<h2 class="screen-reader-text">Post '
            f'navigation</h2>\n\t\t<div class="nav-links">{pnav}</div>\n\t</nav><div '
            f'class="ast-single-related-posts-container"></div>\n<div id="comments" class="comments-area '
            f'comment-form-position-below">\n\n\t{comments}\n\t{form}\n</div><!-- #comments -->\n\t\t</main><!-- #main '
            f'-->\n\t</div><!-- #primary -->\n\t<div class="widget-area secondary" id="secondary" '
            f'itemtype="https://schema.org/WPSideBar" itemscope="itemscope">\n\t<div class="sidebar-main" '
            f'role="complementary">\n{wid}\n'
            f"\t</div><!-- .sidebar-main -->\n</div><!-- #secondary -->\n\t</div> <!-- ast-container -->\n\t</div><!-- "
            f'#content -->\n<footer class="site-footer" id="colophon" itemtype="https://schema.org/WPFooter" itemscope='
            f'"itemscope" itemid="#colophon">\n\t\t\t<div class="site-below-footer-wrap ast-builder-grid-row-container '
            f"site-footer-focus-item ast-builder-grid-row-full ast-builder-grid-row-tablet-full ast-builder-grid-row-"
            f'mobile-full ast-footer-row-stack ast-footer-row-tablet-stack ast-footer-row-mobile-stack" data-section="'
            f'section-below-footer-builder">\n\t<div class="ast-builder-grid-row-container-inner">\n\t\t\t\t\t<div '
            f"class"
            f'="ast-builder-footer-grid-columns site-below-footer-inner-wrap ast-builder-grid-row">\n\t\t\t\t\t\t\t\t'
            f'\t\t\t<div class="site-footer-below-section-1 site-footer-section site-footer-section-1">\n\t\t\t\t<div '
            f'class="ast-builder-layout-element ast-flex site-footer-focus-item ast-footer-copyright" data-section="'
            f'section-footer-builder">\n\t\t\t\t<div class="ast-footer-copyright"><p>Copyright &copy; 2026 '
            f'{eh(site.name)} | Powered by <a href="https://wpastra.com/" rel="nofollow noopener" target="_blank">'
            f"Astra WordPress Theme</a></p>\n</div>\t\t\t</div>\n\t\t\t\t</div>\n\t\t\t\t\t\t\t\t\t\t</div>\n\t\t\t\t\t"
            f"\t\t</div>\n\n\t\t\t</div>\n\t\t\t</footer><!-- #colophon -->\n\t\t\t\t\t</div><!-- #page -->",
        ],
    )


def page_lightning_ja(site: Site, post: Post) -> str:
    """Lightning (Vektor) G3 layout, Japanese: core html5 comments with the ja strings, prev/next cards."""
    n, T, b = len(post.comments), tx(post.title), site.base
    prev, nxt = neighbours(site, post)
    lt_ul, ft_ul = 'id="menu-header" class="menu vk-menu-acc global-nav-list nav"', 'id="menu-footer" class="menu"'

    def strong(s: str) -> str:
        return f'<strong class="global-nav-name">{s}</strong>'

    comments = (
        ""
        if not n
        else (
            f'<h2 class="comments-title">\n&ldquo;{T}&rdquo; への{n}件のフィードバック</h2>\n\n<ol '
            f'class="comment-list">\n'
            f"{walk(post, core_one(site, post, 60, '返信'))}\n</ol><!-- .comment-list -->\n"
        )
    )
    card = "".join(
        f'<div id="post-{p.id}" class="vk_post vk_post-postType-post card card-intext vk_post-col-xs-12 vk_'
        f'post-col-sm-12 vk_post-col-md-6 next-prev-{k}"><a href="{p.url}" class="card-intext-inner"><div class'
        f'="vk_post_imgOuter" style="background-image:url({b}wp-content/themes/lightning/assets/images/no-'
        f'image.png)"><div class="card-img-overlay"><span class="vk_post_imgOuter_singleTermLabel" style="'
        f'color:#fff;background-color:#999999">{lab}</span></div></div><div class="vk_post_body card-body">'
        f'<h5 class="vk_post_title card-title">{tx(p.title)}</h5><div class="vk_post_date card-date published"'
        f">{site.fdate(p.date)}</div></div></a></div>"
        for k, p, lab in [("prev", prev, "前の記事"), ("next", nxt, "次の記事")]
        if p
    )
    wid = widgets(
        site,
        lambda i, c, t, x: (
            f'<aside class="widget {c}" id="{i}">'
            + (f'<h4 class="widget-title sub-section-title">{t}</h4>' if t else "")
            + f"{x}</aside>"
        ),
    )
    crumbs = (
        f'<li class="breadcrumb-list__item breadcrumb-list__item--home"><a href="{b}"><i class="fas fa-fw fa-home">'
        f'</i><span>HOME</span></a></li><li class="breadcrumb-list__item"><a href="{site.cat_url(post.cats[0])}">'
        f'<span>{eh(post.cats[0])}</span></a></li><li class="breadcrumb-list__item"><span>{T}</span></li>'
    )
    return doc(
        head_modern(site, post, ["style", "vk-blocks"], "|"),
        body_cls(post, "sidebar-fix sidebar-fix-priority-top device-pc fa_v6_css"),
        [
            duotone_svgs(),
            '<a class="skip-link screen-reader-text" href="#main">コンテンツへスキップ</a>\n<a class="skip-link '
            'screen-reader-text" href="#vk-mobile-nav">'
            "ナビゲーションに移動</a>",
            f'<header id="site-header" class="site-header site-header--layout--nav-float">\n<div '
            f'id="site-header-container" class="site-header-container container">\n<div class="site-header-logo"><a '
            f'href="{b}"><span>{eh(site.name)}</span></a></div>\n<nav id="global-nav" class="global-nav '
            f'global-nav--layout--float-right">{menu(site, lt_ul, wrap=strong)}</nav>\n</div>\n</header>\n<div '
            f'class="page-header"><div class="page-header-inner container">\n<div '
            f'class="page-header-title">{eh(post.cats[0])}</div></div></div><!-- [ /.page-header ] -->\n<div '
            f'id="breadcrumb" class="breadcrumb"><div class="container"><ol class="breadcrumb-list">{crumbs}</ol></div>'
            f'</div>\n<div class="site-body">\n<div class="site-body-container container">\n<div class="main-section '
            f'main-section--col--two" id="main" role="main">\n<article id="post-{post.id}" class="entry entry-full '
            f'{pcls(post)}">\n<header class="entry-header">\n<h1 class="entry-title">{T}</h1>\n<div '
            f'class="entry-meta"><span class="entry-meta-item entry-meta-item-date"><i class="far '
            f'fa-calendar-alt"></i><span class="published">{site.fdate(post.date)}</span></span><span '
            f'class="entry-meta-item entry-meta-item-updated"><i class="fas fa-history"></i><span '
            f'class="screen-reader-text">最終更新日時 : </span><span class="updated">{site.fdate(post.date)}</span>'
            f'</span><span class="entry-meta-item entry-meta-item-author"><span class="vcard author"><span '
            f'class="fn">{eh(post.author)}</span></span></span></div>\n</header>\n<div '
            f'class="entry-body">\n{body_html(site, post)}\n</div>\n<div class="entry-footer">\n<div '
            f'class="entry-meta-data-list entry-meta-data-list--category"><dl><dt>カテゴリー</dt><dd>'
            f"{links(site, post, 'cat', '')}</dd></dl>"
            f"</div>"
            + (
                f'<div class="entry-meta-data-list entry-meta-data-list--post_tag"><dl><dt>タグ</dt><dd class="'
                f'tagcloud">{links(site, post, "tag", "")}</dd></dl></div>'
                if post.tags
                else ""
            )
            + f'\n</div><!-- [ /.entry-footer ] -->\n</article>\n<div class="vk_posts next-prev">\n{card}\n</div>\n'
            f'<div id="comments" class="comments-area">\n{comments}{comment_form(site, post)}\n</div><!-- #comments '
            f'-->\n</div><!-- [ /.main-section ] -->\n<div class="sub-section sub-section--col--two">\n{wid}\n</div>'
            f'<!-- [ /.sub-section ] -->\n</div>\n</div>\n<footer class="site-footer">\n<nav class="footer-nav"><div '
            f'class="container">{menu(site, ft_ul)}</div></nav>\n<div class="container site-footer-copyright">\n<p>'
            f'Copyright &copy; {eh(site.name)} All Rights Reserved.</p><p>Powered by <a href="https://wordpress.org/">'
            f'WordPress</a> with <a href="https://lightning.vektor-inc.co.jp" target="_blank" title="無料 WordPress '
            f"テーマ"
            f' Lightning">Lightning Theme</a> &amp; <a href="https://ex-unit.nagoya" target="_blank">VK All in One '
            f"Expansion Unit</a></p>\n</div>\n</footer>",
        ],
        lang="ja",
    )
