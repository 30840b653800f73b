"""D18 (issue 30, item 5): a date alone between the post's title and its body is metadata (extractor/postmeta.py).

Cocoon prints the post's date ("2026.10.04") as a line of its own above the body: unique per page,
so step 4 kept it as post text. A byline with words ("By Ann Lee, November 15, 2026") stays: Dragnet's
gold keeps bylines.
"""

from __future__ import annotations

from extractor import DEFAULT, Page, extract_site

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


def test_a_byline_with_a_date_stays() -> None:
    pages = [Page(None, _page(i, "By Ann Lee, November {day}, 2026")) for i in range(len(TOPICS))]
    for i, result in enumerate(extract_site(pages, DEFAULT)):
        assert f"By Ann Lee, November {i + 3}, 2026" in result.post.split("\n")
        assert result.published is None and "published" not in result.as_json()
