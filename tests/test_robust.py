"""D6 (robust.py): which identifiers besides the paper's every-page ones are the post's."""

from __future__ import annotations

from extractor import PAPER, Page, extract_site

WORDS = ["harbour", "lantern", "orchard", "violin", "meadow", "pepper", "thunder", "ladder"]


def _page(i: int, note: str = "", comment: str = "") -> Page:
    body = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(12))
    html = f"""<html><body>
<div id="nav"><a href="/">Home</a> <a href="/about">About</a></div>
<div id="main">
  <h1 class="title">Post number {i} about {WORDS[i % len(WORDS)]}</h1>
  <div class="note">{note}</div>
  <div class="body"><p>{body} first paragraph {i}.</p><p>Second paragraph of post {i}, {body}.</p></div>
</div>
<div id="comments"><h3>Leave a comment</h3><div class="list">{comment}</div></div>
<div id="footer">Copyright the garden blog</div>
</body></html>"""
    return Page(f"http://blog.test/{i}", html.encode())


def _set() -> list[Page]:
    return [
        _page(0, note="Editor's note: this post was updated after readers wrote in"),
        _page(1, comment="<p>I planted the same orchard last spring and it thrived, thank you</p>"),
        _page(2),
        _page(3),
        _page(4),
    ]


def test_identifier_with_content_on_one_page_before_the_body_is_post() -> None:
    out = extract_site(_set())
    assert "Editor's note" in out[0].post
    assert not out[0].comments


def test_identifier_with_content_on_one_page_after_the_body_stays_comment() -> None:
    out = extract_site(_set())
    assert out[1].comments == ["I planted the same orchard last spring and it thrived, thank you"]
    assert "orchard last spring" not in out[1].post
    assert all(not page.comments for page in out[2:])


def test_the_paper_calls_the_note_a_comment() -> None:
    # the published rule: a post identifier carries content on every page; the note's does not
    out = extract_site(_set(), PAPER)
    assert any("Editor's note" in c for c in out[0].comments)
