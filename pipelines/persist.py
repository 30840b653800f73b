"""Persist first: every fetched page is committed to SQLite before any other pipeline sees it.

PersistPagePipeline(db_path="blogs.db", refetch_after=[3600.0, 21600.0])

The snapshot (gzip body, final URL, status, headers, fetch time, first fetch or re-fetch) and
the article's new fetch state and re-fetch schedule are written in one transaction, so a page
is either stored and marked fetched, or neither (and fetched again by the next run).

A store that cannot be written any more (disk full, I/O error: crawler.outcome.store_fault)
stops the crawl with one line instead of dropping every following page with an error.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import DropItem

from crawler.items import CommentFeedItem, PageItem
from crawler.outcome import report_store_fault
from crawler.schedule import DEFAULT_REFETCH_AFTER, parse_durations
from store import StoreBackend, default_db_path, open_store
from store.commentfeeds import save_comment_feed

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)


class PersistPagePipeline:
    """Store each PageItem as a snapshot and each CommentFeedItem raw; other items pass through untouched."""

    def __init__(
        self,
        db_path: str,
        refetch_after: list[float],
        stats: StatsCollector | None = None,
        crawler: Crawler | None = None,
    ) -> None:
        self.db_path = db_path
        self.refetch_after = refetch_after
        self.stats = stats
        self.crawler = crawler
        self.store: StoreBackend | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PersistPagePipeline:
        settings = crawler.settings
        return cls(
            db_path=str(default_db_path(settings.get("BLOGS_DB"))),
            refetch_after=parse_durations(settings.get("REFETCH_AFTER") or DEFAULT_REFETCH_AFTER),
            stats=crawler.stats,
            crawler=crawler,
        )

    def open_spider(self) -> None:
        self.store = open_store(self.db_path)

    def close_spider(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(key)

    def _not_stored(self, exc: sqlite3.Error | OSError, what: str, item: Any, counter: str) -> DropItem:
        """The DropItem for an item the store could not take. A store fault (full disk, read-only,
        damaged) is logged once for the run and stops it; the article stays due and is fetched
        again next run. Another SQLite error is logged per item; any other OSError propagates."""
        self._inc(counter)
        if self.crawler is not None and report_store_fault(self.crawler, exc, f"storing {item.url}"):
            return DropItem(f"{what} not stored: {exc}", log_level="DEBUG")
        if not isinstance(exc, sqlite3.Error):
            raise exc
        logger.error("Could not store %s %s (%s): %s", what, item.url, item.article_url, exc)
        return DropItem(f"{what} not stored: {exc}")

    def process_item(self, item: Any) -> Any:
        if isinstance(item, CommentFeedItem):
            return self._comment_feed(item)
        if not isinstance(item, PageItem):
            return item
        if self.store is None:
            self.store = open_store(self.db_path)
        try:
            item.snapshot_id = self.store.save_page(
                article=item.article_url,
                site=item.site,
                kind=item.kind,
                url=item.url,
                request_url=item.request_url or item.url,
                status=item.status,
                headers=item.headers,
                body=item.body,
                fetched_at=item.fetched_at,
                offsets=self.refetch_after,
                slash_comments=item.slash_comments,
                comment_feed_sig=item.comment_feed_sig,
                comment_feed_etag=item.comment_feed_etag,
                comment_feed_last_modified=item.comment_feed_last_modified,
            )
        except (sqlite3.Error, OSError) as exc:
            raise self._not_stored(exc, "page", item, "blogs/pages_store_failed") from exc
        self._inc("blogs/pages_stored")
        self._inc(f"blogs/pages_stored/{item.kind}")
        return item

    def _comment_feed(self, item: CommentFeedItem) -> CommentFeedItem:
        # A comment feed is committed raw, as a page is, before a job parses it (pipelines.feedcheck).
        if self.store is None:
            self.store = open_store(self.db_path)
        try:
            with self.store.transaction() as db:
                item.fetch_id = save_comment_feed(db, item)
        except (sqlite3.Error, OSError) as exc:
            raise self._not_stored(exc, "comment feed", item, "blogs/comment_feeds_store_failed") from exc
        self._inc("blogs/comment_feeds_stored")
        return item
