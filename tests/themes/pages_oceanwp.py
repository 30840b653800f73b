"""The single-post page of the classic theme OceanWP (WordPress 6.4).

OceanWP prints its comments with the ``oceanwp_comment`` callback: the ``li`` is ``.comment-container``, the
comment classes sit on the ``article``, the author is a ``span.comment-link``, the date a bare ``span`` (the date
format, no time; "j M Y" only on RTL sites) followed by the reply link, the text sits in
``div.comment-entry > div.comment-content``.
"""

from __future__ import annotations

from .comments import author_link, avatar, ctext, reply_link, reply_title, theme_form, walk
from .markup import body_cls, body_html, doc, duotone_svgs, head_modern, links, menu, neighbours, widgets
from .model import Comment, Post, Site, eh, tx
from .pages_more import H3, WP, related


def page_oceanwp(site: Site, post: Post) -> str:
    """OceanWP 4.1: oceanwp_comment() callback, "Blog" page header with breadcrumbs, related posts, sidebar."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)

    def one(c: Comment, depth: int, cls: str) -> str:
        cls = cls.replace(" parent", "") + " comment-body"  # comment_class( 'comment-body' ): no "parent"
        return (
            f'\n\t\t\t<li id="comment-{c.id}" class="comment-container">\n\n\t\t\t\t<article class="{cls}">\n\n\t\t\t'
            f'\t\t{avatar(c, 150)}\n\t\t\t\t\t<div class="comment-content">\n\t\t\t\t\t\t<div class="comment-author">\n'
            f'\t\t\t\t\t\t\t<span class="comment-link">{author_link(c)} </span>\n\n\t\t\t\t\t\t\t<span class="comment-'
            'meta commentmetadata">\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t<sp'
            f'an class="comment-date">{site.fdate(c.date)}</span>\n\t\t'
            f"\t\t\t\t\t\t\t\t\t\t\t\t\t\n\t\t\t\t\t\t\t\t{reply_link(site, post, c, 'comment')}\n\t\t\t\t\t\t\t\t\n"
            "\t\t\t\t\t\t\t\t\t\t\t\t\t\t</span>\n\t\t\t\t\t\t</di"
            'v>\n\n\t\t\t\t\t\t<div class="clr"></div>\n\n\t\t\t\t'
            f'\t\t<div class="comment-entry">\n\t\t\t\t\t\t\t\n\t\t\t\t\t\t\t<div class="comment-content">\n\t\t\t\t\t'
            f"\t\t\t{ctext(c)}\t\t\t\t\t\t\t</div>\n\t\t\t\t\t\t</div>\n\t\t\t\t\t</div>\n\n\t\t\t\t</article><!-- "
            f"#comment-## -->\n\n\t\t\t"
        )

    title = "This Post Has One Comment" if n == 1 else f"This Post Has {n} Comments"
    comments = (
        f'\n\t\t<h3 class="theme-heading comments-title">\n\t\t\t<span class="text">{title}</span>\n\t\t</h3>\n\n\t\t'
        f'<ol class="comment-list">\n\t\t\t{walk(post, one)}\n\t\t</ol><!-- .comment-list -->\n\n\t\t\n\t'
        if n
        else ""
    )
    aria = ' required aria-required="true"'
    lab = dict(author="Name (required)", email="Email (required)", url="Website")
    sr = dict(author="Enter your name or username to comment", email="Enter your email address to comment")
    sr["url"] = "Enter your website URL (optional)"
    fields = "".join(
        f'<div class="comment-form-{k}"><label for="{k}" class="screen-reader-text">{sr[k]}</label><input type="text" '
        f'name="{k}" id="{k}" value="" placeholder="{v}" size="22" tabindex="0"{"" if k == "url" else aria} '
        f'class="input-{"name" if k == "author" else "website" if k == "url" else k}" /></div>\n'
        for k, v in lab.items()
    )
    form = theme_form(
        site,
        post,
        reply_title(site, post, "Leave a Reply", H3, "</h3>"),
        notes="",
        comment='<div class="comment-textarea"><label for="comment" class="screen-reader-text">Comment</label>'
        '<textarea name="comment" id="comment" cols="39" rows="4" tabindex="0" class="textarea-comment" required '
        'aria-required="true" placeholder="Your comment here..."></textarea></div>',
        fields=fields,
        submit=("form-submit", "comment-submit", "submit", None),
    )
    wid = widgets(
        site,
        lambda i, c, t, x: (
            (f'<div id="{i}" class="sidebar-box {c} clr">' + (f'<h4 class="widget-title">{t}</h4>' if t else "") + x)
            + "</div>"
        ),
    )

    def icon(name: str) -> str:
        return f'<i class=" {name}" aria-hidden="true" role="img"></i>'

    crumbs = "".join(
        f'<li class="trail-item{cl}" itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">'
        f'<a href="{u}"{rel} itemprop="item"><span itemprop="name">{lab}</span></a>'
        + ('<span class="breadcrumb-sep">></span>' if i < 2 else "")
        + f'<meta itemprop="position" content="{i + 1}" /></li>'
        for i, (cl, u, rel, lab) in enumerate(
            [
                (
                    " trail-begin",
                    b,
                    ' rel="home" aria-label="Home"',
                    f'{icon("icon-home")}<span class="breadcrumb-home has-icon">Home</span>',
                ),
                ("", site.cat_url(post.cats[0]), "", eh(post.cats[0])),
                (" trail-end", post.url, "", T),
            ]
        )
    )
    sep = '<span class="owp-sep">%s</span>'
    cnt = f"{n} Comment{'s' * (n != 1)}" if n else "0 Comments"
    meta = (
        f'<li class="meta-author" itemprop="name"><span class="screen-reader-text">Post author:</span>'
        f'{icon("icon-user")}<a href="{b}author/{post.login}/" title="Posts by {eh(post.author)}" rel="author"  '
        f'itemprop="author" itemscope="itemscope" itemtype="https://schema.org/Person">{eh(post.author)}</a></li>\n'
        f'<li class="meta-date" itemprop="datePublished"><span class="screen-reader-text">Post published:</span>'
        f'{icon("icon-clock")}{site.fdate(post.date)}</li>\n<li class="meta-cat"><span class="screen-reader-text">'
        f"Post category:</span>{icon('icon-folder')}{links(site, post, 'cat', ' ' + sep % '/' + ' ')}"
        f'</li>\n<li class="meta-comments"><span class="screen-reader-text">Post comments:</span>{icon("icon-bubble")}'
        f'<a href="{post.url}#{"comments" if n else "respond"}" class="comments-link" >{cnt}</a></li>\n'
    )
    tags = (
        f'<div class="post-tags clr">\n<span class="owp-tag-texts">Tags</span>: '
        f"{links(site, post, 'tag', sep % ',' + ' ')}</div>\n"
        if post.tags
        else ""
    )
    pnav = "".join(
        f'<div class="nav-{k}"><a href="{p.url}" rel="{r}"><span class="title">{icon(f"fas fa-long-arrow-alt-{d}")} '
        f'{lab} Post</span><span class="post-title">{tx(p.title)}</span></a></div>'
        for k, r, d, lab, p in [("previous", "prev", "left", "Previous", prev), ("next", "next", "right", "Next", nxt)]
        if p
    )
    rel = "".join(
        f'\n\t\t\t<article class="related-post clr col span_1_of_3 col-{i + 1} post-{p.id} post type-post status-'
        f'publish format-standard hentry">\n\t\t\t\t<h3 class="related-post-title">\n\t\t\t\t\t<a href="{p.url}" '
        f'rel="bookmark">{tx(p.title)}</a>\n\t\t\t\t</h3><!-- .related-post-title -->\n\t\t\t\t<time class="published"'
        f' datetime="{site.iso(p.date)}">{icon("icon-clock")}{site.fdate(p.date)}</time>\n\t\t\t</article>'
        for i, p in enumerate(related(site, post))
    )
    ul = 'id="menu-main" class="main-menu dropdown-menu sf-menu"'
    has = " has-comments" if n else ""
    return doc(
        head_modern(site, post, ["assets/css/style.min", "assets/fonts/fontawesome/css/all.min"], wp=WP),
        body_cls(
            post,
            "wp-embed-responsive oceanwp-theme dropdown-mobile default-breakpoint has-sidebar content-right-sidebar "
            "has-breadcrumbs",
        )
        + '" itemscope="itemscope" itemtype="https://schema.org/Article',
        [
            duotone_svgs(),
            '<div id="outer-wrap" class="site clr">\n\t<a class="skip-link screen-reader-text" href="#main">Skip to '
            f'content</a>\n\t<div id="wrap" class="clr">\n\t\t<header id="site-header" class="minimal-header clr" '
            f'data-height="74" itemscope="itemscope" itemtype="https://schema.org/WPHeader" role="banner">\n\t\t\t<div '
            f'id="site-header-inner" class="clr container">\n\t\t\t\t<div id="site-logo" class="clr" itemscope '
            f'itemtype="https://schema.org/Brand" >\n\t\t\t\t\t<div id="site-logo-inner" class="clr">\n\t\t\t\t\t\t<a '
            f'href="{b}" rel="home" class="site-title site-logo-text" >{eh(site.name)}</a>\n\t\t\t\t\t</div>\n\t\t\t\t'
            f'</div>\n\t\t\t\t<div id="site-navigation-wrap" class="clr">\n\t\t\t\t\t<nav id="site-navigation" class="'
            f'navigation main-navigation clr" itemscope="itemscope" itemtype="https://schema.org/SiteNavigationElement"'
            f' role="navigation" >\n\t\t\t\t\t\t'
            + menu(site, ul, ' class="menu-link"', lambda s: f'<span class="text-wrap">{s}</span>')
            + "\n\t\t\t\t\t</nav>\n\t\t\t\t</div>\n\t\t\t</div>\n\t"
            '\t</header>\n\t\t<main id="main" class="site-main clr"'
            ' role="main">\n\t\t\t<header class="page-header">\n\t'
            '\t\t\t<div class="container clr page-header-inner">\n'
            f'\t\t\t\t\t<h1 class="page-header-title clr" itemprop="headline">Blog</h1>\n\t\t\t\t\t<nav role="'
            f'navigation" aria-label="Breadcrumbs" class="site-breadcrumbs clr position-"><ol class="trail-items" '
            f'itemscope itemtype="http://schema.org/BreadcrumbList"><meta name="numberOfItems" content="3" /><meta '
            f'name="itemListOrder" content="Ascending" />{crumbs}</ol></nav>\n\t\t\t\t</div>\n\t\t\t</header>\n\t\t\t'
            f'<div id="content-wrap" class="container clr">\n\t\t\t\t<div id="primary" class="content-area clr">\n\t\t'
            f'\t\t\t<div id="content" class="site-content clr">\n\t\t\t\t\t\t<article id="post-{post.id}">\n\t\t\t\t\t'
            f'\t\t<header class="entry-header clr">\n\t\t\t\t\t\t\t\t<h2 class="single-post-title entry-title" '
            f'itemprop="headline">{T}</h2><!-- .single-post-title -->\n\t\t\t\t\t\t\t</header><!-- .entry-header -->\n'
            f'\t\t\t\t\t\t\t<ul class="meta ospm-default clr">\n{meta}\t\t\t\t\t\t\t</ul>\n\t\t\t\t\t\t\t<div class="'
            f'entry-content clr" itemprop="text">\n{body_html(site, post)}\n\t\t\t\t\t\t\t</div><!-- .entry -->\n'
            f'{tags}\t\t\t\t\t\t\t<nav class="navigation post-navigation" aria-label="Read more articles">\n\t\t\t\t'
            f'\t\t\t\t<h2 class="screen-reader-text">Read more articles</h2>\n\t\t\t\t\t\t\t\t<div class="nav-links">'
            f'{pnav}</div>\n\t\t\t\t\t\t\t</nav>\n\t\t\t\t\t\t\t<section id="related-posts" class="clr">\n\t\t\t\t\t'
            f'\t\t\t<h3 class="theme-heading related-posts-title">\n\t\t\t\t\t\t\t\t\t<span class="text">You Might '
            f'Also Like</span>\n\t\t\t\t\t\t\t\t</h3>\n\t\t\t\t\t\t\t\t<div class="oceanwp-row clr">{rel}\n\t\t\t\t'
            f'\t\t\t\t</div>\n\t\t\t\t\t\t\t</section><!-- .related-posts -->\n<section id="comments" class="comments-'
            f'area clr{has}">\n\n\t{comments}{form}\n\n</section><!-- #comments -->\n\t\t\t\t\t\t</article>\n\t\t\t\t'
            f'\t</div><!-- #content -->\n\t\t\t\t</div><!-- #primary -->\n\t\t\t\t<aside id="right-sidebar" class="'
            f'sidebar-container widget-area sidebar-primary" itemscope="itemscope" itemtype="https://schema.org/'
            f'WPSideBar" role="complementary" aria-label="Primary Sidebar">\n\t\t\t\t\t<div id="right-sidebar-inner" '
            f'class="clr">\n{wid}\n\t\t\t\t\t</div>\n\t\t\t\t</aside><!-- #right-sidebar -->\n\t\t\t</div><!-- '
            f'#content-wrap -->\n\t\t</main><!-- #main -->\n\t\t<footer id="footer" class="site-footer" itemscope="'
            f'itemscope" itemtype="https://schema.org/WPFooter" role="contentinfo">\n\t\t\t<div id="footer-inner" '
            f'class="clr">\n\t\t\t\t<div id="footer-bottom" class="clr no-footer-nav">\n\t\t\t\t\t<div id="footer-'
            f'bottom-inner" class="container clr">\n\t\t\t\t\t\t<div id="copyright" class="clr" role="contentinfo">'
            f"Copyright 2026 - WordPress Theme by OceanWP</div>\n\t\t\t\t\t</div>\n\t\t\t\t</div>\n\t\t\t</div>\n\t\t"
            f'</footer><!-- #footer -->\n\t</div><!-- #wrap -->\n</div><!-- #outer-wrap -->\n<a aria-label="Scroll to '
            f'the top of the page" href="#" id="scroll-top" class="scroll-top-right">{icon("fa fa-angle-up")}</a>',
        ],
    )
