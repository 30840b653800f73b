"""The run record as an extension: a `runs` row opened with the run and closed with its summary.

At the end the run's store counts (comments added, marked gone, edited, not read; feeds muted) go
into the stats, and the stats and the one-line summary into the row. The `crawl` command logs the
summary as the run's last line, with the exit code.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from scrapy import signals

from crawler.outcome import store_guard, summary_text
from crawler.signals import run_closing, run_opened
from store.clock import to_iso

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from store import StoreBackend


class RunRecord:
    """Opens the run's `runs` row when the store opens and finishes it, with the summary, when the spider closes."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.started = time.monotonic()
        self.run_id = 0
        self.started_at = ""  # run start on the crawler's clock (ISO), for the comment counts
        self.versions_before = 0  # comment_versions rows at the start
        self.comments_before = (0, 0)  # (comments, marked gone) at the start

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RunRecord:
        extension = cls(crawler)
        crawler.signals.connect(extension.run_opened, signal=run_opened)
        crawler.signals.connect(extension.run_closing, signal=run_closing)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def run_opened(self, spider: Any, store: StoreBackend) -> None:
        with store_guard(self.crawler, "starting the run"):
            now = spider.now()
            self.started_at = to_iso(now)
            self.versions_before = store.comment_versions_count()
            self.comments_before = store.comment_totals()
            self.run_id = store.start_run(now=now, feeds_file=str(spider.feeds_path), watch=spider.watch)

    def store_counts(self, store: StoreBackend, feeds: list[str]) -> dict[str, int]:
        """The summary's counts that live in the store: comments added, marked gone or edited during
        this run (differences from its start: also those of pages a crashed run left), feeds muted in all."""
        total, gone_total = store.comment_totals()
        new, gone = max(0, total - self.comments_before[0]), max(0, gone_total - self.comments_before[1])
        return {
            "blogs/comments_new": new,
            "blogs/comments_gone": gone,
            "blogs/comments_edited": max(0, store.comment_versions_count() - self.versions_before),
            # pages whose comments load by script and could not be read: never "no comments"
            "blogs/comments_not_read": store.comments_not_read_since(self.started_at),
            "blogs/feeds_muted_total": store.count_muted(feeds),
        }

    def _count_seconds(self) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.set_value("blogs/run_seconds", round(time.monotonic() - self.started, 3))

    def spider_closed(self, *args: Any, **kwargs: Any) -> None:
        """A run that never opened its store (refused, or the store could not be opened) is timed too."""
        if not self.started_at:
            self._count_seconds()

    def run_closing(self, spider: Any, store: StoreBackend, reason: str) -> None:
        stats = self.crawler.stats
        assert stats is not None
        self._count_seconds()
        if not self.started_at:
            return  # the run never started: nothing was recorded
        with store_guard(self.crawler, "counting the run's comments"):
            for key, value in self.store_counts(store, list(spider.sources)).items():
                stats.set_value(key, value)
        with store_guard(self.crawler, "recording the run"):
            snapshot = stats.get_stats()
            store.finish_run(
                self.run_id, now=spider.now(), reason=reason, summary=summary_text(snapshot), stats=snapshot
            )
