"""Ordered schema migrations, each applied once and recorded in `schema_migrations`.

with store.transaction() as db: migrate(db, now=time.time())   # what Store does when it opens

Additive changes (a new table, column, index or full-text table) need no migration: the declared
schema (store.schema) is applied first, creating whatever is missing, as every release has done.
A change the declared schema cannot express (moving data, rewriting values, dropping a column) is a
new `Migration` appended to MIGRATIONS with the next version: never edited once released, run in
version order inside the opening transaction, so a failure leaves the store as it was.

Version 1 is the baseline: the schema every earlier release wrote, brought up to date additively.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from store.clock import to_iso
from store.sql import Database


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    apply: Callable[[Database], None]


def _baseline(db: Database) -> None:
    """Nothing to move: releases before migrations only added tables and columns."""


MIGRATIONS: tuple[Migration, ...] = (Migration(1, "baseline: the declared schema of the first releases", _baseline),)
SCHEMA_VERSION = MIGRATIONS[-1].version


def applied_version(db: Database) -> int:
    """The highest migration recorded in the store (0 before any, or without the table)."""
    if not db.has_table("schema_migrations"):
        return 0
    return int(db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()[0])


def migrate(db: Database, now: float, migrations: Sequence[Migration] = MIGRATIONS) -> list[int]:
    """Apply the migrations newer than the store's version, in order; returns their versions.
    Call inside a write transaction, after the declared schema is applied."""
    versions = [m.version for m in migrations]
    if versions != sorted(set(versions)):
        raise ValueError(f"migration versions must increase: {versions}")
    done = applied_version(db)
    applied = []
    for migration in migrations:
        if migration.version <= done:
            continue
        migration.apply(db)
        db.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
            [migration.version, migration.name, to_iso(now)],
        )
        applied.append(migration.version)
    return applied
