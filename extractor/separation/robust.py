"""Deviations from the papers that the default options turn on (measured in docs/algorithm.md).

>>> from extractor.separation.robust import IdentifierStats
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..comments.comment_words import vocabulary_token
from ..core.blocks import HEADINGS, Block
from ..core.dates import parse_date
from ..core.options import Options
from ..core.roles import BOILERPLATE, COMMENT, POST
from .separate import post_identifiers_every_page

# Thresholds of the robust post identifiers (see docs/algorithm.md): an identifier on at least this share of pages is a
# candidate post part; a "metadata" identifier carries one short block per page.
MAJORITY = 0.5
METADATA_MAX_CHARS = 200


def drop_link_blocks(
    pages: Sequence[Sequence[Block]], content: list[list[bool]], max_density: float
) -> list[list[bool]]:
    """Content blocks whose text is mostly anchor text are navigation, not content."""
    return [
        [flag and b.link_density <= max_density for flag, b in zip(flags, blocks, strict=True)]
        for flags, blocks in zip(content, pages, strict=True)
    ]


@dataclass(slots=True)
class IdentifierStats:
    """Where one identifier carries content across the set."""

    pages: set[int] = field(default_factory=set)
    shown: set[int] = field(default_factory=set)  # pages where it labels any text, content or not
    max_shown: int = 0  # most non-link text blocks it labels on one page, content or not
    max_blocks: int = 0  # most content blocks on one page
    max_chars: int = 0  # longest content block
    chars: int = 0
    first: dict[int, int] = field(default_factory=dict)  # page -> first content block index
    last: dict[int, int] = field(default_factory=dict)  # page -> last content block index
    dated: set[int] = field(default_factory=set)  # pages where a short content block of it is a date line
    headings: int = 0  # content blocks that are headings


def identifier_stats(
    pages: Sequence[Sequence[Block]],
    content: Sequence[Sequence[bool]],
    idents: Sequence[Sequence[str]],
    dates: bool = False,
) -> dict[str, IdentifierStats]:
    """Per identifier, where it carries content; ``dates`` also notes date lines (for ``date_lines``)."""
    stats: dict[str, IdentifierStats] = {}
    for p, (blocks, flags, ids) in enumerate(zip(pages, content, idents, strict=True)):
        per_page: dict[str, int] = {}
        shown: dict[str, int] = {}
        for b, flag, ident in zip(blocks, flags, ids, strict=True):
            if not b.text:
                continue
            s = stats.get(ident)
            if s is None:
                s = stats[ident] = IdentifierStats()
            s.shown.add(p)
            if b.link_density <= 0.5:  # links (related posts, tag clouds) are not what it says
                shown[ident] = shown.get(ident, 0) + 1
            if not flag:
                continue
            s.pages.add(p)
            per_page[ident] = per_page.get(ident, 0) + 1
            s.max_chars = max(s.max_chars, b.text_chars)
            s.chars += b.text_chars
            s.first.setdefault(p, b.index)
            s.last[p] = b.index
            if b.tag in HEADINGS:
                s.headings += 1
            elif dates and b.text_chars <= METADATA_MAX_CHARS and parse_date(b.text) is not None:
                s.dated.add(p)
        for ident, n in per_page.items():
            stats[ident].max_blocks = max(stats[ident].max_blocks, n)
        for ident, n in shown.items():
            stats[ident].max_shown = max(stats[ident].max_shown, n)
    return stats


@dataclass(slots=True)
class Separation:
    post_ids: set[str]
    metadata_ids: set[str]
    notes: list[str]
    main: str | None = None  # the post identifier with the most text


def robust_post_identifiers(
    pages: Sequence[Sequence[Block]],
    content: Sequence[Sequence[bool]],
    idents: Sequence[Sequence[str]],
    date_lines: bool = False,
    other_templates: bool = False,
) -> Separation:
    """Post identifiers from majority and position, per-page metadata set apart.

    The paper's post identifiers carry content on every page (S0). Two failures follow from "every":
    a post container missed on one page (a video post with no text) sends the site's posts to
    comments, and per-page metadata that repeats on a few pages (a category line, a date shared by
    two posts) is missing there, so it lands in comments on comment-free pages. Here:

    * an identifier carrying exactly one short block on every page where it carries any, on at least
      half of the pages, is per-page metadata (date, category line, byline): boilerplate; one that
      has content on every page is metadata too when that block follows the post's body on most
      pages ("Posted in X, tagged Y"; a title is the same shape, but above the body);
    * any other identifier whose content, on most pages where it has some, starts before the end of
      the main post identifier's content (the S0 identifier with the most text) is part of the
      post: comments follow the post they comment on. Identifiers with content on a few pages only
      count too (a short post's text sitting in its container, a per-page heading above the body).

    With ``date_lines`` a one-short-block identifier with content on every page is metadata
    too when its block is a date line on most pages and never a heading (a post title is one short
    block per page as well). With ``other_templates``, the pages where the main post identifier
    carries nothing are a second template's: their own post identifiers (``other_template_posts``)
    are the post's too.
    """
    with_content = [p for p, flags in enumerate(content) if any(flags)]
    n = len(with_content)
    # "every page" over the pages that have content at all: an empty or failed page says nothing
    every = post_identifiers_every_page([content[p] for p in with_content], [idents[p] for p in with_content])
    stats = identifier_stats(pages, content, idents, date_lines)
    metadata: set[str] = set()
    notes: list[str] = []
    if n < 2:
        return Separation(set(every), metadata, notes)
    majority = {i for i, s in stats.items() if len(s.pages) >= MAJORITY * n}
    # per-page metadata: one short text block per page under its own identifier. A category line
    # repeated on two pages is boilerplate there, so count the pages where the identifier labels
    # any text; a comment area labels more (its heading, its form, its comments)
    for ident, s in stats.items():
        if not s.pages or len(s.shown) < MAJORITY * n or s.max_shown != 1 or s.max_chars > METADATA_MAX_CHARS:
            continue
        # on every page, a post title is one short block too: there only a date line is metadata
        if ident not in every or (date_lines and not s.headings and len(s.dated) * 2 > len(s.pages)):
            metadata.add(ident)
    # the main post identifier: the every-page one with the most text, else (one page's post
    # container held no text) the majority one with the most text
    every = every - metadata
    post = set(every)
    pool = every or (majority - metadata)
    main = max(pool, key=lambda i: stats[i].chars if i in stats else 0, default=None)
    if main is None or main not in stats:
        return Separation(post, metadata, notes)
    if main not in every:
        post.add(main)
        notes.append(f"no identifier carries content on every page; main post identifier {main}")
    end = stats[main].last
    # a one-short-line identifier on every page, after the post's body ("Posted in X, tagged Y"):
    # the post's footer line, not its text (a title is the same shape, but above the body)
    for ident in sorted(every - {main}):
        line = stats.get(ident)  # content without text (an image) has no stats
        if line is None or line.max_shown != 1 or line.max_chars > METADATA_MAX_CHARS or line.headings:
            continue
        after = sum(1 for p in line.pages if p in end and line.first[p] > end[p])
        if after * 2 > len(line.pages):
            metadata.add(ident)
            post.discard(ident)
    for ident in sorted(stats.keys() - every - metadata - {main}):
        s = stats[ident]
        before = sum(1 for p in s.pages if p in end and s.first[p] < end[p])
        if before * 2 > len(s.pages):
            post.add(ident)
            notes.append(f"identifier {ident} on {len(s.pages)}/{n} pages taken as post")
    if other_templates:
        for ident, pages_of in other_template_posts(pages, content, idents, date_lines, with_content, main, stats):
            if ident not in post and ident not in metadata:
                post.add(ident)
                notes.append(f"identifier {ident} carries the post on {pages_of}/{n} pages without {main}")
    return Separation(post, metadata, notes, main)


def other_template_posts(
    pages: Sequence[Sequence[Block]],
    content: Sequence[Sequence[bool]],
    idents: Sequence[Sequence[str]],
    date_lines: bool,
    with_content: Sequence[int],
    main: str,
    stats: dict[str, IdentifierStats],
) -> list[tuple[str, int]]:
    """A site with two article templates (a story page and a video or gallery page) puts its post
    in one container on some pages and in another on the others: the main post identifier carries
    nothing on the second kind, so their article went to the comments (or, without comment
    evidence, to boilerplate). Those pages' own post identifiers, found the same way over them
    alone, are the post's where they carry content mostly on those pages; an identifier that names
    a comment region is never one (a second template's pages may all have comments). Returns
    (identifier, pages it carries content on)."""
    main_pages = stats[main].pages
    others = [p for p in with_content if p not in main_pages]
    if len(others) < 2:  # a page alone without the container is an outlier, not a template
        return []
    sub = robust_post_identifiers(
        [pages[p] for p in others], [content[p] for p in others], [idents[p] for p in others], date_lines, True
    )
    found = []
    for ident in sorted(sub.post_ids):
        s = stats.get(ident)
        if s is None or vocabulary_token(ident.lstrip("#.")):
            continue
        if len(s.pages - main_pages) * 2 > len(s.pages):
            found.append((ident, len(s.pages)))
    return found


# How many text blocks before the post's first block a linked title may sit (byline, date line,
# category line come between).
TITLE_REACH = 6


def linked_title(blocks: Sequence[Block], roles: list[str], unique: Sequence[bool]) -> list[str]:
    """The post's title when it is a link (a permalink heading) becomes post again.

    The link-density filter drops link-dense blocks, and a title written as a link to the post itself is one. The title
    is the nearest heading before the post's first text block (within a few text blocks: byline and
    date lines come between) that occurs on this page only.
    """
    title = _title_before_post(blocks, roles)
    if title is None or not unique[title]:
        return roles
    out = list(roles)
    out[title] = POST
    return out


def _title_before_post(blocks: Sequence[Block], roles: Sequence[str]) -> int | None:
    """The heading among the boilerplate text blocks just before the post's first text block."""
    first = next((b.index for b in blocks if b.text and roles[b.index] == POST), 0)
    seen = 0
    for b in reversed(blocks[:first]):
        if not b.text:
            continue
        if roles[b.index] != BOILERPLATE or seen >= TITLE_REACH:
            return None
        if b.tag in HEADINGS:
            return b.index
        seen += 1
    return None


# The longest run of repeated blocks inside a post that ``post_gaps`` gives back to it, and the elements
# that such a run is made of (prose: not table cells, form parts or layout divs).
GAP_MAX_BLOCKS = 3
GAP_TAGS = HEADINGS | {"p", "li", "blockquote", "pre", "figcaption"}


def post_gaps(blocks: Sequence[Block], roles: list[str], idents: Sequence[str], max_density: float) -> list[str]:
    """Prose the post shares with other pages, sitting inside the post, is the post's.

    A sub-heading ("Conclusion"), a quote or a caption that another post of the site also has
    matches across pages and is boilerplate by the 2009 rule. A short run of such prose blocks whose
    neighbouring text blocks on both sides are post prose of the same identifier (the post's
    container) is a gap in the post, not a template part. Links stay out on both sides (a "related
    posts" heading above its list of links).
    """
    text = [b.index for b in blocks if b.text]
    out: list[str] | None = None
    k = 1
    while k < len(text) - 1:
        before = text[k - 1]
        if roles[text[k]] != BOILERPLATE or roles[before] != POST or blocks[before].link_density > max_density:
            k += 1
            continue
        end = k
        while end < len(text) and roles[text[end]] == BOILERPLATE and end - k < GAP_MAX_BLOCKS:
            end += 1
        run = text[k:end]
        after = text[end] if end < len(text) else -1
        if (
            after >= 0
            and roles[after] == POST
            and idents[after] == idents[before]
            and blocks[after].link_density <= max_density
            and all(_prose(blocks[i], max_density) and idents[i] == idents[before] for i in run)
        ):
            out = out if out is not None else list(roles)
            for i in run:
                out[i] = POST
        k = end
    return out if out is not None else roles


def _prose(block: Block, max_density: float) -> bool:
    return block.tag in GAP_TAGS and block.link_density <= max_density


# A title echo is a short line quoting a title of at least this many characters, with at most
# this many characters of its own ("Home / <title>", "3 responses to “<title>”").
ECHO_MIN_TITLE = 12
ECHO_MAX_EXTRA = 60


def title_echoes(blocks: Sequence[Block], roles: list[str]) -> list[str]:
    """Post lines that only quote the post's title (a breadcrumb, a comments heading) are not post,
    and neither are comment headings that do ("One Response to “Title”").

    The title is the first post block that is a heading. Another short post block, or a comment
    block that is a heading, holding the title's text plus a few words of its own repeats it; the
    title itself stays. (A reader's short comment quoting the title is not a heading.)
    """
    title = next((b for b in blocks if b.text and roles[b.index] == POST and b.tag in HEADINGS), None)
    if title is None or len(title.text) < ECHO_MIN_TITLE or "\n" in title.text:
        return roles
    out: list[str] | None = None
    heading, longest = title.text, len(title.text) + ECHO_MAX_EXTRA
    for b in blocks:
        role = roles[b.index]
        if role != POST and (role != COMMENT or b.tag not in HEADINGS):
            continue
        text = b.text
        if b is not title and heading in text and len(text) <= longest and text != heading:
            out = out if out is not None else list(roles)
            out[b.index] = BOILERPLATE
    return out if out is not None else roles


def page_rules(
    blocks: Sequence[Block], roles: list[str], idents: Sequence[str], unique: Sequence[bool], options: Options
) -> list[str]:
    """Linked titles, post gaps and title echoes on one page's roles, as the options ask (set and profile alike)."""
    if options.linked_titles:
        roles = linked_title(blocks, roles, unique)
    if options.post_gaps:
        density = options.max_link_density if options.max_link_density is not None else 1.0
        roles = post_gaps(blocks, roles, idents, density)
    if options.title_echoes:
        roles = title_echoes(blocks, roles)
    return roles
