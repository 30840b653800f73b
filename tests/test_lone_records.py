"""D19 (issue 30, item 3): a set whose one commented page holds a single comment shows no repeated
comment unit; its comment is still a record (method.lone_records).

The crawl pipeline's first sets are small: one commented page among comment-free ones is common.
Without a repeated unit the set kept the comment section as loose blocks, so the section's heading
("One response to …") and the author line were comment texts of their own.
"""

from __future__ import annotations

from extractor import DEFAULT, Page, extract_site
from tests.test_records_dates_after import theme_page


def test_a_lone_comment_in_a_set_is_one_record() -> None:
    site = [theme_page(post, n) for post, n in enumerate([0, 0, 1, 0])]
    pages = [Page(f"http://blog.test/p{i}/", html) for i, (html, _) in enumerate(site)]
    truth = site[2][1][0]
    # D22 (records_only, issue 28) reaches the same record on its own: without both, the heading and
    # the author line were comments of their own
    before = extract_site(pages, DEFAULT.but(lone_records=False, records_only=False))[2]
    assert before.comments != [truth["text"]]
    for options in (DEFAULT, DEFAULT.but(records_only=False), DEFAULT.but(lone_records=False)):
        assert extract_site(pages, options)[2].comments == [truth["text"]]
    result = extract_site(pages, DEFAULT)[2]
    assert result.comments == [truth["text"]]
    (record,) = result.comment_records
    assert (record.author, record.date) == (truth["author"], "2026-03-03")
    assert truth["author"] in result.comment_section  # the section as shown keeps the author line
    assert all(r.comments == [] for i, r in enumerate(extract_site(pages, DEFAULT)) if i != 2)
