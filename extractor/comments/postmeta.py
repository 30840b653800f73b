"""The post's date line: a line between the post's title and its body that is only a
date ("2026.10.04", "November 15, 2026") is the post's metadata, not its text.

    >>> date_only("2026.10.04"), date_only("Posted on November 15, 2026 by Ann")
    (True, False)
    >>> byline("Posted on November 15, 2026 By Olivia Stone")
    Byline(author='Olivia Stone', published='2026-11-15')

The date is kept as the page's ``published`` field (``PageExtraction.published``, ISO 8601).

Cocoon prints the post's date as a line of its own inside the post container, above the body, on
every page but with a different date: step 4 keeps it as post. The WordPress truth leaves it out,
as it leaves out bylines; Dragnet's gold keeps bylines ("By Ann, November 15, 2026"), so only a
line that is a date and nothing else is taken out (``date_lines``, opt-in, takes out whole byline identifiers).

A byline in that place, a date and an author after "By" or "投稿者" ("Posted on November 15, 2026 By
Olivia Stone", "投稿日 2026年10月4日 投稿者 山田花子"), names the post's author (``post_author``) and
date (the ``post_byline`` option); with ``date_lines`` too it leaves the post text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.blocks import Block
from ..core.dates import date_match, read_date
from ..core.roles import BOILERPLATE, POST
from .evidence import role_indices

# A date alone is short ("September 17, 2026", "2026年11月15日"); a body paragraph is long.
DATE_ONLY_MAX_CHARS = 20
BODY_MIN_CHARS = 80
# A byline is one short line ("Posted on November 15, 2026 By Olivia Stone | 3 Comments").
BYLINE_MAX_CHARS = 120
AUTHOR_MAX_WORDS = 4
# The author marker, then the name up to a separator, a date or the line's end.
_BY = re.compile(r"(?:^|(?<=[\s|·•,]))(?:posted\s+by|written\s+by|by|投稿者)\s*[:：]?\s*", re.I)
# What may follow the name on its line: a separator, "on <date>", "Discuss (0)", "Published".
_NAME_END = re.compile(
    r"\s*(?:[|·•,(]|\s(?:on|at|in)\s|\s(?:discuss|published|updated|posted|comments?|leave)\b)", re.I
)
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True, slots=True)
class Byline:
    author: str
    published: str | None  # ISO 8601


def byline(text: str) -> Byline | None:
    """A line with a date and an author after an author marker, the author and the date read from it;
    None for anything else (a sentence with "by" in it is longer, or has no date, or no name)."""
    text = text.strip()
    if not text or len(text) > BYLINE_MAX_CHARS:
        return None
    marker = _BY.search(text)
    if marker is None or date_match(" ".join(text.split())) is None:
        return None
    rest = " ".join(text[marker.end() :].split("\n", 1)[0].split())  # the name ends with its line
    after = date_match(rest)
    if after is not None:
        rest = rest[: after[1]]
    name = _NAME_END.split(rest, maxsplit=1)[0].strip(" -–—:")
    # a name is capitalised where its script has case ("by the river" is no byline)
    if not name or name[0].islower() or _DIGIT.search(name) or len(name.split()) > AUTHOR_MAX_WORDS:
        return None
    found = read_date(" ".join(text.split()))
    return Byline(name, found[0] if found is not None else None)


def date_only(text: str) -> bool:
    """Whether a line is a date and nothing else (it starts with the date and is that short)."""
    text = text.strip()
    if not text or len(text) > DATE_ONLY_MAX_CHARS or "\n" in text:
        return False
    found = date_match(text)
    return found is not None and found[1] == 0


def post_date_line(blocks: Sequence[Block], roles: list[str]) -> list[str]:
    """Post blocks after the post's first block (its title) and before its body (the first post
    block of ``BODY_MIN_CHARS``) that are a date alone are boilerplate."""
    return _boilerplate(
        roles, [b.index for b in _head_blocks(blocks, roles) if roles[b.index] == POST and date_only(b.text)]
    )


def _boilerplate(roles: list[str], found: Sequence[int]) -> list[str]:
    """``roles`` with the ``found`` blocks boilerplate (the same list when there are none)."""
    if not found:
        return roles
    out = list(roles)
    for i in found:
        out[i] = BOILERPLATE
    return out


def _head_blocks(blocks: Sequence[Block], roles: Sequence[str]) -> list[Block]:
    """The text blocks after the post's first block (its title) and before its body (the first post
    block of ``BODY_MIN_CHARS``), whatever their role."""
    post = [i for i in role_indices(roles, POST) if blocks[i].text]
    if not post:
        return []
    body = next((i for i in post if blocks[i].text_chars >= BODY_MIN_CHARS), post[0])
    return [b for b in blocks[post[0] + 1 : body] if b.text]


def post_byline(blocks: Sequence[Block], roles: list[str]) -> list[str]:
    """Post blocks between the post's title and its body that are a byline (``byline``) are
    boilerplate: the post's metadata (``post_author``), not its text."""
    return _boilerplate(
        roles, [b.index for b in _head_blocks(blocks, roles) if roles[b.index] == POST and byline(b.text)]
    )


def post_author(blocks: Sequence[Block], roles: Sequence[str]) -> Byline | None:
    """The first byline between the post's title and its body (post or not: ``post_byline`` may
    have taken it out); None without one."""
    return next((found for b in _head_blocks(blocks, roles) if (found := byline(b.text))), None)


def published(blocks: Sequence[Block], roles: Sequence[str]) -> str | None:
    """The post's date from its date line: the first text block between the post's first
    block and its body that is a date alone, read as ISO 8601 ("2026-10-04"); None without one."""
    for b in _head_blocks(blocks, roles):
        if date_only(b.text) and (found := read_date(b.text)) is not None:
            return found[0]
    return None
