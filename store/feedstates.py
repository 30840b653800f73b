"""Per-feed state for `scrapy feeds`: what the crawler knows about each feed of the store.

with open_store("blogs.db") as store: rows = store.feed_states()

A feed is "new" (never polled), "ok" (its last poll worked), "failing" (the last polls failed; it
is retried with back-off and muted after BLOGS_MUTE_AFTER failures) or "muted" (no longer polled
until `-a unmute=`), with the reason it was muted.
"""

from __future__ import annotations

import time
from typing import Any

from store.clock import from_iso, to_iso
from store.crawlstate import StoreBase

FEED_FIELDS = [
    "site",
    "url",
    "state",
    "reason",
    "failures",
    "last_poll",
    "next_poll",
    "interval",
    "week_entries",
    "articles",
    "last_error",
]
WEEK = 7 * 86400


def feed_state(row: dict[str, Any]) -> tuple[str, str | None]:
    """(state, why) of a `feeds` row: ("muted", "410 Gone"), ("failing", None), ("new", …), ("ok", None)."""
    if row.get("muted_at"):
        return "muted", row.get("mute_reason") or "muted"
    if int(row.get("failures") or 0) > 0:
        return "failing", None
    if not row.get("last_polled_at"):
        return "new", "not polled yet"
    return "ok", None


def _interval(seconds: Any) -> str | None:
    """A poll interval in words: _interval(21600) == "6h"."""
    if seconds is None:
        return None
    value = float(seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if value >= size:
            return f"{value / size:.3g}{unit}"
    return f"{value:.0f}s"


class FeedStates(StoreBase):
    """Feeds and their state as `scrapy feeds` shows them."""

    def feed_states(self, site: list[str] | None = None, now: float | None = None) -> list[dict[str, Any]]:
        """One row per feed of the store (of `site` when given), by site then URL."""
        db = self.db
        now = time.time() if now is None else now
        week_ago = to_iso(now - WEEK)
        where, params = "", []
        if site:
            where = f" WHERE f.site IN ({', '.join('?' * len(site))})"
            params = list(site)
        counts = {
            r["feed"]: r
            for r in db.query(
                "SELECT feed, COUNT(*) AS articles,"
                " SUM(CASE WHEN COALESCE(published, discovered_at) >= ? THEN 1 ELSE 0 END) AS week"
                " FROM articles GROUP BY feed",
                [week_ago],
            )
        }
        out = []
        for row in db.query(f"SELECT f.* FROM feeds f{where} ORDER BY f.site, f.url", params):
            state, why = feed_state(row)
            count = counts.get(row["url"]) or {}
            next_poll = row.get("next_check")
            if state == "muted":
                next_poll = None  # until unmuted
            elif next_poll is None or (from_iso(next_poll) or 0) <= now:
                next_poll = "due"
            out.append(
                {
                    "site": row["site"],
                    "url": row["url"],
                    "state": state,
                    "reason": why,
                    "failures": int(row.get("failures") or 0),
                    "last_poll": row.get("last_polled_at"),
                    "next_poll": next_poll,
                    "interval": _interval(row.get("interval")),
                    "week_entries": int(count.get("week") or 0),
                    "articles": int(count.get("articles") or 0),
                    "last_error": row.get("last_error"),
                }
            )
        return out
