"""A page truly alone (issue 28): the seeds' single-page methods narrow the post to the main region."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractor import DEFAULT, Page, extract_site
from extractor.blocks import parse_blocks
from extractor.cli import main
from extractor.roles import BOILERPLATE, COMMENT, POST
from extractor.single_page import (
    SINGLE_PAGE_STEPS,
    cell_weight,
    gupta_link_density,
    information_quantity_boundary,
    weight_map_main_node,
)

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
    assert (weight_map_main_node, gupta_link_density, information_quantity_boundary) == SINGLE_PAGE_STEPS


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
