"""Shared state and helpers of the blogs spider, split over small modules (feed polling,
article fetching, comment-system reads); the run around them is crawler/extensions/.

BlogsSpiderBase.now(spider)  # the crawler's clock: system time + BLOGS_CLOCK_OFFSET
"""

from __future__ import annotations

import logging
import random
import time
from pathlib import Path
from typing import Any

from scrapy import Request, Spider

from store import StoreBackend

PRIO_NEW_ARTICLE = 100  # a new article is captured before its readers comment: first of all
PRIO_DISCOVERY = 60
PRIO_FEED = 50
PRIO_COMMENT_FEED = 20
PRIO_REFETCH = 10
FEED_ACCEPT = "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5"


class BlogsSpiderBase(Spider):
    """Attributes set by BlogsSpider.__init__/from_crawler, and small helpers."""

    store: StoreBackend | None
    rng: random.Random
    sources: dict[str, str]  # feed url (as listed in the feeds file) -> site name
    inflight_feeds: set[str]
    inflight_articles: set[str]
    inflight_comment_feeds: set[str]  # articles with a comment feed or thread read in flight (their site is busy)
    inflight_templates: set[tuple[str, str]]  # (site, url) of template pages in flight (their site is busy)
    handled: set[str]  # what a cron run has already requested: each feed and article once per run
    logged: dict[tuple[str, str], float]  # (kind, url) -> when last logged (monotonic)
    db_path: str  # the store: a SQLite file path or a postgresql:// URL (store.store_location)
    feeds_path: Path
    offsets: list[float]
    min_interval: float
    max_interval: float
    backoff_base: float
    mute_after: int
    article_max_failures: int
    max_entries: int
    clock_offset: float
    held_sites: dict[str, float]  # site -> when (crawler clock) its Retry-After ends

    def now(self) -> float:
        return time.time() + self.clock_offset

    def keep_clock_monotonic(self) -> None:
        """A clock behind the last run's (an NTP step, a VM restored from a snapshot) would hold back what
        that run already saw due: the run's clock is moved forward to the last run's, for the whole run."""
        assert self.store is not None
        last = self.store.last_run_clock()
        behind = (last or 0.0) - self.now()
        if behind > 0:
            self.clock_offset += behind
            why = "The clock is %.1f s behind the last run's; this run schedules by the last run's time"
            self.logger.info(why, behind)

    def hold_site(self, site: str, wait: float) -> None:
        """The site asked to wait `wait` seconds (Retry-After): no request of it before then, this run or the next."""
        until = self.now() + wait
        if until > self.held_sites.get(site, 0.0):
            self.held_sites[site] = until
            assert self.store is not None
            self.store.throttle_site(site, until)
            self.log_once("retry_after", site, logging.INFO, "Site %s asked to wait %.0f s (Retry-After)", site, wait)

    def without_held_sites(self, rows: list[dict[str, Any]], kind: str, now: float) -> list[dict[str, Any]]:
        """The due `rows` (kind "feeds" or "articles") of sites not asked to wait; the others are
        moved in the store to when their site may be asked again."""
        assert self.store is not None
        keep = []
        for row in rows:
            until = self.held_sites.get(row["site"], 0.0)
            if until > now:
                self.store.postpone(**{kind: [row["url"]]}, until=until)
            else:
                keep.append(row)
        return keep

    def inc(self, key: str, count: int = 1) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(key, count)

    def log_once(self, key: str, url: str, level: int, msg: str, *args: Any) -> None:
        """Log a recurring condition (a malformed feed, refused links) once a day per URL, not every poll."""
        now = time.monotonic()
        if now - self.logged.get((key, url), -1e18) >= 86400:
            self.logged[(key, url)] = now
            self.logger.log(level, msg, *args)

    def _page_request(self, art: dict[str, Any], kind: str, **extra: Any) -> Request:
        """The request for an article page (ArticleFetching)."""
        raise NotImplementedError

    def _comment_api_requests(self, art: dict[str, Any], response: Any) -> list[Any]:
        """The first endpoint request for a page whose comments load by script (CommentApiFetching)."""
        raise NotImplementedError

    def _first_requests(self, art: dict[str, Any]) -> list[Request]:
        """The requests of a new article's first fetch (ArticleFetching)."""
        raise NotImplementedError

    def _template_requests(self, site: str, feed: str, link: str | None) -> list[Request]:
        """The request for a new site's home page, once (ArticleFetching)."""
        raise NotImplementedError
