"""End to end: `scrapy crawl blogs` subprocesses against the local blog farm, real SQLite files.

Farm and crawler share one controlled clock: the farm's `Clock` is frozen and moved by the test,
and each crawl gets BLOGS_CLOCK_OFFSET so that its clock reads like the farm's.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, write_feeds

from farm import BlogFarm, FarmSite

pytestmark = pytest.mark.slow

HOUR = 3600.0


def page_requests(farm: BlogFarm, site: FarmSite) -> dict[str, list]:
    """Article URL -> the farm's records of requests for that article page."""
    return {a.url: farm.requests_for(a.url) for a in site.articles}


def test_first_run_fetches_each_article_once_second_run_gets_304(farm: BlogFarm, tmp_path: Path, fresh_db: str) -> None:
    """Once on each backend (conftest.fresh_db): a SQLite file, a PostgreSQL database."""
    t0 = time.time()
    farm.clock.set(t0)
    rss = farm.add_generated_blog("rss", articles=12, start=t0 - 12 * HOUR, interval=HOUR, seed=3)
    atom = farm.add_generated_blog("atom", articles=5, start=t0 - 5 * HOUR, interval=HOUR, seed=4, feed_format="atom")
    future = farm.add_generated_blog("later", articles=3, start=t0 - HOUR, interval=2 * HOUR, seed=5)
    feeds = write_feeds(tmp_path / "feeds.txt", [rss.feed_line(), atom.feed_line(), future.feed_line()])
    db = fresh_db
    settings = {"BLOGS_REFETCH_AFTER": "7d"}  # no re-fetch falls due during this test

    first = run_crawl(feeds, db, settings=settings, clock=farm.clock)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "Run summary" in first.stderr
    published = [a for s in (rss, atom, future) for a in s.articles if a.published <= t0]
    assert len(published) == 12 + 5 + 1
    for article in published:
        got = farm.requests_for(article.url)
        assert [r.status for r in got] == [200], article.url
        assert "blog-harvester" in (got[0].user_agent or "") and "tests@example.invalid" in got[0].user_agent
    unpublished = [a for a in future.articles if a.published > t0]
    assert unpublished and not any(farm.requests_for(a.url) for a in unpublished)
    assert rows(db, "SELECT COUNT(*), COUNT(DISTINCT article) FROM snapshots WHERE kind = 'first'") == [(18, 18)]
    assert first.stat("articles_new") == 18 and first.stat("pages_stored") == 18
    assert first.stat("feeds_polled") == 3 and first.stat("feeds_failed") == 0
    # Predicted poll interval (issue 32): hourly feeds whose newest entry is an hour old, and a feed
    # with one entry an hour old, may get their next entry any time: the 5-minute floor.
    assert dict(rows(db, "SELECT site, interval FROM feeds")) == {"rss": 300, "atom": 300, "later": 300}
    # Every page extracted: the full batch of rss as a set, the rest provisionally at the end of the run.
    assert rows(db, "SELECT COUNT(*) FROM posts") == [(18,)]
    assert dict(rows(db, "SELECT method, COUNT(*) FROM extractions GROUP BY method ORDER BY method")) == {
        "batch": 10,
        "profile": 2,
        "provisional": 6,
    }

    farm.clear_log()
    second = run_crawl(feeds, db, "-a", "force=1", settings=settings, clock=farm.clock)
    assert second.returncode == 0
    feed_polls = [r for r in farm.requests if r.path_only.endswith("/feed/")]
    assert len(feed_polls) == 3
    assert all(r.status == 304 and r.if_none_match for r in feed_polls)
    assert {r.path_only for r in farm.requests} <= {"/feed/", "/robots.txt"}  # no article fetched again
    assert second.stat("feeds_not_modified") == 3 and second.stat("pages_stored") == 0

    farm.clear_log()
    third = run_crawl(feeds, db, settings=settings, clock=farm.clock)  # nothing is due
    assert third.returncode == 0 and farm.requests == []
    print(f"runs took {first.elapsed:.1f}s, {second.elapsed:.1f}s, nothing due: {third.elapsed:.1f}s")


def test_article_published_between_runs_is_fetched_first_and_before_its_comments(
    farm: BlogFarm, tmp_path: Path
) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog(
        "gen",
        articles=6,
        start=t0 - 4 * HOUR,
        interval=HOUR,
        seed=11,
        comments_per_article=(1, 4),
        comment_delays=(600, 1800),
    )
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    assert run_crawl(feeds, db, clock=farm.clock).returncode == 0
    newcomer = blog.articles[5]
    assert not farm.requests_for(newcomer.url)

    farm.clock.set(newcomer.published + 5)  # published 5 s ago; earlier articles' 1 h re-fetches are due
    farm.clear_log()
    result = run_crawl(feeds, db, "-a", "force=1", clock=farm.clock)
    assert result.returncode == 0, result.stderr[-3000:]
    got = farm.requests_for(newcomer.url)
    assert len(got) == 1 and got[0].status == 200
    assert got[0].clock_time < min(c.time for c in newcomer.comments)  # captured before any comment
    # Ahead of everything else the run does: no re-fetch or comment-feed check precedes it.
    log = farm.requests
    first_index = log.index(got[0])
    others = [r for r in log if r.path_only not in ("/robots.txt", "/feed/", got[0].path_only)]
    assert others, "the earlier article's re-fetch was due in this run"
    assert all(log.index(r) > first_index for r in others)
    assert result.stat("articles_new") == 1
