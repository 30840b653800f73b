"""Comment dates: ``<time datetime>`` values and the date formats blogs print.

    >>> parse_date("November 11, 2026 at 6:54 am")
    '2026-11-11T06:54:00'
    >>> parse_date("2026年10月31日 16:44")
    '2026-10-31T16:44:00'
    >>> parse_date("2026-11-11T06:54:09+00:00")
    '2026-11-11T06:54:09Z'
    >>> read_date("November 11, 2026"), read_date("11/11/2026 4:20 PM")
    (('2026-11-11', 'day'), ('2026-11-11T16:20:00', 'minute'))

Times without a zone are returned without one (the page's local time); ISO values with an offset
are converted to UTC and marked ``Z``. A date printed without a time is a day, ``YYYY-MM-DD``
(not midnight: "November 11, 2026 at 12:00 am" is ``2026-11-11T00:00:00``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import lru_cache

# Month names of the languages blogs are most often written in, with their usual abbreviations
# (English, German, French, Spanish, Portuguese, Italian, Dutch, Russian nominative and genitive).
# A name only counts between a day and a year, so words like "mar" or "mai" are safe here.
_MONTH_NAMES: tuple[str, ...] = (
    "january jan januar jänner janvier janv enero ene janeiro gennaio gen januari январь января янв",
    "february feb februar février fevrier févr fevr febrero fevereiro fev febbraio februari февраль февраля фев",
    "march mar märz mär maerz mars marzo março marco maart maa март марта",
    "april apr avril avr abril abr aprile апрель апреля апр",
    "may mai mayo maio maggio mag mei май мая",
    "june jun juni juin junio junho giugno giu июнь июня июн",
    "july jul juli juillet juil julio julho luglio lug июль июля июл",
    "august aug août aout agosto ago augustus август августа авг",
    "september sep sept septembre septiembre setembro set settembre сентябрь сентября сен сент",
    "october oct oktober okt octobre octubre outubro out ottobre ott октябрь октября окт",
    "november nov novembre noviembre novembro ноябрь ноября ноя",
    "december dec dezember dez décembre decembre déc diciembre dic dezembro dicembre декабрь декабря дек",
)
_MONTHS = {name: i + 1 for i, names in enumerate(_MONTH_NAMES) for name in names.split()}
# The half of the day: after the time ("4:44 pm") or, in Japanese, Chinese and Korean, before it
# ("午後4時44分", "下午4:44", "오후 4:44").
_HALVES = "午前|午後|上午|下午|오전|오후"
_PM = ("p", "午後", "下午", "오후")
_AM = ("a", "午前", "上午", "오전")
# Between the date and the time: " at ", " um ", " à ", " a las ", " às ", " alle ", " г. в ".
_TIME = (
    r"(?:\D{0,8}?(" + _HALVES + r")?\s*(\d{1,2})\s*(?::|時|시|\s?h\s?)\s*(\d{2})(?:[:分](\d{2}))?"
    r"\s*(am|pm|a\.m\.|p\.m\.|" + _HALVES + r")?)?"
)
# Every date read here has a four-digit year (each pattern, and ISO values): the first test.
_YEAR = re.compile(r"\d{4}")
# A weekday printed before the date belongs to it ("Sat, 03/23/2019", "Montag, 3. März 2012"): the
# date starts there, so that text before it (an author's name) ends before the weekday.
_WEEKDAYS = (
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue", "tues", "wed", "thu",
    "thur", "thurs", "fri", "sat", "sun", "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag",
    "sonntag", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche", "lunes", "martes",
    "miércoles", "jueves", "viernes", "sábado", "domingo",
)  # fmt: skip
_WEEKDAY_BEFORE = re.compile("(?:" + "|".join(_WEEKDAYS) + r")\.?,?\s*$", re.I)
# A weekday before the date ends at most ".," before the whitespace that precedes the date.
_WEEKDAY_REACH = max(map(len, _WEEKDAYS)) + 2
# Month names, longest first so that "June" is not read as "Jun" + "e"; a whole word, or a
# capitalised name glued to the word before it (inline elements join without a space: "Post
# authorApril 14, 2025"), but not the end of a word ("Sunset 14, 2012").
# Implied by the rest of a match (a month is a run of three or more letters, then the day or the
# year): it rejects other words in one scan instead of trying every name at each word start.
_MONTH_AHEAD = r"(?=[^\W\d_]{3,}\.?,?\s+(?:de\s+)?\d)"
_MONTH = (
    r"(?:(?<![^\W\d_])|(?-i:(?<=[a-z])(?=[A-Z])))"
    + _MONTH_AHEAD
    + "("
    + "|".join(sorted(_MONTHS, key=len, reverse=True))
    + r")(?![^\W\d_])"
)
_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    # 2026-11-11 06:54, 2026/11/11 6:54, 2026.11.11, 2026年11月11日 6:54, 2026년 11월 11일 오후 6:54
    (re.compile(r"(\d{4})\s*[-/.年년]\s*(\d{1,2})\s*[-/.月월]\s*(\d{1,2})(?!\d)\s*[日일]?" + _TIME, re.I), "ymd"),
    # November 11, 2026 at 6:54 am
    (re.compile(_MONTH + r"\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})" + _TIME, re.I), "mdy"),
    # 11 November 2026 6:54, 11. März 2026, 11 de noviembre de 2026, 11 ноября 2026 г.
    (
        re.compile(
            r"(\d{1,2})(?:st|nd|rd|th|er|\.|º)?\s+(?:de\s+)?" + _MONTH + r"\.?,?\s+(?:de\s+)?(\d{4})" + _TIME, re.I
        ),
        "dmy",
    ),
    # 11.11.2026 18:54 (day first, as dotted dates are written in Europe)
    (re.compile(r"(?<![\d.])(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})(?!\d)" + _TIME), "d.m.y"),
    # 11/3/2026 4:20 PM (month first, as Blogger prints it in English, unless the first number
    # cannot be a month)
    (re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4})(?!\d)" + _TIME, re.I), "m/d/y"),
]
# What a pattern's match always contains, as a pattern that starts with a digit: the regex engine
# skips to digits for these, while the patterns above (starting with a word boundary or a
# lookbehind) are tried at every position. A text without it cannot match (tests/test_dates.py).
_NEEDS: dict[str, re.Pattern[str]] = {
    "mdy": re.compile(r"\d(?:st|nd|rd|th)?,?\s+\d{4}", re.I),
    "d.m.y": re.compile(r"\d\.\s?\d{1,2}\.\s?\d{4}"),
    "m/d/y": re.compile(r"\d/\d{1,2}/\d{4}"),
}
# Every value datetime.fromisoformat reads starts with its four-digit year.
_ISO_START = re.compile(r"\s*\d{4}")


# An ISO value that is a calendar date alone ("2026-11-11", "20261111").
_ISO_DAY = re.compile(r"\d{4}-?\d\d-?\d\d")
# The time of an ISO value, from the "T" (or space) after its date: hours, minutes, seconds.
_ISO_TIME = re.compile(r"[T ]\d\d:?\d\d(:?\d\d)?")
# How precise a date is: the day alone ("2026-11-11": printed without a time), the minute (a
# printed time, "6:54 am"; its ISO value has ":00" seconds) or the second (seconds shown, as in a
# ``<time datetime>`` value).
DAY, MINUTE, SECOND = "day", "minute", "second"


def _iso_value(text: str) -> str | None:
    if _ISO_START.match(text) is None:
        return None
    value = text.strip().replace(" ", "T", 1) if re.match(r"\d{4}-\d\d-\d\d \d", text.strip()) else text.strip()
    try:
        dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if _ISO_DAY.fullmatch(value):
        return dt.date().isoformat()
    if dt.tzinfo is not None:
        return dt.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="seconds") + "Z"
    return dt.isoformat(timespec="seconds")


def _iso_precision(text: str) -> str:
    """The precision of an ISO value ``_iso_value`` read: a day alone, a time with or without seconds."""
    value = text.strip()
    if _ISO_DAY.fullmatch(value):
        return DAY
    time = _ISO_TIME.search(value)
    return SECOND if time is not None and time.group(1) else MINUTE


def parse_date(text: str | None) -> str | None:
    """ISO 8601 for a printed or machine date, or None when nothing date-like is found."""
    found = date_match(text)
    return found[0] if found is not None else None


def read_date(text: str | None) -> tuple[str, str] | None:
    """``parse_date``'s value and its precision (``DAY``, ``MINUTE`` or ``SECOND``), or None."""
    if not text or not _YEAR.search(text):
        return None
    found = _date_match(text)
    return (found[0], found[2]) if found is not None else None


def date_match(text: str | None) -> tuple[str, int] | None:
    """The date as ``parse_date`` reads it and where it starts in ``text`` ("Ann August 1, 2026": 4)."""
    if not text or not _YEAR.search(text):
        return None
    found = _date_match(text)
    return (found[0], found[1]) if found is not None else None


# Short texts repeat across a site's pages (sidebar dates, bylines, "2 comments"): a bounded memo.
@lru_cache(maxsize=16384)
def _date_match(text: str) -> tuple[str, int, str] | None:
    iso = _iso_value(text)
    if iso:
        return iso, 0, _iso_precision(text)
    for pattern, order in _PATTERNS:
        need = _NEEDS.get(order)
        if need is not None and need.search(text) is None:
            continue
        m = pattern.search(text)
        if not m:
            continue
        g = m.groups()
        if order in ("ymd", "d.m.y", "m/d/y"):
            a, b, c = int(g[0]), int(g[1]), int(g[2])
            if order == "ymd":
                year, month, day = a, b, c
            elif order == "d.m.y" or a > 12:
                year, month, day = c, b, a
            else:
                year, month, day = c, a, b
        else:
            name, day_text = (g[0], g[1]) if order == "mdy" else (g[1], g[0])
            month_n = _MONTHS.get(name.lower())
            if month_n is None:
                continue
            year, month, day = int(g[2]), month_n, int(day_text)
        before, hour, minute, second, after = g[3], g[4], g[5], g[6], g[7]
        half = (after or before or "").lower()
        h = int(hour) if hour else 0
        if half.startswith(_PM) and h < 12:
            h += 12
        elif half.startswith(_AM) and h == 12:
            h = 0
        try:
            dt = datetime(year, month, day, h, int(minute) if minute else 0, int(second) if second else 0)
        except ValueError:
            continue
        # no time printed: the day alone, not its midnight
        iso = dt.isoformat(timespec="seconds") if hour else dt.date().isoformat()
        precision = DAY if not hour else SECOND if second else MINUTE
        weekday = _weekday_before(text, m.start())
        start = (
            weekday.start()
            if weekday is not None and (weekday.start() == 0 or not text[weekday.start() - 1].isalpha())
            else m.start()
        )
        return iso, start, precision
    return None


def _weekday_before(text: str, end: int) -> re.Match[str] | None:
    """``_WEEKDAY_BEFORE`` ending at ``end``, searched only where it can start (searching the whole
    text before a date tried every name at every position: half the cost of reading a date)."""
    before = text[:end].rstrip()
    head = before.removesuffix(",").removesuffix(".")
    if not head or not head[-1].isalpha():  # every name ends with a letter
        return None
    return _WEEKDAY_BEFORE.search(text, max(0, len(before) - _WEEKDAY_REACH), end)


# Relative times ("3 days ago", "vor 2 Tagen", "il y a 3 jours", "3日前", "3일 전"): a comment's date
# line as plugins and modern themes print it. They mark a date line (units, slots), but give no
# instant without the fetch time, so ``parse_date`` does not read them.
_RELATIVE = re.compile(
    r"(?:\b(?:\d+|an?|one)\s+(?:second|sec|minute|min|hour|hr|day|week|month|year)s?\s+ago\b"
    r"|\b(?:yesterday|just now)\b"
    r"|\bvor\s+(?:\d+|einer?|einem)\s+(?:sekunden?|minuten?|stunden?|tag(?:en)?|wochen?|monat(?:en)?|jahr(?:en)?)\b"
    r"|\bil y a\s+(?:\d+|une?)\s+(?:secondes?|minutes?|heures?|jours?|semaines?|mois|ans?|années?)\b"
    r"|\b(?:hace|há)\s+(?:\d+|una?|uma?)\s+(?:segundos?|minutos?|horas?|días?|dias?|semanas?|mes(?:es)?|meses|años?|anos?)\b"
    r"|\b(?:\d+|una?)\s+(?:secondi|minuti|ore|ora|giorni|giorno|settimane|mesi|mese|anni|anno)\s+fa\b"
    r"|\b(?:\d+|een)\s+(?:seconden|minuten|uur|dagen|dag|weken|week|maanden|maand|jaar)\s+geleden\b"
    r"|\b\d+\s+(?:секунд\w*|минут\w*|час\w*|д(?:ень|ня|ней)|недел\w*|месяц\w*|год\w*|лет)\s+назад"
    r"|\d+\s*(?:秒|分|時間|日|週間|か月|ヶ月|カ月|年|分钟|小时|天|周|个月)前"
    r"|\d+\s*(?:초|분|시간|일|주|개월|달|년)\s*전)",
    re.I,
)


# Every relative time holds one of these (cheap to look for before the full pattern).
_RELATIVE_HINT = re.compile(r"ago|vor|il y a|hace|há|fa\b|geleden|назад|前|전|yesterday|just now", re.I)


# The hints an ASCII text can hold, lower-cased ("fa" without its word end): finding them in the
# lower-cased text is several times cheaper than the hint pattern and misses no text it finds.
_ASCII_HINTS = ("ago", "vor", "il y a", "hace", "fa", "geleden", "yesterday", "just now")


def relative_match(text: str | None) -> int | None:
    """Where a relative time ("3 days ago") starts in ``text``, or None."""
    if not text:
        return None
    if text.isascii():
        low = text.lower()
        if not any(hint in low for hint in _ASCII_HINTS):
            return None
    elif _RELATIVE_HINT.search(text) is None:
        return None
    found = _RELATIVE.search(text)
    return found.start() if found is not None else None


def is_dated(text: str | None) -> bool:
    """A printed date or a relative time: a comment's date line, whether or not it gives an instant."""
    return _is_dated(text) if text else False


# Short lines repeat across a site's pages ("Reply", sidebar dates): a bounded memo.
@lru_cache(maxsize=32768)
def _is_dated(text: str) -> bool:
    return parse_date(text) is not None or relative_match(text) is not None


def clear_memos() -> None:
    """Forget the memoised date readings (benchmarks start each timed run cold with it)."""
    _date_match.cache_clear()
    _is_dated.cache_clear()
