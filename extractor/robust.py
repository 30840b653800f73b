"""Deviations from the papers that the default options turn on (measured in docs/algorithm.md)."""

from __future__ import annotations

from collections.abc import Sequence

from .blocks import Block
from .separate import post_identifiers_every_page


def drop_link_blocks(
    pages: Sequence[Sequence[Block]], content: list[list[bool]], max_density: float
) -> list[list[bool]]:
    """D5: content blocks whose text is mostly anchor text are navigation, not content."""
    return [
        [flag and b.link_density <= max_density for flag, b in zip(flags, blocks, strict=True)]
        for flags, blocks in zip(content, pages, strict=True)
    ]


def robust_post_identifiers(
    pages: Sequence[Sequence[Block]], content: Sequence[Sequence[bool]], idents: Sequence[Sequence[str]]
) -> tuple[set[str], list[str]]:
    """D6: placeholder that keeps the paper's rule; refined below."""
    return post_identifiers_every_page(content, idents), []
