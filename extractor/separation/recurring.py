"""Lines a site's posts share: a line inside the post region that recurs on other
pages only inside their post regions is post.

    >>> from extractor.core.blocks import parse_blocks
    >>> html = "<body><div class=c><p>Post {} text.</p><h2>Introduction</h2></div></body>"
    >>> pages = [parse_blocks(html.format(i)) for i in range(3)]
    >>> roles = [["boilerplate", "boilerplate", "post", "boilerplate"] for _ in pages]
    >>> idents = [["_default", ".c", ".c", ".c"] for _ in pages]
    >>> recurring_post_lines(pages, roles, idents, ".c")[0][3]  # on every page: a template line
    'boilerplate'

Step 4 drops every block another page also has. Inside a post that includes a sub-heading two
posts share ("はじめに", "Conclusion"), a closing line the author repeats ("Start before you feel
ready."), a caption. ``post_gaps`` restores such lines between post blocks; at the post's edges (its last
line, a heading after a table of contents) nothing did. Here a boilerplate prose block of the main
post identifier, after the page's first post block, among siblings that are mostly post, is post
when every occurrence of its text in the set (links aside) is such a block, on fewer than half of
the pages: a template line inside the post container ("Share this:") recurs on most pages, and the
values of a spec sheet sit among other values, not among the post's paragraphs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import accumulate

from ..comments.comment_words import author_line, labelled_name, signed_line
from ..comments.evidence import role_indices
from ..comments.units import date_line
from ..core.blocks import Block
from ..core.roles import BOILERPLATE, COMMENT, POST
from ..core.treepasses import inside_small_ancestors
from ..speedups import subtree_sizes
from .robust import GAP_TAGS, _title_before_post

# A link-dense block is navigation: its text neither counts against a line nor becomes post.
LINK_DENSITY = 0.5


def recurring_post_lines(
    pages: Sequence[Sequence[Block]], roles: Sequence[list[str]], idents: Sequence[Sequence[str]], main_id: str | None
) -> list[list[str]]:
    """With ``recurring_post_lines``: see the module docstring."""
    if main_id is None or len(pages) < 3:
        return list(roles)
    firsts = [_first_post(blocks, page_roles) for blocks, page_roles in zip(pages, roles, strict=True)]
    # the post region ends where the page's comments begin: a reader's line that recurs on another
    # page ("Great write-up, thanks!") sits in the comment area, and is no line the posts share
    ends = [_first_comment(page_roles, first) for page_roles, first in zip(roles, firsts, strict=True)]
    # the boilerplate lines of each post region (few): only their texts are looked up elsewhere
    candidates = [
        [
            i
            for i, (role, ident) in enumerate(zip(page_roles, page_idents, strict=True))
            if ident == main_id and role == BOILERPLATE and first < i < end and _in_region(blocks[i])
        ]
        for blocks, page_roles, page_idents, first, end in zip(pages, roles, idents, firsts, ends, strict=True)
    ]
    keys = {pages[p][i].text.lower() for p, mine in enumerate(candidates) for i in mine}
    if not keys:
        return list(roles)
    lengths = {len(k) for k in keys}  # a cheap test before a block's text is lower-cased
    inside: Counter[str] = Counter()  # text -> pages where it occurs inside the post region
    outside: set[str] = set()  # texts seen anywhere else
    for blocks, page_idents, first, end in zip(pages, idents, firsts, ends, strict=True):
        seen: set[str] = set()
        for b in blocks:
            text = b.text
            if len(text) not in lengths or b.link_density > LINK_DENSITY:
                continue
            key = text.lower()
            if key not in keys:
                continue
            if first < b.index < end and page_idents[b.index] == main_id and b.tag in GAP_TAGS:
                seen.add(key)
            else:
                outside.add(key)
        inside.update(seen)
    half = len(pages) / 2
    out = []
    for blocks, page_roles, mine in zip(pages, roles, candidates, strict=True):
        chosen = [
            i
            for i in mine
            if (key := blocks[i].text.lower()) not in outside
            and inside[key] < half
            and _among_post(blocks, page_roles, i)
        ]
        if not chosen:
            out.append(page_roles)
            continue
        page_out = list(page_roles)
        for i in chosen:
            page_out[i] = POST
        out.append(page_out)
    return out


def _first_post(blocks: Sequence[Block], roles: Sequence[str]) -> int:
    """The page's first post block with text (its title, mostly), or past the end."""
    return next((i for i, r in enumerate(roles) if r == POST and blocks[i].text), len(blocks))


def _first_comment(roles: Sequence[str], first: int) -> int:
    """The page's first comment block after its first post block, or past the end."""
    return next((i for i in range(first + 1, len(roles)) if roles[i] == COMMENT), len(roles))


def _in_region(block: Block) -> bool:
    """A prose block with text that is not navigation."""
    return bool(block.text) and block.link_density <= LINK_DENSITY and block.tag in GAP_TAGS


def _among_post(blocks: Sequence[Block], roles: Sequence[str], i: int) -> bool:
    """Whether most of the block's siblings with text are post (or it has none): a line of the
    post's own list or paragraphs, not of a spec sheet whose values recur from page to page."""
    parent = blocks[i].parent
    siblings = [b.index for b in blocks if b.parent == parent and b.index != i and b.text] if parent >= 0 else []
    return sum(roles[k] == POST for k in siblings) * 2 >= len(siblings)


def shared_titles(pages: Sequence[Sequence[Block]], roles: Sequence[list[str]]) -> list[list[str]]:
    """Two posts that share a title lose it to step 4 (``linked_titles`` restores only a title unique to its
    page). The nearest heading before a page's first post block (the linked title) is post when every
    non-link occurrence of its text in the set is such a title, on fewer than half of the pages (a
    heading above every post, "Latest news", is the template's)."""
    titles = [_title_before_post(blocks, page_roles) for blocks, page_roles in zip(pages, roles, strict=True)]
    keys = {pages[p][t].text.lower() for p, t in enumerate(titles) if t is not None}
    if not keys or len(pages) < 3:
        return list(roles)
    lengths = {len(k) for k in keys}
    counts: Counter[str] = Counter()
    for blocks, title in zip(pages, titles, strict=True):
        for b in blocks:
            text = b.text
            if len(text) not in lengths or (key := text.lower()) not in keys:
                continue
            if b.index == title:  # (linked or not: such titles are often permalinks)
                counts[key] += 1
            elif b.link_density <= LINK_DENSITY:  # the same text elsewhere: not a title of its own
                counts[key] += len(pages)
    out = []
    for blocks, page_roles, title in zip(pages, roles, titles, strict=True):
        if title is None or counts[blocks[title].text.lower()] >= len(pages) / 2:
            out.append(page_roles)
            continue
        page_out = list(page_roles)
        page_out[title] = POST
        out.append(page_out)
    return out


# A comment's unit (the block around its author line and its words) holds at most this many blocks.
COMMENT_UNIT_BLOCKS = 15


def recurring_comment_lines(pages: Sequence[Sequence[Block]], roles: Sequence[list[str]]) -> list[list[str]]:
    """Readers repeat each other ("Great write-up, thanks for sharing."): step 4 drops a comment's
    words that another page of the set also shows, and the comment is left with its author line
    alone. A boilerplate prose line inside a small unit with comment blocks and no post block is
    comment when every occurrence of its text in the set (links aside) is such a line, on fewer
    than half of the pages: a template line of the comment area ("Leave a Reply", a form label)
    shows on the comment-free pages too, or on most pages. On as many pages or more (a new site's
    first two articles, both commented by the same kind words), the line is comment where its unit
    kept no words of its own, only an author line or a date: a comment is never its signature
    alone, and a template line inside comment units sits beside each comment's words."""
    if len(pages) < 2:
        return list(roles)
    candidates = [_lines_in_comment_units(blocks, page_roles) for blocks, page_roles in zip(pages, roles, strict=True)]
    keys = {pages[p][i].text.lower() for p, mine in enumerate(candidates) for i in mine}
    if not keys:
        return list(roles)
    lengths = {len(k) for k in keys}
    inside: Counter[str] = Counter()  # text -> pages where it is a line of a comment unit
    outside: set[str] = set()
    for blocks, mine in zip(pages, candidates, strict=True):
        seen: set[str] = set()
        for b in blocks:
            if len(b.text) not in lengths or b.link_density > LINK_DENSITY or (key := b.text.lower()) not in keys:
                continue
            if b.index in mine:
                seen.add(key)
            else:
                outside.add(key)
        inside.update(seen)
    out = []
    for blocks, page_roles, mine in zip(pages, roles, candidates, strict=True):
        chosen = [
            i
            for i, unit in mine.items()
            if (key := blocks[i].text.lower()) not in outside
            and (inside[key] < len(pages) / 2 or _wordless(blocks, page_roles, unit))
        ]
        page_out = list(page_roles)
        for i in chosen:
            page_out[i] = COMMENT
        out.append(page_out)
    return out


def _wordless(blocks: Sequence[Block], roles: Sequence[str], unit: range) -> bool:
    """Whether the unit's comment blocks are only signatures: author lines, "Name says:", dates."""
    for i in unit:
        text = blocks[i].text
        if roles[i] == COMMENT and text and not _signature(blocks[i]):
            return False
    return True


def _signature(block: Block) -> bool:
    text = block.text
    return signed_line(text) or author_line(text) or labelled_name(text) or date_line(block)


def _lines_in_comment_units(blocks: Sequence[Block], roles: Sequence[str]) -> dict[int, range]:
    """Boilerplate prose blocks whose nearest ancestor holding a comment block is a small unit
    without post blocks (one comment: its author line, date, words and reply link), each with
    that unit's blocks (a subtree is contiguous in preorder)."""
    if COMMENT not in roles:
        return {}
    sizes = subtree_sizes(blocks)
    # prefix counts: comment and post blocks before each index
    comments = [0, *accumulate(map(COMMENT.__eq__, roles))]
    posts = [0, *accumulate(map(POST.__eq__, roles))]
    found = {}
    for i in inside_small_ancestors(blocks, role_indices(roles, COMMENT), sizes, COMMENT_UNIT_BLOCKS):
        b = blocks[i]
        if roles[i] != BOILERPLATE or not _in_region(b):
            continue
        unit = b.parent
        while unit >= 0 and comments[unit + sizes[unit]] == comments[unit + 1]:
            unit = blocks[unit].parent  # up to the nearest ancestor holding a comment block
        if unit < 0 or sizes[unit] > COMMENT_UNIT_BLOCKS or posts[unit + sizes[unit]] != posts[unit]:
            continue
        found[b.index] = range(unit, unit + sizes[unit])
    return found
