"""Comment dates: ``<time datetime>`` values and the date formats blogs print.

    >>> parse_date("November 11, 2026 at 6:54 am")
    '2026-11-11T06:54:00'
    >>> parse_date("2026年10月31日 16:44")
    '2026-10-31T16:44:00'
    >>> parse_date("2026-11-11T06:54:09+00:00")
    '2026-11-11T06:54:09Z'

Times without a zone are returned without one (the page's local time); ISO values with an offset
are converted to UTC and marked ``Z``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import lru_cache

_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for m in names
}
# The half of the day comes after the time ("4:44 pm") or, in Japanese, before it ("午後4時44分").
_TIME = r"(?:\D{0,6}?(午前|午後)?\s*(\d{1,2})[:時](\d{2})(?:[:分](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|午前|午後)?)?"
_DIGIT = re.compile(r"\d")
# Month names, longest first so that "June" is not read as "Jun" + "e".
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + ")(?![a-z])"
_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    # 2026-11-11 06:54, 2026/11/11 6:54, 2026.11.11, 2026年11月11日 6:54
    (re.compile(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?" + _TIME, re.I), "ymd"),
    # November 11, 2026 at 6:54 am (a month name glued to the text before it, too: inline
    # elements join without a space, "Post authorApril 14, 2025")
    (re.compile(_MONTH + r"\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})" + _TIME, re.I), "mdy"),
    # 11 November 2026 6:54
    (re.compile(r"(\d{1,2})(?:st|nd|rd|th|\.)?\s+" + _MONTH + r"\.?,?\s+(\d{4})" + _TIME, re.I), "dmy"),
]


def _iso_value(text: str) -> str | None:
    value = text.strip().replace(" ", "T", 1) if re.match(r"\d{4}-\d\d-\d\d \d", text.strip()) else text.strip()
    try:
        dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if dt.tzinfo is not None:
        return dt.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="seconds") + "Z"
    return dt.isoformat(timespec="seconds")


def parse_date(text: str | None) -> str | None:
    """ISO 8601 for a printed or machine date, or None when nothing date-like is found."""
    found = date_match(text)
    return found[0] if found is not None else None


def date_match(text: str | None) -> tuple[str, int] | None:
    """The date as ``parse_date`` reads it and where it starts in ``text`` ("Ann August 1, 2026": 4)."""
    if not text or not _DIGIT.search(text):
        return None
    return _date_match(text)


# Short texts repeat across a site's pages (sidebar dates, bylines, "2 comments"): a bounded memo.
@lru_cache(maxsize=16384)
def _date_match(text: str) -> tuple[str, int] | None:
    iso = _iso_value(text)
    if iso:
        return iso, 0
    for pattern, order in _PATTERNS:
        m = pattern.search(text)
        if not m:
            continue
        g = m.groups()
        if order == "ymd":
            year, month, day = int(g[0]), int(g[1]), int(g[2])
        elif order == "mdy":
            month_n = _MONTHS.get(g[0].lower())
            if month_n is None:
                continue
            year, month, day = int(g[2]), month_n, int(g[1])
        else:
            month_n = _MONTHS.get(g[1].lower())
            if month_n is None:
                continue
            year, month, day = int(g[2]), month_n, int(g[0])
        before, hour, minute, second, after = g[3], g[4], g[5], g[6], g[7]
        half = after or before
        h = int(hour) if hour else 0
        if half and half.lower().startswith(("p", "午後")) and h < 12:
            h += 12
        elif half and half.lower().startswith(("a", "午前")) and h == 12:
            h = 0
        try:
            dt = datetime(year, month, day, h, int(minute) if minute else 0, int(second) if second else 0)
        except ValueError:
            continue
        return dt.isoformat(timespec="seconds"), m.start()
    return None


def looks_like_date(text: str) -> bool:
    return parse_date(text) is not None
