"""Comment dates as blogs print them (dates.py)."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractor.core import dates
from extractor.core.dates import date_match, is_dated, parse_date, read_date, relative_match


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("November 11, 2026 at 6:54 am", "2026-11-11T06:54:00"),
        ("11 November 2026 18:54", "2026-11-11T18:54:00"),
        ("Sept. 3, 2012", "2012-09-03"),
        ("on Nov 1st 2012 8:30PM", "2012-11-01T20:30:00"),
        ("2026年10月31日 午後4:44", "2026-10-31T16:44:00"),
        ("2026年10月31日 午前9時05分", "2026-10-31T09:05:00"),
        ("2026年10月31日 12:05 AM", "2026-10-31T00:05:00"),
        ("2026.11.11 18:54", "2026-11-11T18:54:00"),
        ("2026-11-11T06:54:09+09:00", "2026-11-10T21:54:09Z"),
        # inline elements join without a space: the month name is glued to the word before it
        ("Owen Clarke Post authorApril 14, 2025 at 2:34 pm", "2025-04-14T14:34:00"),
        # other languages: month names, day-first orders, connectives, the half of the day first
        ("3. März 2012 um 16:20", "2012-03-03T16:20:00"),
        ("1er mars 2012 à 16 h 20 min", "2012-03-01T16:20:00"),
        ("3 de marzo de 2012 a las 16:20", "2012-03-03T16:20:00"),
        ("3 de março de 2012 às 16:20", "2012-03-03T16:20:00"),
        ("3 marzo 2012 alle 16:20", "2012-03-03T16:20:00"),
        ("3 maart 2012 om 16:20", "2012-03-03T16:20:00"),
        ("3 марта 2012 г. в 16:20", "2012-03-03T16:20:00"),
        ("2012년 3월 3일 오후 4:20", "2012-03-03T16:20:00"),
        ("2012年3月3日 下午4:20", "2012-03-03T16:20:00"),
        # numeric dates: dotted day first; slashed month first (Blogger) unless the day shows
        ("03.03.2012 16:20", "2012-03-03T16:20:00"),
        ("3/04/2012 4:20 PM", "2012-03-04T16:20:00"),
        ("13/04/2012 16:20", "2012-04-13T16:20:00"),
    ],
)
def test_printed_dates(text: str, iso: str) -> None:
    assert parse_date(text) == iso


@pytest.mark.parametrize(
    ("text", "iso", "precision"),
    [
        # a day printed alone is that day, not its midnight
        ("November 11, 2026", "2026-11-11", "day"),
        ("2026年11月11日", "2026-11-11", "day"),
        ("11/11/2026", "2026-11-11", "day"),
        ("11.11.2026", "2026-11-11", "day"),
        ("2026-11-11", "2026-11-11", "day"),
        ("Posted on Wednesday, November 11, 2026 | Reply", "2026-11-11", "day"),
        # a printed time is read to the minute, midnight included; seconds when shown
        ("November 11, 2026 at 12:00 am", "2026-11-11T00:00:00", "minute"),
        ("2026/06/16 14:06", "2026-06-16T14:06:00", "minute"),
        ("2026-11-11T06:54", "2026-11-11T06:54:00", "minute"),
        ("11.11.2026 18:54:33", "2026-11-11T18:54:33", "second"),
        ("2026-11-11T06:54:09+00:00", "2026-11-11T06:54:09Z", "second"),
        ("2026-11-11 00:00:00", "2026-11-11T00:00:00", "second"),
    ],
)
def test_dates_read_with_their_precision(text: str, iso: str, precision: str) -> None:
    assert read_date(text) == (iso, precision)
    assert parse_date(text) == iso


@pytest.mark.parametrize(
    "text",
    ["Mayor 12, 2020 votes", "3 comments", "Reply", "", "Chapter 11 of 2026", "Sunset 14, 2012", "192.168.1.1"],
)
def test_not_dates(text: str) -> None:
    assert parse_date(text) is None


def test_date_match_says_where_the_date_starts() -> None:
    assert date_match("Dan O'Brien August 1, 2026Reply") == ("2026-08-01", 12)
    assert date_match("2026-11-11") == ("2026-11-11", 0)


@pytest.mark.parametrize(
    "text",
    [
        "3 days ago",
        "Ann, 2 hours ago",
        "vor 2 Tagen",
        "il y a 3 jours",
        "hace 5 minutos",
        "3 giorni fa",
        "2 dagen geleden",
        "3 дня назад",
        "3日前",
        "3天前",
        "3일 전",
        "yesterday",
    ],
)
def test_relative_times_mark_a_date_line_without_an_instant(text: str) -> None:
    assert is_dated(text)
    assert parse_date(text) is None


def test_relative_times_end_the_name_before_them() -> None:
    assert relative_match("Ann Smith 3 days ago") == 10
    assert relative_match("We went there ages ago") is None
    assert not is_dated("Chapter 3 of the book")


# Dates in every order the patterns read, their pieces drawn at random (some odd or missing), in
# words and numbers.
_MONTH_NAMES = [*sorted(dates._MONTHS)[::5], "March", "Sept", "MAI", "août", "марта", "authorApril", "Sunset"]
_piece = st.sampled_from
_SPACE = _piece(["", " ", "  ", "\n", ", ", " de "])
_DAY = _piece(["1", "3", "11", "31", "012", "x"])
_YEAR = _piece(["2012", "2026", "12345", "99"])
_TIME = _piece(["", " at 4:20 pm", " 16:20", "T06:54:09+09:00", "Z", " um 16 h 20", " 午後4時44分"])
_DATE = st.one_of(
    st.tuples(
        _piece(_MONTH_NAMES), _piece(["", "."]), _SPACE, _DAY, _piece(["", "st", "th", ","]), _SPACE, _YEAR, _TIME
    ),
    st.tuples(
        _DAY,
        _piece(["", "st", "er", ".", "º"]),
        _SPACE,
        _piece(_MONTH_NAMES),
        _piece(["", ".", ","]),
        _SPACE,
        _YEAR,
        _TIME,
    ),
    st.tuples(
        _DAY,
        _piece([".", "/", "-", "年"]),
        _piece(["", " "]),
        _DAY,
        _piece([".", "/", "-", "月"]),
        _SPACE,
        _YEAR,
        _TIME,
    ),
    st.tuples(
        _YEAR, _piece(["-", "/", ".", "年"]), _DAY, _piece(["-", "/", ".", "月"]), _DAY, _piece(["", "日"]), _TIME
    ),
).map("".join)
_WORDS = _piece(["Mon, ", "Sat.,  ", "FRI ", "Donnerstag \n", "x", "on ", "1.", " ", "Posted by Ann"])
_TEXT = st.lists(st.one_of(_DATE, _WORDS), max_size=4).map("".join)


@settings(max_examples=500, deadline=None)
@given(_TEXT)
def test_shortcuts_never_change_a_reading(text: str) -> None:
    """The month lookahead, the patterns' needs, the ISO start test and the weekday window only
    skip hopeless work: each pattern matches where its plain form (without the lookahead) does,
    and only texts holding its need; ISO values start with their year; a weekday before any
    position is found as by searching the whole text before it."""
    for pattern, order in dates._PATTERNS:
        plain = re.compile(pattern.pattern.replace(dates._MONTH_AHEAD, ""), pattern.flags)
        found, expected = pattern.search(text), plain.search(text)
        assert (found and found.span()) == (expected and expected.span())
        need = dates._NEEDS.get(order)
        if expected is not None:
            assert dates._YEAR.search(text) is not None
            assert need is None or need.search(text) is not None, order
    for end in range(len(text) + 1):
        whole = dates._WEEKDAY_BEFORE.search(text, 0, end)
        found = dates._weekday_before(text, end)
        assert (found and found.span()) == (whole and whole.span())
    try:
        datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return
    assert dates._ISO_START.match(text) is not None


def test_ascii_hints_are_the_hint_pattern_s_ascii_alternatives() -> None:
    alternatives = dates._RELATIVE_HINT.pattern.replace("\\b", "").split("|")
    assert sorted(dates._ASCII_HINTS) == sorted(a for a in alternatives if a.isascii())


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["3 days AGO", "Vor 2 Tagen", "IL Y A", "fa", "Fa ", "x", " ", "Just Now", "7"]), max_size=5
    )
)
def test_ascii_texts_skip_the_hint_pattern_only_when_it_finds_nothing(parts: list[str]) -> None:
    text = "".join(parts)
    low = text.lower()
    if dates._RELATIVE_HINT.search(text) is not None:
        assert any(hint in low for hint in dates._ASCII_HINTS)
    assert relative_match(text) == (
        None
        if dates._RELATIVE_HINT.search(text) is None
        else (m.start() if (m := dates._RELATIVE.search(text)) else None)
    )
