"""Pure scheduling functions: durations, adaptive intervals, server hints, backoff, re-fetch times."""

from __future__ import annotations

import random

import pytest

from crawler.schedule import (
    WEEK,
    adaptive_interval,
    backoff_delay,
    first_fetch_retry,
    next_poll_delay,
    parse_duration,
    parse_durations,
    parse_max_age,
    parse_retry_after,
    parse_ttl_minutes,
)
from store.clock import from_iso, next_refetch, refetch_base, to_iso

NOW = 1_800_000_000.0


def test_durations_accept_units_and_plain_seconds() -> None:
    assert parse_duration("5s") == 5
    assert parse_duration("10m") == 600
    assert parse_duration("1.5h") == 5400
    assert parse_duration("3d") == 3 * 86400
    assert parse_duration("1w") == WEEK
    assert parse_duration("90") == 90
    assert parse_durations("1h,6h,1d,3d,7d,30d") == [3600, 21600, 86400, 259200, 604800, 2592000]
    assert parse_durations("4s, 2s,2s") == [2, 4]  # sorted, de-duplicated
    assert parse_durations(["5s", 2]) == [2, 5]
    with pytest.raises(ValueError):
        parse_duration("soon")


def test_iso_round_trip_sorts_as_text() -> None:
    assert to_iso(0) == "1970-01-01T00:00:00.000Z"
    assert from_iso(to_iso(NOW + 0.25)) == pytest.approx(NOW + 0.25)
    assert to_iso(NOW) < to_iso(NOW + 0.001) < to_iso(NOW + 86400)
    assert from_iso("2027-01-15T08:00:00+00:00") == from_iso("2027-01-15T08:00:00Z")
    assert from_iso(None) is None and from_iso("garbage") is None


def test_adaptive_interval_is_a_week_over_recent_entries_clamped() -> None:
    assert adaptive_interval([NOW - 3600] * 14, NOW) == 43200  # 14 a week: twice a day
    assert adaptive_interval([NOW - 60] * 10_000, NOW) == 300  # floor 5 min
    assert adaptive_interval([NOW - 2 * WEEK] * 50, NOW) == 86400  # nothing recent: ceiling 24 h
    assert adaptive_interval([], NOW) == 86400
    assert adaptive_interval([None, NOW - 10], NOW, low=60, high=WEEK) == WEEK


def test_server_hints_delay_the_next_poll() -> None:
    assert next_poll_delay(600, ttl=3600) == 3600
    assert next_poll_delay(600, max_age=1200) == 1200
    assert next_poll_delay(600, retry_after=7200) == 7200
    assert next_poll_delay(600, ttl=10 * 86400) == 86400  # hints honoured up to the ceiling
    assert next_poll_delay(600, retry_after=30 * 86400) == WEEK  # Retry-After up to a week
    assert next_poll_delay(10) == 300  # never below the floor


def test_header_parsers() -> None:
    assert parse_retry_after("120", NOW) == 120
    assert parse_retry_after(b"120", NOW) == 120
    assert parse_retry_after("Fri, 15 Jan 2027 08:10:00 GMT", 1_799_999_400.0) == pytest.approx(1200, abs=1)
    assert parse_retry_after("soonish", NOW) is None
    assert parse_retry_after(None, NOW) is None
    assert parse_max_age("public, max-age=600") == 600
    assert parse_max_age(b"max-age=60, s-maxage=900") == 900
    assert parse_max_age("no-cache") is None
    assert parse_ttl_minutes("60") == 3600
    assert parse_ttl_minutes("x") is None and parse_ttl_minutes("0") is None


def test_backoff_grows_exponentially_with_jitter_and_cap() -> None:
    rng = random.Random(3)
    delays = [backoff_delay(n, base=300, cap=86400, rng=rng) for n in range(1, 12)]
    for n, d in enumerate(delays, start=1):
        raw = min(86400, 300 * 2 ** (n - 1))
        assert raw * 0.5 <= d <= raw
    assert len({round(backoff_delay(3, rng=rng)) for _ in range(20)}) > 1  # jittered
    assert backoff_delay(1, base=300, retry_after=3600, rng=rng) == 3600


def test_refetch_schedule_counts_from_publication_and_stops() -> None:
    offsets = parse_durations("1h,6h,1d")
    published = NOW
    assert next_refetch(published, offsets, after=NOW + 60) == NOW + 3600
    assert next_refetch(published, offsets, after=NOW + 3600) == NOW + 6 * 3600
    assert next_refetch(published, offsets, after=NOW + 7 * 3600) == NOW + 86400  # a late run skips 6h
    assert next_refetch(published, offsets, after=NOW + 86400) is None  # then stop
    assert next_refetch(NOW - 60 * 86400, offsets, after=NOW) is None  # an old article found late


def test_refetch_base_ignores_unknown_or_future_publication() -> None:
    assert refetch_base(NOW - 100, NOW) == NOW - 100
    assert refetch_base(None, NOW) == NOW
    assert refetch_base(NOW + 3600, NOW) == NOW


def test_first_fetch_retry_gives_up() -> None:
    rng = random.Random(1)
    assert first_fetch_retry(1, 5, rng) is not None
    assert first_fetch_retry(5, 5, rng) is None
