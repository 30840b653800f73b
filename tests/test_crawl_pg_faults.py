"""PostgreSQL workers that never stall each other (issue 32 items 4 and 5): real `scrapy crawl`
subprocesses, a real SIGSTOP inside a write transaction, a real server restart."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import time
from pathlib import Path

import psycopg
import pytest
from breakpoints.sitecustomize import BATCH_WRITE_STOPPED
from crawl_helpers import rows, start_crawl, stop, wait_for, write_feeds

from bench.crawl_workers import process_tree
from farm import BlogFarm
from farm.postgres import PostgresServer
from store.pglock import HOLDERS_SQL, RUN_LOCK_KEY

pytestmark = pytest.mark.slow

HOUR = 3600.0


def _open_transactions(url: str) -> set[tuple[int, object]]:
    """(backend pid, transaction start) of sessions idle inside a transaction."""
    with psycopg.connect(url, autocommit=True) as conn:
        found = conn.execute(
            "SELECT pid, xact_start FROM pg_stat_activity WHERE datname = current_database()"
            " AND state = 'idle in transaction'"
        ).fetchall()
    return {(r[0], r[1]) for r in found}


def _signal_tree(pid: int, sig: int) -> None:
    """`sig` to a crawl and its extraction processes (a paused machine stops them all)."""
    for each in process_tree(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(each, sig)


def test_a_worker_stopped_inside_a_write_does_not_stall_three_others(
    farm: BlogFarm, pg_server: PostgresServer, tmp_path: Path
) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blogs = [
        farm.add_generated_blog(f"p{i}", articles=3, start=t0 - 3 * HOUR, interval=HOUR, seed=200 + i) for i in range(8)
    ]
    farm.misbehave("/20", "slow", prefix=True, delay=0.3)
    feeds = write_feeds(tmp_path / "feeds.txt", [b.feed_line() for b in blogs])
    db = pg_server.new_database()
    common = {"BLOGS_LEASE_SITES": "1", "BLOGS_REFETCH_AFTER": "7d", "BLOGS_BATCH_SIZE": "2"}
    # The victim stops itself inside its first batch's write transaction (a worker paused in the
    # middle of it: a breakpoint loaded from outside, tests/breakpoints).
    victim_log = tmp_path / "victim.log"
    victim = start_crawl(
        feeds,
        db,
        settings={**common, "BLOGS_CONTACT": "mailto:victim@example.invalid"},
        clock=farm.clock,
        log=victim_log,
        breakpoint="batch-write",
    )
    others = []
    try:
        assert wait_for(lambda: BATCH_WRITE_STOPPED in victim_log.read_text(), timeout=120), victim_log.read_text()[
            -3000:
        ]
        _signal_tree(victim.pid, signal.SIGSTOP)
        paused = _open_transactions(db)
        assert paused, "the victim is stopped inside a write transaction"
        held = {s for (s,) in rows(db, "SELECT site FROM site_leases WHERE owner IS NOT NULL")}
        others = [
            start_crawl(
                feeds,
                db,
                settings={**common, "BLOGS_CONTACT": f"mailto:w{i}@example.invalid"},
                clock=farm.clock,
                log=tmp_path / f"w{i}.log",
            )
            for i in range(3)
        ]
        codes = [stop(p, sig=None, timeout=300) for p in others]
        # The others finished every site the victim does not hold while its transaction stayed open.
        still_open = _open_transactions(db)
    finally:
        for p in others:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=10)
        _signal_tree(victim.pid, signal.SIGCONT)
        _signal_tree(victim.pid, signal.SIGKILL)
        victim.wait(timeout=30)
    assert codes == [0, 0, 0], [(tmp_path / f"w{i}.log").read_text()[-2000:] for i in range(3)]
    assert paused <= still_open, "the victim's transaction was ended before the others were done"
    free = [b for b in blogs if b.name not in held]
    assert len(free) >= 6, held
    stored = {a for (a,) in rows(db, "SELECT article FROM snapshots")}
    for blog in free:
        for article in blog.articles:
            if article.published <= t0:
                assert article.url in stored, article.url
    assert rows(db, "SELECT COUNT(*) - COUNT(DISTINCT article) FROM snapshots") == [(0,)]


def test_a_server_restart_mid_crawl_loses_no_page_and_logs_no_traceback(
    farm: BlogFarm, pg_server: PostgresServer, tmp_path: Path
) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blogs = [
        farm.add_generated_blog(f"r{i}", articles=5, start=t0 - 5 * HOUR, interval=HOUR, seed=300 + i) for i in range(4)
    ]
    farm.misbehave("/20", "slow", prefix=True, delay=0.5)
    feeds = write_feeds(tmp_path / "feeds.txt", [b.feed_line() for b in blogs])
    db = pg_server.new_database()
    log = tmp_path / "crawl.log"
    crawl = start_crawl(feeds, db, settings={"BLOGS_REFETCH_AFTER": "7d"}, clock=farm.clock, log=log)
    try:
        assert wait_for(lambda: len(rows(db, "SELECT id FROM snapshots")) >= 3, timeout=120), log.read_text()[-3000:]
        pg_server.restart()
        # The restart ended the crawl lock's session: the crawl takes the lock again as it reconnects.
        holder = f"blog-harvester crawl {socket.gethostname()} pid {crawl.pid}"
        assert wait_for(lambda: holder in _lock_holders(db) or crawl.poll() is not None, timeout=120)
        assert holder in _lock_holders(db), log.read_text()[-3000:]
        code = stop(crawl, sig=None, timeout=300)
    finally:
        if crawl.poll() is None:
            crawl.kill()
            crawl.wait(timeout=10)
    text = log.read_text()
    assert code == 0, text[-3000:]
    assert "Traceback" not in text and "Unhandled error" not in text, text[-3000:]
    articles = [a.url for b in blogs for a in b.articles if a.published <= t0]
    assert rows(db, "SELECT COUNT(*), COUNT(DISTINCT article) FROM snapshots") == [(len(articles), len(articles))]
    assert rows(db, "SELECT COUNT(*) FROM posts") == [(len(articles),)]


def _lock_holders(url: str) -> list[str]:
    """application_name of the sessions holding the crawl lock (store.pglock)."""
    return [r[0] for r in rows(url, HOLDERS_SQL, [RUN_LOCK_KEY])]


WRITTEN = ("feeds", "articles", "snapshots", "runs", "site_leases", "batches", "extractions", "posts", "comments")


def _written(url: str) -> dict[str, tuple[int, str]]:
    """Each table's row count and a digest of its rows: any insert, update or delete changes it."""
    sql = "SELECT COUNT(*), md5(COALESCE(string_agg(t::text, '|' ORDER BY t::text), '')) FROM {} t"
    return {table: rows(url, sql.format(table))[0] for table in WRITTEN}


def test_a_crawl_whose_lock_a_reextract_took_during_a_restart_stops_writing(
    farm: BlogFarm, pg_server: PostgresServer, tmp_path: Path
) -> None:
    """The crawl is stopped (SIGSTOP) across the restart, so the reextract surely takes the lock first."""
    t0 = time.time()
    farm.clock.set(t0)
    blogs = [
        farm.add_generated_blog(f"l{i}", articles=5, start=t0 - 5 * HOUR, interval=HOUR, seed=500 + i) for i in range(3)
    ]
    farm.misbehave("/20", "slow", prefix=True, delay=0.5)
    feeds = write_feeds(tmp_path / "feeds.txt", [b.feed_line() for b in blogs])
    db = pg_server.new_database()
    log = tmp_path / "crawl.log"
    crawl = start_crawl(feeds, db, settings={"BLOGS_REFETCH_AFTER": "7d"}, clock=farm.clock, log=log)
    try:
        assert wait_for(lambda: len(rows(db, "SELECT id FROM snapshots")) >= 3, timeout=120), log.read_text()[-3000:]
        _signal_tree(crawl.pid, signal.SIGSTOP)
        pg_server.restart()
        with psycopg.connect(db, autocommit=True, application_name=f"blog-harvester reextract pid {os.getpid()}") as rx:
            assert rx.execute("SELECT pg_try_advisory_lock(%s)", [RUN_LOCK_KEY]).fetchone() == (True,)
            before = _written(db)
            _signal_tree(crawl.pid, signal.SIGCONT)
            code = stop(crawl, sig=None, timeout=300)
            after = _written(db)
    finally:
        if crawl.poll() is None:
            _signal_tree(crawl.pid, signal.SIGCONT)
            crawl.kill()
            crawl.wait(timeout=10)
    text = log.read_text()
    assert code == 4, text[-3000:]  # the store cannot be written (crawler.outcome.EXIT_STORE)
    assert after == before
    assert f"blog-harvester reextract pid {os.getpid()} holds it now" in text, text[-3000:]
    assert "Traceback" not in text and "Unhandled error" not in text, text[-3000:]


def test_pages_a_killed_worker_stored_and_never_extracted_get_their_posts(
    farm: BlogFarm, pg_server: PostgresServer, tmp_path: Path
) -> None:
    """Issue 35's articles without a post: a worker killed after storing a site's last pages and
    before extracting them leaves a site with nothing due, which no worker claims; the next worker
    to end its run extracts it (here: the state such a kill leaves, made from a finished crawl)."""
    t0 = time.time()
    farm.clock.set(t0)
    orphan = farm.add_generated_blog("orph", articles=3, start=t0 - 3 * HOUR, interval=HOUR, seed=400)
    db = pg_server.new_database()
    first = start_crawl(write_feeds(tmp_path / "one.txt", [orphan.feed_line()]), db, clock=farm.clock)
    assert stop(first, sig=None, timeout=300) == 0
    articles = rows(db, "SELECT COUNT(*) FROM posts")[0][0]
    assert articles == 3
    with psycopg.connect(db, autocommit=True) as conn:  # what the kill leaves: pages, no extraction
        conn.execute("DELETE FROM posts")
        conn.execute("DELETE FROM extractions")
        conn.execute("UPDATE site_leases SET owner = 'gone-host pid 999999 #dead0', expires_at = '9999'")
    other = farm.add_generated_blog("next", articles=2, start=t0 - 2 * HOUR, interval=HOUR, seed=401)
    log = tmp_path / "next.log"
    feeds = write_feeds(tmp_path / "two.txt", [orphan.feed_line(), other.feed_line()])
    survivor = start_crawl(feeds, db, settings={"BLOGS_REFETCH_AFTER": "7d"}, clock=farm.clock, log=log)
    assert stop(survivor, sig=None, timeout=300) == 0, log.read_text()[-3000:]
    assert rows(db, "SELECT COUNT(DISTINCT s.article) FROM snapshots s LEFT JOIN posts p ON p.url = s.article"
                    " WHERE p.url IS NULL") == [(0,)]  # fmt: skip
    assert rows(db, "SELECT COUNT(*) FROM posts") == [(5,)]
