"""A blog's comment feed (an article's wfw:commentRss) read into comments: the evidence
`Page(..., feed_comments=[...])` takes, for the crawl's store and for web archives alike.

parse_comment_feed(body, "https://ex.com/post/feed/")[0]["text"]

feedparser reads the feed with a DOCTYPE's internal subset removed first (entity definitions:
"billion laughs"); each entry's HTML becomes the text a reader sees, one line per paragraph.
"""

from __future__ import annotations

import calendar
import re
import time
from collections.abc import Iterable, Mapping
from typing import Any

import feedparser
import lxml.html

_INTERNAL_SUBSET = re.compile(rb"(<!DOCTYPE\s+[^\[>]*)\[.*?\]\s*>", re.DOTALL | re.IGNORECASE)


def strip_internal_subset(body: bytes) -> bytes:
    """Drop the `[...]` internal subset of a DOCTYPE near the top of the document (entity definitions)."""
    head = body[:65536]
    if b"<!" not in head or b"[" not in head:
        return body
    stripped, count = _INTERNAL_SUBSET.subn(rb"\1>", head, count=1)
    return stripped + body[65536:] if count else body


def html_text(value: str) -> str:
    """The text an entry's HTML shows, one line per paragraph, without WordPress's reply line."""
    if "<" not in value:
        return " ".join(value.split())
    try:
        root = lxml.html.fragment_fromstring(value, create_parent="div")
    except Exception:  # lxml raises several types on junk; a wrong text only lowers agreement
        return " ".join(value.split())
    first = root[0] if len(root) else None
    if first is not None and first.tag == "p" and not (root.text or "").strip():
        # WordPress opens a reply with a line linking to the parent comment ("In reply to <a
        # href=…#comment-66>Name</a>."); the page does not show it as part of the text.
        links = first.findall(".//a")
        if len(links) == 1 and "#comment-" in (links[0].get("href") or "") and len(first.text_content()) < 200:
            root.remove(first)
    for el in root.iter("p", "br", "div", "li", "blockquote"):
        el.tail = "\n" + (el.tail or "")
    return "\n".join(" ".join(line.split()) for line in root.text_content().splitlines() if line.strip())


def parse_comment_feed(body: bytes, url: str, headers: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The entries of a comment feed: guid, author, date (ISO 8601 UTC or None), text, link; [] for non-feeds."""
    try:
        data = feedparser.parse(
            strip_internal_subset(body),
            response_headers={"content-location": url, **(headers or {})},
            sanitize_html=False,
            resolve_relative_uris=False,
        )
    except Exception:  # feedparser is robust; a wall is a wall
        return []
    out: list[dict[str, Any]] = []
    for raw in data.get("entries") or []:
        content = raw.get("content") or []
        value = content[0].get("value") if content else raw.get("summary")
        parsed = dict.get(raw, "published_parsed") or dict.get(raw, "updated_parsed")
        guid = raw.get("id") or raw.get("link")
        if not guid:
            continue
        out.append(
            {
                "guid": str(guid)[:2000],
                "author": (raw.get("author") or None),
                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", parsed) if parsed else None,
                "text": html_text(str(value or "")),
                "link": raw.get("link"),
            }
        )
    return out


def feed_texts_until(entries: Iterable[Mapping[str, Any]], fetched_at: float) -> list[str]:
    """Texts of an article's comment-feed entries (the latest reading of each guid) that a page
    fetched at `fetched_at` can show: dated no later than the fetch, undated ones too; by guid,
    as the store gives them (store.batches feed_comment_texts)."""
    latest: dict[str, Mapping[str, Any]] = {}
    for entry in entries:
        latest[str(entry["guid"])] = entry
    texts = []
    for guid in sorted(latest):
        entry = latest[guid]
        date = entry.get("date")
        when = calendar.timegm(time.strptime(date, "%Y-%m-%dT%H:%M:%SZ")) if date else 0
        if entry.get("text") and when <= fetched_at:
            texts.append(str(entry["text"]))
    return texts
