"""Crawls of a PostgreSQL store: a session-level advisory lock, the counterpart of the lock file.

with PgRunLock("postgresql://u@h/blogs", shared=True) as lock: assert lock.acquired

Crawler workers hold it shared (many at once, store.leases divides the sites); `reextract` and
`copy` hold it exclusive, so they never run beside a crawl.
The lock lives as long as the connection that took it: PostgreSQL frees it when the process dies
(kill -9 included) because the connection closes. The connection's application_name carries the
holder's host and pid, so a refused crawl can say who holds it, and `store.runs` can tell a live
run from a crashed one.
"""

from __future__ import annotations

import os
import re
import socket
from typing import Any

import psycopg

from store.pgsql import to_postgres
from store.storefile import first_line

RUN_LOCK_KEY = 0x62686372  # "bhcr": the crawl's session lock (WRITE_LOCK_KEY is the per-transaction one)
_HOLDER_PREFIX = "blog-harvester crawl"

# Locks held by this process: url -> lock (a second acquire in the same process succeeds, as flock's)
_HELD: dict[str, PgRunLock] = {}


def holder_name(pid: int | None = None) -> str:
    return f"{_HOLDER_PREFIX} {socket.gethostname()} pid {pid or os.getpid()}"


# The sessions holding the run lock, by their application_name (a bigint key below 2**32 shows
# as classid 0, objid KEY in pg_locks).
HOLDERS_SQL = (
    "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
    " WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = ?"
)


def lock_holders(db: Any) -> list[str]:
    """application_name of every session holding the run lock (store.sql.Database `db`)."""
    return [r[0] for r in db.execute(HOLDERS_SQL, [RUN_LOCK_KEY]).fetchall()]


def holder_of(name: str) -> tuple[str, int] | None:
    """(host, pid) of a holder name: holder_of(holder_name(7)) == (socket.gethostname(), 7); None
    for a session that is not a crawl's."""
    found = re.fullmatch(rf"{_HOLDER_PREFIX} (\S+) pid (\d+)", name)
    return (found.group(1), int(found.group(2))) if found else None


class PgRunLock:
    """Non-blocking crawl lock on the store at `url` (same interface as store.lockfile.RunLock).

    shared=True is a crawler worker's: any number of workers hold it together (they divide the
    sites with leases, store.leases); shared=False (reextract, copy) excludes every crawl.
    """

    def __init__(self, url: str, *, shared: bool = False, purpose: str = "crawl") -> None:
        self.url = url
        self.shared = shared
        self.purpose = purpose  # a reextract or copy names itself so that a refused crawl can say so
        self._conn: psycopg.Connection[Any] | None = None
        self._nested = False

    @property
    def acquired(self) -> bool:
        return self._conn is not None or self._nested

    def acquire(self) -> bool:
        """Take the lock if free; False at once if another session holds it. OSError when the
        server cannot be reached (the crawl reports it as a store it cannot open)."""
        if self.acquired:
            return True
        if self.url in _HELD:
            self._nested = True
            return True
        try:
            name = holder_name() if self.purpose == "crawl" else f"blog-harvester {self.purpose} pid {os.getpid()}"
            conn = psycopg.connect(self.url, autocommit=True, application_name=name, connect_timeout=30)
        except psycopg.OperationalError as exc:
            raise OSError(first_line(exc)) from None
        take = "pg_try_advisory_lock_shared" if self.shared else "pg_try_advisory_lock"
        taken = conn.execute(f"SELECT {take}(%s)", [RUN_LOCK_KEY]).fetchone()
        if not taken or not taken[0]:
            conn.close()
            return False
        self._conn = conn
        _HELD[self.url] = self
        return True

    def holder(self) -> str:
        """Who holds the lock (host and pid), for the error message."""
        try:
            with psycopg.connect(self.url, autocommit=True, connect_timeout=30) as conn:
                rows = conn.execute(to_postgres(HOLDERS_SQL), [RUN_LOCK_KEY]).fetchall()
        except psycopg.Error:
            return "unknown process"
        names = [r[0].removeprefix(_HOLDER_PREFIX).strip() for r in rows]
        return ", ".join(names) or "unknown process"

    def release(self) -> None:
        if self._nested:
            self._nested = False
            return
        if self._conn is None:
            return
        if _HELD.get(self.url) is self:
            del _HELD[self.url]
        try:
            self._conn.close()  # the session ends, and the lock with it
        finally:
            self._conn = None

    def __enter__(self) -> PgRunLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
