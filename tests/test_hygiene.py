"""Text hygiene (issue 28): invisible characters removed and text NFC-normalised in posts and comments."""

from __future__ import annotations

import unicodedata

from extractor import DEFAULT, PAPER, Page, extract_site
from extractor.core.hygiene import clean_text

SOFT = "\u00ad"
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"


def test_clean_text_removes_invisible_characters_and_composes() -> None:
    decomposed = unicodedata.normalize("NFD", "Café crème")
    assert clean_text(f"In{SOFT}for{SOFT}ma{INVISIBLE}tion {decomposed}") == "Information Café crème"
    assert clean_text("plain ascii stays") == "plain ascii stays"


def page(title: str, body: str, comment: str) -> Page:
    html = f"""<html><body><div id="nav"><a href="/">Home</a> <a href="/a">About</a></div>
<div id="post"><h1>{title}</h1><p>{body}</p></div>
<div id="comments"><h3>2 Comments</h3><ol class="commentlist">
<li class="comment"><p class="author">Ann says:</p><p class="date">March 2, 2024 at 9:14 am</p><p>{comment}</p></li>
<li class="comment"><p class="author">Bob says:</p><p class="date">March 3, 2024 at 9:14 am</p><p>Me too.</p></li>
</ol></div><div id="footer">Copyright</div></body></html>"""
    return Page(None, html.encode("utf-8"))


def test_posts_and_comments_leave_extraction_clean() -> None:
    pages = [
        page("Ta\u00adges\u200bzeitung", "Silben\u00adtrennung, ein Cafe\u0301.", "Scho\u0308n ge\u00adschrieben!"),
        page("Second post", "Another body text here.", "Nice."),
        Page(
            None,
            b"<html><body><div id=nav><a href=/>Home</a> <a href=/a>About</a></div>"
            b"<div id=post><h1>Third</h1><p>No comments here.</p></div><div id=footer>Copyright</div></body></html>",
        ),
    ]
    first = extract_site(pages, DEFAULT)[0]
    assert "Tageszeitung" in first.post and "Silbentrennung, ein Café" in first.post and "Café" in first.post
    assert first.post == unicodedata.normalize("NFC", first.post)
    assert "Schön geschrieben!" in first.comments
    assert [r.text for r in first.comment_records] == first.comments
    assert not any(ch in first.post + "".join(first.comments) for ch in SOFT + INVISIBLE)


def test_the_paper_preset_keeps_the_text_as_printed() -> None:
    pages = [page("Ta\u00adges", "Silben\u00adtrennung.", "Gut."), page("Zwei", "Text zwei.", "Ok.")]
    assert SOFT in extract_site(pages, PAPER)[0].post
