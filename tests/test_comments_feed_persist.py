"""Comment feeds are persisted before they are processed, and failed extraction jobs are retried:
a crawl killed with SIGKILL while a comment-feed job waits loses nothing, and a worker process
that dies in its job does not lose the job."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, run_stats, start_crawl, stop, wait_for, write_feeds
from test_store_schema import NOW, add_page

from crawler.items import CommentFeedItem
from farm import BlogFarm
from jobs.commentfeeds import process_comment_feed
from store.sqlite import Store

HOUR = 3600.0
URL = "http://h/a/"
FEED = (
    b'<?xml version="1.0"?><rss version="2.0"><channel><title>Comments on: a</title>'
    b"<item><title>By: Ann</title><guid>http://h/a/#comment-1</guid><link>http://h/a/#comment-1</link>"
    b"<pubDate>Sat, 15 Jan 2027 08:00:00 +0000</pubDate><description>Nice post</description></item>"
    b"</channel></rss>"
)


def test_a_stored_comment_feed_is_processed_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "blogs.db")
    add_page(store, URL, b"<p>page</p>")
    item = CommentFeedItem("h", URL, URL + "feed/", FEED, {"content-type": "application/rss+xml"}, NOW)
    with store.transaction():
        first = store.save_comment_feed(item)
        assert store.save_comment_feed(item) == first  # the same fetch is stored once
    assert store.unprocessed_comment_feeds(3) == [first]
    assert store.db.execute("SELECT COUNT(*) FROM feed_comments").fetchone() == (0,)
    with store.transaction():
        store.record_comment_feed_failure(first, "its worker process died")
    assert store.unprocessed_comment_feeds(1) == []  # failed too often for a run to retry it
    with store.transaction():
        assert process_comment_feed(store, first, NOW + 1) == ("h", 1)
        assert process_comment_feed(store, first, NOW + 2) is None  # twice is harmless
    row = store.db.execute("SELECT entries, attempts, error FROM comment_feed_fetches").fetchone()
    assert row == (1, 1, None)
    assert [r["text"] for r in store.db.query("SELECT text FROM feed_comments")] == ["Nice post"]
    assert store.unprocessed_comment_feeds(3) == []
    store.close()


def _blog(farm: BlogFarm, t0: float):  # type: ignore[no-untyped-def]
    # Comments arrive 10-40 minutes after publication: the 1 h re-fetch reads changed comment feeds.
    return farm.add_generated_blog(
        "gen", articles=12, start=t0 - 600, interval=30, seed=4, comments_per_article=(2, 3), comment_delays=(600, 2400)
    )


def extraction_workers(crawl: int) -> list[int]:
    """Pids of the crawl's extraction worker processes (multiprocessing's spawned children)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
        if parent == crawl and b"spawn_main" in command:
            found.append(int(entry.name))
    return found


def stop_workers_at_birth(crawl: subprocess.Popen[bytes]) -> list[int]:
    """SIGSTOP the crawl's extraction workers as soon as they exist: a spawned worker imports for a
    while before it takes its first job, so none runs until the test lets it (or kills it)."""
    assert wait_for(lambda: bool(extraction_workers(crawl.pid)) or crawl.poll() is not None, 60, interval=0.005)
    workers = extraction_workers(crawl.pid)
    for pid in workers:
        os.kill(pid, signal.SIGSTOP)
    assert workers, "the crawl started no extraction worker"
    return workers


def kill(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
def test_comment_feeds_survive_a_kill_before_their_job_runs(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = _blog(farm, t0)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    settings = {"BLOGS_REFETCH_AFTER": "1h,1d", "BLOGS_EXTRACT_MODE": "process"}
    first = run_crawl(feeds, db, settings=settings, clock=farm.clock)
    assert first.returncode == 0, first.stderr[-3000:]
    farm.clock.set(t0 + HOUR + 60)
    log = tmp_path / "crawl.log"
    # The re-fetch run's extraction worker is stopped at birth, so no comment-feed job can run:
    # the run is killed once the re-fetches' comment feeds are in the store.
    proc = start_crawl(feeds, db, settings=settings, clock=farm.clock, log=log)
    workers: list[int] = []
    try:
        workers = stop_workers_at_birth(proc)
        unprocessed = "SELECT id, article FROM comment_feed_fetches WHERE processed_at IS NULL"
        assert wait_for(lambda: len(rows(db, unprocessed)) >= 3, timeout=60), log.read_text(errors="replace")[-3000:]
        stored = rows(db, unprocessed)
    finally:
        stop(proc, signal.SIGKILL)
        kill(workers)
    assert rows(db, "SELECT COUNT(*) FROM feed_comments")[0][0] == 0  # no job had stored entries
    # The next run parses what the killed run persisted, whatever it fetches itself.
    again = run_crawl(feeds, db, settings=settings, clock=farm.clock)
    assert again.returncode == 0, again.stderr[-3000:]
    ids = [i for i, _a in stored]
    marks = ",".join("?" for _ in ids)
    processed = rows(db, f"SELECT entries FROM comment_feed_fetches WHERE id IN ({marks})", ids)
    assert len(processed) == len(ids) and all(n and n > 0 for (n,) in processed), processed
    with_entries = rows(
        db, f"SELECT COUNT(DISTINCT article) FROM feed_comments WHERE article IN ({marks})", [a for _i, a in stored]
    )
    assert with_entries == [(len({a for _i, a in stored}),)]


@pytest.mark.slow
def test_a_job_whose_worker_dies_is_retried(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = _blog(farm, t0)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    log = tmp_path / "crawl.log"
    proc = start_crawl(feeds, db, settings={"BLOGS_EXTRACT_MODE": "process"}, clock=farm.clock, log=log)
    workers: list[int] = []
    try:
        workers = stop_workers_at_birth(proc)
        # The first batch (10 pages) is handed to the stopped worker; then the worker dies.
        assert wait_for(lambda: rows(db, "SELECT COUNT(*) FROM snapshots")[0][0] >= 10, timeout=60)
        time.sleep(0.5)
        kill(workers)
        assert stop(proc, None, timeout=120) == 0, log.read_text(errors="replace")[-3000:]
    finally:
        if proc.poll() is None:
            stop(proc, signal.SIGKILL)
        kill(workers)
    stderr = log.read_text(errors="replace")
    stats = run_stats(db)
    assert int(stats.get("blogs/extract/job_retries", 0)) >= 1, stderr[-3000:]
    assert int(stats.get("blogs/extract/job_gave_up", 0)) == 0
    assert "retrying" in stderr
    # Nothing was lost: every stored page was extracted in this very run.
    assert rows(db, "SELECT COUNT(*) FROM snapshots")[0][0] == 12
    assert rows(db, "SELECT COUNT(*) FROM extractions")[0][0] == 12
    assert rows(db, "SELECT state, COUNT(*) FROM batches GROUP BY state") == [("done", 1), ("open", 1)]
