"""The named steps of extractor/separation/steps.py that a set (method.classify) and a site profile share."""

from __future__ import annotations

from extractor import DEFAULT, PAPER, Page, extract_site, learn_profile
from extractor.separation.method import classify, read_set
from extractor.separation.steps import (
    NO_COMMENTS,
    drop_link_dense,
    drop_metadata,
    feed_comment_region,
    keep_post_links,
)

PAGES = [
    Page(
        None,
        b"<body><div id=nav><a href=/>Home</a></div><div id=post><p>Post number %d about tea</p>"
        b"<p><a href=/x>a link in post %d</a></p></div><div id=date>May %d</div></body>" % (i, i, i + 1),
    )
    for i in range(3)
]


def test_the_main_post_identifier_keeps_its_links_and_metadata_is_boilerplate() -> None:
    content, unique, idents = [[True, False, True]], [[True, True, True]], [["#post", "#post", "#date"]]
    assert keep_post_links(content, unique, idents, "#post") == [[True, True, True]]
    assert drop_metadata(content, idents, {"#date"}) == [[True, False, False]]


def test_steps_that_have_nothing_to_do_hand_back_their_input() -> None:
    content = [[True, False]]
    assert keep_post_links(content, [[True, True]], [["a", "b"]], None) is content
    assert drop_metadata(content, [["a", "b"]], set()) is content
    assert drop_link_dense([[]], content, PAPER) is content
    assert feed_comment_region([[]], [["post", "post"]], [["a", "b"]], [[(), ()]], [()]) is None


def test_a_set_and_its_profile_agree_on_a_new_page() -> None:
    set_result = extract_site(PAGES, DEFAULT)
    profile = learn_profile(PAGES[:2], DEFAULT)
    page = profile.roles(read_set(PAGES[2:], DEFAULT)[0])
    assert page.template_match is not None and 0 < page.template_match < 1
    assert profile.extract(PAGES[2]).post == set_result[2].post
    assert "a link in post 2" in set_result[2].post and "May 3" not in set_result[2].post


def test_a_set_without_comments_says_so() -> None:
    site = classify(read_set(PAGES, DEFAULT), DEFAULT)
    assert NO_COMMENTS in site.warnings and site.method == "set"
