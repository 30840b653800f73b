"""Records are comments or nothing: every page's comment records, also in small sets.

A provisional set (a new site's first 1-5 articles) often shows no repeated comment unit: each
page has one comment, or one comment and its reply. Before, such a set stored its comment blocks
one by one: the "1 comment" heading, the "Chloe Tan says:" line and the comment's text were three
"comments", the real one without author or date. Here:

* the set's repeated units (``records.split_comments``) are used when they sign their comments: a
  layout whose units carry neither an author nor a date (the paragraphs of one comment taken as
  repeated units) gives way to units that must carry a date;
* a set with no repeated unit, or whose units held no words while it has comment blocks (a comment
  and its nested reply, alone in a small set), takes each page's lone dated unit
  (``records.single_unit_records``, which splits the replies off);
* there, a page whose comment blocks yield no record keeps their text as one record, without the
  lines that are no comment: headings, comment-section headings and counts, author lines, reply links
  and the comment form's labels (``not_comment_text``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.blocks import HEADINGS, Block
from ..core.roles import COMMENT
from .comment_words import author_line, comment_heading, comment_notice, signed_line
from .records import CommentRecord, single_unit_records, split_comments


def set_records(pages: Sequence[Sequence[Block]], roles: Sequence[Sequence[str]]) -> list[list[CommentRecord]]:
    """Every page's comment records (module docstring)."""
    records = split_comments(pages, roles)
    if records is not None and unsigned(records):
        dated = split_comments(pages, roles, dated_only=True)
        if dated is not None and any(dated):
            records = dated
    if records is not None and (any(records) or not _has_comments(roles)):
        return records  # a page of a set with a comment layout but no unit has no comments
    singles = [single_unit_records(blocks, page_roles) for blocks, page_roles in zip(pages, roles, strict=True)]
    if records is not None:
        # units without words (a related-posts list) or a comment and its reply: signed records stand
        return [[r for r in page if r.author or r.date] for page in singles]
    return [
        page_records or loose_record(blocks, page_roles)
        for blocks, page_roles, page_records in zip(pages, roles, singles, strict=True)
    ]


def _has_comments(roles: Sequence[Sequence[str]]) -> bool:
    return any(COMMENT in page_roles for page_roles in roles)


def unsigned(records: Sequence[Sequence[CommentRecord]]) -> bool:
    """Whether the set's records hold no author and no date at all (and there are some)."""
    found = [r for page in records for r in page if r.text]
    return bool(found) and not any(r.author or r.date or r.date_raw for r in found)


def loose_record(blocks: Sequence[Block], roles: Sequence[str]) -> list[CommentRecord]:
    """The page's comment text as one record (the lines that are no comment left out), or none."""
    lines = [b.text for b in blocks if b.text and roles[b.index] == COMMENT and not not_comment_text(b, blocks)]
    if not lines:
        return []
    first = next(b for b in blocks if b.text and roles[b.index] == COMMENT)
    return [CommentRecord("\n".join(lines), xpath=first.xpath)]


def not_comment_text(block: Block, blocks: Sequence[Block]) -> bool:
    """A heading, a count, a "no comments" notice, an author line, a reply link or a form's label:
    never a comment's text."""
    if block.tag in HEADINGS or comment_heading(block) or author_line(block.text) or signed_line(block.text):
        return True
    if comment_notice(block.text):
        return True
    return _in_form(block, blocks)


def _in_form(block: Block, blocks: Sequence[Block]) -> bool:
    """Inside a ``form`` (its labels: "Name * Email *", "Notify me of new comments")."""
    index = block.index
    while index >= 0:
        if blocks[index].tag == "form":
            return True
        index = blocks[index].parent
    return False
