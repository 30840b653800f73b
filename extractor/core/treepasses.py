"""Passes over a page's blocks as a tree (blocks in preorder, each with its parent's index): child
lists, subtree sums and text flags, in their Python form. speedups.py chooses this form or the
compiled one (``_cunits.pyx``, the same results); callers take them from units.py.

>>> from extractor.core.blocks import Block
>>> page = [Block(0, "div", -1, -1), Block(1, "p", 0, -1, text="Hi")]
>>> children(page), subtree_sums(text_flags(page), page)
([[1], []], [1, 1])
"""

from __future__ import annotations

from collections.abc import Sequence

from .blocks import Block


def children(blocks: Sequence[Block]) -> list[list[int]]:
    kids: list[list[int]] = [[] for _ in blocks]
    for b in blocks:
        if b.parent >= 0:
            kids[b.parent].append(b.index)
    return kids


def subtree_sums(values: list[int], blocks: Sequence[Block]) -> list[int]:
    """Each block's value plus its descendants' (blocks are in preorder, so reversed = children first)."""
    sums = list(values)
    for b in reversed(blocks):
        if b.parent >= 0 and sums[b.index]:
            sums[b.parent] += sums[b.index]
    return sums


def text_flags(
    blocks: Sequence[Block],
    roles: Sequence[str] | None = None,
    role: str | None = None,
    not_role: str | None = None,
    skip_tags: frozenset[str] = frozenset(),
) -> list[int]:
    """1 for each block with text (of ``role``, of any role but ``not_role``, and not a tag in
    ``skip_tags``), else 0."""
    if roles is None:
        return [int(bool(b.text) and b.tag not in skip_tags) for b in blocks]
    return [
        int(bool(b.text) and r != not_role and (role is None or r == role) and b.tag not in skip_tags)
        for b, r in zip(blocks, roles, strict=True)
    ]


def inside_small_ancestors(
    blocks: Sequence[Block], indices: Sequence[int], sizes: Sequence[int], limit: int
) -> list[int]:
    """The blocks inside an element of at most ``limit`` blocks that is one of ``indices`` or an
    ancestor of one (``sizes``: subtree sizes), in page order: where a step that looks for the small
    element around a few blocks (a comment unit) can act, so a page's other blocks are never read."""
    # the small elements around a block are a chain up to its largest small ancestor, whose
    # subtree holds the others: the largest ones are disjoint, and their subtrees are the answer
    tops: list[int] = []
    seen: set[int] = set()
    for k in indices:
        node, top = k, -1
        while node >= 0 and sizes[node] <= limit and node not in seen:
            seen.add(node)
            node, top = blocks[node].parent, node
        if top >= 0 and not (node >= 0 and node in seen):
            tops.append(top)
    return [i for top in sorted(tops) for i in range(top, top + sizes[top])]
