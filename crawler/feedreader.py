"""feedparser behind a wall: bytes in, a small typed result out, never an exception.

read_feed(body, "http://127.0.0.1:8000/feed/", {"content-type": "application/rss+xml"}).entries[0].link

Handles RSS 0.9x/1.0/2.0 and Atom in any encoding feedparser knows (the HTTP charset is passed
through), tolerates malformed XML (feedparser's loose parser, `bozo`), and refuses DTD tricks:
the internal subset of a DOCTYPE is cut out before parsing, on top of feedparser's own entity
filtering and expat's amplification limit, so entity-expansion bombs and external entities
never reach a parser.
"""

from __future__ import annotations

import calendar
import io
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import feedparser

from crawler.schedule import parse_ttl_minutes, parse_update_period
from extractor.comments.commentfeed import strip_internal_subset

MAX_ENTRIES = 500
_HTML_START = re.compile(rb"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>])", re.I | re.S)
# Earliest and latest believable entry dates; feeds carry year-0001 and year-9999 dates.
_MIN_TS = 631152000.0  # 1990-01-01
_MAX_FUTURE = 366 * 86400.0


@dataclass
class FeedEntry:
    """What the crawler needs from one feed entry."""

    guid: str | None
    link: str | None
    title: str | None = None
    author: str | None = None
    published: float | None = None  # POSIX time of publication (updated if no published)
    comment_rss: str | None = None  # wfw:commentRss
    slash_comments: int | None = None  # slash:comments


@dataclass
class ParsedFeed:
    """A parsed feed; `is_feed` is False for HTML pages and garbage."""

    is_feed: bool
    version: str = ""
    title: str | None = None
    bozo: bool = False
    bozo_reason: str | None = None
    ttl: float | None = None  # seconds
    update_period: float | None = None  # seconds, from sy:updatePeriod / sy:updateFrequency
    looks_html: bool = False
    entries: list[FeedEntry] = field(default_factory=list)
    truncated: int = 0  # entries beyond max_entries, ignored


def looks_like_html(body: bytes, content_type: str | None) -> bool:
    """HTML rather than a feed: by Content-Type, or by how the document starts."""
    if content_type and "html" in content_type.lower() and "xhtml+xml" not in content_type.lower():
        return True
    return bool(_HTML_START.match(body[:4096]))


def _timestamp(parsed: Any, now: float) -> float | None:
    if not parsed:
        return None
    try:
        ts = float(calendar.timegm(parsed))
    except (TypeError, ValueError, OverflowError):
        return None
    return ts if _MIN_TS <= ts <= now + _MAX_FUTURE else None


def _int_or_none(value: Any) -> int | None:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if number >= 0 else None


def _text(value: Any, limit: int = 2000) -> str | None:
    if value is None:
        return None
    text = " ".join(str(value).split())
    return text[:limit] or None


def _entry(raw: Any, now: float) -> FeedEntry:
    link = raw.get("link")
    if not link:
        # Atom entries may only carry rel="alternate" links without feedparser choosing one.
        for candidate in raw.get("links") or []:
            if candidate.get("rel", "alternate") == "alternate" and candidate.get("href"):
                link = candidate["href"]
                break
    guid = raw.get("id") or None
    if not link and guid and raw.get("guidislink"):
        link = guid
    # dict.get: feedparser's own get() maps a missing updated_parsed to published_parsed, with a warning.
    published = _timestamp(dict.get(raw, "published_parsed"), now) or _timestamp(dict.get(raw, "updated_parsed"), now)
    return FeedEntry(
        guid=_text(guid, 2000),
        link=str(link).strip() if link else None,
        title=_text(raw.get("title")),
        author=_text(raw.get("author")),
        published=published,
        comment_rss=_text(raw.get("wfw_commentrss"), 2000),
        slash_comments=_int_or_none(raw.get("slash_comments")),
    )


def read_feed(
    body: bytes,
    url: str,
    headers: Mapping[str, str] | None = None,
    *,
    max_entries: int = MAX_ENTRIES,
    now: float | None = None,
) -> ParsedFeed:
    """Parse a feed body fetched from `url`; `headers` are the response headers (lower-case names).

    Relative links are resolved against `url` (or Content-Location). Never raises.
    """
    now = time.time() if now is None else now
    headers = {k.lower(): v for k, v in (headers or {}).items()}
    headers.setdefault("content-location", url)
    html = looks_like_html(body, headers.get("content-type"))
    try:
        data = feedparser.parse(
            io.BytesIO(strip_internal_subset(body)),
            response_headers=headers,
            sanitize_html=False,
            resolve_relative_uris=False,
        )
    except Exception as exc:  # feedparser is robust, but a wall is a wall
        return ParsedFeed(is_feed=False, bozo=True, bozo_reason=f"parser crashed: {exc!r}", looks_html=html)
    version = data.get("version") or ""
    raw_entries = list(data.get("entries") or [])
    bozo_exc = data.get("bozo_exception")
    result = ParsedFeed(
        is_feed=bool(version) or (bool(raw_entries) and not html),
        version=version,
        title=_text(data.get("feed", {}).get("title")),
        bozo=bool(data.get("bozo")),
        bozo_reason=f"{type(bozo_exc).__name__}: {bozo_exc}"[:300] if bozo_exc else None,
        ttl=parse_ttl_minutes(data.get("feed", {}).get("ttl")),
        update_period=parse_update_period(
            data.get("feed", {}).get("sy_updateperiod"), data.get("feed", {}).get("sy_updatefrequency")
        ),
        looks_html=html,
        truncated=max(0, len(raw_entries) - max_entries),
    )
    for raw in raw_entries[:max_entries]:
        try:
            result.entries.append(_entry(raw, now))
        except Exception:  # one odd entry must not cost the others
            continue
    return result
