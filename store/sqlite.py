"""The SQLite store (store.base.StoreBackend): creates or upgrades the schema (store.schema), stores pages.

Store("blogs.db").due_feeds(["https://example.org/feed/"], now=time.time())

Tables (see docs/schema.md): `sites` (one blog each), `feeds` (one per feeds-file line, with the
poll schedule, validators, backoff and mute reason), `articles` (one per feed entry, with the
fetch / re-fetch schedule), `snapshots` (every fetched article page, gzip body), `runs` (one per
crawl run, with its stats: store.runs); then what extraction makes of the snapshots: `batches` and
`batch_members` (per-site sets of first fetches), `profiles` (versioned site profiles),
`extractions` (one per extracted snapshot), `posts` and `comments` (derived from the
extractions), `feed_comments` (comment-feed entries, the check). `posts_fts` and `comments_fts`
are FTS5 indexes (trigram tokenizer: English and Japanese alike). Times are ISO 8601 UTC text
(`store.clock.to_iso`).

sqlite-utils over a connection with foreign keys on, WAL journal (readers never block the
crawler) and a busy timeout; every write is idempotent on a natural key.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from store.base import StoreBackend
from store.migrations import SCHEMA_VERSION, applied_version, migrate
from store.schema import FTS, INDEXES, KNOWN, TABLES, fts_sql
from store.sql import SqliteDatabase
from store.storefile import APPLICATION_ID, StoreError, converted, open_connection, refuse_url

DEFAULT_DB = "blogs.db"
BUSY_TIMEOUT_S = 60.0


def default_db_path(settings_value: str | None = None) -> Path:
    """BLOGS_DB if given, else blogs.db next to scrapy.cfg (searched upwards from the cwd) or in the cwd.

    The SQLite file only: a postgresql:// URL is taken by store.store_location before this is
    asked; any URL here raises StoreError rather than becoming a file named after it.
    """
    if settings_value:
        refuse_url(settings_value)  # a URL would silently become a file path named after it
        return Path(settings_value).expanduser()
    here = Path.cwd()
    for directory in (here, *here.parents):
        if (directory / "scrapy.cfg").is_file():
            return directory / DEFAULT_DB
    return here / DEFAULT_DB


class Store(StoreBackend):
    """A connection to the blogs database; creates or upgrades the schema when opened.

    Store(path) is the crawl's: read-write, and a missing or empty file becomes a new store.
    Store(path, read_only=True) reads an existing store through a `mode=ro` connection (the query
    commands); create=False refuses to make a new store. A path that is not a store (not SQLite,
    another program's database, damaged, an unwritable folder) raises StoreError
    (store.storefile) before anything is written to it.
    """

    db: SqliteDatabase

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False, create: bool = True) -> None:
        self.path = Path(path)
        self.location = str(path)
        self.read_only = read_only
        if self._open_db(create) or not read_only:
            return
        newer = self._newer_release()
        if newer is not None:  # not "older": nothing to upgrade, this harvester is the older one
            self.close()
            raise newer
        # An older store read for the first time since an upgrade: upgraded as a crawl would.
        self.close()
        try:
            Store(self.path, create=False).close()
        except StoreError as exc:
            raise StoreError(f"{self.path} is a store of an older blog-harvester; upgrading it failed: {exc}") from exc
        self._open_db(create)

    def _open_db(self, create: bool) -> bool:
        """Connect and set up; True when the schema is current (read-only) or was made so (read-write)."""
        conn = open_connection(self.path, read_only=self.read_only, create=create, known=KNOWN, timeout=BUSY_TIMEOUT_S)
        self.db = SqliteDatabase(conn)
        try:
            with converted(self.path):
                self.db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
                self.db.execute("PRAGMA foreign_keys = ON")
                if self.read_only:
                    return self.schema_is_current(marker=False)
                if str(self.path) != ":memory:":
                    self.db.enable_wal()
                # WAL + NORMAL survives a killed process; only an OS crash may lose the last commits.
                self.db.execute("PRAGMA synchronous = NORMAL")
                self.ensure_schema()
                return True
        except BaseException:
            conn.close()
            raise

    def close(self) -> None:
        self.db.close()

    def schema_is_current(self, *, marker: bool = True) -> bool:
        """True when every table, column, index and FTS table exists and, with `marker`, the store's
        application_id is set (then opening writes nothing)."""
        if marker and self.db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            return False
        names = set(self.db.table_names())
        if not set(TABLES) <= names or not {f"{t}_fts" for t in FTS} <= names:
            return False
        for name, (columns, *_rest) in TABLES.items():
            if not set(columns) <= set(self.db.table(name).columns_dict):
                return False
        present = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        if not all(f"idx_{t}_{'_'.join(cols)}" in present for t, cols, _u in INDEXES):
            return False
        return applied_version(self.db) == SCHEMA_VERSION

    def _newer_release(self) -> StoreError | None:
        """The error for a store whose schema is newer than this harvester knows, else None."""
        found = applied_version(self.db)
        if found <= SCHEMA_VERSION:
            return None
        return StoreError(
            f"{self.path} was written by a newer blog-harvester (schema version {found},"
            f" this one knows {SCHEMA_VERSION}): upgrade the harvester"
        )

    def ensure_schema(self) -> None:
        """Create missing tables, columns, indexes and FTS tables, then apply pending migrations
        (store.migrations), in one transaction (idempotent; no write when current)."""
        if self.schema_is_current():
            return
        newer = self._newer_release()
        if newer is not None:
            raise newer
        if sqlite3.sqlite_version_info < (3, 34, 0):
            raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old for the store (trigram FTS needs 3.34+)")
        with self.transaction():
            db = self.db
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")  # marks the file as a store
            for name, (columns, pk, fks, defaults) in TABLES.items():
                table = db.table(name)
                if not table.exists():
                    table.create(columns, pk=pk, foreign_keys=fks, defaults=defaults, if_not_exists=True)
                    continue
                present = table.columns_dict
                for column, kind in columns.items():
                    if column not in present:
                        table.add_column(column, kind)
            for name, cols, unique in INDEXES:
                db.table(name).create_index(cols, unique=unique, if_not_exists=True)
            for name, cols in FTS.items():
                if not db.table(f"{name}_fts").exists():
                    for sql in fts_sql(name, cols):
                        db.execute(sql)
            migrate(db, now=time.time())
