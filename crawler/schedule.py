"""When to poll a feed and when to re-fetch an article: pure functions of times and counts.

parse_durations("1h,6h,1d")  # [3600.0, 21600.0, 86400.0]

All times are POSIX timestamps (float seconds, UTC); the store keeps them as ISO 8601 text
(`store.clock`, which also holds the re-fetch arithmetic) so that the database reads well in
datasette and sorts as text.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable
from datetime import UTC
from email.utils import parsedate_to_datetime

WEEK = 7 * 86400.0
MIN_POLL_INTERVAL = 300.0
MAX_POLL_INTERVAL = 86400.0
# Server hints (ttl, max-age) are honoured up to MAX_POLL_INTERVAL; an explicit Retry-After
# may push the next poll up to this far.
MAX_RETRY_AFTER = WEEK
BACKOFF_BASE = 300.0
DEFAULT_REFETCH_AFTER = "1h,6h,1d,3d,7d,30d"

_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, "w": WEEK}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$", re.IGNORECASE)


def parse_duration(text: str) -> float:
    """Seconds in "90", "5s", "10m", "6h", "3d" or "1w": parse_duration("10m") == 600.0."""
    match = _DURATION.match(text)
    if not match:
        raise ValueError(f"not a duration: {text!r} (use e.g. 30s, 10m, 6h, 3d)")
    return float(match.group(1)) * _UNITS[match.group(2).lower()]


def parse_durations(value: str | Iterable[str | float]) -> list[float]:
    """Sorted, de-duplicated offsets from "1h,6h,1d" or a list: parse_durations(["5s", 2]) == [2.0, 5.0]."""
    items: Iterable[str | float] = value.split(",") if isinstance(value, str) else value
    out = set()
    for item in items:
        if isinstance(item, int | float):
            out.add(float(item))
        elif item.strip():
            out.add(parse_duration(item))
    return sorted(out)


def clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def adaptive_interval(
    entry_times: Iterable[float | None],
    now: float,
    low: float = MIN_POLL_INTERVAL,
    high: float = MAX_POLL_INTERVAL,
) -> float:
    """About a week divided by the entries of the last week, clamped to [low, high]: the former rule,
    kept as a reference for bench/freshness.py (the spider uses predict_interval).

    adaptive_interval([now - 3600] * 14, now) == 43200.0 (14 posts a week: every 12 h).
    """
    recent = sum(1 for t in entry_times if t is not None and now - WEEK <= t <= now + 3600)
    if recent == 0:
        return high
    return clamp(WEEK / recent, low, high)


# Entries of a feed the predictor looks at: the newest ones say how it posts now.
RECENT_ENTRIES = 10
# Poll from this share of the shortest plausible gap after the newest entry on (a margin for jitter).
EARLIEST_SHARE = 0.6
# Quiet for OVERDUE_FACTOR x its longest recent gap, a feed is dormant: polled every since/DORMANT_DIVISOR,
# longer as it stays quiet, up to DORMANT_MAX_INTERVAL (a blog that wakes up is found within it).
OVERDUE_FACTOR = 2.0
DORMANT_DIVISOR = 16.0
DORMANT_MAX_INTERVAL = 3600.0


def predict_interval(
    entry_times: Iterable[float | None],
    now: float,
    low: float = MIN_POLL_INTERVAL,
    high: float = MAX_POLL_INTERVAL,
    dormant_max: float = DORMANT_MAX_INTERVAL,
) -> float:
    """Poll interval from what predicts the feed's next entry: its recent gaps and the time since its
    newest entry (not an average over a week, which is slow to see a blog that just became active).

    The next gap is one of the recent gaps longer than the wait so far (bursts, then a pause, repeat);
    until a margin before the shortest of them the feed is polled less and less often (half the way
    each time), from then on at `low`, also when the entry is late. Quiet for twice its longest recent
    gap the feed is dormant: the interval grows with the silence, up to `dormant_max`. Clamped to
    [low, high].

    predict_interval([now - 1800, now - 5400, now - 9000], now) == 300.0 (hourly, the next one soon: the floor)
    """
    newest_first = sorted({t for t in entry_times if t is not None and t <= now + 3600}, reverse=True)
    recent = newest_first[: RECENT_ENTRIES + 1]
    if not recent:
        return high
    since = max(0.0, now - recent[0])
    gaps = [a - b for a, b in itertools.pairwise(recent) if a > b]
    if not gaps or since > OVERDUE_FACTOR * max(gaps):  # one entry only, or quiet for long: dormant
        return clamp(since / DORMANT_DIVISOR, low, min(high, dormant_max))
    still_possible = [g for g in gaps if g > since]
    if not still_possible:  # overdue: later than every recent gap, the next entry may come any time
        return low
    earliest = recent[0] + EARLIEST_SHARE * min(still_possible)
    if now >= earliest:
        return low
    # Also soon after an entry, whatever the gaps: entries come in bursts, and a blog waking up
    # has no short gaps yet to show it.
    return clamp(min((earliest - now) / 2, since / DORMANT_DIVISOR), low, high)


_PERIODS = {"hourly": 3600.0, "daily": 86400.0, "weekly": WEEK, "monthly": 30 * 86400.0, "yearly": 365 * 86400.0}


def parse_update_period(period: str | None, frequency: str | int | None) -> float | None:
    """Seconds between updates from RSS sy:updatePeriod / sy:updateFrequency (RSS 1.0 syndication module).

    parse_update_period("hourly", "2") == 1800.0; parse_update_period(None, None) is None
    """
    if not period:
        return None
    seconds = _PERIODS.get(str(period).strip().lower())
    if seconds is None:
        return None
    try:
        times = float(str(frequency).strip()) if frequency not in (None, "") else 1.0
    except ValueError:
        times = 1.0
    return seconds / times if times > 0 else seconds


def parse_expires(value: str | bytes | None, now: float) -> float | None:
    """Seconds until an Expires header's date (0 for a date in the past or an invalid one, per RFC 9111)."""
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    seconds = parse_retry_after(value, now)
    return seconds if seconds is not None and not value.strip().isdigit() else 0.0


def parse_retry_after(value: str | bytes | None, now: float) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or HTTP date), None if absent or bad."""
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - now)


def parse_max_age(cache_control: str | bytes | None) -> float | None:
    """max-age (or s-maxage) of a Cache-Control header: parse_max_age("public, max-age=600") == 600.0."""
    if not cache_control:
        return None
    if isinstance(cache_control, bytes):
        cache_control = cache_control.decode("latin-1")
    best: float | None = None
    for part in cache_control.split(","):
        name, _, val = part.strip().partition("=")
        if name.strip().lower() in ("max-age", "s-maxage"):
            try:
                seconds = float(val.strip().strip('"'))
            except ValueError:
                continue
            best = seconds if best is None else max(best, seconds)
    return best


def parse_ttl_minutes(ttl: str | int | None) -> float | None:
    """Seconds from an RSS <ttl> (minutes): parse_ttl_minutes("60") == 3600.0."""
    if ttl is None:
        return None
    try:
        minutes = float(str(ttl).strip())
    except ValueError:
        return None
    return minutes * 60.0 if minutes > 0 else None


def next_poll_delay(
    interval: float,
    *,
    ttl: float | None = None,
    max_age: float | None = None,
    retry_after: float | None = None,
    expires: float | None = None,
    update_period: float | None = None,
    low: float = MIN_POLL_INTERVAL,
    high: float = MAX_POLL_INTERVAL,
) -> float:
    """Delay until the next poll after a good one: the predicted interval, never before the server's hints.

    <ttl>, Cache-Control max-age (or else Expires) say how long the feed stays fresh: floors. The
    feed's sy:updatePeriod says how often it may change: a ceiling (a dormant feed is not left longer).
    next_poll_delay(600, ttl=3600) == 3600.0; next_poll_delay(600, retry_after=7200) == 7200.0
    """
    if update_period:
        interval = min(interval, update_period)
    fresh_for = max_age if max_age is not None else expires
    delay = clamp(max(interval, ttl or 0.0, fresh_for or 0.0), low, high)
    if retry_after:
        delay = max(delay, min(retry_after, MAX_RETRY_AFTER))
    return delay


def backoff_delay(
    failures: int,
    *,
    base: float = BACKOFF_BASE,
    cap: float = MAX_POLL_INTERVAL,
    retry_after: float | None = None,
    rng: random.Random | None = None,
) -> float:
    """Exponential backoff with jitter after `failures` consecutive failures (>= 1).

    The n-th failure waits base * 2**(n-1), capped, then scaled by a random factor in [0.5, 1.0]
    so that feeds failing together do not retry together; Retry-After is a lower bound.
    """
    rng = rng or random.Random()
    raw = min(cap, base * 2 ** max(0, failures - 1))
    delay = raw * rng.uniform(0.5, 1.0)
    if retry_after:
        delay = max(delay, min(retry_after, MAX_RETRY_AFTER))
    return delay


def first_fetch_retry(failures: int, max_failures: int, rng: random.Random | None = None) -> float | None:
    """Delay before retrying a failed article fetch, None once `max_failures` is reached.

    Short at first (a just-published page may 404 until caches catch up), then backing off.
    """
    if failures >= max_failures:
        return None
    return backoff_delay(failures, base=60.0, cap=6 * 3600.0, rng=rng)
