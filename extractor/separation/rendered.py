"""Comments in a rendered page: the thread a script filled in, read with the extractor's own records step.

    >>> records = rendered_comments(rendered_html, "http://blog/a/", "isso-thread")  # doctest: +SKIP

A page whose comments load by script holds only an empty container when served; a browser runs
its scripts and the container fills (pipelines.render). Every text block inside the container is
a comment block; the extractor's records step (records.split_comments: repeated units, author
and date slots, replies as nested units) cuts them into comments, as it does for comment blocks
the separation found in served HTML. Pure: no browser, no network.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..comments.records import CommentRecord, single_unit_records, split_comments
from ..core.blocks import HEADINGS, Block
from ..core.roles import BOILERPLATE, COMMENT, POST
from .method import Page, read_page

_SEPARATOR = re.compile(r"\s*[•·|]\s*|\n")
MAX_BYLINE = 80  # a longer "name" is a sentence, not a byline
# A block showing these is the thread's reply form or its settings, not a comment.
FORM_TAGS = frozenset({"form", "input", "textarea", "select", "button", "label"})


def _inside(blocks: Sequence[Block], container_id: str) -> list[bool]:
    """Per block: whether it is the container (by element id) or inside it."""
    inside: list[bool] = []
    for block in blocks:
        own = block.element_id == container_id
        inside.append(own or (block.parent >= 0 and inside[block.parent]))
    return inside


def _form_parts(blocks: Sequence[Block], inside: Sequence[bool], container_id: str) -> list[bool]:
    """Per block: whether it belongs to a part of the container holding a form (the "post a
    comment" box most widgets draw above the thread): the container's child above a form control, all of it."""
    roots = set()
    for block in blocks:
        if inside[block.index] and FORM_TAGS & block.tags.keys() and block.element_id != container_id:
            top = block.index
            while blocks[top].parent >= 0 and blocks[blocks[top].parent].element_id != container_id:
                top = blocks[top].parent
            roots.add(top)
    out: list[bool] = []
    for block in blocks:
        out.append(block.index in roots or (block.parent >= 0 and out[block.parent]))
    return out


def rendered_comments(html: bytes, url: str | None, container_id: str) -> list[CommentRecord]:
    """The comments a rendered page shows inside the element with id `container_id` ([] when it
    holds none, or no repeated comment unit with dates)."""
    parsed = read_page(Page(url, html))
    if parsed.error or not parsed.blocks:
        return []
    inside = _inside(parsed.blocks, container_id)
    form = _form_parts(parsed.blocks, inside, container_id)
    # Inside the thread, text blocks are comment blocks, the rest (unit roots, wrappers) is no post.
    roles = [
        (COMMENT if b.text else BOILERPLATE) if inside[i] and not form[i] and b.tag not in HEADINGS else POST
        for i, b in enumerate(parsed.blocks)
    ]
    if COMMENT not in roles:
        return []
    found = split_comments([parsed.blocks], [roles], dated_only=True)
    records = found[0] if found is not None else single_unit_records(parsed.blocks, roles)
    for record in records:
        record.author = _byline(record, parsed.blocks)
    return records


def _byline(record: CommentRecord, blocks: Sequence[Block]) -> str | None:
    """The record's author, or the name leading its dated header line ("Ann • right now": a widget's
    fresh "just now" is no date the records step reads, so it found no author slot), separators cut."""
    author = record.author
    if not author:
        header = next(
            (b for b in blocks if b.datetimes and b.xpath.startswith(record.xpath + "/") and b.text),
            None,
        )
        if header is None:
            return None
        author = _SEPARATOR.split(header.text, maxsplit=1)[0]
    author = author.strip(" \t•·|-–—:")
    return author if 0 < len(author) <= MAX_BYLINE else None
