"""The `blogs` spider: polls due feeds, fetches new articles at once, re-fetches them for comments.

scrapy crawl blogs [-a feeds=PATH] [-a watch=1] [-a force=1] [-a unmute=all|URL|SITE] [-a shard=K/N]
                   [-s BLOGS_DB=PATH|URL]

All state lives in the store (store.open_store: a SQLite file or a PostgreSQL database): a cron
run continues where the last one stopped and polls only what is due. Several runs may share a
PostgreSQL store: each fetches the sites it holds leases on (crawler.leasing); `-a shard=K/N`
restricts a run to the K-th of N fixed shares of the sites instead (by a hash of the site name).
The spider does no extraction: each fetched article page
becomes a `PageItem` that PersistPagePipeline commits before anything else sees it.
"""

from __future__ import annotations

import difflib
import hashlib
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
from twisted.internet.task import LoopingCall
from twisted.python.failure import Failure

from crawler.articlefetching import ArticleFetching
from crawler.commentapi import DEFAULT_BUDGET, DEFAULT_PAGE_SIZE, CommentApiFetching
from crawler.connectors import ConnectorSettings
from crawler.feedpolling import FeedPolling
from crawler.feedsfile import FeedsFileError, load_feeds_file
from crawler.items import CommentApiItem, CommentFeedItem, PageItem
from crawler.leasing import SiteLeases, site_given_back
from crawler.lock import RunLock, run_lock
from crawler.outcome import store_failed, store_guard, summary_text
from crawler.schedule import DEFAULT_REFETCH_AFTER, parse_durations
from crawler.validation import check_arguments, check_settings
from store import StoreBackend, default_db_path, open_store, store_location
from store.clock import to_iso
from store.leases import worker_name
from store.pglock import PgRunLock
from store.postgres import is_database_url, redact


def parse_shard(value: str | None) -> tuple[int, int] | None:
    """`-a shard=K/N` as (K, N), 1 <= K <= N; None without it. parse_shard("2/4") == (2, 4)."""
    if value is None:
        return None
    return check_arguments({"shard": value})["shard"]  # type: ignore[no-any-return]


def in_shard(site: str, shard: tuple[int, int] | None) -> bool:
    """Whether `site` is in shard K of N: a stable hash of its name, the same on every machine."""
    if shard is None:
        return True
    k, n = shard
    return int(hashlib.sha1(site.encode("utf-8")).hexdigest(), 16) % n == k - 1


def feeds_file_path(argument: str | None, setting: str | None) -> Path:
    """The run's feeds file: `-a feeds=PATH`, else BLOGS_FEEDS, else feeds.txt next to scrapy.cfg."""
    return Path(argument or setting or str(default_db_path(None).parent / "feeds.txt")).expanduser()


# Watch mode logs its next wake-up at INFO when it sleeps at least this long (seconds).
WAKE_UP_INFO_SECONDS = 5.0
# How often a worker holding a limited number of sites (PostgreSQL) looks for more, seconds.
TOP_UP_SECONDS = 1.0


class BlogsSpider(FeedPolling, ArticleFetching, CommentApiFetching):
    name = "blogs"
    lease_seconds: float  # BLOGS_LEASE_SECONDS: a site lease lapses this long after its last renewal
    lease_sites: int  # BLOGS_LEASE_SITES: most sites a worker holds at once on a shared store

    def __init__(
        self,
        feeds: str | None = None,
        watch: str | None = None,
        force: str | None = None,
        unmute: str | None = None,
        shard: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        # The same checks as the `crawl` command's (it refuses a bad argument before anything opens).
        given = {"feeds": feeds, "watch": watch, "force": force, "unmute": unmute, "shard": shard, **kwargs}
        arguments = check_arguments({name: value for name, value in given.items() if value is not None})
        self.shard: tuple[int, int] | None = arguments.get("shard")
        self.feeds_arg: str | None = arguments.get("feeds")
        self.watch: bool = arguments.get("watch", False)
        self.force: bool = arguments.get("force", False)
        self.unmute_arg: str | None = arguments.get("unmute")
        self.store: StoreBackend | None = None
        self.lock: RunLock | PgRunLock | None = None
        self.run_id = 0
        self.rng = random.Random()
        self.sources: dict[str, str] = {}  # feed url (as listed) -> site name
        self.feeds_mtime: float | None = None
        self.inflight_feeds: set[str] = set()
        self.inflight_articles: set[str] = set()
        self.inflight_comment_feeds: set[str] = set()  # articles whose first comment feed is in flight
        # A cron run handles each feed and article at most once, even if it falls due again.
        self.handled: set[str] = set()
        self.logged: dict[tuple[str, str], float] = {}
        self.held_sites: dict[str, float] = {}  # site -> end of its Retry-After (store: sites.throttled_until)
        self.timer: CallLaterResult | None = None
        self.leases: SiteLeases | None = None  # the sites this worker fetches (crawler.leasing)
        self.renewal: LoopingCall | None = None
        self.top_up: LoopingCall | None = None
        self.closing = False
        self.started = time.monotonic()
        self.started_at = ""  # run start on the crawler's clock (ISO), for the comment counts
        self.versions_before = 0  # comment_versions rows at the start, when the table exists
        self.comments_before = (0, 0)  # (comments, marked gone) at the start

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> BlogsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        s = crawler.settings
        checked = check_settings(s)  # the `crawl` command checked them already; this is for other launchers
        spider.db_path = store_location(s.get("BLOGS_DB"))
        spider.feeds_path = feeds_file_path(spider.feeds_arg, s.get("BLOGS_FEEDS"))
        spider.offsets = checked.get("REFETCH_AFTER") or parse_durations(DEFAULT_REFETCH_AFTER)
        spider.min_interval = checked.get("BLOGS_FEED_MIN_INTERVAL", 300.0)
        spider.max_interval = checked.get("BLOGS_FEED_MAX_INTERVAL", 86400.0)
        spider.backoff_base = checked.get("BLOGS_BACKOFF_BASE", 300.0)
        spider.mute_after = checked.get("BLOGS_MUTE_AFTER", 8)
        spider.article_max_failures = checked.get("BLOGS_ARTICLE_MAX_FAILURES", 5)
        spider.max_entries = checked.get("BLOGS_MAX_ENTRIES", 500)
        spider.max_sleep = checked.get("BLOGS_WATCH_MAX_SLEEP", 300.0)
        spider.clock_offset = checked.get("BLOGS_CLOCK_OFFSET", 0.0)
        spider.lease_seconds = checked.get("BLOGS_LEASE_SECONDS", 300.0)
        # Sites a worker holds at once on a shared store: as many as its request slots keep busy
        # with AutoThrottle's per-site delays (4 x the sites it fetches from at the same moment).
        per_site = checked.get("CONCURRENT_REQUESTS_PER_DOMAIN", 2)
        default_sites = 4 * max(1, checked.get("CONCURRENT_REQUESTS", 16) // per_site)
        spider.lease_sites = checked.get("BLOGS_LEASE_SITES", default_sites)
        spider.comment_api_budget = checked.get("BLOGS_COMMENT_API_BUDGET", DEFAULT_BUDGET)
        spider.comment_api_page_size = checked.get("BLOGS_COMMENT_API_PAGE_SIZE", DEFAULT_PAGE_SIZE)
        spider.comment_api_spent, spider.comment_api_window = {}, time.monotonic()
        spider.connector_settings = ConnectorSettings(
            disqus_key=str(s.get("BLOGS_DISQUS_API_KEY") or ""),
            github_api=str(s.get("BLOGS_GITHUB_API") or "https://api.github.com"),
            github_token=str(s.get("BLOGS_GITHUB_TOKEN") or ""),
        )
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
        # The `crawl` command (commands/crawl.py) took this lock before anything opened
        # the store, so this succeeds at once; it refuses only a run started some other way.
        self.lock = run_lock(self.db_path, shared=True)
        if not self.lock.acquire():
            self.logger.error(
                "Another crawl is using %s (%s); this run exits without fetching anything.",
                redact(self.db_path),
                self.lock.holder(),
            )
            self.inc("blogs/runs_locked_out")
            self.lock = None
            raise CloseSpider("already_running")
        requests: list[Request] = []
        with store_guard(self.crawler, "starting the run"):
            self.store = open_store(self.db_path)
            self.keep_clock_monotonic()
            self.started_at = to_iso(self.now())
            self.versions_before = self.store.comment_versions_count()
            self.comments_before = self.store.comment_totals()
            self.held_sites = self.store.throttled_sites(self.now())
            self.run_id = self.store.start_run(now=self.now(), feeds_file=str(self.feeds_path), watch=self.watch)
            # SQLite: one crawl at a time, it holds every site; PostgreSQL: workers divide them.
            limit = self.lease_sites if is_database_url(self.db_path) else 0
            self.leases = SiteLeases(
                self.store, owner=worker_name(), lease=self.lease_seconds, limit=limit, on_give_back=self._gave_back
            )
            self.renewal = LoopingCall(self._renew_leases)
            self.renewal.start(self.lease_seconds / 3, now=False)
            if limit:  # a worker holding some sites: take the next as soon as one is done, not in waves
                self.top_up = LoopingCall(self._take_more_sites)
                self.top_up.start(TOP_UP_SECONDS, now=False)
            if not self._load_feeds(first=True):
                raise CloseSpider("no_feeds")
            self._apply_unmute()
            requests = self._due_requests()
        for request in requests:
            yield request

    def _load_feeds(self, first: bool = False) -> bool:
        """(Re)read the feeds file when it changed; False when there is nothing to watch.

        A watch run whose file became unusable keeps the list it had (and says so once).
        """
        try:
            mtime = self.feeds_path.stat().st_mtime
        except OSError as exc:
            if first:
                self.logger.error("Cannot read feeds file %s: %s", self.feeds_path, exc.strerror or exc)
                return False
            return bool(self.sources)
        if mtime == self.feeds_mtime:
            return bool(self.sources)
        try:
            parsed = load_feeds_file(self.feeds_path)
        except FeedsFileError as exc:
            if first:
                self.logger.error("%s", str(exc)[:1].upper() + str(exc)[1:])
                return False
            self.log_once("feedsfile", str(self.feeds_path), logging.WARNING, "%s; keeping the feeds read before", exc)
            return bool(self.sources)
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
        assert self.store is not None
        names = self._known_names({src.url: src.name for src in parsed.sources})
        self.sources = {url: name for url, name in names.items() if in_shard(name, self.shard)}
        self.store.sync_feeds(self.sources.items(), self.now())
        return bool(self.sources)

    def _known_names(self, listed: dict[str, str]) -> dict[str, str]:
        """The feeds file's (url -> site name), each feed the store knows kept under the site it has
        there: a site is its feed, and a new name on its line must not split its articles in two."""
        assert self.store is not None
        stored = self.store.feed_sites()
        taken = set(stored.values())
        out: dict[str, str] = {}
        for url, name in listed.items():
            known = stored.get(url)
            if known is not None and known != name:
                self.log_once(
                    "rename",
                    url,
                    logging.WARNING,
                    "%s names the feed %s %r; it stays site %r, as the store has it (a site is its feed: renaming"
                    " moves none of its articles)",
                    self.feeds_path,
                    url,
                    name,
                    known,
                )
                name = known
            elif known is None and name in taken:
                self.log_once(
                    "rename",
                    url,
                    logging.WARNING,
                    "%s gives the new feed %s the name %r of a site the store has for another feed; both feeds'"
                    " articles will be listed under %r",
                    self.feeds_path,
                    url,
                    name,
                    name,
                )
            out[url] = name
        return out

    def _apply_unmute(self) -> None:
        """`-a unmute=all|URL|SITE`: say which feeds it unmuted and why they had been muted."""
        if not self.unmute_arg or self.store is None:
            return
        wanted = str(self.unmute_arg)
        urls = [u for u, site in self.sources.items() if wanted in ("1", "all", u, site)]
        if not urls:
            known = sorted({*self.sources, *self.sources.values()})
            close = difflib.get_close_matches(wanted, known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            self.logger.warning(
                "unmute=%s names no feed URL or site of %s%s: nothing unmuted", wanted, self.feeds_path, hint
            )
            return
        muted = []
        for url in urls:
            row = self.store.feed(url)
            if row and row.get("muted_at"):
                muted.append(f"{url} ({row.get('mute_reason') or 'muted'})")
        self.store.unmute(urls)
        if muted:
            self.logger.info("Unmuted %d feed(s), polled again now: %s", len(muted), "; ".join(muted))
        else:
            self.logger.info("unmute=%s: none of its %d feed(s) was muted", wanted, len(urls))

    def _due_requests(self) -> list[Request]:
        """Requests for everything due now: pending first fetches and feed polls; re-fetches only
        once no feed poll is under way, so that articles the polls discover go first."""
        if self.store is None or self.closing or store_failed(self.crawler):
            return []
        self._load_feeds()
        now = self.now()
        assert self.leases is not None
        feeds = self.leases.feeds(self.sources, busy=self._busy_sites(), now=now, force=self.force)
        polls: list[Request] = []
        rows = self.store.due_feeds(feeds, now + 3650 * 86400 if self.force else now)
        rows = self.without_held_sites(rows, "feeds", now)
        self.force = False  # "poll everything now" applies to the first round only
        for row in rows:
            if row["url"] in self.inflight_feeds or (not self.watch and row["url"] in self.handled):
                continue
            self.handled.add(row["url"])
            polls.append(self._feed_request(row))
        first: list[Request] = []
        later: list[Request] = []
        for art in self.without_held_sites(self.store.due_articles(feeds, now), "articles", now):
            if art["url"] in self.inflight_articles or (not self.watch and art["url"] in self.handled):
                continue
            if art["state"] == "pending":
                self.handled.add(art["url"])
                first.extend(self._first_requests(art))
            elif not self.inflight_feeds:
                self.handled.add(art["url"])
                later.extend(self._refetch_requests(art, now))
        return first + polls + later

    def _busy_sites(self) -> set[str]:
        """Sites with a feed poll or a page fetch in flight (their leases are kept)."""
        assert self.store is not None
        feeds = {self.sources[url] for url in self.inflight_feeds if url in self.sources}
        return feeds | self.store.article_sites(sorted(self.inflight_articles | self.inflight_comment_feeds))

    def _gave_back(self, site: str) -> None:
        self.crawler.signals.send_catch_log(site_given_back, site=site)

    def _take_more_sites(self) -> None:
        """Give back the sites that are done and claim others with work due, while the others are still
        being fetched: without it a worker would claim its next sites only when all of them are done."""
        if self.store is None or self.leases is None or self.closing or store_failed(self.crawler):
            return
        if len(self._busy_sites()) >= self.leases.limit:
            return
        with store_guard(self.crawler, "claiming sites"):
            for request in self._due_requests():
                self.crawler.engine.crawl(request)  # type: ignore[union-attr]

    def _renew_leases(self) -> None:
        if self.store is None or self.leases is None or self.closing or store_failed(self.crawler):
            return
        with store_guard(self.crawler, "renewing the site leases"):
            self.leases.renew(self.now())

    # -- watch mode ------------------------------------------------------------------------

    def _on_idle(self) -> None:
        if self.closing or self.store is None or store_failed(self.crawler):
            return
        requests: list[Request] = []
        with store_guard(self.crawler, "scheduling fetches"):
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
            # At INFO when it sleeps long enough to look stuck; the short naps between fetches at DEBUG.
            level = logging.INFO if delay >= WAKE_UP_INFO_SECONDS else logging.DEBUG
            wake = to_iso(self.now() + delay)[11:19]
            self.logger.log(level, "Watch mode: nothing due; next wake-up in %.0f s (%s UTC)", delay, wake)
            self.timer = call_later(delay, self._wake)
        raise DontCloseSpider

    def _wake(self) -> None:
        self.timer = None
        if self.closing:
            return
        with store_guard(self.crawler, "scheduling fetches"):
            for request in self._due_requests():
                self.crawler.engine.crawl(request)  # type: ignore[union-attr]

    # -- store faults in errbacks (callbacks: crawler.outcome.StoreFaultLogFormatter) --------

    def feed_failed(self, failure: Failure) -> None:
        with store_guard(self.crawler, "recording a failed feed poll"):
            super().feed_failed(failure)

    def article_failed(self, failure: Failure) -> None:
        with store_guard(self.crawler, "recording a failed page fetch"):
            super().article_failed(failure)

    def _on_item_done(self, item: Any, *args: Any, **kwargs: Any) -> None:
        if isinstance(item, PageItem):
            self.inflight_articles.discard(item.article_url)
        elif isinstance(item, CommentFeedItem | CommentApiItem):
            self.inflight_comment_feeds.discard(item.article_url)

    def _on_request_dropped(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # A request the scheduler refused never reaches a callback: forget it was in flight.
        art = request.meta.get("article")
        if art and request.meta.get("first_comment_feed"):
            self.inflight_comment_feeds.discard(art["url"])
        elif art:
            self.inflight_articles.discard(art["url"])
        if request.meta.get("feed"):
            self.inflight_feeds.discard(request.meta["feed"])
        if request.meta.get("reading"):  # a comment thread read (crawler.commentapi); the next page read retries it
            self.inflight_comment_feeds.discard(request.meta["reading"].article["url"])

    def _store_counts(self) -> dict[str, int]:
        """The summary's counts that live in the store: comments added, marked gone or edited during
        this run (differences from its start: also those of pages a crashed run left), feeds muted in all."""
        assert self.store is not None
        total, gone_total = self.store.comment_totals()
        new, gone = max(0, total - self.comments_before[0]), max(0, gone_total - self.comments_before[1])
        return {
            "blogs/comments_new": new,
            "blogs/comments_gone": gone,
            "blogs/comments_edited": max(0, self.store.comment_versions_count() - self.versions_before),
            # pages whose comments load by script and could not be read: never "no comments"
            "blogs/comments_not_read": self.store.comments_not_read_since(self.started_at),
            "blogs/feeds_muted_total": self.store.count_muted(list(self.sources)) if self.store else 0,
        }

    def _on_closed(self, spider: Spider, reason: str) -> None:
        """Close the run: its counts into the stats and the `runs` row, the store, the lock.

        The `crawl` command logs the summary as the run's last line, with the exit code."""
        self.closing = True
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        for loop in (self.renewal, self.top_up):
            if loop is not None and loop.running:
                loop.stop()
        stats = self.crawler.stats
        assert stats is not None
        stats.set_value("blogs/run_seconds", round(time.monotonic() - self.started, 3))
        try:
            if self.store is not None and self.started_at:
                with store_guard(self.crawler, "counting the run's comments"):
                    for key, value in self._store_counts().items():
                        stats.set_value(key, value)
                if self.leases is not None:
                    with store_guard(self.crawler, "giving the site leases back"):
                        self.leases.release()
                with store_guard(self.crawler, "recording the run"):
                    snapshot = stats.get_stats()
                    self.store.finish_run(
                        self.run_id, now=self.now(), reason=reason, summary=summary_text(snapshot), stats=snapshot
                    )
        finally:
            if self.store is not None:
                self.store.close()
                self.store = None
            if self.lock is not None:
                self.lock.release()
