"""Step 6: block identifiers (Yoshida, Inui & Yamamoto 2013, §3.5).

    >>> from extractor.core.blocks import parse_blocks
    >>> pages = [parse_blocks('<div id="a"><p>x</p></div><div class="c"></div>')] * 2
    >>> eligible = eligible_identifiers(pages, "attribute")
    >>> sorted(eligible)
    ['#a', '.c']
    >>> assign_identifiers(pages[0], eligible, "attribute")
    ['_default', '#a', '#a', '.c']

Element identifiers are the id and class values of block-level elements. One is *eligible* when it
occurs exactly once in every page of the set. Blocks take identifiers in preorder: their own eligible
identifier, else the previous sibling block's identifier, else the parent block's, else ``_default``.

When an element has both an id and a class, the id is tried first (it is the more specific name),
then the class: as the whole attribute value (``attribute``, as the paper does) or token by token
(``tokens``: WordPress adds per-post tokens such as ``post-34`` beside stable ones such as
``hentry``). Siblings and parents are taken in the tree of blocks, since identifiers belong to
block-level elements only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from itertools import chain

from ..core.blocks import Block
from ..core.options import ClassMode

DEFAULT_IDENTIFIER = "_default"


_CANDIDATES: dict[tuple[str | None, str | None, str], tuple[str, ...]] = {}


def candidates(block: Block, class_mode: ClassMode) -> tuple[str, ...]:
    """The block element's identifiers, in the order they are tried."""
    if block.element_id is None and block.element_class is None:
        return ()
    key = (block.element_id, block.element_class, class_mode)
    hit = _CANDIDATES.get(key)
    if hit is None:
        hit = tuple(_candidates(block, class_mode))
        if len(_CANDIDATES) < 200_000:  # a bounded memo: id/class values repeat across a site's pages
            _CANDIDATES[key] = hit
    return hit


def _candidates(block: Block, class_mode: ClassMode) -> list[str]:
    out: list[str] = []
    if block.element_id and block.element_id.strip():
        out.append("#" + block.element_id.strip())
    if block.element_class:
        tokens = block.element_class.split()
        if tokens:
            if class_mode == "attribute":
                out.append("." + " ".join(tokens))
            else:
                out.extend("." + t for t in dict.fromkeys(tokens))
    return out


def page_candidates(blocks: Iterable[Block], class_mode: ClassMode) -> list[tuple[str, ...]]:
    """Every block's identifiers in the order they are tried (computed once per page and shared)."""
    # the memo read here, not through ``candidates``: most blocks' values were met on earlier pages
    memo = _CANDIDATES
    out: list[tuple[str, ...]] = []
    for b in blocks:
        element_id, element_class = b.element_id, b.element_class
        if element_id is None and element_class is None:
            out.append(())
            continue
        hit = memo.get((element_id, element_class, class_mode))
        out.append(hit if hit is not None else candidates(b, class_mode))
    return out


def identifier_counts(
    blocks: Iterable[Block],
    class_mode: ClassMode,
    cands: Sequence[tuple[str, ...]] | None = None,
    among: AbstractSet[str] | None = None,
) -> dict[str, int]:
    """How often each identifier occurs in a page (only those in ``among``, when given)."""
    # counted in C (Counter over the chained candidates): a page has thousands of blocks
    counts = Counter(chain.from_iterable(cands if cands is not None else page_candidates(blocks, class_mode)))
    if among is None:
        return counts
    return {c: n for c, n in counts.items() if c in among}


def once_identifiers(
    blocks: Iterable[Block],
    class_mode: ClassMode,
    cands: Sequence[tuple[str, ...]] | None = None,
    among: AbstractSet[str] | None = None,
) -> frozenset[str]:
    """The identifiers that occur exactly once in a page; with ``among``, only those (a profile's
    page: its set decided which identifiers can be used, the page only which occur once)."""
    return frozenset(c for c, n in identifier_counts(blocks, class_mode, cands, among).items() if n == 1)


def eligible_identifiers(
    pages: Sequence[Sequence[Block]], class_mode: ClassMode, once_per_page: Sequence[frozenset[str]] | None = None
) -> set[str]:
    """Identifiers that occur exactly once in each page of the set."""
    eligible: set[str] | None = None
    for p, blocks in enumerate(pages):
        once = once_per_page[p] if once_per_page is not None else once_identifiers(blocks, class_mode)
        eligible = set(once) if eligible is None else eligible & once
        if not eligible:
            return set()
    return eligible or set()


def template_outliers(
    pages: Sequence[Sequence[Block]], class_mode: ClassMode, once_per_page: Sequence[frozenset[str]] | None = None
) -> set[int]:
    """Pages that do not share the site's template.

    The core identifiers occur exactly once on at least half of the pages; a page holding less than
    half of them (a frameset, an error page, a page of another site) would empty the eligible set
    for all the others, so it is left out of eligibility and reported.
    """
    n = len(pages)
    if n < 3:
        return set()
    once = once_per_page if once_per_page is not None else [once_identifiers(b, class_mode) for b in pages]
    seen: dict[str, int] = {}
    for ids in once:
        for c in ids:
            seen[c] = seen.get(c, 0) + 1
    core = {c for c, k in seen.items() if k * 2 >= n}
    if not core:
        return set()
    return {p for p, ids in enumerate(once) if len(ids & core) * 2 < len(core)}


def assign_identifiers(
    blocks: Sequence[Block],
    eligible: AbstractSet[str],
    class_mode: ClassMode,
    cands: Sequence[tuple[str, ...]] | None = None,
) -> list[str]:
    """Each block's identifier, propagated in preorder (own, previous sibling, parent, default)."""
    out: list[str] = []
    for b, own_cands in zip(blocks, cands if cands is not None else page_candidates(blocks, class_mode), strict=True):
        own = None
        for c in own_cands:
            if c in eligible:
                own = c
                break
        if own is not None:
            out.append(own)
        elif b.prev_sibling >= 0:
            out.append(out[b.prev_sibling])
        elif b.parent >= 0:
            out.append(out[b.parent])
        else:
            out.append(DEFAULT_IDENTIFIER)
    return out
