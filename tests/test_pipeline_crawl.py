"""The pipelines inside real `scrapy crawl blogs` runs against the farm: a kill -9 in the middle of a batch
write, and comments accumulating over re-fetch runs (checked against the farm and the comment feeds)."""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from pathlib import Path

import pytest
from breakpoints.sitecustomize import BATCH_WRITE_STOPPED
from crawl_helpers import rows, run_crawl, start_crawl, wait_for, write_feeds

from farm import BlogFarm
from store.sqlite import Store

pytestmark = pytest.mark.slow

HOUR = 3600.0


def test_kill_9_during_a_batch_write_leaves_a_consistent_store_and_the_next_run_completes_it(
    farm: BlogFarm, tmp_path: Path
) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog("gen", articles=12, start=t0 - 12 * HOUR, interval=HOUR, seed=31)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    log = tmp_path / "killed.log"
    # The process writing the first batch stops itself inside its write transaction (a breakpoint
    # loaded from outside, tests/breakpoints): kill the whole run there.
    settings = {"BLOGS_BATCH_SIZE": "5", "BLOGS_EXTRACT_MODE": "process"}
    victim = start_crawl(feeds, db, settings=settings, clock=farm.clock, log=log, breakpoint="batch-write")
    try:
        assert wait_for(lambda: BATCH_WRITE_STOPPED in log.read_text(errors="replace"), timeout=120), log.read_text(
            errors="replace"
        )[-3000:]
        assert f"{BATCH_WRITE_STOPPED}: batch 1" in log.read_text(errors="replace")
    finally:
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait(timeout=10)
    assert wait_for(lambda: not _group_alive(victim.pid), timeout=5), "a process of the killed run survived"
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert conn.execute("SELECT state, members FROM batches WHERE id = 1").fetchone() == ("full", 5)
    for table in ("profiles", "extractions", "posts", "comments"):  # the batch write left nothing behind
        assert conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (0,), table
    stored = conn.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0]
    conn.close()
    assert stored >= 5

    result = run_crawl(feeds, db, settings={"BLOGS_BATCH_SIZE": "5"}, clock=farm.clock)
    assert result.returncode == 0, result.stderr[-3000:]
    assert rows(db, "SELECT id, state, profile_version FROM batches ORDER BY id") == [
        (1, "done", 1),
        (2, "done", 2),
        (3, "open", None),
    ]
    assert rows(db, "SELECT COUNT(*), COUNT(DISTINCT article) FROM snapshots") == [(12, 12)]
    assert rows(db, "SELECT method, COUNT(*) FROM extractions GROUP BY method ORDER BY method") == [
        ("batch", 10),
        ("profile", 2),
    ]
    assert rows(db, "SELECT COUNT(*) FROM posts") == [(12,)]
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_comments_accumulate_over_refetch_runs_and_agree_with_the_comment_feeds(farm: BlogFarm, tmp_path: Path) -> None:
    """Articles appear every half hour and collect comments for three hours; four cron-like runs
    ninety minutes apart (thread workers this time) re-fetch them."""
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog(
        "gen",
        articles=16,
        start=t0 - 6 * HOUR,
        interval=HOUR / 2,
        comments_per_article=(0, 5),
        comment_delays=(HOUR / 2, 3 * HOUR),
        seed=32,
    )
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    settings = {"BLOGS_BATCH_SIZE": "5", "BLOGS_EXTRACT_MODE": "thread", "BLOGS_REFETCH_AFTER": "1h,2h,3h,5h"}
    first_seen: dict[tuple[str, str], str] = {}
    for run in range(4):
        result = run_crawl(feeds, db, "-a", "force=1", settings=settings, clock=farm.clock)
        assert result.returncode == 0, result.stderr[-3000:]
        assert "Traceback" not in result.stderr, result.stderr[-3000:]
        now = {(a, f): s for a, f, s in rows(db, "SELECT article, fingerprint, first_seen FROM comments")}
        assert {k: now[k] for k in first_seen} == first_seen  # first_seen never moves
        first_seen = now
        if run < 3:
            farm.clock.advance(1.5 * HOUR)
    assert rows(db, "SELECT COUNT(*) FROM snapshots WHERE kind = 'refetch'")[0][0] >= 8
    with Store(db) as store:
        for article in blog.articles:
            post = store.db.execute("SELECT fetched_at, snapshot FROM posts WHERE url = ?", [article.url]).fetchone()
            if post is None:
                assert article.published > farm.clock.now()
                continue
            fetched = store.db.execute("SELECT fetched_at FROM snapshots WHERE id = ?", [post[1]]).fetchone()[0]
            at = time.mktime(time.strptime(fetched[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
            truth = sorted((c.author, " ".join(c.text.split())) for c in article.visible_comments(at + 1))
            got = store.db.execute(
                "SELECT author, text, first_seen <= last_seen FROM comments WHERE article = ? AND gone_at IS NULL",
                [article.url],
            ).fetchall()
            assert sorted((a, " ".join(t.split())) for a, t, _ok in got) == truth, article.url
            assert all(ok for *_x, ok in got)
        assert store.db.execute("SELECT COUNT(*) FROM comments WHERE gone_at IS NOT NULL").fetchone() == (0,)
        site = store.db.execute(
            "SELECT comment_feed_articles, comment_feed_exact, comment_feed_f1 FROM sites WHERE name = 'gen'"
        ).fetchone()
        assert site[0] >= 5 and site[1] == 1.0 and site[2] >= 0.95, site
        summary = store.sites()
        assert summary[0]["feed_check"].startswith(f"{site[0]} art., count 1.00")
    assert rows(db, "SELECT COUNT(*) FROM feed_comments")[0][0] > 0
