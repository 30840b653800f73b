"""The `reextractions` table and the page selections of `scrapy reextract --dask` (jobs.reextract_dask).

plan = store.begin_reextraction("all", started=to_iso(time.time()), since=None, sites=store.snapshot_sites())
store.finish_reextraction_site("all", "gen1", pages=120, now=time.time())   # what the site's task writes when done

A run writes one row per site it will re-extract, each task marks its site done, and a run
started again with the same filters (`scope`) while a row is still open resumes: the sites
already done are skipped. When every row is done the run is complete, and the next one with
that scope starts afresh.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from store.clock import to_iso
from store.crawlstate import StoreBase


@dataclass(frozen=True)
class Plan:
    """What a re-extraction run does: its start (the first attempt's, when resumed), its --since, the sites."""

    started: str
    since: str | None
    todo: list[str] = field(default_factory=list)
    done: list[str] = field(default_factory=list)  # finished before the run was stopped

    @property
    def resumed(self) -> bool:
        return bool(self.done)


class ReextractionBook(StoreBase):
    """The `reextractions` table: which sites a re-extraction run did, so a stopped run resumes."""

    def begin_reextraction(self, scope: str, *, started: str, since: str | None, sites: Sequence[str]) -> Plan:
        """Start a run over `sites`, or resume the unfinished one of this scope (`started` and `since`
        are then that run's: see `unfinished_reextraction`). Sites new since the first attempt join it."""
        with self.transaction() as db:
            if self.unfinished_reextraction(scope) is None:
                db.execute("DELETE FROM reextractions WHERE scope = ?", [scope])
            done = {
                r["site"]
                for r in db.query("SELECT site FROM reextractions WHERE scope = ? AND done_at IS NOT NULL", [scope])
            }
            db.executemany(
                "INSERT INTO reextractions (scope, site, started_at, since) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (scope, site) DO NOTHING",
                [[scope, site, started, since] for site in sites],
            )
        return Plan(started, since, [s for s in sites if s not in done], [s for s in sites if s in done])

    def finish_reextraction_site(self, scope: str, site: str, *, pages: int, now: float) -> None:
        """Record that the site's task wrote all its pages (a resumed run skips it)."""
        with self.transaction() as db:
            db.execute(
                "UPDATE reextractions SET done_at = ?, pages = ? WHERE scope = ? AND site = ?",
                [to_iso(now), pages, scope, site],
            )

    def unfinished_reextraction(self, scope: str) -> tuple[str, str | None] | None:
        """(started_at, since) of the run with this scope that was stopped before every site was done."""
        db = self.db
        row = db.execute(
            "SELECT started_at, since FROM reextractions WHERE scope = ? AND done_at IS NULL LIMIT 1", [scope]
        ).fetchone()
        return (row[0], row[1]) if row else None

    def page_counts(self, since: str | None = None) -> dict[str, int]:
        """Stored pages per site (fetched at or after `since` when given): which sites to re-extract,
        and the order that keeps a cluster's workers busy (largest first)."""
        db = self.db
        rows = db.execute(
            "SELECT site, COUNT(*) FROM snapshots WHERE fetched_at >= ? GROUP BY site ORDER BY site", [since or ""]
        )
        return {r[0]: int(r[1]) for r in rows}

    def snapshots_since(self, site: str, since: str) -> set[int]:
        """Ids of the site's pages fetched at or after `since` (ISO text, as the store keeps times)."""
        db = self.db
        rows = db.execute("SELECT id FROM snapshots WHERE site = ? AND fetched_at >= ?", [site, since])
        return {int(r[0]) for r in rows}
