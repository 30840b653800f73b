"""The `runs` table: one row per crawl run, and runs whose crawl died closed as `crashed`.

Mixed into `store.sqlite.Store`; kept apart only to keep modules small.
Store("blogs.db").start_run(now=time.time(), feeds_file="feeds.txt", watch=False)
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
from pathlib import Path
from typing import Any

from store.clock import to_iso
from store.crawlstate import StoreBase
from store.lockfile import other_lock_holder


class RunBook(StoreBase):
    """Start and end of crawl runs in `runs`."""

    path: Path

    def start_run(self, *, now: float, feeds_file: str, watch: bool) -> int:
        """Record a crawl run; earlier runs still running whose crawl is gone become `crashed`.

        A live crawl holds the store's crawl lock to its end (a lock file beside a SQLite store,
        a session advisory lock in a PostgreSQL one), and the kernel or the server frees it when
        the process dies, even on kill -9: a run is dead unless its process (host and pid) holds
        the lock.
        """
        alive = self.live_crawlers()
        here = socket.gethostname()
        stamp = to_iso(now)
        with self.transaction() as db:
            if alive is not None:  # None: held by a process that cannot be told, so nothing is declared dead
                running = db.execute("SELECT id, host, pid FROM runs WHERE finished_at IS NULL ORDER BY id").fetchall()
                dead = [r[0] for r in running if (r[1] or here, r[2]) not in alive]
                for run_id in dead:
                    db.execute(
                        "UPDATE runs SET finished_at = :now, reason = 'crashed', summary = 'crashed: process '"
                        " || COALESCE(CAST(pid AS TEXT), '?')"
                        " || ' ended without finishing the run (found by the run started '"
                        " || :now || ')' WHERE id = :id",
                        {"now": stamp, "id": run_id},
                    )
            row = db.execute(
                "INSERT INTO runs (started_at, pid, host, feeds_file, watch) VALUES (?, ?, ?, ?, ?) RETURNING id",
                [stamp, os.getpid(), here, feeds_file, int(watch)],
            ).fetchone()
        return int(row[0])

    def live_crawlers(self) -> set[tuple[str, int]] | None:
        """(host, pid) of the other processes holding the store's crawl lock (empty: none, so every
        run still marked running is dead; None: held by a process that cannot be told)."""
        pid = other_lock_holder(Path(f"{self.path}.lock"))
        if pid is None:
            return set()
        return None if pid == -1 else {(socket.gethostname(), pid)}

    def finish_run(self, run_id: int, *, now: float, reason: str, summary: str, stats: dict[str, Any]) -> None:
        """Record the run's end: Scrapy's close reason, the one-line summary and the stats as JSON."""
        with self.transaction() as db:
            db.execute(
                "UPDATE runs SET finished_at = ?, reason = ?, summary = ?, stats = ? WHERE id = ?",
                [to_iso(now), reason, summary, json.dumps(stats, default=str, sort_keys=True), run_id],
            )

    def comment_versions_count(self) -> int:
        """Earlier comment texts kept so far (the run's edits are the difference from its start)."""
        return self._count("SELECT COUNT(*) FROM comment_versions")

    def comments_since(self, since: str) -> tuple[int, int]:
        """Comments first seen, and comments marked gone, at or after the ISO time `since`."""
        new = self._count("SELECT COUNT(*) FROM comments WHERE first_seen >= ?", [since])
        return new, self._count("SELECT COUNT(*) FROM comments WHERE gone_at >= ?", [since])

    def _count(self, sql: str, params: list[Any] | None = None) -> int:
        """One count; 0 when the table does not exist (yet)."""
        try:
            row = self.db.execute(sql, params or []).fetchone()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return 0
            raise
        return int(row[0] or 0) if row else 0
