"""The same pages give the same stored comments whatever the timing: crawls of one farm with
different concurrency and worker counts, and a crawl killed half-way and resumed, store the same
batches and the same `comments` table."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

import pytest
from crawl_helpers import rows, run_crawl, start_crawl, stop, wait_for, write_feeds

from farm import BlogFarm

pytestmark = pytest.mark.slow

ARTICLES = 30
BLOGS = (("alpha", "en", 11), ("beta", "ja", 12), ("gamma", "en", 13))
# A page whose fetch times out on a loaded machine is not what this test is about: wait and retry.
QUICK = {
    "AUTOTHROTTLE_ENABLED": "False",
    "DOWNLOAD_DELAY": "0",
    "BLOGS_BATCH_SIZE": "5",
    "DOWNLOAD_TIMEOUT": "60",
    "RETRY_TIMES": "2",
}
# One request at a time, one worker; then many at once (pages arrive in another order), two workers.
SERIAL = {**QUICK, "CONCURRENT_REQUESTS_PER_DOMAIN": "1", "BLOGS_EXTRACT_WORKERS": "1"}
PARALLEL = {**QUICK, "CONCURRENT_REQUESTS": "32", "CONCURRENT_REQUESTS_PER_DOMAIN": "16", "BLOGS_EXTRACT_WORKERS": "2"}


def _farm(farm: BlogFarm, tmp_path: Path) -> Path:
    # Every article and comment already published (some articles have none), as in bench/crawl_speed.py.
    start = farm.clock.now() - ARTICLES * 3600.0 - 2 * 86400
    lines = []
    for name, lang, seed in BLOGS:
        blog = farm.add_generated_blog(
            name, articles=ARTICLES, start=start, interval=3600.0, seed=seed, lang=lang, comments_per_article=(0, 4)
        )
        lines.append(blog.feed_line())
    return write_feeds(tmp_path / "feeds.txt", lines)


def _stored(db: Path) -> dict[str, Any]:
    return {
        "batches": rows(
            db,
            "SELECT b.site, group_concat(m.article, ' ') FROM batches b JOIN"
            " (SELECT * FROM batch_members ORDER BY batch, position) m ON m.batch = b.id"
            " WHERE b.state = 'done' GROUP BY b.id ORDER BY b.site, b.id",
        ),
        "comments": rows(
            db,
            "SELECT article, fingerprint, text, author, date, parent, position, gone_at IS NULL FROM comments"
            " ORDER BY article, fingerprint",
        ),
    }


def _crawl(feeds: Path, db: Path, farm: BlogFarm, settings: dict[str, str]) -> dict[str, Any]:
    result = run_crawl(feeds, db, settings=settings, clock=farm.clock, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert rows(db, "SELECT COUNT(*) FROM snapshots") == [(ARTICLES * len(BLOGS),)], result.stderr[-2000:]
    return _stored(db)


def test_identical_pages_give_identical_comments_whatever_the_timing(farm: BlogFarm, tmp_path: Path) -> None:
    feeds = _farm(farm, tmp_path)
    serial = _crawl(feeds, tmp_path / "serial.db", farm, SERIAL)
    assert len(serial["batches"]) == ARTICLES * len(BLOGS) // 5 and serial["comments"]
    # Batches hold articles in publication order, not in order of arrival.
    published = {url: t for url, t in rows(tmp_path / "serial.db", "SELECT url, published FROM articles")}
    for _site, members in serial["batches"]:
        times = [published[url] for url in members.split(" ")]
        assert times == sorted(times)
    parallel = _crawl(feeds, tmp_path / "parallel.db", farm, PARALLEL)
    assert parallel["batches"] == serial["batches"]
    assert parallel["comments"] == serial["comments"]


def test_a_crawl_killed_half_way_and_resumed_stores_the_same_comments(farm: BlogFarm, tmp_path: Path) -> None:
    feeds = _farm(farm, tmp_path)
    whole = _crawl(feeds, tmp_path / "whole.db", farm, PARALLEL)
    db = tmp_path / "killed.db"
    proc = start_crawl(feeds, db, settings=SERIAL, clock=farm.clock)
    try:
        half = ARTICLES * len(BLOGS) // 2
        assert wait_for(lambda: (rows(db, "SELECT COUNT(*) FROM snapshots") or [(0,)])[0][0] >= half, timeout=120)
    finally:
        stop(proc, signal.SIGKILL)
    time.sleep(0.5)
    resumed = _crawl(feeds, db, farm, PARALLEL)
    assert resumed["batches"] == whole["batches"]
    assert resumed["comments"] == whole["comments"]
