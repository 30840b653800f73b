"""Issue 20: comment evidence from markup the dev corpus lacks or misread (extractor/comments/evidence.py):
aria-label and microdata, alternating WordPress unit classes, unlike boxes that share a layout
class, undated server-rendered Disqus lists, and sets in which every page has a single comment."""

from __future__ import annotations

import pytest

from extractor import DEFAULT, Page, extract_site
from extractor.comments.evidence import (
    DATED_UNITS,
    FALLBACK,
    NUMBERED_UNITS,
    VOCABULARY,
    comment_evidence,
    label_names_comments,
)
from extractor.core.blocks import BLOCK_FIELDS, parse_blocks
from extractor.separation.method import NO_COMMENTS, PAGE_EVIDENCE
from extractor.separation.profile import extract_and_learn

TOPICS = ["gardening", "cycling", "baking", "astronomy", "woodwork", "sailing"]
NAMES = ["Ann Lee", "Bob Marsh", "Chloe Dunn", "Dev Patel"]


def _page(i: int, comments: str = "", sidebar: str = "") -> bytes:
    topic = TOPICS[i]
    return (
        "<html><body><div id=nav><a href=/>Home</a> <a href=/about>About</a></div>"
        f"<div class=post><h1>Notes on {topic}</h1>"
        f"<p>Today I spent the whole afternoon on {topic}, and learned a great deal about it.</p>"
        f"<p>The second paragraph about {topic} says what went wrong and what went right.</p></div>"
        f"{comments}<div id=side>{sidebar}</div><div id=foot><p>Copyright the author.</p></div></body></html>"
    ).encode()


def _texts(result: object, role: str = "comment") -> list[str]:
    return [b.text for b in result.blocks if b.role == role and b.text]  # type: ignore[attr-defined]


def test_element_label_is_a_block_field_read_from_aria_label_itemtype_and_itemprop() -> None:
    blocks = parse_blocks(
        '<body><section aria-label="Comments" class=x><div itemprop="comment" itemscope '
        'itemtype="https://schema.org/Comment"><p itemprop="text">Hi</p></div></section><p>x</p></body>'
    )
    assert "element_label" in BLOCK_FIELDS
    assert [b.element_label for b in blocks] == [
        None,
        "Comments",
        "comment https://schema.org/Comment",
        "text",
        None,
    ]


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("Comments", True),
        ("http://schema.org/UserComments", True),
        ("comment https://schema.org/Comment", True),
        ("コメント", True),
        ("commentCount", False),
        ("discussionUrl", False),
        ("Comment form", False),
        ("Share on Facebook", False),
        ("", False),
        (None, False),
    ],
)
def test_labels_that_name_a_comment_region(value: str | None, names: bool) -> None:
    assert label_names_comments(value) is names


def _dated_units(attrs: str, n: int = 3) -> str:
    # units that open with their date, then the text: no author line, no class vocabulary
    return "".join(
        f"<div {attrs}><p>May {k + 2}, 2024 at 9:1{k} am</p>"
        f"<p>A thought from reader {k}: this was useful and I will try it this weekend.</p></div>"
        for k in range(n)
    )


@pytest.mark.parametrize(
    ("markup", "found"),
    [
        (f'<div class="box">{_dated_units("class=unit")}</div>', False),  # dates alone
        (f'<section aria-label="Comments">{_dated_units("class=unit")}</section>', True),
        (f'<div class="box">{_dated_units("class=unit itemprop=comment")}</div>', True),
        (
            f'<div itemscope itemtype="http://schema.org/UserComments">{_dated_units("class=unit")}</div>',
            True,
        ),
    ],
)
def test_a_page_alone_reads_aria_label_and_microdata_as_section_vocabulary(markup: str, found: bool) -> None:
    [result] = extract_site([Page(None, _page(0, markup))], DEFAULT)
    comments = " ".join(result.comments)
    assert ("A thought from reader 0" in comments) is found
    assert ("A thought from reader 2" in comments) is found
    assert "whole afternoon" in result.post


def _wordpress_list(names: list[str]) -> str:
    # WordPress's walker alternates "even" / "odd alt" after the shared "comment" token
    units = "".join(
        f'<li id="li-comment-{40 + k}" class="comment {"odd alt" if k % 2 else "even"}'
        f" thread-{'odd' if k % 2 else 'even'}"
        f' depth-1"><article id="comment-{40 + k}" class="comment"><footer><div class="comment-author vcard">'
        f'{name} says:</div><div class="comment-meta commentmetadata"><a href="#c{k}">November {k + 10}, 2012'
        f' at 3:0{k} pm</a></div></footer><div class="comment-content"><p>Comment {k} from {name}: I loved'
        f' the part about the second paragraph.</p></div><div class="reply"><a href="#r">Reply</a></div>'
        "</article></li>"
        for k, name in enumerate(names)
    )
    return f'<div id="comments"><h2>{len(names)} Responses</h2><ol class="commentlist">{units}</ol></div>'


def test_alternating_unit_classes_are_one_list_on_a_page_alone() -> None:
    # the least class token ("alt" against "comment") split the list in two: no dated units
    [result] = extract_site([Page(None, _page(1, _wordpress_list(NAMES[:2])))], DEFAULT)
    assert [r.author for r in result.comment_records] == NAMES[:2]
    assert [r.text.split(":")[0] for r in result.comment_records] == [
        "Comment 0 from Ann Lee",
        "Comment 1 from Bob Marsh",
    ]


def _module(kind: str, body: str) -> str:
    return f'<div class="rmod {kind}"><div class="hr"><hr></div><h3>{kind.title()}</h3>{body}</div>'


UNLIKE_BOXES = _module(
    "info-card",
    '<div class="ic-content"><div class="col"><h5>Release Date</h5><p>Nov 13, 2012</p></div>'
    "<div class=col><h5>Genre</h5><p>First Person Shooter and a long description of the game.</p></div></div>",
) + _module(
    "featured-stories",
    '<div class="lp-content"><div><div class="box"><h4>Snapshot: Anna and the long way home</h4>'
    "<p>Posted on Oct 27th 2012 9:00AM</p></div></div><div><div class=box>"
    "<h4>G4 ending X-Play, Attack of the Show</h4><p>Posted on Oct 26th 2012 8:00AM</p></div></div></div>",
)


def test_unlike_boxes_sharing_a_layout_class_are_not_dated_units() -> None:
    # a product box and a related-posts box, both div.rmod and both dated, their dates at
    # different places: not a list of comments
    blocks = parse_blocks(_page(2, sidebar=UNLIKE_BOXES).decode())
    flags = comment_evidence(blocks).flags
    boxes = [b.index for b in blocks if b.element_class and b.element_class.startswith("rmod")]
    assert len(boxes) == 2
    assert not any(flags[k] & DATED_UNITS for k in boxes)
    [result] = extract_site([Page(None, _page(2, sidebar=UNLIKE_BOXES))], DEFAULT)
    assert result.comments == []


def _disqus(i: int, names: list[str], numbered: bool = True) -> str:
    # the server-rendered Disqus list of 2012 WordPress plugins: no dates, a name, the message
    units = "".join(
        f'<li id="dsq-comment-{5790 + k if numbered else "x"}"><div class="dsq-comment-header"><cite>'
        f'<span id="dsq-author-user-{5790 + k}">{name}</span></cite></div><div class="dsq-comment-body">'
        f'<div class="dsq-comment-message"><p>{name} on {TOPICS[i]}: a reply that only this page carries.</p>'
        "</div></div></li>"
        for k, name in enumerate(names)
    )
    thread = f'<div id="disqus_thread"><ul id="dsq-comments">{units}</ul></div>'
    return f'<div id="comments"><p>Please be civil.</p>{thread}</div>'


def test_undated_numbered_comment_units_are_found_on_a_page_alone() -> None:
    page = _page(3, _disqus(3, NAMES[:3]))
    flags = comment_evidence(parse_blocks(page.decode())).flags
    message = [b.index for b in parse_blocks(page.decode()) if b.text.startswith("Ann Lee on")]
    assert flags[message[0]] & (VOCABULARY | NUMBERED_UNITS) == VOCABULARY | NUMBERED_UNITS
    [result] = extract_site([Page(None, page)], DEFAULT)
    assert [c for c in result.comments if "a reply that only this page carries" in c] != []
    assert "a reply that only" not in result.post


def test_unnumbered_undated_units_are_vocabulary_alone() -> None:
    [result] = extract_site([Page(None, _page(3, _disqus(3, NAMES[:3], numbered=False)))], DEFAULT)
    assert result.comments == []


def test_a_set_where_every_page_has_one_comment_finds_them_by_page_evidence() -> None:
    # one comment per page repeats no unit across the set, and its text inherits the identifier
    # of its date line: the set kept no comment before
    pages = [Page(None, _page(i, _wordpress_list([NAMES[i]]))) for i in range(4)]
    results = extract_site(pages, DEFAULT)
    for i, result in enumerate(results):
        assert result.method == FALLBACK
        assert PAGE_EVIDENCE in result.warnings and NO_COMMENTS not in result.warnings
        assert [r.author for r in result.comment_records] == [NAMES[i]]
        assert f"Comment 0 from {NAMES[i]}" in result.comments[0]
        assert "whole afternoon" in result.post
    # its profile replays the step on a later page
    _, profile = extract_and_learn(pages[:3], DEFAULT)
    later = profile.extract(pages[3])
    assert any(f"Comment 0 from {NAMES[3]}" in c for c in later.comments)
    assert "whole afternoon" in later.post


def test_a_set_of_comment_free_pages_stays_without_comments() -> None:
    pages = [Page(None, _page(i, '<div id="respond"><h3>Leave a Reply</h3></div>')) for i in range(4)]
    for result in extract_site(pages, DEFAULT):
        assert result.comments == []
        assert NO_COMMENTS in result.warnings


def test_a_set_where_every_page_has_an_undated_disqus_list_finds_it() -> None:
    # no dates, so no repeated dated unit; the set's own verdict keeps nothing with text
    pages = [Page(None, _page(i, _disqus(i, NAMES[i : i + 3]))) for i in range(3)]
    for i, result in enumerate(extract_site(pages, DEFAULT)):
        assert result.method == FALLBACK
        assert any(f"{NAMES[i]} on {TOPICS[i]}" in c for c in result.comments)
        assert "a reply that only" not in result.post


def test_stress_modes_score_a_corpus_by_source(corpus_root, capsys) -> None:  # type: ignore[no-untyped-def]
    from extractor.evaluation.stress import main

    assert main(["commented", "--corpus", str(corpus_root), "--source", "wordpress", "--jobs", "1"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith("commented wordpress: post macro")
    assert "comments macro 1.0000" in line and "c-miss 0/60" in line


def test_stress_commented_modes_take_a_small_site(corpus_root, capsys) -> None:  # type: ignore[no-untyped-def]
    """``--pages 2``: each site's first two commented pages, as the crawl meets a new small site."""
    from extractor.evaluation.stress import main

    argv = ["commented-as-crawl", "--pages", "2", "--corpus", str(corpus_root), "--source", "wordpress"]
    assert main([*argv, "--jobs", "1"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    assert "comments macro 1.0000" in line and "c-miss 0/8 (4 sites)" in line
