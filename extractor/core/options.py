"""Extraction options: one frozen dataclass, each threshold tied to the paper section it comes from.

    >>> from extractor.core.options import PAPER, DEFAULT
    >>> PAPER.similarity_threshold
    0.9

``PAPER`` reproduces the published methods as written; ``DEFAULT`` is the best configuration
measured on the dev corpus (see docs/algorithm.md, "Deviations", for each option's measured gain).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

TagWeight = Literal["count", "binary", "sqrt"]
ClassMode = Literal["attribute", "tokens"]


@dataclass(frozen=True, slots=True)
class Options:
    # ExtractUniqueBlock 2009 §3.2.4: two blocks are "the same" when cosine similarity exceeds this.
    similarity_threshold: float = 0.9
    # §3.2.3 counts every tag occurrence; "binary"/"sqrt" damp tag counts so that markup-heavy
    # blocks (25 <span>, 25 <br>) do not swamp their text in the cosine.
    tag_weight: TagWeight = "count"
    # Weight of one tag feature relative to one text line or attribute value.
    tag_scale: float = 1.0
    # 2009 §4.2: the same article under two URLs cancels its own content; pages whose unique
    # blocks mostly coincide are treated as one page when matching.
    near_duplicate_pages: bool = False
    near_duplicate_share: float = 0.5
    # Post/comment 2013 §3.5: identifiers from id/class. "attribute" takes the whole class
    # attribute value as the paper does; "tokens" tries each class token.
    class_mode: ClassMode = "attribute"
    # 2013 §4.6: re-extract non-content blocks sharing (identifier, tag) with content.
    reextract: bool = True
    # Only re-extract when the identifier is the block's own, not inherited.
    reextract_own_identifier_only: bool = False
    # Gupta et al. link density: a content block whose text is mostly anchor text is navigation.
    # None disables the filter.
    max_link_density: float | None = None
    # 2013 §3.6 says post identifiers carry content on *every* page; robust post identifiers let the comment-free
    # pages decide instead (see separate.py).
    robust_post_identifiers: bool = False
    # 2013 §3.5 asks for identifiers on *every* page: one page without the site's template empties
    # the eligible set for all; skipping template outliers leaves such pages out of eligibility (and reports them).
    skip_template_outliers: bool = False
    # Beyond the papers: split comment blocks into individual comments (records.py).
    comment_records: bool = False
    # 2013 §4.7: when no page of a set is comment-free, look for the comment region by
    # identifiers learned on other sites and by repeated dated units (fallback.py).
    comment_fallback: bool = False
    # The link-density filter drops link-dense blocks, and a post title written as a link to the post is one: the
    # nearest page-unique heading before the post's first block is the post's again.
    linked_titles: bool = False
    # A short run of blocks found on other pages (a sub-heading, a quote) between two post blocks
    # of the same identifier is part of the post.
    post_gaps: bool = False
    # A byline or date line inside the post container is metadata, not post. Off by default:
    # the WordPress truth leaves such lines out of the post, Dragnet's gold keeps them.
    date_lines: bool = False
    # A short post line that only quotes the post's title ("Home / <title>", "3 responses to
    # “<title>”") repeats it and is not post.
    title_echoes: bool = False
    # A set that shows no repeated comment unit keeps, per page, only a lone comment with a dated
    # unit of its own; other loose comment blocks (a product box, a per-page link list) are not
    # comments, as a site profile that learned no comment layout already treats them. Off by
    # default: an undated lone comment ("First!") is lost with them.
    lone_comments: bool = False
    # A comment block stands only inside a region that the page itself shows to hold
    # comments (comment vocabulary, repeated dated units, author lines: evidence.py); "unique and
    # not post" alone is not a reader comment. Also labels each page with how it was decided.
    comment_evidence: bool = False
    # A comment block that is only a count, a duration, a number or a dated story title
    # ("Comments (14)", "2:52", "Storm hits coast (Nov 3, 2012)"), with no comment body around
    # it, is a news page's box, not a comment (shapes.py).
    comment_shape: bool = False
    # A box whose heading names other stories ("Popular Now", "Most Commented", "Related Stories")
    # holds no comments; nor does a comment block of links or dates alone (linked story titles,
    # their dates) with no line of prose in its comment unit (shapes.py).
    story_boxes: bool = False
    # A prose line of the main post container that recurs on a few other pages, and only
    # inside their post containers (a shared sub-heading, a closing line), is post.
    recurring_post_lines: bool = False
    # A line that is a date alone between the post's title and its body is the post's
    # metadata, not its text.
    post_date_line: bool = False
    # A byline between the post's title and its body, a date and an author after "By" or "投稿者"
    # ("Posted on November 15, 2026 By Olivia Stone"), gives the post's author and date
    # (``post_author``, ``published``); with ``date_lines`` it also leaves the post's text (off by
    # default: Dragnet's gold keeps bylines).
    post_byline: bool = False
    # In a set that shows no repeated comment unit, a page's lone comment with a dated
    # unit of its own is a record (author and date apart from its text); other pages keep their
    # comment blocks (``lone_comments`` drops them).
    lone_records: bool = False
    # A post title another post of the set also has (``linked_titles`` keeps only unique ones) is post,
    # unless it is a heading over most pages.
    shared_titles: bool = False
    # Soft hyphens and zero-width characters removed from posts and comments, text
    # NFC-normalised (hygiene.py), so a word printed with them is found by a search.
    text_hygiene: bool = False
    # Comments are stored as records or not at all: a set without repeated units takes
    # each page's lone dated unit, and comment blocks no unit holds make one record without their
    # headings, author lines and form labels (lone_records.py). Needs comment_records.
    records_only: bool = False
    # A set of one page narrows its post to the page's main region by the seeds'
    # single-page methods (single_page.py): a weight map with link density, then the boundary
    # between post and comments.
    single_page_methods: bool = False
    # A prose line inside a comment's unit that recurs on a few other pages, and only inside
    # their comment units (two readers wrote "Thanks for sharing."), is comment.
    recurring_comment_lines: bool = False
    # A site with two article templates: the pages where the main post identifier carries nothing
    # find their own post identifiers the same way (robust.other_template_posts).
    other_template_posts: bool = False

    def but(self, **changes: object) -> Options:
        """A copy with some fields changed: ``DEFAULT.but(reextract=False)``."""
        return replace(self, **changes)  # type: ignore[arg-type]


PAPER = Options()

DEFAULT = Options(
    tag_weight="binary",
    tag_scale=0.5,
    near_duplicate_pages=True,
    class_mode="tokens",
    reextract=False,
    max_link_density=0.5,
    robust_post_identifiers=True,
    skip_template_outliers=True,
    comment_records=True,
    comment_fallback=True,
    linked_titles=True,
    post_gaps=True,
    title_echoes=True,
    comment_evidence=True,
    comment_shape=True,
    story_boxes=True,
    recurring_post_lines=True,
    post_date_line=True,
    post_byline=True,
    lone_records=True,
    shared_titles=True,
    text_hygiene=True,
    records_only=True,
    single_page_methods=True,
    recurring_comment_lines=True,
    other_template_posts=True,
)

PRESETS: dict[str, Options] = {"paper": PAPER, "default": DEFAULT}
