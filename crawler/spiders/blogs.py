"""The `blogs` spider: polls due feeds, fetches new articles at once, re-fetches them for comments.

scrapy crawl blogs [-a feeds=PATH] [-a watch=1] [-a force=1] [-a unmute=all|URL|SITE] [-s BLOGS_DB=PATH]

All state lives in the SQLite store (pipelines.store): a cron run continues where the last one
stopped and polls only what is due. The spider does no extraction: each fetched article page
becomes a `PageItem` that PersistPagePipeline commits before anything else sees it.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider, DontCloseSpider
from scrapy.utils.asyncio import CallLaterResult, call_later

from crawler.articlefetch import ArticleFetching
from crawler.feedpoll import FeedPolling
from crawler.feeds import read_feeds_file
from crawler.items import PageItem
from crawler.lock import RunLock
from crawler.schedule import (
    DEFAULT_REFETCH_AFTER,
    parse_durations,
)
from pipelines.store import Store, default_db_path


def _truthy(value: Any) -> bool:
    return str(value).strip().lower() in {"1", "true", "yes", "on"} if value is not None else False


class BlogsSpider(FeedPolling, ArticleFetching):
    name = "blogs"

    def __init__(
        self,
        feeds: str | None = None,
        watch: str | None = None,
        force: str | None = None,
        unmute: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.feeds_arg = feeds
        self.watch = _truthy(watch)
        self.force = _truthy(force)
        self.unmute_arg = unmute
        self.store: Store | None = None
        self.lock: RunLock | None = None
        self.run_id = 0
        self.rng = random.Random()
        self.sources: dict[str, str] = {}  # feed url (as listed) -> site name
        self.feeds_mtime: float | None = None
        self.inflight_feeds: set[str] = set()
        self.inflight_articles: set[str] = set()
        # A cron run handles each feed and article at most once, even if it falls due again.
        self.handled: set[str] = set()
        self.logged: dict[tuple[str, str], float] = {}
        self.timer: CallLaterResult | None = None
        self.closing = False
        self.started = time.monotonic()

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> BlogsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        s = crawler.settings
        spider.db_path = default_db_path(s.get("BLOGS_DB"))
        feeds = spider.feeds_arg or s.get("BLOGS_FEEDS") or str(default_db_path(None).parent / "feeds.txt")
        spider.feeds_path = Path(feeds).expanduser()
        spider.offsets = parse_durations(s.get("REFETCH_AFTER") or DEFAULT_REFETCH_AFTER)
        spider.min_interval = s.getfloat("BLOGS_FEED_MIN_INTERVAL", 300)
        spider.max_interval = max(spider.min_interval, s.getfloat("BLOGS_FEED_MAX_INTERVAL", 86400))
        spider.backoff_base = s.getfloat("BLOGS_BACKOFF_BASE", 300)
        spider.mute_after = s.getint("BLOGS_MUTE_AFTER", 8)
        spider.article_max_failures = s.getint("BLOGS_ARTICLE_MAX_FAILURES", 5)
        spider.max_entries = s.getint("BLOGS_MAX_ENTRIES", 500)
        spider.max_sleep = s.getfloat("BLOGS_WATCH_MAX_SLEEP", 300)
        spider.clock_offset = s.getfloat("BLOGS_CLOCK_OFFSET", 0.0)
        if not s.get("BLOGS_CONTACT"):
            spider.logger.warning("BLOGS_CONTACT is not set: site owners cannot reach you (-s BLOGS_CONTACT=...)")
        crawler.signals.connect(spider._on_idle, signal=signals.spider_idle)
        crawler.signals.connect(spider._on_closed, signal=signals.spider_closed)
        for sig in (signals.item_scraped, signals.item_dropped, signals.item_error):
            crawler.signals.connect(spider._on_item_done, signal=sig)
        crawler.signals.connect(spider._on_request_dropped, signal=signals.request_dropped)
        return spider

    # -- run lifecycle ---------------------------------------------------------------------

    async def start(self) -> AsyncIterator[Any]:
        self.lock = RunLock(f"{self.db_path}.lock")
        if not self.lock.acquire():
            self.logger.error(
                "Another crawl is using %s (%s); this run exits without fetching anything.",
                self.db_path,
                self.lock.holder(),
            )
            self.inc("blogs/runs_locked_out")
            self.lock = None
            raise CloseSpider("already_running")
        self.store = Store(self.db_path)
        self.run_id = self.store.start_run(now=self.now(), feeds_file=str(self.feeds_path), watch=self.watch)
        if not self._load_feeds(first=True):
            raise CloseSpider("no_feeds")
        self._apply_unmute()
        for request in self._due_requests():
            yield request

    def _load_feeds(self, first: bool = False) -> bool:
        """(Re)read the feeds file when it changed; False when there is nothing to watch."""
        try:
            mtime = self.feeds_path.stat().st_mtime
        except OSError as exc:
            if first:
                self.logger.error("Cannot read feeds file %s: %s", self.feeds_path, exc)
                return False
            return bool(self.sources)
        if mtime == self.feeds_mtime:
            return bool(self.sources)
        parsed = read_feeds_file(self.feeds_path)
        for lineno, text, reason in parsed.rejected:
            self.log_once(
                "feedsfile",
                f"{lineno}:{text}",
                logging.WARNING,
                "%s line %d ignored (%s): %s",
                self.feeds_path,
                lineno,
                reason,
                text,
            )
            self.inc("blogs/feeds_file_rejected")
        self.feeds_mtime = mtime
        self.sources = {src.url: src.name for src in parsed.sources}
        assert self.store is not None
        self.store.sync_feeds(self.sources.items(), self.now())
        if not self.sources:
            self.logger.error("Feeds file %s lists no usable feed", self.feeds_path)
        return bool(self.sources)

    def _apply_unmute(self) -> None:
        if not self.unmute_arg or self.store is None:
            return
        wanted = str(self.unmute_arg)
        urls = [u for u, site in self.sources.items() if wanted in ("1", "all", u, site)]
        count = self.store.unmute(urls)
        self.logger.info("Unmuted %d feed(s)", count)

    def _due_requests(self) -> list[Request]:
        """Requests for everything due now: pending first fetches and feed polls; re-fetches only
        once no feed poll is under way, so that articles the polls discover go first."""
        if self.store is None or self.closing:
            return []
        self._load_feeds()
        now = self.now()
        feeds = list(self.sources)
        polls: list[Request] = []
        rows = self.store.due_feeds(feeds, now + 3650 * 86400 if self.force else now)
        self.force = False  # "poll everything now" applies to the first round only
        for row in rows:
            if row["url"] in self.inflight_feeds or (not self.watch and row["url"] in self.handled):
                continue
            self.handled.add(row["url"])
            polls.append(self._feed_request(row))
        first: list[Request] = []
        later: list[Request] = []
        for art in self.store.due_articles(feeds, now):
            if art["url"] in self.inflight_articles or (not self.watch and art["url"] in self.handled):
                continue
            if art["state"] == "pending":
                self.handled.add(art["url"])
                first.extend(self._first_requests(art))
            elif not self.inflight_feeds:
                self.handled.add(art["url"])
                later.extend(self._refetch_requests(art, now))
        return first + polls + later

    # -- watch mode ------------------------------------------------------------------------

    def _on_idle(self) -> None:
        if self.closing or self.store is None:
            return
        requests = self._due_requests()
        for request in requests:
            self.crawler.engine.crawl(request)  # type: ignore[union-attr]
        if requests:
            raise DontCloseSpider
        if not self.watch:
            return
        if self.timer is None:
            due = self.store.next_due(list(self.sources))
            delay = self.max_sleep if due is None else min(self.max_sleep, max(0.2, due - self.now()))
            self.logger.debug("Watch mode: next wake-up in %.1f s", delay)
            self.timer = call_later(delay, self._wake)
        raise DontCloseSpider

    def _wake(self) -> None:
        self.timer = None
        if self.closing:
            return
        for request in self._due_requests():
            self.crawler.engine.crawl(request)  # type: ignore[union-attr]

    def _on_item_done(self, item: Any, *args: Any, **kwargs: Any) -> None:
        if isinstance(item, PageItem):
            self.inflight_articles.discard(item.article_url)

    def _on_request_dropped(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # A request the scheduler refused never reaches a callback: forget it was in flight.
        art = request.meta.get("article")
        if art:
            self.inflight_articles.discard(art["url"])
        if request.meta.get("feed"):
            self.inflight_feeds.discard(request.meta["feed"])

    def _on_closed(self, spider: Spider, reason: str) -> None:
        self.closing = True
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        stats = self.crawler.stats.get_stats() if self.crawler.stats else {}
        v = lambda key: int(stats.get(f"blogs/{key}", 0))  # noqa: E731
        muted = self.store.count_muted(list(self.sources)) if self.store is not None else 0
        summary = (
            f"feeds polled {v('feeds_polled')} / not modified {v('feeds_not_modified')} / failed "
            f"{v('feeds_failed')} / muted {v('feeds_muted')} (muted in all: {muted}); new articles "
            f"{v('articles_new')}; "
            f"re-fetches {v('refetches')} (skipped {v('refetches_skipped')}); "
            f"pages stored {v('pages_stored')}; {time.monotonic() - self.started:.1f} s"
        )
        stats = {**stats, "blogs/run_seconds": round(time.monotonic() - self.started, 3)}
        if self.store is not None:
            self.logger.info("Run summary: %s", summary)
            try:
                self.store.finish_run(self.run_id, now=self.now(), reason=reason, summary=summary, stats=stats)
            finally:
                self.store.close()
                self.store = None
        if self.lock is not None:
            self.lock.release()
