"""Copy a whole store into another, on either backend: how a SQLite store moves to PostgreSQL.

copy_store(open_store("blogs.db", read_only=True), open_store("postgresql://u@h/blogs"))

Every table is copied in foreign-key order, in pages of rows, keeping every key (snapshot ids
included, so extractions and batches still point at their pages); PostgreSQL's id sequences
are then moved past the copied ids. Rows already in the target are kept (idempotent on the
natural keys), so an interrupted copy can simply be run again; a target holding another store's
pages is refused (two stores' keys collide: copying moves a store, it never merges two). The full-text indexes follow by
themselves (SQLite's triggers, PostgreSQL's trigram indexes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from store.base import StoreBackend
from store.postgres import redact
from store.schema import TABLES
from store.sql import Database
from store.storefile import StoreError

PAGE_ROWS = 500


@dataclass
class CopyReport:
    """Rows read from the source and rows new in the target, per table."""

    read: dict[str, int] = field(default_factory=dict)
    written: dict[str, int] = field(default_factory=dict)


def table_order() -> list[str]:
    """Tables with every table they reference before them: table_order()[0] == "sites"."""
    order: list[str] = []

    def visit(name: str) -> None:
        if name in order:
            return
        for _col, other, _other_col in TABLES[name][2]:
            if other != name:
                visit(other)
        order.append(name)

    for name in TABLES:
        visit(name)
    return order


def _keys(name: str) -> list[str]:
    pk = TABLES[name][1]
    return [pk] if isinstance(pk, str) else list(pk)


def _pages(db: Database, name: str, columns: list[str]) -> Iterator[list[dict[str, Any]]]:
    """The table's rows in key order, PAGE_ROWS at a time (keyset pagination: no OFFSET scans)."""
    keys = _keys(name)
    cols = ", ".join(f"[{c}]" for c in columns)
    order = ", ".join(f"[{k}]" for k in keys)
    after: list[Any] | None = None
    while True:
        where = ""
        if after is not None:
            where = f"WHERE ({order}) > ({', '.join('?' for _ in keys)})"
        rows = list(
            db.query(f"SELECT {cols} FROM [{name}] {where} ORDER BY {order} LIMIT ?", [*(after or []), PAGE_ROWS])
        )
        if not rows:
            return
        yield rows
        after = [rows[-1][k] for k in keys]


def copy_store(
    source: StoreBackend, target: StoreBackend, progress: Callable[[str, int], None] | None = None
) -> CopyReport:
    """Copy every row of `source` into `target` (both open; the target read-write, schema current).

    StoreError when the target already holds pages that are not the source's (another store's:
    keys would collide, and copying never merges two stores)."""
    refuse_foreign_target(source, target)
    report = CopyReport()
    for name in table_order():
        columns = list(TABLES[name][0])
        keys = ", ".join(f"[{k}]" for k in _keys(name))
        sql = (
            f"INSERT INTO [{name}] ({', '.join(f'[{c}]' for c in columns)})"
            f" VALUES ({', '.join('?' for _ in columns)}) ON CONFLICT ({keys}) DO NOTHING"
        )
        read = written = 0
        for rows in _pages(source.db, name, columns):
            with target.transaction() as db:
                written += db.executemany(sql, [[_value(row[c]) for c in columns] for row in rows])
            read += len(rows)
            if progress:
                progress(name, read)
        report.read[name], report.written[name] = read, written
    if target.db.dialect == "postgresql":
        with target.transaction() as db:
            for name, declared in TABLES.items():
                if declared[1] == "id":  # identity columns: the next id follows the copied ones
                    db.execute(
                        f"SELECT setval(pg_get_serial_sequence('{name}', 'id'),"
                        f" (SELECT COALESCE(MAX(id), 0) + 1 FROM [{name}]), false)"
                    )
    return report


def refuse_foreign_target(source: StoreBackend, target: StoreBackend) -> None:
    """StoreError unless every snapshot of `target` is the source's snapshot with the same id
    (an empty target, or one an interrupted copy of this source left)."""
    for rows in _pages(target.db, "snapshots", ["id", "article", "fetched_at"]):
        ids = [row["id"] for row in rows]
        marks = ", ".join("?" for _ in ids)
        theirs = {
            row["id"]: (row["article"], row["fetched_at"])
            for row in source.db.query(f"SELECT id, article, fetched_at FROM snapshots WHERE id IN ({marks})", ids)
        }
        if any(theirs.get(row["id"]) != (row["article"], row["fetched_at"]) for row in rows):
            raise StoreError(
                f"{redact(target.location)}: holds pages of another store;"
                " copy into an empty database (copying never merges stores)"
            )


def _value(value: Any) -> Any:
    return bytes(value) if isinstance(value, memoryview) else value
