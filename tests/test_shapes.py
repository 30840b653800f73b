"""D16 (issue 30, item 1): per-page boxes of news sites have no comment's shape (extractor/shapes.py).

Each kind of box is taken for comments on unseen news sites: it is unique to its page and sits where
comment vocabulary or a dated list vouches for it. A comment has a body; these boxes have a count,
a duration, a number or a dated story title.
"""

from __future__ import annotations

import pytest

from extractor import DEFAULT, Page, PageExtraction, extract_site
from extractor.blocks import parse_blocks
from extractor.roles import BOILERPLATE, COMMENT
from extractor.shapes import drop_shapeless, shapeless_line

BOXES = {
    "comment-count link": '<div class="comments-box"><a href="#comments">Comments (14)</a></div>',
    "comment count": '<div class="comment-stats"><span>203 comments</span></div>',
    "related stories with dates": (
        '<ul class="discussion-related"><li>Storm hits the coast (Nov 3, 2012)</li>'
        "<li>Mayor answers critics (Oct 30, 2012)</li><li>Bridge closed for repairs (Oct 28, 2012)</li></ul>"
    ),
    "video durations": (
        '<div class="comment-videos"><div class="clip"><span>2:52</span></div><div class="clip"><span>1:04:10</span>'
        "</div></div>"
    ),
    "reader recommendations": (
        '<div class="reader-comments-picks"><p>– A. Name 297 Recommendations</p><p>– B. Other 41 Recommendations</p>'
        "</div>"
    ),
    "popular now numbers": '<ol class="comments-popular"><li><span>1</span></li><li><span>2</span></li></ol>',
}


@pytest.mark.parametrize("line", ["Comments (14)", "203 comments", "2:52", "1:04:10", "297", "#3", "12 likes"])
def test_counts_durations_and_numbers_are_shapeless(line: str) -> None:
    assert shapeless_line(line)


@pytest.mark.parametrize(
    "line",
    ["Great post, thanks for sharing!", "Ann says:", "First!", "I met him on Nov 3, 2012 (a Saturday) in Paris."],
)
def test_comment_lines_are_not_shapeless(line: str) -> None:
    assert not shapeless_line(line)


def test_a_story_title_with_its_date_in_parentheses_is_shapeless() -> None:
    assert shapeless_line("Storm hits the coast (Nov 3, 2012)")
    assert not shapeless_line("Storm hits the coast (and the town)")


@pytest.mark.parametrize("kind", sorted(BOXES))
def test_each_kind_of_box_leaves_the_comments(kind: str) -> None:
    post = "<div class=post><p>The article's text, long enough to be a post.</p></div>"
    blocks = parse_blocks(f"<body>{post}{BOXES[kind]}</body>")
    roles = [COMMENT if b.text and i > 2 else BOILERPLATE for i, b in enumerate(blocks)]
    assert any(r == COMMENT for r in roles)
    out = drop_shapeless(blocks, roles)
    assert [b.text for b, r in zip(blocks, out, strict=True) if r == COMMENT] == []


def test_a_count_inside_a_comment_with_a_body_stays() -> None:
    # a comment's own "297 Recommendations" button, and a heading that titles the section
    blocks = parse_blocks(
        '<body><div id="comments"><h3>2 Comments</h3><div class="comment"><p>Ann</p>'
        "<p>I tried this recipe last night and it worked.</p><p>297 Recommendations</p></div>"
        '<div class="comment"><p>Bob</p><p>Same here, the second step is the hard one.</p><p>2:52</p></div>'
        "</div></body>"
    )
    roles = [COMMENT if b.text else BOILERPLATE for b in blocks]
    assert drop_shapeless(blocks, roles) == roles


NAV = "<div id=nav><a href=/>Home</a> <a href=/world>World</a> <a href=/sport>Sport</a></div>"
TOPICS = ["harbour", "council", "railway", "museum", "market", "stadium"]


def _news_page(i: int, comments: bool) -> bytes:
    topic = TOPICS[i]
    section = (
        '<div id="comments"><h3>2 Comments</h3>'
        f'<div class="comment"><p class="who">Reader {i}</p><p class="when">May {i + 2}, 2024</p>'
        f"<p>The {topic} story missed what happened last week, I was there.</p></div>"
        f'<div class="comment"><p class="who">Writer {i}</p><p class="when">May {i + 3}, 2024</p>'
        f"<p>Thanks for covering the {topic}, more of this please.</p></div></div>"
        if comments
        else '<div id="comments"><h3>Comments</h3><p>Be the first to comment.</p></div>'
    )
    boxes = (
        f'<div class="comments-box"><a href="#comments">Comments ({i + 11})</a></div>'
        f'<ul class="comment-related"><li>The {topic} reopens (Nov {i + 3}, 2012)</li>'
        f"<li>A {topic} vote delayed (Oct {i + 20}, 2012)</li></ul>"
        f'<div class="comment-video"><span>{i + 1}:{i + 10}</span></div>'
    )
    html = (
        f"<html><body>{NAV}<div class=story><h1>News about the {topic} today</h1>{boxes}"
        f"<p>The {topic} was in the news today for reasons that the reporters explain here at length.</p>"
        f"<p>A second paragraph about the {topic} gives the background and quotes a resident.</p></div>"
        f"{section}<div id=foot><p>Copyright the newspaper</p></div></body></html>"
    )
    return html.encode()


def _comment_texts(result: PageExtraction) -> str:
    return "\n".join(b.text for b in result.blocks if b.role == COMMENT and b.text)


def test_a_news_site_keeps_its_comments_and_loses_its_boxes() -> None:
    pages = [Page(None, _news_page(i, comments=i % 2 == 0)) for i in range(6)]
    boxes = ("reopens", "vote delayed", ":1")
    without = extract_site(pages, DEFAULT.but(comment_shape=False))
    assert len(without) == len(pages) and all(
        any(box in _comment_texts(r) for box in boxes) for r in without
    )  # the boxes were comments
    results = extract_site(pages, DEFAULT)
    for i, result in enumerate(results):
        text = _comment_texts(result) + result.comment_section
        assert not any(box in text for box in boxes), text
        assert ("missed what happened" in text) == (i % 2 == 0)
        assert len(result.comment_records) == (2 if i % 2 == 0 else 0)
