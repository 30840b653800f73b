"""Politeness to the letter (issue 32, item 2): Retry-After (seconds or a date) on 429 and 503
holds a site for pages and feeds alike, in this run and the next; robots.txt Crawl-delay is a
floor that RANDOMIZE_DOWNLOAD_DELAY does not undercut. Real crawls against the farm."""

from __future__ import annotations

import itertools
import time
from email.utils import formatdate
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, write_feeds

from crawler.schedule import parse_retry_after
from farm import BlogFarm

HOUR = 3600.0


def test_retry_after_seconds_and_dates() -> None:
    assert parse_retry_after("120", 1000.0) == 120.0
    assert parse_retry_after(formatdate(1000.0 + 600, usegmt=True), 1000.0) == 600.0
    assert parse_retry_after("soon", 1000.0) is None


@pytest.mark.slow
def test_a_throttled_page_holds_its_site_in_this_run_and_the_next(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog("gen", articles=5, start=t0 - 5 * HOUR, interval=HOUR, seed=1)
    throttled = blog.articles[0].url
    farm.misbehave(throttled, "status", status=429, retry_after=120, times=1)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    # Retries on (Scrapy retries a 429 at once), one request at a time, re-fetches out of the way.
    settings = {"RETRY_TIMES": "2", "CONCURRENT_REQUESTS_PER_DOMAIN": "1", "BLOGS_REFETCH_AFTER": "7d"}

    first = run_crawl(feeds, db, settings=settings, clock=farm.clock)
    assert first.returncode == 0, first.stderr[-3000:]
    log = farm.requests_for(blog)
    statuses = [(r.path_only, r.status) for r in log]
    at_429 = next(i for i, r in enumerate(log) if r.status == 429)
    assert len(farm.requests_for(throttled)) == 1, statuses  # not retried
    assert log[at_429 + 1 :] == [], f"requests after the 429: {statuses[at_429 + 1 :]}"
    assert first.stat("fetches_postponed_retry_after") >= 1

    # The next run, 60 s later: the site's Retry-After is not over, nothing of it is asked for.
    farm.clock.advance(60)
    farm.clear_log()
    second = run_crawl(feeds, db, settings=settings, clock=farm.clock)
    assert second.returncode == 0, second.stderr[-3000:]
    assert farm.requests_for(blog) == []

    # After it: every article is fetched, none lost.
    farm.clock.advance(70)
    third = run_crawl(feeds, db, settings=settings, clock=farm.clock)
    assert third.returncode == 0, third.stderr[-3000:]
    assert rows(db, "SELECT COUNT(DISTINCT article) FROM snapshots WHERE kind = 'first'") == [(5,)]
    assert [r.status for r in farm.requests_for(throttled)] == [200]


@pytest.mark.slow
def test_a_throttled_feed_is_not_retried_before_its_retry_after_date(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog("gen", articles=2, start=t0 - 2 * HOUR, interval=HOUR, seed=1)
    later = formatdate(t0 + 2 * HOUR, usegmt=True)  # an HTTP date, on the farm's clock
    farm.misbehave(blog.feed_url, "status", status=503, retry_after=later)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"

    result = run_crawl(feeds, db, settings={"RETRY_TIMES": "2"}, clock=farm.clock)
    assert result.returncode == 1, result.stderr[-3000:]  # its only feed failed
    assert len(farm.requests_for(blog.feed_url)) == 1  # not retried
    (next_check,) = rows(db, "SELECT next_check FROM feeds")[0]
    assert next_check >= time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t0 + 2 * HOUR - 1))

    farm.clock.advance(HOUR)  # still before the date: not polled
    farm.clear_log()
    assert run_crawl(feeds, db, clock=farm.clock).returncode == 0
    assert farm.requests_for(blog) == []


@pytest.mark.slow
def test_randomized_delays_never_go_below_crawl_delay(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog(
        "slow", articles=8, start=t0 - 8 * HOUR, interval=HOUR, seed=1, comments_per_article=(0, 0)
    )
    farm.add_route(blog, "/robots.txt", "User-agent: *\nCrawl-delay: 1\n", content_type="text/plain")
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    settings = {"RANDOMIZE_DOWNLOAD_DELAY": "True", "CONCURRENT_REQUESTS_PER_DOMAIN": "1", "BLOGS_REFETCH_AFTER": "7d"}

    result = run_crawl(feeds, db, settings=settings, clock=farm.clock)
    assert result.returncode == 0, result.stderr[-3000:]
    times = [r.wall_time for r in farm.requests_for(blog) if r.path_only != "/robots.txt"]
    # the feed, 8 pages, the home page and the archive page it links (a new site's template pages)
    assert len(times) == 11
    gaps = [b - a for a, b in itertools.pairwise(times)]
    # A lower bound: the crawler spaces its sends by the delay exactly (no jitter); the farm stamps
    # arrivals, which carry each request's connection and thread-scheduling time, so on a busy
    # machine one gap can read some ms short (18 ms seen in CI). A ±50 % jitter would put one of
    # the 10 gaps under 0.95 s with probability 1 - 0.55**10 > 99 %.
    assert min(gaps) >= 0.95, gaps
