"""Generated blogs: articles published over time, comments arriving after publication.

Only metadata (times, titles, authors, thread structure) is drawn up front; bodies and comment
texts are derived from per-item seeds when first read, and pages are rendered per request, so
a blog of a few thousand articles is cheap. What a page shows depends on the farm clock.
"""

from __future__ import annotations

import bisect
import codecs
import random
import time
from dataclasses import dataclass, field
from functools import cached_property

from farm import render, text
from farm.log import normalize_path
from farm.response import Response, not_found

# Python codec name -> charset label used in headers, <meta> and the XML declaration.
CHARSET_LABELS = {"utf-8": "UTF-8", "shift_jis": "Shift_JIS", "euc_jp": "EUC-JP", "cp932": "Windows-31J"}
FEED_TYPES = {"rss": "application/rss+xml", "atom": "application/atom+xml"}


@dataclass
class GeneratedComment:
    """A reader's (or the author's) comment; visible once `time <= clock.now()`."""

    id: int
    author: str
    time: float
    parent: int | None
    article_id: int
    lang: str = "en"
    seed: str = ""
    topic: str = ""
    by_post_author: bool = False

    @cached_property
    def text(self) -> str:
        return text.comment_text(random.Random(self.seed), self.lang, self.topic)


@dataclass
class GeneratedArticle:
    """An article; published (listed, served) once `published <= clock.now()`."""

    id: int
    url: str
    path: str  # percent-encoded, as in links
    title: str
    author: str
    category: str
    published: float
    comments: list[GeneratedComment] = field(default_factory=list)
    lang: str = "en"
    seed: str = ""
    topic: str = ""

    @cached_property
    def paragraphs(self) -> list[str]:
        return text.paragraphs(random.Random(self.seed), self.lang, self.topic)

    @property
    def body_text(self) -> str:
        return "\n".join(self.paragraphs)

    def visible_comments(self, now: float) -> list[GeneratedComment]:
        return [c for c in self.comments if c.time <= now]

    def last_change(self, now: float) -> float:
        """When the rendered page last changed: publication or the newest visible comment."""
        times = [c.time for c in self.comments if c.time <= now]
        return max([self.published, *times])


@dataclass(frozen=True)
class BlogOptions:
    """How to generate a blog; plain values only."""

    articles: int = 20
    start: float = 0.0  # first publication (POSIX time)
    interval: float = 3600.0
    comments_per_article: tuple[int, int] = (0, 5)
    comment_delays: tuple[float, float] = (600.0, 86400.0)
    lang: str = "en"
    encoding: str = "utf-8"
    feed_format: str = "rss"
    seed: int = 1
    feed_items: int | None = None  # None: the feed lists every published article
    title: str | None = None
    # False: pages name no charset (no header parameter, no <meta>), as old sites do; feeds still do
    declare_charset: bool = True


def charset_label(encoding: str) -> tuple[str, str]:
    """(codec name, charset label) for a supported page encoding."""
    name = codecs.lookup(encoding).name
    if name not in CHARSET_LABELS:
        raise ValueError(f"unsupported encoding {encoding!r}; use one of {sorted(CHARSET_LABELS)}")
    return name, CHARSET_LABELS[name]


def _utc_date(ts: float) -> str:
    return time.strftime("%Y/%m/%d", time.gmtime(ts))


class GeneratedBlog:
    """The articles of one generated blog and the routes that render them."""

    def __init__(self, name: str, origin: str, options: BlogOptions) -> None:
        if options.feed_format not in FEED_TYPES:
            raise ValueError(f"feed_format must be one of {sorted(FEED_TYPES)}")
        self.name = name
        self.origin = origin
        self.options = options
        self.codec, self.charset = charset_label(options.encoding)
        self.lang = options.lang
        title_rng = random.Random(f"{options.seed}/{name}/blog")
        default_title = "のんびり日記" if self.lang == "ja" else f"The {name} notebook"
        self.title = options.title or default_title
        self.owner = text.person(title_rng, self.lang)
        self.articles = self._draw_articles(options.start)
        self._published = [a.published for a in self.articles]
        self._by_path = {normalize_path(a.path): a for a in self.articles}

    def _draw_articles(self, start: float) -> list[GeneratedArticle]:
        opts = self.options
        rng = random.Random(f"{opts.seed}/{self.name}")
        articles: list[GeneratedArticle] = []
        next_comment = 1
        for i in range(opts.articles):
            post_id = i + 1
            published = float(int(start + i * opts.interval))
            subject = text.topic(rng, self.lang)
            heading = text.title(rng, self.lang, subject)
            path = f"/{_utc_date(published)}/{text.slug(heading, post_id)}/"
            article = GeneratedArticle(
                id=post_id,
                url=self.origin + path,
                path=path,
                title=heading,
                author=self.owner,
                category=text.category(rng, self.lang),
                published=published,
                lang=self.lang,
                seed=f"{opts.seed}/{self.name}/post/{post_id}",
                topic=subject,
            )
            article.comments = self._draw_comments(rng, article, next_comment)
            next_comment += len(article.comments)
            articles.append(article)
        return articles

    def _draw_comments(self, rng: random.Random, article: GeneratedArticle, first_id: int) -> list[GeneratedComment]:
        low, high = self.options.comments_per_article
        d_low, d_high = self.options.comment_delays
        delays = sorted(rng.randint(int(d_low), int(d_high)) for _ in range(rng.randint(low, high)))
        comments: list[GeneratedComment] = []
        for k, delay in enumerate(delays):
            # Some comments answer an earlier one (they arrive later, so threads stay causal);
            # some replies come from the post's author, as on real blogs.
            parent = rng.choice(comments).id if comments and rng.random() < 0.35 else None
            by_author = parent is not None and rng.random() < 0.3
            comments.append(
                GeneratedComment(
                    id=first_id + k,
                    author=article.author if by_author else text.person(rng, self.lang),
                    time=article.published + delay,
                    parent=parent,
                    article_id=article.id,
                    lang=self.lang,
                    seed=f"{self.options.seed}/{self.name}/comment/{first_id + k}",
                    topic=article.topic,
                    by_post_author=by_author,
                )
            )
        return comments

    # --- what is visible at a given time -------------------------------------------------

    def published(self, now: float) -> list[GeneratedArticle]:
        """Articles published at `now`, newest first."""
        count = bisect.bisect_right(self._published, now)
        return self.articles[:count][::-1]

    def last_change(self, now: float, articles: list[GeneratedArticle]) -> float:
        return max((a.last_change(now) for a in articles), default=0.0)

    def category_number(self, category: str) -> int:
        """A category's number in the sidebar's links (``/category/<n>/``), as render numbers them."""
        listed = sorted({a.category for a in self.articles[:50]})
        return listed.index(category) + 1 if category in listed else 0

    # --- routing -------------------------------------------------------------------------

    def route(self, path: str, now: float) -> Response:
        """The response for a decoded request path at clock time `now`."""
        visible = self.published(now)
        if path == "/":
            return self._page(render.home_page(self, visible[:10], now), visible, now)
        if path.startswith("/category/") and path.endswith("/"):  # a category archive (the sidebar's links)
            number = path[len("/category/") : -1]
            listed = [a for a in visible if number.isdigit() and self.category_number(a.category) == int(number)]
            if listed:
                return self._page(render.home_page(self, listed[:10], now, archive=True), listed, now)
            return not_found(path)
        if path in ("/feed/", "/feed/rss2/", "/feed/atom/"):
            kind = {"/feed/rss2/": "rss", "/feed/atom/": "atom"}.get(path, self.options.feed_format)
            return self._main_feed(kind, visible, now)
        if path == "/comments/feed/":
            comments = sorted(((c, a) for a in visible for c in a.visible_comments(now)), key=lambda ca: -ca[0].time)[
                :50
            ]
            body = render.site_comments_feed(self, comments, now)
            return self._feed_response(body, "rss", self.last_change(now, visible))
        is_comment_feed = path.endswith("/feed/")
        article = self._by_path.get(path[: -len("feed/")] if is_comment_feed else path)
        if article is None or article.published > now:
            return not_found(path)
        changed = article.last_change(now)
        if is_comment_feed:
            return self._feed_response(render.comment_feed(self, article, now), "rss", changed)
        return self._page(render.article_page(self, article, now), [article], now)

    def _main_feed(self, kind: str, visible: list[GeneratedArticle], now: float) -> Response:
        items = visible if self.options.feed_items is None else visible[: self.options.feed_items]
        body = render.atom_feed(self, items, now) if kind == "atom" else render.rss_feed(self, items, now)
        return self._feed_response(body, kind, self.last_change(now, items))

    def _page(self, html: str, shown: list[GeneratedArticle], now: float) -> Response:
        body = html.encode(self.codec, errors="xmlcharrefreplace")
        content_type = f"text/html; charset={self.charset}" if self.options.declare_charset else "text/html"
        return Response(200, body, content_type=content_type, last_modified=self.last_change(now, shown))

    def _feed_response(self, xml: str, kind: str, changed: float) -> Response:
        body = xml.encode(self.codec, errors="xmlcharrefreplace")
        content_type = f"{FEED_TYPES[kind]}; charset={self.charset}"
        return Response(200, body, content_type=content_type, last_modified=changed)
