"""Helpers of the blogs spider that need no crawler state: entries to article records, failure
classification, header access.

article_candidates(read_feed(body, url), url, "site").fresh  # [ArticleCandidate(...), ...]
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from scrapy.spidermiddlewares.httperror import HttpError

from crawler.addresses import AddressRefused
from crawler.feedreader import FeedEntry, ParsedFeed
from crawler.robots import HostUnreachable
from store.clock import to_iso
from store.urls import is_fetchable, normalize_url, url_scheme

if TYPE_CHECKING:
    from scrapy.http import Response
    from twisted.python.failure import Failure


@dataclass
class ArticleCandidate:
    """A feed entry that names a fetchable article."""

    url: str  # normalized, the natural key
    link: str  # absolute URL to request
    entry_id: str
    entry: FeedEntry

    def record(self, site: str) -> dict[str, Any]:
        """Row for the articles table (Store.record_feed_ok)."""
        e = self.entry
        return {
            "url": self.url,
            "site": site,
            "entry_id": self.entry_id,
            "guid": e.guid,
            "link": self.link,
            "title": e.title,
            "author": e.author,
            "published": to_iso(e.published) if e.published is not None else None,
            "comment_rss": e.comment_rss,
            "slash_comments": e.slash_comments,
        }


@dataclass
class Candidates:
    fresh: list[ArticleCandidate] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)  # scheme -> count
    without_link: int = 0


def article_candidates(parsed: ParsedFeed, base_url: str) -> Candidates:
    """Turn a feed's entries into candidates; non-http(s) links are refused and counted by scheme.

    An entry is identified by its guid, else by its normalized link; duplicates within the feed
    are dropped.
    """
    out = Candidates()
    seen: set[str] = set()
    for entry in parsed.entries:
        link = entry.link
        if not link and entry.guid and is_fetchable(entry.guid):
            link = entry.guid
        if not link:
            out.without_link += 1
            continue
        absolute = urljoin(base_url, link.strip())
        if not is_fetchable(absolute):
            out.refused[url_scheme(absolute) or "none"] += 1
            continue
        if entry.comment_rss:
            comment_rss = urljoin(absolute, entry.comment_rss)
            entry.comment_rss = comment_rss if is_fetchable(comment_rss) else None
        key = normalize_url(absolute)
        entry_id = entry.guid or key
        if key in seen or entry_id in seen:
            continue
        seen.update((key, entry_id))
        out.fresh.append(ArticleCandidate(url=key, link=absolute, entry_id=entry_id, entry=entry))
    return out


def comment_feed_signature(parsed: ParsedFeed) -> str:
    """Fingerprint of a comment feed's entries: changes when a comment is added, edited away or removed."""
    digest = hashlib.sha1(usedforsecurity=False)
    for entry in sorted(parsed.entries, key=lambda e: (e.guid or "", e.link or "")):
        digest.update(f"{entry.guid}\x00{entry.link}\x00{entry.published}\x01".encode())
    return f"{len(parsed.entries)}:{digest.hexdigest()[:16]}"


def header(response: Response, name: str) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1").strip() if value else None


def headers_dict(response: Response) -> dict[str, list[str]]:
    """All response headers, names as sent, values decoded as latin-1 (HTTP's own charset)."""
    return {
        (k.decode("latin-1") if isinstance(k, bytes) else str(k)): [
            v.decode("latin-1") if isinstance(v, bytes) else str(v) for v in values
        ]
        for k, values in response.headers.items()
    }


def simple_headers(response: Response) -> dict[str, str]:
    """Lower-cased single-valued headers, for feedparser (charset, Content-Location)."""
    return {name.lower(): values[-1] for name, values in headers_dict(response).items() if values}


def permanent_url(response: Response, requested: str) -> str:
    """The URL to poll from now on: the final URL if every redirect was permanent (301/308)."""
    reasons = response.meta.get("redirect_reasons") or []
    if reasons and all(r in (301, 308) for r in reasons):
        return response.url
    return requested


@dataclass
class FailureInfo:
    status: int | None  # HTTP status when there was a response
    reason: str  # short, for logs and the store
    kind: str  # stats key suffix: http_404, dns, timeout, refused, robots, too_big, redirect_scheme, ...
    retry_after: str | None = None
    location: str | None = None


def classify_failure(failure: Failure) -> FailureInfo:
    """What went wrong with a request, in words and as a stats key."""
    exc = failure.value
    name = type(exc).__name__
    if isinstance(exc, AddressRefused):
        return FailureInfo(None, str(exc), "address_refused")
    if isinstance(exc, HostUnreachable):
        return FailureInfo(None, str(exc), exc.kind)
    if isinstance(exc, HttpError):
        response = exc.response
        status = response.status
        location = header(response, "Location")
        if 300 <= status < 400 and location and not is_fetchable(urljoin(response.url, location)):
            scheme = url_scheme(urljoin(response.url, location)) or "none"
            return FailureInfo(status, f"redirect to a {scheme}: URL refused", "redirect_scheme", location=location)
        return FailureInfo(status, f"HTTP {status}", f"http_{status}", header(response, "Retry-After"), location)
    text = str(exc) or name
    lowered = f"{name} {text}".lower()
    if "robots.txt" in lowered:
        return FailureInfo(None, "forbidden by robots.txt", "robots")
    if name == "DownloadCancelledError" and not str(exc):  # the only cancel with no message: size limit
        return FailureInfo(None, "response too large: download cancelled at DOWNLOAD_MAXSIZE", "too_big")
    if "max size" in lowered or "maxsize" in lowered or "larger than" in lowered:
        return FailureInfo(None, f"response too large: {text}"[:200], "too_big")
    if "resolve" in lowered or "dns" in lowered:
        return FailureInfo(None, f"DNS lookup failed: {text}"[:200], "dns")
    if "timeout" in lowered or "timed out" in lowered:
        return FailureInfo(None, f"timeout: {text}"[:200], "timeout")
    if "connectiondone" in lowered or "connectionlost" in lowered or "responsenever" in lowered:
        return FailureInfo(None, "connection closed without a complete response", "dropped")
    if "refused" in lowered:
        return FailureInfo(None, "connection refused", "refused")
    if "unsupported url scheme" in lowered or "unsupportedurlscheme" in lowered:
        return FailureInfo(None, f"refused scheme: {text}"[:200], "scheme")
    return FailureInfo(None, f"{name}: {text}"[:200], name.lower())
