"""Comment dates as blogs print them (dates.py)."""

from __future__ import annotations

import pytest

from extractor.dates import date_match, parse_date


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("November 11, 2026 at 6:54 am", "2026-11-11T06:54:00"),
        ("11 November 2026 18:54", "2026-11-11T18:54:00"),
        ("Sept. 3, 2012", "2012-09-03T00:00:00"),
        ("on Nov 1st 2012 8:30PM", "2012-11-01T20:30:00"),
        ("2026年10月31日 午後4:44", "2026-10-31T16:44:00"),
        ("2026年10月31日 午前9時05分", "2026-10-31T09:05:00"),
        ("2026年10月31日 12:05 AM", "2026-10-31T00:05:00"),
        ("2026.11.11 18:54", "2026-11-11T18:54:00"),
        ("2026-11-11T06:54:09+09:00", "2026-11-10T21:54:09Z"),
        # inline elements join without a space: the month name is glued to the word before it
        ("Owen Clarke Post authorApril 14, 2025 at 2:34 pm", "2025-04-14T14:34:00"),
    ],
)
def test_printed_dates(text: str, iso: str) -> None:
    assert parse_date(text) == iso


@pytest.mark.parametrize("text", ["Mayor 12, 2020 votes", "3 comments", "Reply", "", "Chapter 11 of 2026"])
def test_not_dates(text: str) -> None:
    assert parse_date(text) is None


def test_date_match_says_where_the_date_starts() -> None:
    assert date_match("Dan O'Brien August 1, 2026Reply") == ("2026-08-01T00:00:00", 12)
    assert date_match("2026-11-11") == ("2026-11-11T00:00:00", 0)
