"""The extraction half of the store: tables, FTS5 (trigram) for English and Japanese, readers during
writes, the schema documentation, plain SQLite tools opening the file."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from store import open_existing_store
from store.clock import to_iso
from store.comments import comment_dicts, refresh_article
from store.pages import PageRecord
from store.schema import FTS as _FTS
from store.schema import TABLES as _TABLES
from store.sqlite import Store

PROJECT = Path(__file__).resolve().parents[1]
NOW = 1_800_000_000.0
FEED = "http://h/feed/"


def add_page(store: Store, url: str, body: bytes, *, kind: str = "first", at: float = NOW, site: str = "h") -> int:
    """An article (once) and one stored snapshot of it."""
    if store.article(url) is None:
        store.sync_feeds([(FEED, site)], at)
        entry = {
            "url": url,
            "site": site,
            "entry_id": url,
            "guid": None,
            "link": url,
            "title": f"Title of {url}",
            "author": "Ann",
            "published": to_iso(at - 60),
            "comment_rss": None,
            "slash_comments": None,
        }
        store.record_feed_ok(FEED, now=at, status=200, next_check=at + 600, interval=600, new_articles=[entry])
    return store.save_page(
        PageRecord(
            site=site,
            kind=kind,
            url=url,
            request_url=url,
            status=200,
            headers={"Content-Type": ["text/html; charset=utf-8"]},
            body=body,
            fetched_at=at,
            article_url=url,
        ),
        offsets=[3600.0],
    )


def add_extraction(store: Store, snapshot: int, url: str, post: str, comments: list[tuple[str, str]]) -> None:
    """An extraction row as the jobs write it: (text, author) comments."""
    from extractor.comments.records import CommentRecord

    records = [CommentRecord(text=t, author=a, position=i) for i, (t, a) in enumerate(comments)]
    items = comment_dicts(records)
    with store.transaction() as db:
        db.table("extractions").upsert(
            {
                "snapshot": snapshot,
                "article": url,
                "site": "h",
                "method": "profile",
                "profile_version": 1,
                "post": post,
                "comments": __import__("json").dumps(items, ensure_ascii=False),
                "comment_count": len(items),
                "warnings": "[]",
            },
            pk="snapshot",
        )
        refresh_article(db, url)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "blogs.db")


def test_extraction_tables_indexes_and_trigram_fts_exist(store: Store) -> None:
    assert sqlite3.sqlite_version_info >= (3, 34, 0), "the trigram tokenizer needs SQLite 3.34"
    names = set(store.db.table_names())
    assert set(_TABLES) | {"posts_fts", "comments_fts"} <= names
    for table in _FTS:
        sql = store.db.table(f"{table}_fts").schema
        assert "tokenize='trigram'" in sql and f"content=[{table}]" in sql
        assert store.db.table(table).detect_fts() == f"{table}_fts"  # what sqlite-utils and Datasette look for
    assert store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert store.schema_is_current()
    indexes = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"idx_batch_members_article", "idx_posts_site_published", "idx_comments_site_first_seen"} <= indexes


def test_opening_a_current_store_does_not_wait_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "blogs.db"
    Store(path).close()
    writer = sqlite3.connect(path, timeout=1)
    writer.execute("BEGIN IMMEDIATE")  # a crawl in the middle of a write transaction
    writer.execute("INSERT INTO sites (name) VALUES ('busy')")
    started = time.monotonic()
    with open_existing_store(path) as reader:
        assert [r["site"] for r in reader.sites()] == []  # sees only committed data
    assert time.monotonic() - started < 1.0
    writer.rollback()
    writer.close()


def test_fts_finds_english_words_and_japanese_phrases_and_follows_updates(store: Store) -> None:
    a = add_page(store, "http://h/en", b"<p>x</p>")
    b = add_page(store, "http://h/ja", b"<p>y</p>")
    add_extraction(
        store, a, "http://h/en", "The shooting board\nA jig for planing edges square.", [("Sharp chisels!", "Ann")]
    )
    add_extraction(
        store,
        b,
        "http://h/ja",
        "テント泊とレインウェア\n仕事帰り、ベランダで山小屋に泊まりました。",
        [("山小屋の話、とても参考になりました。", "週末カメラマン")],
    )
    assert [h["url"] for h in store.search("shooting board")] == ["http://h/en"]
    assert [h["url"] for h in store.search("PLANING")] == ["http://h/en"]  # case-insensitive
    assert [h["url"] for h in store.search("山小屋に泊まりました")] == ["http://h/ja"]  # a Japanese phrase
    assert [h["url"] for h in store.search("山小屋")] == ["http://h/ja"]  # 3 characters: FTS
    assert [h["url"] for h in store.search("泊ま")] == ["http://h/ja"]  # 2 characters: LIKE fallback
    assert [h["url"] for h in store.search("ja 泊")] == ["http://h/ja"]  # short terms anywhere: LIKE
    assert [h["author"] for h in store.search("参考に", "comments")] == ["週末カメラマン"]
    assert [h["url"] for h in store.search("chisels", "comments")] == ["http://h/en"]
    assert store.search("nothing like this") == []
    assert "[shooting]" in store.search("shooting")[0]["snippet"]
    # The index follows upserts: a re-extraction that changes the text changes what is found.
    add_extraction(store, a, "http://h/en", "A bench hook instead", [("Sharp chisels!", "Ann")])
    assert store.search("shooting board") == []
    assert [h["url"] for h in store.search("bench hook")] == ["http://h/en"]
    plain = sqlite3.connect(store.path)  # no custom function or tokenizer needed to read it
    assert plain.execute("SELECT COUNT(*) FROM posts_fts WHERE posts_fts MATCH '\"bench\"'").fetchone() == (1,)


def test_sqlite_utils_cli_reads_and_searches_the_store(store: Store) -> None:
    a = add_page(store, "http://h/en", b"<p>x</p>")
    add_extraction(store, a, "http://h/en", "The shooting board", [])
    store.close()
    cli = [sys.executable, "-m", "sqlite_utils"]
    tables = subprocess.run([*cli, "tables", str(store.path), "--counts", "--fts5"], capture_output=True, text=True)
    assert tables.returncode == 0 and "posts_fts" in tables.stdout, tables.stderr
    found = subprocess.run([*cli, "search", str(store.path), "posts", "shooting"], capture_output=True, text=True)
    assert found.returncode == 0 and "http://h/en" in found.stdout, found.stderr


def test_every_table_and_column_is_documented() -> None:
    doc = (PROJECT / "docs" / "schema.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## (\S+)\n(.*?)(?=^## |\Z)", doc, flags=re.M | re.S))
    for table, (columns, *_rest) in _TABLES.items():
        assert table in sections, f"docs/schema.md has no section for {table}"
        documented = {
            c
            for cell in re.findall(r"^\| ([^|]+) \|", sections[table], flags=re.M)
            for c in re.findall(r"`(\w+)`", cell)
        }
        missing = set(columns) - documented
        assert not missing, f"docs/schema.md: {table} lacks {sorted(missing)}"
    assert "posts_fts, comments_fts" in sections or "posts_fts," in doc
