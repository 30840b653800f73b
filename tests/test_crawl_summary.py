"""The run summary's comment counts after a crash (issue 32, item 7): the comments a run adds are
counted whatever the fetch times of their pages (pages a crashed run stored are extracted by the next)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, write_feeds

from farm import BlogFarm

pytestmark = pytest.mark.slow

HOUR = 3600.0


def test_comments_of_pages_left_by_an_earlier_run_are_counted(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog(
        "gen",
        articles=4,
        start=t0 - 2 * 86400,
        interval=HOUR,
        seed=5,
        comments_per_article=(2, 4),
        comment_delays=(600, 3600),
    )
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    settings = {"BLOGS_REFETCH_AFTER": "7d"}
    # The first run stores its pages and extracts nothing, as a run killed before its extraction.
    stored = run_crawl(feeds, db, settings={**settings, "BLOGS_EXTRACT_ENABLED": "False"}, clock=farm.clock)
    assert stored.returncode == 0 and stored.stat("pages_stored") == 4, stored.stderr[-3000:]
    assert rows(db, "SELECT COUNT(*) FROM comments") == [(0,)]

    farm.clock.advance(60)
    second = run_crawl(feeds, db, settings=settings, clock=farm.clock)
    assert second.returncode == 0, second.stderr[-3000:]
    ((total,),) = rows(db, "SELECT COUNT(*) FROM comments")
    assert total > 0
    assert second.stat("comments_new") == total  # every one of them came in this run
    assert f"comments new {total}," in second.stderr

    farm.clock.advance(60)
    third = run_crawl(feeds, db, settings=settings, clock=farm.clock)
    assert third.stat("comments_new") == 0 and "comments new 0," in third.stderr
