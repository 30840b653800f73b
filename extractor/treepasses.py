"""Passes over a page's blocks as a tree (blocks in preorder, each with its parent's index): child
lists, subtree sums and text flags, in their Python form. speedups.py chooses this form or the
compiled one (``_cunits.pyx``, the same results); callers take them from units.py.

>>> from extractor.blocks import Block
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
