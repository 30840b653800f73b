"""Times as the store keeps them, and the re-fetch schedule arithmetic the store applies.

to_iso(0)  # '1970-01-01T00:00:00.000Z'

All times are POSIX timestamps (float seconds, UTC); the store keeps them as ISO 8601 text so
that the database reads well in datasette and sorts as text. Below crawler/ and pipelines/:
both, and the store, import these from here (crawler.schedule re-exports them).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime


def to_iso(ts: float) -> str:
    """ISO 8601 UTC with milliseconds: to_iso(0) == '1970-01-01T00:00:00.000Z'."""
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def from_iso(text: str | None) -> float | None:
    """Inverse of to_iso (accepts any ISO 8601 form): from_iso('1970-01-01T00:01:00Z') == 60.0."""
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.timestamp()


def refetch_base(published: float | None, first_fetched: float) -> float:
    """The time re-fetch offsets count from: publication, unless unknown or in our future (clock skew)."""
    if published is None or published > first_fetched:
        return first_fetched
    return published


def next_refetch(base: float, offsets: Sequence[float], after: float) -> float | None:
    """First scheduled re-fetch time strictly after `after`, or None when the schedule is over.

    Offsets already passed (an old article found late, a run that came late) are skipped, so
    each article gets at most one fetch per remaining offset.
    next_refetch(0, [3600, 21600], 100) == 3600; next_refetch(0, [3600], 4000) is None
    """
    for offset in offsets:
        due = base + offset
        if due > after:
            return due
    return None
