"""Comment dates printed after the comment text (issue 30, item 4).

Some themes print the comment's day as a link to the comment, in a meta block *below* the body:
``<div class="comment-metadata"><a class="comment-date-link" href="…#comment-17">August 19, 2026</a></div>``.
Any date inside a comment unit, before or after the body, linked or not, is the comment's date.
The pages below are a small synthetic theme: several posts, several comments per post, some posts
without comments, the author line first, then the text, then the linked date.
"""

from __future__ import annotations

import re

import pytest

from extractor import Page, extract_site, learn_profile

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October"]
NAMES = ["Ann Lee", "Bo Chen", "Cara Diaz", "Dev Patel", "Eli Moss", "Fay Kim", "Gus Ortiz", "Hana Sato"]
# fmt: off
WORDS = [
    "garden", "soil", "water", "light", "seed", "bloom", "root", "leaf", "stem", "compost", "mulch", "frost",
    "spring", "summer", "autumn", "winter", "tomato", "basil", "pepper", "onion", "garlic", "carrot", "bean",
    "pea", "squash", "melon", "berry", "apple", "pear", "plum", "cherry",
]
# fmt: on


def _sentence(seed: int, n: int = 14) -> str:
    return " ".join(WORDS[(seed * 7 + i * 11) % len(WORDS)] for i in range(n)).capitalize() + "."


def _comment(post: int, k: int, meta: str, author_kind: str) -> tuple[str, dict[str, str]]:
    cid = post * 100 + k
    day = f"{MONTHS[(post + k) % len(MONTHS)]} {k + 3}, 2026"
    author = NAMES[(post + k) % len(NAMES)]
    text = f"{_sentence(cid)} {_sentence(cid + 5, 9)} (comment {cid})"
    date = f'<a class="comment-date-link" href="http://blog.test/p{post}/#comment-{cid}">{day}</a>'
    html = (
        f'<li id="comment-{cid}" class="comment">'
        f'<article class="comment-body">'
        f'<div class="{author_kind}"><b class="fn">{author}</b></div>'
        f'<div class="comment-content"><p>{text}</p></div>'
        + (f'<div class="{meta}">{date}</div>' if meta else f"{date}")
        + '<div class="reply"><a class="comment-reply-link" href="#">Reply</a></div>'
        "</article></li>"
    )
    return html, {"text": text, "author": author, "day": day}


def theme_page(
    post: int, n_comments: int, meta: str = "comment-metadata", author_kind: str = "comment-author"
) -> tuple[bytes, list[dict[str, str]]]:
    """One post page: menu, article, then ``n_comments`` comments whose linked day follows the text
    (in a ``meta`` block, or a bare link when ``meta`` is empty) below the author line (in a block
    of class ``author_kind``)."""
    comments = [_comment(post, k, meta, author_kind) for k in range(n_comments)]
    section = (
        '<div id="comments" class="comments-area">'
        f'<h2 class="comments-title">{n_comments} thoughts on “Post {post}”</h2>'
        f'<ol class="comment-list">{"".join(c[0] for c in comments)}</ol></div>'
        if n_comments
        else ""
    )
    body = "".join(f"<p>{_sentence(post * 13 + i, 30)}</p>" for i in range(4))
    html = (
        '<html><head><meta charset="utf-8"><title>Post</title></head><body>'
        '<header id="masthead"><nav class="menu"><a href="/">Home</a> <a href="/about">About</a></nav></header>'
        '<main id="main"><article class="post">'
        f'<h1 class="entry-title">Post number {post} about {WORDS[post % len(WORDS)]}</h1>'
        f'<div class="entry-content">{body}</div></article>{section}</main>'
        '<aside id="sidebar"><h3>Archives</h3><ul><li><a href="/2026/08">August 2026</a></li></ul></aside>'
        '<footer id="colophon"><p>Powered by a blog engine</p></footer></body></html>'
    )
    return html.encode(), [c[1] for c in comments]


def _site(meta: str, author_kind: str = "comment-author") -> list[tuple[bytes, list[dict[str, str]]]]:
    counts = [3, 0, 4, 2, 0, 5, 1, 3]
    return [theme_page(post, n, meta, author_kind) for post, n in enumerate(counts)]


def _day_iso(day: str) -> str:
    month, rest = day.split(" ", 1)
    number, year = rest.split(", ")
    return f"{year}-{MONTHS.index(month) + 1:02d}-{int(number):02d}"


@pytest.mark.parametrize("meta", ["comment-metadata", ""], ids=["in a meta block", "bare link"])
def test_a_linked_day_after_the_text_is_the_comments_date(meta: str) -> None:
    site = _site(meta)
    results = extract_site([Page(f"http://blog.test/p{i}/", html) for i, (html, _) in enumerate(site)])
    dated = 0
    for (_, truth), result in zip(site, results, strict=True):
        records = result.comment_records
        assert [r.text for r in records] == [c["text"] for c in truth]
        for record, comment in zip(records, truth, strict=True):
            assert record.author == comment["author"]
            assert record.date == _day_iso(comment["day"]), (record.date, comment["day"])
            assert record.date_precision == "day"
            dated += 1
    assert dated == 18


def test_a_profile_reads_the_date_after_the_text() -> None:
    site = _site("comment-metadata")
    profile = learn_profile([Page(f"http://blog.test/p{i}/", html) for i, (html, _) in enumerate(site)])
    html, truth = theme_page(20, 4)
    records = profile.extract(Page("http://blog.test/p20/", html)).comment_records
    assert [(r.text, r.date) for r in records] == [(c["text"], _day_iso(c["day"])) for c in truth]


@pytest.mark.parametrize("kinds", [("comment-meta", "comment-meta"), ("comment-meta author", "comment-meta date")])
def test_a_day_in_a_meta_block_like_the_author_block_above_the_text(kinds: tuple[str, str]) -> None:
    # the author's block above the text and the date's block below it are of one kind (one slot
    # twice per unit): the date is still read (records.unit_date)
    author_kind, meta = kinds
    site = _site(meta, author_kind)
    results = extract_site([Page(f"http://blog.test/p{i}/", html) for i, (html, _) in enumerate(site)])
    got = [(r.text, r.date, r.date_precision) for result in results for r in result.comment_records]
    assert got == [(c["text"], _day_iso(c["day"]), "day") for _, truth in site for c in truth]


def _restyled(site: list[tuple[bytes, list[dict[str, str]]]], at_time: bool, one_footer: bool) -> list[bytes]:
    """The pages with the day printed with its time ("August 19, 2026 at 3:12 pm"), and/or the linked
    day and the Reply link in one footer line below the text."""
    pages = []
    for html, _ in site:
        text = html.decode()
        if at_time:
            text = re.sub(r'(#comment-\d+">)([A-Z][a-z]+ \d+, 2026)(</a>)', r"\1\2 at 3:12 pm\3", text)
        if one_footer:
            text = re.sub(
                r'<div class="comment-metadata">(<a class="comment-date-link"[^>]*>[^<]*</a>)</div>'
                r'<div class="reply">(<a class="comment-reply-link" href="#">Reply</a>)</div>',
                r'<footer class="comment-meta">\1 · \2</footer>',
                text,
            )
        pages.append(text.encode())
    return pages


@pytest.mark.parametrize(
    ("at_time", "one_footer"), [(True, False), (False, True), (True, True)], ids=["with time", "footer", "both"]
)
def test_a_linked_day_below_the_text_in_other_layouts(at_time: bool, one_footer: bool) -> None:
    site = _site("comment-metadata")
    pages = _restyled(site, at_time, one_footer)
    dated = [p.decode() for p in pages if b"comment-date-link" in p]
    assert all(("at 3:12 pm" in p) == at_time and ('<footer class="comment-meta">' in p) == one_footer for p in dated)
    results = extract_site([Page(f"http://blog.test/p{i}/", html) for i, html in enumerate(pages)])
    got = [(r.text, r.author, r.date) for result in results for r in result.comment_records]
    want_date = (lambda day: f"{_day_iso(day)}T15:12:00") if at_time else _day_iso
    assert got == [(c["text"], c["author"], want_date(c["day"])) for _, truth in site for c in truth]
