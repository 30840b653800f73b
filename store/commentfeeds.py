"""Comment feeds in the store: raw fetches, their entries, and the per-site agreement check.

store.site_agreement("gen1")   # Agreement(articles=12, count_exact=1.0, f1=0.98)

Where an article advertises `wfw:commentRss`, the spider fetches that feed before a re-fetch of
the page and yields a `CommentFeedItem` (crawler.items). Persist first, as pages are: the raw
response is committed to `comment_feed_fetches` on the reactor (`save_comment_feed`); a job then
parses it (jobs.commentfeeds) and its entries go to `feed_comments` (`store_feed_comments`,
`mark_comment_feed_processed`), so a kill in between loses nothing (the next run processes what
is left). Per site, the comments extracted from the page fetched right after are compared with
the feed's entries: count exactness (same number of comments) and token F1 of the texts
(extractor.evaluation.scoring's tokens). A site whose agreement falls (the template changed under its
profile) gets a warning.

WordPress comment feeds list only the newest comments (`posts_per_rss`, 10 by default): an
article whose feed is that full and whose page shows more is left out of the check.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from extractor.core.tokens import tokenize
from store.clock import from_iso, to_iso
from store.crawlstate import StoreBase

FEED_PAGE_LIMIT = 10  # WordPress's default posts_per_rss: a feed this full may be truncated
AGREEMENT_WINDOW = 20  # the site's most recently checked articles


class FetchedCommentFeed(Protocol):
    """What `save_comment_feed` stores (crawler.items.CommentFeedItem has these)."""

    site: str
    article_url: str
    url: str
    body: bytes
    headers: dict[str, str]
    fetched_at: float


@dataclass
class Agreement:
    """A site's extracted comments against its comment feeds, over recently checked articles."""

    articles: int
    count_exact: float
    f1: float


def _bag(texts: Iterable[str]) -> Counter[str]:
    return Counter(tokenize("\n".join(texts)))


class CommentFeedBook(StoreBase):
    """Comment feeds as fetched (`comment_feed_fetches`), their entries (`feed_comments`) and the check."""

    def store_feed_comments(self, *, article: str, site: str, entries: list[dict[str, Any]], fetched_at: float) -> None:
        """Upsert a comment feed's entries (first_seen kept) and note the fetch on the article (in a transaction)."""
        db = self.db
        stamp = to_iso(fetched_at)
        for e in entries:
            db.execute(
                "INSERT INTO feed_comments (article, guid, site, author, date, text, link, first_seen, last_seen)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(article, guid) DO UPDATE SET author = excluded.author,"
                " date = excluded.date, text = excluded.text, link = excluded.link,"
                " last_seen = CASE WHEN excluded.last_seen > feed_comments.last_seen THEN excluded.last_seen"
                " ELSE feed_comments.last_seen END",
                [article, e["guid"], site, e["author"], e["date"], e["text"], e["link"], stamp, stamp],
            )
        db.execute(
            "UPDATE articles SET comment_feed_entries = ?, comment_feed_fetched_at = ? WHERE url = ?"
            " AND (comment_feed_fetched_at IS NULL OR comment_feed_fetched_at <= ?)",
            [len(entries), stamp, article, stamp],
        )

    def save_comment_feed(self, item: FetchedCommentFeed) -> int:
        """Commit a fetched comment feed, unparsed in its own transaction (or the caller's); returns its id.

        Idempotent: the same (article, fetched_at) is stored once.
        """
        with self.transaction() as db:
            stamp = to_iso(item.fetched_at)
            db.execute(
                "INSERT INTO comment_feed_fetches (article, site, url, headers, body, fetched_at, attempts)"
                " VALUES (?, ?, ?, ?, ?, ?, 0) ON CONFLICT DO NOTHING",
                [
                    item.article_url,
                    item.site,
                    item.url,
                    json.dumps(item.headers, ensure_ascii=False),
                    gzip.compress(item.body, mtime=0),
                    stamp,
                ],
            )
            row = db.execute(
                "SELECT id FROM comment_feed_fetches WHERE article = ? AND fetched_at = ?", [item.article_url, stamp]
            ).fetchone()
            return int(row[0])

    def unprocessed_comment_feeds(self, max_attempts: int, site: str | None = None) -> list[int]:
        """Stored comment feeds (of `site`, or all) whose entries were not stored yet (and that did not
        fail too often)."""
        db = self.db
        rows = db.execute(
            "SELECT id FROM comment_feed_fetches WHERE processed_at IS NULL AND attempts < ?"
            + (" AND site = ?" if site else "")
            + " ORDER BY id",
            [max_attempts, *([site] if site else [])],
        ).fetchall()
        return [int(r[0]) for r in rows]

    def comment_feed_fetch(self, fetch_id: int) -> dict[str, Any] | None:
        """A stored comment feed still to process: article, site, url, headers (dict), body (raw bytes), fetched_at.

        None when it is unknown or was processed already (processing it twice is harmless).
        """
        db = self.db
        row = db.execute(
            "SELECT article, site, url, headers, body, fetched_at, processed_at FROM comment_feed_fetches WHERE id = ?",
            [fetch_id],
        ).fetchone()
        if row is None or row[6] is not None:
            return None
        article, site, url, headers, body, fetched_at = row[:6]
        return {
            "article": article,
            "site": site,
            "url": url,
            "headers": json.loads(headers or "{}"),
            "body": gzip.decompress(body),
            "fetched_at": from_iso(fetched_at),
        }

    def mark_comment_feed_processed(self, fetch_id: int, entries: int, now: float) -> None:
        """Note that a stored comment feed's `entries` went to `feed_comments` (call in a transaction)."""
        db = self.db
        db.execute(
            "UPDATE comment_feed_fetches SET entries = ?, processed_at = ?, error = NULL WHERE id = ?",
            [entries, to_iso(now), fetch_id],
        )

    def record_comment_feed_failure(self, fetch_id: int, error: str) -> None:
        """Count a failed processing attempt of a stored comment feed, in its own transaction."""
        with self.transaction() as db:
            db.execute(
                "UPDATE comment_feed_fetches SET attempts = attempts + 1, error = ? WHERE id = ?",
                [error[:500], fetch_id],
            )

    def site_agreement(self, site: str, window: int = AGREEMENT_WINDOW) -> Agreement | None:
        """Agreement over the site's newest articles whose page was extracted after their comment feed was read."""
        db = self.db
        checked = list(
            db.query(
                "SELECT a.url, a.comment_feed_fetched_at AS feed_at, a.comment_feed_entries AS n_feed, p.snapshot"
                " FROM articles a JOIN posts p ON p.url = a.url WHERE a.site = ? AND a.comment_feed_fetched_at"
                " IS NOT NULL AND p.fetched_at >= a.comment_feed_fetched_at ORDER BY a.comment_feed_fetched_at DESC"
                " LIMIT ?",
                [site, window],
            )
        )
        exact = overlap = n_feed_tokens = n_page_tokens = used = 0
        for row in checked:
            page = [
                r["text"]
                for r in db.query(
                    "SELECT text FROM comments WHERE article = ? AND last_snapshot = ?", [row["url"], row["snapshot"]]
                )
            ]
            feed = [
                r["text"]
                for r in db.query(
                    "SELECT text FROM feed_comments WHERE article = ? AND last_seen = ?", [row["url"], row["feed_at"]]
                )
            ]
            if len(feed) >= FEED_PAGE_LIMIT and len(page) > len(feed):
                continue  # a full feed may list only the newest comments
            used += 1
            exact += len(page) == len(feed)
            fb, pb = _bag(feed), _bag(page)
            overlap += (fb & pb).total()
            n_feed_tokens += fb.total()
            n_page_tokens += pb.total()
        if not used:
            return None
        total = n_feed_tokens + n_page_tokens
        f1 = 2 * overlap / total if total else 1.0  # no comments in the feeds, and none extracted
        return Agreement(used, exact / used, f1)

    def check_comment_feeds(self, sites: Iterable[str], *, minimum: float, drop: float, now: float) -> list[str]:
        """Measure and store each site's agreement; warnings for sites whose agreement fell (call in a transaction)."""
        db = self.db
        warnings: list[str] = []
        for site in sites:
            found = self.site_agreement(site)
            if found is None:
                continue
            before = next(db.query("SELECT comment_feed_f1, comment_feed_exact FROM sites WHERE name = ?", [site]), {})
            for label, new, old in (
                ("token F1", found.f1, before.get("comment_feed_f1")),
                ("count exactness", found.count_exact, before.get("comment_feed_exact")),
            ):
                fell_below = new < minimum and (old is None or old >= minimum)
                if fell_below or (old is not None and new < old - drop):
                    was = "" if old is None else f" (was {old:.2f})"
                    warnings.append(
                        f"Site {site}: comments agree with the comment feeds at {label} {new:.2f}{was} over"
                        f" {found.articles} articles; the template may have changed"
                    )
            db.execute(
                "UPDATE sites SET comment_feed_articles = ?, comment_feed_exact = ?, comment_feed_f1 = ?,"
                " comment_feed_checked_at = ? WHERE name = ?",
                [found.articles, round(found.count_exact, 4), round(found.f1, 4), to_iso(now), site],
            )
        return warnings
