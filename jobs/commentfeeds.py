"""Comment feeds as a check on extracted comments: parse a stored comment feed into its entries.

entries = parse_comment_feed(body, "http://h/2024/05/a/feed/")   # [{"guid", "author", "date", "text", "link"}]

The spider yields a `CommentFeedItem` (crawler.items), persisted raw first (store.commentfeeds);
a job then parses it here and stores its entries (`process_comment_feed`). The storage and the
per-site agreement check are in store.commentfeeds.
"""

from __future__ import annotations

import time
from typing import Any

import feedparser
import lxml.html

from crawler.feedreader import strip_internal_subset
from store.commentfeeds import comment_feed_fetch, mark_comment_feed_processed, store_feed_comments
from store.sql import Database


def _html_text(value: str) -> str:
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


def parse_comment_feed(body: bytes, url: str, headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The entries of a comment feed as `feed_comments` values (text without HTML); [] for non-feeds."""
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
                "text": _html_text(str(value or "")),
                "link": raw.get("link"),
            }
        )
    return out


def process_comment_feed(db: Database, fetch_id: int, now: float) -> tuple[str, int] | None:
    """Parse a stored comment feed into `feed_comments` and mark it processed (call in a transaction).

    Returns (site, entries), or None when it was processed already (running it twice is harmless).
    """
    row = comment_feed_fetch(db, fetch_id)
    if row is None:
        return None
    entries = parse_comment_feed(row["body"], row["url"], row["headers"])
    fetched = row["fetched_at"] or now
    store_feed_comments(db, article=row["article"], site=row["site"], entries=entries, fetched_at=fetched)
    mark_comment_feed_processed(db, fetch_id, len(entries), now)
    return row["site"], len(entries)
