"""D18 (issue 30, item 5): a date alone between the post's title and its body is metadata
(extractor/comments/postmeta.py).

Cocoon prints the post's date ("2026.10.04") as a line of its own above the body: unique per page,
so step 4 kept it as post text. A byline with words ("By Ann Lee, November 15, 2026") stays: Dragnet's
gold keeps bylines.
"""

from __future__ import annotations

import pytest

from extractor import DEFAULT, PAPER, Page, extract_site
from extractor.comments.postmeta import byline

NAV = "<div id=nav><a href=/>ホーム</a> <a href=/about>About</a></div>"
TOPICS = ["gardening", "cycling", "baking", "astronomy", "woodwork"]


def _page(i: int, meta: str) -> bytes:
    topic = TOPICS[i]
    body = (
        f"<p>Today I spent the whole afternoon on {topic}, and learned a great deal about it, more than I hoped.</p>"
        f"<p>The second paragraph about {topic} explains what went wrong and what went right.</p>"
    )
    return (
        f"<html><body>{NAV}<article class=article><h1>Notes on {topic}</h1>"
        f"<div class=date-tags>{meta.format(day=i + 3)}</div>"
        f"<div class=entry-content>{body}</div></article><div id=foot><p>Copyright</p></div></body></html>"
    ).encode()


def test_a_date_line_above_the_body_leaves_the_post() -> None:
    pages = [Page(None, _page(i, "2026.10.{day:02d}")) for i in range(len(TOPICS))]
    assert "2026.10.03" in extract_site(pages, DEFAULT.but(post_date_line=False))[0].post.split("\n")
    for i, result in enumerate(extract_site(pages, DEFAULT)):
        lines = result.post.split("\n")
        assert f"2026.10.{i + 3:02d}" not in lines
        assert result.published == f"2026-10-{i + 3:02d}"  # kept as the post's metadata
        assert result.as_json()["published"] == result.published
        assert lines[0] == f"Notes on {TOPICS[i]}"
        assert any(TOPICS[i] in line and len(line) > 80 for line in lines)


def test_a_byline_with_a_date_stays_and_is_read() -> None:
    # Dragnet's gold keeps bylines in the post: the line stays, its author and date are fields
    pages = [Page(None, _page(i, "By Ann Lee, November {day}, 2026")) for i in range(len(TOPICS))]
    for i, result in enumerate(extract_site(pages, DEFAULT)):
        assert f"By Ann Lee, November {i + 3}, 2026" in result.post.split("\n")
        assert (result.post_author, result.published) == ("Ann Lee", f"2026-11-{i + 3:02d}")


BYLINES = {
    "en": ("Posted on November {day}, 2026 By Olivia Stone", "Olivia Stone", "2026-11-{day:02d}"),
    "ja": ("投稿日 2026年10月{day}日 投稿者 山田花子", "山田花子", "2026-10-{day:02d}"),
    "by first": ("By Ann Lee | November {day}, 2026", "Ann Lee", "2026-11-{day:02d}"),
}


@pytest.mark.parametrize("kind", sorted(BYLINES))
def test_a_byline_between_title_and_body_is_the_posts_author_and_date(kind: str) -> None:
    line, author, date = BYLINES[kind]
    pages = [Page(None, _page(i, line)) for i in range(len(TOPICS))]
    without = extract_site(pages, DEFAULT.but(post_byline=False))
    assert line.format(day=3) in without[0].post.split("\n") and without[0].post_author is None
    for i, result in enumerate(extract_site(pages, DEFAULT)):
        assert (result.post_author, result.published) == (author, date.format(day=i + 3))
        assert {k: result.as_json()[k] for k in ("post_author", "published")} == {
            "post_author": author,
            "published": result.published,
        }
        assert line.format(day=i + 3) in result.post.split("\n")  # Dragnet's gold keeps bylines
    # with date_lines (D12, opt-in) the byline leaves the text as well
    for i, result in enumerate(extract_site(pages, DEFAULT.but(date_lines=True))):
        lines = result.post.split("\n")
        assert line.format(day=i + 3) not in lines
        assert lines[0] == f"Notes on {TOPICS[i]}"
        assert any(TOPICS[i] in line and len(line) > 80 for line in lines)
        assert (result.post_author, result.published) == (author, date.format(day=i + 3))


@pytest.mark.parametrize(
    "text",
    [
        "A story by the river, told on November 3, 2026 to the whole town and everyone else who came along to listen.",
        "By the way, it rained",
        "Posted on November 3, 2026",
        "By 2026 the bridge will open",
    ],
)
def test_lines_that_are_no_byline(text: str) -> None:
    assert byline(text) is None


def test_the_paper_preset_gives_no_post_metadata() -> None:
    pages = [Page(None, _page(i, BYLINES["en"][0])) for i in range(len(TOPICS))]
    for result in extract_site(pages, PAPER):
        assert result.post_author is None and result.published is None
        assert not {"post_author", "published"} & set(result.as_json())
