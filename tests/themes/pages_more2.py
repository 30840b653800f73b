"""Single-post pages of Neve and Blocksy (WordPress 6.4), and helpers shared by the other extra themes.

Neve prints comments with ``Comments::comment_list_callback`` (``article.nv-comment-article``); the callback closes
its own ``<li>`` before the replies' ``<ol class="children">``, so the walker's ``</li>`` that follows is a stray
one, as on real Neve pages.  Blocksy uses ``blocksy_custom_comment_template`` (``ct-comment-inner``, date as
"March 3, 2026 / 4:20 pm", no ``<time>``) in ``div.ct-comments``, between the post and the related posts.
Each ``page_*(site, post)`` returns the whole HTML page of one post.
"""

from __future__ import annotations

from .comments import avatar, comment_form, ctext, form_strings, reply_link, walk
from .markup import body_cls, body_html, doc, head_modern, menu, neighbours, pcls, widgets
from .model import Comment, Post, Site, eh, slugify, tx
from .pages_classic_defaults import author_link64
from .pages_more import WP, related


def cc(cls: str, extra: str = "") -> str:
    """comment_class( extra ) of a theme callback: core's "parent" only comes from core's own callbacks."""
    base = cls[: -len(" parent")] if cls.endswith(" parent") else cls
    return f"{base} {extra}" if extra else base


def head(site: Site, post: Post, slug: str, styles: list[str], sep: str = "&#8211;") -> str:
    """head_modern() with the theme's real folder name in the stylesheet URLs."""
    return head_modern(site, post, styles, sep, wp=WP).replace(f"themes/{site.theme}/", f"themes/{slug}/")


def sidebar(site: Site, tag: str, cls: str, box: str = "div", extra: str = "widget") -> str:
    """The core widgets in ``<box id class="extra ...">`` with ``<tag class="cls">`` titles."""
    return widgets(
        site,
        lambda i, c, t, x: (
            f'<{box} id="{i}" class="{extra} {c}">'
            + (f'<{tag} class="{cls}">{t}</{tag}>' if t else "")
            + x
            + f"</{box}>"
        ),
    )


def page_neve(site: Site, post: Post) -> str:
    """Neve 3.7: header/footer builder rows, nv-meta-list byline, tags, post navigation, right sidebar."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)
    t = "\t"

    def one(c: Comment, depth: int, cls: str) -> str:
        return (
            f'\n{t * 4}<li class="{cc(cls)}" >\n{t * 5}<article id="comment-item-{c.id}" class="nv-comment-article">\n'
            f"{t * 6}<div class=\"nv-comment-header\">\n{t * 7}<div class='nv-comment-avatar'>\n{t * 8}{avatar(c, 50)}"
            f'{t * 7}</div>\n{t * 7}<div class="comment-author vcard">\n{t * 8}<span class="fn author">'
            f'{author_link64(c, site)}</span>\n{t * 8}<a href="{post.url}#comment-{c.id}">\n{t * 9}<time class="entry'
            "-date "
            f'published"\n{t * 12}datetime="{site.iso(c.date)}"\n{t * 12}content="{site.iso(c.date)[:10]}">\n'
            f"{t * 10}{site.stamp(c.date)}{t * 9}</time>\n{t * 8}</a>\n{t * 7}</div>\n{t * 6}</div>\n{t * 6}<div "
            f'class="nv-comment-content comment">\n{t * 7}{ctext(c)}{t * 7}<div class="edit-reply">\n{t * 8}'
            f'<span class="nv-reply-link">{reply_link(site, post, c, "comment")}</span>{t * 7}</div>\n{t * 6}'
            f"</div>\n{t * 5}</article>\n{t * 4}</li>\n{t * 4}"
        )

    comments = (
        f'<div class="nv-comments-title-wrap">\n\t\t\t\t<h2 class="comments-title">\n\t\t\t\t\t{n} thought'
        f'{"s" * (n != 1)} on &ldquo;{T}&rdquo;\t\t\t\t</h2>\n\t\t\t</div>\n\n\t\t\t<ol class="nv-comments-list">\n'
        f"{walk(post, one)}\n\t\t\t</ol>\n\n\t\t\t"
        if n
        else ""
    )
    d = site.local(post.date)
    meta = (
        f'<ul class="nv-meta-list"><li  class="meta author vcard "><span class="author-name fn">by <a href="{b}author/'
        f'{post.login}/" title="Posts by {eh(post.author)}" rel="author">{eh(post.author)}</a></span></li><li class="'
        f'meta date posted-on {"" if n else "last"}"><time class="entry-date published" datetime="'
        f'{site.iso(post.date)}"'
        f' content="{d:%Y-%m-%d}">{site.fdate(post.date)}</time></li>'
        + (
            f'<li class="meta comments last"><a href="{post.url}#comments">{n} Comment{"s" * (n != 1)}</a></li>'
            if n
            else ""
        )
        + "</ul>"
    )
    tags = "".join(
        f'<a href={site.tag_url(g)} title="{eh(g)}" class={slugify(g)} rel="tag">{eh(g)}</a>' for g in post.tags
    )
    pnav = "".join(
        f'<div class="{k}"><a href="{p.url}" rel="{r}"><span class="nav-direction">{k}</span><span>{tx(p.title)}'
        f"</span></a></div>"
        for k, r, p in [("previous", "prev", prev), ("next", "next", nxt)]
        if p
    )
    ul = 'id="nv-primary-navigation-main" class="primary-menu-ul nav-ul menu-desktop"'
    row = 'class="hfg-slot {0}"><div class="builder-item {1}"><div class="item--inner {2}"'
    return doc(
        head(site, post, "neve", ["style-main-new.min"]),
        body_cls(post, "wp-embed-responsive nv-blog-grid nv-sidebar-right menu_sidebar_slide_left"),
        [
            f'<div class="wrapper">\n\t\n\t<header class="header"  >\n\t\t<a class="neve-skip-link show-on-focus" '
            'href="#content" >\n\t\t\tSkip to content\t\t</a>\n\t\t<div id="header-grid"  class="hfg_header site-hea'
            'der">'
            f'\n\t<nav class="header--row header-main hide-on-mobile hide-on-tablet layout-full-contained nv-navbar '
            'header--row"\n\tdata-row-id="main" data-show-on="desktop">\n\n\t<div class="header--row-inner header-ma'
            "in-"
            f'inner">\n\t\t<div class="container">\n\t\t\t<div\n\t\t\t\tclass="row row--wrapper"\n\t\t\t\tdata-section='
            f'"hfg_header_layout_main" >\n\t\t\t\t<div {row.format("left", "desktop-left", "builder-item--logo")} data-'
            'section="title_tagline" data-item-id="logo">\n\t\t\n<div class="site-logo">\n\t<a class="brand" href="'
            f'{b}" '
            f'title="&larr; {eh(site.name)}"\n\t\t\taria-label="{eh(site.name)} {tx(site.cfg["tagline"])}" rel="home">'
            f'<div class="nv-title-tagline-wrap"><p class="site-title">{eh(site.name)}</p><small>'
            f"{tx(site.cfg['tagline'])}</small></div></a></div>\n\t</div>\n\n</div></div><div "
            f'{row.format("right", "has-nav", "builder-item--primary-menu has_menu")} data-section="header_menu_prima'
            'ry" '
            f'data-item-id="primary-menu">\n\t\t<div class="nv-nav-wrap">\n\t<div role="navigation" class="nav-menu-'
            f'primary"\n\t\t\taria-label="Primary Menu">\n\n\t\t{menu(site, ul, wrap=lambda s: s)}\t</div>\n</div>\n\n'
            f"\t</div>\n\n</div></div>\t\t\t</div>\n\t\t</div>\n\t</div>\n</nav>\n\n</div>\n\t</header>\n\n\t\n\n\t\n\t"
            '<main id="content" class="neve-main">\n\n\t<div class="container single-post-container">\n\t\t<div clas'
            's="'
            f'row">\n\t\t\t\t\t\t<article id="post-{post.id}"\n\t\t\t\t\tclass="nv-single-post-wrap col {pcls(post)}"'
            ">\n"
            f'\t\t\t\t<div class="entry-header" ><div class="nv-title-meta-wrap"><h1 class="title entry-title">{T}</h1>'
            f'{meta}</div></div><div class="nv-content-wrap entry-content">{body_html(site, post)}</div>'
            + (f'<div class="nv-tags-list"><span>Tags:</span>{tags} </div> ' if tags else "")
            + f'<div class="nv-post-navigation">{pnav}</div>\n<div id="comments" class="comments-area">\n\t{comments}'
            f'{comment_form(site, post, "h2")}\n</div>\n\t\t\t</article>\n\t\t\t<div class="nv-sidebar-wrap col-sm-12 '
            f'nv-right blog-sidebar " >\n\t\t<aside id="secondary" role="complementary">\n\t\t\n\t\t'
            f"{sidebar(site, 'p', 'widget-title')}\n\t\t\t\t\t</aside>\n\t</div>\n\t\t\t</div>\n\t</div>\n\n</main>"
            f'<!--/.neve-main-->\n\n<footer class="site-footer" id="site-footer"  >\n\t<div class="hfg_footer">\n\t\t'
            '<div class="footer--row footer-bottom layout-full-contained"\n\tid="cb-row--footer-bottom"\n\tdata-row-'
            'id="'
            f'bottom" data-show-on="desktop">\n\t<div\n\t\tclass="footer--row-inner footer-bottom-inner footer-content-'
            'wrap">\n\t\t<div class="container">\n\t\t\t<div\n\t\t\t\tclass="hfg-grid nv-footer-content hfg-grid-bot'
            "tom "
            'row--wrapper row "\n\t\t\t\tdata-section="hfg_footer_layout_bottom" >\n\t\t\t\t<div class="hfg-slot lef'
            't">'
            '<div class="builder-item cr"><div class="item--inner"><div class="component-wrap">\n\t<div>\n\t\t<p><a '
            "href"
            '="https://themeisle.com/themes/neve/" rel="nofollow">Neve</a> | Powered by <a href="https://wordpress.o'
            'rg"'
            ' rel="nofollow">WordPress</a></p>\t\t</div>\n</div>\n</div></div></div>\t\t\t</div>\n\t\t</div>\n\t</di'
            "v>\n"
            f"</div>\n\n\t</div>\n</footer>\n\n</div><!--/.wrapper-->",
            f"<script src='{b}wp-includes/js/comment-reply.min.js?ver={WP}' id='comment-reply-js' async "
            f"data-wp-strategy='async'></script>",
        ],
    )


def page_blocksy(site: Site, post: Post) -> str:
    """Blocksy 2.0: ct-header rows, hero entry header, tags, post navigation, sidebar, comments, related posts."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)
    t = "\t"

    def one(c: Comment, depth: int, cls: str) -> str:
        src = avatar(c, 100).split("src='")[1].split("'")[0].replace("&#038;", "&amp;")
        return (
            f'\n\t<li id="comment-{c.id}" class="{cc(cls, "ct-has-avatar" + (" ct-author-comment" if c.mine else ""))}'
            f'">\n{t * 2}<article class="ct-comment-inner" id="ct-comment-inner-{c.id}">\n\n{t * 3}<footer class="ct-'
            f'comment-meta">\n{t * 4}<figure class="ct-media-container"><img src="{src}" width="100" height="100" '
            f'alt="{eh(c.author)}" loading="lazy" style="aspect-ratio: 1/1;"></figure>\n{t * 4}<h4 class="ct-comment-'
            f'author">\n{t * 5}{author_link64(c, site)}{t * 4}</h4>\n\n{t * 4}<div class="ct-comment-meta-data">\n'
            f"{t * 5}<a href"
            f'="{post.url}#comment-{c.id}">\n{t * 6}{site.fdate(c.date)} / {site.ftime(c.date)}{t * 5}</a>\n\n{t * 5}\n'
            f"\n{t * 5}{reply_link(site, post, c, 'ct-comment-inner')}{t * 4}</div>\n{t * 3}</footer>\n\n\n{t * 3}<div "
            f'class="ct-comment-content entry-content">\n{t * 4}{ctext(c)}\n{t * 4}\t\t\t</div>\n\n\t\t</article>\n\t'
        )

    L = form_strings(site)
    fields = "".join(
        f'<p class="comment-form-field-input-{k}">\n\t\t\t<label for="{k}">{lab}{req}</label>\n\t\t\t<input id="{k}" '
        f'name="{k}" type="text" value="" size="30"{" required=" + chr(39) + "required" + chr(39) if req else ""}>\n'
        f"\t\t\t</p>"
        for k, lab, req in [
            ("author", "Name", ' <b class="required">&nbsp;*</b>'),
            ("email", "Email", ' <b class="required">&nbsp;*</b>'),
            ("url", "Website", ""),
        ]
    )
    form = (
        '<div id="respond" class="comment-respond">\n\t\t<h2 id="reply-title" class="comment-reply-title">Leave a Re'
        "ply"
        f' <span class="ct-cancel-reply"><a rel="nofollow" id="cancel-comment-reply-link" href="'
        f'{post.url.replace(b, "/")}#respond" style="display:none;">Cancel Reply</a></span></h2><form action="{b}wp-'
        f'comments-post.php" method="post" id="commentform" class="comment-form has-website-field has-labels-inside">'
        f'<p class="comment-notes"><span id="email-notes">{L[2]}</span> <span class="required-field-message">{L[3]} '
        f'<span class="required">*</span></span></p>{fields}<p class="comment-form-field-textarea">\n\t\t\t<label for="'
        f'comment">Add Comment</label>\n\t\t\t<textarea id="comment" name="comment" cols="45" rows="8" required="'
        'required"></textarea>\n\t\t</p><p class="comment-form-cookies-consent"><input id="wp-comment-cookies-consen'
        't" '
        f'name="wp-comment-cookies-consent" type="checkbox" value="yes"><label for="wp-comment-cookies-consent">{L[8]}'
        '</label></p><p class="form-submit"><button type="submit" name="submit" id="submit" class="submit" value="Po'
        "st "
        f"Comment\">Post Comment</button> <input type='hidden' name='comment_post_ID' value='{post.id}' id='comment_"
        f"post_ID' />\n<input type='hidden' name='comment_parent' id='comment_parent' value='0' />\n</p></form>\t</div>"
        f"<!-- #respond -->\n\t"
    )
    comments = (
        f'\n\t\t<h3 class="ct-comments-title">\n\t\t\t{"One comment" if n == 1 else f"{n} Comments"}\t\t</h3>\n\t\n\t'
        "\n\t"
        f'\t<ol class="ct-comment-list">\n\t\t\t{walk(post, one, end="</li>")}\n\t\t</ol>\n\n\t\t\n\t\t\n\t'
        if n
        else ""
    )

    def date_li(p: Post) -> str:
        return (
            f'<li class="meta-date" itemprop="datePublished"><time class="ct-meta-element-date" datetime="'
            f'{site.iso(p.date)}">{site.fdate(p.date)}</time></li>'
        )

    terms = "".join(
        f'<a href="{site.cat_url(c)}" rel="tag" class="ct-term-{site.cfg["cats"].index(c) + 3}">{eh(c)}</a>'
        for c in post.cats
    )
    tags = "".join(f'<a href="{site.tag_url(g)}" rel="tag"><span>#</span>{eh(g)}</a>' for g in post.tags)
    fig = '<figure class="ct-media-container  "><svg width="20px" height="15px" viewBox="0 0 20 15"></svg></figure>'
    pnav = "".join(
        (
            f'<a href="{p.url}" class="nav-item-{k}">'
            + (fig if k == "prev" else "")
            + f'<div class="item-content"><span class="item-label">{lab} <span>Post</span></span><span class="item-'
            f'title ct-post-title">{tx(p.title)}</span></div>' + (fig if k == "next" else "") + "</a>"
        )
        if p
        else f'<div class="nav-item-{k}"></div>'
        for k, lab, p in [("prev", "Previous", prev), ("next", "Next", nxt)]
    )
    rel = "".join(
        f'<div itemscope="itemscope" itemtype="https://schema.org/CreativeWork"><article><a class="ct-media-container" '
        f'href="{p.url}" aria-label="{tx(p.title)}"><img width="768" height="512" src="{b}wp-content/uploads/related-'
        f'{p.id}-768x512.jpg" alt="" loading="lazy" style="aspect-ratio: 16/9;"></a><h4 class="related-entry-title" '
        f'itemprop="name"><a href="{p.url}" itemprop="url" rel="bookmark">{tx(p.title)}</a></h4><ul class="entry-meta" '
        f'data-type="simple:slash" >{date_li(p)}</ul></article></div>'
        for p in related(site, post, 3)
    )
    ul = 'id="menu-main" class="menu"'
    return doc(
        head(site, post, "blocksy", ["static/bundle/main.min"]),
        body_cls(post, "wp-embed-responsive") + '" data-link="type-2" data-prefix="single_blog_post" data-header='
        '"type-1:sticky" data-footer="type-1" itemscope="itemscope" itemtype="https://schema.org/Blog',
        [
            '<a class="skip-link show-on-focus" href="#main">\n\tSkip to content</a>\n\n<div class="ct-drawer-canvas" '
            'data-location="start"><div id="offcanvas" class="ct-panel ct-header" data-behaviour="right-side" ></div>'
            f'</div>\n<div id="main-container">\n\t<header id="header" class="ct-header" data-id="type-1" itemscope="" '
            'itemtype="https://schema.org/WPHeader"><div data-device="desktop"><div data-row="middle" data-column-se'
            't="2"'
            '><div class="ct-container"><div data-column="start" data-placements="1"><div data-items="primary">\n<di'
            "v\t"
            'class="site-branding"\n\tdata-id="logo"\t\titemscope="itemscope" itemtype="https://schema.org/Organizat'
            'ion">'
            '\n\n\t\n\t\t\t<div class="site-title-container">\n\t\t\t\t\t\t\t<span class="site-title " itemprop="nam'
            'e">'
            f'<a href="{b}" rel="home" itemprop="url">{eh(site.name)}</a></span>\n\t\t\t\t\t\t\t<p class="site-'
            f'description " itemprop="description">{tx(site.cfg["tagline"])}</p>\n\t\t\t\t\t</div>\n\t  </div>\n\n</d'
            "iv>"
            '</div><div data-column="end" data-placements="1"><div data-items="primary">\n<nav\n\tid="header-menu-1"'
            "\n\t"
            'class="header-menu-1"\n\tdata-id="menu" data-interaction="hover"\tdata-menu="type-1"\n\tdata-dropdown="'
            "type-"
            f'1:simple"\t\tdata-responsive="no"\titemscope="" itemtype="https://schema.org/SiteNavigationElement"\t'
            f'aria-label="Header Menu">\n\n\t{menu(site, ul)}</nav>\n\n</div></div></div></div></div></header>\n\t<ma'
            "in "
            'id="main" class="site-main hfeed" itemscope="itemscope" itemtype="https://schema.org/CreativeWork">\n\n'
            "\t\n"
            f'\t<div\n\t\tclass="ct-container"\n\t\tdata-sidebar="right"\t\t\t\tdata-vertical-spacing="top:bottom">\n\n'
            f'\t\t\n\t\t\n\t<article\n\t\tid="post-{post.id}"\n\t\tclass="{pcls(post)}">\n\n\t\t\n<div class="hero-'
            'section is-width-constrained" data-type="type-1">\n\t\t\t<header class="entry-header">\n\t\t\t<h1 class'
            '="page-'
            f'title" title="{eh(post.title)}" itemprop="headline">{T}</h1><ul class="entry-meta" data-type="simple:sl'
            'ash" '
            '><li class="meta-author" itemprop="author" itemscope="" itemtype="https://schema.org/Person"><a class="'
            "ct-"
            f'meta-element-author" href="{b}author/{post.login}/" title="Posts by {eh(post.author)}" rel="author" ite'
            "mprop"
            f'="url"><span itemprop="name">{eh(post.author)}</span></a></li>{date_li(post)}<li class="meta-categories" '
            f'data-type="simple">{terms}</li></ul>\t\t</header>\n\t</div>\n\n\t\t\n\t\t\n\t\t\n\t\t<div class="entry-'
            f'content is-layout-flow">\n\t\t\t{body_html(site, post)}\n\t\t</div>\n\n\t\t\n\t\t\t\t\t'
            + (
                f'<div class="entry-tags is-width-constrained "><span class="ct-module-title">Tags</span><div class="'
                f'entry-tags-items">{tags}</div></div>'
                if tags
                else ""
            )
            + f'\n\t\t\n\t\t\n\t\t<nav class="post-navigation is-width-constrained " >{pnav}</nav>\n\n\t\t\n\t</artic'
            "le>"
            f'\n\n\t\n\t\t<aside class="ct-hidden-sm" data-type="type-1" id="sidebar" itemtype="https://schema.org/'
            f'WPSideBar" itemscope="itemscope">\n\t\t<div class="ct-sidebar" >\n\t\t\t'
            f"{sidebar(site, 'h3', 'widget-title', extra='ct-widget is-layout-flow')}\t\t</div>\n\t</aside>\n\n\t\t\n"
            f'\t\t</div>\n\n<div class="ct-comments-container"><div class="ct-container-narrow">\n\n\n<div class="ct-'
            f'comments" id="comments">\n\t{comments}{form}\n\t</div>\n\n</div></div>\n\n<div class="ct-related-posts-'
            'container"><div class="ct-container"><div class="ct-related-posts" data-layout="grid"><h3 class="ct-mod'
            "ule-"
            f'title">Related Posts</h3><div class="ct-related-posts-items" data-layout="grid">{rel}</div></div></div>'
            '</div>\n\t</main>\n\n\t<footer id="footer" class="ct-footer" data-id="type-1" itemscope="" itemtype="ht'
            "tps://"
            f'schema.org/WPFooter"><div data-row="bottom"><div class="ct-container" data-columns-divider="md:sm"><div '
            'data-column="copyright">\n<div\n\tclass="ct-footer-copyright"\n\tdata-id="copyright">\n\n\t<p>Copyright'
            " &copy;"
            f' {site.local(post.date).year} {eh(site.name)} - WordPress Theme by <a href="https://creativethemes.com">'
            f"CreativeThemes</a></p></div>\n</div></div></div></footer></div>",
            f"<script src='{b}wp-includes/js/comment-reply.min.js?ver={WP}' id='comment-reply-js' async "
            f"data-wp-strategy='async'></script>",
        ],
    )
