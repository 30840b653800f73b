"""What a crawl tells its user (issue 33): what `-a unmute=` unmuted, the harvest line instead of
Scrapy's "Crawled N pages", watch mode's next wake-up at INFO.

Real `scrapy crawl blogs` subprocesses against the local farm.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, start_crawl, stop, wait_for, write_feeds

from farm import BlogFarm

pytestmark = pytest.mark.slow

HOUR = 3600.0


def test_unmute_says_what_it_unmuted_and_a_mistyped_name_is_refused(farm: BlogFarm, tmp_path: Path) -> None:
    farm.clock.set(time.time())
    gone = farm.add_site("gone")
    farm.misbehave(gone.feed_url, "status", status=410)
    blog = farm.add_generated_blog("blog", articles=2, start=farm.clock.now() - 2 * HOUR, interval=HOUR, seed=3)
    feeds = write_feeds(tmp_path / "feeds.txt", [gone.feed_line(), blog.feed_line()])
    db = tmp_path / "blogs.db"

    first = run_crawl(feeds, db, clock=farm.clock)
    assert first.returncode == 0, first.stderr[-3000:]
    reason = rows(db, "SELECT mute_reason FROM feeds WHERE site = 'gone'")[0][0]
    assert reason

    typo = run_crawl(feeds, db, "-a", "unmute=gon", clock=farm.clock)
    assert typo.returncode == 2 and "Traceback" not in typo.stderr, typo.stderr[-3000:]
    assert (
        f"Cannot crawl: spider argument -a unmute='gon' names no feed URL or site of {feeds} (did you mean gone?)"
        in (typo.stderr)
    )
    assert rows(db, "SELECT muted_at IS NOT NULL FROM feeds WHERE site = 'gone'") == [(1,)]

    farm.behave(gone.feed_url)
    farm.add_route(gone, "/feed/", "<rss version='2.0'><channel><title>back</title></channel></rss>")
    revived = run_crawl(feeds, db, "-a", "unmute=all", clock=farm.clock)
    assert revived.returncode == 0, revived.stderr[-3000:]
    assert f"Unmuted 1 feed(s), polled again now: {gone.feed_url} ({reason})" in revived.stderr
    again = run_crawl(feeds, db, "-a", "unmute=gone", clock=farm.clock)
    assert "unmute=gone: none of its 1 feed(s) was muted" in again.stderr


def test_watch_mode_logs_the_harvest_line_and_its_next_wake_up(farm: BlogFarm, tmp_path: Path) -> None:
    farm.clock.set(time.time())
    for i in range(2):
        farm.add_generated_blog(f"blog{i}", articles=3, start=farm.clock.now() - 3 * HOUR, interval=HOUR, seed=i)
    feeds = write_feeds(tmp_path / "feeds.txt", farm.feed_lines())
    log = tmp_path / "crawl.log"
    proc = start_crawl(
        feeds,
        tmp_path / "blogs.db",
        "-a",
        "watch=1",
        settings={"BLOGS_PROGRESS_INTERVAL": "0.5", "BLOGS_REFETCH_AFTER": "7d"},
        clock=farm.clock,
        log=log,
    )
    try:
        # Once every article is stored, the harvest line counts them and the watch sleeps long.
        def settled() -> bool:
            text = log.read_text(encoding="utf-8", errors="replace")
            return "articles fetched 6," in text and "Watch mode: nothing due; next wake-up in" in text

        assert wait_for(settled, timeout=120), log.read_text()[-3000:]
    finally:
        stop(proc, signal.SIGTERM)
    text = log.read_text(encoding="utf-8")
    harvest = [line for line in text.splitlines() if "[blogs] INFO: Harvest: " in line]
    assert harvest and "feeds polled 2 (failed 0)" in harvest[-1] and "failing 0, muted 0" in harvest[-1]
    assert [line for line in text.splitlines() if "INFO: Watch mode: nothing due; next wake-up in" in line]
    assert "Crawled " not in text  # Scrapy's LogStats is replaced
