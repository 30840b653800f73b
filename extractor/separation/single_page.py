"""A page truly alone (a set of one): the seeds' single-page methods.

A set of one page cannot tell template from content: every block is unique to it, so the set
method keeps the whole page as post, sidebars, menus, forms and footers included. The steps below,
each named after its paper and called in order by ``single_page_steps`` (as jusText's
``justext()`` composes its steps), narrow the post to the page's main region:

1. ``weight_map_main_node`` (Tsuruta et al., the weight map of seed 001, without rendering): every
   text block is a cell of the page, weighted by what it holds: its own words count for it, its
   link text against it (Gupta et al.'s link density: navigation), and each short line a little
   against it (labels, dates, counts, archive lists); a comment form weighs nothing, as comments.
   The block element whose cells weigh most is the main node; post blocks outside it and its
   siblings that weigh for content become boilerplate, but for the page's title (the nearest
   heading before the node).
2. ``gupta_link_density``: inside the main node, post blocks whose text is mostly link text are
   navigation (seed 001's second step; the set method already applies it to content blocks of sets).
3. ``information_quantity_boundary`` (Cao et al. 2009, seed 003): post and comments are the
   page's main text, and the post ends where the comments begin. The comment section is found by
   the page's own comment evidence (the single-page detector, run before these steps); comment
   blocks in a complementary region (``aside``) are not the page's, and post blocks after the
   comments begin, outside their region, are no post (the form, related posts, share rows); on a
   page without comments the comment form marks where they would begin.
4. ``gupta_emptied_labels`` (seed 001, Gupta et al.'s third step): a label heading ("Share
   this:") whose section the steps before emptied goes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.blocks import HEADINGS, Block
from ..core.roles import BOILERPLATE, COMMENT, POST
from ..speedups import subtree_sizes

# A line shorter than this (characters) weighs against the region it sits in: labels, counts, dates.
SHORT_LINE_CHARS = 40
# What such a line costs, in characters of prose.
SHORT_LINE_COST = 20
# Link text weighs against a region this many times its length.
LINK_WEIGHT = 2.0
# Gupta et al.'s bound: a block whose text is mostly link text is navigation (the set method's value).
MAX_LINK_DENSITY = 0.5
# Seed 001 weighs a page part by its characters plus ten per image or embedded object.
MEDIA_TAGS = ("img", "embed", "object", "iframe", "video")
MEDIA_CHARS = 10
# A comment form's title ("Leave a Reply", "Post a Comment") is at most this long.
FORM_TITLE_CHARS = 60
# A comment form holds at most this many characters of text (labels, a note on allowed tags).
COMMENT_FORM_CHARS = 1500
# How many text blocks before the main node the page's title may sit (byline, date between).
TITLE_REACH = 6

Step = Callable[[Sequence[Block], list[str]], list[str]]


def cell_weight(block: Block) -> float:
    """A text block's weight in the map: its own words for, its link text and shortness against."""
    media = sum(block.tags.get(tag, 0) for tag in MEDIA_TAGS) if block.tags else 0
    if not block.text:
        return float(MEDIA_CHARS * media)
    weight = block.text_chars - (1 + LINK_WEIGHT) * block.link_chars + MEDIA_CHARS * media
    # each short line costs: a list of labels ("August 2012 (4)") is no prose however long
    weight -= SHORT_LINE_COST * sum(1 for line in block.text.split("\n") if len(line) < SHORT_LINE_CHARS)
    return float(weight)


def weight_map_main_node(blocks: Sequence[Block], roles: list[str]) -> list[str]:
    """Seed 001, step 1: post blocks outside the heaviest block element are boilerplate."""
    posted = [b.index for b in blocks if b.text and roles[b.index] == POST]
    if not posted:
        return roles
    sizes = subtree_sizes(blocks)
    totals = [cell_weight(b) if roles[b.index] != COMMENT else 0.0 for b in blocks]
    for form in comment_forms(blocks, sizes):  # the comment section's form is no content either
        for i in form:
            totals[i] = 0.0
    for b in reversed(blocks):
        if b.parent >= 0:
            totals[b.parent] += totals[b.index]
    main = max(range(len(blocks)), key=lambda i: (totals[i], -sizes[i]))
    # the node's siblings that weigh for content too (an article's other paragraphs, when the
    # node is one paragraph beside a list of links that weighs the parent down)
    parent = blocks[main].parent
    kept = [False] * len(blocks)
    for b in blocks:
        if b.index == main or (parent >= 0 and b.parent == parent and totals[b.index] > 0):
            for i in range(b.index, b.index + sizes[b.index]):
                kept[i] = True
    out = list(roles)
    for i in posted:
        if not kept[i]:
            out[i] = BOILERPLATE
    end = main + sizes[main]
    first = next((i for i in posted if main <= i < end), main)
    title = _title_before(blocks, roles, first)
    if title >= 0:
        out[title] = POST  # a title written as a link to the post is one too
    return out


def _title_before(blocks: Sequence[Block], roles: Sequence[str], start: int) -> int:
    """The nearest heading (post, or boilerplate as a linked title is) among the few text blocks
    before ``start``, or -1."""
    seen = 0
    for i in range(start - 1, -1, -1):
        b = blocks[i]
        if not b.text:
            continue
        if b.tag in HEADINGS and roles[i] != COMMENT:
            return i
        seen += 1
        if seen >= TITLE_REACH:
            break
    return -1


def gupta_link_density(blocks: Sequence[Block], roles: list[str]) -> list[str]:
    """Seed 001, step 2: post blocks that are mostly link text are navigation."""
    return [
        BOILERPLATE if role == POST and b.text and b.link_density > MAX_LINK_DENSITY else role
        for b, role in zip(blocks, roles, strict=True)
    ]


def gupta_emptied_labels(blocks: Sequence[Block], roles: list[str]) -> list[str]:
    """Seed 001, Gupta et al.'s step 3 (what the first two steps left empty goes): a post heading
    written as a label ("Share this:", "Related posts:") whose section lost all its text (a row of
    buttons, a link list) labels nothing. Its section runs to the next heading."""
    out = list(roles)
    for b in blocks:
        label = roles[b.index] == POST and b.tag in HEADINGS and b.text.endswith(":")
        if label and not _section_has_post(blocks, roles, b.index):
            out[b.index] = BOILERPLATE
    return out


def _section_has_post(blocks: Sequence[Block], roles: Sequence[str], heading: int) -> bool:
    """Whether a post text block follows ``heading`` before the next heading."""
    for later in blocks[heading + 1 :]:
        if later.text and later.tag in HEADINGS:
            return False
        if later.text and roles[later.index] == POST:
            return True
    return False


def information_quantity_boundary(blocks: Sequence[Block], roles: list[str]) -> list[str]:
    """Seed 003: post and comments are the page's main text, the comments after the post. Comment
    blocks in a complementary region (``aside``: a "Recent Comments" widget) are not the page's
    comments; post blocks after the comment region begins, outside it, are no post (the form,
    related posts, share rows after the comments). A page with no comment yet still shows where
    its comment section begins: the comment form (a form with a text area) after the post."""
    out = [BOILERPLATE if role == COMMENT and _inside(blocks, i, "aside") else role for i, role in enumerate(roles)]
    sizes = subtree_sizes(blocks)
    commented = [b.index for b in blocks if b.text and out[b.index] == COMMENT]
    form = _comment_form(blocks, out, sizes)
    starts = [i for i in (commented[0] if commented else -1, form) if i >= 0]
    if not starts:
        return out
    region, end = len(blocks), len(blocks)
    if commented:
        region = _common_ancestor(blocks, commented)
        end = region + sizes[region] if region >= 0 else len(blocks)
    begin = min(starts)
    if begin == form:
        heading = _heading_before(blocks, form)
        if heading >= 0:
            out[heading] = BOILERPLATE  # "Leave a Reply": the form's title
    for i in range(begin + (begin != form), len(blocks)):
        if out[i] == POST and not region <= i < end:
            out[i] = BOILERPLATE
    return out


def comment_forms(blocks: Sequence[Block], sizes: Sequence[int]) -> list[range]:
    """The blocks of each comment form: a form holding a text area and little text (labels and a
    note; a form around the whole page, as ASP.NET writes it, holds the page's text)."""
    forms = []
    for b in blocks:
        if b.tag != "form":
            continue
        inside = range(b.index, b.index + sizes[b.index])
        has_text_area = any(blocks[i].tags.get("textarea") for i in inside)
        if has_text_area and sum(blocks[i].text_chars for i in inside) <= COMMENT_FORM_CHARS:
            forms.append(inside)
    return forms


def _comment_form(blocks: Sequence[Block], roles: Sequence[str], sizes: Sequence[int]) -> int:
    """The first comment form after the post's first block, or -1."""
    first = next((b.index for b in blocks if b.text and roles[b.index] == POST), len(blocks))
    return next((form.start for form in comment_forms(blocks, sizes) if form.start > first), -1)


def _heading_before(blocks: Sequence[Block], index: int) -> int:
    """The text block just before ``index`` when it is a short heading, else -1."""
    for i in range(index - 1, -1, -1):
        if blocks[i].text:
            return i if blocks[i].tag in HEADINGS and blocks[i].text_chars <= FORM_TITLE_CHARS else -1
    return -1


def _inside(blocks: Sequence[Block], index: int, tag: str) -> bool:
    while index >= 0:
        if blocks[index].tag == tag:
            return True
        index = blocks[index].parent
    return False


def _common_ancestor(blocks: Sequence[Block], indices: Sequence[int]) -> int:
    """The deepest block holding all ``indices`` (-1: none but the document)."""
    chains = []
    for index in indices:
        chain = set()
        while index >= 0:
            chain.add(index)
            index = blocks[index].parent
        chains.append(chain)
    common = set.intersection(*chains)
    return max(common) if common else -1


SINGLE_PAGE_STEPS: tuple[Step, ...] = (
    weight_map_main_node,
    gupta_link_density,
    information_quantity_boundary,
    gupta_emptied_labels,
)


def single_page_steps(
    blocks: Sequence[Block], roles: list[str], steps: Sequence[Step] = SINGLE_PAGE_STEPS
) -> list[str]:
    """The single-page methods in order, each taking the roles the previous one left."""
    for step in steps:
        roles = step(blocks, roles)
    return roles
