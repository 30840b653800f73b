"""robots.txt as Scrapy obeys it, with a host that does not answer taken as down for the run.

Scrapy fetches a host's robots.txt before its first request and, when that fetch fails, lets the
request go on: a dead host then costs the robots.txt timeout and the request's own timeout and
retries, while robots.txt requests (priority 1000) of other dead hosts fill every download slot
first. A feeds file of thousands of dead hosts polled nothing for an hour. Here the robots.txt
request has a short timeout of its own (BLOGS_ROBOTS_TIMEOUT) and no retry, and when it fails at
the connection (no answer, refused, name unknown, connection lost) the host's requests fail at
once for the rest of the run with `HostUnreachable`, which the spider records as the feed's or
article's failure (saved as it happens; the feed's back-off postpones the next poll).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadConnectionRefusedError,
    DownloadTimeoutError,
    IgnoreRequest,
)
from scrapy.http import Request
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.error import ConnectError, ConnectionDone, ConnectionLost
from twisted.web._newclient import ResponseNeverReceived

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

# A host that never answered: no connection, no name, no response before the timeout (not
# crawler.addresses' own refusal, an IgnoreRequest: those requests are refused at once anyway).
_NO_ANSWER: tuple[type[BaseException], ...] = (
    CannotResolveHostError,
    DownloadConnectionRefusedError,
    DownloadTimeoutError,
    ConnectError,
    ConnectionDone,
    ConnectionLost,
    ResponseNeverReceived,
)


class HostUnreachable(IgnoreRequest):
    """A request not sent: its host did not answer for robots.txt earlier in this run. `kind` is
    how it failed there (dns, timeout, refused, dropped), the stats key its requests count under."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def connection_failure(exc: BaseException) -> tuple[str, str] | None:
    """(reason, kind) when `exc` says the host never answered, e.g. ("no answer", "timeout"), else None."""
    if not isinstance(exc, _NO_ANSWER):
        return None
    if isinstance(exc, DownloadTimeoutError):
        return "no answer", "timeout"
    if isinstance(exc, CannotResolveHostError):
        return "DNS lookup failed", "dns"
    if isinstance(exc, DownloadConnectionRefusedError):
        return "connection refused", "refused"
    return type(exc).__name__, "dropped"


class HostAwareRobotsTxtMiddleware(RobotsTxtMiddleware):
    """Downloader middleware: Scrapy's RobotsTxtMiddleware, plus fail-fast for hosts that are down."""

    def __init__(self, crawler: Crawler, timeout: float) -> None:
        super().__init__(crawler)
        self.timeout = timeout
        self.unreachable: dict[str, tuple[str, str]] = {}  # netloc -> (why, kind), for this run

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> HostAwareRobotsTxtMiddleware:
        return cls(crawler, crawler.settings.getfloat("BLOGS_ROBOTS_TIMEOUT", 10.0))

    async def process_request(self, request: Request, spider: Spider | None = None) -> None:
        if request.meta.get("dont_obey_robotstxt"):
            if urlparse_cached(request).path == "/robots.txt":  # our own robots.txt request
                request.meta.setdefault("download_timeout", self.timeout)
                request.meta["dont_retry"] = True
            return
        netloc = urlparse_cached(request).netloc
        if netloc not in self.unreachable:
            await super().process_request(request)
        failed = self.unreachable.get(netloc)
        if failed is not None:
            self._stats.inc_value("blogs/requests_to_unreachable_hosts")
            why, kind = failed
            raise HostUnreachable(f"host {netloc} did not answer in this run ({why} on its robots.txt)", kind)

    def _robots_error(self, exc: Exception, netloc: str) -> None:
        failed = connection_failure(exc)
        if failed is not None:
            self.unreachable[netloc] = failed
        super()._robots_error(exc, netloc)
