"""Politeness components Scrapy 2.19 does not provide out of the box.

- `CrawlDelayMiddleware`: Scrapy parses robots.txt `Crawl-delay` (RobotParser.crawl_delay) but no
  built-in component applies it; this one makes it the minimum delay of the host's download slot,
  also after AutoThrottle lowers the delay, and takes the jitter off that slot.
- `PoliteDownloadHandler`: a 429 or 503 with `Retry-After` holds the host until then: no retry of
  the request (RetryMiddleware would retry at once) and no other request to the host before it;
  and the refusal of non-public addresses (crawler.addresses) where the connection is made.
- `BlogsAddon`: builds the User-Agent from BLOGS_CONTACT unless USER_AGENT is set explicitly.
- `QuietDuplicateErrorsExtension`: Scrapy logs some failures itself (robots.txt of a dead host as
  an ERROR with traceback, responses over DOWNLOAD_MAXSIZE); the spider reports each failure once
  with its feed or article URL, so those records are demoted to DEBUG.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from scrapy import Request, Spider, signals
from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler
from scrapy.exceptions import CannotResolveHostError, IgnoreRequest, NotConfigured
from scrapy.http import Response
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.httpobj import urlparse_cached

from crawler.addresses import AddressRefused, address_refusal, parse_networks, refused_hosts
from crawler.schedule import MAX_RETRY_AFTER, parse_retry_after

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.robotstxt import RobotParser
    from scrapy.settings import BaseSettings
    from twisted.python.failure import Failure

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


# Status codes whose Retry-After asks a client to come back later (RFC 9110 10.2.3, RFC 6585 4).
THROTTLE_STATUSES = (429, 503)


class HostThrottled(IgnoreRequest):
    """A request not sent: its host asked (Retry-After) not to be asked again before `wait` seconds."""

    def __init__(self, host: str, wait: float) -> None:
        super().__init__(f"{host} asked to wait (Retry-After): {wait:.0f} s left")
        self.wait = wait


def throttle_wait(response: Response, now: float) -> float | None:
    """Seconds a 429/503 response asks to wait (Retry-After: seconds or an HTTP date), else None."""
    if response.status not in THROTTLE_STATUSES:
        return None
    wait = parse_retry_after(response.headers.get("Retry-After"), now)
    return None if wait is None else min(wait, MAX_RETRY_AFTER)


def retry_wait(failure: Failure, now: float) -> float | None:
    """Seconds the failed request's host asked to wait: a 429/503 Retry-After, or the rest of a hold."""
    exc = failure.value
    if isinstance(exc, HostThrottled):
        return exc.wait
    if isinstance(exc, HttpError):
        return throttle_wait(exc.response, now)
    return None


class PoliteDownloadHandler(HTTP11DownloadHandler):
    """Scrapy's HTTP(S) download handler with the checks that must sit where a request is sent.

    - Retry-After: a 429 or 503 with Retry-After holds its host until then. The request is marked
      `dont_retry` (RetryMiddleware would ask again at once); a request of the host that comes up
      before the hold is over is not sent: it fails with HostThrottled and the spider reschedules
      it (requests already queued in the host's download slot never pass a middleware again).
    - Addresses (unless BLOGS_ALLOW_PRIVATE_ADDRESSES): a host whose addresses were all refused by
      crawler.addresses.PublicAddressResolver fails with AddressRefused, and a response from a
      refused address (another resolver) is dropped; counted, logged once per host.
    """

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        settings = crawler.settings
        self.stats = crawler.stats
        self.clock_offset = settings.getfloat("BLOGS_CLOCK_OFFSET", 0.0)  # Retry-After dates: the crawler's clock
        self.guard = not settings.getbool("BLOGS_ALLOW_PRIVATE_ADDRESSES")
        self.allowed = parse_networks(settings.get("BLOGS_ALLOWED_NETWORKS") or "")
        self.held: dict[str, float] = {}  # host:port -> time.monotonic() before which it is not asked
        self.refused_logged: set[str] = set()

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(key)

    def _refuse(self, host: str, why: str) -> AddressRefused:
        self._inc("blogs/requests_refused_address")
        if host not in self.refused_logged:
            self.refused_logged.add(host)
            logger.warning("Refused %s: %s, not a public address (BLOGS_ALLOW_PRIVATE_ADDRESSES is off)", host, why)
        return AddressRefused(f"address refused: {why}")

    def hold(self, server: str, wait: float) -> None:
        """Ask nothing of `server` (host:port) for `wait` seconds (the longest wait asked wins)."""
        until = time.monotonic() + wait
        if until > self.held.get(server, 0.0):
            self.held[server] = until

    async def download_request(self, request: Request) -> Response:
        url = urlparse_cached(request)
        server = url.netloc  # host and port: the server that asked to wait
        wait = self.held.get(server, 0.0) - time.monotonic()
        if wait > 0:
            self._inc("blogs/requests_held_retry_after")
            raise HostThrottled(server, wait)
        host = url.hostname or ""
        try:
            response = await super().download_request(request)
        except CannotResolveHostError:
            if self.guard and host in refused_hosts:
                raise self._refuse(host, refused_hosts[host]) from None
            raise
        address = response.ip_address
        why = address_refusal(address, self.allowed) if self.guard and address is not None else None
        if why is not None:
            raise self._refuse(host, f"{address} is {why}")
        wait = throttle_wait(response, time.time() + self.clock_offset) or 0.0
        if wait > 0:
            request.meta["dont_retry"] = True
            self.hold(server, wait)
            logger.info("%s answered %d with Retry-After: %.0f s; holding its host", request.url, response.status, wait)
        return response


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
