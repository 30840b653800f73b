"""Per-site batches of first fetches and pending extractions: every statement on `batches` and `batch_members`.

Store("blogs.db").add_to_batch(site="gen1", snapshot=7, article="http://h/a/", size=10, now=time.time())

A batch fills with the first-fetch snapshots of distinct articles of one site (an article is
in at most one batch, so a set never holds two snapshots of one article), in the order of a
stable key (publication time, then URL) and only once no earlier article is still awaiting its
first fetch, so that the same pages make the same sets whatever order they arrived in. When it
holds `size` members it is `full`: the extraction worker runs `extract_site` on it, learns the site's
next profile version from it and marks it `done`, all in one transaction. Membership is
stored as it happens, so a half-full batch carries over to the next cron run, and a batch that
was full when a run died is extracted by the next run.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from store.clock import from_iso, to_iso
from store.crawlstate import StoreBase


class BatchState(StoreBase):
    """Batch membership, filling and finishing (the lookups are cheap: safe on the reactor thread)."""

    def add_to_batch(self, *, site: str, snapshot: int, article: str, size: int, now: float) -> list[int]:
        """Put a first fetch into the site's open batch; returns the ids of batches this filled.

        Idempotent: an article already in a batch is not added again. Batches fill in the order
        of a stable key (publication time, then URL), never in order of arrival (see `_settle`).
        """
        with self.transaction() as db:
            db.lock_sites([site])  # the site's open batch is read, then written
            if db.execute("SELECT 1 FROM batch_members WHERE article = ?", [article]).fetchone():
                return []
            self._add(site, snapshot, article, size, to_iso(now))
            return self._settle(site, size, to_iso(now), wait_for_feeds=True)

    def settle_batches(self, site: str, size: int, now: float, *, wait_for_feeds: bool) -> list[int]:
        """Close the site's batches that are full now (see `_settle`); returns their ids."""
        with self.transaction() as db:
            db.lock_sites([site])
            return self._settle(site, size, to_iso(now), wait_for_feeds=wait_for_feeds)

    def _open_batch(self, site: str, size: int, stamp: str) -> int:
        row = self.db.execute(
            "SELECT id FROM batches WHERE site = ? AND state = 'open' ORDER BY id LIMIT 1", [site]
        ).fetchone()
        if row is not None:
            return int(row[0])
        row = self.db.execute(
            "INSERT INTO batches (site, state, size, members, opened_at) VALUES (?, 'open', ?, 0, ?) RETURNING id",
            [site, size, stamp],
        ).fetchone()
        return int(row[0])

    def _add(self, site: str, snapshot: int, article: str, size: int, stamp: str) -> None:
        batch = self._open_batch(site, size, stamp)
        members = int(self.db.execute("SELECT members FROM batches WHERE id = ?", [batch]).fetchone()[0])
        self.db.execute(
            "INSERT INTO batch_members (batch, snapshot, article, site, position) VALUES (?, ?, ?, ?, ?)",
            [batch, snapshot, article, site, members],
        )
        self.db.execute("UPDATE batches SET members = ?, size = ? WHERE id = ?", [members + 1, size, batch])

    def _settle(self, site: str, size: int, stamp: str, *, wait_for_feeds: bool = False) -> list[int]:
        """Close full batches of the site's open members; returns their ids.

        What a set holds decides what extraction learns, so it must not depend on which page
        happened to arrive first: members are ordered by (publication time, URL), and a batch
        takes the `size` first of them only once no article of the site still awaiting its
        first fetch could come before them. The same pages always make the same batches.

        `wait_for_feeds` (while requests are in flight): nor before the comment feed fetched with
        each of them (when the site feed said it had comments) is stored, since the set's
        extraction takes it as evidence, nor before every stored first fetch that could come
        before them has joined. At the start and end of a run nothing is in flight.
        """
        db = self.db
        batch = self._open_batch(site, size, stamp)
        members = db.execute(
            "SELECT m.snapshot, COALESCE(a.published, ''), m.article FROM batch_members m"
            " JOIN articles a ON a.url = m.article WHERE m.batch = ? ORDER BY 2, 3",
            [batch],
        ).fetchall()
        unready: set[str] = set()
        if wait_for_feeds:
            unready = {
                r[0]
                for r in db.execute(
                    "SELECT a.url FROM batch_members m JOIN articles a ON a.url = m.article WHERE m.batch = ?"
                    " AND a.comment_rss IS NOT NULL AND COALESCE(a.slash_at_fetch, 0) > 0 AND NOT EXISTS"
                    " (SELECT 1 FROM comment_feed_fetches f WHERE f.article = a.url)",
                    [batch],
                )
            }
        # Still to come: articles awaiting their first fetch and, while pages are in flight, first
        # fetches already stored but not batched yet (the page is committed on the store's writer
        # thread before its item reaches the extraction pipeline, which batches it).
        in_flight = (
            " OR (EXISTS (SELECT 1 FROM snapshots s WHERE s.article = articles.url AND s.kind = 'first')"
            " AND NOT EXISTS (SELECT 1 FROM batch_members b WHERE b.article = articles.url))"
            if wait_for_feeds
            else ""
        )
        waiting = db.execute(
            "SELECT COALESCE(published, ''), url FROM articles WHERE site = ? AND ((state = 'pending'"
            f" AND NOT EXISTS (SELECT 1 FROM snapshots s WHERE s.article = articles.url)){in_flight})"
            " ORDER BY 1, 2 LIMIT 1",
            [site],
        ).fetchone()
        filled: list[int] = []
        while (
            len(members) >= size
            and (waiting is None or tuple(members[size - 1][1:]) < tuple(waiting))
            and not any(m[2] in unready for m in members[:size])
        ):
            chosen, members = members[:size], members[size:]
            for position, (snapshot, _key, _article) in enumerate(chosen):
                db.execute("UPDATE batch_members SET position = ? WHERE snapshot = ?", [position, snapshot])
            db.execute(
                "UPDATE batches SET members = ?, size = ?, state = 'full', filled_at = ? WHERE id = ?",
                [size, size, stamp, batch],
            )
            filled.append(batch)
            if not members:
                return filled
            batch = self._open_batch(site, size, stamp)  # the rest wait in a new open batch
            for snapshot, _key, _article in members:
                db.execute("UPDATE batch_members SET batch = ? WHERE snapshot = ?", [batch, snapshot])
        for position, (snapshot, _key, _article) in enumerate(members):
            db.execute("UPDATE batch_members SET position = ? WHERE snapshot = ?", [position, snapshot])
        db.execute("UPDATE batches SET members = ? WHERE id = ?", [len(members), batch])
        return filled

    def assign_unbatched(self, size: int, now: float, site: str | None = None) -> list[int]:
        """Recovery: batch first fetches a killed run stored but did not batch; close open batches
        that are full now (BATCH_SIZE was lowered, or waiting articles were fetched or given up).
        Of `site` only, when given (an import's site task). Returns the ids of the batches this filled."""
        stamp = to_iso(now)
        filled: list[int] = []
        of_site, args = (" AND site = ?", [site]) if site else ("", [])
        with self.transaction() as db:
            loose = db.execute(
                "SELECT s.id, s.article, s.site FROM snapshots s WHERE s.kind = 'first' AND NOT EXISTS"
                " (SELECT 1 FROM batch_members m WHERE m.article = s.article)"
                + (" AND s.site = ?" if site else "")
                + " ORDER BY s.id",
                args,
            ).fetchall()
            open_sites = [
                r[0] for r in db.execute(f"SELECT DISTINCT site FROM batches WHERE state = 'open'{of_site}", args)
            ]
            # A site another worker is writing now is that worker's to batch: not waited for.
            held = set(db.lock_sites([*open_sites, *(r[2] for r in loose)], wait=False))
            for snapshot, article, page_site in loose:
                if (
                    page_site in held
                    and not db.execute("SELECT 1 FROM batch_members WHERE article = ?", [article]).fetchone()
                ):
                    self._add(page_site, snapshot, article, size, stamp)
            for (open_site,) in db.execute(
                f"SELECT DISTINCT site FROM batches WHERE state = 'open'{of_site} ORDER BY site", args
            ).fetchall():
                if open_site in held:
                    filled += self._settle(open_site, size, stamp)
        return filled

    def full_batches(self, site: str | None = None) -> list[int]:
        """Batches waiting for extraction, oldest first."""
        sql = "SELECT id FROM batches WHERE state = 'full'" + (" AND site = ?" if site else "") + " ORDER BY id"
        return [int(r["id"]) for r in self._rows(sql, [site] if site else [])]

    def batch(self, batch_id: int) -> dict[str, Any] | None:
        return self._one("SELECT * FROM batches WHERE id = ?", [batch_id])

    def batch_snapshots(self, batch_id: int) -> list[int]:
        rows = self._rows("SELECT snapshot FROM batch_members WHERE batch = ? ORDER BY position", [batch_id])
        return [int(r["snapshot"]) for r in rows]

    def pending_snapshots(self, site: str | None = None) -> list[int]:
        """Snapshots never extracted that a profile may extract (members of full batches wait for them)."""
        sql = (
            "SELECT s.id FROM snapshots s WHERE NOT EXISTS (SELECT 1 FROM extractions e WHERE e.snapshot = s.id)"
            " AND NOT EXISTS (SELECT 1 FROM batch_members m JOIN batches b ON b.id = m.batch"
            " WHERE m.snapshot = s.id AND b.state = 'full')"
            " AND s.site IN (SELECT site FROM profiles)" + (" AND s.site = ?" if site else "") + " ORDER BY s.id"
        )
        return [int(r["id"]) for r in self._rows(sql, [site] if site else [])]

    def extraction_states(self, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        """snapshot -> {method, profile_version} for those of `ids` already extracted."""
        found: dict[int, dict[str, Any]] = {}
        for start in range(0, len(ids), 400):
            chunk = list(ids[start : start + 400])
            sql = f"SELECT snapshot, method, profile_version FROM extractions WHERE snapshot IN ({self._marks(chunk)})"
            found.update({int(r["snapshot"]): r for r in self._rows(sql, chunk)})
        return found

    def poorly_matched(self, site: str, below_version: int, threshold: float) -> list[int]:
        """Snapshots an older profile version extracted with a template match under `threshold`."""
        rows = self._rows(
            "SELECT snapshot FROM extractions WHERE site = ? AND method = 'profile' AND profile_version < ?"
            " AND template_match < ? ORDER BY snapshot",
            [site, below_version, threshold],
        )
        return [int(r["snapshot"]) for r in rows]

    def newest_fresh_snapshots(self, site: str, limit: int, upto: int, exclude_article: str) -> list[int]:
        """The site's newest first fetches up to snapshot `upto`, one per article, without `exclude_article`."""
        rows = self._rows(
            "SELECT id FROM snapshots WHERE site = ? AND kind = 'first' AND id <= ? AND article != ?"
            " ORDER BY id DESC LIMIT ?",
            [site, upto, exclude_article, limit],
        )
        return [int(r["id"]) for r in rows]

    def feed_comment_texts(self, snapshots: Sequence[dict[str, Any]]) -> dict[int, list[str]]:
        """snapshot id -> texts of its article's feed comments dated no later than the snapshot's fetch.

        Comments written after the page was fetched cannot be on it; undated entries count.
        """
        articles = sorted({s["article"] for s in snapshots})
        by_article: dict[str, list[dict[str, Any]]] = {}
        for start in range(0, len(articles), 400):
            chunk = articles[start : start + 400]
            sql = f"SELECT article, date, text FROM feed_comments WHERE article IN ({self._marks(chunk)}) ORDER BY guid"
            for row in self._rows(sql, chunk):
                by_article.setdefault(row["article"], []).append(row)
        out: dict[int, list[str]] = {}
        for snap in snapshots:
            fetched = from_iso(snap.get("fetched_at")) or float("inf")
            texts = [
                r["text"]
                for r in by_article.get(snap["article"], [])
                if r["text"] and (from_iso(r["date"]) or 0) <= fetched
            ]
            if texts:
                out[int(snap["id"])] = texts
        return out

    def load_snapshots(self, ids: Sequence[int]) -> list[dict[str, Any]]:
        """Snapshot rows (with the gzip body) in the order of `ids`, each with the comment system an
        earlier extraction of it found (`known_comment_system`, None before the first)."""
        found: dict[int, dict[str, Any]] = {}
        for start in range(0, len(ids), 200):
            chunk = list(ids[start : start + 200])
            sql = (
                "SELECT s.*, e.comment_system AS known_comment_system FROM snapshots s"
                f" LEFT JOIN extractions e ON e.snapshot = s.id WHERE s.id IN ({self._marks(chunk)})"
            )
            for row in self._rows(sql, chunk):
                row["headers"] = json.loads(row["headers"] or "{}")
                found[int(row["id"])] = row
        return [found[i] for i in ids if i in found]

    def done_batches(self, site: str) -> list[dict[str, Any]]:
        return self._rows("SELECT id, profile_version FROM batches WHERE site = ? AND state = 'done'", [site])

    def finish_batch(self, batch_id: int, version: int, now: float) -> None:
        """Mark a batch extracted, with the profile version it taught (inside a transaction)."""
        self.db.execute(
            "UPDATE batches SET state = 'done', done_at = ?, profile_version = ? WHERE id = ?",
            [to_iso(now), version, batch_id],
        )

    def batch_unprocessed_feeds(self, batch_id: int) -> list[int]:
        """Stored comment feeds of the batch's articles not parsed yet, oldest first."""
        rows = self.db.execute(
            "SELECT f.id FROM comment_feed_fetches f JOIN batch_members m ON m.article = f.article"
            " WHERE m.batch = ? AND f.processed_at IS NULL ORDER BY f.id",
            [batch_id],
        ).fetchall()
        return [int(r[0]) for r in rows]

    def batches_members(self, batch_ids: Sequence[int]) -> set[int]:
        """Snapshot ids in any of the batches."""
        sql = f"SELECT snapshot FROM batch_members WHERE batch IN ({self._marks(batch_ids)})"
        return {int(r[0]) for r in self.db.execute(sql, list(batch_ids))}
