"""Issue 20: independent evidence that a region holds reader comments (extractor/comments/evidence.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from extractor import DEFAULT, PAPER, Page, extract_site, learn_profile
from extractor.comments.evidence import (
    AUTHOR_LINES,
    DATED_UNITS,
    FALLBACK,
    PROFILE,
    SET,
    SINGLE_PAGE,
    VOCABULARY,
    comment_evidence,
    detect_section,
    veto,
    vocabulary_token,
)
from extractor.core.blocks import parse_blocks

ROOT = Path(__file__).resolve().parents[1]

NAV = "<div id=nav><a href=/>Home</a> <a href=/about>About</a> <a href=/archive>Archive</a></div>"
FOOT = "<div id=foot><p>Copyright the author, all rights reserved.</p></div>"
TOPICS = ["gardening", "cycling", "baking", "astronomy", "woodwork", "sailing"]


def _post(i: int) -> str:
    topic = TOPICS[i]
    return (
        f"<div class=post><h1>Notes on {topic} number {i}</h1>"
        f"<p>Today I spent the whole afternoon on {topic}, and learned a great deal about it.</p>"
        f"<p>The second paragraph about {topic} explains what went wrong and what went right.</p></div>"
    )


def _author_box(i: int) -> str:
    # a box after the post on every page, filled on odd pages with text unique to its page (a
    # teaser with its date): nothing in it says "reader comment"
    inner = (
        f"<p>From the archive: read more about {TOPICS[i]} and the people behind it.</p>"
        f"<p>Published May {i + 1}, 2023 in the {TOPICS[i]} section.</p>"
    )
    return f'<div class="extras"><h4>Elsewhere on this site</h4>{inner if i % 2 else ""}</div>'


def _comment_blocks(x) -> list[str]:
    return [b.text for b in x.blocks if b.role == "comment" and b.text]


def _comments(i: int, n: int) -> str:
    units = "".join(
        f'<li class="comment"><p class="who">Reader{i}{k} says:</p><p class="when">May {k + 1}, 2024 at 10:0{k} am</p>'
        f"<p>Reply {k} about {TOPICS[i]}: I tried it myself and it worked well for me.</p></li>"
        for k in range(n)
    )
    listing = f'<h3>{n} Comments</h3><ol class="commentlist">{units}</ol>' if n else ""
    # the section and its form are on every page, so its identifier is the site's (eligible)
    return f'<div id="comments">{listing}<h3>Leave a Reply</h3><form><p>Name</p></form></div>'


def _page(body: str) -> Page:
    return Page(None, f"<html><body>{NAV}{body}{FOOT}</body></html>".encode())


def test_a_unique_box_outside_the_post_is_not_a_comment():
    """Comment-free pages with a per-page box after the post: the set method calls the box a
    comment ("unique and not post"); the page shows no comment evidence, so it is not one."""
    pages = [_page(_post(i) + _author_box(i)) for i in range(4)]
    bare = extract_site(pages, DEFAULT.but(comment_evidence=False))
    assert any(_comment_blocks(x) for x in bare)  # the set method alone takes the boxes as comments
    out = extract_site(pages)
    assert [x.comments for x in out] == [[]] * 4 and not any(_comment_blocks(x) for x in out)
    assert all("read more about" not in x.post for x in out)  # boilerplate, not post: it follows the post


def test_comments_with_evidence_stay_while_the_box_goes():
    pages = [_page(_post(i) + _author_box(i) + _comments(i, 2 if i % 2 else 0)) for i in range(4)]
    out = extract_site(pages)
    for i, x in enumerate(out):
        text = "\n".join(x.comments)
        assert "read more about" not in text and not any("read more about" in t for t in _comment_blocks(x))
        assert ("I tried it myself" in text) == bool(i % 2)
        assert len(x.comment_records) == (2 if i % 2 else 0)


def test_evidence_signals_per_block():
    html = (
        '<body><div class=post><p>Post text</p><p>Comments (3)</p><p class="box">A pull quote</p><p>More post</p></div>'
        '<ul class="archive"><li><a href=/1>One</a> May 1, 2024</li><li><a href=/2>Two</a> May 2, 2024</li></ul>'
        '<div id="comments"><div class="c"><p>Ann says:</p><p>May 2, 2024</p><p>Nice.</p></div>'
        '<div class="c"><p>Bob says:</p><p>May 3, 2024</p><p>Thanks.</p></div></div></body>'
    )
    blocks = parse_blocks(html)
    ev = comment_evidence(blocks)  # the single-page detector asks about every block
    nice = next(b.index for b in blocks if b.text == "Nice.")
    assert ev.flags[nice] == VOCABULARY | DATED_UNITS | AUTHOR_LINES and ev.signals(nice) == 3
    # the veto asks about the comment blocks: the set took the pull quote and the comments
    inside = [False] * len(blocks)
    for b in blocks:
        inside[b.index] = b.element_id == "comments" or (b.parent >= 0 and inside[b.parent])
    roles = ["comment" if flag or b.text == "A pull quote" else "post" for b, flag in zip(blocks, inside, strict=True)]
    roles = ["boilerplate" if b.tag in ("ul", "li") else r for b, r in zip(blocks, roles, strict=True)]
    vetoed, ev = veto(blocks, roles)
    by_text = {b.text: r for b, r in zip(blocks, vetoed, strict=True) if b.text}
    # "Comments (3)" followed by post text is the post's byline, not a section's heading: the quote
    # has no evidence, and sits between post blocks
    assert by_text["A pull quote"] == "post"
    assert by_text["Nice."] == by_text["Ann says:"] == "comment"
    assert ev is not None and ev.proposed > ev.kept > 0
    assert vocabulary_token("comment-list") and vocabulary_token("コメント")
    assert not any(map(vocabulary_token, ["comments-link", "comment-count", "post"]))


def test_single_page_detector_needs_two_signals():
    dated_list = (
        '<ul class="news"><li><p>Election results are in</p><p>May 1, 2024</p></li>'
        "<li><p>Storm warning for the coast</p><p>May 2, 2024</p></li></ul>"
    )
    blocks = parse_blocks(f"<body><p>Post</p>{dated_list}</body>")
    assert "comment" not in detect_section(blocks, ["post"] * len(blocks))  # dates alone: a news list
    blocks = parse_blocks('<body><p>Post</p><div id="comments"><p>Ann</p><p>Nice.</p><p>Bob</p></div></body>')
    assert "comment" not in detect_section(blocks, ["post"] * len(blocks))  # vocabulary alone


def test_a_lone_comment_addressed_by_number_is_found_on_a_page_alone():
    """One comment shows no repetition and no "says:" line; its element's id addresses it as a
    comment by number (a permalink's target) and it holds a date: that, beside the comment
    region's vocabulary, is the second signal."""
    paragraphs = "".join(f"<p>Paragraph {i} of the article about peace.</p>" for i in range(6))
    post = f"<h1>Eight talks on war</h1>{paragraphs}"
    comment = (
        '<div id="discussion"><h3>Discuss this post</h3><ul class="l-0">'
        '<li class="comment even depth-1" id="li-comment-15684"><div id="comment-15684">'
        '<h4>Fabio</h4><div class="comment-body"><span class="date">Jul 23 2012</span>'
        "<p>Re-building bridges destroyed by war?</p></div></div></li></ul></div>"
    )
    (out,) = extract_site([Page(None, f"<body><div id=main>{post}</div>{comment}</body>".encode())])
    assert "Re-building bridges destroyed by war?" in out.comments[0] and "Re-building" not in out.post
    # a numbered element of the post with a date is no comment: the id must name a comment
    dated_post = f'<body><div id="post-15684"><p>Jul 23 2012</p>{post}</div></body>'
    (alone,) = extract_site([Page(None, dated_post.encode())])
    assert not alone.comments and "Paragraph 5" in alone.post


def test_a_page_alone_finds_its_comment_section_and_says_so():
    page = _page(_post(1) + _comments(1, 3))
    (out,) = extract_site([page])
    assert out.method == SINGLE_PAGE and out.confidence is not None and out.confidence <= 0.5
    assert len(out.comment_records) == 3 and "I tried it myself" not in out.post
    assert any("one page" in w for w in out.warnings)
    (bare,) = extract_site([page], DEFAULT.but(comment_evidence=False))
    assert not bare.comments  # without the detector a page alone is all post


def test_every_page_reports_method_and_confidence():
    pages = [_page(_post(i) + _comments(i, 2 if i % 2 else 0)) for i in range(4)]
    out = extract_site(pages)
    assert {x.method for x in out} == {SET}
    assert all(x.confidence == 0.9 for x in out)  # comments carry vocabulary, dates and author lines
    assert out[1].as_json()["method"] == SET
    profile = learn_profile(pages)
    later = profile.extract(_page(_post(5) + _comments(5, 2)))
    assert later.method == PROFILE and later.confidence is not None and len(later.comment_records) == 2
    every = [_page(_post(i) + _comments(i, 2)) for i in range(4)]
    assert {x.method for x in extract_site(every)} == {FALLBACK}


def test_paper_preset_reports_no_method():
    pages = [_page(_post(i) + _author_box(i)) for i in range(3)]
    out = extract_site(pages, PAPER)
    assert out[0].method is None and out[0].decision() == {}
    assert "method" not in out[0].as_json() and "confidence" not in out[0].as_json()


def test_extract_command_writes_method_and_confidence(tmp_path):
    files = []
    for i in range(3):
        path = tmp_path / f"p{i}.html"
        path.write_bytes(_page(_post(i) + _author_box(i)).body)
        files.append(str(path))
    for preset, expect in (("default", True), ("paper", False)):
        out = tmp_path / f"{preset}.jsonl"
        done = subprocess.run(
            [sys.executable, "-m", "extractor", "extract", *files, "--preset", preset, "--out", str(out)],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert len(rows) == 3
        assert all(("method" in r and "confidence" in r) == expect for r in rows)
        if expect:
            assert {r["method"] for r in rows} == {SET} and all(r["comments"] == [] for r in rows)


def test_a_profile_vetoes_the_box_on_a_later_page():
    pages = [_page(_post(i) + _author_box(i) + _comments(i, 2 if i % 2 else 0)) for i in range(4)]
    later = _page(_post(5) + _author_box(5) + _comments(5, 0))
    bare = learn_profile(pages, DEFAULT.but(comment_evidence=False)).extract(later)
    assert any("read more about" in t for t in _comment_blocks(bare))
    out = learn_profile(pages).extract(later)
    assert not _comment_blocks(out) and out.comments == []
    assert out.method == PROFILE and out.confidence is not None and out.confidence < 0.8  # proposed, not confirmed
