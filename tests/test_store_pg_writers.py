"""PostgreSQL writers side by side (issue 32 item 4): no store-wide write lock, a per-site lock for
read-then-write steps, and statements that outlive a server restart. A real private server."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import psycopg
import pytest

from farm.postgres import PostgresServer
from store import PostgresStore, open_store
from store.pages import PageRecord

T0 = 1_800_000_000.0


def _article(site: str, n: int) -> dict[str, object]:
    url = f"http://{site}.test/{n}/"
    return {
        "url": url,
        "site": site,
        "entry_id": url,
        "guid": None,
        "link": url,
        "title": None,
        "author": None,
        "published": None,
        "comment_rss": None,
        "slash_comments": None,
    }


@pytest.fixture
def store_url(pg_server: PostgresServer) -> Iterator[str]:
    url = pg_server.new_database()
    with open_store(url) as store:
        for site in ("a", "b"):
            feed = f"http://{site}.test/feed/"
            store.sync_feeds([(feed, site)], T0)
            store.record_feed_ok(
                feed, now=T0, status=200, next_check=T0 + 600, interval=600, new_articles=[_article(site, 1)]
            )
    yield url
    pg_server.drop_database(url)


def _waiting_on_a_lock(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
    return bool(row and row[0])


def _save(store: PostgresStore, site: str, done: list[int]) -> None:
    done.append(
        store.save_page(
            PageRecord(
                article_url=f"http://{site}.test/1/",
                site=site,
                kind="first",
                url=f"http://{site}.test/1/",
                request_url=f"http://{site}.test/1/",
                status=200,
                headers={},
                body=b"<html></html>",
                fetched_at=T0 + 60,
            ),
            offsets=[3600.0],
        )
    )


def _outcome(url: str, thread: threading.Thread, done: list[int]) -> str:
    """'done' once the writer finished, 'waits' once PostgreSQL shows it waiting on a lock."""
    deadline = time.monotonic() + 120  # a guard against a hang, not a measure
    while time.monotonic() < deadline:
        if done:
            return "done"
        if _waiting_on_a_lock(url):
            return "waits"
        thread.join(0.05)
    return "neither"


def test_a_writer_holding_one_site_does_not_hold_another_sites_writes(store_url: str) -> None:
    """A transaction left open on site a (a worker paused inside its write) holds only site a:
    a page of site b is stored meanwhile; a step on site a waits for it, and then goes on."""
    with open_store(store_url) as paused, open_store(store_url) as other:
        assert isinstance(other, PostgresStore)
        with paused.transaction() as db:
            db.lock_sites(["a"])
            db.execute("UPDATE articles SET title = 'paused' WHERE site = 'a'")
            done: list[int] = []
            writer = threading.Thread(target=_save, args=(other, "b", done))
            writer.start()
            assert _outcome(store_url, writer, done) == "done"
            writer.join()
            same_site: list[int] = []
            blocked = threading.Thread(target=_save, args=(other, "a", same_site))
            blocked.start()
            # Its article row is the paused transaction's: it waits rather than writing beside it.
            assert _outcome(store_url, blocked, same_site) == "waits"
        blocked.join(timeout=120)
        assert same_site and done
        assert other.db.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] == 2


def test_a_site_lock_another_session_holds_is_skipped_when_asked(store_url: str) -> None:
    with open_store(store_url) as first, open_store(store_url) as second, first.transaction() as db:
        assert db.lock_sites(["b", "a"]) == ["a", "b"]
        with second.transaction() as db2:
            assert db2.lock_sites(["a", "c"], wait=False) == ["c"]


def test_statements_and_writes_go_on_after_a_server_restart(pg_server: PostgresServer, store_url: str) -> None:
    """The pool's connections die with the server; the next statement and the next write reconnect."""
    with open_store(store_url) as store:
        assert store.article("http://a.test/1/") is not None
        pg_server.restart()
        assert store.article("http://b.test/1/") is not None  # a read on a new connection
        done: list[int] = []
        _save(store, "a", done)
        assert done and store.article("http://a.test/1/")["state"] in ("active", "done")  # type: ignore[index]
