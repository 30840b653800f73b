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

``drop_story_boxes`` (the ``story_boxes`` option) does the same for boxes of other stories: a box
its heading names as such ("Popular Now", "Most Commented", "Related Stories", "You may also like")
holds no comments, whatever its lines look like (story titles, teasers), unless a comment signs a
line in it ("Ann says:", "Reply"); and a comment block that is only links or dates (a list of
linked titles, related stories with their dates on lines of their own) stays only where its unit
holds a line of prose (a comment's text, however short: "Thanks!"); the title of a box so emptied
goes with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..core.blocks import HEADINGS, Block
from ..core.dates import is_dated
from ..core.roles import BOILERPLATE, COMMENT
from ..core.treepasses import inside_small_ancestors
from ..speedups import subtree_sizes, subtree_sums
from .comment_words import author_line, comment_heading, signed_line
from .evidence import LONE_UNIT_MAX_BLOCKS, UNIT_MAX_BLOCKS, role_indices
from .postmeta import date_only

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
# The heading of a box of other stories: "Popular Now", "Most Commented", "Related Stories".
_STORY_BOX = re.compile(
    r"^\W*(?:(?:most|top)\s+(?:popular|read|viewed|commented|discussed|emailed|shared)"
    r"|popular(?:\s+(?:now|today|this week|stories|articles|posts))?|trending(?:\s+now)?"
    r"|related(?:\s+(?:stories|articles|posts|links|content|coverage|news))?|you\s+(?:may|might)\s+also\s+(?:like|enjoy)"
    r"|recommended\s+(?:for\s+you|stories|articles|reading)|more\s+(?:stories|news|headlines)"
    r"|top\s+(?:stories|news|headlines)|(?:latest|recent)\s+(?:stories|news|headlines|posts|articles)"
    r"|what\s+to\s+read\s+next|read\s+next)(?:\s+(?:stories|articles|posts|news))?\W*$",
    re.I,
)
STORY_BOX_HEADING_MAX_CHARS = 40
# A block of dates alone holds at most a few ("Nov 3, 2012\nOct 30, 2012").
_DATE_LINES_MAX_CHARS = 80
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


def drop_shapeless(blocks: Sequence[Block], roles: list[str], sizes: Sequence[int] | None = None) -> list[str]:
    """Comment blocks that are only a count, a duration, a number or a dated story title are
    boilerplate, unless a small element around them (at most ``LONE_UNIT_MAX_BLOCKS`` blocks, up to
    three levels up: a comment unit) holds a comment block with a body; a count written as a comment
    heading ("17 Comments") needs a comment body anywhere in those three levels (the section it
    titles)."""
    asked = [i for i in role_indices(roles, COMMENT) if blocks[i].text and shapeless(blocks[i])]
    if not asked:
        return roles
    has_body = [0] * len(blocks)
    for k in role_indices(roles, COMMENT):  # comment blocks are few: a page's other blocks never ask
        has_body[k] = int(body(blocks[k]))
    bodies = subtree_sums(has_body, blocks)
    sizes = sizes if sizes is not None else subtree_sizes(blocks)
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


def story_link(block: Block) -> bool:
    """A text block that is only links (a story title, a list of them) or only dates: a box's line,
    unless a comment's prose sits beside it (its author's linked name, its linked date)."""
    if not block.text:
        return False
    if block.link_density > 0.5:
        return True
    # a date alone is short: most comment bodies fail here, before their lines are split
    if block.text_chars > _DATE_LINES_MAX_CHARS:
        return False
    return all(date_only(line) for line in block.text.split("\n"))


def prose(block: Block) -> bool:
    """A comment's line of words, however short: not a link, not a date, not a count, not a heading."""
    return block.tag not in HEADINGS and not story_link(block) and not shapeless(block)


def story_box_heading(block: Block) -> bool:
    """A short line naming a box of other stories ("Popular Now"); not a link or a list item (a
    comment section's "Newest | Most Popular" sort tabs)."""
    text = block.text
    if not 0 < len(text) <= STORY_BOX_HEADING_MAX_CHARS or "\n" in text or block.tag == "li":
        return False
    return block.link_density <= 0.5 and _STORY_BOX.match(text) is not None


def drop_story_boxes(blocks: Sequence[Block], roles: list[str]) -> list[str]:
    """Boxes of other stories hold no comments (``drop_titled_boxes``), nor do boxes of links or
    dates alone (``drop_link_boxes``)."""
    asked = role_indices(roles, COMMENT)
    if not asked:
        return roles
    sizes = subtree_sizes(blocks)  # shared: each step climbs the same small elements
    return drop_link_boxes(blocks, drop_titled_boxes(blocks, roles, sizes, asked), sizes)


def drop_titled_boxes(
    blocks: Sequence[Block], roles: list[str], sizes: Sequence[int] | None = None, asked: Sequence[int] | None = None
) -> list[str]:
    """The comment blocks of a box whose heading names other stories (the smallest element around
    the heading, up to three levels up and ``UNIT_MAX_BLOCKS`` blocks, that holds comment blocks)
    are boilerplate, unless a line in it signs a comment ("Ann says:", "Reply", "by Ann") or heads a
    comment section ("Comments (5)": the heading is then the section's own, a sort tab)."""
    asked = asked if asked is not None else role_indices(roles, COMMENT)
    if not asked:
        return roles
    comments = [0] * len(blocks)
    for k in asked:
        comments[k] = 1
    comments = subtree_sums(comments, blocks)
    sizes = sizes if sizes is not None else subtree_sizes(blocks)
    inside = inside_small_ancestors(blocks, asked, sizes, UNIT_MAX_BLOCKS)
    headings = [blocks[k] for k in inside if _box_heading(blocks[k])]
    if not headings:
        return roles
    out = list(roles)
    for heading in headings:
        node = heading.parent
        for _ in range(3):
            if node < 0 or sizes[node] > UNIT_MAX_BLOCKS:
                break
            if comments[node]:
                box = range(node, node + sizes[node])  # a subtree is contiguous in preorder
                if not any(_signs_comments(blocks[k]) for k in box):
                    out[node : box.stop] = [BOILERPLATE if r == COMMENT else r for r in out[node : box.stop]]
                break
            node = blocks[node].parent
    return out


def _box_heading(block: Block) -> bool:
    return bool(block.text) and block.text_chars <= STORY_BOX_HEADING_MAX_CHARS and story_box_heading(block)


def _signs_comments(block: Block) -> bool:
    text = block.text
    return bool(text) and (signed_line(text) or author_line(text) or comment_heading(block))


def drop_link_boxes(blocks: Sequence[Block], roles: list[str], sizes: Sequence[int] | None = None) -> list[str]:
    """Comment blocks that are only links or dates are boilerplate unless a small element around them
    (at most ``LONE_UNIT_MAX_BLOCKS`` blocks, up to three levels up: a comment unit) holds a comment
    block of prose; then a comment heading whose small element kept no other comment block, and lost
    one here, is the emptied box's title."""
    asked = [i for i in role_indices(roles, COMMENT) if story_link(blocks[i])]
    if not asked:
        return roles
    sizes = sizes if sizes is not None else subtree_sizes(blocks)
    prose_at: dict[int, bool] = {}  # comment blocks read once: a unit's links ask about the same blocks

    def holds_prose(node: int) -> bool:
        # a subtree is contiguous in preorder; units are small (LONE_UNIT_MAX_BLOCKS)
        for k in range(node, node + sizes[node]):
            if roles[k] == COMMENT:
                if k not in prose_at:
                    prose_at[k] = prose(blocks[k])
                if prose_at[k]:
                    return True
        return False

    out = list(roles)
    dropped = [0] * len(blocks)
    for i in asked:
        node = blocks[i].parent
        for _ in range(3):
            if node < 0 or sizes[node] > LONE_UNIT_MAX_BLOCKS:
                node = -1
                break
            if holds_prose(node):
                break
            node = blocks[node].parent
        else:
            node = -1
        if node < 0:
            out[i] = BOILERPLATE
            dropped[i] = 1
    if not any(dropped):
        return roles
    lost = subtree_sums(dropped, blocks)
    left = subtree_sums([int(r == COMMENT) for r in out], blocks)
    for i in role_indices(out, COMMENT):
        if blocks[i].tag in HEADINGS and _emptied(blocks, blocks[i].parent, lost, left, sizes):
            out[i] = BOILERPLATE
    return out


def _emptied(
    blocks: Sequence[Block], node: int, lost: Sequence[int], left: Sequence[int], sizes: Sequence[int]
) -> bool:
    """Whether a small ancestor of a heading (up to three levels) lost comment blocks to
    ``drop_link_boxes`` and keeps none but the heading itself."""
    for _ in range(3):
        if node < 0 or sizes[node] > LONE_UNIT_MAX_BLOCKS or left[node] > 1:
            return False
        if lost[node]:
            return True
        node = blocks[node].parent
    return False
