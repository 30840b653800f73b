"""Static blog pages (``static-disqus``): a Hugo site with the Mainroad theme and Disqus comments.

The comments are a Disqus embed (Hugo's internal ``disqus.html``: ``div#disqus_thread``, the loader script,
``noscript`` and the "comments powered by Disqus" link): the HTML holds no comment at all, so the truth has no
comments on any page and every comment the extractor reports is a false one.  Pages vary as a static site's do:
"See also" (related posts by shared tags and categories), tags, the previous / next post pager, the author box,
and a sidebar with search, recent posts, categories and a tag list with counts.
"""

from __future__ import annotations

from tests.themes.model import Post, Site
from tests.themes.words import MONTHS

from .base import attr, body, esc, neighbours, newest, related, slug


def adapt_static(site: Site) -> None:
    """Hugo permalinks /posts/<slug>/; comments live at Disqus, none in the pages."""
    for p in site.posts:
        p.url = f"{site.base}posts/{slug(p.title, 80)}/"
        p.comments = []


def icon(name: str) -> str:
    return (
        f'<svg class="meta__icon icon icon-{name}" width="16" height="16" viewBox="0 0 16 16"><path d="M8 1a7 7 0 1 0 0'
        f' 14A7 7 0 0 0 8 1zm0 2a5 5 0 1 1 0 10A5 5 0 0 1 8 3z"/></svg>'
    )


def widget(cls: str, title: str, inner: str) -> str:
    return (
        f'<div class="widget-{cls} widget">\n<h4 class="widget__title">{title}</h4>\n<div class="widget__content">\n'
        f"{inner}\n</div>\n</div>"
    )


def sidebar(site: Site) -> str:
    """Mainroad's sidebar widgets."""
    cats = sorted({c for p in site.posts for c in p.cats})
    tags: dict[str, int] = {}
    for p in site.posts:
        for t in p.tags:
            tags[t] = tags.get(t, 0) + 1
    return "\n".join(
        [
            '<div class="widget-search widget">\n<form class="widget-search__form" role="search" method="get" action="'
            'https://google.com/search">\n<input class="widget-search__field" type="search" placeholder="Search…" value'
            f'="" name="q" aria-label="Search…">\n<input class="widget-search__submit" type="submit" value="Search">\n'
            f'<input type="hidden" name="sitesearch" value="{site.base}" />\n</form>\n</div>',
            widget(
                "recent",
                "Recent Posts",
                '<ul class="widget__list">\n'
                + "".join(
                    f'<li class="widget__item"><a class="widget__link" href="{p.url}">{esc(p.title)}</a></li>\n'
                    for p in newest(site, 5)
                )
                + "</ul>",
            ),
            widget(
                "categories",
                "Categories",
                '<ul class="widget__list">\n'
                + "".join(
                    f'<li class="widget__item"><a class="widget__link" href="{site.base}categories/{slug(c)}/">{esc(c)}'
                    f"</a></li>\n"
                    for c in cats
                )
                + "</ul>",
            ),
            widget(
                "taglist",
                "Tags",
                "\n".join(
                    f'<a class="widget-taglist__link widget__link btn" href="{site.base}tags/{slug(t)}/" title="'
                    f'{attr(t)}">{esc(t)} ({n})</a>'
                    for t, n in sorted(tags.items())
                ),
            ),
        ]
    )


def page_static(site: Site, post: Post) -> str:
    """A whole Hugo (Mainroad) post page with the Disqus embed."""
    b, name = site.base, esc(site.name)
    prev, nxt = neighbours(site, post)
    d = site.local(post.date)
    path = post.url[len(b) - 1 :]

    def img(x: tuple) -> str:
        src = f"/images/{d.year}/img_{x[3]:04d}.jpg"
        if not x[2]:
            return f'<p><img src="{src}" alt="{attr(x[1])}"></p>'
        return f'<figure><img src="{src}" alt="{attr(x[1])}"><figcaption><p>{esc(x[2])}</p></figcaption></figure>'

    words = sum(len(x[1].split()) for x in post.blocks if x[0] == "p")
    meta = (
        f'<div class="post__meta meta">\n<div class="meta__item-author meta__item">\n{icon("author")}<span class="meta_'
        f'_text">{esc(post.author)}</span>\n</div>\n<div class="meta__item-datetime meta__item">\n{icon("time")}<time '
        f'class="meta__text" datetime="{post.date:%Y-%m-%dT%H:%M:%SZ}">{MONTHS[d.month - 1]} {d.day}, {d.year}</time>'
        f'\n</div>\n<div class="meta__item-categories meta__item">{icon("category")}<span class="meta__text">'
        + ", ".join(
            f'<a class="meta__link" href="{b}categories/{slug(c)}/" rel="category">{esc(c)}</a>' for c in post.cats
        )
        + f'\n</span>\n</div>\n<div class="meta__item-readingtime meta__item">{icon("read")}<span class="meta__text">'
        f"{max(1, words // 200)} min read</span></div>\n</div>"
    )
    tags = (
        f'<footer class="post__footer">\n<div class="post__tags tags clearfix">\n{icon("tag")}<ul class="tags__list">\n'
        + "".join(
            f'<li class="tags__item"><a class="tags__link btn" href="{b}tags/{slug(t)}/" rel="tag">{esc(t)}</a></li>\n'
            for t in post.tags
        )
        + "</ul>\n</div>\n</footer>"
        if post.tags
        else ""
    )
    rel = related(site, post)
    see = (
        '<section class="related">\n<h3 class="related__title">See also</h3>\n<ul class="related__list">\n'
        + "".join(
            f'<li class="related__item"><a class="related__link" href="{p.url}">{esc(p.title)}</a></li>\n' for p in rel
        )
        + "</ul>\n</section>"
        if rel
        else ""
    )
    pager = (
        '<nav class="pager flex">\n'
        + "".join(
            f'<div class="pager__item pager__item--{k}">\n<a class="pager__link" href="{p.url}" rel="{k}">\n<span class'
            '="'
            f'pager__subtitle">{lab}</span>\n<p class="pager__title">{esc(p.title)}</p>\n</a>\n</div>\n'
            for k, lab, p in [("prev", "«&thinsp;Previous", prev), ("next", "Next&thinsp;»", nxt)]
            if p
        )
        + "</nav>"
    )
    disqus = (
        '<section class="comments">\n<div id="disqus_thread"></div>\n<script type="application/javascript">\n    window'
        f'.disqus_config = function () {{\n    this.page.url = "{post.url}";\n    this.page.identifier = '
        f'"{path}";\n    '
        "};"
        '\n    (function() {\n        if (["localhost", "127.0.0.1"].indexOf(window.location.hostname) != -1) {\n'
        "            document.getElementById('disqus_thread').innerHTML = 'Disqus comments not available by default "
        "when the website is previewed locally.';\n            return;\n        }\n        var d = document, s = d."
        "createElement('script'); s.async = true;\n        s.src = '//' + \"pourovernotes\" + '.disqus.com/embed.js';\n"
        "        s.setAttribute('data-timestamp', +new Date());\n        (d.head || d.body).appendChild(s);\n    })();"
        "\n"
        '</script>\n<noscript>Please enable JavaScript to view the <a href="https://disqus.com/?ref_noscript">comments '
        'powered by Disqus.</a></noscript>\n<a href="https://disqus.com" class="dsq-brlink">comments powered by <span '
        'class="logo-disqus">Disqus</span></a>\n</section>'
    )
    author_box = (
        f'<div class="authorbox clearfix">\n<figure class="authorbox__avatar">\n<img alt="{attr(post.author)} avatar" '
        f'src="/img/avatar.png" class="avatar" height="90" width="90">\n</figure>\n<div class="authorbox__header">\n'
        f'<span class="authorbox__name">About {esc(post.author)}</span>\n</div>\n<div class="authorbox__description">\n'
        f"Writes about brewing, beans and the odd gadget. {esc(site.cfg['tagline'])}.\n</div>\n</div>"
    )
    desc = attr(next(x[1] for x in post.blocks if x[0] == "p")[:160])
    menu = "".join(
        f'<li class="menu__item{" menu__item--active" if t == "Posts" else ""}"><a class="menu__link" href="{b}{u}"><sp'
        "an "
        f'class="menu__text">{t}</span></a></li>'
        for t, u in [("Home", ""), ("Posts", "posts/"), ("About", "about/")]
    )
    return (
        f'<!DOCTYPE html>\n<html class="no-js" lang="en">\n<head>\n\t<meta charset="UTF-8">\n\t<meta name="viewport" '
        f'content="width=device-width, initial-scale=1">\n\t<title>{esc(post.title)} - {name}</title>\n\t<script>'
        f'(function(d,e){{d[e]=d[e].replace("no-js","js");}})(document.documentElement,"className");</script>\n\t'
        f'<meta name="description" content="{desc}">\n\t<meta property="og:title" content="{attr(post.title)}" />\n\t'
        f'<meta property="og:url" content="{post.url}" />\n\t<meta name="generator" content="Hugo 0.111.3">\n\t<link '
        f'rel="stylesheet" href="/css/style.css">\n\t<link rel="shortcut icon" href="/favicon.ico">\n\t<link rel="'
        f'alternate" type="application/rss+xml" href="{b}index.xml" title="{name}">\n\t<link rel="canonical" href="'
        f'{post.url}">\n</head>\n<body class="body">\n\t<div class="container container--outer">\n\t\t<header class="'
        f'header">\n\t<div class="container header__container">\n\t\t<div class="logo">\n\t\t<a class="logo__link" href'
        f'="/" title="{name}" rel="home">\n\t\t\t<div class="logo__item logo__text">\n\t\t\t\t\t<div class="logo__title'
        '">'
        f'{name}</div>\n\t\t\t\t\t<div class="logo__tagline">{esc(site.cfg["tagline"])}</div>\n\t\t\t\t</div>\n\t\t</a>'
        f'\n\t</div>\n\t\t<nav class="menu">\n\t<button class="menu__btn" aria-haspopup="true" aria-expanded="false" '
        f'tabindex="0">\n\t\t<span class="menu__btn-title" tabindex="-1">Menu</span>\n\t</button>\n\t<ul class="menu__'
        f'list">{menu}</ul>\n</nav>\n\t</div>\n</header>\n\t\t<div class="wrapper flex">\n\t\t\t<div class="primary">\n'
        '<main class="main" role="main">\n\t<article class="post">\n\t\t<header class="post__header">\n\t\t\t<h1 class'
        '="'
        f'post__title">{esc(post.title)}</h1>\n\t\t\t{meta}\n\t\t</header>\n\t\t<div class="content post__content '
        f'clearfix">\n\t\t\t{body(post, img)}\n\t\t</div>\n\t\t{tags}\n\t</article>\n</main>\n{author_box}\n{see}\n'
        f'{pager}\n{disqus}\n\t\t\t</div>\n\t\t\t<aside class="sidebar">{sidebar(site)}\n</aside>\n\t\t</div>\n\t\t'
        '<footer class="footer">\n\t<div class="container footer__container flex">\n\t\t<div class="footer__copyright"'
        f">\n\t\t\t&copy; {max(p.date.year for p in site.posts)} {name}.\n\t\t\t<span "
        'class="footer__copyright-credits">'
        f'Generated with <a href="https://gohugo.io/" rel="nofollow noopener" target="_blank">Hugo</a> and <a href="'
        f'https://github.com/Vimux/Mainroad/" rel="nofollow noopener" target="_blank">Mainroad</a> theme.</span>\n\t\t'
        f'</div>\n\t</div>\n</footer>\n\t</div>\n<script async defer src="/js/menu.js"></script>\n</body>\n</html>\n'
    )
