"""HTML pages and RSS/Atom feeds of generated blogs, modelled on WordPress's default themes.

Pages carry the usual boilerplate (header, navigation, sidebar, footer, comment form) around
`<article id="post-N" class="post ...">` and `<ol class="comment-list">` with nested
`<ol class="children">`, so extractors meet realistic markup. Templates use only ASCII and
character references outside the generated text, so any supported charset can encode them.
"""

from __future__ import annotations

import time
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from farm.generated import GeneratedArticle, GeneratedBlog, GeneratedComment

_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip

_LABELS = {
    "en": {
        "says": "says:", "reply": "Reply", "leave": "Leave a Reply", "by": "By", "home": "Home",
        "about": "About", "archives": "Archives", "categories": "Categories", "search": "Search",
        "comments": "{n} thoughts on &ldquo;{t}&rdquo;", "one": "One thought on &ldquo;{t}&rdquo;",
        "none": "No comments yet", "posted": "Posted on", "more": "Continue reading",
        "tagline": "Notes on making, fixing and wandering about", "post_comment": "Post Comment",
        "count": "{n} Comments", "comments_on": "Comments on: ", "by_colon": "By: ",
    },
    "ja": {
        "says": "より:", "reply": "返信", "leave": "コメントを残す", "by": "投稿者", "home": "ホーム",
        "about": "このブログについて", "archives": "アーカイブ", "categories": "カテゴリー",
        "search": "検索", "comments": "&ldquo;{t}&rdquo; への{n}件のフィードバック",
        "one": "&ldquo;{t}&rdquo; への1件のフィードバック", "none": "コメントはまだありません",
        "posted": "投稿日", "more": "続きを読む", "tagline": "毎日の小さな記録",
        "post_comment": "コメントを送信", "count": "{n}件のコメント", "comments_on": "コメント: ",
        "by_colon": "投稿者: ",
    },
}  # fmt: skip


def _labels(blog: GeneratedBlog) -> dict[str, str]:
    return _LABELS["ja" if blog.lang == "ja" else "en"]


def rfc822(ts: float) -> str:
    t = time.gmtime(ts)
    return f"{_DAYS[t.tm_wday]}, {t.tm_mday:02d} {_MONTHS[t.tm_mon - 1]} {t.tm_year} " + time.strftime(
        "%H:%M:%S +0000", t
    )


def iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(ts))


def human_date(ts: float, lang: str) -> str:
    t = time.gmtime(ts)
    if lang == "ja":
        return f"{t.tm_year}年{t.tm_mon}月{t.tm_mday}日 {t.tm_hour}:{t.tm_min:02d}"
    hour = t.tm_hour % 12 or 12
    ampm = "am" if t.tm_hour < 12 else "pm"
    return f"{_MONTH_NAMES[t.tm_mon - 1]} {t.tm_mday}, {t.tm_year} at {hour}:{t.tm_min:02d} {ampm}"


def _body_html(article: GeneratedArticle) -> str:
    return "\n".join(f"<p>{escape(p)}</p>" for p in article.paragraphs)


# --- HTML -----------------------------------------------------------------------------------


def _head(blog: GeneratedBlog, page_title: str, extra: str = "") -> str:
    lang = "ja" if blog.lang == "ja" else "en-US"
    charset = ""
    if blog.options.declare_charset:
        charset = (
            f'<meta charset="{blog.charset}">\n'
            f'<meta http-equiv="Content-Type" content="text/html; charset={blog.charset}">\n'
        )
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
{charset}<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(page_title)}</title>
<link rel="alternate" type="application/rss+xml" title="{escape(blog.title)} &raquo; Feed" href="{blog.origin}/feed/">
<link rel="alternate" type="application/rss+xml" title="{escape(blog.title)} &raquo; Comments Feed" href="{blog.origin}/comments/feed/">
{extra}<link rel="stylesheet" href="{blog.origin}/wp-content/themes/farm/style.css?ver=1.0" media="all">
<meta name="generator" content="WordPress 6.1.9">
</head>
"""  # noqa: E501


def _masthead(blog: GeneratedBlog) -> str:
    lab = _labels(blog)
    return f"""<div id="page" class="site">
<a class="skip-link screen-reader-text" href="#content">Skip to content</a>
<header id="masthead" class="site-header">
<div class="site-branding">
<p class="site-title"><a href="{blog.origin}/" rel="home">{escape(blog.title)}</a></p>
<p class="site-description">{lab["tagline"]}</p></div>
<nav id="site-navigation" class="primary-navigation" aria-label="Primary menu">
<ul id="primary-menu" class="menu">
<li class="menu-item"><a href="{blog.origin}/">{lab["home"]}</a></li>
<li class="menu-item"><a href="{blog.origin}/about/">{lab["about"]}</a></li>
<li class="menu-item"><a href="{blog.origin}/feed/">RSS</a></li>
</ul></nav>
</header>
<div id="content" class="site-content">
<div id="primary" class="content-area"><main id="main" class="site-main">
"""


def _sidebar_and_footer(blog: GeneratedBlog) -> str:
    # Deliberately independent of the clock, so a page only changes when its own content does.
    lab = _labels(blog)
    cats = "".join(
        f'<li class="cat-item"><a href="{blog.origin}/category/{i}/">{escape(c)}</a></li>'
        for i, c in enumerate(sorted({a.category for a in blog.articles[:50]}), start=1)
    )
    return f"""</main></div></div>
<aside class="widget-area" role="complementary">
<section class="widget widget_search"><form role="search" method="get" action="{blog.origin}/">
<label>{lab["search"]} <input type="search" name="s" value=""></label><input type="submit" value="{lab["search"]}"></form></section>
<section class="widget widget_categories"><h2 class="widget-title">{lab["categories"]}</h2><ul>{cats}</ul></section>
<section class="widget widget_text"><h2 class="widget-title">{lab["about"]}</h2>
<div class="textwidget"><p>{escape(blog.owner)} &middot; {lab["tagline"]}</p></div></section>
</aside>
<footer id="colophon" class="site-footer" role="contentinfo">
<div class="site-info"><a href="{blog.origin}/">{escape(blog.title)}</a> &middot; <a href="https://wordpress.org/">Proudly powered by WordPress</a></div>
</footer>
</div>
</body>
</html>
"""  # noqa: E501


def _comment_item(blog: GeneratedBlog, article: GeneratedArticle, c: GeneratedComment, depth: int) -> str:
    lab = _labels(blog)
    classes = f"comment depth-{depth}" + (" bypostauthor" if c.by_post_author else "")
    return f"""<li id="comment-{c.id}" class="{classes}">
<article id="div-comment-{c.id}" class="comment-body">
<footer class="comment-meta">
<div class="comment-author vcard"><b class="fn">{escape(c.author)}</b> <span class="says">{lab["says"]}</span></div>
<div class="comment-metadata"><a href="{article.url}#comment-{c.id}"><time datetime="{iso(c.time)}">{human_date(c.time, blog.lang)}</time></a></div>
</footer>
<div class="comment-content"><p>{escape(c.text)}</p></div>
<div class="reply"><a rel="nofollow" class="comment-reply-link" href="{article.url}?replytocom={c.id}#respond">{lab["reply"]}</a></div>
</article>
"""  # noqa: E501


def _comment_tree(
    blog: GeneratedBlog,
    article: GeneratedArticle,
    comments: list[GeneratedComment],
    parent: int | None,
    depth: int,
) -> str:
    parts = []
    for c in comments:
        if c.parent != parent:
            continue
        children = _comment_tree(blog, article, comments, c.id, depth + 1)
        nested = f'<ol class="children">\n{children}</ol>\n' if children else ""
        parts.append(_comment_item(blog, article, c, depth) + nested + "</li>\n")
    return "".join(parts)


def _comments_area(blog: GeneratedBlog, article: GeneratedArticle, now: float) -> str:
    lab = _labels(blog)
    visible = article.visible_comments(now)
    title = escape(article.title)
    if not visible:
        heading = f'<p class="no-comments">{lab["none"]}</p>'
        listing = ""
    else:
        template = lab["one"] if len(visible) == 1 else lab["comments"]
        heading = f'<h2 class="comments-title">{template.format(n=len(visible), t=title)}</h2>'
        listing = f'<ol class="comment-list">\n{_comment_tree(blog, article, visible, None, 1)}</ol>\n'
    return f"""<div id="comments" class="comments-area">
{heading}
{listing}<div id="respond" class="comment-respond"><h3 id="reply-title" class="comment-reply-title">{lab["leave"]}</h3>
<form action="{blog.origin}/wp-comments-post.php" method="post" id="commentform" class="comment-form">
<p class="comment-form-comment"><textarea id="comment" name="comment" cols="45" rows="8" required></textarea></p>
<p class="comment-form-author"><input id="author" name="author" type="text" value="" size="30"></p>
<p class="form-submit"><input name="submit" type="submit" id="submit" class="submit" value="{lab["post_comment"]}">
<input type="hidden" name="comment_post_ID" value="{article.id}"></p>
</form></div>
</div>
"""


def _entry_meta(blog: GeneratedBlog, article: GeneratedArticle) -> str:
    lab = _labels(blog)
    return (
        f'<span class="posted-on">{lab["posted"]} <time class="entry-date published" '
        f'datetime="{iso(article.published)}">{human_date(article.published, blog.lang)}</time></span> '
        f'<span class="byline">{lab["by"]} <span class="author vcard">'
        f'<a class="url fn n" href="{blog.origin}/author/{article.id % 7}/">{escape(article.author)}</a>'
        "</span></span>"
    )


def _category_link(blog: GeneratedBlog, article: GeneratedArticle) -> str:
    href = f"{blog.origin}/category/{blog.category_number(article.category)}/"
    return f'<span class="cat-links"><a href="{href}" rel="category tag">{escape(article.category)}</a></span>'


def article_page(blog: GeneratedBlog, article: GeneratedArticle, now: float) -> str:
    feed = f'<link rel="alternate" type="application/rss+xml" href="{article.url}feed/">\n'
    canonical = f'<link rel="canonical" href="{article.url}">\n'
    head = _head(blog, f"{article.title} - {blog.title}", feed + canonical)
    body_open = f'<body class="post-template-default single single-post postid-{article.id}">\n'
    return (
        head
        + body_open
        + _masthead(blog)
        + f"""<article id="post-{article.id}" class="post-{article.id} post type-post status-publish hentry">
<header class="entry-header"><h1 class="entry-title">{escape(article.title)}</h1>
<div class="entry-meta">{_entry_meta(blog, article)}</div></header>
<div class="entry-content">
{_body_html(article)}
</div>
<footer class="entry-footer">{_category_link(blog, article)}</footer>
</article>
"""
        + _comments_area(blog, article, now)
        + _sidebar_and_footer(blog)
    )


def home_page(blog: GeneratedBlog, articles: list[GeneratedArticle], now: float, archive: bool = False) -> str:
    """The blog's home page, or with ``archive`` a category archive: the same list of articles."""
    lab = _labels(blog)
    entries = []
    for a in articles:
        count = lab["count"].format(n=len(a.visible_comments(now)))
        entries.append(
            f"""<article id="post-{a.id}" class="post-{a.id} post type-post status-publish hentry">
<header class="entry-header"><h2 class="entry-title"><a href="{a.url}" rel="bookmark">{escape(a.title)}</a></h2></header>
<div class="entry-summary"><p>{escape(a.paragraphs[0])} <a class="more-link" href="{a.url}">{lab["more"]}</a></p></div>
<footer class="entry-footer">{_entry_meta(blog, a)} {_category_link(blog, a)} <a href="{a.url}#comments">{count}</a></footer>
</article>
"""  # noqa: E501
        )
    body_open = '<body class="archive category">\n' if archive else '<body class="home blog">\n'
    return _head(blog, blog.title) + body_open + _masthead(blog) + "".join(entries) + _sidebar_and_footer(blog)


# --- feeds ----------------------------------------------------------------------------------


def _xml_head(blog: GeneratedBlog) -> str:
    return f'<?xml version="1.0" encoding="{blog.charset}"?>\n'


def _cdata(text: str) -> str:
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


_RSS_NS = (
    '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"'
    ' xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/"'
    ' xmlns:atom="http://www.w3.org/2005/Atom" xmlns:slash="http://purl.org/rss/1.0/modules/slash/">\n'
)


def _channel_head(blog: GeneratedBlog, title: str, link: str, self_url: str, updated: float) -> str:
    language = "ja" if blog.lang == "ja" else "en-US"
    return f"""<channel>
<title>{escape(title)}</title>
<atom:link href="{self_url}" rel="self" type="application/rss+xml" />
<link>{link}</link>
<description>{escape(_labels(blog)["tagline"])}</description>
<lastBuildDate>{rfc822(updated)}</lastBuildDate>
<language>{language}</language>
<generator>https://wordpress.org/?v=6.1.9</generator>
"""


def rss_feed(blog: GeneratedBlog, articles: list[GeneratedArticle], now: float) -> str:
    updated = blog.last_change(now, articles)
    items = []
    for a in articles:
        items.append(f"""<item>
<title>{escape(a.title)}</title>
<link>{a.url}</link>
<comments>{a.url}#comments</comments>
<dc:creator>{_cdata(a.author)}</dc:creator>
<pubDate>{rfc822(a.published)}</pubDate>
<category>{_cdata(a.category)}</category>
<guid isPermaLink="false">{blog.origin}/?p={a.id}</guid>
<description>{_cdata(a.paragraphs[0])}</description>
<content:encoded>{_cdata(_body_html(a))}</content:encoded>
<wfw:commentRss>{a.url}feed/</wfw:commentRss>
<slash:comments>{len(a.visible_comments(now))}</slash:comments>
</item>
""")
    head = _channel_head(blog, blog.title, f"{blog.origin}/", f"{blog.origin}/feed/", updated)
    return _xml_head(blog) + _RSS_NS + head + "".join(items) + "</channel>\n</rss>\n"


def atom_feed(blog: GeneratedBlog, articles: list[GeneratedArticle], now: float) -> str:
    lang = "ja" if blog.lang == "ja" else "en-US"
    entries = []
    for a in articles:
        count = len(a.visible_comments(now))
        entries.append(f"""<entry>
<author><name>{escape(a.author)}</name></author>
<title type="html">{escape(a.title)}</title>
<link rel="alternate" type="text/html" href="{a.url}" />
<id>{blog.origin}/?p={a.id}</id>
<updated>{iso(a.last_change(now))}</updated>
<published>{iso(a.published)}</published>
<category scheme="{blog.origin}" term="{escape(a.category)}" />
<summary type="html">{escape(a.paragraphs[0])}</summary>
<content type="html" xml:base="{a.url}">{escape(_body_html(a))}</content>
<link rel="replies" type="application/rss+xml" href="{a.url}feed/" thr:count="{count}" />
<link rel="replies" type="text/html" href="{a.url}#comments" thr:count="{count}" />
<thr:total>{count}</thr:total>
</entry>
""")
    return f"""{_xml_head(blog)}<feed xmlns="http://www.w3.org/2005/Atom"
 xmlns:thr="http://purl.org/syndication/thread/1.0" xml:lang="{lang}">
<title type="text">{escape(blog.title)}</title>
<subtitle type="text">{escape(_labels(blog)["tagline"])}</subtitle>
<updated>{iso(blog.last_change(now, articles))}</updated>
<link rel="alternate" type="text/html" href="{blog.origin}/" />
<id>{blog.origin}/feed/atom/</id>
<link rel="self" type="application/atom+xml" href="{blog.origin}/feed/atom/" />
{"".join(entries)}</feed>
"""


def _comment_item_xml(blog: GeneratedBlog, article: GeneratedArticle, c: GeneratedComment, prefix: str) -> str:
    return f"""<item>
<title>{escape(prefix + c.author)}</title>
<link>{article.url}#comment-{c.id}</link>
<dc:creator>{_cdata(c.author)}</dc:creator>
<pubDate>{rfc822(c.time)}</pubDate>
<guid isPermaLink="false">{blog.origin}/?p={article.id}#comment-{c.id}</guid>
<description>{_cdata(c.text)}</description>
<content:encoded>{_cdata("<p>" + escape(c.text) + "</p>")}</content:encoded>
</item>
"""


def comment_feed(blog: GeneratedBlog, article: GeneratedArticle, now: float) -> str:
    """An article's comment feed: its visible comments, newest first."""
    lab = _labels(blog)
    comments = sorted(article.visible_comments(now), key=lambda c: -c.time)
    head = _channel_head(
        blog, lab["comments_on"] + article.title, article.url, f"{article.url}feed/", article.last_change(now)
    )
    items = "".join(_comment_item_xml(blog, article, c, lab["by_colon"]) for c in comments)
    return _xml_head(blog) + _RSS_NS + head + items + "</channel>\n</rss>\n"


def site_comments_feed(
    blog: GeneratedBlog, comments: list[tuple[GeneratedComment, GeneratedArticle]], now: float
) -> str:
    """`/comments/feed/`: the newest visible comments of the whole blog."""
    lab = _labels(blog)
    updated = max((c.time for c, _ in comments), default=0.0)
    head = _channel_head(
        blog, lab["comments_on"] + blog.title, f"{blog.origin}/", f"{blog.origin}/comments/feed/", updated
    )
    items = "".join(
        _comment_item_xml(blog, a, c, f"{lab['comments_on']}{a.title} {lab['by_colon']}") for c, a in comments
    )
    return _xml_head(blog) + _RSS_NS + head + items + "</channel>\n</rss>\n"
