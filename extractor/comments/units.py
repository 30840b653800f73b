"""Comment units: the repeated unit of a page's comment region, found by structure (records.py, steps 1-2).

    >>> from extractor.core.blocks import parse_blocks
    >>> blocks = parse_blocks('<ol><li class="comment"><p>a</p></li><li class="comment"><p>b</p></li></ol>')
    >>> [b.tag for b in unit_groups(blocks, ["comment"] * len(blocks))[0]]
    ['li', 'li']

On each page, descend from the root of the comment blocks to the first level whose comment-bearing
children repeat (same tag, a shared class token); the set votes for the unit signature (tag and the
class tokens most units share). A page with one comment and its reply repeats by containment.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from ..core.blocks import HEADINGS, Block
from ..core.dates import is_dated
from ..core.roles import COMMENT, POST
from ..speedups import children, subtree_sizes, subtree_sums, text_flags

# A slot is "short" (author, date line) below this many characters (median over the set).
SHORT_SLOT_CHARS = 80
# Class tokens kept in the unit signature: shared by at least this share of the units.
SIGNATURE_TOKEN_SHARE = 0.8


@dataclass(frozen=True, slots=True)
class UnitSignature:
    tag: str
    tokens: frozenset[str]

    def matches(self, block: Block) -> bool:
        """Same tag and a class token of the signature (replies add "depth-2", "odd" and "even" alternate)."""
        if block.tag != self.tag:
            return False
        return not self.tokens or not self.tokens.isdisjoint(class_tokens(block))


def class_tokens(block: Block) -> frozenset[str]:
    return frozenset(block.element_class.split()) if block.element_class else frozenset()


def comment_counts(blocks: Sequence[Block], roles: Sequence[str]) -> list[int]:
    return subtree_sums(text_flags(blocks, roles, COMMENT), blocks)


def text_counts(blocks: Sequence[Block]) -> list[int]:
    return subtree_sums(text_flags(blocks), blocks)


def unit_groups(blocks: Sequence[Block], roles: Sequence[str], dated_only: bool = False) -> list[list[Block]]:
    """Groups of repeated comment-bearing siblings at the first repeating level of the region.

    Headings do not bear comments here: a region's "N comments" heading, wrapped in a block of the
    same tag as the list beside it, would make the wrapper and the list look like two units.
    """
    kids = children(blocks)
    counts = subtree_sums(text_flags(blocks, roles, COMMENT, skip_tags=HEADINGS), blocks)
    if not blocks or counts[0] == 0:
        return []
    node = 0
    path: list[int] = []
    # set below siblings of unlike kinds, or from the start with ``dated_only`` (one page alone)
    dated: DateLines | None = DateLines(blocks) if dated_only else None
    while True:
        path.append(node)
        bearing, repeated = _repeated(node, kids, counts, blocks)
        alike = _units_not_wrappers(
            [g for g in repeated if _alike(g) and (dated is None or _mostly_dated(g, dated, kids, blocks))], blocks
        )
        if alike:
            best = max(alike, key=lambda g: sum(counts[b.index] for b in g))
            if dated_only and dated is not None:
                # one page alone: sibling sections ("related posts", comments) both dated; the
                # comments repeat again inside, as units of another kind (replies are the same kind)
                top = max(best, key=lambda b: counts[b.index])
                inner = _dated_group_below(top.index, kids, counts, dated, blocks)
                if inner is not None and inner[0].tag != best[0].tag:
                    node = top.index
                    continue
            return [best]
        if not bearing:
            break
        node = max(bearing, key=lambda k: counts[k])
        if dated is None and any(blocks[node] in g for g in repeated):
            # classed siblings of unlike kinds hold most of it: a wrapper level (title, list, form
            # as three divs) or the inside of the page's only comment (its header and its text).
            # Below, only siblings that mostly carry a date are units, not a comment's paragraphs.
            dated = DateLines(blocks)
    posts = subtree_sums(text_flags(blocks, roles, POST), blocks)
    nested = _nested_unit(blocks, [n for n in path if not posts[n]], counts)
    return [nested] if nested else []


def _units_not_wrappers(groups: list[list[Block]], blocks: Sequence[Block]) -> list[list[Block]]:
    """Of the repeated groups of one level, those that are not reply wrappers: Drupal prints each
    comment's replies in a ``div.indented`` after it, so comments and wrappers repeat side by side;
    a group whose members hold units of another group's kind wraps them."""
    if len(groups) < 2:
        return groups
    kinds = [(g[0].tag, _shared_tokens(g)) for g in groups]
    out = []
    for group in groups:
        inner = {
            (b.tag, t)
            for head in group
            for b in _subtree(head, blocks)[1:]
            for t in (class_tokens(b) or frozenset([""]))
        }
        wraps = any(
            other is not group and any((tag, t) in inner for t in (tokens or frozenset([""])))
            for other, (tag, tokens) in zip(groups, kinds, strict=True)
        )
        if not wraps:
            out.append(group)
    return out or groups


def _shared_tokens(group: Sequence[Block]) -> frozenset[str]:
    counts = Counter(t for b in group for t in class_tokens(b))
    return frozenset(t for t, n in counts.items() if n * 2 > len(group))


def _subtree(head: Block, blocks: Sequence[Block]) -> list[Block]:
    """``head`` and its descendants (preorder: they follow it until the subtree ends)."""
    inside = {head.index}
    out = [head]
    for b in blocks[head.index + 1 :]:
        if b.parent not in inside:
            break
        inside.add(b.index)
        out.append(b)
    return out


def _dated_group_below(
    node: int, kids: Sequence[Sequence[int]], counts: Sequence[int], dated: DateLines, blocks: Sequence[Block]
) -> list[Block] | None:
    """The first repeated, alike, mostly dated group of comment-bearing siblings below ``node``."""
    while True:
        bearing, repeated = _repeated(node, kids, counts, blocks)
        for group in repeated:
            if _alike(group) and _mostly_dated(group, dated, kids, blocks):
                return group
        if not bearing:
            return None
        node = max(bearing, key=lambda k: counts[k])


def _repeated(
    node: int, kids: Sequence[Sequence[int]], counts: Sequence[int], blocks: Sequence[Block]
) -> tuple[list[int], list[list[Block]]]:
    """The comment-bearing children of ``node``, and those of them that share a tag, grouped."""
    bearing = [k for k in kids[node] if counts[k]]
    by_tag: dict[str, list[Block]] = {}
    for k in bearing:
        by_tag.setdefault(blocks[k].tag, []).append(blocks[k])
    return bearing, [g for g in by_tag.values() if len(g) >= 2]


def _mostly_dated(
    group: Sequence[Block], dated: DateLines, kids: Sequence[Sequence[int]], blocks: Sequence[Block]
) -> bool:
    """Whether most members carry a date; a member's span runs on through the siblings paired with
    it (of a tag that follows at least half of the members: a ``<dt>`` author line, then the
    ``<dd>`` text and the ``<dd>`` date of one comment)."""
    members = {b.index for b in group}
    siblings = kids[group[0].parent]
    follows = Counter(blocks[k].tag for prev, k in pairwise(siblings) if prev in members and k not in members)
    paired = {tag for tag, n in follows.items() if n * 2 >= len(group)}
    spans = 0
    current: bool | None = None  # the open span's date, None outside a span
    for k in siblings:
        if k in members:
            spans += bool(current)
            current = dated.holds(k)
        elif current is not None and blocks[k].tag in paired:
            current = current or dated.holds(k)
        else:
            spans += bool(current)
            current = None
    spans += bool(current)
    return spans * 2 >= len(group)


def date_line(block: Block) -> bool:
    """A block with a ``datetime`` value or a short line holding a date (printed or relative)."""
    return bool(block.datetimes) or (0 < len(block.text) <= SHORT_SLOT_CHARS and is_dated(block.text))


def dated_flags(blocks: Sequence[Block]) -> list[int]:
    """1 for each date line (``date_line``), else 0: the page-wide definition ``DateLines``
    answers for the subtrees it is asked about."""
    return [int(date_line(b)) for b in blocks]


class DateLines:
    """Whether a block's subtree holds a date line (``date_line``), tested on demand: a caller that
    asks about a few subtrees, and stops once it knows enough, need not test a page's every short
    line (``dated_flags`` tests them all). ``holds(k)`` is ``subtree_sums(dated_flags(...))[k] > 0``.

        >>> from extractor.core.blocks import parse_blocks
        >>> lines = DateLines(parse_blocks("<ul><li><p>Ann</p><p>May 2, 2024</p></li><li>Bob</li></ul>"))
        >>> [lines.holds(k) for k in range(1, 5)]
        [True, True, False, True]
    """

    __slots__ = ("_blocks", "_lines", "sizes")

    def __init__(self, blocks: Sequence[Block]) -> None:
        self._blocks = blocks
        self.sizes = subtree_sizes(blocks)  # each block's subtree, itself included
        self._lines: dict[int, bool] = {}  # blocks tested so far (subtrees nest: each is tested once)

    def holds(self, k: int) -> bool:
        lines = self._lines
        for j in range(k, k + self.sizes[k]):  # preorder: the subtree is k and the blocks after it
            found = lines.get(j)
            if found is None:
                found = lines[j] = date_line(self._blocks[j])
            if found:
                return True
        return False

    def first(self, k: int) -> int:
        """The first date line of the subtree of ``k`` (preorder), or -1."""
        lines = self._lines
        for j in range(k, k + self.sizes[k]):
            found = lines.get(j)
            if found is None:
                found = lines[j] = date_line(self._blocks[j])
            if found:
                return j
        return -1

    def count(self, k: int) -> int:
        """How many date lines the subtree of ``k`` holds (``subtree_sums(dated_flags(...))[k]``)."""
        lines = self._lines
        n = 0
        for j in range(k, k + self.sizes[k]):
            found = lines.get(j)
            if found is None:
                found = lines[j] = date_line(self._blocks[j])
            n += found
        return n


def share_holds(members: Sequence[int], test: Callable[[int], bool], share: float) -> bool:
    """``sum(map(test, members)) >= share * len(members)``, stopping as soon as the answer is known."""
    need = share * len(members)
    hits = 0
    left = len(members)
    for k in members:
        left -= 1
        if test(k):
            hits += 1
            if hits >= need:
                return True
        elif hits + left < need:
            return False
    return hits >= need


def _nested_unit(blocks: Sequence[Block], path: Sequence[int], counts: Sequence[int]) -> list[Block] | None:
    """One comment with replies repeats by containment: the outermost block on the descent whose
    subtree holds comment-bearing blocks of its own kind (same tag, a shared class token), and
    comment text of its own outside them (a wrapper around the list has none)."""
    for node in path:
        head = blocks[node]
        tokens = class_tokens(head)
        if not tokens:
            continue
        inside = {node}
        nested: set[int] = set()  # the same-kind descendants and everything inside them
        same: list[Block] = []
        in_replies = 0
        for b in blocks[node + 1 :]:
            if b.parent not in inside:
                break  # preorder: the subtree has ended
            inside.add(b.index)
            kind = b.tag == head.tag and counts[b.index] > 0 and not tokens.isdisjoint(class_tokens(b))
            if b.parent in nested or kind:
                nested.add(b.index)
                if kind:
                    same.append(b)
                    if b.parent not in nested:
                        in_replies += counts[b.index]
        if same and counts[node] > in_replies:
            return [head, *same]
    return None


def _alike(group: Sequence[Block]) -> bool:
    """Repeated units share a class token (or have none): more than half of them carry it."""
    counts = Counter(t for b in group for t in class_tokens(b))
    return not counts or max(counts.values()) * 2 > len(group)


def learn_signature(
    pages: Sequence[Sequence[Block]], roles: Sequence[Sequence[str]], dated_only: bool = False
) -> UnitSignature | None:
    """The set's comment unit: the tag most units have, with the class tokens most of them share
    (a token that more blocks outside the units carry, a layout "cf" or "clearfix", is left out:
    one token is enough for a block to match)."""
    units: list[Block] = []
    for blocks, page_roles in zip(pages, roles, strict=True):
        for group in unit_groups(blocks, page_roles, dated_only):
            units.extend(group)
    if not units:
        return None
    tag, _ = Counter(b.tag for b in units).most_common(1)[0]
    same = [b for b in units if b.tag == tag]
    token_counts = Counter(t for b in same for t in class_tokens(b))
    tokens = frozenset(t for t, n in token_counts.items() if n >= SIGNATURE_TOKEN_SHARE * len(same))
    if len(tokens) > 1:
        elsewhere = _carried_without_comments(pages, roles, tag, tokens)
        tokens = frozenset(t for t in tokens if elsewhere[t] <= token_counts[t]) or tokens
    return UnitSignature(tag, tokens)


def _carried_without_comments(
    pages: Sequence[Sequence[Block]], roles: Sequence[Sequence[str]], tag: str, tokens: frozenset[str]
) -> Counter[str]:
    """How many blocks of ``tag`` that hold no comment text carry each of ``tokens``, over the set."""
    carried: Counter[str] = Counter()
    for blocks, page_roles in zip(pages, roles, strict=True):
        counts = comment_counts(blocks, page_roles)
        for b in blocks:
            if b.tag == tag and b.element_class and not counts[b.index]:
                carried.update(tokens & class_tokens(b))
    return carried


@dataclass(slots=True)
class Unit:
    root: Block
    parent: int | None  # index in the page's unit list
    own: list[Block]
    heads: set[int]  # the root and any paired sibling (<dd> after <dt>)
    # block index -> its slot in the unit (records._slot), filled when first asked for
    slots: dict[int, tuple[str, ...]] = field(default_factory=dict)


def find_units(blocks: Sequence[Block], roles: Sequence[str], signature: UnitSignature) -> list[Unit]:
    """Comment units of one page in document order, with their own blocks (not their replies').

    A unit may continue into the sibling that follows it when the list pairs them (``<dt>`` author
    and date, then ``<dd>`` text): a tag that follows at least half of the unit roots of a parent.
    """
    counts = comment_counts(blocks, roles)
    texts = text_counts(blocks)
    # a comment whose words also occur on another page ("Thanks!") has no comment block left,
    # but it still has the unit's class: with a class signature, any unit with text counts
    tag, any_text = signature.tag, bool(signature.tokens)
    roots = {
        b.index
        for b in blocks  # (the tag first: signature.matches is a call per block)
        if b.tag == tag
        and (counts[b.index] or (any_text and texts[b.index]))
        and signature.matches(b)
        # a container without text of its own (a comment's <li> holding its replies) is what its
        # blocks are: a step that went by identifiers may have left it post
        and (roles[b.index] != POST or not b.text)
    }
    pairs = pair_tags(blocks, roots)
    leads = _leading_pairs(blocks, roots)
    chained: set[int] = set()
    unit_of = [-1] * len(blocks)
    units: list[Unit] = []
    # (each block's fields read once into locals: the loop runs over every block of every page)
    for b in blocks:
        i, parent, prev = b.index, b.parent, b.prev_sibling
        up = unit_of[parent] if parent >= 0 else -1
        if i in leads or (i in roots and unit_of[i] < 0):
            root = blocks[leads.get(i, i)]
            if up < 0:
                up = _replied_to(root, blocks, roots, unit_of)
            units.append(Unit(root, up if up >= 0 else None, [], {i, root.index}))
            unit_of[i] = unit_of[root.index] = len(units) - 1
        elif i in roots:
            pass  # its unit began at the sibling before it
        elif (prev in roots or prev in chained) and pairs.get(parent) == b.tag:
            chained.add(i)  # a <dd> text, then a <dd> date: both follow their <dt>
            unit_of[i] = unit_of[prev]
            units[unit_of[i]].heads.add(i)
        else:
            unit_of[i] = up
        if unit_of[i] >= 0:
            units[unit_of[i]].own.append(b)
    return units


def _leading_pairs(blocks: Sequence[Block], roots: set[int]) -> dict[int, int]:
    """Siblings that open a unit before its root, when the list pairs them: Blogger's classic
    ``<dt>`` "Name said..." before each ``<dd>`` text. A tag other than the roots' that comes just
    before at least half (and two) of a parent's unit roots, or a ``<dt>`` before a ``<dd>`` root;
    sibling index -> root index."""
    before: dict[int, Counter[str]] = {}
    n_roots = Counter(blocks[r].parent for r in roots)
    for r in roots:
        prev = blocks[r].prev_sibling
        if prev >= 0 and prev not in roots and blocks[prev].tag != blocks[r].tag:
            before.setdefault(blocks[r].parent, Counter())[blocks[prev].tag] += 1
    tags = {}
    for parent, counts in before.items():
        tag, n = counts.most_common(1)[0]
        if n * 2 >= n_roots[parent] and n >= 2:
            tags[parent] = tag
    leads = {}
    for r in roots:
        prev = blocks[r].prev_sibling
        if prev < 0 or prev in roots:
            continue
        # HTML pairs a <dd> with the <dt> before it: so on a page with a single comment too
        if tags.get(blocks[r].parent) == blocks[prev].tag or (blocks[r].tag == "dd" and blocks[prev].tag == "dt"):
            leads[prev] = r
    return leads


def _replied_to(root: Block, blocks: Sequence[Block], roots: set[int], unit_of: Sequence[int]) -> int:
    """The unit a reply answers when replies sit in a wrapper after their parent comment instead
    of inside it (Drupal's ``article.comment`` then ``div.indented``): the unit just before the
    wrapper, one or two levels up; -1 when there is none."""
    node = root.parent
    for _ in range(2):
        if node < 0:
            return -1
        before = blocks[node].prev_sibling
        if before in roots:
            return unit_of[before]
        node = blocks[node].parent
    return -1


def pair_tags(blocks: Sequence[Block], roots: set[int]) -> dict[int, str]:
    """Per parent, the tag of the sibling that follows most unit roots (``dd`` after ``dt``)."""
    if not roots:
        return {}
    n_roots = Counter(blocks[r].parent for r in roots)
    follows: dict[int, Counter[str]] = {}
    for b in blocks:
        if b.prev_sibling in roots and b.index not in roots:
            follows.setdefault(b.parent, Counter())[b.tag] += 1
    out: dict[int, str] = {}
    for parent, tags in follows.items():
        tag, n = tags.most_common(1)[0]
        if n * 2 >= n_roots[parent]:
            out[parent] = tag
    return out
