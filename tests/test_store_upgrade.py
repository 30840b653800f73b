"""A store written by the previous release opens, upgrades and keeps every row.

`data/store-d407918.db.gz` was written by commit d407918 (the release before the store-file checks,
comment versions, persisted comment feeds and provisional extraction): two farm crawls, two hours
apart, of a generated English blog (12 articles, so one full batch and a profile) and a generated
Japanese blog (3 articles, a batch never filled), checkpointed and gzipped. Recipe: in a checkout of
d407918, `run_crawl` (tests/crawl_helpers.py) twice on `add_generated_blog("oldblog", articles=12,
seed=11, comments_per_article=(1, 3))` and `add_generated_blog("oldnikki", articles=3, seed=12,
lang="ja")`, then `sqlite3 store.db "PRAGMA journal_mode=DELETE; VACUUM"`.
"""

from __future__ import annotations

import gzip
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env

from store import Store, StoreError, open_store
from store.migrations import MIGRATIONS, SCHEMA_VERSION, Migration, applied_version, migrate
from store.sql import Database
from store.storefile import APPLICATION_ID

OLD_STORE = Path(__file__).parent / "data" / "store-d407918.db.gz"
# Tables of the old release and how many rows each held.
OLD_COUNTS = {
    "sites": 2,
    "feeds": 2,
    "articles": 15,
    "snapshots": 15,
    "batches": 3,
    "batch_members": 15,
    "profiles": 1,
    "extractions": 12,
    "posts": 12,
    "comments": 21,
    "feed_comments": 21,
}


def counts(db: Path) -> dict[str, int]:
    conn = sqlite3.connect(db)
    try:
        return {t: conn.execute(f"SELECT COUNT(*) FROM [{t}]").fetchone()[0] for t in OLD_COUNTS}
    finally:
        conn.close()


def scrapy(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "scrapy", *args, "-s", f"BLOGS_DB={db}"]
    return subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, timeout=300, env=_env())


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    db = tmp_path / "blogs.db"
    db.write_bytes(gzip.decompress(OLD_STORE.read_bytes()))
    return db


def test_the_fixture_is_the_old_release_store(old_store: Path) -> None:
    assert counts(old_store) == OLD_COUNTS
    conn = sqlite3.connect(old_store)
    assert conn.execute("PRAGMA application_id").fetchone() == (0,)  # before the marker
    assert "comment_versions" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()


@pytest.mark.slow
def test_an_old_release_store_upgrades_without_losing_a_row(old_store: Path) -> None:
    conn = sqlite3.connect(old_store)
    fingerprints = set(conn.execute("SELECT article, fingerprint FROM comments"))
    bodies = dict(conn.execute("SELECT id, body FROM snapshots"))
    conn.close()

    # A query command reads it as it is.
    posts = scrapy(old_store, "posts", "--site", "oldblog", "--format", "jsonl")
    assert posts.returncode == 0, posts.stderr[-2000:]
    assert len(posts.stdout.splitlines()) == 12
    # Re-extraction opens it for writing: the schema is upgraded and every page extracted again.
    again = scrapy(old_store, "reextract")
    assert again.returncode == 0, again.stderr[-3000:]

    after = counts(old_store)
    for table, before in OLD_COUNTS.items():
        assert after[table] >= before, (table, before, after[table])
    assert after["snapshots"] == 15 and after["articles"] == 15
    # The Japanese blog's never-filled batch is extracted provisionally now; the rest as before.
    assert after["posts"] == 15 and after["extractions"] == 15
    conn = sqlite3.connect(old_store)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    assert dict(conn.execute("SELECT id, body FROM snapshots")) == bodies  # raw pages untouched
    # Every comment keeps its fingerprint (and so its first_seen); none is marked gone.
    assert fingerprints <= set(conn.execute("SELECT article, fingerprint FROM comments"))
    assert conn.execute("SELECT COUNT(*) FROM comments WHERE gone_at IS NOT NULL").fetchone() == (0,)
    columns = {r[1] for r in conn.execute("PRAGMA table_info(comments)")}
    assert {"date_precision"} <= columns
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"comment_versions", "comment_feed_fetches"} <= tables
    conn.close()


def test_a_new_store_records_the_schema_version_and_an_old_one_gets_it_on_upgrade(
    old_store: Path, tmp_path: Path
) -> None:
    with Store(tmp_path / "new.db") as store:
        assert applied_version(store.db) == SCHEMA_VERSION
        assert store.schema_is_current()
    with Store(old_store) as store:  # opening for writing upgrades it
        assert applied_version(store.db) == SCHEMA_VERSION
    assert counts(old_store) == OLD_COUNTS  # the upgrade itself adds and removes no row


def test_pending_migrations_run_once_in_order_inside_the_transaction(fresh_db: str) -> None:
    ran: list[int] = []

    def note(version: int) -> Migration:
        return Migration(version, f"test {version}", lambda db: ran.append(version))

    def broken(db: Database) -> None:
        db.execute("UPDATE sites SET title = 'half done'")
        raise RuntimeError("migration 4 failed")

    with open_store(fresh_db) as store:
        with store.transaction() as db:
            db.execute("INSERT INTO sites (name, added_at) VALUES ('a', 'now')")
        later = (*MIGRATIONS, note(2), note(3))
        with store.transaction() as db:
            assert migrate(db, now=0.0, migrations=later) == [2, 3]
        with store.transaction() as db:
            assert migrate(db, now=0.0, migrations=later) == []  # each runs once
        assert ran == [2, 3]
        with pytest.raises(RuntimeError), store.transaction() as db:
            migrate(db, now=0.0, migrations=(*later, Migration(4, "broken", broken)))
        assert applied_version(store.db) == 3  # rolled back with the transaction
        assert store.db.execute("SELECT title FROM sites").fetchone() == (None,)
        with pytest.raises(ValueError), store.transaction() as db:
            migrate(db, now=0.0, migrations=(*later, note(3)))


def test_a_store_from_a_newer_release_is_refused(fresh_db: str) -> None:
    with open_store(fresh_db) as store, store.transaction() as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (?, 'from the future', 'now')", [SCHEMA_VERSION + 1])
    for read_only in (False, True):
        with pytest.raises(StoreError, match="newer blog-harvester"):
            open_store(fresh_db, read_only=read_only)
