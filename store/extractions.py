"""Extractions and what they derive (posts, comments), as the extraction jobs write them (jobs.extraction,
jobs.reextract).

with store.transaction(): store.write_extractions([row])   # row: values in EXTRACTION_COLUMNS order
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from store.comments import apply_writes, article_writes
from store.comments import refresh_article as derive_article
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
    "post_author",
    "published",
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
    """What the extraction jobs read and write besides batches (store.batches) and profiles (store.profiles)."""

    def refresh_article(self, article: str) -> None:
        """Re-derive the article's post and comments from its extractions and comment reads (store.comments)."""
        with self.transaction() as db:
            derive_article(db, article)

    def write_extractions(self, rows: Sequence[Sequence[Any]], force: bool = False, *, derive: bool = True) -> None:
        """Upsert extraction rows and re-derive their articles' posts and comments (inside a transaction).
        `derive=False`: the caller derives them later (refresh_articles), once for all its writes."""
        sql = _UPSERT if force else _UPSERT + _ONLY_BETTER
        for row in rows:
            self.db.execute(sql, list(row))
        if derive:
            for article in dict.fromkeys(row[1] for row in rows):
                derive_article(self.db, article)

    def refresh_articles(self, articles: Sequence[str], *, sole_writer: bool = False) -> None:
        """refresh_article of each (a derivation is a function of the article's stored extractions and
        reads: deriving once after many writes gives the rows of each write's).

        The rows are derived outside the store's write lock (SQLite has one for the whole store,
        which parallel re-extraction workers share) and only the changes are written, in one
        transaction. `sole_writer`: no one else writes these articles meanwhile (a re-extraction
        holds the crawl lock and gives each site to one task), so the changes found are written as
        they are; otherwise the articles found changed are derived again under the lock (an article
        whose rows were already right is left alone: whoever writes its inputs derives it)."""
        found = [writes for writes in (article_writes(self.db, article) for article in articles) if writes]
        if not found:
            return
        with self.transaction() as db:
            for writes in found:
                apply_writes(db, writes if sole_writer else article_writes(db, writes.article))

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
