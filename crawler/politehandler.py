"""The HTTP(S) download handler with the checks that must sit where a request is sent.

A 429 or 503 with `Retry-After` holds the host until then: no retry of the request (RetryMiddleware
would retry at once) and no other request to the host before it; and the refusal of non-public
addresses (crawler.addresses) where the connection is made.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from scrapy import Request
from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler
from scrapy.exceptions import CannotResolveHostError, IgnoreRequest
from scrapy.http import Response
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.httpobj import urlparse_cached

from crawler.addresses import AddressRefused, address_refusal, parse_networks, refused_hosts
from crawler.schedule import MAX_RETRY_AFTER, parse_retry_after

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from twisted.python.failure import Failure

logger = logging.getLogger(__name__)


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
