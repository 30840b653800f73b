"""Runs as cron makes them: overlapping runs, a run killed with SIGKILL, a machine offline."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, rows, run_crawl, start_crawl, stop, wait_for, write_feeds

from farm import BlogFarm

pytestmark = pytest.mark.slow

HOUR = 3600.0


def test_overlapping_runs_do_not_double_fetch(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog("gen", articles=6, start=t0 - 6 * HOUR, interval=HOUR, seed=21)
    farm.misbehave("/20", "slow", prefix=True, delay=0.7)  # article pages take a while
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    log = tmp_path / "first.log"
    first = start_crawl(feeds, db, clock=farm.clock, log=log)
    try:
        assert wait_for(
            lambda: bool(farm.requests_for(blog.articles[0].url)) or bool(farm.requests_for(blog.articles[-1].url)),
            timeout=30,
        ), log.read_text()[-2000:]
        second = run_crawl(feeds, db, "-a", "force=1", clock=farm.clock)
        assert second.returncode == 3, second.stderr[-3000:]  # crawler.outcome.EXIT_LOCKED
        last = second.stderr.rstrip().splitlines()[-1]
        assert "ERROR: Another crawl is using" in last and last.endswith("this run exits without touching it")
        assert "Traceback" not in second.stderr
        assert second.stats == {}  # it never started a run
        assert first.poll() is None, "the first run was still going while the second gave up"
    finally:
        assert stop(first, None, timeout=60) == 0  # let it finish
    assert len(farm.requests_for(blog.feed_url)) == 1
    for article in blog.articles:
        assert len(farm.requests_for(article.url)) == 1, article.url
    assert rows(db, "SELECT COUNT(*), COUNT(DISTINCT article) FROM snapshots") == [(6, 6)]
    print(f"locked-out run took {second.elapsed:.1f}s")


def test_kill_9_mid_run_loses_nothing_and_fetches_nothing_twice(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog("gen", articles=16, start=t0 - 16 * HOUR, interval=HOUR, seed=22)
    farm.misbehave("/20", "slow", prefix=True, delay=0.4)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    log = tmp_path / "killed.log"
    victim = start_crawl(feeds, db, clock=farm.clock, log=log)
    stored = lambda: {a for (a,) in rows(db, "SELECT article FROM snapshots")}  # noqa: E731
    try:
        assert wait_for(lambda: len(stored()) >= 4, timeout=60), log.read_text()[-2000:]
    finally:
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=10)
    killed_at = time.time()
    before = stored()
    assert 4 <= len(before) < 16, "killed in the middle"

    result = run_crawl(feeds, db, clock=farm.clock)
    assert result.returncode == 0, result.stderr[-3000:]  # the lock died with the killed process
    assert rows(db, "SELECT COUNT(*), COUNT(DISTINCT article) FROM snapshots") == [(16, 16)], result.stderr[-3000:]
    assert rows(db, "SELECT COUNT(*) FROM articles WHERE state = 'pending'") == [(0,)]
    for article in blog.articles:
        later = [r for r in farm.requests_for(article.url) if r.wall_time > killed_at]
        if article.url in before:
            assert later == [], f"{article.url} was stored before the kill and fetched again"
        else:
            assert len(later) == 1, article.url
    assert not [r for r in farm.requests_for(blog.feed_url) if r.wall_time > killed_at]  # not due yet


def test_offline_machine_run_ends_quickly_with_a_summary(tmp_path: Path) -> None:
    """`make run` without internet: feeds.txt's real hosts fail DNS at once (simulated: the test
    resolver refuses every non-loopback name, so nothing leaves the machine)."""
    result = run_crawl(PROJECT / "feeds.txt", tmp_path / "blogs.db", timeout=120)
    assert result.returncode == 1, result.stderr[-3000:]  # every feed failed: crawler.outcome.EXIT_FAILED
    last = result.stderr.rstrip().splitlines()[-1]
    assert "ERROR: Run summary: feeds ok 0 (not modified 0)" in last and "; exit 1: every feed failed" in last
    listed = len(rows(tmp_path / "blogs.db", "SELECT url FROM feeds"))
    assert listed >= 1
    assert result.stat("feeds_failed") == listed == result.stat("feeds_failed/dns")
    assert "Traceback" not in result.stderr
    print(f"offline run took {result.elapsed:.1f}s")
