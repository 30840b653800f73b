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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from store.sql import Params

# Taken at the start of every write transaction: one writer at a time, as SQLite's BEGIN IMMEDIATE,
# so read-then-write sequences behave the same on both backends.
WRITE_LOCK_KEY = 0x626C6F67  # "blog"

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
    ) -> None:
        self.url = url
        self.read_only = read_only
        # A worker stopped inside a transaction (SIGSTOP, a machine cut off) would hold the write
        # lock that every worker's writes take (WRITE_LOCK_KEY) forever: the server ends such a
        # session after this long, and the others go on.
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
        self.pool = ConnectionPool(url, min_size=1, max_size=max_size, timeout=timeout, kwargs=kwargs, open=False)
        self.pool.open(wait=True, timeout=timeout)
        self._local = threading.local()

    def close(self) -> None:
        self.pool.close()

    @property
    def in_transaction(self) -> bool:
        return getattr(self._local, "conn", None) is not None

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        held = getattr(self._local, "conn", None)
        if held is not None:
            yield held
            return
        with self.pool.connection() as conn:
            yield conn

    @contextmanager
    def transaction(self, *, lock: bool = True) -> Iterator[PgDatabase]:
        """One transaction on one connection (nested calls join the outer one); `lock` takes the
        store's write lock first (WRITE_LOCK_KEY), as SQLite's BEGIN IMMEDIATE does."""
        if self.in_transaction:
            yield self
            return
        with self.pool.connection() as conn, conn.transaction():
            self._local.conn = conn
            try:
                if lock and not self.read_only:
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", [WRITE_LOCK_KEY])
                yield self
            finally:
                self._local.conn = None

    def execute(self, sql: str, parameters: Params | None = None) -> BufferedCursor:
        with self._connection() as conn:
            cur = conn.execute(to_postgres(sql), _params(parameters))  # type: ignore[arg-type]
            rows = cur.fetchall() if cur.description else []
            return BufferedCursor(rows, cur.rowcount)

    def query(self, sql: str, params: Params | None = None) -> Iterator[dict[str, Any]]:
        with self._connection() as conn:
            cur = psycopg.ClientCursor(conn, row_factory=dict_row)
            cur.execute(to_postgres(sql), _params(params))  # type: ignore[arg-type]
            rows = cur.fetchall() if cur.description else []
        return iter(rows)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        with self._connection() as conn:
            cur = conn.cursor()
            cur.executemany(to_postgres(sql), [list(r) for r in rows])  # type: ignore[arg-type]
            return max(cur.rowcount, 0)

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


def _params(params: Params | None) -> Sequence[Any] | dict[str, Any]:
    if params is None:
        return ()
    if isinstance(params, dict):
        return params
    return list(params)
