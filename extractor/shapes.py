"""A comment's shape: per-page boxes of news sites are not comments.

    >>> shapeless_line("Comments (14)"), shapeless_line("2:52"), shapeless_line("Nice post, thanks!")
    (True, True, False)

A news page carries small boxes that are unique to it and sit near comment vocabulary: the comment
count beside the byline ("Comments (14)", "203 comments"), a video's duration ("2:52"), a related
story with its date in parentheses ("Storm hits coast (Nov 3, 2012)"), a reader-recommendation
count ("– A. Name 297 Recommendations"), the numbers of a "Popular Now" list. None has a comment's
shape: a reader comment has a body, a line of words that is more than a number, a duration, a
count or a link. ``drop_shapeless`` takes such a comment block out of the comments unless a small
element around it (a comment unit: its author line, its "297 Recommendations" button) holds a
comment body. Only what one line says is read here; where it sits, from the blocks' tree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .blocks import Block
from .comment_words import comment_heading
from .dates import is_dated
from .evidence import LONE_UNIT_MAX_BLOCKS, role_indices
from .roles import BOILERPLATE, COMMENT
from .units import subtree_sums

# A comment count, as a byline or a link prints it: "Comments (14)", "203 comments", "14 Replies".
_COUNT = re.compile(
    r"^\W*(?:(?:comments?|responses?|replies|reactions?)\W*\(?\s*\d[\d,.]*\s*\)?"
    r"|\d[\d,.]*\s*(?:comments?|responses?|replies|reactions?))\W*$",
    re.I,
)
# A video's duration ("2:52", "1:04:10"), a number alone ("297", "#3", "+1").
_DURATION = re.compile(r"^\W*\d{1,2}(?::[0-5]\d){1,2}\W*$")
_NUMBER = re.compile(r"^\W*\d[\d,.]*[kKmM]?\W*$")
# A count of readers' votes: "297 Recommendations", "– A. Name 297 Recommendations", "12 likes".
_VOTES = re.compile(r"\d[\d,.]*\s*(?:recommendations?|recommend|likes?|votes?|points?|upvotes?)\W*$", re.I)
_DIGIT = re.compile(r"\d")
# A story title with its date in parentheses: "Storm hits coast (Nov 3, 2012)".
_DATED_TITLE = re.compile(r"\(([^()]{4,40})\)\W*$")
# A body: a line of at least this many words.
BODY_WORDS = 4
# A line longer than this is never a box's count or title (a comment may end with a date).
SHAPELESS_MAX_CHARS = 160


def shapeless_line(line: str) -> bool:
    """Whether one line is only a comment count, a duration, a number, a vote count or a story title
    with its date in parentheses."""
    line = line.strip()
    if not line or len(line) > SHAPELESS_MAX_CHARS:
        return False
    if _COUNT.match(line) or _DURATION.match(line) or _NUMBER.match(line) or _VOTES.search(line):
        return True
    dated = _DATED_TITLE.search(line)
    return dated is not None and is_dated(dated.group(1))


def shapeless(block: Block) -> bool:
    """A text block whose every line is shapeless (``shapeless_line``)."""
    text = block.text
    # every shapeless line holds a digit or a parenthesised date: most comment bodies fail at once
    if not text or (_DIGIT.search(text) is None and ")" not in text):
        return False
    return all(shapeless_line(line) for line in text.split("\n"))


def body(block: Block) -> bool:
    """A comment body: a line of words that is not a link and not shapeless."""
    if not block.text or block.link_density > 0.5:
        return False
    return any(len(line.split()) >= BODY_WORDS and not shapeless_line(line) for line in block.text.split("\n"))


def drop_shapeless(blocks: Sequence[Block], roles: list[str]) -> list[str]:
    """Comment blocks that are only a count, a duration, a number or a dated story title are
    boilerplate, unless a small element around them (at most ``LONE_UNIT_MAX_BLOCKS`` blocks, up to
    three levels up: a comment unit) holds a comment block with a body; a count written as a comment
    heading ("17 Comments") needs a comment body anywhere in those three levels (the section it
    titles)."""
    asked = [i for i in role_indices(roles, COMMENT) if blocks[i].text and shapeless(blocks[i])]
    if not asked:
        return roles
    bodies = subtree_sums([int(roles[b.index] == COMMENT and body(b)) for b in blocks], blocks)
    sizes = subtree_sums([1] * len(blocks), blocks)
    out = list(roles)
    for i in asked:
        node, kept = blocks[i].parent, False
        # a count as a heading ("17 Comments") titles the section when the comments follow it
        section_title = comment_heading(blocks[i])
        for _ in range(3):
            if node < 0 or (sizes[node] > LONE_UNIT_MAX_BLOCKS and not section_title):
                break
            if bodies[node]:
                kept = True
                break
            node = blocks[node].parent
        if not kept:
            out[i] = BOILERPLATE
    return out
