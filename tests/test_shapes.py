"""D16 (issue 30, item 1): per-page boxes of news sites have no comment's shape (extractor/comments/shapes.py).

Each kind of box is taken for comments on unseen news sites: it is unique to its page and sits where
comment vocabulary or a dated list vouches for it. A comment has a body; these boxes have a count,
a duration, a number or a dated story title.
"""

from __future__ import annotations

import pytest

from extractor import DEFAULT, Page, PageExtraction, extract_site
from extractor.comments.shapes import drop_link_boxes, drop_shapeless, drop_story_boxes, shapeless_line
from extractor.core.blocks import parse_blocks
from extractor.core.roles import BOILERPLATE, COMMENT

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


# A box of other stories' links: "Popular Now", "Most commented", related stories without dates.
LINK_BOXES = {
    "popular now list": (
        '<div class="comments-popular"><h3>Popular Now</h3><ol>'
        '<li><a href="/s/1">Harbour plan approved by the council</a></li>'
        '<li><a href="/s/2">Railway strike ends after three weeks</a></li>'
        '<li><a href="/s/3">Museum opens a new wing for children</a></li></ol></div>'
    ),
    "most commented links": (
        '<div class="most-commented"><p><a href="/s/4">Stadium vote delayed again by the mayor</a></p>'
        '<p><a href="/s/5">Market traders protest the new rents</a></p></div>'
    ),
    "numbered popular list": (
        '<ol class="comments-popular"><li><span>1</span> <a href="/s/6">Council budget cut for the parks</a></li>'
        '<li><span>2</span> <a href="/s/7">New bridge opens to cyclists today</a></li></ol>'
    ),
    "dated stories without parentheses": (
        '<ul class="comment-related"><li><a href="/s/8">Storm hits the coast</a></li><li>Nov 3, 2012</li>'
        '<li><a href="/s/9">Mayor answers critics</a></li><li>Oct 30, 2012</li></ul>'
    ),
}


@pytest.mark.parametrize("kind", sorted(LINK_BOXES))
def test_each_box_of_story_links_leaves_the_comments(kind: str) -> None:
    post = "<div class=post><p>The article's text, long enough to be a post.</p></div>"
    blocks = parse_blocks(f"<body>{post}{LINK_BOXES[kind]}</body>")
    roles = [COMMENT if b.text and i > 2 else BOILERPLATE for i, b in enumerate(blocks)]
    assert any(r == COMMENT for r in roles)
    assert [b.text for b, r in zip(blocks, drop_shapeless(blocks, roles), strict=True) if r == COMMENT]
    out = drop_link_boxes(blocks, drop_shapeless(blocks, roles))
    assert [b.text for b, r in zip(blocks, out, strict=True) if r == COMMENT] == []


def test_a_comment_with_a_linked_author_and_a_short_text_stays() -> None:
    # a linked author name and a linked date are a unit's lines, "Thanks!" its short body
    blocks = parse_blocks(
        '<body><div id="comments"><h3>Comments</h3><div class="comment">'
        '<p class="who"><a href="http://ann.example/">Ann Lee</a></p><p><a href="#c1">May 2, 2024</a></p>'
        '<p>Thanks!</p></div><div class="comment"><p class="who"><a href="http://bo.example/">Bo Chen</a></p>'
        '<p><a href="#c2">May 3, 2024</a></p><p>I tried this recipe last night and it worked.</p>'
        '<p><a href="#reply">Reply</a></p></div></div></body>'
    )
    roles = [COMMENT if b.text else BOILERPLATE for b in blocks]
    assert drop_link_boxes(blocks, roles) == roles


def _story_box(i: int, kind: str) -> str:
    """A box of other stories, as some pages of a news site carry it beside the comments."""
    others = [TOPICS[(i + k) % len(TOPICS)] for k in (1, 2, 3)]
    if kind == "most commented":
        items = "".join(
            f"<li><span class=rank>{k + 1}</span> <span class=title>The {t} story everyone reads today</span>"
            f" <span>{k * 7 + i + 3} comments</span></li>"
            for k, t in enumerate(others)
        )
        return f'<div class="most-commented"><h3>Most Commented</h3><ol>{items}</ol></div>'
    if kind == "related teasers":
        items = "".join(
            f"<div class=teaser><h4>The {t} story everyone reads {i}</h4>"
            f"<p>What the {t} means for the town and for its people, in a few words.</p></div>"
            for t in others
        )
        return f'<div class="related-comments"><h3>Related Stories</h3>{items}</div>'
    items = "".join(f'<li onclick="go({k})">The {t} story everyone reads {i}{k}</li>' for k, t in enumerate(others))
    return f'<div class="comments-popular"><h3>Popular Now</h3><ul>{items}</ul></div>'


@pytest.mark.parametrize("kind", ["most commented", "related teasers", "popular now"])
def test_a_box_of_other_stories_beside_the_comments_is_not_comments(kind: str) -> None:
    # on some pages only: its identifier carries no post, and comment vocabulary or a dated list vouches for it
    pages = [
        Page(
            None,
            _news_page(i, i % 2 == 0).replace(
                b"<div id=foot>", f"{_story_box(i, kind) if i % 3 == 0 else ''}<div id=foot>".encode()
            ),
        )
        for i in range(6)
    ]
    without = extract_site(pages, DEFAULT.but(story_boxes=False))
    assert any("everyone reads" in _comment_texts(r) for r in without)  # the box was taken for comments
    for i, result in enumerate(extract_site(pages, DEFAULT)):
        text = _comment_texts(result) + result.comment_section
        assert "everyone reads" not in text, text
        assert ("missed what happened" in text) == (i % 2 == 0)
        assert len(result.comment_records) == (2 if i % 2 == 0 else 0)


def test_a_comment_section_with_a_related_heading_inside_keeps_its_comments() -> None:
    # a signed comment in the titled element: the heading names a box beside the comments, not them
    blocks = parse_blocks(
        '<body><div id="comments"><h3>Related</h3><div class="comment"><p>Ann says:</p>'
        "<p>I tried this recipe last night and it worked.</p></div></div></body>"
    )
    roles = [COMMENT if b.text and b.text != "Related" else BOILERPLATE for b in blocks]
    assert drop_story_boxes(blocks, roles) == roles
