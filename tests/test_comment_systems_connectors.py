"""Connectors for Remark42, Cusdis, Commento, utterances, Disqus and giscus (issue 31), on the farm's fake servers.

The farm serves blogs whose pages embed a family's documented snippet and, on the same site, the
family's public read API with the JSON shapes its documentation gives (farm.commentservers). The
parsers read real answers of those servers over HTTP; the end-to-end test runs `scrapy crawl`.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from crawl_helpers import rows, run_crawl, write_feeds

from crawler.connectors import CONNECTOR_PLANS, ConnectorSettings, answer_error, redact_key
from extractor.comments.commentsystems import CommentSystem, detect_comment_system
from farm import BlogFarm
from farm.commentservers import CommentBlog, CommentServer
from jobs.commentapi import PARSERS
from jobs.commentparsers import api_timestamp, disqus_comments
from store.commentsystems import CONNECTORS

POSTS = ["shooting-board", "bench-hook", "quiet-post"]


def get(url: str, body: bytes | None = None) -> dict[str, Any]:
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"} if body else {})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return {"url": url, "status": answer.status, "body": answer.read().decode("utf-8")}


def fetched_page(blog: CommentBlog, slug: str) -> bytes:
    with urllib.request.urlopen(blog.origin + blog.path(slug), timeout=10) as answer:
        return bytes(answer.read())


def read_thread(blog: CommentBlog, slug: str, family: str) -> list[dict[str, Any]]:
    """Detect the page's system, then follow the connector's requests to the end, as the crawler does."""
    system = detect_comment_system(fetched_page(blog, slug), blog.origin + blog.path(slug))
    assert system.name == family
    plan = CONNECTOR_PLANS[family]
    pending = [plan.first(system, 100, ConnectorSettings(github_api=blog.origin))]
    responses = []
    while pending:
        url = pending.pop(0)
        assert url is not None
        responses.append(get(url, plan.post(system, blog.origin + blog.path(slug)) if plan.post else None))
        pending += plan.more(json.loads(responses[-1]["body"]), url, system, 100)
    return responses


def conversation(server: CommentServer, path: str) -> dict[str, int]:
    """Ann, Bob replying to Ann, Cy replying to Bob, Dee: their ids by author."""
    ann = server.add(path, "Ann", "Nice jig, what angle did you plane the fence to?", at=1_714_557_600.0)
    bob = server.add(path, "Bob", "Ninety degrees, checked with a square.", ann.id, at=1_714_557_660.0)
    cy = server.add(path, "Cy", "Which square, the engineer's one?", bob.id, at=1_714_557_720.0)
    dee = server.add(path, "Dee", "I glued sandpaper under mine.", at=1_714_557_690.0)
    return {"Ann": ann.id, "Bob": bob.id, "Cy": cy.id, "Dee": dee.id}


def shape(records: list[dict[str, Any]]) -> list[tuple[str, str | None, str | None]]:
    """(author, parent's author, date) in thread order."""
    by_fp = {r["fingerprint"]: r for r in records}
    return [(r["author"], by_fp[r["parent"]]["author"] if r["parent"] else None, r["date"]) for r in records]


THREADED = [
    ("Ann", None, "2024-05-01T10:00:00.000Z"),
    ("Bob", "Ann", "2024-05-01T10:01:00.000Z"),
    ("Cy", "Bob", "2024-05-01T10:02:00.000Z"),
    ("Dee", None, "2024-05-01T10:01:30.000Z"),
]
# GitHub Discussions (giscus) nest one level: a reply to a reply answers the top comment.
ONE_LEVEL = [
    ("Ann", None, "2024-05-01T10:00:00.000Z"),
    ("Bob", "Ann", "2024-05-01T10:01:00.000Z"),
    ("Cy", "Ann", "2024-05-01T10:02:00.000Z"),
    ("Dee", None, "2024-05-01T10:01:30.000Z"),
]
# GitHub issue comments (utterances) have no replies: the thread in time order.
FLAT = [
    ("Ann", None, "2024-05-01T10:00:00.000Z"),
    ("Bob", None, "2024-05-01T10:01:00.000Z"),
    ("Dee", None, "2024-05-01T10:01:30.000Z"),
    ("Cy", None, "2024-05-01T10:02:00.000Z"),
]


@pytest.mark.parametrize(
    ("family", "expected"),
    [("remark42", THREADED), ("cusdis", THREADED), ("commento", THREADED), ("giscus", ONE_LEVEL), ("utterances", FLAT)],
)
def test_a_thread_read_from_the_fake_server_keeps_authors_dates_and_replies(
    farm: BlogFarm, family: str, expected: list[tuple[str, str | None, str]]
) -> None:
    _, blog = farm.add_comment_blog(f"{family}-blog", family, POSTS)
    conversation(blog.comments, blog.path("shooting-board"))
    records = PARSERS[family](read_thread(blog, "shooting-board", family))
    assert shape(records) == expected
    assert records[0]["text"] == "Nice jig, what angle did you plane the fence to?"
    if CONNECTOR_PLANS[family].missing_is_empty:  # giscus: no discussion until the first comment
        with pytest.raises(urllib.error.HTTPError, match="404"):
            read_thread(blog, "quiet-post", family)
    else:
        assert PARSERS[family](read_thread(blog, "quiet-post", family)) == []


def test_cusdis_pages_are_all_read_and_a_deleted_remark42_comment_keeps_its_replies(farm: BlogFarm) -> None:
    _, cusdis = farm.add_comment_blog("cusdis-blog", "cusdis", POSTS, page_size=3)
    path = cusdis.path("bench-hook")
    for n in range(8):
        cusdis.comments.add(path, f"Reader{n}", f"Comment number {n} about the bench hook.", at=1_714_557_600.0 + n)
    responses = read_thread(cusdis, "bench-hook", "cusdis")
    assert [r["url"].rsplit("page=", 1)[1] for r in responses] == ["1", "2", "3"]
    assert [r["author"] for r in PARSERS["cusdis"](responses)] == [f"Reader{n}" for n in range(8)]

    _, remark = farm.add_comment_blog("remark-blog", "remark42", POSTS)
    ids = conversation(remark.comments, remark.path("bench-hook"))
    remark.comments.delete(ids["Bob"])
    records = PARSERS["remark42"](read_thread(remark, "bench-hook", "remark42"))
    assert [(a, p) for a, p, _ in shape(records)] == [("Ann", None), ("Cy", "Ann"), ("Dee", None)]


def test_utterances_pages_through_an_issue_and_sends_the_token_to_github_only(farm: BlogFarm) -> None:
    _, blog = farm.add_comment_blog("utterances-blog", "utterances", POSTS)
    path = blog.path("bench-hook")
    for n in range(5):
        blog.comments.add(path, f"reader{n}", f"Comment number {n} about the bench hook.", at=1_714_557_600.0 + n)
    system = detect_comment_system(fetched_page(blog, "bench-hook"), blog.origin + path)
    plan, settings = CONNECTOR_PLANS["utterances"], ConnectorSettings(github_api=blog.origin, github_token="t0k")
    pending, responses = [plan.first(system, 2, settings)], []
    while pending:
        url = pending.pop(0)
        assert url is not None
        responses.append(get(url))
        pending += plan.more(json.loads(responses[-1]["body"]), url, system, 2)
    assert len(responses) == 1 + 3  # the search, then pages of 2, 2 and 1 comments
    assert [r["author"] for r in PARSERS["utterances"](responses)] == [f"reader{n}" for n in range(5)]
    assert settings.headers(responses[1]["url"]) == {"Authorization": "Bearer t0k"}
    assert settings.headers("https://elsewhere.example/api") == {}


def test_disqus_reads_follow_the_cursor_and_never_store_the_key() -> None:
    system = CommentSystem("disqus", "https://disqus.com", "post-42", "woodshop")
    plan = CONNECTOR_PLANS["disqus"]
    assert plan.first(system, 100, ConnectorSettings()) is None  # no key: no request
    assert plan.needs(ConnectorSettings()) == "disqus key"
    first = plan.first(system, 500, ConnectorSettings(disqus_key="pUbLiCkEy"))
    assert first is not None and "thread%3Aident=post-42" in first and "limit=100" in first
    answer = {"code": 0, "cursor": {"hasNext": True, "next": "1714557600:0:0"}, "response": []}
    (following,) = plan.more(answer, first, system, 100)
    assert "cursor=1714557600%3A0%3A0" in following
    assert plan.more({**answer, "cursor": {"hasNext": False, "next": None}}, following, system, 100) == []
    assert "pUbLiCkEy" not in redact_key(following) and "forum=woodshop" in redact_key(following)
    posts = [
        {
            "id": "7",
            "parent": None,
            "message": "<p>First!</p>",
            "author": {"name": "Ann"},
            "createdAt": "2024-05-01T10:00:00",
        },
        {
            "id": "8",
            "parent": 7,
            "message": "<p>Second.</p>",
            "author": {"name": "Bob"},
            "createdAt": "2024-05-01T10:05:00",
        },
    ]
    records = disqus_comments([{"body": json.dumps({"cursor": {"hasNext": False}, "response": posts})}])
    assert shape(records) == [("Ann", None, "2024-05-01T10:00:00.000Z"), ("Bob", "Ann", "2024-05-01T10:05:00.000Z")]


def test_every_connector_the_store_knows_has_a_plan_and_a_parser() -> None:
    assert set(CONNECTORS) <= set(CONNECTOR_PLANS)
    assert set(CONNECTORS) <= set(PARSERS)
    assert api_timestamp("2024-05-01T10:00:00.123456789-02:00") == pytest.approx(1_714_564_800.123456)
    assert api_timestamp("yesterday") is None
    # A 200 that refuses: not an empty thread.
    assert answer_error({"success": False, "message": "This domain is not registered."}) is not None
    assert answer_error({"code": 5, "response": "Invalid API key"}) == "Invalid API key"
    assert answer_error({"comments": [], "info": {"count": 0}}) is None
    assert answer_error([]) is None


@dataclass
class _Later:
    """A clock `offset` seconds ahead of the system's (what crawl_helpers.clock_offset reads)."""

    offset: float

    def now(self) -> float:
        return time.time() + self.offset


def states(db: Path) -> dict[str, tuple[str, str]]:
    """article URL -> (comment_system, comments_state)."""
    return {
        url: (system, state)
        for url, system, state in rows(db, "SELECT url, comment_system, comments_state FROM articles")
    }


@pytest.mark.slow
def test_a_crawl_harvests_remark42_and_cusdis_threads_and_says_disqus_needs_a_key(
    farm: BlogFarm, tmp_path: Path
) -> None:
    remark_site, remark = farm.add_comment_blog("remark-blog", "remark42", POSTS)
    cusdis_site, cusdis = farm.add_comment_blog("cusdis-blog", "cusdis", POSTS, page_size=2)
    ids = conversation(remark.comments, remark.path("shooting-board"))
    conversation(cusdis.comments, cusdis.path("bench-hook"))
    cusdis.comments.add(cusdis.path("bench-hook"), "Eve", "A third top-level comment, on page two.")
    github_site, github = farm.add_comment_blog("utterances-blog", "utterances", POSTS)
    github.comments.add(github.path("quiet-post"), "octocat", "Issue comments count too.")
    giscus_site, giscus = farm.add_comment_blog("giscus-blog", "giscus", POSTS, page_size=1)
    for author in ("Ivy", "Jo", "Kim"):  # three top-level comments: three pages of one
        giscus.comments.add(giscus.path("shooting-board"), author, f"{author} read this through giscus.")
    commento_site, commento = farm.add_comment_blog("commento-blog", "commento", POSTS)
    first = commento.comments.add(commento.path("bench-hook"), "Gil", "Posted to Commento, read with a POST.")
    commento.comments.add(commento.path("bench-hook"), "Hal", "A reply read the same way.", first.id)
    disqus = farm.add_site("disqus-blog")
    page = (
        "<html><head><title>A post</title></head><body><article><h1>A post</h1><p>"
        + "Words about a jig. " * 40
        + '</p></article><div id="disqus_thread"></div><script>var disqus_config = function () {'
        ' this.page.identifier = "post-9"; };</script>'
        '<script src="https://woodshop.disqus.com/embed.js"></script></body></html>'
    )
    farm.add_route(disqus, "/2024/05/a-post/", page, content_type="text/html; charset=utf-8")
    feed = (
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>D</title><link>{disqus.origin}/</link>'
        f"<item><title>A post</title><link>{disqus.origin}/2024/05/a-post/</link>"
        f"<guid>{disqus.origin}/2024/05/a-post/</guid><pubDate>{time.strftime('%a, %d %b %Y %H:%M:%S +0000', time.gmtime(time.time() - 600))}</pubDate></item>"  # noqa: E501
        "</channel></rss>"
    )
    farm.add_route(disqus, "/feed/", feed)
    sites = [remark_site, cusdis_site, github_site, commento_site, giscus_site, disqus]
    feeds = write_feeds(tmp_path / "feeds.txt", [s.feed_line() for s in sites])
    db = tmp_path / "blogs.db"
    settings = {"BLOGS_EXTRACT_MODE": "thread", "BLOGS_GITHUB_API": github.origin, "BLOGS_COMMENT_API_PAGE_SIZE": "1"}
    result = run_crawl(feeds, db, settings=settings)
    assert result.returncode == 0, result.stderr[-3000:]

    cols = "article, author, text, parent, fingerprint, source, gone_at"
    found = [
        dict(zip(cols.split(", "), r, strict=True))
        for r in rows(db, f"SELECT {cols} FROM comments ORDER BY article, position")
    ]
    by_fp = {c["fingerprint"]: c for c in found}
    got = {
        (c["article"].split("/", 3)[3], c["author"], by_fp[c["parent"]]["author"] if c["parent"] else None, c["source"])
        for c in found
    }
    assert got == {
        ("2024/05/shooting-board/", "Ann", None, "api:remark42"),
        ("2024/05/shooting-board/", "Bob", "Ann", "api:remark42"),
        ("2024/05/shooting-board/", "Cy", "Bob", "api:remark42"),
        ("2024/05/shooting-board/", "Dee", None, "api:remark42"),
        ("2024/05/bench-hook/", "Ann", None, "api:cusdis"),
        ("2024/05/bench-hook/", "Bob", "Ann", "api:cusdis"),
        ("2024/05/bench-hook/", "Cy", "Bob", "api:cusdis"),
        ("2024/05/bench-hook/", "Dee", None, "api:cusdis"),
        ("2024/05/bench-hook/", "Eve", None, "api:cusdis"),
        ("2024/05/quiet-post/", "octocat", None, "api:utterances"),
        ("2024/05/bench-hook/", "Gil", None, "api:commento"),
        ("2024/05/bench-hook/", "Hal", "Gil", "api:commento"),
        ("2024/05/shooting-board/", "Ivy", None, "api:giscus"),
        ("2024/05/shooting-board/", "Jo", None, "api:giscus"),
        ("2024/05/shooting-board/", "Kim", None, "api:giscus"),
    }
    assert rows(db, "SELECT comment_system, comments_state FROM articles WHERE url LIKE '%a-post/'") == [
        ("disqus", "not-harvested: needs disqus key")
    ]
    assert sorted(set(states(db).values())) == [
        ("commento", "harvested"),
        ("commento", "none"),
        ("cusdis", "harvested"),
        ("cusdis", "none"),
        ("disqus", "not-harvested: needs disqus key"),
        ("giscus", "harvested"),
        ("giscus", "none"),
        ("remark42", "harvested"),
        ("remark42", "none"),
        ("utterances", "harvested"),
        ("utterances", "none"),
    ]

    # A re-fetch reads the threads again: an edit is a version, a deleted comment is gone, no duplicates.
    remark.comments.edit(ids["Dee"], "I glued fine sandpaper under mine.")
    remark.comments.delete(ids["Cy"])
    second = run_crawl(feeds, db, settings=settings, clock=_Later(4000))
    assert second.returncode == 0, second.stderr[-3000:]
    article = remark.origin + remark.path("shooting-board")
    remark_rows = rows(db, "SELECT author, text, gone_at FROM comments WHERE article = ? ORDER BY author", [article])
    assert [(a, t, g is not None) for a, t, g in remark_rows] == [
        ("Ann", "Nice jig, what angle did you plane the fence to?", False),
        ("Bob", "Ninety degrees, checked with a square.", False),
        ("Cy", "Which square, the engineer's one?", True),
        ("Dee", "I glued fine sandpaper under mine.", False),
    ]
    assert rows(db, "SELECT text FROM comment_versions") == [("I glued sandpaper under mine.",)]


@pytest.mark.slow
def test_a_failed_endpoint_read_falls_back_to_rendering_in_chromium(farm: BlogFarm, tmp_path: Path) -> None:
    # The server refuses clients that are no browser (a bot firewall): the crawl's read fails, a browser's passes.
    site, blog = farm.add_comment_blog("remark-guarded", "remark42", POSTS, browsers_only=True)
    conversation(blog.comments, blog.path("shooting-board"))
    feeds = write_feeds(tmp_path / "feeds.txt", [site.feed_line()])
    db = tmp_path / "blogs.db"
    settings = {"BLOGS_EXTRACT_MODE": "thread", "BLOGS_RENDER_COMMENTS": "60"}
    result = run_crawl(feeds, db, settings=settings, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stat("comment_api/remark42/failed") == len(POSTS)
    assert result.stat("render/after_failed_read") == len(POSTS)
    assert result.stat("render/rendered") == len(POSTS)
    cols = "author, parent, fingerprint, source, date"
    found = [dict(zip(cols.split(", "), r, strict=True)) for r in rows(db, f"SELECT {cols} FROM comments")]
    by_fp = {c["fingerprint"]: c for c in found}
    got = {(c["author"], by_fp[c["parent"]]["author"] if c["parent"] else None, c["source"]) for c in found}
    assert got == {
        ("Ann", None, "rendered"),
        ("Bob", "Ann", "rendered"),
        ("Cy", "Bob", "rendered"),
        ("Dee", None, "rendered"),
    }
    assert all(c["date"] for c in found)
    article = blog.origin + blog.path("shooting-board")
    assert {url: s for url, s in states(db).items() if url != article} == {
        blog.origin + blog.path(slug): ("remark42", "none") for slug in POSTS if slug != "shooting-board"
    }
    assert states(db)[article] == ("remark42", "harvested")
