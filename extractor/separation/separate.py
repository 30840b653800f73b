"""Steps 7-8: content re-extraction (2013 §4.6) and post/comment separation (2013 §3.6).

    >>> separate_roles([[True, True], [True, False]], [["#post", "#c"], ["#post", "#c"]])
    [['post', 'comment'], ['post', 'boilerplate']]

The paper's rule: content blocks whose identifier carries content on every page of the set are the
post; the other content blocks are comments. It assumes at least one comment-free page.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.blocks import Block
from ..core.roles import BOILERPLATE, COMMENT, POST


def reextract(
    pages: Sequence[Sequence[Block]],
    content: list[list[bool]],
    idents: Sequence[Sequence[str]],
    own_only: bool = False,
    owned: Sequence[Sequence[bool]] | None = None,
) -> list[list[bool]]:
    """Non-content blocks sharing (identifier, tag) with a content block of the set become content.

    With ``own_only`` only blocks whose identifier is their element's own (not inherited from a
    sibling or parent) take part, on both sides.
    """
    keys: set[tuple[str, str]] = set()
    for p, blocks in enumerate(pages):
        for i, b in enumerate(blocks):
            if content[p][i] and (not own_only or (owned is not None and owned[p][i])):
                keys.add((idents[p][i], b.tag))
    out = []
    for p, blocks in enumerate(pages):
        row = []
        for i, b in enumerate(blocks):
            eligible = not own_only or (owned is not None and owned[p][i])
            row.append(content[p][i] or (eligible and (idents[p][i], b.tag) in keys))
        out.append(row)
    return out


def post_identifiers_every_page(content: Sequence[Sequence[bool]], idents: Sequence[Sequence[str]]) -> set[str]:
    """2013 §3.6: identifiers that carry content blocks on every page."""
    result: set[str] | None = None
    for flags, ids in zip(content, idents, strict=True):
        here = {ident for flag, ident in zip(flags, ids, strict=True) if flag}
        result = here if result is None else result & here
    return result or set()


def separate_roles(
    content: Sequence[Sequence[bool]], idents: Sequence[Sequence[str]], post_ids: set[str] | None = None
) -> list[list[str]]:
    """Role of every block: post, comment or boilerplate."""
    if post_ids is None:
        post_ids = post_identifiers_every_page(content, idents)
    return [
        [
            (POST if ident in post_ids else COMMENT) if flag else BOILERPLATE
            for flag, ident in zip(flags, ids, strict=True)
        ]
        for flags, ids in zip(content, idents, strict=True)
    ]
