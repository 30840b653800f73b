"""Items the spider yields: one `PageItem` per fetched article page (no extraction happens here),
one `CommentFeedItem` per fetched comment feed, one `CommentApiItem` per thread read from a comment system."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field

from store.commentsystems import ApiRead


def body_text(body: bytes) -> str:
    """A page or feed body in a feed export (Scrapyd's items_dir, FEEDS): base64, as JSON has no bytes.

    body_text(b"<p>") == "PHA+"
    """
    return base64.b64encode(body).decode("ascii")


# Field metadata Scrapy's item exporters read (itemadapter: a dataclass field's metadata).
BODY = {"serializer": body_text}


@dataclass
class PageItem:
    """A fetched article page, as the pipelines receive it.

    PageItem(site="gen1", feed_url="http://h/feed/", article_url="http://h/a/", url="http://h/a/",
             status=200, headers={}, body=b"<html>…", fetched_at=0.0, kind="first")

    `article_url` is the normalized natural key of the article (articles.url); `url` is the final
    URL after redirects. `fetched_at` is a POSIX time. Entry metadata comes from the latest feed
    poll. `snapshot_id` is set by PersistPagePipeline once the page is committed to SQLite.
    """

    site: str
    feed_url: str
    article_url: str
    url: str
    status: int
    headers: dict[str, list[str]]
    body: bytes = field(metadata=BODY)
    fetched_at: float
    kind: str  # "first" | "refetch"
    request_url: str = ""
    title: str | None = None
    author: str | None = None
    published: str | None = None  # ISO 8601 UTC
    comment_rss: str | None = None
    slash_comments: int | None = None
    comment_feed_sig: str | None = None
    comment_feed_etag: str | None = None
    comment_feed_last_modified: str | None = None
    snapshot_id: int | None = field(default=None)


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
