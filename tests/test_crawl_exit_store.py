"""A full disk stops the crawl: one line, exit 4, nothing stored is lost, the rest comes next run.

The disk is real: a tmpfs of 1 MiB mounted for the test (needs root, else skipped), later
grown with `mount -o remount`. Extraction runs as by default: its jobs fail on the full store
too, and say nothing more (store.faults.store_fault in pipelines/extract.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, write_feeds
from test_crawl_exit_codes import last_line, log_lines

from farm import BlogFarm
from store.sqlite import Store

pytestmark = pytest.mark.slow

HOUR = 3600.0
ARTICLES = 80
SETTINGS = {"BLOGS_REFETCH_AFTER": "7d"}


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs; the test is skipped where mounting is not permitted."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs (a real full disk) needs root")
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True, text=True
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_full_disk_stops_the_crawl_keeps_what_is_stored_and_the_next_run_completes(
    farm: BlogFarm, small_disk: Path, tmp_path: Path
) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog(
        "gen", articles=ARTICLES, start=t0 - ARTICLES * HOUR, interval=HOUR, seed=41, feed_items=ARTICLES
    )
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = small_disk / "blogs.db"

    full = run_crawl(feeds, db, settings=SETTINGS, clock=farm.clock, timeout=120)

    assert full.returncode == 4, full.stderr[-3000:]
    assert "Traceback" not in full.stderr and "Task exception" not in full.stderr
    complaints = log_lines(full.stderr, "WARNING", "ERROR", "CRITICAL")
    assert len(complaints) == 2, complaints  # the fault and the summary, nothing else
    fault, summary = complaints
    # Storing the page, or batching a stored one for extraction: whichever write came first.
    assert re.search(f"ERROR: Cannot write the store {re.escape(str(db))} while (storing|processing) http://", fault)
    assert fault.endswith(
        ": database or disk is full; stopping the crawl (what is stored is kept, the rest is due again)"
    )
    assert summary == last_line(full)
    assert summary.endswith("; exit 4: stopped: the store could not be written (database or disk is full)")
    stored = {a for (a,) in rows(db, "SELECT article FROM snapshots")}
    assert 0 < len(stored) < ARTICLES // 2
    fetched = {a.url for a in blog.articles if farm.requests_for(a.url)}
    assert len(fetched) < ARTICLES // 2, "new fetches stopped at the first failed write"
    assert stored <= fetched
    assert f"pages stored {len(stored)} (not stored {len(fetched) - len(stored)})," in summary
    # What was not stored is still due: pending, never counted as a failure.
    states = dict(rows(db, "SELECT state = 'pending', COUNT(*) FROM articles GROUP BY 1"))
    assert states == {0: len(stored), 1: ARTICLES - len(stored)}
    assert rows(db, "SELECT COUNT(*) FROM articles WHERE state = 'pending' AND failures > 0") == [(0,)]
    kept = rows(db, "SELECT id, article, body_sha256 FROM snapshots ORDER BY id")
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]

    # Still full (what little the first run left free is taken too, so that where its last write
    # stopped does not matter): the next run stops at its first write, before fetching anything.
    disk = os.statvfs(small_disk)
    (small_disk / "filler").write_bytes(bytes(disk.f_bavail * disk.f_frsize))
    farm.clear_log()
    still = run_crawl(feeds, db, settings=SETTINGS, clock=farm.clock, timeout=120)
    assert still.returncode == 4, still.stderr[-3000:]
    assert "Traceback" not in still.stderr and "Task exception" not in still.stderr
    complaints = log_lines(still.stderr, "WARNING", "ERROR", "CRITICAL")
    assert len(complaints) == 2 and complaints[1] == last_line(still), complaints
    # Its first write fails: recording the run when SQLite needs a new block for it, else storing
    # the first page (a WAL file left by the first run can hold the run's row without a new
    # block); then fetching stops, as in the first run, with what was in flight.
    assert re.search(r"while (starting the run|storing http://\S+): database or disk is full", complaints[0])
    fetched_again = {a.url for a in blog.articles if farm.requests_for(a.url)}
    assert len(fetched_again) < ARTICLES // 2, "new fetches stopped at the first failed write"
    assert rows(db, "SELECT id, article, body_sha256 FROM snapshots ORDER BY id") == kept

    # Disk space again: the next run fetches exactly what was not stored, once.
    subprocess.run(["mount", "-o", "remount,size=64m", str(small_disk)], check=True)
    farm.clear_log()
    again = run_crawl(feeds, db, settings=SETTINGS, clock=farm.clock, timeout=120)
    assert again.returncode == 0, again.stderr[-3000:]
    assert rows(db, "SELECT id, article, body_sha256 FROM snapshots ORDER BY id")[: len(kept)] == kept
    assert rows(db, "SELECT COUNT(*), COUNT(DISTINCT article) FROM snapshots") == [(ARTICLES, ARTICLES)]
    for article in blog.articles:
        assert len(farm.requests_for(article.url)) == (0 if article.url in stored else 1), article.url


def test_full_disk_during_a_feed_poll_stops_the_crawl_in_one_line(
    farm: BlogFarm, small_disk: Path, tmp_path: Path
) -> None:
    """The write that fails is the spider's own (a feed's 500 new entries, in a callback)."""
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog("gen", articles=500, start=t0 - 500 * HOUR, interval=HOUR, seed=42, feed_items=500)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = small_disk / "blogs.db"
    subprocess.run(["mount", "-o", "remount,size=4m", str(small_disk)], check=True)
    Store(db).close()  # an empty store, then 100 KiB left: enough to start a run, not for 500 entries
    disk = os.statvfs(small_disk)
    (small_disk / "filler").write_bytes(bytes(disk.f_bavail * disk.f_frsize - 100 * 1024))

    result = run_crawl(feeds, db, settings=SETTINGS, clock=farm.clock, timeout=120)

    assert result.returncode == 4, result.stderr[-3000:]
    assert "Traceback" not in result.stderr and "Task exception" not in result.stderr
    complaints = log_lines(result.stderr, "WARNING", "ERROR", "CRITICAL")
    assert len(complaints) == 2 and complaints[1] == last_line(result), complaints
    assert f"while handling {blog.feed_url}: database or disk is full" in complaints[0]
    assert [r.path_only for r in farm.requests] == ["/robots.txt", "/feed/"]  # no article fetched
    assert rows(db, "SELECT COUNT(*) FROM articles") == [(0,)]  # the poll's transaction rolled back
    assert rows(db, "SELECT last_polled_at FROM feeds") == [(None,)]  # so the feed is due again
