"""The connection interface every SQL statement of the store goes through, on either backend.

db.query("SELECT name FROM sites WHERE name = ?", ["demo"])   # an iterator of dicts, on both backends

Statements are written once, in SQLite's dialect with `?` and `:name` parameters; the PostgreSQL
connection (store.pgsql) translates them. `Database` is what the store's parts hold as `self.db`
(never a caller outside store/); `SqliteDatabase` is sqlite-utils' Database with the few additions
the interface needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol

import sqlite_utils

Params = Sequence[Any] | dict[str, Any]


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Database(Protocol):
    """One connection to a store, in SQLite's SQL dialect whatever the backend."""

    dialect: str  # "sqlite" | "postgresql"

    def execute(self, sql: str, parameters: Params | None = None) -> Cursor: ...

    def query(self, sql: str, params: Params | None = None) -> Iterator[dict[str, Any]]: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        """Run `sql` once per row; returns the rows changed in all."""
        ...

    def insert_row(self, table: str, row: dict[str, Any]) -> None: ...

    def has_table(self, name: str) -> bool: ...

    def transaction(self, *, lock: bool = True) -> AbstractContextManager[Any]:
        """One write transaction, the store's write lock taken first (nested calls join the outer
        one). lock=False: PostgreSQL rows are locked one by one instead (SQLite always locks)."""
        ...

    def lock_sites(self, sites: Iterable[str], *, wait: bool = True) -> list[str]:
        """Inside a transaction: take these sites' write locks (a read-then-write of a site's state
        needs it on PostgreSQL, where writers run side by side; SQLite's writer is alone anyway);
        the sites locked (wait=False: those no other session holds)."""
        ...

    def close(self) -> None: ...


class SqliteDatabase(sqlite_utils.Database):
    """sqlite-utils' Database plus the `Database` interface's additions."""

    dialect = "sqlite"

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        return int(self.conn.executemany(sql, rows).rowcount)

    def insert_row(self, table: str, row: dict[str, Any]) -> None:
        cols = list(row)
        self.conn.execute(
            f"INSERT INTO [{table}] ({', '.join(f'[{c}]' for c in cols)}) VALUES ({', '.join('?' for _ in cols)})",
            [row[c] for c in cols],
        )

    def has_table(self, name: str) -> bool:
        return bool(self.table(name).exists())

    def lock_sites(self, sites: Iterable[str], *, wait: bool = True) -> list[str]:
        """Nothing to take: BEGIN IMMEDIATE already made this the only writer."""
        return sorted(set(sites))

    @contextmanager
    def transaction(self, *, lock: bool = True) -> Iterator[SqliteDatabase]:
        """BEGIN IMMEDIATE … COMMIT: takes the write lock up front, so read-then-write cannot deadlock."""
        conn = self.conn
        if conn.in_transaction:
            with self.atomic():
                yield self
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield self
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
