"""The post's date line: a line between the post's title and its body that is only a
date ("2026.10.04", "November 15, 2026") is the post's metadata, not its text.

    >>> date_only("2026.10.04"), date_only("Posted on November 15, 2026 by Ann")
    (True, False)

The date is kept as the page's ``published`` field (``PageExtraction.published``, ISO 8601).

Cocoon prints the post's date as a line of its own inside the post container, above the body, on
every page but with a different date: step 4 keeps it as post. The WordPress truth leaves it out,
as it leaves out bylines; Dragnet's gold keeps bylines ("By Ann, November 15, 2026"), so only a
line that is a date and nothing else is taken out (``date_lines``, opt-in, takes out whole byline identifiers).
"""

from __future__ import annotations

from collections.abc import Sequence

from .blocks import Block
from .dates import date_match, read_date
from .evidence import role_indices
from .roles import BOILERPLATE, POST

# A date alone is short ("September 17, 2026", "2026年11月15日"); a body paragraph is long.
DATE_ONLY_MAX_CHARS = 20
BODY_MIN_CHARS = 80


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
    post = [blocks[i] for i in role_indices(roles, POST) if blocks[i].text]
    body = next((k for k, b in enumerate(post) if b.text_chars >= BODY_MIN_CHARS), 0)
    dated = [b.index for b in post[1:body] if date_only(b.text)]
    if not dated:
        return roles
    out = list(roles)
    for i in dated:
        out[i] = BOILERPLATE
    return out


def published(blocks: Sequence[Block], roles: Sequence[str]) -> str | None:
    """The post's date from its date line: the first text block between the post's first
    block and its body that is a date alone, read as ISO 8601 ("2026-10-04"); None without one."""
    post = [i for i in role_indices(roles, POST) if blocks[i].text]
    if not post:
        return None
    body = next((i for i in post if blocks[i].text_chars >= BODY_MIN_CHARS), post[0])
    for b in blocks[post[0] + 1 : body]:
        if b.text and date_only(b.text):
            found = read_date(b.text)
            if found is not None:
                return found[0]
    return None
