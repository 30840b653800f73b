"""Re-fetches survive a clock step back (issue 32, item 8): a run whose clock is behind the last
run's (an NTP step, a VM restored from a snapshot) schedules by the last run's time, so what was
already due is not held back. Real crawls against the farm, the step made with BLOGS_CLOCK_OFFSET."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from crawl_helpers import clock_offset, rows, run_crawl, write_feeds

from farm import BlogFarm
from store.clock import from_iso

pytestmark = pytest.mark.slow

HOUR = 3600.0
DAY = 86400.0


def test_a_clock_step_back_does_not_hold_back_due_refetches(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    early = farm.add_generated_blog("early", articles=1, start=t0 - 60, comments_per_article=(0, 0), seed=1)
    late = farm.add_generated_blog("late", articles=1, start=t0 - 30, comments_per_article=(0, 0), seed=2)
    both = write_feeds(tmp_path / "both.txt", [early.feed_line(), late.feed_line()])
    only_early = write_feeds(tmp_path / "early.txt", [early.feed_line()])
    db = tmp_path / "blogs.db"
    settings = {"BLOGS_REFETCH_AFTER": "1h,1d"}
    late_due = late.articles[0].published + HOUR

    assert run_crawl(both, db, settings=settings, clock=farm.clock).returncode == 0  # first fetches
    # An hour later a run for the early blog only: its clock passes the late blog's re-fetch time.
    farm.clock.set(t0 + HOUR + 60)
    assert run_crawl(only_early, db, settings=settings, clock=farm.clock).returncode == 0
    last_clock = max(from_iso(t) or 0.0 for (t,) in rows(db, "SELECT finished_at FROM runs"))
    assert last_clock > late_due

    # The next run's clock is 2 minutes behind: before the late blog's re-fetch time.
    farm.clear_log()
    behind = {**settings, "BLOGS_CLOCK_OFFSET": f"{clock_offset(farm.clock) - 120:.3f}"}
    assert farm.clock.now() - 120 < late_due
    result = run_crawl(both, db, settings=behind, clock=farm.clock)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "The clock is" in result.stderr and "behind the last run's" in result.stderr
    assert farm.requests_for(late), "the due re-fetch was held back"
    (next_fetch,) = rows(db, "SELECT next_fetch_at FROM articles WHERE site = 'late'")[0]
    assert (from_iso(next_fetch) or 0.0) == pytest.approx(late.articles[0].published + DAY, abs=1)
