"""A host that does not answer for its robots.txt is down for the run: its requests fail at once
with a reason saved in the store, instead of each waiting out its own timeout and retries
(crawler.robots); the live blogs beside it are harvested as usual."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, write_feeds

from farm import BlogFarm

pytestmark = pytest.mark.slow

HOUR = 3600.0


def test_a_host_silent_on_robots_txt_fails_its_feed_at_once_and_the_others_go_on(
    farm: BlogFarm, tmp_path: Path
) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    live = farm.add_generated_blog("live", articles=3, start=t0 - 3 * HOUR, interval=HOUR, seed=1)
    dead = farm.add_generated_blog("dead", articles=3, start=t0 - 3 * HOUR, interval=HOUR, seed=2)
    farm.misbehave("/robots.txt", "slow", site=dead, delay=30)
    feeds = write_feeds(tmp_path / "feeds.txt", [live.feed_line(), dead.feed_line()])
    db = tmp_path / "blogs.db"
    result = run_crawl(feeds, db, settings={"BLOGS_ROBOTS_TIMEOUT": "1"}, clock=farm.clock, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]  # one feed of two harvested
    errors = dict(rows(db, "SELECT url, last_error FROM feeds WHERE failures > 0"))
    assert list(errors) == [dead.feed_url]
    assert "did not answer in this run" in errors[dead.feed_url] and "robots.txt" in errors[dead.feed_url]
    assert rows(db, "SELECT COUNT(*) FROM feeds WHERE mute_reason IS NOT NULL") == [(0,)]  # not "forbidden"
    # Nothing but its robots.txt was asked for (the farm logs a request when it is answered, and
    # that one is still waiting): no feed request, no retry.
    assert [r.path for r in farm.requests if r.site == dead.name and r.path != "/robots.txt"] == []
    assert [r.path for r in farm.requests if r.site == live.name][:2] == ["/robots.txt", "/feed/"]
    assert rows(db, "SELECT COUNT(*) FROM snapshots") == [(len(live.articles),)]
