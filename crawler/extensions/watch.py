"""Watch mode's timer as an extension (`-a watch=1`): when nothing is due, sleep until the next due
feed or article (at most BLOGS_WATCH_MAX_SLEEP seconds) instead of ending the run."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy import Spider, signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.utils.asyncio import CallLaterResult, call_later

from crawler.outcome import store_failed
from crawler.validation import setting
from store.clock import to_iso

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger("blogs")

# The next wake-up is logged at INFO when the run sleeps at least this long (seconds).
WAKE_UP_INFO_SECONDS = 5.0


class WatchTimer:
    """Keeps a watch run open while it is idle and wakes the spider when something falls due."""

    def __init__(self, crawler: Crawler, max_sleep: float) -> None:
        self.crawler = crawler
        self.max_sleep = max_sleep
        self.timer: CallLaterResult | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WatchTimer:
        if not getattr(crawler.spider, "watch", False):
            raise NotConfigured
        extension = cls(crawler, setting(crawler.settings, "BLOGS_WATCH_MAX_SLEEP", 300.0))
        # Connected after the spider's own idle handler, which schedules whatever is due now.
        crawler.signals.connect(extension.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_idle(self, spider: Spider) -> None:
        store = getattr(spider, "store", None)
        if getattr(spider, "closing", True) or store is None or store_failed(self.crawler):
            return
        engine = self.crawler.engine
        if engine is not None and not engine.spider_is_idle():
            return  # the spider's idle handler scheduled requests: the run goes on without a timer
        if self.timer is None:
            due = store.next_due(list(spider.sources))  # type: ignore[attr-defined]
            now = spider.now()  # type: ignore[attr-defined]
            delay = self.max_sleep if due is None else min(self.max_sleep, max(0.2, due - now))
            # At INFO when it sleeps long enough to look stuck; the short naps between fetches at DEBUG.
            level = logging.INFO if delay >= WAKE_UP_INFO_SECONDS else logging.DEBUG
            wake = to_iso(now + delay)[11:19]
            spider.logger.log(level, "Watch mode: nothing due; next wake-up in %.0f s (%s UTC)", delay, wake)
            self.timer = call_later(delay, self.wake, spider)
        raise DontCloseSpider

    def wake(self, spider: Any) -> None:
        self.timer = None
        if not spider.closing:
            spider.schedule_due("scheduling fetches")

    def spider_closed(self, *args: Any, **kwargs: Any) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
