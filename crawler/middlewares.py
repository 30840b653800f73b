"""Politeness components Scrapy 2.19 does not provide out of the box.

- `CrawlDelayMiddleware`: Scrapy parses robots.txt `Crawl-delay` (RobotParser.crawl_delay) but no
  built-in component applies it; this one makes it the minimum delay of the host's download slot,
  also after AutoThrottle lowers the delay.
- `BlogsAddon`: builds the User-Agent from BLOGS_CONTACT unless USER_AGENT is set explicitly.
- `QuietDuplicateErrorsExtension`: Scrapy logs some failures itself (robots.txt of a dead host as
  an ERROR with traceback, responses over DOWNLOAD_MAXSIZE); the spider reports each failure once
  with its feed or article URL, so those records are demoted to DEBUG.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy import Request, Spider, signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.httpobj import urlparse_cached

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.robotstxt import RobotParser
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

PRODUCT = "blog-harvester"
VERSION = "0.1"


def user_agent(contact: str | None) -> str:
    """The User-Agent: user_agent("mailto:me@example.org").endswith("+mailto:me@example.org)")."""
    contact = (contact or "").strip()
    tail = f"+{contact}" if contact else "contact not configured"
    return f"{PRODUCT}/{VERSION} (research feed harvester; {tail})"


class BlogsAddon:
    """Scrapy add-on: USER_AGENT from BLOGS_CONTACT, unless USER_AGENT was given with higher priority."""

    def update_settings(self, settings: BaseSettings) -> None:
        priority = settings.getpriority("USER_AGENT") or 0
        if priority < 20:  # below "project": nobody chose a User-Agent on purpose
            settings.set("USER_AGENT", user_agent(settings.get("BLOGS_CONTACT")), priority="addon")


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
        # New slots read their delay from DOWNLOAD_SLOTS-style per-slot settings.
        downloader.per_slot_settings.setdefault(key, {})["delay"] = delay
        slot = downloader.slots.get(key)
        if slot is not None and slot.delay < delay:
            slot.delay = delay

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


# (logger, message start) of Scrapy records that repeat a failure the spider reports itself.
_DUPLICATES = {
    "scrapy.downloadermiddlewares.robotstxt": ("Error downloading",),
    "scrapy.core.downloader.handlers.http11": ("Received", "Expected to receive"),
    "scrapy.downloadermiddlewares.httpcompression": ("Ignored response",),
}


class QuietDuplicateErrors(logging.Filter):
    """Demote Scrapy's own report of a failure the spider logs anyway to DEBUG, without traceback.

    Only failures are demoted: a "download warn size" record stays a warning.
    """

    def __init__(self, prefixes: tuple[str, ...]) -> None:
        super().__init__()
        self.prefixes = prefixes

    def filter(self, record: logging.LogRecord) -> bool:
        msg = str(record.msg)
        failure = record.levelno >= logging.ERROR or "max size" in msg or "DOWNLOAD_MAXSIZE" in msg
        if failure and msg.startswith(self.prefixes):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            record.exc_info, record.exc_text = None, None
        return True  # handlers drop it unless LOG_LEVEL is DEBUG


class QuietDuplicateErrorsExtension:
    """Installs QuietDuplicateErrors on the loggers in _DUPLICATES for the crawl."""

    def __init__(self) -> None:
        self.filters = {name: QuietDuplicateErrors(prefixes) for name, prefixes in _DUPLICATES.items()}
        for name, flt in self.filters.items():
            logging.getLogger(name).addFilter(flt)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> QuietDuplicateErrorsExtension:
        ext = cls()
        crawler.signals.connect(ext._closed, signal=signals.spider_closed)
        return ext

    def _closed(self, *args: Any, **kwargs: Any) -> None:
        for name, flt in self.filters.items():
            logging.getLogger(name).removeFilter(flt)
