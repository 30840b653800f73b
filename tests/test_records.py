"""Comment records (records.py): unit finding and author lines on markups beyond the corpus themes."""

from __future__ import annotations

from extractor import DEFAULT, Page, extract_site
from extractor.comments.authors import cut_bylines, shared_affixes, shared_note
from extractor.comments.records import CommentRecord, SlotKinds, _author
from extractor.evaluation.scoring import _align

WORDS = ["harbour", "lantern", "orchard", "violin", "meadow", "pepper", "thunder", "ladder", "candle", "river"]
NAMES = ["Hannah Becker", "Daniel Marsh", "Liam Carter", "Priya Shah", "Tom", "Grace Liu"]


def _comment(i: int, k: int, replies: str = "") -> str:
    text = " ".join(WORDS[(i * 7 + k * 3 + j) % len(WORDS)] for j in range(9))
    name = NAMES[(i + k) % len(NAMES)]
    return f"""<div id="comment-{i}{k}" class="comment depth-1">
<article class="comment-body">
<footer class="comment-meta">
<div class="comment-author"><span class="fn">{name}</span><span class="says">says:</span></div>
<div class="comment-metadata">
<time datetime="2026-05-{10 + k}T16:35:30+00:00">May {10 + k}, 2026 at 4:35 pm</time></div>
</footer>
<div class="comment-content"><p>{text} comment {i}-{k}.</p></div>
</article>{replies}</div>"""


def _page(i: int, n_comments: int) -> Page:
    body = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(20))
    comments = "".join(_comment(i, k) for k in range(n_comments))
    region = (
        f"""<div class="comments section-inner" id="comments">
<div class="comments-header section-inner"><h2 class="comment-reply-title">{n_comments} replies on post {i}</h2></div>
<div class="comments-inner section-inner">{comments}</div></div>"""
        if n_comments
        else ""
    )
    html = f"""<html><body><div id="nav"><a href="/">Home</a></div>
<article class="post"><h1>Post {i}: {WORDS[i]}</h1>
<div class="entry"><p>{body} {i}.</p><p>More {body}.</p></div></article>
{region}<div id="respond" class="comment-respond"><h3 class="comment-reply-title">Leave a Reply</h3></div>
<div id="footer">Footer text</div></body></html>"""
    return Page(None, html.encode())


def test_a_heading_wrapped_beside_the_list_is_not_a_unit() -> None:
    # twentytwenty: div.comments-header (the "N replies" heading) and div.comments-inner are two divs
    out = extract_site([_page(0, 0), _page(1, 3), _page(2, 0), _page(3, 2), _page(4, 4)])
    assert [len(p.comment_records) for p in out] == [0, 3, 0, 2, 4]
    first = out[1].comment_records[0]
    assert first.text == " ".join(WORDS[(7 + j) % len(WORDS)] for j in range(9)) + " comment 1-0."
    assert first.date == "2026-05-10T16:35:30Z"
    assert not any("replies on post" in c for p in out for c in p.comments)


def test_a_says_label_glued_to_the_name_is_cut() -> None:
    out = extract_site([_page(0, 0), _page(1, 3), _page(2, 0), _page(3, 2), _page(4, 4)])
    assert [r.author for r in out[4].comment_records] == [NAMES[(4 + k) % len(NAMES)] for k in range(4)]


def test_glued_suffix_needs_many_names_and_punctuation() -> None:
    # two names sharing an ending are names, not a label
    assert shared_affixes(["Anna", "Hanna"]) == ("", "")
    assert shared_affixes([f"{n}son" for n in ("Jack", "Wil", "Peter", "John", "Ander")]) == ("", "")
    assert shared_affixes([f"{n}says:" for n in NAMES]) == ("", "says:")
    # a colon ends a label, never a name: two names are enough
    assert shared_affixes(["Hannah Beckersays:", "Tomsays:"]) == ("", "says:")
    assert shared_affixes(["Jackson.", "Wilson."]) == ("", "")
    assert shared_affixes([f"{n} says:" for n in NAMES[:2]]) == ("", " says:")
    # a label with a space of its own, glued to the name (French "dit :", Korean "님의 말:")
    assert shared_affixes([f"{n}dit :" for n in NAMES]) == ("", "dit :")
    assert shared_affixes([f"{n}님의 말:" for n in NAMES]) == ("", "님의 말:")
    # ... but a name ending two names share stays with the names
    assert shared_affixes(["Jackson says:", "Wilson says:"]) == ("", " says:")


def test_alignment_prefers_the_closest_record_over_one_quoting_it() -> None:
    truth = [{"text": "Thanks for the tip"}, {"text": "Thanks for the tip, it worked for my orchard too"}]
    records = [{"text": "Thanks for the tip, it worked for my orchard too"}, {"text": "Thanks for the tip"}]
    assert _align(truth, records) == [1, 0]


def _date_line_page(i: int, n_comments: int) -> Page:
    # OceanWP: the name and the date share one line, with no author block of its own
    body = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(20))
    units = "".join(
        f"""<li class="comment-container"><article class="comment depth-1">
<div class="comment-author"><span class="comment-link"><a href="/u{k}">{NAMES[(i + k) % len(NAMES)]}</a> </span>
<span class="comment-date">August {k + 1}, 2026</span> <a class="comment-reply-link" href="#r">Reply</a></div>
<div class="comment-entry"><p>{" ".join(WORDS[(i + k * 3 + j) % len(WORDS)] for j in range(8))} {i}-{k}.</p></div>
</article></li>"""
        for k in range(n_comments)
    )
    comments = f'<ol class="comment-list">{units}</ol>' if n_comments else ""
    html = f"""<html><body><div id="nav"><a href="/">Home</a></div>
<article class="post"><h1>Post {i}: {WORDS[i]}</h1><div class="entry"><p>{body} {i}.</p></div></article>
<div id="comments">{comments}</div><div id="footer">Footer text</div></body></html>"""
    return Page(None, html.encode())


def test_a_name_before_the_date_on_one_line_is_the_author() -> None:
    out = extract_site([_date_line_page(0, 0), _date_line_page(1, 3), _date_line_page(2, 0), _date_line_page(3, 4)])
    records = out[3].comment_records
    assert [r.author for r in records] == [NAMES[(3 + k) % len(NAMES)] for k in range(4)]
    assert [r.date for r in records] == [f"2026-08-0{k + 1}" for k in range(4)]  # a day alone
    assert {r.date_precision for r in records} == {"day"}


def _vote_page(i: int, n_comments: int) -> Page:
    # a news site's comments: the name and a numeric date in one header block above the text, and a
    # vote widget below it whose label varies ("Vote", "+1")
    body = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(20))
    units = "".join(
        f"""<div class="comment-item"><div class="comment-head"><b>{NAMES[(i + k) % len(NAMES)]}</b><br>
Posted: 11/{k + 6}/2012 7:2{k}am PST</div>
<div class="comment-text"><p>{" ".join(WORDS[(i + k * 3 + j) % len(WORDS)] for j in range(8))} {i}-{k}.</p></div>
<div class="comment-votes">{"+1" if (i + k) % 3 == 0 else "Vote"}</div></div>"""
        for k in range(n_comments)
    )
    html = f"""<html><body><div id="nav"><a href="/">Home</a></div>
<article class="post"><h1>Post {i}: {WORDS[i]}</h1><div class="entry"><p>{body} {i}.</p></div></article>
<div id="comments">{units}</div><div id="footer">Footer text</div></body></html>"""
    return Page(None, html.encode())


def test_names_in_the_date_line_win_over_a_short_slot_below_the_text() -> None:
    out = extract_site([_vote_page(0, 0), _vote_page(1, 3), _vote_page(2, 0), _vote_page(3, 4), _vote_page(4, 2)])
    records = out[3].comment_records
    assert [r.author for r in records] == [NAMES[(3 + k) % len(NAMES)] for k in range(4)]
    assert [r.date for r in records] == [f"2012-11-{k + 6:02d}T07:2{k}:00" for k in range(4)]


def _thread_page(i: int, with_comments: bool) -> Page:
    # one comment and its reply nested in it (twentytwenty's div style): no sibling repeats,
    # and unlike divs (title, form) beside the list
    body = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(20))

    def unit(k: int, depth: int, inner: str = "") -> str:
        text = " ".join(WORDS[(i + k * 3 + j) % len(WORDS)] for j in range(8))
        return f"""<div class="comment depth-{depth}"><div class="comment-author">{NAMES[(i + k) % len(NAMES)]}</div>
<div class="comment-metadata">May {k + 3}, 2026 at 4:35 pm</div>
<div class="comment-content"><p>{text} {i}-{k}.</p></div>{inner}</div>"""

    region = ""
    if with_comments:
        region = f"""<div class="title-wrap"><h2>Join the conversation</h2><p>2 replies so far {i}</p></div>
<div class="comment-list">{unit(0, 1, unit(1, 2))}</div><div class="form-flex"><p>Leave a reply {i}</p></div>"""
    html = f"""<html><body><div id="nav"><a href="/">Home</a></div>
<article class="post"><h1>Post {i}: {WORDS[i]}</h1><div class="entry"><p>{body} {i}.</p></div></article>
<div id="comments" class="comments-area">{region}</div><div id="footer">Footer text</div></body></html>"""
    return Page(None, html.encode())


def test_a_comment_and_its_nested_reply_are_two_records() -> None:
    out = extract_site([_thread_page(0, False), _thread_page(1, True), _thread_page(2, False), _thread_page(3, True)])
    for i in (1, 3):
        records = out[i].comment_records
        assert [r.author for r in records] == [NAMES[i % len(NAMES)], NAMES[(i + 1) % len(NAMES)]]
        assert [r.parent for r in records] == [None, 0]
        assert records[1].text == " ".join(WORDS[(i + 3 + j) % len(WORDS)] for j in range(8)) + f" {i}-1."


def _indented_page(i: int, n_comments: int) -> Page:
    # Drupal: each comment's replies follow it in a div.indented, not inside it
    body = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(20))

    def comment(k: int, depth: int) -> str:
        words = " ".join(WORDS[(i + k * 3 + j + depth) % len(WORDS)] for j in range(8))
        name = NAMES[(i + k + depth) % len(NAMES)]
        return f"""<article class="comment js-comment"><footer class="comment__meta">
<p class="comment__submitted">Submitted by <span>{name}</span> on Sat, 03/{10 + k}/2019 - 0{depth}:29</p>
</footer><div class="content"><div class="field--name-comment-body"><p>{words} {i}-{k}-{depth}.</p></div>
<ul class="links inline"><li class="comment-reply"><a href="#r">Reply</a></li></ul></div></article>"""

    thread = "".join(
        comment(k, 0) + (f'<div class="indented">{comment(k, 1)}</div>' if k == 1 else "") for k in range(n_comments)
    )
    region = f'<section class="comment-wrapper"><h2 class="title">Comments</h2>{thread}</section>' if n_comments else ""
    html = f"""<html><body><div id="nav"><a href="/">Home</a></div>
<article class="node"><h1>Post {i}: {WORDS[i]}</h1><div class="node__content"><p>{body} {i}.</p></div>{region}</article>
<div id="footer">Footer text</div></body></html>"""
    return Page(None, html.encode())


def test_replies_in_a_wrapper_after_their_parent_are_replies_to_it() -> None:
    out = extract_site([_indented_page(0, 0), _indented_page(1, 4), _indented_page(2, 0), _indented_page(3, 3)])
    records = out[1].comment_records
    # comments 0-3, a reply after comment 1 (too few replies for the wrapper to pair with the comments)
    assert [r.parent for r in records] == [None, None, 1, None, None]
    order = ((0, 0), (1, 0), (1, 1), (2, 0), (3, 0))
    assert [r.author for r in records] == [NAMES[(1 + k + d) % len(NAMES)] for k, d in order]
    assert records[0].date == "2019-03-10T00:29:00"


def _dl_page(i: int, n_comments: int) -> Page:
    # classic Blogger: <dt> "Name said..." before each <dd> text, then a <dd> with the date
    body = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(20))
    words = [" ".join(WORDS[(i + k * 3 + j) % len(WORDS)] for j in range(8)) for k in range(n_comments)]
    items = "".join(
        f"""<dt class="comment-author">{NAMES[(i + k) % len(NAMES)]}
said...</dt><dd class="comment-body"><p>{words[k]} {i}-{k}.</p></dd>
<dd class="comment-footer"><span><a title="comment permalink">3/{k + 1}/2012 4:2{k} PM</a></span></dd>"""
        for k in range(n_comments)
    )
    html = f"""<html><body><div id="nav"><a href="/">Home</a></div>
<div class="post"><h3>Post {i}: {WORDS[i]}</h3><div class="post-body"><p>{body} {i}.</p></div></div>
<div id="comments"><h4>{n_comments} comments:</h4><dl id="comments-block">{items}</dl></div>
<div id="footer">Footer text</div></body></html>"""
    return Page(None, html.encode())


def test_a_dt_author_line_before_each_dd_text_opens_the_comment() -> None:
    out = extract_site([_dl_page(0, 0), _dl_page(1, 3), _dl_page(2, 0), _dl_page(3, 1), _dl_page(4, 2)])
    assert [r.author for r in out[1].comment_records] == [NAMES[(1 + k) % len(NAMES)] for k in range(3)]
    assert [r.date for r in out[1].comment_records] == [f"2012-03-0{k + 1}T16:2{k}:00" for k in range(3)]
    # a page with a single comment: the <dt> still leads its <dd>
    assert [r.author for r in out[3].comment_records] == [NAMES[3 % len(NAMES)]]


def test_a_reply_byline_between_two_commenters_names_is_the_first_name() -> None:
    def rec(author: str) -> CommentRecord:
        return CommentRecord("text", author, None, None, None, 0, "")

    records = [
        rec("Lucia Romano"),
        rec("Joe Bailey"),
        rec("Joe Bailey replied to comment from Lucia Romano"),
        rec("Jason"),
        rec("Jason De Los Santos"),  # a longer name, not a byline: it ends in no other name
    ]
    cut_bylines(records)
    assert [r.author for r in records] == ["Lucia Romano", "Joe Bailey", "Joe Bailey", "Jason", "Jason De Los Santos"]


def test_a_label_most_names_carry_is_cut() -> None:
    # Drupal marks guests "Name (not verified)"; registered users carry no label
    names = [f"{n} (not verified)" for n in NAMES[:4]] + ["admin", "Pat (Editor)"]
    kinds = SlotKinds()
    kinds.author_note = shared_note([_author(n, kinds) or "" for n in names])
    assert kinds.author_note == "(not verified)"
    assert [_author(n, kinds) for n in names] == [*NAMES[:4], "admin", "Pat (Editor)"]
    # a parenthesis few names carry is part of those names
    assert shared_note(["Ann (UK)", "Bo", "Cy", "Di", "Ed"]) == ""


def _box_page(i: int) -> Page:
    # a product box beside some articles: unique where it is, so it is content under no post identifier
    body = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(20))
    box = " ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(10))
    box_html = f'<div class="gamebox"><p>{box} edition {i}, {10 + i}.99 USD</p></div>' if i in (0, 3) else ""
    html = f"""<html><body><div id="nav"><a href="/">Home</a></div>
<article class="post"><h1>Post {i}: {WORDS[i]}</h1>
<div class="entry"><p>{body} {i}.</p><p>More {body}.</p></div></article>
<aside class="side">{box_html}</aside>
<div id="footer">Footer text</div></body></html>"""
    return Page(None, html.encode())


def test_loose_comment_blocks_without_a_unit_are_not_comments_with_d14() -> None:
    pages = [_box_page(i) for i in range(6)]
    strict = DEFAULT.but(lone_comments=True)
    out = extract_site(pages, strict)
    assert len(out) == len(pages) and not any(p.comments for p in out)
    assert not any(b.role == "comment" for p in out for b in p.blocks)
    # off by default: an undated lone comment stays, unless (D15, issue 20) nothing on the page
    # says "reader comment", as here
    assert any(p.comments for p in extract_site(pages, DEFAULT.but(comment_evidence=False)))
    out = extract_site(pages)
    assert len(out) == len(pages) and not any(p.comments for p in out)
