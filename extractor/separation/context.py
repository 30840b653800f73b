"""What "the other pages" are when the method runs: the rest of a set, or nothing for a page alone.

The method (``method.classify``) compares each page with the site's other pages four times: which
blocks repeat on them (steps 4-5), which identifiers every page has (step 6), which identifiers
carry the post (step 7), and where comments go when no page is free of them. A ``Context`` answers
those questions; the method asks them in the same order whatever the context. Three contexts:

* ``SetOfPages`` with several pages: the pages of the set are each other's other pages;
* ``SetOfPages`` with one page: a page alone, nothing to compare with (the single-page steps);
* ``profile.ProfileContext``: one new page, the site profile learned from a set standing in for
  the other pages (its boilerplate fingerprints, identifiers and comment layout).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .. import speedups
from ..comments.evidence import SET, SINGLE_PAGE
from ..comments.fallback import Fallback
from ..comments.lone_records import set_records
from ..comments.records import CommentRecord, single_unit_records, split_comments
from ..core.blocks import Block
from ..core.matching import Vector, group_vectors
from ..core.options import Options
from ..core.roles import BOILERPLATE, COMMENT
from .steps import (
    ONE_PAGE_SET,
    Content,
    Decision,
    Identifiers,
    Separated,
    identifiers,
    near_duplicate_pages,
    no_comment_free_page,
    reextraction,
    separation,
)

Pages = Sequence[Sequence[Block]]
# Per page: its comment records, or None where its comment blocks stand as they are.
PageRecords = list[list[CommentRecord] | None]


class Context(Protocol):
    """The other pages, as the method's steps ask about them (module docstring)."""

    method: str  # how the pages are decided, for ``PageExtraction.method`` (evidence.py)
    compares_pages: bool  # pages at hand: lines and titles they share can be read
    template_match: float | None  # with a profile: share of the page's blocks matching its boilerplate

    def first_warnings(self) -> list[str]: ...

    def unique_blocks(
        self, pages: Pages, vectors: Sequence[Sequence[Vector]], options: Options, warnings: list[str]
    ) -> list[list[bool]]: ...

    def identifiers(self, pages: Pages, options: Options, warnings: list[str]) -> Identifiers: ...

    def separation(
        self, pages: Pages, found: Content, ids: Identifiers, options: Options, warnings: list[str]
    ) -> Separated: ...

    def reextraction(
        self, pages: Pages, content: list[list[bool]], ids: Identifiers, options: Options
    ) -> list[list[bool]]: ...

    def new_identifiers(
        self, pages: Pages, roles: list[list[str]], ids: Identifiers, options: Options
    ) -> list[list[str]]: ...

    def comments_without_comment_free_page(
        self,
        pages: Pages,
        decision: Decision,
        ids: Identifiers,
        unique: Sequence[Sequence[bool]],
        options: Options,
        warnings: list[str],
    ) -> Decision: ...

    def comment_records(
        self, pages: Pages, roles: list[list[str]], fallback: Fallback | None, options: Options
    ) -> PageRecords | None: ...


class SetOfPages:
    """A set's pages are each other's other pages; a set of one page is a page alone.

    ``known_comment_ids``: identifiers that held comments on other sites (2013 §4.7), for a set
    without a comment-free page; ``feeds``: per page, the texts its comment feed lists.
    """

    def __init__(
        self, size: int, known_comment_ids: frozenset[str] = frozenset(), feeds: Sequence[Sequence[str]] = ()
    ) -> None:
        self.size = size
        self.known_comment_ids = known_comment_ids
        self.feeds = feeds
        self.method = SET if size > 1 else SINGLE_PAGE
        self.compares_pages = True  # a page alone has nothing to share: those steps find nothing
        self.template_match: float | None = None

    def first_warnings(self) -> list[str]:
        return [] if self.size > 1 else [ONE_PAGE_SET]

    def unique_blocks(
        self, pages: Pages, vectors: Sequence[Sequence[Vector]], options: Options, warnings: list[str]
    ) -> list[list[bool]]:
        """Steps 4-5: blocks found on only one page are content (2009 §3.2.5), near-duplicate pages
        not cancelling each other's (2009 §4.2)."""
        grouped = group_vectors(vectors)
        clusters = near_duplicate_pages(pages, vectors, grouped, options, warnings)
        return speedups.unique_blocks(vectors, options.similarity_threshold, clusters, grouped)

    def identifiers(self, pages: Pages, options: Options, warnings: list[str]) -> Identifiers:
        return identifiers(pages, options, warnings)

    def separation(
        self, pages: Pages, found: Content, ids: Identifiers, options: Options, warnings: list[str]
    ) -> Separated:
        return separation(pages, found, ids, options, warnings)

    def reextraction(
        self, pages: Pages, content: list[list[bool]], ids: Identifiers, options: Options
    ) -> list[list[bool]]:
        return reextraction(pages, content, ids, options)

    def new_identifiers(
        self, pages: Pages, roles: list[list[str]], ids: Identifiers, options: Options
    ) -> list[list[str]]:
        """Every identifier was seen by the set itself."""
        return roles

    def comments_without_comment_free_page(
        self,
        pages: Pages,
        decision: Decision,
        ids: Identifiers,
        unique: Sequence[Sequence[bool]],
        options: Options,
        warnings: list[str],
    ) -> Decision:
        if self.size < 2:  # a page alone: its own comment evidence decides (the single-page steps)
            return decision
        return no_comment_free_page(pages, decision, ids, options, self.known_comment_ids, self.feeds, warnings)

    def comment_records(
        self, pages: Pages, roles: list[list[str]], fallback: Fallback | None, options: Options
    ) -> PageRecords | None:
        """The set's comment records: its repeated comment units, else each page's lone dated unit.
        May turn loose comment blocks into boilerplate (``lone_comments``)."""
        if not options.comment_records:
            return None
        records: list[list[CommentRecord]] | None = None
        if options.records_only and not options.lone_comments:
            records = set_records(pages, roles)
        else:
            records = split_comments(pages, roles)
        if records is None and options.lone_comments:
            records = [single_unit_records(b, r) for b, r in zip(pages, roles, strict=True)]
            for page_roles, lone in zip(roles, records, strict=True):
                if not lone:  # loose comment blocks without a unit are no comments
                    page_roles[:] = [BOILERPLATE if role == COMMENT else role for role in page_roles]
        if records is not None:
            return list(records)
        if (fallback is not None and fallback.page_evidence) or options.lone_records:
            # comments found by each page's own markup, or a set whose one commented page holds one
            # comment: each page's dated unit is a record (a page without one keeps its comment blocks)
            return [single_unit_records(b, r) or None for b, r in zip(pages, roles, strict=True)]
        return None
