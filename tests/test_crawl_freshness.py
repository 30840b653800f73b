"""Timely discovery (issue 32, item 1): a feed is polled by what predicts its next entry (its recent
gaps and the time since its newest entry), within what the feed and the server say."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, write_feeds

from crawler.schedule import (
    DORMANT_DIVISOR,
    EARLIEST_SHARE,
    next_poll_delay,
    parse_expires,
    parse_update_period,
    predict_interval,
)
from farm import BlogFarm
from store.clock import from_iso

HOUR = 3600.0
DAY = 86400.0
NOW = 1_800_000_000.0


def test_an_hourly_blog_is_polled_near_its_next_entry() -> None:
    hourly = [NOW - 1800 - i * HOUR for i in range(6)]  # 6 entries: a weekly average would say 28 h
    assert predict_interval(hourly, NOW) == 300  # soon after an entry, and near the next one: the floor
    daily = [NOW - 600 - k * DAY for k in range(3)]
    assert predict_interval(daily, NOW + 6 * HOUR) == pytest.approx((6 * HOUR + 600) / DORMANT_DIVISOR)
    next_from = NOW - 600 + EARLIEST_SHARE * DAY  # a margin before the next one is due
    assert predict_interval(daily, next_from - 3000) == 1500  # half the way there
    assert predict_interval(daily, next_from + 60) == 300  # the next one may come any time now
    assert predict_interval(daily, NOW + DAY + HOUR) == 300  # late: still the floor


def test_bursts_pause_and_dormancy() -> None:
    # Bursts of posts minutes apart, a day between bursts: in a pause the next gap is a pause.
    bursts = [NOW - 2 * HOUR - i * 600 for i in range(3)] + [NOW - 2 * HOUR - DAY - i * 600 for i in range(3)]
    assert predict_interval(bursts, NOW) == pytest.approx(max(300, 2 * HOUR / DORMANT_DIVISOR))
    pause_from = bursts[0] + EARLIEST_SHARE * (DAY - 1200)  # a margin before the shortest pause is over
    assert predict_interval(bursts, pause_from - 3000) == 1500
    # Quiet for twice the longest gap: dormant, the interval grows with the silence, an hour at most.
    assert predict_interval([NOW - 5 * HOUR, NOW - 7 * HOUR], NOW) == pytest.approx(5 * HOUR / DORMANT_DIVISOR)
    assert predict_interval([NOW - 30 * DAY, NOW - 31 * DAY], NOW) == HOUR
    assert predict_interval([NOW - 30 * DAY, NOW - 31 * DAY], NOW, dormant_max=DAY) == DAY
    assert predict_interval([], NOW) == 86400


def test_feed_and_server_hints() -> None:
    assert parse_update_period("hourly", "2") == 1800
    assert parse_update_period("daily", None) == DAY
    assert parse_update_period("fortnightly", "1") is None
    assert next_poll_delay(43200, update_period=3600) == 3600  # the feed says it changes hourly
    assert next_poll_delay(600, expires=1800) == 1800
    assert next_poll_delay(600, max_age=900, expires=1800) == 900  # max-age wins over Expires
    assert parse_expires("Thu, 01 Dec 1994 16:00:00 GMT", NOW) == 0.0
    assert parse_expires("0", NOW) == 0.0


@pytest.mark.slow
def test_a_blog_that_just_became_active_is_polled_within_the_hour(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    # Six entries an hour apart, the newest 20 minutes old: a weekly average would poll it daily.
    blog = farm.add_generated_blog("busy", articles=6, start=t0 - 5 * HOUR - 1200, interval=HOUR, seed=3)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"

    result = run_crawl(feeds, db, settings={"BLOGS_REFETCH_AFTER": "7d"}, clock=farm.clock)
    assert result.returncode == 0, result.stderr[-3000:]
    ((polled, next_check),) = rows(db, "SELECT last_polled_at, next_check FROM feeds")
    wait = (from_iso(next_check) or 0.0) - (from_iso(polled) or 0.0)
    assert 300 <= wait <= 45 * 60  # before the next entry is due (an hour after the newest)
