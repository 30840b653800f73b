"""PostgreSQL connections for the store: SQLite-dialect statements translated, over a psycopg pool.

to_postgres("INSERT OR IGNORE INTO t (a) VALUES (?)") == "INSERT INTO t (a) VALUES (%s) ON CONFLICT DO NOTHING"

The store's statements are written once (store.sql); the differences that matter are mechanical
and translated here: placeholders (`?`, `:name`), `[quoted]` names, `INSERT OR IGNORE`, `IS [NOT]`
with a parameter (SQLite's null-safe comparison), and `%` in literals. A connection is taken from
the pool per statement, or held for a whole transaction (`PgDatabase.transaction`).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, TypeVar

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from store.sql import Params

T = TypeVar("T")

# The store-wide lock: only schema changes take it (PgDatabase.transaction(store_wide=True)); the
# write path locks rows, and per site (SITE_LOCK_CLASS), so a paused worker holds only its own sites.
WRITE_LOCK_KEY = 0x626C6F67  # "blog"
# The first key of a site's transaction lock; the second is the hash of the site's name.
SITE_LOCK_CLASS = 0x73697465  # "site"

_TOKENS = re.compile(
    r"""
    (?P<literal>'(?:[^']|'')*')
  | (?P<bracket>\[(?P<name>[^\]]+)\])
  | (?P<is_param>\bIS\s+(?P<not>NOT\s+)?(?P<target>\?|(?<!:):\w+))
  | (?P<qmark>\?)
  | (?P<named>(?<!:):(?P<pname>[A-Za-z_]\w*))
  | (?P<percent>%)
  | (?P<ignore>\bINSERT\s+OR\s+IGNORE\b)
    """,
    re.VERBOSE | re.IGNORECASE,
)


def _param(token: str) -> str:
    return "%s" if token == "?" else f"%({token[1:]})s"


@lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """The statement in PostgreSQL's dialect with psycopg's placeholders."""
    ignore = False

    def replace(m: re.Match[str]) -> str:
        nonlocal ignore
        kind = m.lastgroup
        if m.group("literal"):
            return m.group("literal").replace("%", "%%")
        if m.group("bracket"):
            return '"' + m.group("name") + '"'
        if m.group("is_param"):
            op = "IS DISTINCT FROM" if m.group("not") else "IS NOT DISTINCT FROM"
            return f"{op} {_param(m.group('target'))}"
        if kind == "qmark":
            return "%s"
        if m.group("named"):
            return f"%({m.group('pname')})s"
        if kind == "percent":
            return "%%"
        ignore = True
        return "INSERT"

    out = _TOKENS.sub(replace, sql)
    if ignore:
        head, sep, tail = out.partition(" RETURNING ")
        out = f"{head} ON CONFLICT DO NOTHING{sep}{tail}"
    return out


class BufferedCursor:
    """A statement's result read whole, so its connection can go back to the pool at once."""

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = rows
        self._at = 0
        self.rowcount = rowcount

    def fetchone(self) -> Any:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[Any]:
        rest, self._at = self._rows[self._at :], len(self._rows)
        return rest

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


# Seconds a session may sit idle inside a transaction before the server ends it (see PgDatabase).
# Write transactions run their statements back to back; the extraction jobs compute before theirs.
IDLE_IN_TRANSACTION_S = 60
# A lost connection (a server restart, a network cut) is retried this long, with back-off, before
# the error reaches the caller; a restart takes seconds.
RECONNECT_FOR_S = 120.0
RECONNECT_FIRST_S = 0.25
RECONNECT_MAX_S = 5.0


def is_connection_lost(exc: BaseException) -> bool:
    """True for the errors a reconnect cures: the server went away, restarts or refuses connections
    for now (not a bad statement, a constraint or a full disk)."""
    if isinstance(exc, psycopg.errors.AdminShutdown | psycopg.errors.CannotConnectNow | psycopg.errors.CrashShutdown):
        return True
    if isinstance(exc, PoolTimeout):
        return True
    # An OperationalError without SQLSTATE comes from the client side: the socket closed or the
    # server is not reachable.
    return isinstance(exc, psycopg.OperationalError) and getattr(exc, "sqlstate", None) is None


def retry_lost_connection(fn: Callable[[], T], *, patience: float = RECONNECT_FOR_S) -> T:
    """fn() again with back-off while the connection is lost (is_connection_lost), up to `patience`
    seconds; then the last error. `fn` must be safe to run again: a whole transaction or one statement."""
    deadline = time.monotonic() + patience
    pause = RECONNECT_FIRST_S
    while True:
        try:
            return fn()
        except psycopg.Error as exc:
            if not is_connection_lost(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, RECONNECT_MAX_S)


class PgDatabase:
    """The `store.sql.Database` interface over a psycopg connection pool.

    Outside a transaction each statement runs on a pooled connection in autocommit; inside
    `transaction()` the calling thread holds one connection until COMMIT or ROLLBACK.
    """

    dialect = "postgresql"

    def __init__(
        self,
        url: str,
        *,
        read_only: bool = False,
        max_size: int = 4,
        timeout: float = 60.0,
        application_name: str = "blog-harvester",
        on_new_connection: Callable[[], None] | None = None,
    ) -> None:
        self.url = url
        self.read_only = read_only
        # Called before the first write on each new connection (a reconnect after a restart
        # included); what it raises, the write raises. The store confirms the crawl lock there.
        # Reads go on without it: they change nothing, and a crawl stopping reads as it closes.
        self.on_new_connection = on_new_connection
        self._connections = 0  # connections the pool has made
        self._confirmed = 0  # ... of which on_new_connection has seen this many
        # A worker stopped inside a transaction (SIGSTOP, a machine cut off) holds the row and site
        # locks it took (its own sites' only): the server ends such a session after this long.
        options = f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_S * 1000}"
        if read_only:
            options += " -c default_transaction_read_only=on"
        kwargs = {
            "autocommit": True,
            "options": options,
            "connect_timeout": max(1, int(timeout)),
            "application_name": application_name,
            # Client-side binding: parameters as typed literals, so `? IS NULL` and `CASE WHEN ?`
            # need no casts (server-side binding cannot infer a type for a bare NULL parameter).
            "cursor_factory": psycopg.ClientCursor,
        }
        # check: a pooled connection the server closed (a restart) is replaced before it is handed out.
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            timeout=timeout,
            kwargs=kwargs,
            open=False,
            check=ConnectionPool.check_connection,
            configure=self._made,
        )
        self.pool.open(wait=True, timeout=timeout)
        self._local = threading.local()

    def close(self) -> None:
        self.pool.close()

    def _made(self, conn: psycopg.Connection[Any]) -> None:
        self._connections += 1  # the pool's own thread: the statement's thread calls the callback

    def _confirm(self) -> None:
        """Before a write: on_new_connection once after the pool made connections; again until it succeeds."""
        made = self._connections
        if self.on_new_connection is not None and made != self._confirmed:
            self.on_new_connection()
            self._confirmed = made

    @property
    def in_transaction(self) -> bool:
        return getattr(self._local, "conn", None) is not None

    @contextmanager
    def transaction(self, *, lock: bool = True, store_wide: bool = False) -> Iterator[PgDatabase]:
        """One transaction on one connection (nested calls join the outer one).

        Writers do not exclude each other: rows are locked as they are written, and a read-then-write
        of a site's state takes the site's lock first (`lock_sites`). `lock` is SQLite's choice
        (BEGIN IMMEDIATE) and changes nothing here; `store_wide` takes the store-wide lock
        (WRITE_LOCK_KEY), for schema changes only. The pool hands out a live connection (it reconnects
        after a restart); one lost inside the transaction raises: only the caller can run it again.
        """
        if self.in_transaction:
            yield self
            return
        with self.pool.connection() as conn:
            self._confirm()
            with conn.transaction():
                self._local.conn = conn
                try:
                    if store_wide and not self.read_only:
                        conn.execute("SELECT pg_advisory_xact_lock(%s)", [WRITE_LOCK_KEY])
                    yield self
                finally:
                    self._local.conn = None

    def lock_sites(self, sites: Iterable[str], *, wait: bool = True) -> list[str]:
        """Take the transaction-level lock of each site (sorted: two transactions never wait on each
        other in a circle), held until COMMIT; the sites locked. wait=False skips a site another
        session holds (a live worker writing it) instead of waiting. Outside a transaction: no-op."""
        wanted = sorted(set(sites))
        if not self.in_transaction or self.read_only:
            return wanted
        if wait:
            for site in wanted:
                self.execute("SELECT pg_advisory_xact_lock(?, hashtext(?))", [SITE_LOCK_CLASS, site])
            return wanted
        return [
            site
            for site in wanted
            if self.execute("SELECT pg_try_advisory_xact_lock(?, hashtext(?))", [SITE_LOCK_CLASS, site]).fetchone()[0]
        ]

    def _run(self, statement: Callable[[psycopg.Connection[Any]], T], *, write: bool = True) -> T:
        """`statement` on the transaction's connection, else on a pooled one (autocommit), retried on
        a fresh connection while the server is away."""
        held = getattr(self._local, "conn", None)
        if held is not None:
            return statement(held)

        def once() -> T:
            with self.pool.connection() as conn:
                if write:
                    self._confirm()
                return statement(conn)

        return retry_lost_connection(once)

    def execute(self, sql: str, parameters: Params | None = None) -> BufferedCursor:
        def run(conn: psycopg.Connection[Any]) -> BufferedCursor:
            cur = conn.execute(to_postgres(sql), _params(parameters))  # type: ignore[arg-type]
            rows = cur.fetchall() if cur.description else []
            return BufferedCursor(rows, cur.rowcount)

        return self._run(run, write=not _is_read(sql))

    def query(self, sql: str, params: Params | None = None) -> Iterator[dict[str, Any]]:
        def run(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
            cur = psycopg.ClientCursor(conn, row_factory=dict_row)
            cur.execute(to_postgres(sql), _params(params))  # type: ignore[arg-type]
            return cur.fetchall() if cur.description else []

        return iter(self._run(run, write=not _is_read(sql)))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        def run(conn: psycopg.Connection[Any]) -> int:
            cur = conn.cursor()
            cur.executemany(to_postgres(sql), [list(r) for r in rows])  # type: ignore[arg-type]
            return max(cur.rowcount, 0)

        return self._run(run)

    def insert_row(self, table: str, row: dict[str, Any]) -> None:
        cols = list(row)
        self.execute(
            f"INSERT INTO [{table}] ({', '.join(f'[{c}]' for c in cols)}) VALUES ({', '.join('?' for _ in cols)})",
            [row[c] for c in cols],
        )

    def has_table(self, name: str) -> bool:
        row = self.execute("SELECT to_regclass(?) IS NOT NULL", [f'"{name}"']).fetchone()
        return bool(row[0])

    def columns(self, table: str) -> set[str]:
        rows = self.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = ?",
            [table],
        ).fetchall()
        return {r[0] for r in rows}

    def indexes(self) -> set[str]:
        rows = self.execute("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()").fetchall()
        return {r[0] for r in rows}


def _is_read(sql: str) -> bool:
    """A SELECT changes no row (the store's statements call no function that writes)."""
    return sql.lstrip()[:6].upper() == "SELECT"


def _params(params: Params | None) -> Sequence[Any] | dict[str, Any]:
    if params is None:
        return ()
    if isinstance(params, dict):
        return params
    return list(params)
