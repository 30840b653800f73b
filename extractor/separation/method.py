"""The method, step by step: ``extract_site`` reads as the papers' procedure.

>>> from extractor import Page, extract_site
>>> pages = [Page(None, b"<body><div id=nav>Home</div><p>Post one</p></body>"),
...          Page(None, b"<body><div id=nav>Home</div><p>Post two</p></body>")]
>>> [x.post for x in extract_site(pages)]
['Post one', 'Post two']
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from os.path import commonpath
from typing import Any, NamedTuple

from ..comments.evidence import FALLBACK, SET, SINGLE_PAGE, Evidence, confidence
from ..comments.fallback import Fallback
from ..comments.postmeta import post_author, published
from ..comments.records import CommentRecord
from ..core.blocks import Block
from ..core.decode import decode_html
from ..core.hygiene import clean_text
from ..core.matching import Vector
from ..core.options import DEFAULT, Options
from ..core.roles import BOILERPLATE, COMMENT, POST
from ..speedups import block_vectors, parse_blocks
from .context import Context, SetOfPages
from .identifiers import DEFAULT_IDENTIFIER
from .single_page import single_page_steps
from .steps import (
    NO_COMMENTS,
    PAGE_EVIDENCE,
    Content,
    Decision,
    apply_page_rules,
    assign_roles,
    comment_lines_shared,
    drop_link_dense,
    every_page_has_comments,
    post_bylines,
    post_date_lines,
    post_lines_shared,
    post_titles_shared,
    shapeless_comments,
    single_page_section,
    veto_comments,
)

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
    # the encoding guessed for the site's other pages, for a page that declares none (decode.py)
    encoding_hint: str | None = None


class BlockResult(NamedTuple):
    """A block as reported: enough to store it or paint it in a report.

    A named tuple: a page reports every block (a set, a hundred thousand), and ``page_output``
    makes each with ``tuple.__new__``, one C call, where a dataclass runs its ``__init__`` in Python.
    """

    index: int  # type: ignore[assignment]  # the field shadows tuple.index, which no caller uses
    tag: str
    xpath: str
    identifier: str
    role: str  # "post", "comment" or "boilerplate"
    text: str


class BlockResults(Sequence[BlockResult]):
    """A page's blocks as reported, made on first use: most callers read only the post and the
    comments, and making a result per block was a tenth of profile extraction.

    >>> from extractor.core.blocks import parse_blocks
    >>> blocks = parse_blocks("<p>Hello</p>")
    >>> results = BlockResults(blocks, ["post"] * len(blocks), ["body"] * len(blocks))
    >>> results[-1].text, results[-1].role
    ('Hello', 'post')
    """

    __slots__ = ("_blocks", "_idents", "_made", "_roles")

    def __init__(self, blocks: Sequence[Block], roles: Sequence[str], idents: Sequence[str]) -> None:
        self._blocks, self._roles, self._idents = blocks, roles, idents
        self._made: list[BlockResult] | None = None

    def _list(self) -> list[BlockResult]:
        if self._made is None:
            new = tuple.__new__
            self._made = [
                new(BlockResult, (b.index, b.tag, b.xpath, ident, role, b.text))
                for b, role, ident in zip(self._blocks, self._roles, self._idents, strict=True)
            ]
            self._blocks = self._roles = self._idents = ()  # the list holds all a caller can read
        return self._made

    def __len__(self) -> int:
        return len(self._made) if self._made is not None else len(self._roles)

    def __getitem__(self, i: Any) -> Any:
        return self._list()[i]

    def __iter__(self) -> Iterator[BlockResult]:
        return iter(self._list())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self._list() == list(other)

    def __repr__(self) -> str:
        return repr(self._list())

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as the plain list (a worker's result crosses a process boundary)
        return (list, (self._list(),))


@dataclass(slots=True)
class PageExtraction:
    """The extraction of one page."""

    url: str | None
    post: str = ""
    comments: list[str] = field(default_factory=list)
    blocks: Sequence[BlockResult] = field(default_factory=list)
    encoding: str | None = None
    error: str | None = None
    warnings: list[str] = field(default_factory=list)
    # "declared" (BOM, header, <meta>) or "guessed" (decode.py), beside ``encoding``
    encoding_source: str | None = None
    # The comment section as a reader sees it: every comment unit's text, author and date lines
    # included, in page order (``comment_records`` keep those apart from the comment's words).
    comment_section: str = ""
    # With a site profile: share of this page's blocks matching the profile's boilerplate.
    template_match: float | None = None
    # Individual comments (records.py); ``comments`` holds their texts when they were found.
    comment_records: list[CommentRecord] = field(default_factory=list)
    # How the page was decided (evidence.py: "set", "profile", "every-page-has-comments fallback",
    # "single page") and with what confidence (0-1); None unless the comment_evidence option is on.
    method: str | None = None
    confidence: float | None = None
    # The post's date from its date line or its byline (postmeta.py), ISO 8601; None without one.
    published: str | None = None
    # The post's author from its byline (postmeta.py); None without one.
    post_author: str | None = None

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
            **self.post_metadata(),
        }

    def post_metadata(self) -> dict[str, str]:
        """``published`` and ``post_author`` where they were found (neither with the paper preset)."""
        found = {"published": self.published, "post_author": self.post_author}
        return {k: v for k, v in found.items() if v is not None}


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
    encoding_source: str | None = None


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
    decoded = decode_html(body, page.headers, page.encoding_hint)
    source = decoded.encoding_source
    if _looks_binary(decoded.text):
        return ParsedPage(page.url, [], [], decoded.encoding, "not HTML: binary content", encoding_source=source)
    if cache is None:
        cache = {}
    blocks = parse_blocks(decoded.text, cache, decoded.utf8)
    if not blocks:
        return ParsedPage(page.url, [], [], decoded.encoding, "no parseable HTML", encoding_source=source)
    vectors = block_vectors(blocks, options, cache)
    return ParsedPage(page.url, blocks, vectors, decoded.encoding, None, warnings, page.feed_comments, source)


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
    good = [p for p in parsed if p.error is None]
    context = set_context(good, frozenset(known_comment_ids))
    return outputs(parsed, classify(good, options, context), options, context)


def set_context(good: Sequence[ParsedPage], known_comment_ids: frozenset[str] = frozenset()) -> SetOfPages:
    """The pages of a set (``good``: those read without error) as each other's other pages."""
    return SetOfPages(len(good), known_comment_ids, [p.feed_comments for p in good])


def read_set(pages: Sequence[Page], options: Options) -> list[ParsedPage]:
    """Steps 1-3 for every page of a set, its pages sharing one read cache (``read_page``); pages
    whose encoding was guessed are read in one encoding, the site's (``site_encoding``)."""
    cache: ReadCache = {}
    parsed = [read_page(p, options, cache) for p in pages]
    site = site_encoding(parsed)
    for i, (page, read) in enumerate(zip(pages, parsed, strict=True)):
        if site is not None and read.encoding_source == "guessed" and read.encoding not in (site, "utf-8"):
            parsed[i] = read_page(replace(page, encoding_hint=site), options, cache)
    return parsed


def site_encoding(parsed: Sequence[ParsedPage]) -> str | None:
    """The legacy encoding most of a set's undeclared pages were guessed in (one site, one encoding)."""
    guessed = Counter(p.encoding for p in parsed if p.encoding_source == "guessed" and p.encoding != "utf-8")
    return guessed.most_common(1)[0][0] if guessed else None


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
    main_id: str | None = None  # the post identifier with the most text
    fallback: Fallback | None = None  # how comments were found without a comment-free page
    method: str = SET  # how the set was decided (evidence.py)
    evidence: list[Evidence | None] | None = None  # per page, with the comment_evidence option
    template_match: float | None = None  # with a profile: share of the page's blocks matching it


def classify(pages: Sequence[ParsedPage], options: Options, context: Context | None = None) -> SiteRoles:
    """The method over parsed pages: the papers' steps 4-8 in order, then the steps beyond them.

    ``context`` says what the other pages are (context.py): by default the pages themselves (a
    set, or a page alone); a site profile stands in for them when it reads one new page.
    """
    context = context or set_context(pages)
    blocks = [p.blocks for p in pages]
    warnings = context.first_warnings()
    unique = context.unique_blocks(blocks, [p.vectors for p in pages], options, warnings)  # steps 4-5
    content = drop_link_dense(blocks, unique, options)
    ids = context.identifiers(blocks, options, warnings)  # step 6
    sep = context.separation(blocks, Content(unique, content), ids, options, warnings)  # step 7
    content = context.reextraction(blocks, sep.content, ids, options)  # step 8
    decision = Decision(assign_roles(content, ids, sep.post_ids), context.method)
    decision.roles = context.new_identifiers(blocks, decision.roles, ids, options)
    decision = context.comments_without_comment_free_page(blocks, decision, ids, unique, options, warnings)
    decision.roles = apply_page_rules(blocks, decision.roles, ids.idents, unique, options)
    if context.compares_pages:
        decision.roles = post_lines_shared(blocks, decision.roles, ids.idents, sep.main_id, options)
        decision.roles = post_titles_shared(blocks, decision.roles, options)
        decision.roles = comment_lines_shared(blocks, decision.roles, options)
    decision.roles = post_date_lines(blocks, decision.roles, options)
    decision.roles = post_bylines(blocks, decision.roles, options)
    if options.comment_evidence:
        decision = comments_with_evidence(blocks, decision, unique, options, warnings)
    return SiteRoles(
        decision.roles,
        ids.idents,
        content,
        unique,
        ids.eligible,
        sep.post_ids,
        sep.metadata_ids,
        warnings,
        sep.main_id,
        decision.fallback,
        decision.method,
        decision.evidence,
        context.template_match,
    )


def comments_with_evidence(
    pages: Sequence[Sequence[Block]],
    decision: Decision,
    unique: Sequence[Sequence[bool]],
    options: Options,
    warnings: list[str],
) -> Decision:
    """Comment blocks stand only where the page shows comment evidence: a page alone finds its
    section by its own evidence and narrows its post (single_page.py); then the veto, comment
    blocks without a comment's shape, and, for a set that kept no comment, each page's own section."""
    if decision.method == SINGLE_PAGE:
        decision.roles = single_page_section(pages, decision.roles, warnings)
        if options.single_page_methods:
            decision.roles = [single_page_steps(b, r) for b, r in zip(pages, decision.roles, strict=True)]
    vetoed = veto_comments(pages, decision.roles)
    decision.roles, decision.evidence = vetoed.roles, vetoed.evidence
    decision.roles = shapeless_comments(pages, decision.roles, options)
    if decision.method == SET and options.comment_fallback:
        decision = every_page_has_comments(pages, decision, unique, warnings)
        if decision.method == FALLBACK:
            # the pages' own sections are new comment blocks: a reader's words the set's other
            # pages also show (step 4 dropped them) sit beside them as they did beside the set's
            decision.roles = comment_lines_shared(pages, decision.roles, options)
    return decision


def outputs(parsed: Sequence[ParsedPage], site: SiteRoles, options: Options, context: Context) -> list[PageExtraction]:
    """Every page's extraction once its pages are classified (``site`` covers the pages without
    error): comment records, then post and comment texts."""
    good = [p for p in parsed if p.error is None]
    records = context.comment_records([p.blocks for p in good], site.roles, site.fallback, options)
    out = []
    ok = 0
    for p in parsed:
        if p.error is not None:
            out.append(
                PageExtraction(
                    p.url, encoding=p.encoding, error=p.error, warnings=p.warnings, encoding_source=p.encoding_source
                )
            )
            continue
        page_records = records[ok] if records is not None else None
        result = page_output(p, site.roles[ok], site.idents[ok], site.warnings, page_records)
        result.template_match = site.template_match
        if options.post_date_line:
            result.published = published(p.blocks, site.roles[ok])
        if options.post_byline and (line := post_author(p.blocks, site.roles[ok])) is not None:
            result.post_author = line.author
            result.published = result.published or line.published
        if site.evidence is not None:
            result.method = site.method
            result.confidence = confidence(site.method, site.evidence[ok])
        if options.text_hygiene:
            clean_extraction(result)
        out.append(result)
        ok += 1
    return out


def page_output(
    page: ParsedPage,
    roles: list[str],
    idents: list[str],
    warnings: list[str],
    records: list[CommentRecord] | None = None,
) -> PageExtraction:
    blocks = page.blocks
    post_lines = []
    comments = []
    for b, role in zip(blocks, roles, strict=True):
        if role == POST:
            if text := b.text:
                post_lines.append(text)
        elif role == COMMENT and (text := b.text):
            comments.append(text)
    section = "\n".join(comments)
    if records is not None:
        comments = [r.text for r in records if r.text]
        section = (comment_section(page.blocks, roles, records) or "\n".join(comments)) if comments else ""
    return PageExtraction(
        page.url,
        post="\n".join(post_lines),
        comments=comments,
        comment_records=records or [],
        blocks=BlockResults(blocks, roles, idents),
        encoding=page.encoding,
        warnings=[*page.warnings, *warnings],
        encoding_source=page.encoding_source,
        comment_section=section,
    )


def comment_section(blocks: Sequence[Block], roles: Sequence[str], records: Sequence[CommentRecord]) -> str:
    """The text of every comment block and every block inside a comment record's unit (its author,
    date and reply lines too), each block once, in page order; post blocks never. Records without text
    (an author and a date alone) are no comments: a page whose records all lack text has no section."""
    if not any(r.text for r in records):
        return ""
    roots = {r.xpath for r in records if r.xpath and r.text}
    # every unit sits under the roots' common ancestor: most blocks fail this test at once
    ancestor = commonpath(roots) if roots else "\0"
    lines = []
    for block, role in zip(blocks, roles, strict=True):
        if not block.text or role == POST:
            continue
        if role == COMMENT or (block.xpath.startswith(ancestor) and _under(block.xpath, roots)):
            lines.append(block.text)
    return "\n".join(lines)


def _under(xpath: str, roots: set[str]) -> bool:
    """``xpath`` is one of ``roots`` or inside one."""
    while xpath:
        if xpath in roots:
            return True
        xpath = xpath.rpartition("/")[0]
    return False


__all__ = [
    "BOILERPLATE",
    "COMMENT",
    "DEFAULT_IDENTIFIER",
    "NO_COMMENTS",
    "PAGE_EVIDENCE",
    "POST",
    "BlockResult",
    "BlockResults",
    "Page",
    "PageExtraction",
    "ParsedPage",
    "classify",
    "extract_site",
    "read_page",
]


def clean_extraction(extraction: PageExtraction) -> None:
    """Text hygiene: the post, the comments and the comment records' texts and authors without
    invisible characters, NFC-normalised, in place (hygiene.clean_text)."""
    extraction.post = clean_text(extraction.post)
    extraction.comments = [clean_text(c) for c in extraction.comments]
    extraction.comment_section = clean_text(extraction.comment_section)
    for record in extraction.comment_records:
        record.text = clean_text(record.text)
        if record.author is not None:
            record.author = clean_text(record.author)
