"""robots.txt `Crawl-delay` as a downloader middleware.

Scrapy parses Crawl-delay (RobotParser.crawl_delay) but no built-in component applies it; this one
makes it the minimum delay of the host's download slot, also after AutoThrottle lowers the delay,
and takes the jitter off that slot.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy import Request, Spider, signals
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.utils.httpobj import urlparse_cached

from crawler.addon import PRODUCT

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.robotstxt import RobotParser

logger = logging.getLogger(__name__)


class CrawlDelayMiddleware:
    """Downloader middleware: apply robots.txt Crawl-delay (capped at `max_delay` seconds) per host."""

    def __init__(self, max_delay: float, user_agent: str) -> None:
        self.max_delay = max_delay
        self.user_agent = user_agent
        self.delays: dict[str, float] = {}
        self.crawler: Crawler | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlDelayMiddleware:
        settings = crawler.settings
        if not settings.getbool("ROBOTSTXT_OBEY") or not settings.getbool("BLOGS_OBEY_CRAWL_DELAY", True):
            raise NotConfigured
        agent = settings.get("ROBOTSTXT_USER_AGENT") or settings.get("USER_AGENT") or PRODUCT
        mw = cls(settings.getfloat("BLOGS_CRAWL_DELAY_MAX", 60.0), agent)
        mw.crawler = crawler
        crawler.signals.connect(mw._robots_parsed, signal=signals.robots_parsed)
        crawler.signals.connect(mw._response_downloaded, signal=signals.response_downloaded)
        return mw

    def _slot_key(self, request: Request) -> str | None:
        if self.crawler is None or self.crawler.engine is None:
            return None
        return self.crawler.engine.downloader.get_slot_key(request)

    def _enforce(self, request: Request) -> None:
        key = self._slot_key(request)
        delay = self.delays.get(urlparse_cached(request).hostname or "")
        if key is None or not delay or self.crawler is None or self.crawler.engine is None:
            return
        downloader = self.crawler.engine.downloader
        # New slots read their delay from DOWNLOAD_SLOTS-style per-slot settings. No jitter: a
        # randomized delay (RANDOMIZE_DOWNLOAD_DELAY, ±50 %) would go below Crawl-delay half the time.
        downloader.per_slot_settings.setdefault(key, {}).update(delay=delay, jitter=0.0)
        slot = downloader.slots.get(key)
        if slot is not None:
            slot.jitter = 0.0
            slot.delay = max(slot.delay, delay)

    def _robots_parsed(self, robotparser: RobotParser, request: Request) -> None:
        try:
            delay = robotparser.crawl_delay(self.user_agent)
        except Exception:  # a parser backend without crawl_delay support
            delay = None
        host = urlparse_cached(request).hostname or ""
        if delay and delay > 0:
            applied = min(float(delay), self.max_delay)
            self.delays[host] = applied
            logger.info("robots.txt of %s asks for Crawl-delay %s s; applying %s s", host, delay, applied)
            self._enforce(request)

    def _response_downloaded(self, response: Response, request: Request, spider: Spider) -> None:
        # Runs after AutoThrottle's handler (connected earlier): restore the floor it may lower.
        self._enforce(request)

    def process_request(self, request: Request) -> None:
        self._enforce(request)
