"""The theme corpus in other languages: comment dates and labels as localized WordPress prints them.

    >>> localize_text('<time>May 10, 2026 at 4:35 pm</time> says: <a>Reply</a>', "de")
    '<time>10. Mai 2026 um 16:35</time> sagt: <a>Antworten</a>'

The pages' words stay English; what changes is what a site in another language prints around each
comment: the date format (month names, day-first orders, 24-hour clocks, CJK half-day markers, numeric
dates) and the "says:" and "Reply" labels (French puts a space before the colon, Korean glues a label
with a space of its own to the name). Truth is unchanged: dates are UTC values and comment texts hold
neither labels nor dates.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

_EN_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_DATE = re.compile(r"\b(" + "|".join(_EN_MONTHS) + r") (\d{1,2}), (\d{4})(?: at (\d{1,2}):(\d{2}) (am|pm))?")


@dataclass(frozen=True)
class Language:
    months: str | None  # the twelve names, space-separated; None: numeric months
    date: Callable[[int, str | int, int], str]  # day, month, year
    time: Callable[[int, int], str]  # hour (0-23), minute; appended to the date
    says: str
    reply: str


def _h12(h: int) -> int:
    return (h - 1) % 12 + 1


LANGUAGES: dict[str, Language] = {
    "de": Language(
        "Januar Februar März April Mai Juni Juli August September Oktober November Dezember",
        lambda d, m, y: f"{d}. {m} {y}",
        lambda h, mi: f" um {h:02d}:{mi:02d}",
        "sagt:",
        "Antworten",
    ),
    "fr": Language(
        "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
        lambda d, m, y: f"{d} {m} {y}",
        lambda h, mi: f" à {h} h {mi:02d} min",
        "dit :",
        "Répondre",
    ),
    "es": Language(
        "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
        lambda d, m, y: f"{d} de {m} de {y}",
        lambda h, mi: f" a las {h}:{mi:02d}",
        "dice:",
        "Responder",
    ),
    "ru": Language(
        "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
        lambda d, m, y: f"{d} {m} {y}",
        lambda h, mi: f" в {h}:{mi:02d}",
        "говорит:",
        "Ответить",
    ),
    "ko": Language(
        None,
        lambda d, m, y: f"{y}년 {m}월 {d}일",
        lambda h, mi: f" {'오후' if h >= 12 else '오전'} {_h12(h)}:{mi:02d}",
        "님의 말:",
        "답글",
    ),
    "zh": Language(
        None,
        lambda d, m, y: f"{y}年{m}月{d}日",
        lambda h, mi: f" {'下午' if h >= 12 else '上午'}{_h12(h)}:{mi:02d}",
        "说道：",
        "回复",
    ),
    "de-numeric": Language(
        None, lambda d, m, y: f"{d:02d}.{int(m):02d}.{y}", lambda h, mi: f" {h:02d}:{mi:02d}", "schreibt:", "Antworten"
    ),
    "en-us-numeric": Language(
        None,
        lambda d, m, y: f"{m}/{d:02d}/{y}",
        lambda h, mi: f" {_h12(h)}:{mi:02d} {'PM' if h >= 12 else 'AM'}",
        "said...",
        "Reply",
    ),
}


def localize_text(html: str, lang: str) -> str:
    """English dates and comment labels of a page as a site in ``lang`` prints them."""
    language = LANGUAGES[lang]

    def date(m: re.Match[str]) -> str:
        month = _EN_MONTHS.index(m.group(1))
        name: str | int = language.months.split()[month] if language.months else month + 1
        out = language.date(int(m.group(2)), name, int(m.group(3)))
        if m.group(4):
            hour = int(m.group(4)) % 12 + (12 if m.group(6) == "pm" else 0)
            out += language.time(hour, int(m.group(5)))
        return out

    html = _DATE.sub(date, html)
    return html.replace("says:", language.says).replace(">Reply<", f">{language.reply}<")


def localize_site(folder: Path, lang: str) -> None:
    """Rewrite a written site's pages (``folder/pages/*.html``) in place."""
    for page in sorted((folder / "pages").glob("*.html")):
        page.write_text(localize_text(page.read_text("utf-8"), lang), "utf-8")


_DATETIME_ATTR = re.compile(r'\sdatetime="[^"]*"')


def relative_dates(html: str) -> str:
    """The page's printed dates as "N days ago" (a plugin's or a modern theme's relative times),
    with no ``<time datetime>`` left to fall back on."""
    counter = iter(range(1, 10_000))
    html = _DATETIME_ATTR.sub("", html)
    return _DATE.sub(lambda m: f"{next(counter) % 11 + 2} days ago", html)
