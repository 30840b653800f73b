"""A page truly alone (issue 28): the seeds' single-page methods narrow the post to the main region."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractor import DEFAULT, Page, extract_site
from extractor.cli import main
from extractor.core.blocks import parse_blocks
from extractor.core.roles import BOILERPLATE, COMMENT, POST
from extractor.separation.single_page import (
    SINGLE_PAGE_STEPS,
    cell_weight,
    comment_forms,
    gupta_emptied_labels,
    gupta_link_density,
    information_quantity_boundary,
    weight_map_main_node,
)
from extractor.speedups import subtree_sizes

ARTICLE = " ".join(["The seedlings came up in five days and the tray stayed warm on the windowsill."] * 4)
PAGE = f"""<html><body>
<div id="masthead"><h1 class="site"><a href="/">Garden Notes</a></h1><p>A blog about small gardens</p></div>
<ul id="menu"><li><a href="/">Home</a></li><li><a href="/about">About the author</a></li></ul>
<main><article><h2>Small wins: the tray of seedlings</h2>
<p>{ARTICLE}</p><p>{ARTICLE}</p></article>
<div id="comments"><h3>2 Comments</h3><ol class="comment-list">
<li class="comment"><p class="author">Ann says:</p><p class="date">March 2, 2024 at 9:14 am</p>
<div class="text"><p>Lovely tray, what soil do you use?</p></div></li>
<li class="comment"><p class="author">Bob says:</p><p class="date">March 3, 2024 at 10:02 am</p>
<div class="text"><p>Mine came up in a week.</p></div></li>
</ol></div>
<div class="related"><p>You might also like these posts from our archive of garden projects and stories.</p></div>
</main>
<aside class="sidebar"><h2>Archives</h2><p>August 2012 (4)\nJuly 2012 (7)\nJune 2012 (3)\nMay 2012 (9)</p>
<div class="widget recent-comments"><h2>Recent Comments</h2><ol>
<li class="c"><p>Eve on Tomatoes</p><p>May 2, 2024</p><p>Great harvest this year!</p></li>
<li class="c"><p>Tom on Beans</p><p>May 3, 2024</p><p>Beans again, love it.</p></li></ol></div></aside>
<div id="footer"><p>Copyright Garden Notes. Newsletter: subscribe for monthly garden tips by email.</p></div>
</body></html>"""


def test_a_page_alone_keeps_its_article_and_its_comments_only() -> None:
    [result] = extract_site([Page(None, PAGE.encode())], DEFAULT)
    assert result.post.startswith("Small wins: the tray of seedlings")
    assert ARTICLE in result.post
    for boilerplate in ("Garden Notes", "About the author", "August 2012", "You might also like", "Newsletter"):
        assert boilerplate not in result.post
    assert [(r.author, r.text) for r in result.comment_records] == [
        ("Ann", "Lovely tray, what soil do you use?"),
        ("Bob", "Mine came up in a week."),
    ]


def test_without_the_steps_the_page_alone_keeps_its_template() -> None:
    [result] = extract_site([Page(None, PAGE.encode())], DEFAULT.but(single_page_methods=False))
    assert "Garden Notes" in result.post and "August 2012" in result.post and "Newsletter" in result.post


def test_short_lines_and_link_text_weigh_against_a_region() -> None:
    blocks = {b.text: b for b in parse_blocks(PAGE, {}) if b.text}
    assert cell_weight(blocks[ARTICLE]) > 0
    assert cell_weight(blocks["August 2012 (4)\nJuly 2012 (7)\nJune 2012 (3)\nMay 2012 (9)"]) < 0
    assert cell_weight(blocks["About the author"]) < 0


def test_the_steps_are_named_after_their_papers_in_order() -> None:
    assert (
        weight_map_main_node,
        gupta_link_density,
        information_quantity_boundary,
        gupta_emptied_labels,
    ) == SINGLE_PAGE_STEPS


def test_comments_in_a_complementary_region_are_not_the_pages() -> None:
    blocks = parse_blocks(PAGE, {})
    roles = [POST if b.text else BOILERPLATE for b in blocks]
    for b in blocks:
        if b.text in ("Lovely tray, what soil do you use?", "Great harvest this year!"):
            roles[b.index] = COMMENT
    out = information_quantity_boundary(blocks, roles)
    kept = [b.text for b in blocks if out[b.index] == COMMENT]
    assert kept == ["Lovely tray, what soil do you use?"]
    # after the comments begin, post blocks outside their region are no post
    related = [b for b in blocks if b.text.startswith("You might also like")]
    assert related and all(out[b.index] != POST for b in related)


def test_the_cli_on_one_file_uses_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "page.html"
    path.write_text(PAGE, encoding="utf-8")
    assert main(["extract", str(path)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["method"] == "single page"
    assert "About the author" not in row["post"] and ARTICLE in row["post"]


SHORT_POST = "<p>Wow, just wow. The best pizza commercial ever made, with a song.</p>"
FORM_PAGE = f"""<html><body>
<div id="main"><article><h1>A pizza commercial</h1>{SHORT_POST}<iframe src="/video"></iframe></article>
<div id="respond"><h3>Leave a Reply</h3>
<form id="commentform"><p>Your email address will not be published. Required fields are marked *</p>
<p><label>Name *</label><input name="author"></p><p><label>Email *</label><input name="email"></p>
<p><label>Website</label><input name="url"></p><p><label>Comment</label><textarea name="c"></textarea></p>
<p>You may use these HTML tags and attributes: a abbr acronym b blockquote cite code del em i q strike strong</p>
</form></div>
<div class="share"><h3>Share this:</h3>
<ul><li><a href="/t">Twitter</a></li><li><a href="/f">Facebook</a></li></ul></div>
</div>
<ul id="menu"><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul>
</body></html>"""


def test_a_comment_form_is_no_content_and_begins_the_comment_section() -> None:
    [result] = extract_site([Page(None, FORM_PAGE.encode())], DEFAULT)
    assert result.post == "A pizza commercial\nWow, just wow. The best pizza commercial ever made, with a song."


def test_a_form_around_the_whole_page_is_no_comment_form() -> None:
    paragraphs = "".join(f"<p>{ARTICLE}</p>" for _ in range(6))  # an ASP.NET page: one form holds it all
    blocks = parse_blocks(f"<html><body><form>{paragraphs}<textarea></textarea></form></body></html>")
    assert comment_forms(blocks, subtree_sizes(blocks)) == []
    small = parse_blocks(FORM_PAGE)
    [form] = comment_forms(small, subtree_sizes(small))
    assert small[form.start].element_id == "commentform"


def test_a_label_heading_whose_section_was_emptied_goes_and_a_heading_over_text_stays() -> None:
    html = (
        f"<body><h2>Title</h2><p>{ARTICLE}</p><h3>Ingredients:</h3><p>{ARTICLE}</p>"
        "<h3>Share this:</h3><ul><li>x</li></ul></body>"
    )
    blocks = parse_blocks(html)
    roles = [POST if b.text and b.tag != "li" else BOILERPLATE for b in blocks]
    out = gupta_emptied_labels(blocks, roles)
    assert [b.text for b in blocks if out[b.index] == POST] == ["Title", ARTICLE, "Ingredients:", ARTICLE]


RELATED = "".join(f'<li><a href="/p{i}">Another story about the race, number {i}</a></li>' for i in range(12))
NEWS_PAGE = f"""<html><body><ul id="nav"><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<div class="story"><h1>Candidate will not concede</h1>
<p>The count goes on in the state race, and the candidate <a href="/x">said</a> so on Tuesday night.</p>
<p>{ARTICLE}</p><p>The paper also ran ads for the referendum, a short paragraph.</p>
<h4>Related Posts</h4><ul>{RELATED}</ul>
</div></body></html>"""


def test_the_main_paragraphs_siblings_that_weigh_for_content_are_post_too() -> None:
    [result] = extract_site([Page(None, NEWS_PAGE.encode())], DEFAULT)
    assert "The count goes on" in result.post and "a short paragraph" in result.post and ARTICLE in result.post
    assert "Another story" not in result.post and "Home" not in result.post
