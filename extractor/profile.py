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

from .blocks import Block
from .evidence import PROFILE, confidence
from .fallback import Fallback, dated_comment_region
from .hygiene import clean_extraction
from .identifiers import assign_identifiers, once_identifiers, page_candidates
from .matching import DistinctVectors, FingerprintIndex, Vector
from .options import DEFAULT, Options
from .pipeline import (
    Page,
    PageExtraction,
    ParsedPage,
    ReadCache,
    SiteRoles,
    classify,
    collector_paused,
    page_output,
    read_page,
    read_set,
    set_outputs,
    site_encoding,
)
from .postmeta import published
from .records import CommentLayout, CommentRecord, learn_layout, single_unit_records, split_comments
from .robust import METADATA_MAX_CHARS, page_rules
from .separate import COMMENT, POST, separate_roles
from .steps import (
    drop_link_dense,
    drop_metadata,
    feed_comment_region,
    keep_post_links,
    post_date_lines,
    shapeless_comments,
    veto_comments,
)
from .units import UnitSignature

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
    # site is read in it when it fits (one site, one encoding; pipeline.site_encoding).
    encoding: str | None = None
    _index: FingerprintIndex | None = field(default=None, repr=False, compare=False)
    # What the pages this profile extracts share while being read (pipeline.read_page): a site's
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
        if len(self._read_cache) > _READ_CACHE_LIMIT:
            self._read_cache.clear()
        if self.encoding is not None and page.encoding_hint is None:
            page = replace(page, encoding_hint=self.encoding)
        parsed = read_page(page, self.options, self._read_cache)
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
        decided = self.roles(parsed)
        roles, evidence = decided.roles, None
        if self.options.comment_evidence:
            vetoed = veto_comments([parsed.blocks], [roles])
            roles, evidence = vetoed.roles[0], vetoed.evidence[0]
            roles = shapeless_comments([parsed.blocks], [roles], self.options)[0]  # D16
        records: list[CommentRecord] | None = None
        if self.comments is not None:
            records = self.comments.records(parsed.blocks, roles)
        elif self.options.comment_records:
            # no comment seen while learning: the page's own comment units, if it shows any
            found = split_comments([parsed.blocks], [roles], dated_only=True)
            if found is None and parsed.feed_comments:
                # the comment feed vouches for comments: undated units will do
                found = split_comments([parsed.blocks], [roles])
            records = found[0] if found is not None else single_unit_records(parsed.blocks, roles)
        out = page_output(parsed, roles, decided.idents, [], records)
        out.template_match = decided.template_match
        if self.options.post_date_line:
            out.published = published(parsed.blocks, roles)  # D18
        if self.options.comment_evidence:
            out.method = PROFILE
            out.confidence = confidence(PROFILE, evidence)
        if self.options.text_hygiene:
            clean_extraction(out)
        return out

    def _alone(self, parsed: ParsedPage) -> PageExtraction:
        """Issue 30: a profile learned from a set of one page knows no boilerplate (every block of a
        page is unique to it) and no separation (every identifier carried content on its only
        page): through it, a new page's template was post and its comments were missed. Such a
        profile reads a page as its set read the page it learned from, alone (D15's single-page
        detector), so that a re-fetch of that page and a new article are extracted alike."""
        return set_outputs([parsed], classify([parsed], self.options), self.options)[0]

    def roles(self, parsed: ParsedPage) -> PageRoles:
        """Every block's role and identifier, and the share of blocks matching a fingerprint: the
        set's steps (steps.py) on one page, the profile standing in for the other pages."""
        index = self.index()
        # The read cache hands the same Vector object to the repeated blocks of the site's pages
        # (menus, sidebars: most of a page), so each is matched once while the cache lasts.
        tested: dict[Vector, bool] = self._read_cache.setdefault(_MATCHED, {})
        if len(tested) > _READ_CACHE_LIMIT:  # (it keeps unshared vectors alive too)
            tested.clear()
        unique = index.unmatched(parsed.vectors, tested)
        matched = sum(1 for u in unique if not u)
        match = matched / len(unique) if unique else 0.0
        blocks, options = [parsed.blocks], self.options
        content = drop_link_dense(blocks, [unique], options)  # D5
        # step 6 with the set's eligible identifiers (those found once on this page)
        cands = page_candidates(parsed.blocks, options.class_mode)
        once = once_identifiers(parsed.blocks, options.class_mode, cands, among=self.eligible)
        idents = assign_identifiers(parsed.blocks, once, options.class_mode, cands)
        # step 7 with the set's separation: its post links stay, its metadata is boilerplate (D6)
        content = keep_post_links(content, [unique], [idents], self.main_id)
        content = drop_metadata(content, [idents], self.metadata_ids)
        roles = separate_roles(content, [idents], self.post_ids)[0]
        if options.robust_post_identifiers:  # identifiers the set never saw carry content here
            roles = self._new_identifiers(parsed.blocks, idents, roles)
        if self.fallback is not None:
            roles = self.fallback.apply(parsed.blocks, idents, roles, cands, unique)
        elif self.comments is None and options.comment_fallback:
            # learned from comment-free pages only (the crawler's first fetch): nothing says where
            # this site's comments go, so look for repeated dated units on the page itself (D9)
            dated = dated_comment_region(blocks, [roles])
            if dated is not None:
                roles = dated[0][0]
        # the article's comment feed lists comments the page seems not to show (D9, as in a set)
        region = feed_comment_region(blocks, [roles], [idents], [cands], [parsed.feed_comments])
        if region is not None:
            roles = region.roles[0]
        roles = page_rules(parsed.blocks, roles, idents, unique, options)
        roles = post_date_lines(blocks, [roles], options)[0]  # D18
        return PageRoles(roles, idents, match)

    def _new_identifiers(self, blocks: Sequence[Block], idents: Sequence[str], roles: list[str]) -> list[str]:
        """D6 on one page: content under an identifier that carried none in the set is post when it
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
        site = classify(good, options, frozenset(known_comment_ids))
        profile = profile_from_roles(good, site, options)  # before the outputs: D14 may rewrite roles
        return set_outputs(parsed, site, options), profile


def profile_from_parsed(
    parsed: Sequence[ParsedPage], options: Options, known_comment_ids: frozenset[str] = frozenset()
) -> SiteProfile:
    return profile_from_roles(parsed, classify(parsed, options, known_comment_ids), options)


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
