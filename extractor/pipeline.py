"""The method, step by step: ``extract_site`` reads as the papers' procedure.

>>> from extractor import Page, extract_site
>>> pages = [Page(None, b"<body><div id=nav>Home</div><p>Post one</p></body>"),
...          Page(None, b"<body><div id=nav>Home</div><p>Post two</p></body>")]
>>> [x.post for x in extract_site(pages)]
['Post one', 'Post two']
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .blocks import Block, _cpasses, parse_blocks  # type: ignore[attr-defined]
from .decode import decode_html
from .evidence import FALLBACK, SET, SINGLE_PAGE, Evidence, confidence, detect_section, role_indices, veto
from .fallback import Fallback, dated_comment_region, feed_comment_ids, identifier_region, named_section
from .features import block_vectors
from .identifiers import (
    DEFAULT_IDENTIFIER,
    assign_identifiers,
    eligible_identifiers,
    once_identifiers,
    page_candidates,
    template_outliers,
)
from .matching import Vector, group_vectors, near_duplicate_clusters, unique_blocks
from .options import DEFAULT, Options
from .records import CommentRecord, single_unit_records, split_comments
from .robust import drop_link_blocks, page_rules, robust_post_identifiers
from .separate import BOILERPLATE, COMMENT, POST, post_identifiers_every_page, reextract, separate_roles

# Shared by the pages of a set while they are read (read_page).
ReadCache = dict[Any, Any]

# Pages larger than this are cut before parsing (a 50 MB page is an error page or an attack).
MAX_PAGE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Page:
    """One fetched page: URL (or None), raw bytes and optional HTTP headers.

    ``feed_comments``: texts of the comments the article's comment feed lists, where it was read;
    evidence for a set in which no page is comment-free (fallback.py).
    """

    url: str | None
    body: bytes
    headers: Mapping[str, object] | None = None
    feed_comments: Sequence[str] = ()


@dataclass(slots=True)
class BlockResult:
    """A block as reported: enough to store it or paint it in a report.

    Not frozen: a page reports every block, and a frozen dataclass's constructor costs about
    twice as much.
    """

    index: int
    tag: str
    xpath: str
    identifier: str
    role: str  # "post", "comment" or "boilerplate"
    text: str


if _cpasses is not None and not TYPE_CHECKING:
    BlockResult = _cpasses.BlockResult  # the same class compiled, built in C by page_output


@dataclass(slots=True)
class PageExtraction:
    """The extraction of one page."""

    url: str | None
    post: str = ""
    comments: list[str] = field(default_factory=list)
    blocks: list[BlockResult] = field(default_factory=list)
    encoding: str | None = None
    error: str | None = None
    warnings: list[str] = field(default_factory=list)
    # With a site profile: share of this page's blocks matching the profile's boilerplate.
    template_match: float | None = None
    # Individual comments (records.py); ``comments`` holds their texts when they were found.
    comment_records: list[CommentRecord] = field(default_factory=list)
    # How the page was decided (evidence.py: "set", "profile", "every-page-has-comments fallback",
    # "single page") and with what confidence (0-1); None unless the comment_evidence option is on.
    method: str | None = None
    confidence: float | None = None

    def decision(self) -> dict[str, object]:
        """``{"method": ..., "confidence": ...}`` when they were set, else empty (the paper preset)."""
        if self.method is None:
            return {}
        return {"method": self.method, "confidence": self.confidence}

    def as_json(self) -> dict[str, object]:
        return {
            "url": self.url,
            "post": self.post,
            "comments": self.comments,
            "comment_records": [r.as_json() for r in self.comment_records],
            "error": self.error,
            "warnings": self.warnings,
            **self.decision(),
        }


@dataclass(slots=True)
class ParsedPage:
    """Steps 1-3 for one page: decoded, split into blocks, vectorised."""

    url: str | None
    blocks: list[Block]
    vectors: list[Vector]
    encoding: str | None = None
    error: str | None = None
    warnings: list[str] = field(default_factory=list)
    feed_comments: Sequence[str] = ()


def read_page(page: Page, options: Options = DEFAULT, cache: ReadCache | None = None) -> ParsedPage:
    """Steps 1-3: decode, parse into blocks, build vectors. Errors are per page, never raised.

    ``cache``: what the pages of a set (or of a profile) share, since they repeat most of their
    blocks: the measures of repeated block texts (keyed by their raw bytes) and the vectors of
    repeated blocks (keyed by tags, text and attribute values). Nothing in it is modified.
    """
    body = page.body or b""
    warnings = []
    if len(body) > MAX_PAGE_BYTES:
        warnings.append(f"page of {len(body)} bytes cut to {MAX_PAGE_BYTES}")
        body = body[:MAX_PAGE_BYTES]
    if not body or body.isspace():
        return ParsedPage(page.url, [], [], error="empty page")
    decoded = decode_html(body, page.headers)
    if _looks_binary(decoded.text):
        return ParsedPage(page.url, [], [], decoded.encoding, error="not HTML: binary content")
    if cache is None:
        cache = {}
    blocks = parse_blocks(decoded.text, cache, decoded.utf8)
    if not blocks:
        return ParsedPage(page.url, [], [], decoded.encoding, error="no parseable HTML")
    vectors = block_vectors(blocks, options, cache)
    return ParsedPage(page.url, blocks, vectors, decoded.encoding, warnings=warnings, feed_comments=page.feed_comments)


def _looks_binary(text: str) -> bool:
    """More than a tenth of the first 4,096 characters are replacement or control characters."""
    sample = text[:4096]
    if not sample:
        return False
    # counted in C: control bytes never occur inside a multi-byte UTF-8 sequence, so deleting
    # them from the UTF-8 form counts the control characters (a regex scan cost 1 % of extraction)
    raw = sample.encode("utf-8", "surrogatepass")
    odd = len(raw) - len(raw.translate(None, _CONTROL_BYTES)) + sample.count("\ufffd")
    return odd > len(sample) * 0.1


# Control characters other than tab, newline, carriage return and form feed.
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20)])


def extract_site(
    pages: Sequence[Page], options: Options = DEFAULT, known_comment_ids: Iterable[str] = ()
) -> list[PageExtraction]:
    """Extract posts and comments from one site's set of pages (both papers, in order).

    ``known_comment_ids``: identifiers that held comments on other sites (2013 §4.7), used only
    when this set shows no comment-free page (fallback.py), after the pages' ``feed_comments``.
    """
    with collector_paused():
        return _extract_site(pages, options, known_comment_ids)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a set's extraction, then restore it.

    A set creates a hundred thousand blocks and vectors in a burst; they hold no reference cycles
    (reference counting frees them), yet each full collection pass re-walks all of them, which
    measured 40-55% of the block stage on the corpus. Left alone when the collector is already off.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _extract_site(pages: Sequence[Page], options: Options, known_comment_ids: Iterable[str]) -> list[PageExtraction]:
    parsed = read_set(pages, options)
    roles = classify([p for p in parsed if p.error is None], options, frozenset(known_comment_ids))
    return set_outputs(parsed, roles, options)


def read_set(pages: Sequence[Page], options: Options) -> list[ParsedPage]:
    """Steps 1-3 for every page of a set, its pages sharing one read cache (``read_page``)."""
    cache: ReadCache = {}
    return [read_page(p, options, cache) for p in pages]


def set_outputs(parsed: Sequence[ParsedPage], roles: SiteRoles, options: Options) -> list[PageExtraction]:
    """Every page's extraction once its set is classified (``roles`` covers the pages without error):
    comment records, then post and comment texts."""
    good = [p for p in parsed if p.error is None]
    records = split_comments([p.blocks for p in good], roles.roles) if options.comment_records else None
    if records is None and options.comment_records and options.lone_comments:
        records = [single_unit_records(p.blocks, r) for p, r in zip(good, roles.roles, strict=True)]
        for page_roles, lone in zip(roles.roles, records, strict=True):
            if not lone:  # loose comment blocks without a unit: not comments (D14)
                page_roles[:] = [BOILERPLATE if role == COMMENT else role for role in page_roles]
    singles: list[list[CommentRecord]] | None = None
    if records is None and options.comment_records and roles.fallback is not None and roles.fallback.page_evidence:
        # comments found by each page's own markup, one per page: its dated unit as a record (a
        # page without one keeps its comment blocks)
        singles = [single_unit_records(p.blocks, r) for p, r in zip(good, roles.roles, strict=True)]
    out = []
    ok = 0
    for p in parsed:
        if p.error is not None:
            out.append(PageExtraction(p.url, encoding=p.encoding, error=p.error, warnings=p.warnings))
            continue
        page_records = records[ok] if records is not None else None
        if singles is not None:
            page_records = singles[ok] or None
        result = page_output(p, roles.roles[ok], roles.idents[ok], roles.warnings, page_records)
        if roles.evidence is not None:
            result.method = roles.method
            result.confidence = confidence(roles.method, roles.evidence[ok])
        out.append(result)
        ok += 1
    return out


@dataclass(slots=True)
class SiteRoles:
    """Per good page: every block's role and identifier, plus set-level facts."""

    roles: list[list[str]]
    idents: list[list[str]]
    content: list[list[bool]]
    unique: list[list[bool]]  # step 4's verdict alone (blocks found on one page only)
    eligible: set[str]
    post_ids: set[str]
    metadata_ids: set[str]
    warnings: list[str]
    main_id: str | None = None  # the post identifier with the most text (D6)
    fallback: Fallback | None = None  # how comments were found without a comment-free page (D9)
    method: str = SET  # how the set was decided (evidence.py)
    evidence: list[Evidence | None] | None = None  # per page, with the comment_evidence option


def classify(
    pages: Sequence[ParsedPage], options: Options, known_comment_ids: frozenset[str] = frozenset()
) -> SiteRoles:
    """Steps 4-8 over the parsed pages of one set (then the no-comment-free-page fallback)."""
    blocks = [p.blocks for p in pages]
    vectors = [p.vectors for p in pages]
    warnings: list[str] = []
    if len(pages) < 2:
        warnings.append("separation impossible: a set of one page has no other page to compare with")
    # Step 5: near-duplicate pages must not cancel each other's content (2009 §4.2).
    clusters = None
    grouped = group_vectors(vectors)
    if options.near_duplicate_pages:
        clusters = near_duplicate_clusters(
            vectors, [[b.text_chars for b in bl] for bl in blocks], options.near_duplicate_share, grouped
        )
        if len(set(clusters)) < len(clusters):
            warnings.append(f"near-duplicate pages grouped: {len(clusters) - len(set(clusters))}")
    # Step 4: content = blocks found on only one page (2009 §3.2.5).
    unique = unique_blocks(vectors, options.similarity_threshold, clusters, grouped)
    content = unique
    if options.max_link_density is not None:
        content = drop_link_blocks(blocks, content, options.max_link_density)
    link_dense = [[u and not c for u, c in zip(us, cs, strict=True)] for us, cs in zip(unique, content, strict=True)]
    # Step 6: identifiers (2013 §3.5); D7 leaves pages without the site's template out.
    cands = [page_candidates(bl, options.class_mode) for bl in blocks]
    once = [once_identifiers(bl, options.class_mode, c) for bl, c in zip(blocks, cands, strict=True)]
    outliers = template_outliers(blocks, options.class_mode, once) if options.skip_template_outliers else set()
    if outliers:
        warnings.append(f"{len(outliers)} page(s) do not share the site's template; their content is taken as post")
    keep = [p for p in range(len(pages)) if p not in outliers]
    eligible = (
        eligible_identifiers([blocks[p] for p in keep], options.class_mode, [once[p] for p in keep])
        if len(keep) > 1
        else set()
    )
    idents = [assign_identifiers(bl, eligible, options.class_mode, c) for bl, c in zip(blocks, cands, strict=True)]
    # Step 7: separation (2013 §3.6).
    metadata_ids: set[str] = set()
    main_id: str | None = None
    if options.robust_post_identifiers:
        sep = robust_post_identifiers(
            [blocks[p] for p in keep], [content[p] for p in keep], [idents[p] for p in keep], options.date_lines
        )
        post_ids = sep.post_ids
        warnings.extend(sep.notes)
        metadata_ids = sep.metadata_ids
        main_id = sep.main
        # a link inside the post body ("via example.com", a linked title) is the author's text
        content = [
            [flag or (dense and ident == sep.main) for flag, dense, ident in zip(flags, ld, ids, strict=True)]
            for flags, ld, ids in zip(content, link_dense, idents, strict=True)
        ]
        if sep.metadata_ids:
            content = [
                [flag and ident not in sep.metadata_ids for flag, ident in zip(flags, ids, strict=True)]
                for flags, ids in zip(content, idents, strict=True)
            ]
    else:
        post_ids = post_identifiers_every_page(content, idents)
    # Step 8: content re-extraction (2013 §4.6), after separation so that blocks pulled back into
    # content cannot change which identifiers count as the post's.
    if options.reextract:
        owned = [[any(c in eligible for c in own) for own in page] for page in cands]
        content = reextract(blocks, content, idents, options.reextract_own_identifier_only, owned)
    roles = separate_roles(content, idents, post_ids)
    for p in outliers:
        roles[p] = [POST if role == COMMENT else role for role in roles[p]]
    fallback = None
    if len(pages) > 1:
        feeds = [p.feed_comments for p in pages]
        roles, note, fallback = _no_comment_free_page(blocks, cands, roles, idents, options, known_comment_ids, feeds)
        if note:
            warnings.append(note)
    roles = [page_rules(bl, r, ids, u, options) for bl, r, ids, u in zip(blocks, roles, idents, unique, strict=True)]
    method = SET if len(pages) > 1 else SINGLE_PAGE
    if fallback is not None:
        method = FALLBACK
    evidence: list[Evidence | None] | None = None
    if options.comment_evidence:
        roles, evidence, note = comment_regions(blocks, roles, method)
        if note:
            warnings.append(note)
        if method == SET and options.comment_fallback and not _comment_text(blocks, roles):
            # issue 20: the set kept no comment (none proposed, or none with evidence): where every
            # page has comments and no unit repeats across the set (one comment per page, undated
            # lists), each page's own comment section, two signals as for a page alone
            found = [named_section(bl, r, u) for bl, r, u in zip(blocks, roles, unique, strict=True)]
            if found != roles:
                roles, method, fallback = found, FALLBACK, Fallback(page_evidence=True)
                evidence = [None] * len(roles)
                warnings[:] = [w for w in warnings if w != NO_COMMENTS] + [PAGE_EVIDENCE]
    site = SiteRoles(roles, idents, content, unique, eligible, post_ids, metadata_ids, warnings, main_id, fallback)
    site.method, site.evidence = method, evidence
    return site


def _comment_text(blocks: Sequence[Sequence[Block]], roles: Sequence[Sequence[str]]) -> bool:
    """Whether any page keeps a comment block with text (most pages of most sets hold none)."""
    return any(
        COMMENT in r and any(bl[i].text for i in role_indices(r, COMMENT)) for bl, r in zip(blocks, roles, strict=True)
    )


ONE_PAGE_COMMENTS = "comments of a set of one page come from its own comment markup alone"


def comment_regions(
    blocks: Sequence[Sequence[Block]], roles: list[list[str]], method: str
) -> tuple[list[list[str]], list[Evidence | None], str]:
    """Issue 20: comment blocks stand only where the page shows comment evidence (evidence.veto);
    a page alone finds its comment section by that evidence (evidence.detect_section). Returns the
    roles, each page's evidence (None without comment blocks) and a warning."""
    note = ""
    if method == SINGLE_PAGE:
        found = [detect_section(bl, r) for bl, r in zip(blocks, roles, strict=True)]
        if found != roles:
            roles, note = found, ONE_PAGE_COMMENTS
    vetoed = [veto(bl, r) for bl, r in zip(blocks, roles, strict=True)]
    return [r for r, _ in vetoed], [ev for _, ev in vetoed], note


NO_COMMENTS = "no comments found in the set: if every page has comments they were taken as post"
PAGE_EVIDENCE = "comments found by each page's own comment markup (no comment-free page)"


def _no_comment_free_page(
    blocks: Sequence[Sequence[Block]],
    cands: Sequence[Sequence[tuple[str, ...]]],
    roles: list[list[str]],
    idents: Sequence[Sequence[str]],
    options: Options,
    known: frozenset[str],
    comment_texts: Sequence[Sequence[str]],
) -> tuple[list[list[str]], str, Fallback | None]:
    """Comments taken as post because no page is comment-free: the fallbacks (fallback.py)."""
    none_found = not any(COMMENT in r for r in roles)
    if not options.comment_fallback:
        return roles, NO_COMMENTS if none_found else "", None
    # a page whose comment feed lists comments shows none: the feeds are evidence, as when none
    # of the set's pages shows any (identifiers learned elsewhere are used only then)
    missed = any(texts and COMMENT not in r for texts, r in zip(comment_texts, roles, strict=True))
    feed_ids = feed_comment_ids(blocks, roles, idents, comment_texts) if missed else frozenset()
    for ids, source in (
        (feed_ids, "comment feeds"),
        (known if none_found else frozenset(), "identifiers learned on other sites"),
    ):
        found = identifier_region(idents, roles, ids, blocks, cands)
        if found is not None:
            why = "no comment-free page" if none_found else "pages whose feed lists comments showed none"
            return found, f"comments found by {source} ({why})", Fallback(known_ids=ids)
    dated = dated_comment_region(blocks, roles)
    if dated is not None and dated[0] != roles:
        note = "comments found as repeated dated units in the post (no comment-free page)"
        return dated[0], note, Fallback(unit=dated[1])
    return roles, NO_COMMENTS if none_found else "", None


def page_output(
    page: ParsedPage,
    roles: list[str],
    idents: list[str],
    warnings: list[str],
    records: list[CommentRecord] | None = None,
) -> PageExtraction:
    if _cpasses is not None:
        results, post_lines, comments = _cpasses.page_blocks(page.blocks, roles, idents, POST, COMMENT)
    else:
        post_lines, comments, results = [], [], []
        for b, role, ident in zip(page.blocks, roles, idents, strict=True):
            results.append(BlockResult(b.index, b.tag, b.xpath, ident, role, b.text))
            if not b.text:
                continue
            if role == POST:
                post_lines.append(b.text)
            elif role == COMMENT:
                comments.append(b.text)
    if records is not None:
        comments = [r.text for r in records if r.text]
    return PageExtraction(
        page.url,
        post="\n".join(post_lines),
        comments=comments,
        comment_records=records or [],
        blocks=results,
        encoding=page.encoding,
        warnings=[*page.warnings, *warnings],
    )


__all__ = [
    "BOILERPLATE",
    "COMMENT",
    "DEFAULT_IDENTIFIER",
    "POST",
    "BlockResult",
    "Page",
    "PageExtraction",
    "ParsedPage",
    "classify",
    "extract_site",
    "read_page",
]
