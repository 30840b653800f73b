"""Feed and article state in the store: polls, validators, backoff, mutes, fetch schedules.

Mixed into `store.sqlite.Store`; kept apart only to keep modules small.
Store("blogs.db").due_articles(["https://example.org/feed/"], now=time.time())
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from store.clock import from_iso, next_refetch, refetch_base, to_iso
from store.sql import Database

# Feeds listed in one statement at most: a feeds file may list more than SQLite binds (32,766).
IN_LIST_MAX = 1000


def _chunks(values: Sequence[str]) -> list[Sequence[str]]:
    """`values` in parts of at most IN_LIST_MAX (none for none)."""
    return [values[i : i + IN_LIST_MAX] for i in range(0, len(values), IN_LIST_MAX)]


class StoreBase:
    """Connection-level helpers shared by the store's parts."""

    db: Database

    def transaction(self) -> AbstractContextManager[Database]:
        """One write transaction on the store's connection (store.sql.Database.transaction)."""
        return self.db.transaction()

    def lock_sites(self, sites: Iterable[str], *, wait: bool = True) -> list[str]:
        """Inside a transaction: make it the only writer of these sites until it ends (PostgreSQL;
        SQLite has one writer anyway); with `wait=False` the sites another writer holds are skipped.
        Returns the sites locked."""
        return self.db.lock_sites(sites, wait=wait)

    def _rows(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[dict[str, Any]]:
        return list(self.db.query(sql, params))

    def _one(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> dict[str, Any] | None:
        rows = self._rows(sql, params)
        return rows[0] if rows else None

    @staticmethod
    def _marks(values: Sequence[Any]) -> str:
        return ",".join("?" for _ in values)


class CrawlState(StoreBase):
    """What the spider reads and writes between and during runs."""

    # -- feeds -----------------------------------------------------------------------------

    def sync_feeds(self, sources: Iterable[tuple[str, str]], now: float) -> None:
        """Register (url, site name) pairs from the feeds file; existing feeds keep their state."""
        with self.transaction() as db:
            for url, name in sources:
                db.execute(
                    "INSERT INTO sites (name, home_url, added_at) VALUES (?, NULL, ?) ON CONFLICT(name) DO NOTHING",
                    [name, to_iso(now)],
                )
                # Insert, then update only a changed name: workers started together sync the same
                # feeds file, and an upsert would lock every row of it (rows unchanged stay unlocked).
                db.execute(
                    "INSERT INTO feeds (url, site, added_at) VALUES (?, ?, ?) ON CONFLICT(url) DO NOTHING",
                    [url, name, to_iso(now)],
                )
                db.execute("UPDATE feeds SET site = ? WHERE url = ? AND site IS NOT ?", [name, url, name])

    def feed_sites(self) -> dict[str, str]:
        """Every feed the store knows -> the site it belongs to."""
        return {row["url"]: row["site"] for row in self.db.query("SELECT url, site FROM feeds")}

    def harvest_counts(self, now: float) -> dict[str, int]:
        """Feeds due, failing and muted; articles waiting for their first fetch; pages not extracted yet."""
        db = self.db
        row = next(
            db.query(
                "SELECT SUM(CASE WHEN muted_at IS NULL AND (next_check IS NULL OR next_check <= ?) THEN 1 ELSE 0 END)"
                " AS due, SUM(CASE WHEN muted_at IS NULL AND failures > 0 THEN 1 ELSE 0 END) AS failing,"
                " SUM(CASE WHEN muted_at IS NOT NULL THEN 1 ELSE 0 END) AS muted FROM feeds",
                [to_iso(now)],
            )
        )
        queued = db.execute("SELECT COUNT(*) FROM articles WHERE state = 'pending'").fetchone()[0]
        backlog = db.execute(
            "SELECT COUNT(*) FROM snapshots s WHERE NOT EXISTS (SELECT 1 FROM extractions e WHERE e.snapshot = s.id)"
        ).fetchone()[0]
        return {
            "due": int(row["due"] or 0),
            "failing": int(row["failing"] or 0),
            "muted": int(row["muted"] or 0),
            "queued": int(queued or 0),
            "backlog": int(backlog or 0),
        }

    def feed(self, url: str) -> dict[str, Any] | None:
        return self._one("SELECT * FROM feeds WHERE url = ?", [url])

    def due_feeds(self, urls: Sequence[str], now: float) -> list[dict[str, Any]]:
        """Feeds among `urls` that are not muted and whose next check has come, oldest first."""
        found = [
            row
            for part in _chunks(urls)
            for row in self._rows(
                f"SELECT * FROM feeds WHERE url IN ({self._marks(part)}) AND muted_at IS NULL"
                " AND (next_check IS NULL OR next_check <= ?)",
                [*part, to_iso(now)],
            )
        ]
        return sorted(found, key=lambda row: row["next_check"] or "")

    def set_feed_url(self, url: str, feed_url: str | None) -> None:
        """Remember the feed discovered for a home page (None: rediscover); validators reset."""
        with self.transaction() as db:
            db.execute(
                "UPDATE feeds SET feed_url = ?, etag = NULL, last_modified = NULL WHERE url = ?",
                [feed_url, url],
            )

    def set_site_home(self, site: str, home_url: str | None, title: str | None) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE sites SET home_url = COALESCE(home_url, ?), title = COALESCE(?, title) WHERE name = ?",
                [home_url, title, site],
            )

    def record_feed_ok(
        self,
        url: str,
        *,
        now: float,
        status: int,
        next_check: float,
        interval: float,
        feed_url: str | None = None,
        etag: str | None = None,
        last_modified: str | None = None,
        title: str | None = None,
        new_articles: Sequence[dict[str, Any]] = (),
        seen: Sequence[dict[str, Any]] = (),
    ) -> list[str]:
        """Store a successful poll (200 or 304) with the new articles in one transaction.

        Articles and validators are committed together: a crash can never leave a stored ETag
        whose entries were not recorded. Returns the URLs of the articles really inserted.
        """
        stamp = to_iso(now)
        inserted: list[str] = []
        with self.transaction() as db:
            for article in new_articles:
                cur = db.execute(
                    "INSERT INTO articles (url, site, feed, entry_id, guid, link, title, author, published,"
                    " comment_rss, slash_comments, slash_seen_at, discovered_at, state, next_fetch_at)"
                    " VALUES (:url, :site, :feed, :entry_id, :guid, :link, :title, :author, :published,"
                    " :comment_rss, :slash_comments, :slash_seen_at, :discovered_at, 'pending',"
                    " :discovered_at)"
                    " ON CONFLICT DO NOTHING",
                    {**article, "feed": url, "discovered_at": stamp, "slash_seen_at": stamp},
                )
                if cur.rowcount:
                    inserted.append(article["url"])
            for article in seen:
                db.execute(
                    "UPDATE articles SET slash_comments = COALESCE(:slash_comments, slash_comments),"
                    " slash_seen_at = :now, comment_rss = COALESCE(:comment_rss, comment_rss),"
                    " title = COALESCE(:title, title) WHERE url = :url",
                    {**article, "now": stamp},
                )
            sets = (
                "last_polled_at = :now, first_polled_at = COALESCE(first_polled_at, :now), last_ok_at = :now,"
                " next_check = :next, interval = :interval, failures = 0, last_status = :status,"
                " last_error = NULL, polls = polls + 1,"
                " not_modified = not_modified + CASE WHEN :status = 304 THEN 1 ELSE 0 END"
            )
            params: dict[str, Any] = {
                "url": url,
                "now": stamp,
                "next": to_iso(next_check),
                "interval": interval,
                "status": status,
            }
            if status != 304:
                sets += ", etag = :etag, last_modified = :lm, title = COALESCE(:title, title), last_changed_at = :now"
                params.update(etag=etag, lm=last_modified, title=title)
            else:
                # Unchanged feed: the slash:comments of the entries it listed are still current.
                db.execute(
                    "UPDATE articles SET slash_seen_at = :now WHERE feed = :url AND slash_seen_at >="
                    " (SELECT last_changed_at FROM feeds WHERE url = :url)",
                    {"url": url, "now": stamp},
                )
            if feed_url:
                sets += ", feed_url = :feed_url"
                params["feed_url"] = feed_url
            db.execute(f"UPDATE feeds SET {sets} WHERE url = :url", params)
        return inserted

    def record_feed_failure(
        self, url: str, *, now: float, status: int | None, error: str, next_check: float, mute: str | None
    ) -> int:
        """Count a failed poll; `mute` (a reason) stops polling. Returns the consecutive failure count."""
        stamp = to_iso(now)
        with self.transaction() as db:
            db.execute(
                "UPDATE feeds SET failures = failures + 1, last_polled_at = :now, last_status = :status,"
                " last_error = :error, next_check = :next, polls = polls + 1,"
                " muted_at = CASE WHEN :mute IS NULL THEN muted_at ELSE :now END,"
                " mute_reason = COALESCE(:mute, mute_reason) WHERE url = :url",
                {
                    "url": url,
                    "now": stamp,
                    "status": status,
                    "error": error[:500],
                    "next": to_iso(next_check),
                    "mute": mute,
                },
            )
            row = db.execute("SELECT failures FROM feeds WHERE url = ?", [url]).fetchone()
        return int(row[0]) if row else 0

    def unmute(self, urls: Sequence[str]) -> int:
        """Let muted feeds be polled again at once; returns how many were muted."""
        if not urls:
            return 0
        with self.transaction() as db:
            cur = db.execute(
                f"UPDATE feeds SET muted_at = NULL, mute_reason = NULL, failures = 0, next_check = NULL"
                f" WHERE muted_at IS NOT NULL AND url IN ({self._marks(urls)})",
                list(urls),
            )
        return cur.rowcount

    def count_muted(self, urls: Sequence[str]) -> int:
        if not urls:
            return 0
        row = self._one(
            f"SELECT COUNT(*) AS n FROM feeds WHERE muted_at IS NOT NULL AND url IN ({self._marks(urls)})",
            list(urls),
        )
        return int(row["n"]) if row else 0

    def feed_entry_times(self, feed: str, since: float) -> list[float]:
        """Publication (else discovery) times of the feed's articles since `since`."""
        rows = self._rows(
            "SELECT COALESCE(published, discovered_at) AS t FROM articles WHERE feed = ? AND"
            " COALESCE(published, discovered_at) >= ?",
            [feed, to_iso(since)],
        )
        return [t for t in (from_iso(r["t"]) for r in rows) if t is not None]

    # -- articles --------------------------------------------------------------------------

    def known_articles(self, site: str, entry_ids: Sequence[str], urls: Sequence[str]) -> dict[str, str]:
        """Map entry ids and URLs already stored for `site` (or as any article URL) to the article URL."""
        known: dict[str, str] = {}
        for chunk_start in range(0, max(len(entry_ids), len(urls)), 400):
            ids = list(entry_ids[chunk_start : chunk_start + 400])
            links = list(urls[chunk_start : chunk_start + 400])
            if ids:
                for row in self._rows(
                    f"SELECT url, entry_id FROM articles WHERE site = ? AND entry_id IN ({self._marks(ids)})",
                    [site, *ids],
                ):
                    known[row["entry_id"]] = row["url"]
            if links:
                for row in self._rows(f"SELECT url FROM articles WHERE url IN ({self._marks(links)})", links):
                    known[row["url"]] = row["url"]
        return known

    def article(self, url: str) -> dict[str, Any] | None:
        return self._one("SELECT * FROM articles WHERE url = ?", [url])

    def article_sites(self, urls: Sequence[str]) -> set[str]:
        """The sites of these articles (a crawler worker's sites with fetches in flight)."""
        if not urls:
            return set()
        rows = self.db.execute(f"SELECT DISTINCT site FROM articles WHERE url IN ({self._marks(urls)})", list(urls))
        return {r[0] for r in rows.fetchall()}

    def due_articles(self, feeds: Sequence[str], now: float, limit: int = 10000) -> list[dict[str, Any]]:
        """Pending first fetches and due re-fetches of articles of `feeds`, first fetches first.

        A never-tried first fetch is due whatever the clock says (a clock set back between runs
        must not hold it back); retries and re-fetches wait for their time.
        """
        found = [
            row
            for part in _chunks(feeds)
            for row in self._rows(
                f"SELECT a.*, f.site AS feed_site FROM articles a JOIN feeds f ON f.url = a.feed"
                f" WHERE a.feed IN ({self._marks(part)}) AND ((a.state = 'pending' AND a.failures = 0)"
                f" OR (a.state IN ('pending', 'active') AND a.next_fetch_at <= ?))"
                f" ORDER BY a.state = 'active', a.next_fetch_at LIMIT ?",
                [*part, to_iso(now), limit],
            )
        ]
        found.sort(key=lambda row: (row["state"] == "active", row["next_fetch_at"] or ""))
        return found[:limit]

    def due_sites(self, feeds: Sequence[str], now: float) -> set[str]:
        """Sites with a due poll among `feeds` or a due fetch of an article of `feeds` (what a
        crawler worker claims leases on: store.leases).

        Found through the next_check and (state, next_fetch_at) indexes, then kept to `feeds` here:
        a worker asks every second, and an IN list of every feed (100,000 of them) costs a scan of
        the list each time (and exceeds SQLite's limit of bound parameters).
        """
        if not feeds:
            return set()
        stamp = to_iso(now)
        rows = self.db.execute(
            "SELECT url, site FROM feeds WHERE next_check IS NULL AND muted_at IS NULL"
            " UNION SELECT url, site FROM feeds WHERE next_check <= ? AND muted_at IS NULL"
            " UNION SELECT feed, site FROM articles WHERE state = 'pending' AND failures = 0"
            " UNION SELECT feed, site FROM articles WHERE state IN ('pending', 'active') AND next_fetch_at <= ?",
            [stamp, stamp],
        ).fetchall()
        wanted = set(feeds)
        return {r[1] for r in rows if r[0] in wanted}

    def next_due(self, feeds: Sequence[str]) -> float | None:
        """Earliest next check of an unmuted feed or next fetch of an article of `feeds` (None: nothing)."""
        earliest: str | None = None
        for part in _chunks(feeds):
            marks = self._marks(part)
            row = self._one(
                f"SELECT MIN(t) AS t FROM (SELECT MIN(COALESCE(next_check, '')) AS t FROM feeds"
                f" WHERE url IN ({marks}) AND muted_at IS NULL UNION ALL"
                f" SELECT MIN(CASE WHEN state = 'pending' AND failures = 0 THEN '' ELSE next_fetch_at END)"
                f" FROM articles WHERE feed IN ({marks}) AND state IN ('pending', 'active')"
                f" AND next_fetch_at IS NOT NULL) AS due",
                [*part, *part],
            )
            if row is not None and row["t"] is not None and (earliest is None or row["t"] < earliest):
                earliest = row["t"]
        if earliest is None:
            return None
        return from_iso(earliest) if earliest else 0.0

    def skip_refetch(
        self,
        url: str,
        now: float,
        offsets: Sequence[float],
        *,
        comment_feed_etag: str | None = None,
        comment_feed_last_modified: str | None = None,
    ) -> float | None:
        """Pass over a due re-fetch (nothing changed); returns the next due time or None when done.

        Comment feed validators, when given, are those of the comment feed that showed no change.
        """
        row = self.article(url)
        if row is None:
            return None
        first = from_iso(row["first_fetched_at"]) or now
        due = next_refetch(refetch_base(from_iso(row["published"]), first), offsets, now)
        with self.transaction() as db:
            db.execute(
                "UPDATE articles SET refetches_skipped = refetches_skipped + 1, next_fetch_at = ?, state = ?,"
                " last_error = NULL, comment_feed_etag = COALESCE(?, comment_feed_etag),"
                " comment_feed_last_modified = COALESCE(?, comment_feed_last_modified) WHERE url = ?",
                [
                    to_iso(due) if due else None,
                    "active" if due else "done",
                    comment_feed_etag,
                    comment_feed_last_modified,
                    url,
                ],
            )
        return due

    def comment_totals(self) -> tuple[int, int]:
        """(comments, comments marked gone) in the store: a run's counts are the difference from its start,
        whatever the fetch times of the pages (a crashed run's pages extracted now, a clock set back)."""
        row = self._one("SELECT COUNT(*) AS n, COUNT(gone_at) AS gone FROM comments")
        return (int(row["n"]), int(row["gone"])) if row else (0, 0)

    def last_run_clock(self) -> float | None:
        """The latest time a crawl run recorded (its start or end): a later run's clock should not be behind it."""
        row = self._one("SELECT MAX(started_at) AS started, MAX(finished_at) AS finished FROM runs")
        stamps = [from_iso(row[key]) for key in ("started", "finished")] if row else []
        return max((t for t in stamps if t is not None), default=None)

    def throttle_site(self, site: str, until: float) -> None:
        """Keep a site's Retry-After for later runs: nothing of it is requested before `until`."""
        with self.transaction() as db:
            db.execute(
                "UPDATE sites SET throttled_until = ?"
                " WHERE name = ? AND (throttled_until IS NULL OR throttled_until < ?)",
                [to_iso(until), site, to_iso(until)],
            )

    def throttled_sites(self, now: float) -> dict[str, float]:
        """Sites whose Retry-After has not passed at `now` -> until when (a short list: sites asked to wait)."""
        rows = self._rows("SELECT name, throttled_until FROM sites WHERE throttled_until > ?", [to_iso(now)])
        return {r["name"]: from_iso(r["throttled_until"]) or now for r in rows}

    def postpone(self, *, feeds: Sequence[str] = (), articles: Sequence[str] = (), until: float) -> None:
        """Move due polls and fetches to `until` (their site asked to wait), failures untouched.

        A pending first fetch also counts as tried (failures >= 1), else it would be due whatever the
        clock says (due_articles)."""
        with self.transaction() as db:
            for url in feeds:
                db.execute("UPDATE feeds SET next_check = ? WHERE url = ?", [to_iso(until), url])
            for url in articles:
                db.execute(
                    "UPDATE articles SET next_fetch_at = ?,"
                    " failures = CASE WHEN state = 'pending' AND failures = 0 THEN 1 ELSE failures END"
                    " WHERE url = ? AND state IN ('pending', 'active')",
                    [to_iso(until), url],
                )

    def record_article_failure(
        self,
        url: str,
        *,
        now: float,
        status: int | None,
        error: str,
        next_fetch_at: float | None,
        state: str,
        failures: int,
    ) -> None:
        """Record a failed page fetch and the failure count to keep; `next_fetch_at` None stops trying."""
        with self.transaction() as db:
            db.execute(
                "UPDATE articles SET failures = ?, last_status = ?, last_error = ?,"
                " next_fetch_at = ?, state = ? WHERE url = ?",
                [failures, status, error[:500], to_iso(next_fetch_at) if next_fetch_at else None, state, url],
            )
