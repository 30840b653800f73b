"""Comments in a rendered page: the thread a script filled in, read with the extractor's own records step.

    >>> records = rendered_comments(rendered_html, "http://blog/a/", "isso-thread")  # doctest: +SKIP

A page whose comments load by script holds only an empty container when served; a browser runs
its scripts and the container fills (pipelines.render). Every text block inside the container is
a comment block; the extractor's records step (records.split_comments: repeated units, author
and date slots, replies as nested units) cuts them into comments, as it does for comment blocks
the separation found in served HTML. Pure: no browser, no network.
"""

from __future__ import annotations

from collections.abc import Sequence

from .blocks import Block
from .pipeline import Page, read_page
from .records import CommentRecord, single_unit_records, split_comments
from .separate import COMMENT, POST


def _inside(blocks: Sequence[Block], container_id: str) -> list[bool]:
    """Per block: whether it is the container (by element id) or inside it."""
    inside: list[bool] = []
    for block in blocks:
        own = block.element_id == container_id
        inside.append(own or (block.parent >= 0 and inside[block.parent]))
    return inside


def rendered_comments(html: bytes, url: str | None, container_id: str) -> list[CommentRecord]:
    """The comments a rendered page shows inside the element with id `container_id` ([] when it
    holds none, or no repeated comment unit with dates)."""
    parsed = read_page(Page(url, html))
    if parsed.error or not parsed.blocks:
        return []
    inside = _inside(parsed.blocks, container_id)
    roles = [COMMENT if flag and block.text else POST for flag, block in zip(inside, parsed.blocks, strict=True)]
    if COMMENT not in roles:
        return []
    found = split_comments([parsed.blocks], [roles], dated_only=True)
    if found is None:  # one comment: no repeated unit to learn from
        return single_unit_records(parsed.blocks, roles)
    return found[0]
