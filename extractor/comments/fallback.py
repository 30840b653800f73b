"""When no page of a set is comment-free: find the comments anyway (2013 §4.7).

    >>> from extractor.comments.fallback import known_comment_region
    >>> known_comment_region([["#post", "#comments"]], [["post", "post"]], {"#comments"})
    [['post', 'comment']]

The 2013 method takes every identifier that carries content on every page as the post, so when
every page of a set has comments (common in archived page sets) the comments become post. Three
pieces of evidence that do not need a comment-free page, tried in this order:

1. **The site's comment feeds**: an identifier whose post text is mostly the words of the
   comments the article's feed (``wfw:commentRss``) lists holds the comments.
2. **Identifiers learned on other sites** (the paper's §4.7 proposal): an identifier that held
   only comments on sites where separation worked (``#comments``, ``.commentlist``) marks the
   comment region here too.
3. **Repeated dated units**: after the main text, a run of sibling blocks with the same tag and
   class, each carrying a date (a ``<time datetime>`` or a printed date) and text, on most pages of
   the set. Lists in a post rarely date every item; comment lists do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.blocks import Block
from ..core.roles import BOILERPLATE, COMMENT, POST
from ..core.tokens import tokenize
from .evidence import VOCABULARY, comment_evidence, vocabulary_names
from .units import (
    SIGNATURE_TOKEN_SHARE,
    DateLines,
    UnitSignature,
    class_tokens,
    pair_tags,
    share_holds,
    subtree_sums,
    text_flags,
)

# Share of a candidate's units that must carry a date, and of pages that must show a repeated
# dated list of one kind (pages with a single comment cannot show repetition, so this is low).
DATED_SHARE = 0.6
VOTE_SHARE = 0.25
# A post block is in the feed when this share of its tokens occur in its page's feed comments; an
# identifier holds the comments when this share of its post tokens (and this many) are in the feed.
FEED_BLOCK_SHARE = 0.8
FEED_IDENTIFIER_SHARE = 0.6
FEED_MIN_TOKENS = 20


def known_comment_region(
    idents: Sequence[Sequence[str]],
    roles: Sequence[Sequence[str]],
    known: set[str],
    pages: Sequence[Sequence[Block]] | None = None,
    cands: Sequence[Sequence[tuple[str, ...]]] | None = None,
) -> list[list[str]]:
    """Post blocks whose identifier held comments on other sites become comments.

    With ``pages`` and their blocks' own identifiers (``cands``), so do post blocks inside an element
    that carries such an identifier itself: the ``div#comments`` that held another site's comments
    wraps a list with an identifier of its own here (the innermost eligible identifier differs from
    site to site, the region's name much less).
    """
    out = []
    for p, (ids, page) in enumerate(zip(idents, roles, strict=True)):
        inside = [False] * len(page)
        if pages is not None and cands is not None:
            for b in pages[p]:
                inside[b.index] = (b.parent >= 0 and inside[b.parent]) or any(c in known for c in cands[p][b.index])
        out.append(
            [
                COMMENT if role == POST and (ident in known or flag) else role
                for ident, role, flag in zip(ids, page, inside, strict=True)
            ]
        )
    return out


def feed_comment_ids(
    pages: Sequence[Sequence[Block]],
    roles: Sequence[Sequence[str]],
    idents: Sequence[Sequence[str]],
    comment_texts: Sequence[Sequence[str]],
) -> frozenset[str]:
    """Identifiers whose post text is mostly the comments the pages' comment feeds list.

    ``comment_texts`` holds, per page, the texts of its feed's comments (empty where no feed was
    read; a feed lists only the newest comments, so a share of the identifier's text suffices).
    """
    in_feed: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for blocks, page_roles, ids, texts in zip(pages, roles, idents, comment_texts, strict=True):
        if not texts:
            continue
        bag = set(tokenize("\n".join(texts)))
        for b in blocks:
            if page_roles[b.index] != POST or not b.text:
                continue
            tokens = tokenize(b.text)
            total[ids[b.index]] += len(tokens)
            if tokens and sum(1 for t in tokens if t in bag) >= FEED_BLOCK_SHARE * len(tokens):
                in_feed[ids[b.index]] += len(tokens)
    return frozenset(
        ident for ident, n in in_feed.items() if n >= FEED_MIN_TOKENS and n >= FEED_IDENTIFIER_SHARE * total[ident]
    )


def identifier_region(
    idents: Sequence[Sequence[str]],
    roles: Sequence[Sequence[str]],
    ids: frozenset[str],
    pages: Sequence[Sequence[Block]],
    cands: Sequence[Sequence[tuple[str, ...]]],
) -> list[list[str]] | None:
    """``known_comment_region`` for ``ids`` (from the feeds or from other sites), or None when it
    marks nothing or leaves a page that had post blocks without any (comments never replace a
    whole article: an identifier holding the post on this site is not the comments')."""
    if not ids:
        return None
    found = known_comment_region(idents, roles, set(ids), pages, cands)
    if found == roles or not all(POST in after for before, after in zip(roles, found, strict=True) if POST in before):
        return None
    return found


def _dated_units(
    blocks: Sequence[Block], roles: Sequence[str], tag: str | None = None
) -> list[tuple[UnitSignature, list[int]]]:
    """Candidate comment lists of one page: sibling blocks of one tag (``tag`` only, when given),
    most of them dated.

    Single members are returned too: a page with one comment cannot show repetition, but its unit
    still counts once the other pages voted for its kind.
    """
    text = subtree_sums(text_flags(blocks, roles, not_role=BOILERPLATE), blocks)
    # comments follow the post, in a list of their own: units come after the post's first text
    # (its title, usually), and their list does not hold that first text
    start = next((b.index for b in blocks if roles[b.index] == POST and b.text), 0)
    holds_start = set()
    node_up = start
    while node_up >= 0:
        holds_start.add(node_up)
        node_up = blocks[node_up].parent
    # siblings of one tag under one parent, in the order of parents, then of each tag's first member
    grouped: dict[tuple[int, str], list[int]] = {}
    for b in blocks[start + 1 :]:
        if text[b.index] and b.parent not in holds_start and (tag is None or b.tag == tag):
            grouped.setdefault((b.parent, b.tag), []).append(b.index)
    if not grouped:
        return []
    # only the groups' subtrees are read, and a group only until its verdict is known: the rest of
    # the page (a header's and menu's many short lines) needs no date test
    lines = DateLines(blocks)
    out = []
    for (_, group_tag), members in sorted(grouped.items(), key=lambda item: item[0][0]):
        if share_holds(members, lines.holds, DATED_SHARE):
            if len(members) == 1:  # (most groups: a lone date line) its tokens are all shared
                out.append((UnitSignature(group_tag, class_tokens(blocks[members[0]])), members))
                continue
            counts = Counter(t for k in members for t in class_tokens(blocks[k]))
            shared = frozenset(t for t, n in counts.items() if n >= SIGNATURE_TOKEN_SHARE * len(members))
            if counts and not shared:
                continue  # classed siblings of unlike kinds (a date line beside a comment area)
            out.append((UnitSignature(group_tag, shared), members))
    return out


def _vote(units: Sequence[Sequence[tuple[UnitSignature, list[int]]]]) -> tuple[UnitSignature | None, int]:
    """The unit kind most pages show repeated: a tag and one class token, and its page count.

    Pages vote per (tag, class token), not per whole signature: WordPress alternates "odd alt" and
    "even" between comments, so the token set of one page's units can differ from the next page's
    while "comment" is shared by all. Ties go to the kind with more units, then to the kind more units
    carry (lone ones too), then to the earlier one in document order (sorted tokens: the same result
    whatever the string hash seed).
    """
    votes: Counter[tuple[str, str | None]] = Counter()
    sizes: Counter[tuple[str, str | None]] = Counter()
    # units carrying the kind, lone ones too: two replies by the post's author share "bypostauthor"
    # as much as "comment", which the lone comment they answer carries too
    reach: Counter[tuple[str, str | None]] = Counter()
    for page_units in units:
        seen: dict[tuple[str, str | None], int] = {}
        for sig, members in page_units:
            reach.update({(sig.tag, t): len(members) for t in sig.tokens})
            if len(members) < 2:
                continue
            keys: list[tuple[str, str | None]] = [(sig.tag, t) for t in sorted(sig.tokens)]
            for key in keys or [(sig.tag, None)]:
                seen[key] = seen.get(key, 0) + len(members)
        votes.update(seen.keys())
        sizes.update(seen)
    if not votes:
        return None, 0
    tag, token = max(votes, key=lambda k: (votes[k], sizes[k], reach[k]))
    return UnitSignature(tag, frozenset() if token is None else frozenset([token])), votes[(tag, token)]


@dataclass(frozen=True, slots=True)
class Fallback:
    """Which fallback a set used, for a site profile to apply to the site's later pages."""

    known_ids: frozenset[str] = frozenset()  # identifiers learned on other sites
    unit: UnitSignature | None = None  # the repeated dated unit's kind
    # the page's own comment evidence (named_section): no unit repeated across the set
    page_evidence: bool = False

    def apply(
        self,
        blocks: Sequence[Block],
        idents: Sequence[str],
        roles: list[str],
        cands: Sequence[tuple[str, ...]],
        unique: Sequence[bool] | None = None,
    ) -> list[str]:
        """The same change on one page of the site (``cands``: its blocks' own identifiers;
        ``unique``: those the profile matched to no boilerplate)."""
        if self.known_ids:
            roles = known_comment_region([idents], [roles], set(self.known_ids), [blocks], [cands])[0]
        if self.unit is not None:
            # mark_units reads only the units of the learned kind's tag
            roles = mark_units(blocks, roles, _dated_units(blocks, roles, self.unit.tag), self.unit)
        if self.page_evidence:
            roles = named_section(blocks, roles, unique)
        return roles


def named_section(blocks: Sequence[Block], roles: list[str], unique: Sequence[bool] | None = None) -> list[str]:
    """Where a set (or its profile) kept no comment: the single-page detector
    (``evidence.detect_section``), blocks that carry two signals, one of them the vocabulary, are
    comments; ``unique`` (the set's step 4 verdict) adds the blocks unique to the page that the set
    called boilerplate (a comment's text under its date line's identifier, which the robust post identifiers took for
    per-page metadata). A page whose candidate text blocks no vocabulary names is not read further
    (most pages of comment-free sets)."""
    candidate = [
        role == POST or (unique is not None and role == BOILERPLATE and unique[i]) for i, role in enumerate(roles)
    ]
    if not vocabulary_names(blocks, (i for i, b in enumerate(blocks) if candidate[i] and b.text)):
        return roles
    flags = comment_evidence(blocks).flags
    return [
        COMMENT if candidate[i] and flags[i] & VOCABULARY and bin(flags[i]).count("1") >= 2 else role
        for i, role in enumerate(roles)
    ]


def dated_comment_region(
    pages: Sequence[Sequence[Block]], roles: Sequence[Sequence[str]]
) -> tuple[list[list[str]], UnitSignature] | None:
    """Post blocks inside repeated dated units (on most pages) become comments; None if no such units.

    Returns the new roles and the unit kind the pages voted for.
    """
    units = [_dated_units(blocks, page_roles) for blocks, page_roles in zip(pages, roles, strict=True)]
    signature, _ = _vote(units)
    if signature is None:
        return None
    # support: pages showing the kind at all, a single dated unit too (a page with one comment
    # and its reply cannot show repetition, and comment-free pages cannot vote)
    support = sum(
        1
        for page_units in units
        if any(sig.tag == signature.tag and signature.tokens <= sig.tokens for sig, _ in page_units)
    )
    if support < VOTE_SHARE * len(pages):
        return None
    marked = [
        mark_units(blocks, page_roles, page_units, signature)
        for blocks, page_roles, page_units in zip(pages, roles, units, strict=True)
    ]
    return marked, signature


def mark_units(
    blocks: Sequence[Block],
    roles: Sequence[str],
    page_units: Sequence[tuple[UnitSignature, list[int]]],
    signature: UnitSignature,
) -> list[str]:
    """One page: post blocks inside the dated units of the voted kind become comments."""
    inside = [False] * len(blocks)
    heads: set[int] = set()
    for sig, members in page_units:
        if sig.tag == signature.tag and sum(signature.matches(blocks[k]) for k in members) * 2 >= len(members):
            heads.update(members)
    if not heads:
        return list(roles)
    pair = pair_tags(blocks, heads)
    for b in blocks:  # preorder: a parent is settled before its children
        i, parent = b.index, b.parent
        if (
            i in heads
            or (parent >= 0 and inside[parent])
            # the <dd> that follows each dated <dt> belongs to it
            or (b.prev_sibling in heads and pair.get(parent) == b.tag)
        ):
            inside[i] = True
    return [COMMENT if role == POST and inside[b.index] else role for b, role in zip(blocks, roles, strict=True)]
