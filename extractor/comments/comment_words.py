"""What the words of a page say about comments: the vocabulary of comment regions in ids, classes
and labels, comment-section headings, and the author lines that sign a comment.

    >>> vocabulary_token("commentlist"), vocabulary_token("comment-count")
    (True, False)

evidence.py reads where on a page these occur (the page's structure); this module reads only one
attribute value or one line of text at a time.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..core.blocks import HEADINGS, Block

# Id/class tokens naming a comment section or a comment. Tokens that count or link to comments
# from a post's byline ("comment-count", "comments-link") or report whether comments are open
# name no region of comments.
_VOCAB = re.compile(
    r"comment|kommentar|commentaire|comentario|коммент|reply|replies|respond|responses|discussion|disqus"
    r"|talkback|コメント|评论|評論|留言|댓글",
    re.I,
)
_NOT_REGION = re.compile(r"count|link|num|open|closed|icon|button|btn|share|rss|feed|policy|form|tool", re.I)
# A comment section's heading: "Comments", "3 Responses to “Title”", "Leave a Reply", "Discussion".
_HEADING = re.compile(
    r"^\W*(?:\d+\s+)?(?:comments?|responses?|replies|reader comments|discussion|leave a (?:reply|comment)"
    r"|(?:\d+\s+)?thoughts? on|what (?:people|readers) (?:are saying|say|think)|join the discussion"
    r"|コメント|评论|댓글|kommentare?|commentaires?|comentarios?)\b",
    re.I,
)
HEADING_MAX_CHARS = 120
# A comment section saying it holds none: "No comments yet", "Comments are closed".
_NOTICE = re.compile(
    r"^\W*(?:no (?:comments?|responses?|replies)(?: yet)?|be the first to (?:comment|reply)"
    r"|comments? (?:are|is) closed|コメントはまだありません)\W*$",
    re.I,
)
# An author line: "Ann says:", "Ann wrote:", "by Ann", "Posted by Ann" (short, a name-like start).
_AUTHOR = re.compile(r"(?:^(?:posted\s+)?by\s+\S)|(?:\S\s*(?:says|said|wrote|writes)\s*:?\s*$)", re.I)
AUTHOR_MAX_CHARS = 60
# The forms that sign a reader's comment (not a post's "by Name" byline), and a reply link.
_SAYS = re.compile(r"\S\s*(?:says|said|wrote|writes)\s*:?\s*$", re.I)
_REPLY = re.compile(r"^\W*(?:reply|respond|antworten|répondre|responder|rispondi|返信|回复|답글)\W*$", re.I)


@lru_cache(maxsize=8192)
def vocabulary_token(value: str | None) -> bool:
    """Whether an id or class attribute names a comment region: ``vocabulary_token("commentlist")``."""
    if not value:
        return False
    return any(_VOCAB.search(t) and not _NOT_REGION.search(t) for t in value.split())


# In aria-label, itemtype and itemprop values: what a region is, said by the page for screen readers
# and search engines ("Comments", schema.org's Comment / UserComments, itemprop="comment"); values
# that count or link comments (itemprop="commentCount", "discussionUrl") or open a form name none.
_LABEL_NOT_REGION = re.compile(r"count|url|link|num|icon|button|share|form", re.I)


@lru_cache(maxsize=4096)
def label_names_comments(value: str | None) -> bool:
    """Whether a block's ``element_label`` names a comment region:
    ``label_names_comments("http://schema.org/UserComments")``."""
    if not value:
        return False
    return _VOCAB.search(value) is not None and _LABEL_NOT_REGION.search(value) is None


def comment_heading(block: Block) -> bool:
    """A short heading-like line that opens a comment section ("12 Comments", "Leave a Reply")."""
    text = block.text
    if not text or len(text) > HEADING_MAX_CHARS or "\n" in text or block.link_density > 0.5:
        return False
    return (block.tag in HEADINGS or len(text) <= 40) and _HEADING.search(text) is not None


def comment_notice(text: str) -> bool:
    """A comment section's notice that it holds no comment: ``comment_notice("No comments yet")``."""
    return 0 < len(text) <= HEADING_MAX_CHARS and _NOTICE.match(text) is not None


def author_line(text: str) -> bool:
    return 0 < len(text) <= AUTHOR_MAX_CHARS and "\n" not in text and _AUTHOR.search(text) is not None


def labelled_name(text: str) -> bool:
    """A name and a label ending in a colon ("Ann says:", "高橋 より:"): an author line, even when one
    commenter wrote every comment of the set (the same line under each is no chrome then)."""
    words = text.split()
    return 2 <= len(words) <= 6 and "\n" not in text and words[-1].endswith((":", "："))


def signed_line(text: str) -> bool:
    """A line that signs a reader's comment ("Ann says:") or a reply link."""
    return 0 < len(text) <= AUTHOR_MAX_CHARS and (_SAYS.search(text) is not None or _REPLY.match(text) is not None)
