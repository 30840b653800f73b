"""The PostgreSQL store (store.base.StoreBackend): the same tables, statements and answers as SQLite.

PostgresStore("postgresql://harvester@db.example.org/blogs").due_feeds(feeds, now=time.time())

The schema is made from the same declaration as SQLite's (store.schema) with PostgreSQL types;
full-text search uses pg_trgm GIN indexes (substring search for English and Japanese alike, as
SQLite's trigram FTS5). Statements are the store's own, translated (store.pgsql). Writers run
side by side: rows are locked as they are written and a read-then-write of a site's state takes
that site's lock (store.sql.Database.lock_sites), so a paused worker holds only its own sites;
only schema changes take the store-wide lock. Read-only stores open their connections with
default_transaction_read_only.
"""

from __future__ import annotations

import functools
import os
import re
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import psycopg

from store.base import StoreBackend
from store.migrations import SCHEMA_VERSION, applied_version, migrate
from store.pglock import confirm_run_lock, holder_of, lock_holders
from store.pgsql import PgDatabase, retry_lost_connection
from store.schema import FTS, INDEXES, TABLES
from store.storefile import StoreError, first_line

F = TypeVar("F", bound=Callable[..., Any])
PG_TYPES = {str: "TEXT", int: "BIGINT", float: "DOUBLE PRECISION", bytes: "BYTEA"}
# Every connection says what it is (pg_stat_activity); the crawl's run lock adds its pid.
APPLICATION_NAME = "blog-harvester"
CONNECT_TIMEOUT_S = 60.0


def redact(url: str) -> str:
    """The URL without user or password, for messages: redact("postgresql://u:pw@h/db") == "postgresql://h/db".
    A file path is returned as it is."""
    return re.sub(r"^([A-Za-z]+://)[^@/]*@", r"\1", url)


def trigram_index(table: str, column: str) -> str:
    return f"idx_{table}_{column}_trgm"


class PostgresStore(StoreBackend):
    """A connection pool to a PostgreSQL store; creates or upgrades the schema when opened read-write.

    read_only=True never creates or changes anything: a database without the store's tables is
    refused with StoreError (one line), as is a server that cannot be reached.
    """

    db: PgDatabase

    def __init__(self, url: str, *, read_only: bool = False, create: bool = True) -> None:
        self.location = url
        self.shown = redact(url)  # in messages: no user or password
        self.path = Path(self.shown)  # no file: the interface's path, for messages only
        self.read_only = read_only
        try:
            # One direct attempt first: an unreachable server is reported at once, with its reason
            # (the pool would retry until its timeout and then say only that it timed out).
            psycopg.connect(url, connect_timeout=10, application_name=APPLICATION_NAME).close()
            self.db = PgDatabase(
                url,
                read_only=read_only,
                timeout=CONNECT_TIMEOUT_S,
                application_name=APPLICATION_NAME,
                # A crawl writes only under its lock, which a server restart ends: taken again first.
                on_new_connection=None if read_only else functools.partial(confirm_run_lock, url),
            )
        except (psycopg.Error, OSError) as exc:  # psycopg_pool's PoolTimeout is an OperationalError
            raise StoreError(f"{redact(url)}: cannot connect: {first_line(exc)}") from None
        try:
            self._open(create)
        except BaseException:
            self.db.close()
            raise

    def _open(self, create: bool) -> None:
        if self.schema_is_current():
            return
        self._refuse_newer()
        has_tables = self.db.has_table("snapshots")
        if self.read_only or (not create and not has_tables):
            what = "an older store: run a crawl or reextract to upgrade it" if has_tables else "not a store"
            raise StoreError(f"{self.shown}: {what}")
        self.ensure_schema()

    def close(self) -> None:
        self.db.close()

    def live_crawlers(self) -> set[tuple[str, int]] | None:
        """(host, pid) of the other crawls holding the run lock (store.pglock); None when a holder
        cannot be told (a session of another program holds the lock key)."""
        found: set[tuple[str, int]] = set()
        for name in lock_holders(self.db):
            holder = holder_of(name)
            if holder is None:
                return None
            if holder != (socket.gethostname(), os.getpid()):
                found.add(holder)
        return found

    def schema_is_current(self) -> bool:
        """True when every table, column and index exists and every migration is applied."""
        for name, (columns, *_rest) in TABLES.items():
            present = self.db.columns(name)
            if not present or not set(columns) <= present:
                return False
        indexes = self.db.indexes()
        wanted = {f"idx_{t}_{'_'.join(cols)}" for t, cols, _u in INDEXES}
        wanted |= {trigram_index(t, c) for t, cols in FTS.items() for c in cols}
        return wanted <= indexes and applied_version(self.db) == SCHEMA_VERSION

    def _refuse_newer(self) -> None:
        found = applied_version(self.db)
        if found > SCHEMA_VERSION:
            raise StoreError(
                f"{self.shown} was written by a newer blog-harvester (schema version {found},"
                f" this one knows {SCHEMA_VERSION}): upgrade the harvester"
            )

    def ensure_schema(self) -> None:
        """Create missing tables, columns and indexes, then apply pending migrations, in one transaction."""
        # Store-wide: workers started together must not create the same tables twice.
        with self.db.transaction(store_wide=True) as db:
            self._refuse_newer()
            db.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
            for name, (columns, pk, fks, defaults) in TABLES.items():
                present = db.columns(name)
                if not present:
                    db.execute(create_table_sql(name, columns, pk, fks, defaults))
                    continue
                for column, kind in columns.items():
                    if column not in present:
                        db.execute(f'ALTER TABLE "{name}" ADD COLUMN "{column}" {PG_TYPES[kind]}')
            for name, cols, unique in INDEXES:
                db.execute(
                    f"CREATE {'UNIQUE ' if unique else ''}INDEX IF NOT EXISTS idx_{name}_{'_'.join(cols)}"
                    f' ON "{name}" ({", ".join(cols)})'
                )
            for name, cols in FTS.items():
                for col in cols:
                    db.execute(
                        f'CREATE INDEX IF NOT EXISTS {trigram_index(name, col)} ON "{name}"'
                        f' USING gin ("{col}" gin_trgm_ops)'
                    )
            migrate(db, now=time.time())


def create_table_sql(
    name: str,
    columns: dict[str, Any],
    pk: str | tuple[str, ...],
    fks: list[tuple[str, str, str]],
    defaults: dict[str, Any],
) -> str:
    """CREATE TABLE from store.schema's declaration; an integer `id` key is an identity column."""
    keys = (pk,) if isinstance(pk, str) else pk
    parts = []
    for column, kind in columns.items():
        if keys == ("id",) and column == "id":
            parts.append('"id" BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY')
            continue
        default = f" DEFAULT {defaults[column]!r}" if column in defaults else ""
        null = " NOT NULL" if column in keys else ""
        parts.append(f'"{column}" {PG_TYPES[kind]}{null}{default}')
    if keys != ("id",):
        parts.append(f"PRIMARY KEY ({', '.join(keys)})")
    for column, other, other_column in fks:
        parts.append(f'FOREIGN KEY ("{column}") REFERENCES "{other}" ("{other_column}")')
    return f'CREATE TABLE IF NOT EXISTS "{name}" ({", ".join(parts)})'


# Writes that are one transaction of their own and come out the same when run again: run again on a
# new connection while the server is away (a restart, a network cut), so the crawl loses no page.
RETRIED_WRITES = (
    "sync_feeds",
    "set_feed_url",
    "set_site_home",
    "record_feed_ok",
    "record_feed_failure",
    "unmute",
    "skip_refetch",
    "throttle_site",
    "postpone",
    "record_article_failure",
    "save_page",
    "add_to_batch",
    "settle_batches",
    "assign_unbatched",
    "update_profile",
    "finish_run",
    "claim_sites",
    "renew_leases",
    "release_sites",
)


def _reconnecting(method: F) -> F:
    """`method` retried while the connection is lost, unless called inside an outer transaction
    (that one is lost whole: only its caller can run it again)."""

    @functools.wraps(method)
    def retried(self: PostgresStore, *args: Any, **kwargs: Any) -> Any:
        if self.db.in_transaction:
            return method(self, *args, **kwargs)
        return retry_lost_connection(lambda: method(self, *args, **kwargs))

    return retried  # type: ignore[return-value]


for _name in RETRIED_WRITES:
    setattr(PostgresStore, _name, _reconnecting(getattr(PostgresStore, _name)))
