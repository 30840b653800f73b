"""Items the spider yields: one `PageItem` per fetched article page (no extraction happens here),
one `CommentFeedItem` per fetched comment feed, one `CommentApiItem` per thread read from a comment system,
one `TemplatePageItem` per fetched template page (a site's home page, for its provisional set)."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field

from store.commentsystems import ApiRead
from store.pages import PageRecord


def body_text(body: bytes) -> str:
    """A page or feed body in a feed export (Scrapyd's items_dir, FEEDS): base64, as JSON has no bytes.

    body_text(b"<p>") == "PHA+"
    """
    return base64.b64encode(body).decode("ascii")


# Field metadata Scrapy's item exporters read (itemadapter: a dataclass field's metadata).
BODY = {"serializer": body_text}


@dataclass(kw_only=True)
class PageItem(PageRecord):
    """A fetched article page, as the pipelines receive it: the page record (store.pages.PageRecord)
    plus what the latest feed poll said of its entry.

    PageItem(site="gen1", feed_url="http://h/feed/", article_url="http://h/a/", url="http://h/a/",
             status=200, headers={}, body=b"<html>…", fetched_at=0.0, kind="first")

    `snapshot_id` is set by PersistPagePipeline once the page is committed to the store.
    """

    body: bytes = field(metadata=BODY)
    feed_url: str
    title: str | None = None
    author: str | None = None
    published: str | None = None  # ISO 8601 UTC
    comment_rss: str | None = None
    snapshot_id: int | None = None


@dataclass
class CommentFeedItem:
    """A fetched comment feed of an article (the spider yields it; ExtractPipeline stores its entries).

    CommentFeedItem(site="gen1", article_url="http://h/a/", url="http://h/a/feed/", body=b"<rss…",
                    headers={"content-type": "application/rss+xml"}, fetched_at=0.0)
    """

    site: str
    article_url: str
    url: str
    body: bytes = field(metadata=BODY)
    headers: dict[str, str]
    fetched_at: float
    fetch_id: int | None = None  # comment_feed_fetches.id, set once the response is persisted


@dataclass
class CommentApiItem:
    """A thread read from a comment system's endpoint (crawler.commentapi): every response, raw.

    The pipelines persist it (store.commentsystems) and then parse it (jobs.commentapi).
    """

    read: ApiRead
    read_id: int | None = None  # comment_api_reads.id, set once the read is persisted

    @property
    def article_url(self) -> str:
        return self.read.article

    @property
    def url(self) -> str:
        return self.read.url


@dataclass
class TemplatePageItem:
    """A page of a site's template beside its articles (its home page), fetched so that a new site's
    first articles are never a set of one page (jobs.extraction.run_provisional); never a post.

    TemplatePageItem(site="gen1", url="http://h/", status=200, headers={}, body=b"<html>…", fetched_at=0.0)
    """

    site: str
    url: str
    status: int
    headers: dict[str, list[str]]
    body: bytes = field(metadata=BODY)
    fetched_at: float
    kind: str = "home page"  # or "previous article", "archive page" (crawler.templatelinks)
    page_id: int | None = None  # template_pages.id, set once the page is persisted

    @property
    def article_url(self) -> str:
        return self.url  # for the messages that name a stored thing's article
