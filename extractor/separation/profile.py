"""A site profile: what one set taught about a site, to extract a single new page at once.

    >>> from extractor import Page, learn_profile
    >>> pages = [Page(None, b"<body><div id=nav>Home</div><p>Post %d</p></body>" % i) for i in range(3)]
    >>> profile = learn_profile(pages)
    >>> profile.extract(Page(None, b"<body><div id=nav>Home</div><p>A new post</p></body>")).post
    'A new post'

The profile keeps the set's boilerplate fingerprints (the distinct vectors of blocks that matched
another page), its eligible identifiers, and which identifiers carried the post, per-page metadata
or comments. A new page's block is content when it matches no fingerprint (the same cosine rule,
§3.2.4-3.2.5, with the profile standing in for the other pages); roles then follow from the learned
identifiers, and a set without a comment-free page hands on how its comments were found (fallback.py).
``template_match`` (the share of the page's blocks that match a fingerprint) falls when
the site's template changed: the caller should learn a new profile then.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace

from .. import speedups
from ..comments.evidence import PROFILE
from ..comments.fallback import Fallback, dated_comment_region
from ..comments.records import CommentLayout, learn_layout, single_unit_records, split_comments
from ..comments.units import UnitSignature
from ..core.blocks import Block
from ..core.matching import DistinctVectors, FingerprintIndex, Vector
from ..core.options import DEFAULT, Options
from ..core.roles import COMMENT, POST
from .context import PageRecords, Pages
from .identifiers import assign_identifiers, once_identifiers, page_candidates
from .method import (
    Page,
    PageExtraction,
    ParsedPage,
    ReadCache,
    SiteRoles,
    classify,
    collector_paused,
    outputs,
    read_page,
    read_set,
    set_context,
    site_encoding,
)
from .robust import METADATA_MAX_CHARS
from .steps import (
    Content,
    Decision,
    Identifiers,
    Separated,
    drop_metadata,
    feed_comment_region,
    keep_post_links,
)

PROFILE_FORMAT = 1
_READ_CACHE_LIMIT = 50_000
# The read cache's entry for the fingerprint test of the vectors it shares (SiteProfile.roles).
_MATCHED = object()


@dataclass(slots=True)
class PageRoles:
    """One page's roles and identifiers under a profile, and its template match."""

    roles: list[str]
    idents: list[str]
    template_match: float


@dataclass(slots=True)
class SiteProfile:
    """Learned from one set of a site's pages; see the module docstring."""

    options: Options
    boilerplate: list[dict[str, float]]
    eligible: set[str]
    post_ids: set[str]
    metadata_ids: set[str] = field(default_factory=set)
    comment_ids: set[str] = field(default_factory=set)
    pages: int = 0
    learned_at: float = 0.0
    warnings: list[str] = field(default_factory=list)
    comments: CommentLayout | None = None
    main_id: str | None = None
    # The set had no comment-free page: how its comments were found, replayed on each new page.
    fallback: Fallback | None = None
    # The legacy encoding the set's undeclared pages were read in: a new undeclared page of the
    # site is read in it when it fits (one site, one encoding; method.site_encoding).
    encoding: str | None = None
    _index: FingerprintIndex | None = field(default=None, repr=False, compare=False)
    # What the pages this profile extracts share while being read (method.read_page): a site's
    # layout wrappers, menus and sidebars repeat from page to page (cleared past
    # _READ_CACHE_LIMIT entries).
    _read_cache: ReadCache = field(default_factory=dict, repr=False, compare=False)

    def index(self) -> FingerprintIndex:
        """The boilerplate fingerprints, indexed on first use."""
        if self._index is None:
            vectors = [Vector(w) for w in self.boilerplate]
            self._index = FingerprintIndex(vectors, self.options.similarity_threshold)
        return self._index

    def extract(self, page: Page) -> PageExtraction:
        """Extract one page of the site with this profile (no set needed)."""
        with collector_paused():
            return self._extract(page)

    def _extract(self, page: Page) -> PageExtraction:
        parsed = self._read(page)
        if parsed.error is not None:
            return PageExtraction(
                parsed.url,
                encoding=parsed.encoding,
                error=parsed.error,
                warnings=parsed.warnings,
                encoding_source=parsed.encoding_source,
            )
        if self.pages == 1 and self.options.comment_evidence:
            return self._alone(parsed)
        context = ProfileContext(self, parsed.feed_comments)
        return outputs([parsed], classify([parsed], self.options, context), self.options, context)[0]

    def _read(self, page: Page) -> ParsedPage:
        """Steps 1-3, in the encoding of the site's other pages where the page declares none."""
        if len(self._read_cache) > _READ_CACHE_LIMIT:
            self._read_cache.clear()
        if self.encoding is not None and page.encoding_hint is None:
            page = replace(page, encoding_hint=self.encoding)
        return read_page(page, self.options, self._read_cache)

    def _alone(self, parsed: ParsedPage) -> PageExtraction:
        """A profile learned from a set of one page knows no boilerplate (every block of a page is
        unique to it) and no separation (every identifier carried content on its only page):
        through it, a new page's template was post and its comments were missed. Such a profile
        reads a page as its set read the page it learned from, alone (the single-page detector),
        so that a re-fetch of that page and a new article are extracted alike."""
        context = set_context([parsed])
        return outputs([parsed], classify([parsed], self.options, context), self.options, context)[0]

    def roles(self, parsed: ParsedPage) -> PageRoles:
        """Every block's role and identifier, and the share of blocks matching a fingerprint: the
        method's steps on one page, the profile standing in for the other pages."""
        site = classify([parsed], self.options, ProfileContext(self, parsed.feed_comments))
        return PageRoles(site.roles[0], site.idents[0], site.template_match or 0.0)

    def _new_identifiers(self, blocks: Sequence[Block], idents: Sequence[str], roles: list[str]) -> list[str]:
        """Robust post identifiers on one page: content under an identifier that carried none in the set is post when it
        starts before the end of the main post identifier's content (comments follow the post;
        without the main identifier on the page, before the first block of a known comment
        identifier), unless it is one short block (a date or title line that other pages listed)."""
        known = self.post_ids | self.comment_ids | self.metadata_ids
        end = next((i for i in range(len(roles) - 1, -1, -1) if roles[i] == POST and idents[i] == self.main_id), -1)
        if end < 0:
            end = next((i for i, r in enumerate(roles) if r == COMMENT and idents[i] in self.comment_ids), len(roles))
        first: dict[str, int] = {}
        shape: dict[str, list[int]] = {}
        for i, (role, ident) in enumerate(zip(roles, idents, strict=True)):
            if role == COMMENT and ident not in known and blocks[i].text:
                first.setdefault(ident, i)
                shape.setdefault(ident, []).append(blocks[i].text_chars)
        early = {
            ident
            for ident, i in first.items()
            if i < end and (len(shape[ident]) > 1 or shape[ident][0] > METADATA_MAX_CHARS)
        }
        if not early:
            return roles
        return [POST if role == COMMENT and ident in early else role for role, ident in zip(roles, idents, strict=True)]

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": PROFILE_FORMAT,
                "options": asdict(self.options),
                "boilerplate": self.boilerplate,
                "eligible": sorted(self.eligible),
                "post_ids": sorted(self.post_ids),
                "metadata_ids": sorted(self.metadata_ids),
                "comment_ids": sorted(self.comment_ids),
                "pages": self.pages,
                "learned_at": self.learned_at,
                "warnings": self.warnings,
                "comments": self.comments.to_json() if self.comments is not None else None,
                "main_id": self.main_id,
                "fallback": _fallback_json(self.fallback),
                "encoding": self.encoding,
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> SiteProfile:
        data = json.loads(text)
        if data.get("format") != PROFILE_FORMAT:
            raise ValueError(f"unsupported profile format {data.get('format')!r}")
        return cls(
            options=Options(**data["options"]),
            boilerplate=data["boilerplate"],
            eligible=set(data["eligible"]),
            post_ids=set(data["post_ids"]),
            metadata_ids=set(data["metadata_ids"]),
            comment_ids=set(data["comment_ids"]),
            pages=data["pages"],
            learned_at=data["learned_at"],
            warnings=data.get("warnings", []),
            comments=CommentLayout.from_json(data["comments"]) if data.get("comments") else None,
            main_id=data.get("main_id"),
            fallback=_fallback_from_json(data.get("fallback")),
            encoding=data.get("encoding"),
        )


class ProfileContext:
    """One new page of a site, its profile standing in for the set's other pages (context.py):
    its boilerplate fingerprints for steps 4-5, its eligible identifiers for step 6, its post and
    metadata identifiers for step 7, and how its set found comments (or its comment layout)."""

    method = PROFILE
    compares_pages = False  # the profile keeps no other page's lines

    def __init__(self, profile: SiteProfile, feed_comments: Sequence[str]) -> None:
        self.profile = profile
        self.feed_comments = feed_comments
        self.template_match: float | None = None

    def first_warnings(self) -> list[str]:
        return []

    def unique_blocks(
        self, pages: Pages, vectors: Sequence[Sequence[Vector]], options: Options, warnings: list[str]
    ) -> list[list[bool]]:
        """A block is content when it matches none of the profile's fingerprints (the same cosine
        rule, the fingerprints standing in for the other pages' blocks)."""
        # The read cache hands the same Vector object to the repeated blocks of the site's pages
        # (menus, sidebars: most of a page), so each is matched once while the cache lasts.
        tested: dict[Vector, bool] = self.profile._read_cache.setdefault(_MATCHED, {})
        if len(tested) > _READ_CACHE_LIMIT:  # (it keeps unshared vectors alive too)
            tested.clear()
        unique = speedups.unmatched(self.profile.index(), vectors[0], tested)
        matched = unique.count(False)  # counted in C (the flags are bools)
        self.template_match = matched / len(unique) if unique else 0.0
        return [unique]

    def identifiers(self, pages: Pages, options: Options, warnings: list[str]) -> Identifiers:
        """Step 6 with the set's eligible identifiers (those found once on this page)."""
        blocks, mode = pages[0], options.class_mode
        cands = page_candidates(blocks, mode)
        once = once_identifiers(blocks, mode, cands, among=self.profile.eligible)
        idents = assign_identifiers(blocks, once, mode, cands)
        return Identifiers([cands], [idents], self.profile.eligible, set(), [0])

    def separation(
        self, pages: Pages, found: Content, ids: Identifiers, options: Options, warnings: list[str]
    ) -> Separated:
        """Step 7 as the set separated: its post links stay, its metadata is boilerplate."""
        profile = self.profile
        content = keep_post_links(found.content, found.unique, ids.idents, profile.main_id)
        content = drop_metadata(content, ids.idents, profile.metadata_ids)
        return Separated(content, profile.post_ids, profile.metadata_ids, profile.main_id)

    def reextraction(
        self, pages: Pages, content: list[list[bool]], ids: Identifiers, options: Options
    ) -> list[list[bool]]:
        """Step 8 needs the set's content beside the page's: a profile keeps none."""
        return content

    def new_identifiers(
        self, pages: Pages, roles: list[list[str]], ids: Identifiers, options: Options
    ) -> list[list[str]]:
        """Identifiers the set never saw carry content here: the post's, where they come early."""
        if not options.robust_post_identifiers:
            return roles
        return [self.profile._new_identifiers(pages[0], ids.idents[0], roles[0])]

    def comments_without_comment_free_page(
        self,
        pages: Pages,
        decision: Decision,
        ids: Identifiers,
        unique: Sequence[Sequence[bool]],
        options: Options,
        warnings: list[str],
    ) -> Decision:
        """How the set found comments without a comment-free page, replayed on this page; a profile
        learned from comment-free pages only looks for repeated dated units on the page itself;
        the article's comment feed lists comments the page seems not to show."""
        profile, roles = self.profile, decision.roles[0]
        if not options.comment_fallback:
            return decision
        if profile.fallback is not None:
            roles = profile.fallback.apply(pages[0], ids.idents[0], roles, ids.cands[0], unique[0])
        elif profile.comments is None:
            # learned from comment-free pages only (the crawler's first fetch): nothing says where
            # this site's comments go
            dated = dated_comment_region(pages, [roles])
            if dated is not None:
                roles = dated[0][0]
        region = feed_comment_region(pages, [roles], ids.idents, ids.cands, [self.feed_comments])
        if region is not None:
            roles = region.roles[0]
        decision.roles = [roles]
        return decision

    def comment_records(
        self, pages: Pages, roles: list[list[str]], fallback: Fallback | None, options: Options
    ) -> PageRecords | None:
        """The learned comment layout; without one, the page's own comment units."""
        blocks, page_roles = pages[0], roles[0]
        if self.profile.comments is not None:
            return [self.profile.comments.records(blocks, page_roles)]
        if not options.comment_records:
            return None
        found = split_comments([blocks], [page_roles], dated_only=True)
        if found is None and self.feed_comments:
            # the comment feed vouches for comments: undated units will do
            found = split_comments([blocks], [page_roles])
        return [found[0] if found is not None else single_unit_records(blocks, page_roles)]


def _fallback_json(fallback: Fallback | None) -> dict[str, object] | None:
    if fallback is None:
        return None
    unit = fallback.unit
    return {
        "known_ids": sorted(fallback.known_ids),
        "unit": None if unit is None else {"tag": unit.tag, "tokens": sorted(unit.tokens)},
        "page_evidence": fallback.page_evidence,
    }


def _fallback_from_json(data: object) -> Fallback | None:
    if not isinstance(data, dict):
        return None
    unit = data.get("unit")
    signature = None
    if isinstance(unit, dict):
        signature = UnitSignature(str(unit["tag"]), frozenset(unit.get("tokens") or []))
    return Fallback(frozenset(data.get("known_ids") or []), signature, bool(data.get("page_evidence")))


def learn_profile(
    pages: Sequence[Page], options: Options = DEFAULT, known_comment_ids: Iterable[str] = ()
) -> SiteProfile:
    """Learn a site profile from a set of the site's pages (ideally some without comments).

    ``known_comment_ids`` and the pages' ``feed_comments`` are the evidence ``extract_site`` uses
    when no page of the set is comment-free; the profile replays what they found.
    """
    with collector_paused():
        parsed = [p for p in read_set(pages, options) if p.error is None]
        return profile_from_parsed(parsed, options, frozenset(known_comment_ids))


def extract_and_learn(
    pages: Sequence[Page], options: Options = DEFAULT, known_comment_ids: Iterable[str] = ()
) -> tuple[list[PageExtraction], SiteProfile]:
    """``extract_site`` and ``learn_profile`` of one set, its pages read and classified once (the
    crawl pipeline's batch job needs both)."""
    with collector_paused():
        parsed = read_set(pages, options)
        good = [p for p in parsed if p.error is None]
        context = set_context(good, frozenset(known_comment_ids))
        site = classify(good, options, context)
        profile = profile_from_roles(good, site, options)  # before the outputs, which may rewrite roles
        return outputs(parsed, site, options, context), profile


def profile_from_parsed(
    parsed: Sequence[ParsedPage], options: Options, known_comment_ids: frozenset[str] = frozenset()
) -> SiteProfile:
    return profile_from_roles(parsed, classify(parsed, options, set_context(parsed, known_comment_ids)), options)


def profile_from_roles(parsed: Sequence[ParsedPage], site: SiteRoles, options: Options) -> SiteProfile:
    """The profile of a classified set (``parsed``: its pages without error)."""
    fingerprints = DistinctVectors()
    comment_ids: set[str] = set()
    for page, unique, roles, idents in zip(parsed, site.unique, site.roles, site.idents, strict=True):
        for vector, is_unique, role, ident in zip(page.vectors, unique, roles, idents, strict=True):
            if not is_unique:
                fingerprints.number(vector)
            if role == COMMENT:
                comment_ids.add(ident)
    return SiteProfile(
        options=options,
        boilerplate=[v.weights for v in fingerprints.vectors],
        eligible=set(site.eligible),
        post_ids=set(site.post_ids),
        metadata_ids=set(site.metadata_ids),
        comment_ids=comment_ids,
        pages=len(parsed),
        learned_at=time.time(),
        warnings=list(site.warnings),
        main_id=site.main_id,
        fallback=site.fallback,
        comments=learn_layout([p.blocks for p in parsed], site.roles) if options.comment_records else None,
        encoding=site_encoding(parsed),
    )
