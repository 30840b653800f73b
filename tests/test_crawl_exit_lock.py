"""A second crawl on a store in use refuses before anything opens it: exit 3, one line, no write.

The first run is played by the test process itself: it holds the run lock, as a crawl does, and
an open write transaction on the store, as a crawl in the middle of a long write does (a second
run that opened the store would wait for the busy timeout, then crash on "database is locked").
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
from pathlib import Path

import pytest
from crawl_helpers import run_crawl, write_feeds
from test_crawl_exit_codes import assert_one_clear_line

from farm import BlogFarm
from store.lockfile import RunLock

pytestmark = pytest.mark.slow

HOUR = 3600.0


def files(directory: Path) -> dict[str, str]:
    """Name -> SHA-256 of every file in `directory`."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(directory.iterdir())}


def test_second_run_on_a_store_in_use_exits_3_in_one_line_and_writes_nothing(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog("gen", articles=4, start=t0 - 4 * HOUR, interval=HOUR, seed=31)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    store_dir = tmp_path / "store"
    db = store_dir / "blogs.db"
    first = run_crawl(feeds, db, clock=farm.clock)
    assert first.returncode == 0, first.stderr[-3000:]

    lock = RunLock(f"{db}.lock")
    assert lock.acquire()
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")  # the "first run" is in the middle of a write
        writer.execute("UPDATE feeds SET title = title")
        dump = list(writer.iterdump())
        before = files(store_dir)
        farm.clear_log()

        second = run_crawl(feeds, db, "-a", "force=1", clock=farm.clock, timeout=120)

        assert second.returncode == 3, second.stderr[-3000:]
        line = assert_one_clear_line(second, f"Another crawl is using {db} (pid {os.getpid()} since ")
        assert line.endswith("this run exits without touching it")
        assert "database is locked" not in second.stderr
        assert farm.requests == []  # it fetched nothing
        assert files(store_dir) == before  # no write, not even a -wal or -shm file opened
        assert list(writer.iterdump()) == dump
    finally:
        writer.execute("ROLLBACK")
        writer.close()
        lock.release()
    assert second.stats == {}  # it never started a run
