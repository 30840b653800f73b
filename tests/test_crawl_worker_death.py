"""Extraction workers die with their crawl (issue 32, item 6): a worker stuck in a write (here
stopped with SIGSTOP inside its write transaction, as one in a long C call cannot run its watch
thread) ends the moment the crawl is SIGKILLed, so it never writes after the crawl's lock is gone."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from breakpoints.sitecustomize import BATCH_WRITE_STOPPED
from crawl_helpers import rows, start_crawl, wait_for, write_feeds

from farm import BlogFarm

pytestmark = pytest.mark.slow

HOUR = 3600.0


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == pid and b"spawn_main" in cmdline:
                found.append(int(entry.name))
    return found


def _state(pid: int) -> str:
    """The process's state letter (R, S, T stopped, Z zombie; "" once it is gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    return _state(pid) not in ("", "Z")


def test_a_stuck_extraction_worker_dies_with_its_crawl(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog("gen", articles=6, start=t0 - 6 * HOUR, interval=HOUR, seed=31)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    log = tmp_path / "crawl.log"
    # The worker stops itself (SIGSTOP) inside its first batch's write transaction: a breakpoint
    # loaded from outside (tests/breakpoints); stopped, its own watch thread cannot run.
    settings = {"BLOGS_BATCH_SIZE": "5", "BLOGS_EXTRACT_MODE": "process"}
    workers: list[int] = []
    crawl = start_crawl(feeds, db, settings=settings, clock=farm.clock, log=log, breakpoint="batch-write")
    try:
        assert wait_for(lambda: BATCH_WRITE_STOPPED in log.read_text(errors="replace"), timeout=120), log.read_text(
            errors="replace"
        )[-3000:]
        workers = _children(crawl.pid)
        assert workers, "no extraction worker found"
        assert any(_state(pid) == "T" for pid in workers), "the writing worker is not stopped"
        crawl.kill()
        crawl.wait(timeout=10)
        assert wait_for(lambda: not any(_alive(pid) for pid in workers), timeout=10), "a worker outlived its crawl"
    finally:
        if crawl.poll() is None:
            crawl.kill()
            crawl.wait(timeout=10)
        for pid in workers:  # only if the test failed: the workers this test's crawl started
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert rows(db, "SELECT COUNT(*) FROM extractions") == [(0,)]  # the stuck write never landed
