"""The single-post page of the block theme Twenty Twenty-Three (WordPress 6.4).

Its comments come from the ``hidden-comments`` pattern: a core/comments block with an h2 "Comments", the
comments-title block (h3, "N responses to “Title”"), and ``ol.wp-block-comment-template`` whose items hold the
template's columns (avatar 40 in a 40px column; author name, date, content and reply link in the other); the
comment-date block prints the date format only, linked inside ``<time>``, and the edit link renders nothing for
visitors.  Replies sit in a bare ``<ol>`` inside the parent's ``li``; ``comment_class()`` runs after the replies
are rendered, so the odd/even counters count a thread's replies before its parent, and there is no ``parent`` class.
The template has the post title, content, the post-meta part (date, categories, author, tags), post navigation
links (an addition to the stock single template) and the header / footer parts.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import count

from .comments import avatar, comment_form, ctext, reply_link
from .markup import body_cls, body_html, doc, neighbours
from .model import Comment, Post, Site, eh, tx
from .pages_more import WP
from .pages_tt4_swell import head_block, nav_block


def block_comments(post: Post, one: Callable[[Comment], str]) -> str:
    """block_core_comment_template_render_comments(): ``li`` items, replies in ``<ol>``, classes after the replies."""
    kids: dict[int | None, list[Comment]] = {}
    for c in post.comments:
        kids.setdefault(c.parent, []).append(c)
    st = [0, 0]

    def rec(cs: list[Comment], depth: int) -> str:
        out = ""
        for c in cs:
            inner = one(c)
            if c.id in kids:
                inner += f"<ol>{rec(kids[c.id], depth + 1)}</ol>"
            cls = ["comment"] + (["byuser", f"comment-author-{post.login}", "bypostauthor"] if c.mine else [])
            cls += ["odd", "alt"] if st[0] % 2 else ["even"]
            st[0] += 1
            if depth == 1:
                cls += ["thread-odd", "thread-alt"] if st[1] % 2 else ["thread-even"]
                st[1] += 1
            out += f'<li id="comment-{c.id}" class="{" ".join([*cls, f"depth-{depth}"])}">{inner}</li>'
        return out

    return rec(kids.get(None, []), 1)


def page_twentytwentythree(site: Site, post: Post) -> str:
    """Twenty Twenty-Three 1.3: the single template, post-meta part and hidden-comments pattern (core/comments)."""
    n, T, b, (prev, nxt) = len(post.comments), tx(post.title), site.base, neighbours(site, post)
    lay = count(1)

    def flex(extra: str = "", block: str = "group") -> str:
        """The classes of a flex-layout block (a fresh container id per rendered block, as WordPress 6.4 does)."""
        pre = f"{extra} " if extra else ""
        return f"wp-block-{block} {pre}is-layout-flex wp-container-core-{block}-is-layout-{next(lay)} " + (
            f"wp-block-{block}-is-layout-flex"
        )

    con = "wp-block-group has-global-padding is-layout-constrained wp-block-group-is-layout-constrained"
    col = "wp-block-column is-layout-flow wp-block-column-is-layout-flow"

    def one(c: Comment) -> str:
        img = avatar(c, 40).replace("alt=''", f"alt='{eh(c.author)} Avatar'")
        img = img.replace("photo'", "photo wp-block-avatar__image'").replace("/>", " style='border-radius:20px;'/>")
        name = (
            f'<a rel="external nofollow ugc" href="{c.url}" target="_self" >{eh(c.author)}</a>'
            if c.url
            else (eh(c.author))
        )
        return (
            f'\n\t\t\t\n\t\t\t<div class="{flex(block="columns")}" style="margin-bottom:var(--wp--preset--spacing--40)'
            f'">\n\t\t\t\t\n\t\t\t\t<div class="{col}" style="flex-basis:40px">\n\t\t\t\t\t<div class="wp-block-avatar'
            f'">{img}</div>\n\t\t\t\t</div>\n\t\t\t\t\n\n\t\t\t\t\n\t\t\t\t<div class="{col}">\n\t\t\t\t\t<div class="'
            f'wp-block-comment-author-name">{name}</div>\n\n\t\t\t\t\t\n\t\t\t\t\t<div class="{flex()}" style="margin-'
            f'top:0px;margin-bottom:0px">\n\t\t\t\t\t\t<div class="wp-block-comment-date"><time datetime="'
            f'{site.iso(c.date)}"><a href="{post.url}#comment-{c.id}">{site.fdate(c.date)}</a></time></div>\n'
            f'\t\t\t\t\t\t\n\t\t\t\t\t</div>\n\t\t\t\t\t\n\n\t\t\t\t\t<div class="wp-block-comment-content">{ctext(c)}'
            f"</div>\n\n"
            f'\t\t\t\t\t<div class="wp-block-comment-reply-link">{reply_link(site, post, c, "comment")}</div>\n\t\t\t\t'
            f"</div>\n\t\t\t\t\n\t\t\t</div>\n\t\t\t\n\t\t"
        )

    header = (
        f'<header class="wp-block-template-part">\n<div class="{con}">\n\t\n\t<div class="'
        f'{flex("alignwide is-content-justification-space-between")}" style="padding-bottom:var(--wp--preset--'
        f'spacing--40)"><p class="wp-block-site-title"><a href="{b}" target="_self" rel="home">{eh(site.name)}</a>'
        f'</p>\n\t\t\n\t\t<div class="{flex("is-content-justification-left")}">{nav_block(site, lay)}</div>\n\t\t\n\t'
        f"</div>\n\t\n</div>\n</header>"
    )
    terms = '<span class="wp-block-post-terms__separator">, </span>'
    cats = terms.join(f'<a href="{site.cat_url(c)}" rel="tag">{eh(c)}</a>' for c in post.cats)
    tags = terms.join(f'<a href="{site.tag_url(t)}" rel="tag">{eh(t)}</a>' for t in post.tags)
    tag_block = f'<div class="taxonomy-post_tag wp-block-post-terms">{tags}</div>' if tags else ""
    meta = (
        f'<div class="wp-block-template-part">\n<div style="height:0" aria-hidden="true" class="wp-block-spacer"></div>'
        f'\n\n\n\n<div class="{con}" style="margin-top:var(--wp--preset--spacing--70);margin-bottom:var(--wp--preset--'
        f'spacing--70)">\n\t\n\t<hr class="wp-block-separator alignwide has-css-opacity is-style-wide"/>\n\t\n\n\t\n\t'
        f'<div class="{flex("alignwide has-small-font-size", "columns")}" style="margin-top:var(--wp--preset--spacing'
        f'--40)">\n\t\t\n\t\t<div class="{col}">\n\t\t\t\n\t\t\t<div class="{flex()}">\n\t\t\t\t\n\t\t\t\t<p>\n\t\t\t'
        f'\t\tPosted\t\t\t\t</p>\n\t\t\t\t\n\n\t\t\t\t<div class="wp-block-post-date"><time datetime="'
        f'{site.iso(post.date)}">{site.fdate(post.date)}</time></div>\n\n\t\t\t\t\n\t\t\t\t<p>\n\t\t\t\t\tin\t\t\t\t'
        f'</p>\n\t\t\t\t\n\n\t\t\t\t<div class="taxonomy-category wp-block-post-terms">{cats}</div>\n\t\t\t</div>\n'
        f'\t\t\t\n\n\t\t\t\n\t\t\t<div class="{flex()}">\n\t\t\t\t\n\t\t\t\t<p>\n\t\t\t\t\tby\t\t\t\t</p>\n\t\t\t\t\n\n'
        f'\t\t\t\t<div class="wp-block-post-author"><div class="wp-block-post-author__content"><p class="wp-block-post-'
        f'author__name">{eh(post.author)}</p></div></div>\n\t\t\t</div>\n\t\t\t\n\t\t</div>\n\t\t\n\n\t\t\n\t\t<div '
        f'class="{col}">\n\t\t\t\n\t\t\t<div class="{flex("is-vertical")}">\n\t\t\t\t\n\t\t\t\t<p>\n\t\t\t\t\tTags:'
        f"\t\t\t\t</p>\n\t\t\t\t\n\n\t\t\t\t{tag_block}\n\t\t\t</div>\n\t\t\t\n\t\t</div>\n\t\t\n\t</div>\n\t\n</div>\n"
        "\n</div>"
    )
    arrow = '<span class="wp-block-post-navigation-link__arrow-{0} is-arrow-arrow" aria-hidden="true">{1}</span>'
    pnav = (
        '<div class="post-navigation-link-previous wp-block-post-navigation-link">'
        + (f'{arrow.format("previous", "←")}<a href="{prev.url}" rel="prev">{tx(prev.title)}</a>' if prev else "")
        + '</div>\n\n<div class="post-navigation-link-next wp-block-post-navigation-link">'
        + (f'<a href="{nxt.url}" rel="next">{tx(nxt.title)}</a>{arrow.format("next", "→")}' if nxt else "")
        + "</div>"
    )
    nav = (
        f'<nav class="{flex("alignwide is-content-justification-space-between is-nowrap")}" aria-label="Posts">\n'
        f"{pnav}</nav>"
    )
    title = "One response" if n == 1 else f"{n} responses"
    listing = (
        f'\n\t\t<h3 id="comments" class="wp-block-comments-title">{title} to &#8220;{T}&#8221;</h3>\n\n\t\t<ol class="'
        f'wp-block-comment-template">{block_comments(post, one)}</ol>\n\n\t\t\n\n\t'
        if n
        else "\n\n\t\t\n\n\t\t\n\n\t\t\n\n\t"
    )
    form = (
        comment_form(site, post)
        .replace('class="comment-respond"', 'class="comment-respond wp-block-post-comments-form"', 1)
        .replace('<p class="form-submit">', '<p class="form-submit wp-block-button">', 1)
        .replace('class="submit"', 'class="wp-block-button__link wp-element-button"', 1)
    )
    comments = (
        f'<section class="wp-block-template-part">\n\n<div class="{con}" style="padding-top:var(--wp--preset--spacing'
        f"--40);padding-right:var(--wp--preset--spacing--40);padding-bottom:var(--wp--preset--spacing--40);padding-"
        f'left:var(--wp--preset--spacing--40)">\n\t\n\t<div class="wp-block-comments">\n\t\t\n\t\t<h2 class="wp-block-'
        f'heading">Comments</h2>\n\t\t\n{listing}{form}\n\t</div>\n\t\n</div>\n\n</section>'
    )
    footer = (
        f'<footer class="wp-block-template-part">\n<div class="{con}">\n\t\n\t<div class="'
        f'{flex("alignwide is-content-justification-space-between")}" style="padding-top:var(--wp--preset--spacing--'
        f'40)"><p class="wp-block-site-title"><a href="{b}" target="_self" rel="home">{eh(site.name)}</a></p>\n\t\t\n'
        f'\t\t<p class="has-text-align-right">\n\t\tProudly powered by <a href="https://wordpress.org" rel="nofollow">'
        f"WordPress</a>\t\t</p>\n\t\t\n\t</div>\n\t\n</div>\n</footer>"
    )
    main = (
        f'<main class="wp-block-group is-layout-flow wp-block-group-is-layout-flow">\n\t\n\t<div class="{con}">\n\t\t'
        f'\n\t\t<h1 style="margin-top:var(--wp--preset--spacing--70);margin-bottom:var(--wp--preset--spacing--70);" '
        f'class="alignwide wp-block-post-title">{T}</h1>\n\t</div>\n\t\n\n\t<div class="entry-content wp-block-post-'
        f'content has-global-padding is-layout-constrained wp-block-post-content-is-layout-constrained">'
        f'{body_html(site, post)}</div>\n\t{meta}\n\t<div class="{con}">\n\t\t{nav}\n\t</div>\n\t{comments}\n</main>'
    )
    return doc(
        head_block(site, post, "twentytwentythree"),
        body_cls(post, "wp-embed-responsive"),
        [
            f'<div class="wp-site-blocks">{header}\n\n\n{main}\n\n\n{footer}</div>',
            f"<script src='{b}wp-includes/js/comment-reply.min.js?ver={WP}' id='comment-reply-js' async "
            f"data-wp-strategy='async'></script>",
        ],
    )
