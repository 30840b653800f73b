"""Extractions, profiles and the batch bookkeeping the extraction jobs write (jobs.extraction, jobs.reextract).

Mixed into `store.sqlite.Store`; kept apart only to keep modules small.
with store.transaction(): store.write_extractions([row])   # row: values in EXTRACTION_COLUMNS order
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from store.clock import to_iso
from store.comments import refresh_article
from store.crawlstate import StoreBase

EXTRACTION_COLUMNS = (
    "snapshot",
    "article",
    "site",
    "method",
    "batch",
    "profile_version",
    "template_match",
    "post",
    "comments",
    "comment_count",
    "encoding",
    "error",
    "warnings",
    "decided_by",
    "confidence",
    "encoding_source",
    "comment_system",
)
# A batch extraction always wins; a profile extraction only over an older profile's.
_UPSERT = (
    f"INSERT INTO extractions ({', '.join(EXTRACTION_COLUMNS)}) VALUES ({', '.join('?' for _ in EXTRACTION_COLUMNS)})"
    " ON CONFLICT(snapshot) DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in EXTRACTION_COLUMNS[1:])
)
_ONLY_BETTER = (
    " WHERE excluded.method = 'batch' OR (extractions.method != 'batch'"
    " AND excluded.profile_version >= extractions.profile_version)"
)


class ExtractionState(StoreBase):
    """What the extraction jobs read and write besides batches (store.batches)."""

    def write_extractions(self, rows: Sequence[Sequence[Any]], force: bool = False) -> None:
        """Upsert extraction rows and re-derive their articles' posts and comments (inside a transaction)."""
        sql = _UPSERT if force else _UPSERT + _ONLY_BETTER
        for row in rows:
            self.db.execute(sql, list(row))
        for article in dict.fromkeys(row[1] for row in rows):
            refresh_article(self.db, article)

    def next_profile_version(self, site: str) -> int:
        row = self.db.execute("SELECT COALESCE(MAX(version), 0) FROM profiles WHERE site = ?", [site]).fetchone()
        return int(row[0]) + 1

    def add_profile(self, row: dict[str, Any]) -> None:
        """Insert a `profiles` row (inside a transaction)."""
        self.db.insert_row("profiles", row)

    def update_profile(self, site: str, version: int, *, profile: str, pages: int, warnings: str) -> None:
        """Rewrite a stored profile version (re-extraction), in its own transaction."""
        with self.transaction() as db:
            db.execute(
                "UPDATE profiles SET profile = ?, pages = ?, warnings = ? WHERE site = ? AND version = ?",
                [profile, pages, warnings, site, version],
            )

    def profiles_of(self, site: str) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM profiles WHERE site = ? ORDER BY version", [site])

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

    def profile_extractions(self, site: str) -> list[tuple[int, int | None]]:
        """(snapshot, profile_version) of the site's profile extractions, by snapshot."""
        rows = self.db.execute(
            "SELECT snapshot, profile_version FROM extractions WHERE site = ? AND method = 'profile' ORDER BY snapshot",
            [site],
        )
        return [(int(r[0]), r[1]) for r in rows]

    def snapshot_sites(self) -> list[str]:
        """Every site with a stored page, by name."""
        return [r[0] for r in self.db.execute("SELECT DISTINCT site FROM snapshots ORDER BY site")]

    def site_snapshots(self, site: str) -> list[tuple[int, str]]:
        """(snapshot id, article) of every stored page of the site, oldest first."""
        rows = self.db.execute("SELECT id, article FROM snapshots WHERE site = ? ORDER BY id", [site])
        return [(int(r[0]), r[1]) for r in rows]

    def max_snapshot_id(self) -> int:
        return int(self.db.execute("SELECT COALESCE(MAX(id), 0) FROM snapshots").fetchone()[0])

    def unsettled_snapshots(self, after: int, site: str | None = None) -> list[tuple[str, int]]:
        """(site, snapshot) not extracted as a batch that came after snapshot `after` or wait in an
        open batch, by site and id (the end-of-run sweep of pipelines.extract); of one site or all."""
        rows = self.db.execute(
            "SELECT s.site, s.id FROM snapshots s LEFT JOIN extractions e ON e.snapshot = s.id"
            " WHERE (e.method IS NULL OR e.method != 'batch') AND (s.id > ? OR s.id IN (SELECT m.snapshot"
            " FROM batch_members m JOIN batches b ON b.id = m.batch WHERE b.state = 'open'))"
            + (" AND s.site = ?" if site is not None else "")
            + " ORDER BY s.site, s.id",
            [after] if site is None else [after, site],
        ).fetchall()
        return [(r[0], int(r[1])) for r in rows]
