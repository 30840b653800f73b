"""The SQLite store and the persist-first pipeline, on real database files."""

from __future__ import annotations

import gzip
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from scrapy.exceptions import DropItem

from crawler.items import PageItem
from pipelines.persist import PersistPagePipeline
from store import StoreBackend, open_store
from store.clock import from_iso, to_iso
from store.pages import PageRecord, gunzip_body
from store.sqlite import Store

NOW = 1_800_000_000.0
FEED = "http://h/feed/"


def article(url: str, guid: str | None = None, published: float | None = NOW - 60, **kw: object) -> dict:
    return {
        "url": url,
        "site": "h",
        "entry_id": guid or url,
        "guid": guid,
        "link": url,
        "title": "T",
        "author": "A",
        "published": to_iso(published) if published else None,
        "comment_rss": None,
        "slash_comments": None,
        **kw,
    }


@pytest.fixture
def store(fresh_db: str) -> Iterator[StoreBackend]:
    """A new store on each backend (tests/conftest.py fresh_db), with one feed."""
    with open_store(fresh_db) as s:
        s.sync_feeds([(FEED, "h")], NOW)
        yield s


def test_schema_is_created_once_with_wal_and_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "blogs.db"
    Store(path).close()
    with Store(path) as again:  # idempotent: opening an existing store changes nothing
        tables = set(again.db.table_names())
        assert {"sites", "feeds", "articles", "snapshots", "runs"} <= tables
        assert again.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert again.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    conn = sqlite3.connect(path)  # a plain reader (datasette, sqlite-utils CLI) opens it fine
    assert conn.execute("SELECT COUNT(*) FROM snapshots").fetchone() == (0,)


def test_old_database_gains_new_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE feeds (url TEXT PRIMARY KEY, site TEXT)")
    conn.commit()
    conn.close()
    with Store(path) as s:
        assert "mute_reason" in s.db.table("feeds").columns_dict


def test_feeds_are_due_until_polled_and_state_survives_resync(store: StoreBackend) -> None:
    assert [f["url"] for f in store.due_feeds([FEED], NOW)] == [FEED]
    inserted = store.record_feed_ok(
        FEED,
        now=NOW,
        status=200,
        next_check=NOW + 600,
        interval=600,
        etag='"v1"',
        last_modified="Fri, 15 Jan 2027 08:00:00 GMT",
        new_articles=[article("http://h/a", "g1"), article("http://h/b")],
    )
    assert inserted == ["http://h/a", "http://h/b"]
    assert store.due_feeds([FEED], NOW + 599) == []
    assert store.due_feeds([FEED], NOW + 600)
    store.sync_feeds([(FEED, "h")], NOW + 1)  # a later run re-reads feeds.txt
    row = store.feed(FEED)
    assert row is not None and row["etag"] == '"v1"' and row["polls"] == 1
    # Same entries again: nothing new; lookups by guid or by URL
    again = store.record_feed_ok(
        FEED,
        now=NOW + 700,
        status=200,
        next_check=NOW + 1300,
        interval=600,
        new_articles=[article("http://h/a")],
    )
    assert again == []
    assert store.known_articles("h", ["g1", "zzz"], ["http://h/b"]) == {
        "g1": "http://h/a",
        "http://h/b": "http://h/b",
    }
    # A 304 keeps the validators
    store.record_feed_ok(FEED, now=NOW + 1400, status=304, next_check=NOW + 2000, interval=600)
    row = store.feed(FEED)
    assert row is not None and row["not_modified"] == 1 and row["etag"] is None  # the 200 at +700 sent none


def test_failures_backoff_mute_and_unmute(store: StoreBackend) -> None:
    assert store.record_feed_failure(FEED, now=NOW, status=500, error="HTTP 500", next_check=NOW + 300, mute=None) == 1
    assert store.record_feed_failure(FEED, now=NOW, status=None, error="dns", next_check=NOW + 600, mute=None) == 2
    assert store.due_feeds([FEED], NOW + 599) == []
    store.record_feed_failure(FEED, now=NOW, status=410, error="HTTP 410", next_check=NOW + 1, mute="410 Gone")
    row = store.feed(FEED)
    assert row is not None and row["mute_reason"] == "410 Gone" and row["muted_at"] == to_iso(NOW)
    assert store.due_feeds([FEED], NOW + 10**6) == []
    assert store.count_muted([FEED]) == 1
    assert store.unmute([FEED]) == 1
    assert store.due_feeds([FEED], NOW)
    store.record_feed_ok(FEED, now=NOW, status=200, next_check=NOW + 60, interval=60)
    row = store.feed(FEED)
    assert row is not None and row["failures"] == 0


def test_save_page_stores_gzip_and_schedules_refetches(store: StoreBackend) -> None:
    store.record_feed_ok(
        FEED,
        now=NOW,
        status=200,
        next_check=NOW + 600,
        interval=600,
        new_articles=[article("http://h/a", published=NOW - 1)],
    )
    assert [a["url"] for a in store.due_articles([FEED], NOW)] == ["http://h/a"]
    assert store.due_articles([FEED], NOW - 3600) != []  # a clock set back never holds a first fetch
    body = "<html><body>日本語 " + "x" * 5000 + "</body></html>"
    sid = store.save_page(
        PageRecord(
            site="h",
            kind="first",
            url="http://h/a?final",
            request_url="http://h/a",
            status=200,
            headers={"Content-Type": ["text/html"]},
            body=body.encode(),
            fetched_at=NOW,
            article_url="http://h/a",
        ),
        offsets=[2, 4],
    )
    again = store.save_page(
        PageRecord(
            site="h",
            kind="first",
            url="http://h/a?final",
            request_url="http://h/a",
            status=200,
            headers={},
            body=body.encode(),
            fetched_at=NOW,
            article_url="http://h/a",
        ),
        offsets=[2, 4],
    )
    assert sid == again  # idempotent on (article, fetched_at)
    snap = store.db.execute("SELECT body, body_size, headers, kind, url FROM snapshots").fetchall()
    assert len(snap) == 1
    blob, size, headers, kind, url = snap[0]
    assert gzip.decompress(blob).decode() == body and gunzip_body(blob) == body.encode()
    assert url == "http://h/a?final"
    assert len(blob) < size and json.loads(headers) == {"Content-Type": ["text/html"]} and kind == "first"
    art = store.article("http://h/a")
    assert art is not None and art["state"] == "active"
    assert from_iso(art["next_fetch_at"]) == pytest.approx(NOW - 1 + 2)  # relative to publication
    assert store.due_articles([FEED], NOW) == []
    assert store.due_articles([FEED], NOW + 1) != []
    store.save_page(
        PageRecord(
            site="h",
            kind="refetch",
            url="http://h/a",
            request_url="http://h/a",
            status=200,
            headers={},
            body=b"x",
            fetched_at=NOW + 1.5,
            article_url="http://h/a",
        ),
        offsets=[2, 4],
    )
    art = store.article("http://h/a")
    assert art is not None and from_iso(art["next_fetch_at"]) == pytest.approx(NOW - 1 + 4)
    assert store.skip_refetch("http://h/a", NOW + 3.5, [2, 4]) is None  # past the last offset: done
    art = store.article("http://h/a")
    assert art is not None and art["state"] == "done" and art["next_fetch_at"] is None
    assert art["fetches"] == 3 and art["refetches_skipped"] == 1
    assert store.due_articles([FEED], NOW + 10**6) == []


def test_next_due_and_article_failures(store: StoreBackend) -> None:
    assert store.next_due([FEED]) == 0.0  # never polled: due now
    store.record_feed_ok(
        FEED, now=NOW, status=200, next_check=NOW + 600, interval=600, new_articles=[article("http://h/a")]
    )
    assert store.next_due([FEED]) == 0.0  # a never-tried first fetch is always due
    store.record_article_failure(
        "http://h/a",
        now=NOW,
        status=503,
        error="HTTP 503",
        next_fetch_at=NOW + 60,
        state="pending",
        failures=1,
    )
    assert store.next_due([FEED]) == pytest.approx(NOW + 60)
    store.record_article_failure(
        "http://h/a", now=NOW, status=404, error="HTTP 404", next_fetch_at=None, state="failed", failures=5
    )
    assert store.next_due([FEED]) == pytest.approx(NOW + 600)
    assert store.next_due([]) is None


def test_readers_are_not_blocked_by_an_open_write(store: StoreBackend, fresh_db: str) -> None:
    with open_store(fresh_db, read_only=True) as reader, store.transaction() as db:
        db.execute("UPDATE feeds SET title = 'x'")
        # SQLite's WAL, PostgreSQL's MVCC: no lock wait, and the reader sees the committed state
        assert reader.db.execute("SELECT COUNT(*), MAX(title) FROM feeds").fetchone() == (1, None)


def page(url: str = "http://h/a", **kw: object) -> PageItem:
    base: dict = {
        "site": "h",
        "feed_url": FEED,
        "article_url": url,
        "url": url,
        "status": 200,
        "headers": {"Content-Type": ["text/html"]},
        "body": b"<html>hi</html>",
        "fetched_at": NOW,
        "kind": "first",
    }
    return PageItem(**{**base, **kw})


def test_persist_pipeline_commits_before_passing_on(tmp_path: Path) -> None:
    db = tmp_path / "blogs.db"
    with Store(db) as s:
        s.sync_feeds([(FEED, "h")], NOW)
        s.record_feed_ok(
            FEED, now=NOW, status=200, next_check=NOW + 60, interval=60, new_articles=[article("http://h/a")]
        )
    pipe = PersistPagePipeline(db_path=str(db), refetch_after=[3600.0])
    pipe.open_spider()
    out = pipe.process_item(page())
    # Committed: another connection sees it while the pipeline is still open.
    other = sqlite3.connect(db)
    assert other.execute("SELECT id, kind FROM snapshots").fetchall() == [(out.snapshot_id, "first")]
    assert other.execute("SELECT state, first_fetched_at FROM articles").fetchall() == [("active", to_iso(NOW))]
    assert pipe.process_item({"not": "a page"}) == {"not": "a page"}
    with pytest.raises(DropItem):  # unknown article: the foreign key refuses it, later pipelines never see it
        pipe.process_item(page("http://h/unknown"))
    pipe.close_spider()
