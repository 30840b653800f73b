"""The crawl lock as an extension: one crawl at a time per store (store.lockfile.run_lock).

The `crawl` command (commands/crawl.py) takes the lock before anything opens the store, so the
acquire here succeeds at once in that process; it refuses only a run started some other way
(Scrapyd, a script). The lock is given back after the spider closed the store.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy import Spider, signals
from scrapy.exceptions import CloseSpider

from store import store_location
from store.lockfile import RunLock, run_lock
from store.pglock import PgRunLock
from store.postgres import redact

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger("blogs")


class CrawlLock:
    """Holds the store's crawl lock (shared between crawler workers on PostgreSQL) while the spider is open."""

    def __init__(self, location: str, stats: StatsCollector | None = None) -> None:
        self.location = location
        self.stats = stats
        self.lock: RunLock | PgRunLock | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlLock:
        extension = cls(store_location(crawler.settings.get("BLOGS_DB")), crawler.stats)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        # Connected after the spider's own spider_closed handler, which closes the store first.
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self, spider: Spider) -> None:
        lock = run_lock(self.location, shared=True)
        if not lock.acquire():
            logger.error(
                "Another crawl is using %s (%s); this run exits without fetching anything.",
                redact(self.location),
                lock.holder(),
            )
            if self.stats is not None:
                self.stats.inc_value("blogs/runs_locked_out")
            raise CloseSpider("already_running")
        self.lock = lock

    def spider_closed(self, *args: Any, **kwargs: Any) -> None:
        if self.lock is not None:
            self.lock.release()
            self.lock = None
