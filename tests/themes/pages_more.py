"""Single-post pages of two popular classic themes, GeneratePress and Kadence (WordPress 6.4), and shared bits.

GeneratePress prints its comments with the ``generate_comment`` callback (microdata, ``cite.fn``, the reply link
inside the comment content), Kadence with core's html5 walker under an "N Comments" title.
Each ``page_*(site, post)`` returns the whole HTML page of one post.
"""

from __future__ import annotations

from .comments import author_link, avatar, core_one, ctext, reply_link, reply_title, theme_form, walk
from .markup import body_cls, body_html, doc, head_modern, links, menu, neighbours, pcls, svg, widgets
from .model import Comment, Post, Site, eh, tx

WP = "6.4.3"
H3 = '<h3 id="reply-title" class="comment-reply-title">'


def related(site: Site, post: Post, k: int = 3) -> list[Post]:
    """Related posts: the ``k`` posts nearest to ``post`` in date order, newest first."""
    i = site.posts.index(post)
    near = sorted((p for p in site.posts if p is not post), key=lambda p: abs(site.posts.index(p) - i))[:k]
    return sorted(near, key=lambda p: p.date, reverse=True)


def page_generatepress(site: Site, post: Post) -> str:
    """GeneratePress 3.4: generate_comment() callback, right sidebar, post navigation in the entry footer."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)
    t = "\t"

    def one(c: Comment, depth: int, cls: str) -> str:
        return (
            f'<li id="comment-{c.id}" class="{cls}">\n{t * 3}<article class="comment-body" id="div-comment-{c.id}"  '
            f'itemtype="https://schema.org/Comment" itemscope>\n{t * 4}'
            '<footer  class="comment-meta" aria-label="Comment'
            f' meta">\n{t * 5}{avatar(c, 50)}{t * 5}<div class="comment-author-info">\n{t * 6}<div class="comment-'
            f'author vcard" itemprop="author" itemtype="https://schema.org/Person" itemscope>\n{t * 7}<cite itemprop="'
            f'name" class="fn">{author_link(c)}</cite>{t * 6}</div>\n\n{t * 13}<div class="entry-meta comment-metadata'
            f'">\n{t * 8}<a href="{post.url}#comment-{c.id}">{t * 9}<time datetime="{site.iso(c.date)}" itemprop="'
            f'datePublished">\n{t * 10}{site.stamp(c.date)}{t * 9}</time>\n{t * 8}</a>{t * 7}</div>\n{t * 10}</div>\n'
            f'\n{t * 9}</footer>\n\n{t * 4}<div class="comment-content" itemprop="text">\n{t * 5}{ctext(c)}<span '
            f'class="reply">{reply_link(site, post, c)}</span>{t * 4}</div>\n{t * 3}</article>\n'
        )

    title = f"{n} thought{'s' * (n != 1)}"  # GeneratePress 3: _nx( '%1$s thought on …' ), also for one
    comments = (
        f'<h2 class="comments-title">{title} on &ldquo;{T}&rdquo;</h2>\n\n\t\t<ol class="comment-list">\n'
        f"{walk(post, one)}\n\t\t</ol><!-- .comment-list -->\n\n"
        if n
        else ""
    )
    lab = dict(author="Name", email="Email", url="Website")
    fields = "".join(
        f'<label for="{k}" class="screen-reader-text">{v}</label><input placeholder="{v}{"" if k == "url" else " *"}" '
        f'id="{k}" name="{k}" type="{"text" if k == "author" else k}" value="" size="30"'
        f"{'' if k == 'url' else ' required'} />\n"
        for k, v in lab.items()
    )
    form = theme_form(
        site,
        post,
        reply_title(site, post, "Leave a Comment", H3, "</h3>"),
        notes="",
        comment='<p class="comment-form-comment"><label for="comment" class="screen-reader-text">Comment</label>'
        '<textarea id="comment" name="comment" cols="45" rows="8" required></textarea></p>',
        fields=fields,
    )
    wid = widgets(
        site,
        lambda i, c, tt, x: (
            f'<aside id="{i}" class="widget inner-padding {c}">'
            + (f'<h2 class="widget-title">{tt}</h2>' if tt else "")
            + f"{x}</aside>"
        ),
    )
    byline = (
        f'<span class="posted-on"><time class="entry-date published" datetime="{site.iso(post.date)}" itemprop="'
        f'datePublished">{site.fdate(post.date)}</time></span> <span class="byline">by <span class="author vcard" '
        f'itemprop="author" itemtype="https://schema.org/Person" itemscope><a class="url fn n" href="{b}author/'
        f'{post.login}/" title="View all posts by {eh(post.author)}" rel="author" itemprop="url"><span class="author-'
        f'name" itemprop="name">{eh(post.author)}</span></a></span></span> '
    )
    terms = f'<span class="cat-links"><span class="gp-icon icon-categories">{svg("cat")}</span><span class="screen-' + (
        f'reader-text">Categories </span>{links(site, post)}</span> '
    )
    if post.tags:
        terms += (
            f'<span class="tags-links"><span class="gp-icon icon-tags">{svg("tag")}</span><span class="screen-reader-'
            f'text">Tags </span>{links(site, post, "tag")}</span> '
        )
    pnav = "".join(
        f'<div class="nav-{k}"><span class="gp-icon icon-arrow-{d}">{svg(d)}</span><span class="{r}"><a href="'
        f'{p.url}" rel="{r}">{tx(p.title)}</a></span></div>'
        for k, d, r, p in [("previous", "left", "prev", prev), ("next", "right", "next", nxt)]
        if p
    )
    ul = 'id="menu-main" class=" menu sf-menu"'
    return doc(
        head_modern(site, post, ["assets/css/main.min"], wp=WP),
        body_cls(
            post,
            "wp-embed-responsive right-sidebar nav-float-right separate-containers header-aligned-left dropdown-hover",
        )
        + '" itemtype="https://schema.org/Blog" itemscope="',
        [
            '<a class="screen-reader-text skip-link" href="#content" title="Skip to content">Skip to content</a>',
            f'<header class="site-header has-inline-mobile-toggle" id="masthead" aria-label="Site"  itemtype="https://'
            f'schema.org/WPHeader" itemscope>\n\t\t\t<div class="inside-header grid-container">\n\t\t\t\t<div class="'
            f'site-branding">\n\t\t\t\t\t\t<p class="main-title" itemprop="headline">\n\t\t\t\t\t<a href="{b}" rel="'
            f'home">{eh(site.name)}</a>\n\t\t\t\t</p>\n\t\t\t\t\t\t<p class="site-description" itemprop="description">'
            f'{tx(site.cfg["tagline"])}</p>\n\t\t\t\t\t</div>\t\t<nav class="main-navigation sub-menu-right" id="'
            f'site-navigation" aria-label="Primary"  itemtype="https://schema.org/SiteNavigationElement" itemscope>\n'
            f'\t\t\t<div class="inside-navigation grid-container">\n\t\t\t\t<button class="menu-toggle" aria-controls="'
            f'primary-menu" aria-expanded="false">\n\t\t\t\t\t<span class="gp-icon icon-menu-bars">{svg("bars")}'
            f'</span><span class="mobile-menu">Menu</span>\t\t\t\t</button>\n\t\t\t\t<div id="primary-menu" class="'
            f'main-nav">{menu(site, ul, wrap=lambda s: s)}</div>\t\t\t</div>\n\t\t</nav>\n\t\t\t\t\t</div>\n\t\t'
            f"</header>",
            f'\n\t<div class="site grid-container container hfeed" id="page">\n\t\t\t\t<div class="site-content" id="'
            f'content">\n\t\t\t\n\t<div class="content-area" id="primary">\n\t\t<main class="site-main" id="main">\n'
            f'\t\t\t\n<article id="post-{post.id}" class="{pcls(post)}" itemtype="https://schema.org/CreativeWork" '
            f'itemscope>\n\t<div class="inside-article">\n\t\t\t\t\t<header class="entry-header" aria-label="Content">'
            f'\n\t\t\t\t<h1 class="entry-title" itemprop="headline">{T}</h1>\t\t<div class="entry-meta">\n\t\t\t'
            f'{byline}\t\t</div>\n\t\t\t\t\t</header>\n\t\t\t\n\t\t<div class="entry-content" itemprop="text">\n'
            f'{body_html(site, post)}\n\t\t</div>\n\n\t\t\t\t<footer class="entry-meta" aria-label="Entry meta">\n'
            f'\t\t\t{terms}\t\t<nav id="nav-below" class="post-navigation" aria-label="Posts">\n\t\t\t{pnav}\t\t'
            f'</nav>\n\t\t\t\t\t</footer>\n\t\t\t</div>\n</article>\n\n\t\t\t<div class="comments-area">\n\t\t\t\t<div '
            f'id="comments">\n\n\t\t{comments}{form}\n\t</div><!-- #comments -->\n\t\t\t</div>\n\n\t\t\t\t\t</main>\n'
            '\t</div>\n\n\t<div class="widget-area sidebar is-righ'
            't-sidebar" id="right-sidebar">\n\t<div class="inside-'
            f'right-sidebar">\n{wid}\n\t</div>\n</div>\n\n\t</div>'
            '\n</div>\n\n\n<div class="site-footer">\n\t\t\t<footer '
            f'class="site-info" aria-label="Site"  itemtype="https://schema.org/WPFooter" itemscope>\n\t\t\t<div class'
            f'="inside-site-info grid-container">\n\t\t\t\t\t\t\t\t<div class="copyright-bar">\n\t\t\t\t\t<span class="'
            f'copyright">&copy; 2026 {eh(site.name)}</span> &bull; Built with <a href="https://generatepress.com" '
            f'itemprop="url">GeneratePress</a>\t\t\t\t</div>\n\t\t\t</div>\n\t\t</footer>\n\t\t</div>\n',
            f"<script src='{b}wp-includes/js/comment-reply.min.js?ver={WP}' id='comment-reply-js' async "
            f"data-wp-strategy='async'></script>",
        ],
    )


def page_kadence(site: Site, post: Post) -> str:
    """Kadence 1.2: core html5 comments (avatar 60), "N Comments" title, header/footer builder rows, sidebar."""
    n, T, b = len(post.comments), tx(post.title), site.base
    comments = (
        f'<h2 class="comments-title">{"One Comment" if n == 1 else f"{n} Comments"}</h2><!-- .comments-title -->\n'
        f'\t\t<ol class="comment-list">\n\t\t\t{walk(post, core_one(site, post, 60))}\n\t\t</ol><!-- .comment-list '
        f"-->\n\t\t"
        if n
        else ""
    )
    req = ' <span class="required">*</span>'
    ph = dict(author=("Name", "John Doe", "text"), email=("Email", "john@example.com", "email"))
    ph["url"] = ("Website", "https://www.example.com", "url")
    fields = "".join(
        ('<div class="comment-input-wrap has-url-field">' if k == "author" else "")
        + f'<p class="comment-form-{k}"><input aria-label="{lab}" id="{k}" name="{k}" type="{ty}" placeholder="'
        f'{p}" value="" size="30" maxlength="{ml}"'
        + ("" if k == "url" else (' aria-describedby="email-notes"' if k == "email" else ""))
        + ("" if k == "url" else " aria-required='true' required='required'")
        + f' /><label class="float-label" for="{k}">{lab}{"" if k == "url" else req}</label></p>'
        + ("</div>" if k == "url" else "")
        for (k, (lab, p, ty)), ml in zip(ph.items(), (245, 100, 200), strict=True)
    )
    form = theme_form(
        site,
        post,
        reply_title(site, post, "Leave a Reply", H3, "</h3>"),
        comment='<p class="comment-form-comment comment-form-float-label"><textarea id="comment" name="comment" '
        'placeholder="Leave a comment..." cols="45" rows="8" maxlength="65525" aria-required="true" '
        'required="required"></textarea><label class="float-label" for="comment">Comment'
        f"{req}</label></p>",
        fields=fields,
    )
    wid = widgets(
        site,
        lambda i, c, t, x: (
            (f'<section id="{i}" class="widget {c}">' + (f'<h2 class="widget-title">{t}</h2>' if t else "") + x)
            + "</section>"
        ),
    )
    cats = "".join(f'<a href="{site.cat_url(c)}" rel="tag">{eh(c)}</a>' for c in post.cats)
    tags = "".join(
        f'<a href="{site.tag_url(t)}" title="{eh(t)}" class="tag-link tag-item-{site.cfg["tags"].index(t) + 9}" '
        f'rel="tag"><span class="tag-hash">#</span>{eh(t)}</a>'
        for t in post.tags
    )
    prev, nxt = neighbours(site, post)
    pnav = "".join(
        f'<div class="nav-{k}"><a href="{p.url}" rel="{r}"><div class="post-navigation-sub"><small>{lab}</small>'
        f"</div>{tx(p.title)}</a></div>"
        for k, r, p, lab in [
            (
                "previous",
                "prev",
                prev,
                f'<span class="kadence-svg-iconset svg-baseline">{svg("left", 16)}</span>Previous',
            ),
            ("next", "next", nxt, f'Next<span class="kadence-svg-iconset svg-baseline">{svg("right", 16)}</span>'),
        ]
        if p
    )
    kul = 'id="primary-menu" class="menu"'
    row = "site-header-row-container site-header-focus-item site-header-row-layout-standard"
    return doc(
        head_modern(site, post, ["assets/css/global.min", "assets/css/comments.min"], wp=WP),
        body_cls(
            post,
            "wp-embed-responsive footer-on-bottom hide-focus-outline link-style-standard has-sidebar content-title-"
            "style-normal content-width-normal content-style-boxed content-vertical-padding-show non-transparent-"
            "header mobile-non-transparent-header",
        ),
        [
            f'<div id="wrapper" class="site wp-site-blocks">\n\t\t\t<a class="skip-link screen-reader-text scroll-'
            f'ignore" href="#main">Skip to content</a>\n\t\t<header id="masthead" class="site-header" role="banner" '
            f'itemtype="https://schema.org/WPHeader" itemscope>\n\t<div id="main-header" class="site-header-wrap">\n'
            f'\t\t<div class="site-header-inner-wrap">\n\t\t\t<div class="site-header-upper-wrap">\n\t\t\t\t<div class'
            f'="site-header-upper-inner-wrap">\n\t\t\t\t\t<div class="site-main-header-wrap {row}" data-section="'
            f'kadence_customizer_header_main">\n\t<div class="site-header-row-container-inner">\n\t\t\t\t<div class="'
            f'site-container">\n\t\t\t<div class="site-main-header-inner-wrap site-header-row site-header-row-has-sides'
            f' site-header-row-no-center">\n\t\t\t\t\t\t\t<div class="site-header-main-section-left site-header-section'
            f' site-header-section-left">\n\t\t\t\t\t<div class="site-header-item site-header-focus-item" data-section'
            f'="title_tagline">\n\t<div class="site-branding branding-layout-standard"><a class="brand" href="{b}" '
            f'rel="home"><div class="site-title-wrap"><p class="site-title">{eh(site.name)}</p><p class="site-'
            f'description">{tx(site.cfg["tagline"])}</p></div></a></div><!-- .site-branding -->\n\t</div><!-- data-'
            f'section="title_tagline" -->\n\t\t\t\t</div>\n\t\t\t\t\t\t\t<div class="site-header-main-section-right '
            f'site-header-section site-header-section-right">\n\t\t\t\t\t<div class="site-header-item site-header-focus'
            f"-item site-header-item-main-navigation header-navigation-layout-stretch-false header-navigation-layout-"
            f'fill-stretch-false" data-section="kadence_customizer_primary_navigation">\n\t\t<nav id="site-navigation"'
            f' class="main-navigation header-navigation nav--toggle-sub header-navigation-style-standard header-'
            f'navigation-dropdown-animation-none" role="navigation" aria-label="Primary Navigation">\n\t\t\t\t<div '
            f'class="primary-menu-container header-menu-container">\n\t\t\t{menu(site, kul)}'
            f'\t\t</div>\n\t</nav><!-- #site-navigation -->\n\t</div><!-- data-section="primary_navigation" -->\n'
            f"\t\t\t\t</div>\n\t\t\t\t\t</div>\n\t\t</div>\n\t</div>\n</div>\n\t\t\t\t</div>\n\t\t\t</div>\n\t\t"
            f"</div>\n\t</div>\n</header><!-- #masthead -->\n",
            f'\t<div id="inner-wrap" class="wrap hfeed kt-clear">\n\t\t<div id="primary" class="content-area">\n\t<div '
            f'class="content-container site-container">\n\t\t<main id="main" class="site-main" role="main">\n\t\t\t'
            f'<div class="content-wrap">\n\t\t\t\t<article id="post-{post.id}" class="entry content-bg single-entry '
            f'{pcls(post)}">\n\t<div class="entry-content-wrap">\n\t\t<header class="entry-header post-title title-'
            f'align-inherit title-tablet-align-inherit title-mobile-align-inherit">\n\t\t\t<div class="entry-taxonomies'
            f'">\n\t\t\t<span class="category-links term-links category-style-normal">\n\t\t\t\t{cats}\t\t\t</span>\n'
            f'\t\t</div><!-- .entry-taxonomies -->\n\t\t<h1 class="entry-title">{T}</h1><div class="entry-meta entry-'
            f'meta-divider-dot">\n\t<span class="posted-by"><span class="meta-label">By</span><span class="author '
            f'vcard"><a class="url fn n" href="{b}author/{post.login}/">{eh(post.author)}</a></span></span>\t\t\t\t\t'
            f'<span class="posted-on">\n\t\t\t\t\t\t<time class="entry-date published updated" datetime="'
            f'{site.iso(post.date)}">{site.fdate(post.date)}</time>\t\t\t\t\t</span>\n\t\t\t\t\t</div><!-- .entry-meta'
            f' -->\n\t</header><!-- .entry-header -->\n\n\t<div class="entry-content single-content">\n'
            f"{body_html(site, post)}\n\t</div><!-- .entry-content -->\n"
            + (
                f'<footer class="entry-footer">\n\t<div class="entry-tags">\n\t<span class="tags-links">\n\t\t<span '
                f'class="tags-label screen-reader-text">\n\t\t\tPost Tags:\t\t</span>\n\t\t{tags}\t</span>\n</div>'
                f"<!-- .entry-tags -->\n</footer><!-- .entry-footer -->\n"
                if post.tags
                else ""
            )
            + f'\t</div>\n</article><!-- #post-{post.id} -->\n\n\n\t<nav class="navigation post-navigation" aria-label'
            f'="Posts">\n\t\t<h2 class="screen-reader-text">Post navigation</h2>\n\t\t<div class="nav-links">{pnav}'
            f'</div>\n\t</nav>\n\t<div id="comments" class="comments-area">\n\t\t{comments}{form}\n</div><!-- '
            f'#comments -->\n\t\t\t</div>\n\t\t\t\t\t</main><!-- #main -->\n\t\t\t\t<aside id="secondary" role="'
            f'complementary" class="primary-sidebar widget-area sidebar-slug-sidebar-primary sidebar-link-style-'
            f'normal">\n\t<div class="sidebar-inner-wrap">\n\t\t{wid}\n\t</div>\n</aside><!-- #secondary -->\n\t</div>'
            f"\n\t\t</div><!-- #primary -->\n\t\t\t</div><!-- #inner-wrap -->\n",
            f'\t<footer id="colophon" class="site-footer" role="contentinfo">\n\t<div class="site-footer-wrap">\n\t\t'
            f'<div class="site-bottom-footer-wrap site-footer-row-container site-footer-focus-item site-footer-row-'
            f'layout-standard site-footer-row-tablet-layout-default site-footer-row-mobile-layout-default" data-'
            f'section="kadence_customizer_footer_bottom">\n\t<div class="site-footer-row-container-inner">\n\t\t<div '
            f'class="site-container">\n\t\t\t<div class="site-bottom-footer-inner-wrap site-footer-row site-footer-row-'
            f"columns-1 site-footer-row-column-layout-row site-footer-row-tablet-column-layout-default site-footer-"
            f"row-mobile-column-layout-row ft-ro-dir-row ft-ro-collapse-normal ft-ro-t-dir-default ft-ro-m-dir-"
            f'default ft-ro-lstyle-plain">\n\t\t\t\t\t\t\t\t\t<div class="site-footer-bottom-section-1 site-footer-'
            f'section footer-section-inner-items-1">\n\t\t\t\t\t\t<div class="footer-widget-area site-info site-'
            f"footer-focus-item content-align-default content-tablet-align-default content-mobile-align-default "
            f'content-valign-default content-tablet-valign-default content-mobile-valign-default" data-section="'
            f'kadence_customizer_footer_html">\n\t<div class="footer-widget-area-inner site-info-inner">\n\t\t<div '
            f'class="footer-html inner-link-style-normal"><div class="footer-html-inner"><p>&copy; 2026 '
            f'{eh(site.name)} - WordPress Theme by <a href="https://www.kadencewp.com/" rel="nofollow noopener" '
            f'target="_blank">Kadence WP</a></p>\n</div></div>\t</div>\n</div><!-- .site-info -->\n\t\t\t\t\t</div>'
            f"\n\t\t\t\t\t\t\t\t</div>\n\t\t</div>\n\t</div>\n</div>\n\t</div>\n</footer><!-- #colophon -->\n\n"
            f"\t\t\t</div><!-- #wrapper -->",
        ],
    )
