"""The SQLite store: the one place that creates the schema, plus the small API the crawler uses.

Store("blogs.db").due_feeds(["https://example.org/feed/"], now=time.time())

Tables (see docs/schema.md): `sites` (one blog each), `feeds` (one per feeds-file line, with the
poll schedule, validators, backoff and mute reason), `articles` (one per feed entry, with the
fetch / re-fetch schedule), `snapshots` (every fetched article page, gzip body), `runs` (one per
crawl run, with its stats: pipelines.runs); then what extraction makes of the snapshots: `batches` and
`batch_members` (per-site sets of first fetches), `profiles` (versioned site profiles),
`extractions` (one per extracted snapshot), `posts` and `comments` (derived from the
extractions), `feed_comments` (comment-feed entries, the check). `posts_fts` and `comments_fts`
are FTS5 indexes (trigram tokenizer: English and Japanese alike). Times are ISO 8601 UTC text
(`crawler.schedule.to_iso`).

sqlite-utils over a connection with foreign keys on, WAL journal (readers never block the
crawler) and a busy timeout; every write is idempotent on a natural key.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sqlite_utils

from crawler.schedule import from_iso, next_refetch, refetch_base, to_iso
from pipelines.batches import BatchState
from pipelines.crawlstate import CrawlState
from pipelines.runs import RunBook
from pipelines.storefile import APPLICATION_ID, StoreError, converted, open_connection

DEFAULT_DB = "blogs.db"
BUSY_TIMEOUT_S = 60.0

# name -> (columns, pk, foreign keys, defaults). Columns are added to existing tables when
# missing, so older databases keep working after an upgrade.
_TABLES: dict[str, tuple[dict[str, Any], str | tuple[str, ...], list[tuple[str, str, str]], dict[str, Any]]] = {
    "sites": (
        {
            "name": str,
            "home_url": str,
            "title": str,
            "added_at": str,
            # comment-feed check (pipelines.feedcheck), over the site's recently checked articles
            "comment_feed_articles": int,
            "comment_feed_exact": float,
            "comment_feed_f1": float,
            "comment_feed_checked_at": str,
        },
        "name",
        [],
        {},
    ),
    "feeds": (
        {
            "url": str,  # as written in the feeds file (feed or home page)
            "site": str,
            "feed_url": str,  # the feed actually polled (discovered for a home page)
            "title": str,
            "etag": str,
            "last_modified": str,
            "added_at": str,
            "first_polled_at": str,
            "last_polled_at": str,
            "last_ok_at": str,
            "last_changed_at": str,  # last poll that returned the feed (not a 304)
            "next_check": str,
            "interval": float,  # current adaptive interval, seconds
            "failures": int,  # consecutive failures
            "last_status": int,
            "last_error": str,
            "muted_at": str,
            "mute_reason": str,
            "polls": int,
            "not_modified": int,
        },
        "url",
        [("site", "sites", "name")],
        {"failures": 0, "polls": 0, "not_modified": 0},
    ),
    "articles": (
        {
            "url": str,  # normalized link: the natural key
            "site": str,
            "feed": str,
            "entry_id": str,  # guid, else the normalized link
            "guid": str,
            "link": str,  # as found in the feed; what is requested
            "title": str,
            "author": str,
            "published": str,
            "comment_rss": str,
            "slash_comments": int,  # latest value seen in the feed
            "slash_seen_at": str,
            "discovered_at": str,
            "first_fetched_at": str,
            "last_fetched_at": str,
            "fetches": int,
            "refetches_skipped": int,
            "state": str,  # pending | active | done | failed | gone
            "next_fetch_at": str,
            "failures": int,
            "last_status": int,
            "last_error": str,
            "slash_at_fetch": int,  # slash:comments when the page was last fetched
            "comment_feed_sig": str,  # comment feed signature when the page was last fetched
            "comment_feed_etag": str,
            "comment_feed_last_modified": str,
            "comment_feed_entries": int,  # entries of the comment feed when last read (pipelines.feedcheck)
            "comment_feed_fetched_at": str,
        },
        "url",
        [("site", "sites", "name"), ("feed", "feeds", "url")],
        {"fetches": 0, "refetches_skipped": 0, "failures": 0, "state": "pending"},
    ),
    "snapshots": (
        {
            "id": int,
            "article": str,
            "site": str,
            "kind": str,  # first | refetch
            "url": str,  # final URL after redirects
            "request_url": str,
            "status": int,
            "headers": str,  # JSON object: name -> list of values
            "body": bytes,  # gzip
            "body_size": int,
            "body_sha256": str,
            "fetched_at": str,
        },
        "id",
        [("article", "articles", "url"), ("site", "sites", "name")],
        {},
    ),
    "runs": (
        {
            "id": int,
            "started_at": str,
            "finished_at": str,
            "pid": int,
            "feeds_file": str,
            "watch": int,
            "reason": str,
            "summary": str,
            "stats": str,  # JSON
        },
        "id",
        [],
        {},
    ),
    # -- extraction (pipelines.batches, pipelines.jobs) ------------------------------------
    "batches": (
        {
            "id": int,
            "site": str,
            "state": str,  # open | full | done
            "size": int,  # BATCH_SIZE when opened
            "members": int,
            "opened_at": str,
            "filled_at": str,
            "done_at": str,
            "profile_version": int,  # the profile learned from it
        },
        "id",
        [("site", "sites", "name")],
        {"state": "open", "members": 0},
    ),
    "batch_members": (
        {"batch": int, "snapshot": int, "article": str, "site": str, "position": int},
        ("batch", "snapshot"),
        [("batch", "batches", "id"), ("snapshot", "snapshots", "id"), ("article", "articles", "url")],
        {},
    ),
    "profiles": (
        {
            "site": str,
            "version": int,  # 1, 2, ... per site
            "source": str,  # batch | drift
            "batch": int,
            "snapshots": str,  # JSON list of the snapshot ids it was learned from
            "pages": int,
            "learned_at": str,
            "profile": str,  # SiteProfile.to_json()
            "warnings": str,  # JSON list
        },
        ("site", "version"),
        [("site", "sites", "name"), ("batch", "batches", "id")],
        {},
    ),
    "extractions": (
        {
            "snapshot": int,
            "article": str,
            "site": str,
            "method": str,  # batch | profile
            "batch": int,
            "profile_version": int,
            "template_match": float,
            "post": str,
            "comments": str,  # JSON list of comment records, each with its fingerprint
            "comment_count": int,
            "encoding": str,
            "error": str,
            "warnings": str,  # JSON list
            "decided_by": str,  # set | profile | every-page-has-comments fallback | single page
            "confidence": float,
        },
        "snapshot",
        [("snapshot", "snapshots", "id"), ("article", "articles", "url"), ("site", "sites", "name")],
        {},
    ),
    "posts": (
        {
            "url": str,  # the article (articles.url)
            "site": str,
            "title": str,
            "author": str,
            "published": str,
            "text": str,
            "fetched_at": str,  # of the snapshot the text comes from
            "snapshot": int,
            "method": str,
            "decided_by": str,
            "confidence": float,
            "profile_version": int,
            "comments": int,  # comments on the page at that snapshot
        },
        "url",
        [("url", "articles", "url"), ("site", "sites", "name"), ("snapshot", "snapshots", "id")],
        {},
    ),
    "comments": (
        {
            "article": str,
            "fingerprint": str,
            "site": str,
            "text": str,
            "author": str,
            "date": str,  # ISO 8601 when the page's date parses
            "date_precision": str,  # day | minute | second
            "date_raw": str,
            "parent": str,  # fingerprint of the comment replied to
            "position": int,  # order on the page where last seen, from 0
            "first_seen": str,
            "last_seen": str,
            "gone_at": str,  # first fetch that no longer showed it
            "first_snapshot": int,
            "last_snapshot": int,
        },
        ("article", "fingerprint"),
        [("article", "articles", "url"), ("site", "sites", "name")],
        {},
    ),
    "comment_versions": (
        {
            "article": str,
            "fingerprint": str,  # the comment (comments.fingerprint)
            "seen_from": str,  # first fetch showing this text
            "site": str,
            "text": str,  # an earlier text of the comment
            "seen_until": str,  # last fetch showing this text
            "first_snapshot": int,
            "last_snapshot": int,
        },
        ("article", "fingerprint", "seen_from"),
        [("article", "articles", "url"), ("site", "sites", "name")],
        {},
    ),
    "comment_feed_fetches": (
        {
            "id": int,
            "article": str,
            "site": str,
            "url": str,  # the comment feed as fetched (final URL)
            "headers": str,  # JSON object: name -> value
            "body": bytes,  # gzip
            "fetched_at": str,
            "entries": int,  # entries parsed into feed_comments (NULL: not processed yet)
            "processed_at": str,
            "attempts": int,  # processing attempts (pipelines.jobs retries a failed one)
            "error": str,  # the latest processing failure
        },
        "id",
        [("article", "articles", "url"), ("site", "sites", "name")],
        {"attempts": 0},
    ),
    "feed_comments": (
        {
            "article": str,
            "guid": str,
            "site": str,
            "author": str,
            "date": str,
            "text": str,
            "link": str,
            "first_seen": str,
            "last_seen": str,  # the latest comment-feed fetch that listed it
        },
        ("article", "guid"),
        [("article", "articles", "url"), ("site", "sites", "name")],
        {},
    ),
}
_INDEXES: list[tuple[str, list[str], bool]] = [
    ("articles", ["site", "entry_id"], True),
    ("articles", ["state", "next_fetch_at"], False),
    ("articles", ["feed"], False),
    ("snapshots", ["article", "fetched_at"], True),
    ("snapshots", ["site", "kind"], False),
    ("feeds", ["site"], False),
    ("batches", ["site", "state"], False),
    ("batch_members", ["snapshot"], True),
    ("batch_members", ["article"], True),  # never two snapshots of one article in batches
    ("extractions", ["article"], False),
    ("extractions", ["site", "profile_version"], False),
    ("posts", ["site", "published"], False),
    ("posts", ["published"], False),
    ("comments", ["site", "first_seen"], False),
    ("comments", ["first_seen"], False),
    ("feed_comments", ["site"], False),
    ("comment_feed_fetches", ["article", "fetched_at"], True),
    ("comment_feed_fetches", ["processed_at"], False),
    ("articles", ["site", "comment_feed_fetched_at"], False),
]
# Full-text search: table -> indexed columns. Trigram tokenizer: substring search that works
# for Japanese as for English (needs SQLite >= 3.34; query terms of 3+ characters).
_FTS: dict[str, list[str]] = {"posts": ["title", "text"], "comments": ["text", "author"]}
# Every table a store may hold (FTS5 keeps its index in four shadow tables per FTS table).
_KNOWN = {*_TABLES, *(f"{t}_fts{s}" for t in _FTS for s in ("", "_data", "_idx", "_docsize", "_config"))}


def _fts_sql(table: str, columns: list[str]) -> list[str]:
    """An external-content FTS5 table kept in sync by triggers, as `sqlite-utils enable-fts` makes it
    (so Datasette and sqlite-utils recognise it); written out because their helper commits."""
    cols = ", ".join(f"[{c}]" for c in columns)
    new = ", ".join(f"new.[{c}]" for c in columns)
    old = ", ".join(f"old.[{c}]" for c in columns)
    fts = f"[{table}_fts]"
    delete = f"INSERT INTO {fts} ({fts}, rowid, {cols}) VALUES('delete', old.rowid, {old});"
    insert = f"INSERT INTO {fts} (rowid, {cols}) VALUES (new.rowid, {new});"
    return [
        f"CREATE VIRTUAL TABLE {fts} USING FTS5 (\n    {cols},\n    tokenize='trigram',\n    content=[{table}]\n)",
        f"INSERT INTO {fts} (rowid, {cols}) SELECT rowid, {cols} FROM [{table}]",
        f"CREATE TRIGGER IF NOT EXISTS [{table}_ai] AFTER INSERT ON [{table}] BEGIN {insert} END",
        f"CREATE TRIGGER IF NOT EXISTS [{table}_ad] AFTER DELETE ON [{table}] BEGIN {delete} END",
        f"CREATE TRIGGER IF NOT EXISTS [{table}_au] AFTER UPDATE ON [{table}] BEGIN {delete} {insert} END",
    ]


def default_db_path(settings_value: str | None = None) -> Path:
    """BLOGS_DB if given, else blogs.db next to scrapy.cfg (searched upwards from the cwd) or in the cwd."""
    if settings_value:
        return Path(settings_value).expanduser()
    here = Path.cwd()
    for directory in (here, *here.parents):
        if (directory / "scrapy.cfg").is_file():
            return directory / DEFAULT_DB
    return here / DEFAULT_DB


def gzip_body(body: bytes) -> bytes:
    """Deterministic gzip (mtime 0): the same page always gives the same blob."""
    return gzip.compress(body, compresslevel=6, mtime=0)


def gunzip_body(blob: bytes) -> bytes:
    """The raw page bytes of a snapshot's `body`: gunzip_body(gzip_body(b"x")) == b"x"."""
    return gzip.decompress(blob)


class Store(BatchState, CrawlState, RunBook):
    """A connection to the blogs database; creates or upgrades the schema when opened.

    Store(path) is the crawl's: read-write, and a missing or empty file becomes a new store.
    Store(path, read_only=True) reads an existing store through a `mode=ro` connection (the query
    commands); create=False refuses to make a new store. A path that is not a store (not SQLite,
    another program's database, damaged, an unwritable folder) raises StoreError
    (pipelines.storefile) before anything is written to it.
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False, create: bool = True) -> None:
        self.path = Path(path)
        self.read_only = read_only
        if self._open_db(create) or not read_only:
            return
        # An older store read for the first time since an upgrade: upgraded as a crawl would.
        self.close()
        try:
            Store(self.path, create=False).close()
        except StoreError as exc:
            raise StoreError(f"{self.path} is a store of an older blog-harvester; upgrading it failed: {exc}") from exc
        self._open_db(create)

    def _open_db(self, create: bool) -> bool:
        """Connect and set up; True when the schema is current (read-only) or was made so (read-write)."""
        conn = open_connection(self.path, read_only=self.read_only, create=create, known=_KNOWN, timeout=BUSY_TIMEOUT_S)
        self.db = sqlite_utils.Database(conn)
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

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def schema_is_current(self, *, marker: bool = True) -> bool:
        """True when every table, column, index and FTS table exists and, with `marker`, the store's
        application_id is set (then opening writes nothing)."""
        if marker and self.db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            return False
        names = set(self.db.table_names())
        if not set(_TABLES) <= names or not {f"{t}_fts" for t in _FTS} <= names:
            return False
        for name, (columns, *_rest) in _TABLES.items():
            if not set(columns) <= set(self.db.table(name).columns_dict):
                return False
        present = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        return all(f"idx_{t}_{'_'.join(cols)}" in present for t, cols, _u in _INDEXES)

    def ensure_schema(self) -> None:
        """Create missing tables, columns, indexes and FTS tables (idempotent; no write when current)."""
        if self.schema_is_current():
            return
        if sqlite3.sqlite_version_info < (3, 34, 0):
            raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old for the store (trigram FTS needs 3.34+)")
        with self.transaction() as db:
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")  # marks the file as a store
            for name, (columns, pk, fks, defaults) in _TABLES.items():
                table = db.table(name)
                if not table.exists():
                    table.create(columns, pk=pk, foreign_keys=fks, defaults=defaults, if_not_exists=True)
                    continue
                present = table.columns_dict
                for column, kind in columns.items():
                    if column not in present:
                        table.add_column(column, kind)
            for name, cols, unique in _INDEXES:
                db.table(name).create_index(cols, unique=unique, if_not_exists=True)
            for name, cols in _FTS.items():
                if not db.table(f"{name}_fts").exists():
                    for sql in _fts_sql(name, cols):
                        db.execute(sql)

    def save_page(
        self,
        *,
        article: str,
        site: str,
        kind: str,
        url: str,
        request_url: str,
        status: int,
        headers: dict[str, list[str]],
        body: bytes,
        fetched_at: float,
        offsets: Sequence[float],
        slash_comments: int | None = None,
        comment_feed_sig: str | None = None,
        comment_feed_etag: str | None = None,
        comment_feed_last_modified: str | None = None,
    ) -> int:
        """Commit a fetched page and advance its article's schedule atomically; returns the snapshot id.

        Idempotent: the same (article, fetched_at) is stored once.
        """
        stamp = to_iso(fetched_at)
        with self.transaction() as db:
            db.execute(
                "INSERT INTO snapshots (article, site, kind, url, request_url, status, headers, body,"
                " body_size,"
                " body_sha256, fetched_at) VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                [
                    article,
                    site,
                    kind,
                    url,
                    request_url,
                    status,
                    json.dumps(headers, ensure_ascii=False),
                    gzip_body(body),
                    len(body),
                    hashlib.sha256(body).hexdigest(),
                    stamp,
                ],
            )
            snap = db.execute(
                "SELECT id FROM snapshots WHERE article = ? AND fetched_at = ?", [article, stamp]
            ).fetchone()
            row = db.execute("SELECT published, first_fetched_at FROM articles WHERE url = ?", [article]).fetchone()
            published = from_iso(row[0]) if row else None
            first = (from_iso(row[1]) if row and row[1] else None) or fetched_at
            due = next_refetch(refetch_base(published, first), offsets, fetched_at)
            db.execute(
                "UPDATE articles SET first_fetched_at = COALESCE(first_fetched_at, :now),"
                " last_fetched_at = :now,"
                " fetches = fetches + 1, state = :state, next_fetch_at = :next, failures = 0,"
                " last_status = :status, last_error = NULL,"
                " slash_at_fetch = COALESCE(:slash, slash_comments),"
                " comment_feed_sig = COALESCE(:sig, comment_feed_sig),"
                " comment_feed_etag = CASE WHEN :sig IS NULL THEN comment_feed_etag ELSE :etag END,"
                " comment_feed_last_modified ="
                " CASE WHEN :sig IS NULL THEN comment_feed_last_modified ELSE :lm END"
                " WHERE url = :url",
                {
                    "url": article,
                    "now": stamp,
                    "state": "active" if due else "done",
                    "next": to_iso(due) if due else None,
                    "status": status,
                    "slash": slash_comments,
                    "sig": comment_feed_sig,
                    "etag": comment_feed_etag,
                    "lm": comment_feed_last_modified,
                },
            )
        return int(snap[0])
