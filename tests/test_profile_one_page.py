"""A profile learned from a set of one page (issue 30, item 3).

``evaluate --pipeline`` (and the crawl's provisional extraction) learns a profile from the first
half of a site's pages: one page on a small site. Such a set has no boilerplate and no separation,
so through its profile every later page kept its template as post and lost its comments. It now
reads each page as its set read the page it learned from: alone, by the page's own comment markup.
"""

from __future__ import annotations

from extractor import Page, extract_and_learn, extract_site
from tests.test_records_dates_after import theme_page


def test_a_one_page_profile_finds_the_comments_of_later_pages() -> None:
    pages = [theme_page(post, n) for post, n in enumerate([3, 4, 2])]
    first, profile = extract_and_learn([Page("http://blog.test/p0/", pages[0][0])])
    assert profile.pages == 1
    assert [r.text for r in first[0].comment_records] == [c["text"] for c in pages[0][1]]
    for post, (html, truth) in enumerate(pages[1:], start=1):
        page = Page(f"http://blog.test/p{post}/", html)
        result = profile.extract(page)
        assert [r.text for r in result.comment_records] == [c["text"] for c in truth]
        assert not any(c["text"] in result.post for c in truth)
        assert result.post == extract_site([page])[0].post  # as the page alone
