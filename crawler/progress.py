"""The harvest's progress line at INFO, about once a minute (replaces Scrapy's "Crawled N pages").

Harvest: feeds polled 120 (failed 3), due 40, failing 5, muted 1; articles fetched 310, queued 52;
re-fetches 17; extraction backlog 12 pages

Counts of this run come from the stats; what is due, failing or waiting for extraction from the
store, so that a long run over many dead hosts says what it is doing while nothing succeeds.
Switched off with BLOGS_PROGRESS_INTERVAL = 0.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy import Spider, signals
from scrapy.exceptions import NotConfigured
from twisted.internet.task import LoopingCall

from crawler.outcome import store_failed
from crawler.validation import setting

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector


logger = logging.getLogger("blogs")


def progress_line(stats: dict[str, Any], counts: dict[str, int]) -> str:
    """The harvest line from the run's stats and the store's counts: articles fetched and re-fetches
    count the pages stored by this run (first fetches, later ones), queued the articles waiting
    for their first fetch."""

    def run(key: str) -> int:
        return int(stats.get(f"blogs/{key}") or 0)

    return (
        f"Harvest: feeds polled {run('feeds_polled')} (failed {run('feeds_failed')}), due {counts['due']},"
        f" failing {counts['failing']}, muted {counts['muted']}; articles fetched {run('pages_stored/first')},"
        f" queued {counts['queued']}; re-fetches {run('pages_stored/refetch')};"
        f" extraction backlog {counts['backlog']} pages"
    )


class HarvestProgress:
    """Extension: logs progress_line every `interval` seconds while the `blogs` spider runs."""

    def __init__(self, crawler: Crawler, stats: StatsCollector, interval: float) -> None:
        self.crawler = crawler
        self.stats = stats
        self.interval = interval
        self.task: LoopingCall | None = None
        self.spider: Spider | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> HarvestProgress:
        interval = setting(crawler.settings, "BLOGS_PROGRESS_INTERVAL", 60.0)
        if not interval or crawler.stats is None:
            raise NotConfigured
        extension = cls(crawler, crawler.stats, interval)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self, spider: Spider) -> None:
        self.spider = spider
        self.task = LoopingCall(self.log)
        self.task.start(self.interval, now=False)

    def log(self) -> None:
        store = getattr(self.spider, "store", None)
        clock = getattr(self.spider, "now", None)  # the crawler's clock (BLOGS_CLOCK_OFFSET)
        if store is None or clock is None or store_failed(self.crawler):
            return  # another spider, or the store is gone
        now = float(clock())
        try:
            counts = store.harvest_counts(now)
        except Exception as exc:  # a busy or failing store must not stop the crawl for a log line
            logger.debug("Harvest progress: the store could not be counted: %s", exc)
            return
        logger.info("%s", progress_line(self.stats.get_stats(), counts))

    def spider_closed(self, spider: Spider) -> None:
        if self.task is not None and self.task.running:
            self.task.stop()
