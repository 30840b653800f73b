"""One more template page for a new site, picked among its home page's links (crawler.templatelinks)."""

from __future__ import annotations

from crawler.templatelinks import ARCHIVE, PREVIOUS_ARTICLE, Anchor, TemplateLink, pick_template_link

HOME = "http://blog.example/journal/"


def test_a_previous_article_the_crawl_does_not_hold_comes_first() -> None:
    anchors = [
        Anchor("/journal/category/3/", "category tag"),
        Anchor("/journal/2026/11/newest/", "bookmark"),  # in the feed: one of the set's articles already
        Anchor("/journal/2026/10/older/#comments", "bookmark"),
    ]
    known = {"http://blog.example/journal/2026/11/newest/"}
    assert pick_template_link(anchors, HOME, known) == TemplateLink(
        "http://blog.example/journal/2026/10/older/", PREVIOUS_ARTICLE
    )


def test_without_one_an_archive_marked_as_one_before_one_found_by_its_path() -> None:
    anchors = [
        Anchor("/journal/2026/11/newest/", "bookmark"),
        Anchor("/journal/category/empty-maybe/", ""),
        Anchor("/journal/topics/gardening/", "tag"),
    ]
    known = {"http://blog.example/journal/2026/11/newest/"}
    assert pick_template_link(anchors, HOME, known) == TemplateLink(
        "http://blog.example/journal/topics/gardening/", ARCHIVE
    )
    assert pick_template_link(anchors[:2], HOME, known) == TemplateLink(
        "http://blog.example/journal/category/empty-maybe/", ARCHIVE
    )


def test_the_home_page_feeds_queries_other_hosts_and_pages_outside_the_blog_are_no_template_page() -> None:
    anchors = [
        Anchor("/journal/", "home"),
        Anchor("http://blog.example/journal/#content", ""),
        Anchor("/journal/feed/", "alternate"),
        Anchor("/journal/comments/feed/", ""),
        Anchor("/journal/2026/10/older/?replytocom=4", "bookmark"),
        Anchor("http://other.example/journal/2026/10/older/", "bookmark"),
        Anchor("/shop/category/shoes/", "tag"),
        Anchor("mailto:me@blog.example", ""),
        Anchor("/journal/about/", ""),  # a page, but neither an article nor a listing
    ]
    assert pick_template_link(anchors, HOME, set()) is None
