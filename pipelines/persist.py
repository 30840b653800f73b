"""Persist first: every fetched page is committed to the store before any other pipeline sees it.

PersistPagePipeline(db_path="blogs.db", refetch_after=[3600.0, 21600.0], background=True)

The snapshot (gzip body, final URL, status, headers, fetch time, first fetch or re-fetch) and
the article's new fetch state and re-fetch schedule are written in one transaction, so a page
is either stored and marked fetched, or neither (and fetched again by the next run).

In a crawl (`background=True`, what `from_crawler` makes) the writes run on one dedicated
writer thread with its own store connection, and `process_item` is a coroutine that resumes
once the transaction is committed: the item still moves on only when its page is durable, but
the reactor keeps downloading meanwhile. A commit that waits on the reactor thread (the write
lock held by an extraction job, a WAL checkpoint, a slow disk) would delay reading responses
already on the wire, and AutoThrottle would take that delay for server latency. Constructed
directly (`background=False`), `process_item` writes at once and returns the item.

A store that cannot be written any more (disk full, I/O error: crawler.outcome.store_fault)
stops the crawl with one line instead of dropping every following page with an error.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from scrapy.exceptions import DropItem
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThreadPool
from twisted.python.threadpool import ThreadPool

from crawler.items import CommentApiItem, CommentFeedItem, PageItem, TemplatePageItem
from crawler.outcome import report_store_fault
from crawler.schedule import DEFAULT_REFETCH_AFTER, parse_durations
from jobs.commentapi import process_api_read, process_left_reads
from store import StoreBackend, open_store, store_location
from store.faults import DATABASE_ERRORS, STORE_ERRORS
from store.pgsql import retry_lost_connection

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

StoredItem = PageItem | CommentFeedItem | CommentApiItem | TemplatePageItem  # what this pipeline commits

logger = logging.getLogger(__name__)
T = TypeVar("T")


def _process_api_read(store: StoreBackend, read_id: int) -> None:
    """Parse a stored comment-system read in one transaction: the unit run again when a PostgreSQL
    connection was lost."""
    with store.transaction():
        process_api_read(store, read_id, time.time())


def _stop(pool: ThreadPool) -> None:
    if not pool.joined:
        pool.stop()


class PersistPagePipeline:
    """Store each PageItem as a snapshot and each CommentFeedItem raw; other items pass through untouched."""

    def __init__(
        self,
        db_path: str,
        refetch_after: list[float],
        stats: StatsCollector | None = None,
        crawler: Crawler | None = None,
        *,
        background: bool = False,
    ) -> None:
        self.db_path = db_path
        self.refetch_after = refetch_after
        self.stats = stats
        self.crawler = crawler
        self.background = background
        # The connection writes go through: touched only by the writer thread when `background`.
        self.store: StoreBackend | None = None
        self.pool: ThreadPool | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PersistPagePipeline:
        settings = crawler.settings
        return cls(
            db_path=store_location(settings.get("BLOGS_DB")),
            refetch_after=parse_durations(settings.get("BLOGS_REFETCH_AFTER") or DEFAULT_REFETCH_AFTER),
            stats=crawler.stats,
            crawler=crawler,
            background=True,
        )

    def open_spider(self) -> None:
        if not self.background:
            self.store = open_store(self.db_path)
            self._parse_left_reads()
            return
        from twisted.internet import reactor

        # One thread: writes are serialized in arrival order and the connection never changes thread.
        self.pool = ThreadPool(minthreads=1, maxthreads=1, name="store-writer")
        self.pool.start()
        self.pool.callInThread(self._parse_left_reads)  # first on the writer thread, before any item
        # A crawl that ends without close_spider (a crash) must not hang on the pool's non-daemon thread.
        reactor.addSystemEventTrigger("during", "shutdown", _stop, self.pool)  # type: ignore[attr-defined,arg-type]

    def _parse_left_reads(self) -> None:
        """Comment threads a killed run committed raw but did not parse (jobs.commentapi)."""
        try:
            process_left_reads(self._writer_store(), time.time())
        except STORE_ERRORS as exc:  # the next run tries again; pages are stored meanwhile
            logger.error("Could not parse the comment threads left by an earlier run: %s", exc)

    async def _close_background(self, pool: ThreadPool) -> None:
        try:
            await self._on_writer(pool, self._close_store)
        finally:
            _stop(pool)  # joins the thread; its queue is empty (Scrapy closes pipelines when no item is left)

    def close_spider(self) -> Coroutine[Any, Any, None] | None:
        pool, self.pool = self.pool, None
        if pool is not None:
            return self._close_background(pool)
        self._close_store()
        return None

    def _close_store(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None

    def _writer_store(self) -> StoreBackend:
        if self.store is None:
            self.store = open_store(self.db_path)
        return self.store

    @staticmethod
    async def _on_writer(pool: ThreadPool, fn: Callable[..., T], *args: Any) -> T:
        from twisted.internet import reactor

        return await maybe_deferred_to_future(deferToThreadPool(reactor, pool, fn, *args))  # type: ignore[arg-type]

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(key)

    def _not_stored(self, exc: BaseException, what: str, item: Any, counter: str) -> DropItem:
        """The DropItem for an item the store could not take. A store fault (full disk, read-only,
        damaged) is logged once for the run and stops it; the article stays due and is fetched
        again next run. Another database error is logged per item; any other OSError propagates."""
        self._inc(counter)
        if self.crawler is not None and report_store_fault(self.crawler, exc, f"storing {item.url}"):
            return DropItem(f"{what} not stored: {exc}", log_level="DEBUG")
        if not isinstance(exc, DATABASE_ERRORS):
            raise exc
        logger.error("Could not store %s %s (%s): %s", what, item.url, item.article_url, exc)
        return DropItem(f"{what} not stored: {exc}")

    def process_item(self, item: Any) -> Any:
        """The item once its page (or comment feed) is committed; a coroutine when `background`."""
        if not isinstance(item, StoredItem):
            return item
        if self.pool is not None:
            return self._process_background(self.pool, item)
        try:
            stored = self._write(item)
        except STORE_ERRORS as exc:
            raise self._drop(exc, item) from exc
        return self._stored(item, stored)

    async def _process_background(self, pool: ThreadPool, item: StoredItem) -> Any:
        try:
            stored = await self._on_writer(pool, self._write, item)
        except STORE_ERRORS as exc:
            raise self._drop(exc, item) from exc
        return self._stored(item, stored)

    def _write(self, item: StoredItem) -> int:
        """Commit the item; runs on the writer thread when `background`. Returns the row id."""
        store = self._writer_store()
        if isinstance(item, CommentApiItem):
            # Committed raw first; parsing it is cheap (JSON), so it follows at once, off the reactor.
            read_id = retry_lost_connection(lambda: store.save_api_read(item.read))
            retry_lost_connection(lambda: _process_api_read(store, read_id))
            return read_id
        if isinstance(item, CommentFeedItem):
            # A comment feed is committed raw, as a page is, before a job parses it (jobs.commentfeeds).
            return retry_lost_connection(lambda: store.save_comment_feed(item))
        if isinstance(item, TemplatePageItem):
            return store.save_template_page(
                site=item.site,
                url=item.url,
                status=item.status,
                headers=item.headers,
                body=item.body,
                fetched_at=item.fetched_at,
                kind=item.kind,
            )
        return store.save_page(item, offsets=self.refetch_after)

    def _drop(self, exc: BaseException, item: StoredItem) -> DropItem:
        if isinstance(item, CommentApiItem):
            return self._not_stored(exc, "comment thread", item, "blogs/comment_api_store_failed")
        if isinstance(item, CommentFeedItem):
            return self._not_stored(exc, "comment feed", item, "blogs/comment_feeds_store_failed")
        if isinstance(item, TemplatePageItem):
            return self._not_stored(exc, "template page", item, "blogs/template_pages_store_failed")
        return self._not_stored(exc, "page", item, "blogs/pages_store_failed")

    def _stored(self, item: StoredItem, row_id: int) -> StoredItem:
        # Back on the reactor thread: the item is committed, later pipelines may use its id.
        if isinstance(item, CommentApiItem):
            item.read_id = row_id
            self._inc("blogs/comment_api_reads_stored")
            return item
        if isinstance(item, CommentFeedItem):
            item.fetch_id = row_id
            self._inc("blogs/comment_feeds_stored")
            return item
        if isinstance(item, TemplatePageItem):
            item.page_id = row_id
            self._inc("blogs/template_pages_stored")
            return item
        item.snapshot_id = row_id
        self._inc("blogs/pages_stored")
        self._inc(f"blogs/pages_stored/{item.kind}")
        return item
