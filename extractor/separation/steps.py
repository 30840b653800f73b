"""The method's steps, each a named function: ``method.classify`` calls them in the papers' order,
whether the other pages are a set's or a site profile stands in for them (context.py).

    near_duplicate_pages   steps 4-5   2009 §3.2.4-3.2.5, §4.2 (blocks found on one page only: context.py)
    drop_link_dense                    link density: a mostly-link block is navigation
    identifiers            step 6      2013 §3.5 (pages without the site's template left out)
    separation             step 7      2013 §3.6 (robust post identifiers: links of the main post
                                       identifier, per-page metadata)
    reextraction           step 8      2013 §4.6
    assign_roles                       post, comment or boilerplate (a page without the template is all post)
    no_comment_free_page               the comment fallback: comment feeds, identifiers of other sites, dated units
    apply_page_rules                   linked titles, post gaps, title echoes
    post_lines_shared                  lines a few posts share inside their post regions
    post_titles_shared                 a title two posts share
    comment_lines_shared               lines a few comments share inside their comment units
    post_date_lines                    a date alone between the post's title and body
    post_bylines                       a byline (date and author) between the post's title and body
    single_page_section, veto_comments comment evidence read from the page itself
    shapeless_comments                 comment blocks without a comment's shape (news boxes, boxes of story links)
    every_page_has_comments            each page's own comment markup, when the set kept none

docs/algorithm.md numbers these deviations from the papers (D1-D26) with their measured gains.
Each step that notes something for the user appends it to the set's ``warnings``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..comments.evidence import FALLBACK, Evidence, detect_section, role_indices, veto
from ..comments.fallback import Fallback, dated_comment_region, feed_comment_ids, identifier_region, named_section
from ..comments.postmeta import post_byline, post_date_line
from ..comments.shapes import drop_shapeless, drop_story_boxes
from ..core.blocks import Block
from ..core.matching import Grouping, Vector, near_duplicate_clusters
from ..core.options import Options
from ..core.roles import COMMENT, POST
from .identifiers import assign_identifiers, eligible_identifiers, once_identifiers, page_candidates, template_outliers
from .recurring import recurring_comment_lines, recurring_post_lines, shared_titles
from .robust import drop_link_blocks, page_rules, robust_post_identifiers
from .separate import post_identifiers_every_page, reextract, separate_roles

Pages = Sequence[Sequence[Block]]

ONE_PAGE_SET = "separation impossible: a set of one page has no other page to compare with"
ONE_PAGE_COMMENTS = "comments of a set of one page come from its own comment markup alone"
NO_COMMENTS = "no comments found in the set: if every page has comments they were taken as post"
PAGE_EVIDENCE = "comments found by each page's own comment markup (no comment-free page)"


# Steps 4-5: content blocks


@dataclass(slots=True)
class Content:
    """Per page, which blocks are content."""

    unique: list[list[bool]]  # step 4's verdict alone (blocks found on one page only)
    content: list[list[bool]]  # less the link-dense blocks


def near_duplicate_pages(
    pages: Pages, vectors: Sequence[Sequence[Vector]], grouped: Grouping, options: Options, warnings: list[str]
) -> list[int] | None:
    """Step 5 (with ``near_duplicate_pages``): the cluster of each page; pages whose rare text
    blocks mostly coincide share one."""
    if not options.near_duplicate_pages:
        return None
    text_chars = [[b.text_chars for b in blocks] for blocks in pages]
    clusters = near_duplicate_clusters(vectors, text_chars, options.near_duplicate_share, grouped)
    if len(set(clusters)) < len(clusters):
        warnings.append(f"near-duplicate pages grouped: {len(clusters) - len(set(clusters))}")
    return clusters


def drop_link_dense(pages: Pages, content: list[list[bool]], options: Options) -> list[list[bool]]:
    """Content blocks whose text is mostly anchor text are navigation (with ``max_link_density``)."""
    if options.max_link_density is None:
        return content
    return drop_link_blocks(pages, content, options.max_link_density)


# Step 6: identifiers


@dataclass(slots=True)
class Identifiers:
    """Per page, each block's own candidate identifiers and the identifier it takes."""

    cands: list[list[tuple[str, ...]]]
    idents: list[list[str]]
    eligible: set[str]
    outliers: set[int]  # pages without the site's template
    in_template: list[int]  # the other pages, in order


def identifiers(pages: Pages, options: Options, warnings: list[str]) -> Identifiers:
    """Step 6 (2013 §3.5): ids and classes found once on every page are eligible; each block takes
    its own, else its previous sibling's, else its parent's. Pages without the site's template are
    left out of eligibility."""
    mode = options.class_mode
    cands = [page_candidates(blocks, mode) for blocks in pages]
    once = [once_identifiers(blocks, mode, c) for blocks, c in zip(pages, cands, strict=True)]
    outliers = template_outlier_pages(pages, once, options, warnings)
    keep = [p for p in range(len(pages)) if p not in outliers]
    eligible = eligible_identifiers([pages[p] for p in keep], mode, [once[p] for p in keep]) if len(keep) > 1 else set()
    idents = [assign_identifiers(blocks, eligible, mode, c) for blocks, c in zip(pages, cands, strict=True)]
    return Identifiers(cands, idents, eligible, outliers, keep)


def template_outlier_pages(
    pages: Pages, once: Sequence[frozenset[str]], options: Options, warnings: list[str]
) -> set[int]:
    """Pages that do not share the site's template (with ``skip_template_outliers``)."""
    if not options.skip_template_outliers:
        return set()
    outliers = template_outliers(pages, options.class_mode, once)
    if outliers:
        warnings.append(f"{len(outliers)} page(s) do not share the site's template; their content is taken as post")
    return outliers


# Step 7: separation


@dataclass(slots=True)
class Separated:
    """Which identifiers carry the post, and the content that separation leaves."""

    content: list[list[bool]]
    post_ids: set[str]
    metadata_ids: set[str] = field(default_factory=set)
    main_id: str | None = None  # the post identifier with the most text


def separation(pages: Pages, found: Content, ids: Identifiers, options: Options, warnings: list[str]) -> Separated:
    """Step 7 (2013 §3.6): identifiers carrying content on every page are the post's. With ``robust_post_identifiers``
    (``robust_post_identifiers``) the comment-free pages decide instead (robust.py), over the pages
    that share the template; the main post identifier keeps its links and per-page metadata
    identifiers are boilerplate."""
    if not options.robust_post_identifiers:
        return Separated(found.content, post_identifiers_every_page(found.content, ids.idents))
    keep = ids.in_template
    sep = robust_post_identifiers(
        [pages[p] for p in keep],
        [found.content[p] for p in keep],
        [ids.idents[p] for p in keep],
        options.date_lines,
        options.other_template_posts,
    )
    warnings.extend(sep.notes)
    content = keep_post_links(found.content, found.unique, ids.idents, sep.main)
    content = drop_metadata(content, ids.idents, sep.metadata_ids)
    return Separated(content, sep.post_ids, sep.metadata_ids, sep.main)


def keep_post_links(
    content: list[list[bool]], unique: Sequence[Sequence[bool]], idents: Sequence[Sequence[str]], main: str | None
) -> list[list[bool]]:
    """A link inside the post body ("via example.com", a linked title) is the author's text:
    unique blocks of the main post identifier are content, link-dense or not."""
    if main is None:
        return content
    return [
        [flag or (u and ident == main) for flag, u, ident in zip(flags, us, ids, strict=True)]
        for flags, us, ids in zip(content, unique, idents, strict=True)
    ]


def drop_metadata(
    content: list[list[bool]], idents: Sequence[Sequence[str]], metadata_ids: set[str]
) -> list[list[bool]]:
    """Blocks of per-page metadata identifiers (a date, a category line) are boilerplate."""
    if not metadata_ids:
        return content
    return [
        [flag and ident not in metadata_ids for flag, ident in zip(flags, ids, strict=True)]
        for flags, ids in zip(content, idents, strict=True)
    ]


# Step 8 and roles


def reextraction(pages: Pages, content: list[list[bool]], ids: Identifiers, options: Options) -> list[list[bool]]:
    """Step 8 (2013 §4.6, with ``reextract``), after separation so that blocks pulled back into
    content cannot change which identifiers count as the post's."""
    if not options.reextract:
        return content
    owned = [[any(c in ids.eligible for c in own) for own in page] for page in ids.cands]
    return reextract(pages, content, ids.idents, options.reextract_own_identifier_only, owned)


def assign_roles(content: Sequence[Sequence[bool]], ids: Identifiers, post_ids: set[str]) -> list[list[str]]:
    """Every block's role (2013 §3.6); the content of a page without the site's template is post."""
    roles = separate_roles(content, ids.idents, post_ids)
    for p in ids.outliers:
        roles[p] = [POST if role == COMMENT else role for role in roles[p]]
    return roles


@dataclass(slots=True)
class Decision:
    """A set's roles and how they were decided (evidence.py's methods)."""

    roles: list[list[str]]
    method: str
    fallback: Fallback | None = None  # how comments were found without a comment-free page
    evidence: list[Evidence | None] | None = None  # per page, with the comment_evidence option


# No comment-free page


@dataclass(slots=True)
class Region:
    """Roles with a comment region marked by the identifiers ``ids``."""

    roles: list[list[str]]
    ids: frozenset[str]


def no_comment_free_page(
    pages: Pages,
    decision: Decision,
    ids: Identifiers,
    options: Options,
    known: frozenset[str],
    feeds: Sequence[Sequence[str]],
    warnings: list[str],
) -> Decision:
    """With ``comment_fallback``: comments taken as post because no page is comment-free, found by
    the comment feeds, identifiers learned on other sites (only when no page shows comments), or
    repeated dated units (fallback.py)."""
    roles = decision.roles
    none_found = not any(COMMENT in r for r in roles)
    if options.comment_fallback:
        why = "no comment-free page" if none_found else "pages whose feed lists comments showed none"
        region = feed_comment_region(pages, roles, ids.idents, ids.cands, feeds)
        source = "comment feeds"
        if region is None and none_found:
            learned = identifier_region(ids.idents, roles, known, pages, ids.cands)
            region = Region(learned, known) if learned is not None else None
            source = "identifiers learned on other sites"
        if region is not None:
            warnings.append(f"comments found by {source} ({why})")
            return Decision(region.roles, FALLBACK, Fallback(known_ids=region.ids))
        dated = dated_comment_region(pages, roles)
        if dated is not None and dated[0] != roles:
            warnings.append("comments found as repeated dated units in the post (no comment-free page)")
            return Decision(dated[0], FALLBACK, Fallback(unit=dated[1]))
    if none_found:
        warnings.append(NO_COMMENTS)
    return decision


def feed_comment_region(
    pages: Pages,
    roles: list[list[str]],
    idents: Sequence[Sequence[str]],
    cands: Sequence[Sequence[tuple[str, ...]]],
    feeds: Sequence[Sequence[str]],
) -> Region | None:
    """Where a page's comment feed lists comments and the page shows none, the identifier
    holding the feed's words holds the comments (None: no such page, or no such identifier)."""
    if not any(texts and COMMENT not in r for texts, r in zip(feeds, roles, strict=True)):
        return None
    found_ids = feed_comment_ids(pages, roles, idents, feeds)
    found = identifier_region(idents, roles, found_ids, pages, cands)
    return Region(found, found_ids) if found is not None else None


def apply_page_rules(
    pages: Pages,
    roles: list[list[str]],
    idents: Sequence[Sequence[str]],
    unique: Sequence[Sequence[bool]],
    options: Options,
) -> list[list[str]]:
    """Linked titles, post gaps and title echoes on each page (robust.page_rules)."""
    return [page_rules(b, r, i, u, options) for b, r, i, u in zip(pages, roles, idents, unique, strict=True)]


def post_lines_shared(
    pages: Pages, roles: list[list[str]], idents: Sequence[Sequence[str]], main_id: str | None, options: Options
) -> list[list[str]]:
    """With ``recurring_post_lines``: prose lines a few posts share, each inside its post region,
    are post (recurring.py)."""
    if not options.recurring_post_lines:
        return roles
    return recurring_post_lines(pages, roles, idents, main_id)


def comment_lines_shared(pages: Pages, roles: list[list[str]], options: Options) -> list[list[str]]:
    """With ``recurring_comment_lines``: a reader's line a few comments share, each inside a
    comment's unit, is comment (recurring.py)."""
    if not options.recurring_comment_lines:
        return roles
    return recurring_comment_lines(pages, roles)


def post_titles_shared(pages: Pages, roles: list[list[str]], options: Options) -> list[list[str]]:
    """With ``shared_titles``: a title two posts share is each post's (recurring.py)."""
    if not options.shared_titles:
        return roles
    return shared_titles(pages, roles)


def post_date_lines(pages: Pages, roles: list[list[str]], options: Options) -> list[list[str]]:
    """With ``post_date_line``: a date alone between the post's title and body is the post's
    metadata (postmeta.py)."""
    if not options.post_date_line:
        return roles
    return [post_date_line(blocks, r) for blocks, r in zip(pages, roles, strict=True)]


def post_bylines(pages: Pages, roles: list[list[str]], options: Options) -> list[list[str]]:
    """With ``post_byline`` and ``date_lines``: a byline between the post's title and body is the
    post's metadata, not its text (postmeta.py); ``post_byline`` alone reads it (method.outputs)."""
    if not (options.post_byline and options.date_lines):
        return roles
    return [post_byline(blocks, r) for blocks, r in zip(pages, roles, strict=True)]


# Comment evidence


def single_page_section(pages: Pages, roles: list[list[str]], warnings: list[str]) -> list[list[str]]:
    """For a set of one page: its comment section is found by its own evidence
    (evidence.detect_section)."""
    found = [detect_section(blocks, r) for blocks, r in zip(pages, roles, strict=True)]
    if found == roles:
        return roles
    warnings.append(ONE_PAGE_COMMENTS)
    return found


@dataclass(slots=True)
class Vetoed:
    roles: list[list[str]]
    evidence: list[Evidence | None]  # per page; None without comment blocks


def veto_comments(pages: Pages, roles: Sequence[list[str]]) -> Vetoed:
    """Comment blocks stand only where the page shows comment evidence (evidence.veto)."""
    vetoed = [veto(blocks, r) for blocks, r in zip(pages, roles, strict=True)]
    return Vetoed([r for r, _ in vetoed], [ev for _, ev in vetoed])


def shapeless_comments(pages: Pages, roles: Sequence[list[str]], options: Options) -> list[list[str]]:
    """With ``comment_shape``: comment blocks that are only a count, a duration, a number or a
    dated story title, with no comment body around them, are boilerplate; with ``story_boxes`` also
    boxes of other stories (shapes.py)."""
    if not options.comment_shape:
        return list(roles)
    out = [drop_shapeless(blocks, r) for blocks, r in zip(pages, roles, strict=True)]
    if options.story_boxes:
        out = [drop_story_boxes(blocks, r) for blocks, r in zip(pages, out, strict=True)]
    return out


def every_page_has_comments(
    pages: Pages, decision: Decision, unique: Sequence[Sequence[bool]], warnings: list[str]
) -> Decision:
    """A set that kept no comment (none proposed, or none with evidence): where
    every page has comments and no unit repeats across the set (one comment per page, undated
    lists), each page's own comment section, two signals as for a page alone."""
    if has_comment_text(pages, decision.roles):
        return decision
    found = [named_section(blocks, r, u) for blocks, r, u in zip(pages, decision.roles, unique, strict=True)]
    if found == decision.roles:
        return decision
    warnings[:] = [w for w in warnings if w != NO_COMMENTS] + [PAGE_EVIDENCE]
    return Decision(found, FALLBACK, Fallback(page_evidence=True), [None] * len(found))


def has_comment_text(pages: Pages, roles: Sequence[Sequence[str]]) -> bool:
    """Whether any page keeps a comment block with text (most pages of most sets hold none)."""
    return any(
        COMMENT in r and any(blocks[i].text for i in role_indices(r, COMMENT))
        for blocks, r in zip(pages, roles, strict=True)
    )
