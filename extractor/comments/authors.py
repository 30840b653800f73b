"""Author lines of comment records: labels shared by the names, and reply bylines.

    >>> shared_affixes(["Ann says:", "Bo Li says:"])
    ('', ' says:')
    >>> shared_note(["Ann (not verified)", "Bo (not verified)", "Cy (not verified)", "admin"])
    '(not verified)'

Structural only: what many distinct names of a set share is a label ("… says:", "Submitted by …",
"(not verified)"), never a keyword list; a line that runs from one commenter's whole name to
another's is a reply byline.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Protocol


class Authored(Protocol):
    author: str | None


# A shared suffix glued to the names (no space before it) is cut only over this many distinct names.
GLUED_SUFFIX_NAMES = 5


def shared_affixes(names: Sequence[str]) -> tuple[str, str]:
    """Prefix and suffix every author line shares, cut at a word boundary ("… says:")."""
    distinct = sorted(set(names))
    if len(distinct) < 2:
        return "", ""

    def common_prefix(items: Sequence[str]) -> str:
        first, last = min(items), max(items)
        n = 0
        while n < min(len(first), len(last)) and first[n] == last[n]:
            n += 1
        return first[:n]

    prefix = common_prefix(distinct)
    cut = max(prefix.rfind(" "), prefix.rfind("\n"))
    prefix = prefix[: cut + 1] if cut >= 0 else ""
    raw = common_prefix([d[::-1] for d in distinct])[::-1]
    cut = min([i for i in (raw.find(" "), raw.find("\n")) if i >= 0], default=-1)
    suffix = raw[cut:] if cut >= 0 else ""
    # a colon ends a label, never a name: two names suffice then
    glued_names = 2 if raw.endswith((":", "：")) else GLUED_SUFFIX_NAMES
    if cut > 0:
        # a label with a space of its own glued to the name ("Chloedit:", "Pete님의 말:"): the shared
        # ending before the space is a name ending too often ("Jackson says:", "Wilson says:"), so
        # many names must share it
        glued_names = GLUED_SUFFIX_NAMES
    if cut != 0 and len(distinct) >= glued_names and raw and not raw[-1].isalnum() and raw.strip():
        # "says:" printed with no space after the name ("Hannah Beckersays:"): many distinct names
        # sharing a suffix that ends in punctuation share a label, not a name ending
        suffix = raw if len(raw) < min(map(len, distinct)) else suffix
    return prefix, suffix


_NOTE = re.compile(r"\s*\([^()]{1,30}\)$")
# A trailing parenthesis is a label when at least this share of the distinct names (and three) carry it.
NOTE_SHARE = 0.5


def shared_note(names: Sequence[str]) -> str:
    """The parenthesised label that most distinct names end with (``names``: shared affixes cut)."""
    notes: Counter[str] = Counter()
    distinct = set(names)
    for name in distinct:
        found = _NOTE.search(name)
        if found is not None and found.start() > 0:
            notes[found.group(0).strip()] += 1
    if not notes:
        return ""
    note, n = notes.most_common(1)[0]
    return note if n >= 3 and n >= NOTE_SHARE * len(distinct) else ""


# Words between two commenters' whole names that make a reply's byline ("Joe replied to comment
# from Ann"); fewer are one longer name.
BYLINE_WORDS = 2


def cut_bylines(records: Sequence[Authored]) -> None:
    """An author line that is one commenter's whole name, a few words, and another commenter's whole
    name (Movable Type's "Name replied to comment from Other") is the first name. Names alone do not
    suffice ("Jason" and "Jason De Los Santos" may both comment): the line must end in another name.

    Word by word, so a set with thousands of commenters costs a few set lookups per author line.
    """
    names = {r.author for r in records if r.author}
    for r in records:
        words = r.author.split() if r.author else []
        if len(words) < BYLINE_WORDS + 2:
            continue
        # the longest leading name, then a trailing name at least BYLINE_WORDS words after it
        k = next((k for k in range(len(words) - 1, 0, -1) if " ".join(words[:k]) in names), 0)
        if not k:
            continue
        first = " ".join(words[:k])
        if any(
            " ".join(words[j:]) in names and " ".join(words[j:]) != first for j in range(k + BYLINE_WORDS, len(words))
        ):
            r.author = first
