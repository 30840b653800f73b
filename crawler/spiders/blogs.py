"""The `blogs` spider: polls due feeds, fetches new articles at once, re-fetches them for comments.

scrapy crawl blogs [-a feeds=PATH] [-a watch=1] [-a force=1] [-a unmute=all|URL|SITE] [-a shard=K/N]
                   [-s BLOGS_DB=PATH|URL]

All state lives in the store (store.open_store: a SQLite file or a PostgreSQL database): a cron
run continues where the last one stopped and polls only what is due. Several runs may share a
PostgreSQL store: each fetches the sites it holds leases on (crawler.leasing); `-a shard=K/N`
restricts a run to the K-th of N fixed shares of the sites instead (by a hash of the site name).
The spider does no extraction: each fetched article page
becomes a `PageItem` that PersistPagePipeline commits before anything else sees it.

The spider polls feeds and fetches articles; the run around it is Scrapy extensions wired by
signals (crawler/extensions/): the crawl lock, the run record and its summary, the site leases and
watch mode's timer. The spider opens the store and tells them (crawler.signals.run_opened), and
tells them again before it closes the store (run_closing).
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
from scrapy.settings import BaseSettings
from twisted.python.failure import Failure

from crawler.articlefetching import ArticleFetching
from crawler.commentapi import DEFAULT_BUDGET, DEFAULT_PAGE_SIZE, CommentApiFetching
from crawler.connectors import ConnectorSettings
from crawler.feedpolling import FeedPolling
from crawler.feedsfile import FeedsFileError, load_feeds_file
from crawler.items import CommentApiItem, CommentFeedItem, PageItem, TemplatePageItem
from crawler.leasing import SiteLeases
from crawler.outcome import store_failed, store_guard
from crawler.schedule import DEFAULT_REFETCH_AFTER, parse_durations
from crawler.signals import run_closing, run_opened
from crawler.validation import accept_old_names, check_arguments, check_settings
from store import StoreBackend, default_db_path, open_store, store_location


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


class BlogsSpider(FeedPolling, ArticleFetching, CommentApiFetching):
    name = "blogs"

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
        self.rng = random.Random()
        self.sources: dict[str, str] = {}  # feed url (as listed) -> site name
        self.feeds_mtime: float | None = None
        self.inflight_feeds: set[str] = set()
        self.inflight_articles: set[str] = set()
        self.inflight_comment_feeds: set[str] = set()  # articles with a comment feed in flight, to the pipelines' end
        # A site stays busy while its template pages are fetched and stored: settled before, its
        # provisional set would be extracted again when they come (pipelines.extract).
        self.inflight_templates: set[tuple[str, str]] = set()
        # A cron run handles each feed and article at most once, even if it falls due again.
        self.handled: set[str] = set()
        self.logged: dict[tuple[str, str], float] = {}
        self.held_sites: dict[str, float] = {}  # site -> end of its Retry-After (store: sites.throttled_until)
        # The sites this worker fetches (crawler.leasing), set by crawler.extensions.leases; None: every site.
        self.leases: SiteLeases | None = None
        self.closing = False

    @classmethod
    def update_settings(cls, settings: BaseSettings) -> None:
        """Settings given under their old names move to their BLOGS_ names, for a crawl not started by
        the `crawl` command (which moved them already, so this warns only once)."""
        super().update_settings(settings)
        for warning in accept_old_names(settings):
            logging.getLogger("blogs").warning("%s", warning)

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> BlogsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        s = crawler.settings
        checked = check_settings(s)  # the `crawl` command checked them already; this is for other launchers
        spider.db_path = store_location(s.get("BLOGS_DB"))
        spider.feeds_path = feeds_file_path(spider.feeds_arg, s.get("BLOGS_FEEDS"))
        spider.offsets = checked.get("BLOGS_REFETCH_AFTER") or parse_durations(DEFAULT_REFETCH_AFTER)
        spider.min_interval = checked.get("BLOGS_FEED_MIN_INTERVAL", 300.0)
        spider.max_interval = checked.get("BLOGS_FEED_MAX_INTERVAL", 86400.0)
        spider.backoff_base = checked.get("BLOGS_BACKOFF_BASE", 300.0)
        spider.mute_after = checked.get("BLOGS_MUTE_AFTER", 8)
        spider.article_max_failures = checked.get("BLOGS_ARTICLE_MAX_FAILURES", 5)
        spider.max_entries = checked.get("BLOGS_MAX_ENTRIES", 500)
        spider.clock_offset = checked.get("BLOGS_CLOCK_OFFSET", 0.0)
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
        # The crawl lock is held already (crawler.extensions.runlock, at spider_opened).
        requests: list[Request] = []
        with store_guard(self.crawler, "starting the run"):
            self.store = open_store(self.db_path)
            self.keep_clock_monotonic()
            self.held_sites = self.store.throttled_sites(self.now())
            # The run record and the site leases (crawler.extensions) start here, in that order.
            self.crawler.signals.send_catch_log(run_opened, spider=self, store=self.store)
            if store_failed(self.crawler):
                return
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
        if self.leases is None:
            feeds = list(self.sources)
        else:
            feeds = self.leases.feeds(self.sources, busy=self.busy_sites(), now=now, force=self.force)
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

    def busy_sites(self) -> set[str]:
        """Sites with a feed poll or a page fetch in flight (their leases are kept)."""
        assert self.store is not None
        feeds = {self.sources[url] for url in self.inflight_feeds if url in self.sources}
        templates = {site for site, _url in self.inflight_templates}
        return (
            feeds | templates | self.store.article_sites(sorted(self.inflight_articles | self.inflight_comment_feeds))
        )

    def schedule_due(self, doing: str) -> int:
        """Hand the engine everything due now (a store fault stops the crawl: `doing` says when); how many."""
        requests: list[Request] = []
        with store_guard(self.crawler, doing):
            requests = self._due_requests()
            for request in requests:
                self.crawler.engine.crawl(request)  # type: ignore[union-attr]
        return len(requests)

    def _on_idle(self) -> None:
        """Schedule what fell due meanwhile (refetches wait for the feed polls); watch mode's wait
        when nothing is due is crawler.extensions.watch's."""
        if self.closing or self.store is None or store_failed(self.crawler):
            return
        if self.schedule_due("scheduling fetches"):
            raise DontCloseSpider

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
        elif isinstance(item, TemplatePageItem):
            self.inflight_templates.discard((item.site, item.url))

    def _on_request_dropped(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # A request the scheduler refused never reaches a callback: forget it was in flight.
        art = request.meta.get("article")
        if art and request.meta.get("first_comment_feed"):
            self.inflight_comment_feeds.discard(art["url"])
        elif art:
            self.inflight_articles.discard(art["url"])
        if request.meta.get("feed"):
            self.inflight_feeds.discard(request.meta["feed"])
        if request.meta.get("template_kind"):
            self.inflight_templates.discard((request.meta["site"], request.url))
        if request.meta.get("reading"):  # a comment thread read (crawler.commentapi); the next page read retries it
            self.inflight_comment_feeds.discard(request.meta["reading"].article["url"])

    def _on_closed(self, spider: Spider, reason: str) -> None:
        """Let the run's extensions finish (crawler.signals.run_closing), then close the store.

        The crawl lock is given back after this (crawler.extensions.runlock)."""
        self.closing = True
        if self.store is None:
            return
        try:
            self.crawler.signals.send_catch_log(run_closing, spider=self, store=self.store, reason=reason)
        finally:
            self.store.close()
            self.store = None
