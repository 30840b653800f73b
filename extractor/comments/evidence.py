"""Evidence that a region of one page holds reader comments, independent of the set.

    >>> from extractor.core.blocks import parse_blocks
    >>> blocks = parse_blocks('<body><p>Post</p><div id="comments"><h3>2 Comments</h3>'
    ...     '<div class="c"><p>Ann</p><p>May 2, 2024</p><p>Nice.</p></div>'
    ...     '<div class="c"><p>Bob</p><p>May 3, 2024</p><p>Thanks.</p></div></div></body>')
    >>> ev = comment_evidence(blocks)
    >>> [b.text for b in blocks if b.text and ev.signals(b.index) >= 2]
    ['Ann', 'May 2, 2024', 'Nice.', 'Bob', 'May 3, 2024', 'Thanks.']

The set method (2013 §3.6) calls a block a comment when it is unique to its page and its identifier
does not carry the post; nothing in that says "reader comment". Signals read from the page alone
(docs/algorithm.md, "comment evidence"): **vocabulary** (an id, class, aria-label, itemtype or itemprop naming a
comment region, or a comment-section heading before the block); **dated units** (alike siblings,
most holding a date line at the same place); **author lines** in those units; **numbered units**
(undated siblings addressed as "comment-12"). ``veto`` keeps a comment block only where one holds;
``detect_section`` (a page alone) needs two. What a single attribute value or line of text says
(the vocabulary, headings, author lines) is read by comment_words.py; this module reads where on
the page such words occur.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import compress

from ..core.blocks import HEADINGS, Block
from ..core.roles import BOILERPLATE, COMMENT, POST
from .comment_words import author_line, comment_heading, label_names_comments, signed_line, vocabulary_token
from .units import (
    SHORT_SLOT_CHARS,
    DateLines,
    children,
    share_holds,
    subtree_sums,
)

LONE_UNIT_MAX_BLOCKS = 20
# Share of a sibling group that must hold a date line to be a list of dated units.
DATED_SHARE = 0.6
# The median unit of a dated list has at most this many blocks (a comment's author, date,
# paragraphs, links, a few replies), so that a page's header and body columns are not units.
UNIT_MAX_BLOCKS = 60

VOCABULARY = 1
DATED_UNITS = 2
AUTHOR_LINES = 4
NUMBERED_UNITS = 8


def role_indices(roles: Sequence[str], role: str) -> list[int]:
    """Indices of the blocks of one role: ``role_indices(["post", "comment"], "comment")`` = [1]."""
    return list(compress(range(len(roles)), map(role.__eq__, roles)))


@dataclass(slots=True)
class Evidence:
    """Per block of one page, the comment signals it sits in (a bit set of the constants above)."""

    flags: list[int]
    asked: Sequence[int] = ()  # with roles: the comment blocks (role_indices), for the veto
    # comment text characters the set proposed and the veto kept (confidence)
    proposed: int = 0
    kept: int = 0

    def signals(self, index: int) -> int:
        """How many distinct signals hold for the block."""
        return bin(self.flags[index]).count("1")

    def any(self, index: int) -> bool:
        return self.flags[index] != 0


def comment_evidence(blocks: Sequence[Block], roles: Sequence[str] | None = None) -> Evidence:
    """The page's comment signals, per block (see the module docstring).

    With ``roles`` (the veto), only the comment blocks are asked about, a heading followed by post
    text in its scope is a post's byline ("Comments (3)"), not a section's, and the page's
    structure is read only around comment blocks that no vocabulary names (the veto needs one
    signal; a set's pages are mostly template). Without, every block is (the single-page detector).
    """
    n = len(blocks)
    flags = [0] * n
    if not n:
        return Evidence(flags)
    targets: Sequence[int] = range(n) if roles is None else role_indices(roles, COMMENT)
    vocab = [-1] * n  # memo: the block or an enclosing element names a comment region
    headings = _Headings(blocks, roles)
    for t in targets:
        if _vocabulary(blocks, vocab, t) or headings.before(t):
            flags[t] |= VOCABULARY
    bearing = None
    if roles is None:
        lines = DateLines(blocks)
        parents: Sequence[int] = range(n)
    else:
        unnamed = [0] * n
        for t in targets:
            if not flags[t]:
                unnamed[t] = 1
        if not any(unnamed):
            return Evidence(flags, targets)
        lines = DateLines(blocks)
        # a list of units has a unit-sized member that holds an unnamed comment block
        bearing = subtree_sums(unnamed, blocks)
        sizes = lines.sizes
        parents = sorted({blocks[k].parent for k in compress(range(n), bearing) if sizes[k] <= UNIT_MAX_BLOCKS} - {-1})
    kids = children(blocks)
    # dated units: alike siblings, most holding a date line, each unit's subtree marked
    for parent in parents:
        members = kids[parent]
        if len(members) < 2:
            continue
        by_tag: dict[str, list[int]] = {}
        for k in members:
            if blocks[k].tag not in HEADINGS:
                by_tag.setdefault(blocks[k].tag, []).append(k)
        for tag_members in by_tag.values():
            if len(tag_members) < 2:
                continue
            for group in _alike_groups(blocks, tag_members):
                if len(group) < 2:
                    continue
                # units, not wrappers: a page's header and body columns both hold a date too
                sizes = sorted(lines.sizes[k] for k in group)
                if sizes[len(sizes) // 2] > UNIT_MAX_BLOCKS:
                    continue
                # a unit may run on through siblings of another tag (read only where there are any)
                spans = _spans(blocks, members, group) if len(tag_members) < len(members) else None
                dated = lines.holds if spans is None else partial(_span_dated, spans, lines)
                if not share_holds(group, dated, DATED_SHARE):
                    spans = {}
                elif spans is None:
                    spans = {k: [k] for k in group}
                if not spans or not _same_date_slot(blocks, spans, lines):
                    # undated units (server-rendered Disqus): each an addressable comment
                    if _numbered_units(blocks, group, lines):
                        for k in group:
                            for j in range(k, k + lines.sizes[k]):
                                flags[j] |= NUMBERED_UNITS
                    continue
                authored = sum(1 for k in group if dated(k) and any(_has_author(blocks, j, lines) for j in spans[k]))
                bit = DATED_UNITS | (AUTHOR_LINES if authored * 2 >= len(group) else 0)
                for span in spans.values():
                    for k in span:
                        for j in range(k, k + lines.sizes[k]):
                            flags[j] |= bit
    # a lone unit: a small element holding a date line and a "Name says:" line or a reply link
    _lone_units(blocks, flags, lines, bearing)
    return Evidence(flags, targets if roles is not None else ())


def _vocabulary(blocks: Sequence[Block], memo: list[int], i: int) -> int:
    """Whether block ``i`` or an enclosing element (not ``body``: a body class says what the page
    is, not where its comments are) has a comment-region id, class, aria-label, itemtype or itemprop;
    ``memo`` caches per block."""
    path = []
    while i >= 0 and memo[i] < 0:
        path.append(i)
        i = blocks[i].parent
    found = memo[i] if i >= 0 else 0
    for j in reversed(path):
        b = blocks[j]
        if (
            not found
            and b.tag != "body"
            and (
                vocabulary_token(b.element_id)
                or vocabulary_token(b.element_class)
                or (b.element_label is not None and label_names_comments(b.element_label))
            )
        ):
            found = 1
        memo[j] = found
    return found


class _Headings:
    """Whether a comment heading comes before a block in an enclosing element: a heading marks
    what follows it in its parent (in its grandparent when it sits alone in a wrapper). With
    ``roles``, a heading followed by post text in that scope marks nothing."""

    __slots__ = ("_blocks", "_first", "_roles", "_spoilt")

    def __init__(self, blocks: Sequence[Block], roles: Sequence[str] | None) -> None:
        self._blocks = blocks
        self._roles = roles
        self._first: dict[int, int] = {}  # block -> the first heading among its previous siblings, or -1
        self._spoilt: dict[int, bool] = {}  # element -> post text follows its first heading

    def before(self, t: int) -> bool:
        blocks = self._blocks
        node = t
        while node >= 0 and blocks[node].parent > 0:  # the outermost block (the page) is no scope
            h = self._first_before(node)
            if h >= 0 and not self._post_after(blocks[node].parent, h):
                return True
            node = blocks[node].parent
        return False

    def _first_before(self, node: int) -> int:
        """The earliest comment heading among ``node``'s previous siblings (or alone inside one)."""
        blocks, first = self._blocks, self._first
        chain = []
        k = blocks[node].prev_sibling
        while k >= 0 and k not in first:
            chain.append(k)
            k = blocks[k].prev_sibling
        found = first.get(k, -1) if k >= 0 else -1
        for k in reversed(chain):  # from the earliest sibling on
            if found < 0:
                found = _heading_at(blocks, k)
            first[k] = found
        return found if not chain else first[chain[0]]

    def _post_after(self, scope: int, h: int) -> bool:
        if self._roles is None:
            return False
        spoilt = self._spoilt.get(scope)
        if spoilt is None:
            roles, blocks = self._roles, self._blocks
            end = _subtree_end(blocks, scope)
            spoilt = self._spoilt[scope] = any(roles[j] == POST and blocks[j].text for j in range(h + 1, end))
        return spoilt


def _heading_at(blocks: Sequence[Block], k: int) -> int:
    """``k`` if it is a comment heading, its only child if that is one (a heading in a wrapper), else -1."""
    if comment_heading(blocks[k]):
        return k
    inner = k + 1
    if inner < len(blocks) and blocks[inner].parent == k and comment_heading(blocks[inner]):
        after = inner + 1
        if after >= len(blocks) or blocks[after].parent not in (k, inner):
            return inner
    return -1


def _lone_units(blocks: Sequence[Block], flags: list[int], lines: DateLines, bearing: Sequence[int] | None) -> None:
    """A page with one comment shows no repetition: the smallest enclosing element (of at most
    ``LONE_UNIT_MAX_BLOCKS`` blocks, up to three levels up) of a text block that holds a date line
    and either an author line in the "says:" form or a reply link, or is itself addressed as a
    comment by number ("comment-15684": a permalink's target, as ``_numbered_units`` reads a list of
    them), marks its subtree with AUTHOR_LINES."""
    tested: dict[int, bool] = {}
    for b in blocks:
        if not b.text or flags[b.index] & AUTHOR_LINES or (bearing is not None and not bearing[b.index]):
            continue
        node = b.parent
        for _ in range(3):
            if node <= 0 or lines.sizes[node] > LONE_UNIT_MAX_BLOCKS:
                break
            found = tested.get(node)
            if found is None:
                end = node + lines.sizes[node]
                signed = _addressed(blocks[node]) or any(signed_line(blocks[j].text) for j in range(node, end))
                found = tested[node] = signed and lines.holds(node)
            if found:
                for j in range(node, node + lines.sizes[node]):
                    flags[j] |= AUTHOR_LINES
                break
            node = blocks[node].parent


def _addressed(block: Block) -> bool:
    """Whether the element's id names one comment by its number ("comment-15684", "li-comment-7")."""
    ident = block.element_id
    return bool(ident) and _DIGITS.search(str(ident)) is not None and vocabulary_token(ident)


def _span_dated(spans: dict[int, list[int]], lines: DateLines, k: int) -> bool:
    return any(lines.holds(j) for j in spans[k])


def _spans(blocks: Sequence[Block], members: Sequence[int], group: Sequence[int]) -> dict[int, list[int]]:
    """Each unit with the siblings it runs on through: those of the tag that follows at least half
    of the units, up to the next unit (classic Blogger's ``<dt>`` author, then the ``<dd>`` text and
    the ``<dd>`` date of one comment; ``units.pair_tags``)."""
    units = set(group)
    spans = {k: [k] for k in group}
    after = [j for j in members if blocks[j].prev_sibling in units and j not in units]
    if not after:
        return spans
    tag, count = Counter(blocks[j].tag for j in after).most_common(1)[0]
    if count * 2 < len(group):
        return spans
    current: list[int] | None = None
    for j in members:
        if j in units:
            current = spans[j]
        elif current is not None and blocks[j].tag == tag:
            current.append(j)
        else:
            current = None
    return spans


def _alike_groups(blocks: Sequence[Block], members: Sequence[int]) -> list[list[int]]:
    """Siblings of one tag split by their first class token in attribute order (units of a list
    share one beside tokens that alternate: WordPress's "comment even" / "comment odd alt", whose
    least token, taken before, split one list in two; unclassed siblings form one group)."""
    groups: dict[str, list[int]] = {}
    for k in members:
        value = blocks[k].element_class
        groups.setdefault(value.split(None, 1)[0] if value and value.strip() else "", []).append(k)
    return list(groups.values())


def _date_slot(blocks: Sequence[Block], span: Sequence[int], lines: DateLines) -> tuple[object, ...] | None:
    """Where a unit's first date line is: the sibling of its span holding it, and the tag path from
    there down (None: no date line)."""
    for offset, k in enumerate(span):
        j = lines.first(k)
        if j >= 0:
            path: list[object] = [offset]
            while j != k:
                path.append(blocks[j].tag)
                j = blocks[j].parent
            return tuple(path)
    return None


def _same_date_slot(blocks: Sequence[Block], spans: dict[int, list[int]], lines: DateLines) -> bool:
    """Whether the dated members are repeated units, their first date at the same place (a comment's
    header), rather than unlike boxes that share a layout class and happen to hold a date each (a
    product box with a release date, a related-posts box with a post date)."""
    slots = Counter(_date_slot(blocks, span, lines) for span in spans.values())
    slots.pop(None, None)
    return bool(slots) and slots.most_common(1)[0][1] * 2 > sum(slots.values())


_DIGITS = re.compile(r"\d+")


def _numbered_units(blocks: Sequence[Block], group: Sequence[int], lines: DateLines) -> bool:
    """Whether most members (and two) are comments addressed one by one: ids that name a comment
    and differ only by a number ("dsq-comment-57909", "comment-12": a permalink's target), each
    unit with text of its own."""
    stems: Counter[str] = Counter()
    for k in group:
        if _addressed(blocks[k]) and any(blocks[j].text for j in range(k, k + lines.sizes[k])):
            stems[_DIGITS.sub("#", str(blocks[k].element_id))] += 1
    if not stems:
        return False
    most = stems.most_common(1)[0][1]
    return most >= 2 and most >= DATED_SHARE * len(group)


def _has_author(blocks: Sequence[Block], k: int, lines: DateLines) -> bool:
    """The unit holds an author line, or a short line just before its first date line."""
    end = k + lines.sizes[k]
    previous = ""
    for j in range(k, end):
        text = blocks[j].text
        if not text:
            continue
        if author_line(text):
            return True
        if lines.holds(j) and lines.sizes[j] == 1:
            # a name is a few words; a headline before its date (a news list) is longer
            return 0 < len(previous) <= SHORT_SLOT_CHARS and previous.count(" ") <= 2
        previous = text
    return False


def _subtree_end(blocks: Sequence[Block], k: int) -> int:
    """One past the last block of ``k``'s subtree (preorder)."""
    inside = {k}
    j = k + 1
    while j < len(blocks) and blocks[j].parent in inside:
        inside.add(j)
        j += 1
    return j


def veto(
    blocks: Sequence[Block], roles: list[str], evidence: Evidence | None = None
) -> tuple[list[str], Evidence | None]:
    """Comment blocks outside any region with comment evidence are not comments: post when the
    nearest kept text blocks on both sides are post (a pull quote inside the article), else
    boilerplate (a byline, an author box, a teaser). Returns the roles and the page's evidence
    (None when the page has no comment block)."""
    if COMMENT not in roles:
        return roles, evidence
    ev = evidence if evidence is not None else comment_evidence(blocks, roles)
    flags = ev.flags
    asked = ev.asked if evidence is None else role_indices(roles, COMMENT)
    ev.proposed = ev.kept = sum(blocks[i].text_chars for i in asked)
    if all(flags[i] for i in asked):
        return roles, ev
    ev.kept -= sum(blocks[i].text_chars for i in asked if not flags[i])
    text = [b.index for b in blocks if b.text]
    out = list(roles)
    # the role of the nearest text block on each side that keeps its role
    kept = [roles[i] for i in text]
    keeps = [roles[i] != COMMENT or flags[i] != 0 for i in text]
    before = [BOILERPLATE] * len(text)
    last = BOILERPLATE
    for pos in range(len(text)):
        before[pos] = last
        if keeps[pos]:
            last = kept[pos]
    after = [BOILERPLATE] * len(text)
    last = BOILERPLATE
    for pos in range(len(text) - 1, -1, -1):
        after[pos] = last
        if keeps[pos]:
            last = kept[pos]
    for pos, i in enumerate(text):
        if not keeps[pos]:
            out[i] = POST if before[pos] == POST and after[pos] == POST else BOILERPLATE
    # blocks without text (images, wrappers) outside any comment region are not comments either
    for b in blocks:
        if not b.text and out[b.index] == COMMENT and not flags[b.index]:
            out[b.index] = BOILERPLATE
    return out, ev


def detect_section(blocks: Sequence[Block], roles: list[str], evidence: Evidence | None = None) -> list[str]:
    """The single-page detector: post blocks that carry two of the three signals (vocabulary,
    dated units, author lines) are comments. For a page with no other page to compare with;
    vocabulary alone, or dated units alone (an archive list, a news ticker), do not suffice.

        >>> from extractor.core.blocks import parse_blocks
        >>> blocks = parse_blocks('<body><p>Post</p><ol class="comments">'
        ...     '<li><p>Ann says:</p><p>May 2, 2024</p><p>Nice.</p></li>'
        ...     '<li><p>Bob says:</p><p>May 3, 2024</p><p>Thanks.</p></li></ol></body>')
        >>> roles = detect_section(blocks, ["post"] * len(blocks))
        >>> [b.text for b, r in zip(blocks, roles) if b.text and r == "comment"]
        ['Ann says:', 'May 2, 2024', 'Nice.', 'Bob says:', 'May 3, 2024', 'Thanks.']
    """
    ev = evidence if evidence is not None else comment_evidence(blocks)
    return [COMMENT if role == POST and ev.signals(i) >= 2 else role for i, role in enumerate(roles)]


def vocabulary_names(blocks: Sequence[Block], indices: Iterable[int]) -> bool:
    """Whether any of the blocks sits in a region the page's vocabulary names (id, class, label or a
    comment heading before it): a cheap test before the page's structure is read."""
    memo = [-1] * len(blocks)
    headings = _Headings(blocks, None)
    return any(_vocabulary(blocks, memo, i) or headings.before(i) for i in indices)


# How each page was decided (PageExtraction.method), and the confidence each method starts from:
# a set with a comment-free page is the papers' case; a profile replays a set on a new page; the
# fallbacks for sets where every page has comments, and a page alone, rest on less.
SET = "set"
PROFILE = "profile"
FALLBACK = "every-page-has-comments fallback"
SINGLE_PAGE = "single page"
BASE_CONFIDENCE = {SET: 0.9, PROFILE: 0.8, FALLBACK: 0.7, SINGLE_PAGE: 0.5}


def confidence(method: str, evidence: Evidence | None) -> float:
    """The method's base confidence, lowered by up to a quarter by the share of the comment text
    the method proposed that the page itself did not confirm (``confidence(SET, None)`` = 0.9)."""
    base = BASE_CONFIDENCE[method]
    if evidence is None or not evidence.proposed:
        return base
    return round(base * (0.75 + 0.25 * evidence.kept / evidence.proposed), 3)
