"""Template pages (issue 28, "a site is never one page"): where a blog's home page is, how it is
stored, and what a provisional set says it was made of. The crawl itself: test_crawl_provisional.py."""

from __future__ import annotations

from test_store_schema import NOW, add_page

from crawler.articlefetching import home_page_url
from jobs.extraction import set_made_of, set_templates
from store import open_store


def test_the_home_page_is_above_the_feed_or_the_root_of_the_articles_host() -> None:
    assert home_page_url("http://127.0.0.1:8000/feed/") == "http://127.0.0.1:8000/"
    assert home_page_url("https://ex.org/blog/feed/") == "https://ex.org/blog/"
    assert home_page_url("https://ex.org/blog/feed/atom/") == "https://ex.org/blog/"
    assert home_page_url("https://ex.org/index.xml") == "https://ex.org/"
    # A feed elsewhere (a feed service): the articles' host.
    assert home_page_url("https://feeds.example.net/someblog", "https://someblog.org/2024/05/a/") == (
        "https://someblog.org/"
    )
    assert home_page_url("ftp://ex.org/feed/") is None


def test_a_template_page_is_stored_once_per_url_and_read_back(fresh_db: str) -> None:
    with open_store(fresh_db) as store:
        add_page(store, "http://h/a", b"<html>article</html>")  # the site exists
        assert not store.has_template_page("h") and store.template_pages("h") == []
        headers = {"Content-Type": ["text/html; charset=utf-8"]}
        first = store.save_template_page(
            site="h", url="http://h/", status=200, headers=headers, body=b"<html>home</html>", fetched_at=NOW
        )
        again = store.save_template_page(
            site="h", url="http://h/", status=200, headers=headers, body=b"<html>home 2</html>", fetched_at=NOW + 60
        )
        assert first == again and store.has_template_page("h")
        home = {"url": "http://h/", "headers": headers, "body": b"<html>home 2</html>", "kind": "home page"}
        assert store.template_pages("h") == [home]
        store.save_template_page(
            site="h",
            url="http://h/2026/o/",
            status=200,
            headers={},
            body=b"old",
            fetched_at=NOW,
            kind="previous article",
        )
        assert [(t["url"], t["kind"]) for t in store.template_pages("h")] == [
            ("http://h/", "home page"),
            ("http://h/2026/o/", "previous article"),
        ]
        # Not a post, not an article page.
        assert store.db.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] == 1


def test_a_provisional_set_says_what_it_was_made_of() -> None:
    assert set_made_of(1) == "set of 1 article"
    assert set_made_of(1, ["home page"]) == "set of 1 article + 1 template page (home page)"
    made_of = set_made_of(4, ["home page", "archive page"])
    assert made_of == "set of 4 articles + 2 template pages (home page, archive page)"


def test_a_set_holds_the_articles_kind_else_listing_pages_beside_two_articles_or_more() -> None:
    home = {"url": "http://h/", "kind": "home page"}
    archive = {"url": "http://h/category/1/", "kind": "archive page"}
    previous = {"url": "http://h/2026/o/", "kind": "previous article"}
    assert set_templates([home, previous], 1) == [previous]
    assert set_templates([home, previous], 4) == [previous]
    assert set_templates([home, archive], 1) == []
    assert set_templates([home, archive], 2) == [home, archive]
    assert set_templates([], 3) == []
