"""Crawls of a PostgreSQL store: a session-level advisory lock, the counterpart of the lock file.

with PgRunLock("postgresql://u@h/blogs", shared=True) as lock: assert lock.acquired

Crawler workers hold it shared (many at once, store.leases divides the sites); `reextract` and
`copy` hold it exclusive, so they never run beside a crawl.
The lock lives as long as the connection that took it: PostgreSQL frees it when the process dies
(kill -9 included) because the connection closes. The connection's application_name carries the
holder's host and pid, so a refused crawl can say who holds it, and `store.runs` can tell a live
run from a crashed one.

A server restart ends that session too, and the lock with it, while the crawl's store reconnects
and writes on. So before the first write on each new store connection a process holding the lock
confirms it (`confirm_run_lock`, the PostgreSQL store's reconnect guard): its session is still
there, or a new one takes the lock again; when another run took it meanwhile (a `reextract` started during the
restart) the store raises RunLockLost and the crawl stops writing. A crawl's extraction processes
follow the crawl's lock (`follow_crawl_lock`): they write only while that crawl holds it.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from typing import Any

import psycopg

from store.pgsql import RECONNECT_FIRST_S, RECONNECT_FOR_S, RECONNECT_MAX_S, retry_lost_connection, to_postgres
from store.storefile import StoreError, first_line

RUN_LOCK_KEY = 0x62686372  # "bhcr": the crawl's session lock (WRITE_LOCK_KEY is the per-transaction one)
_HOLDER_PREFIX = "blog-harvester crawl"

# Locks held by this process: url -> lock (a second acquire in the same process succeeds, as flock's)
_HELD: dict[str, PgRunLock] = {}
# The pid of the crawl whose lock this process (one of its extraction processes) writes under, if any.
_FOLLOWED: list[int] = []


class RunLockLost(StoreError):
    """The crawl lock went with a lost connection and another run holds it now: no more writes."""


def lost_to(holder: str) -> str:
    """Why nothing more is written: the lock's session ended and `holder` took the lock."""
    return f"the crawl lock was lost with the connection to the server and {holder} holds it now"


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
        self._confirming = threading.Lock()  # the store's threads reconnect at once after a restart
        self._lost = ""  # why the lock is lost for good (another run took it): every write refused

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
            conn, taken = self._take()
        except psycopg.OperationalError as exc:
            raise OSError(first_line(exc)) from None
        if not taken:
            return False
        self._conn = conn
        _HELD[self.url] = self
        return True

    def confirm(self) -> None:
        """The lock is still held: its session answers, or (the session lost, e.g. the server restarted)
        a new session takes it again, retried with back-off while the server is away. RunLockLost
        when another run holds it now (then every later call too: nothing may be written any more)."""
        with self._confirming:
            if self._conn is None or self._lost:
                if self._lost:
                    raise RunLockLost(self._lost)
                return
            try:
                self._conn.execute("SELECT 1")
                return
            except psycopg.OperationalError:
                self._conn.close()  # the session is gone, and the lock with it
            self._conn = None
            conn, taken = retry_lost_connection(self._take)
            if not taken:
                self._lost = lost_to(self.holder())
                raise RunLockLost(self._lost)
            self._conn = conn

    def _take(self) -> tuple[psycopg.Connection[Any] | None, bool]:
        """A new session trying the lock: (the connection holding it, True), or (None, False) when held."""
        name = holder_name() if self.purpose == "crawl" else f"blog-harvester {self.purpose} pid {os.getpid()}"
        conn = psycopg.connect(self.url, autocommit=True, application_name=name, connect_timeout=30)
        take = "pg_try_advisory_lock_shared" if self.shared else "pg_try_advisory_lock"
        taken = conn.execute(f"SELECT {take}(%s)", [RUN_LOCK_KEY]).fetchone()
        if not taken or not taken[0]:
            conn.close()
            return None, False
        return conn, True

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


def follow_crawl_lock(crawl_pid: int) -> None:
    """This process writes for the crawl `crawl_pid` (an extraction process it started): its store
    connections confirm that crawl's lock (`confirm_run_lock`)."""
    _FOLLOWED[:] = [crawl_pid]


def confirm_run_lock(url: str) -> None:
    """Before the first write on a new connection to the store at `url`: the lock this process holds
    (a crawl's, reextract's or copy's), or the crawl it writes for holds, is still held; RunLockLost
    when another run took it meanwhile. Nothing to confirm in a process that holds none (a query).

    A followed crawl that has not taken its lock again yet (it reconnects too) is waited for, with
    back-off, as long as a lost connection is retried."""
    held = _HELD.get(url)
    if held is not None:
        held.confirm()
        return
    if not _FOLLOWED:
        return
    crawl = (socket.gethostname(), _FOLLOWED[0])
    deadline = time.monotonic() + RECONNECT_FOR_S
    pause = RECONNECT_FIRST_S
    while True:
        with psycopg.connect(url, autocommit=True, connect_timeout=30) as conn:
            names = [r[0] for r in conn.execute(to_postgres(HOLDERS_SQL), [RUN_LOCK_KEY]).fetchall()]
        holders = [holder_of(n) for n in names]
        if crawl in holders:
            return
        if names and not any(holders):  # reextract or copy: only they hold it alone
            raise RunLockLost(lost_to(names[0]))
        if time.monotonic() + pause > deadline:
            raise RunLockLost(f"the crawl (pid {crawl[1]}) does not hold the crawl lock any more")
        time.sleep(pause)
        pause = min(pause * 2, RECONNECT_MAX_S)
