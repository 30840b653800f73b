"""Broken and hostile input among good feeds: the good ones are harvested, every failure is
logged once with its feed URL and counted, nothing outside http(s) is ever requested."""

from __future__ import annotations

import itertools
import re
import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, write_feeds

from farm import BlogFarm

pytestmark = pytest.mark.slow

HOUR = 3600.0
MiB = 1 << 20


def test_hostile_feeds_do_not_stop_the_good_ones(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    good = [
        farm.add_generated_blog("good", articles=4, start=t0 - 4 * HOUR, interval=HOUR, seed=1),
        farm.add_generated_blog(
            "sjis", articles=3, start=t0 - 3 * HOUR, interval=HOUR, seed=2, lang="ja", encoding="shift_jis"
        ),
        farm.add_generated_blog(
            "eucjp",
            articles=3,
            start=t0 - 3 * HOUR,
            interval=HOUR,
            seed=3,
            lang="ja",
            encoding="euc_jp",
            feed_format="atom",
        ),
    ]
    home = farm.add_generated_blog("home", articles=2, start=t0 - 2 * HOUR, interval=HOUR, seed=4)
    bad: dict[str, tuple[str, dict]] = {
        "e500": ("status", {"status": 500}),
        "e404": ("status", {"status": 404}),
        "gone": ("status", {"status": 410}),
        "htmlfeed": ("html_as_feed", {"body": b"<!DOCTYPE html><html><body><p>no feed here</p></body></html>"}),
        "broken": ("malformed", {"how": "invalid"}),
        "lol": ("entity_bomb", {"levels": 10}),
        "gzbomb": ("gzip_bomb", {"size": 256 * MiB}),
        "huge": ("huge", {"size": 40 * MiB, "chunked": True}),
        "slow": ("slow", {"delay": 8}),
        "drop": ("drop", {}),
        "toFile": ("redirect", {"location": "file:///etc/passwd", "status": 302}),
    }
    lines = [site.feed_line() for site in good] + [f"{home.home_url} home"]
    bad_urls = {}
    for name, (mode, opts) in bad.items():
        site = farm.add_site(name)
        farm.misbehave(site.feed_url, mode, **opts)
        bad_urls[name] = site.feed_url
        lines.append(f"{site.feed_url} {name}")
    robots = farm.add_site("robots")
    farm.add_route(robots, "/robots.txt", "User-agent: *\nDisallow: /\n", "text/plain")
    farm.add_route(robots, "/feed/", "<rss version='2.0'><channel><title>x</title></channel></rss>")
    lines.append(f"{robots.feed_url} robots")
    lines.append("http://127.0.0.1:1/feed/ refused")  # nothing listens on port 1
    lines.append("file:///etc/passwd local")  # refused when the feeds file is read
    feeds = write_feeds(tmp_path / "feeds.txt", lines)
    db = tmp_path / "blogs.db"

    result = run_crawl(feeds, db, clock=farm.clock, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    err = result.stderr
    assert "Run summary" in err
    # Every good article is stored, Japanese encodings included; the home page's feed was discovered.
    for site in [*good, home]:
        for article in site.articles:
            assert [r.status for r in farm.requests_for(article.url)] == [200], article.url
    stored = rows(db, "SELECT site, COUNT(*) FROM snapshots GROUP BY site ORDER BY site")
    assert stored == [("eucjp", 3), ("good", 4), ("home", 2), ("sjis", 3)]
    assert rows(db, "SELECT feed_url FROM feeds WHERE site = 'home'") == [(home.feed_url,)]
    titles = [t for (t,) in rows(db, "SELECT title FROM articles WHERE site IN ('sjis', 'eucjp')")]
    assert titles and all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", t) for t in titles), titles
    # Failures: each counted and logged once with its URL; 410 and robots.txt mute at once.
    failed = {"e500", "e404", "gone", "htmlfeed", "gzbomb", "huge", "slow", "drop", "toFile"}
    for name in failed:
        url = bad_urls[name]
        assert len([line for line in err.splitlines() if url in line and ("failed" in line or "muted" in line)]) == 1, (
            name
        )
    assert result.stat("feeds_failed") >= len(failed) + 2  # + robots, refused
    assert result.stat("feeds_failed/timeout") == 1 and result.stat("feeds_failed/too_big") == 2
    assert result.stat("redirects_refused") == 1
    assert result.stat("feeds_file_rejected") == 1
    muted = dict(rows(db, "SELECT site, mute_reason FROM feeds WHERE muted_at IS NOT NULL"))
    assert set(muted) == {"gone", "robots"}
    assert "410" in muted["gone"] and "robots.txt" in muted["robots"]
    assert rows(db, "SELECT last_error FROM feeds WHERE site = 'e500'")[0][0] == "HTTP 500"
    # The malformed and the entity-bomb feeds were read loosely and safely (no expansion stored).
    assert result.stat("feeds_bozo") >= 1
    assert rows(db, "SELECT MAX(LENGTH(title)) FROM articles")[0][0] < 1000
    assert "Traceback" not in err


def test_non_http_entry_links_and_redirects_are_refused(farm: BlogFarm, tmp_path: Path) -> None:
    farm.clock.set(time.time())
    site = farm.add_site("mixed")
    items = [
        ("ok", f"{site.origin}/ok/"),
        ("moved", f"{site.origin}/moved/"),
        ("js", "javascript:alert(document.cookie)"),
        ("file", "file:///etc/passwd"),
        ("data", "data:text/html;base64,PGgxPmhpPC9oMT4="),
        ("ftp", "ftp://127.0.0.1/pub/post.html"),
        ("mail", "mailto:someone@example.invalid"),
    ]
    body = "".join(f"<item><title>{t}</title><link><![CDATA[{link}]]></link></item>" for t, link in items)
    farm.add_route(site, "/feed/", f"<rss version='2.0'><channel><title>Mixed</title>{body}</channel></rss>")
    farm.add_route(site, "/ok/", "<html><body>fine</body></html>", "text/html")
    farm.misbehave(site.origin + "/moved/", "redirect", location="ftp://127.0.0.1/elsewhere", status=301)
    feeds = write_feeds(tmp_path / "feeds.txt", [f"{site.feed_url} mixed"])
    db = tmp_path / "blogs.db"

    result = run_crawl(feeds, db, clock=farm.clock)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stat("urls_refused") == 5
    assert {k.rsplit("/", 1)[1] for k in result.stats if k.startswith("blogs/urls_refused/")} == {
        "javascript",
        "file",
        "data",
        "ftp",
        "mailto",
    }
    # "/": the new site's home page, its template page
    assert sorted(r.path_only for r in farm.requests) == ["/", "/feed/", "/moved/", "/ok/", "/robots.txt"]
    assert result.stat("articles_failed/redirect_scheme") == 1
    assert rows(db, "SELECT url FROM snapshots") == [(f"{site.origin}/ok/",)]
    assert rows(db, "SELECT state FROM articles WHERE url LIKE '%/moved/'") == [("failed",)]


def test_robots_crawl_delay_is_honoured(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog("polite", articles=4, start=t0 - 4 * HOUR, interval=HOUR, seed=9)
    farm.add_route(blog, "/robots.txt", "User-agent: *\nCrawl-delay: 1\n", "text/plain")
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    result = run_crawl(feeds, tmp_path / "blogs.db", clock=farm.clock)
    assert result.returncode == 0
    times = sorted(r.wall_time for r in farm.requests if r.path_only != "/robots.txt")
    # feed + 4 articles + the home page and the archive page it links (a new site's template pages)
    assert len(times) == 7
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= 0.45, gaps  # Scrapy randomizes a slot delay by ±50 %
    assert sum(gaps) >= 3.0, gaps


def _dated_feed(origin: str, count: int, newest: float, ttl_minutes: int) -> str:
    from email.utils import formatdate

    items = "".join(
        f"<item><title>p{i}</title><link>{origin}/p{i}/</link>"
        f"<pubDate>{formatdate(newest - i * 3 * HOUR, usegmt=True)}</pubDate></item>"
        for i in range(count)
    )
    return f"<rss version='2.0'><channel><title>T</title><ttl>{ttl_minutes}</ttl>{items}</channel></rss>"


def test_backoff_retry_after_ttl_mute_and_unmute(farm: BlogFarm, tmp_path: Path) -> None:
    from store.clock import from_iso

    t0 = time.time()
    farm.clock.set(t0)
    flaky = farm.add_site("flaky")
    farm.misbehave(flaky.feed_url, "status", status=503, retry_after=7200)
    hinted = farm.add_site("hinted")  # 50 posts a week would mean a poll every 3.4 h; <ttl> asks for 6 h
    farm.add_route(hinted, "/feed/", _dated_feed(hinted.origin, 50, t0 - 60, 360))
    farm.misbehave("/p", "status", status=404, prefix=True)  # the posts themselves do not matter here
    feeds = write_feeds(tmp_path / "feeds.txt", [f"{flaky.feed_url} flaky", f"{hinted.feed_url} hinted"])
    db = tmp_path / "blogs.db"
    settings = {"BLOGS_MUTE_AFTER": "2"}

    first = run_crawl(feeds, db, settings=settings, clock=farm.clock)
    assert first.stat("feeds_failed/http_503") == 1
    state = dict(((s, (p, n)) for s, p, n in rows(db, "SELECT site, last_polled_at, next_check FROM feeds")))
    polled, next_check = (from_iso(v) or 0.0 for v in state["flaky"])
    assert next_check - polled >= 7200  # Retry-After wins over the first backoff step (2.5-5 min)
    polled, next_check = (from_iso(v) or 0.0 for v in state["hinted"])
    assert next_check - polled == pytest.approx(6 * HOUR, abs=2)

    # force=1 polls what is not due, but never a site before its Retry-After (issue 32).
    held = run_crawl(feeds, db, "-a", "force=1", settings=settings, clock=farm.clock)
    assert held.stat("feeds_failed") == 0 and len(farm.requests_for(flaky.feed_url)) == 1
    farm.clock.advance(7200 + 60)
    second = run_crawl(feeds, db, "-a", "force=1", settings=settings, clock=farm.clock)
    assert second.stat("feeds_muted") == 1
    reason = rows(db, "SELECT mute_reason FROM feeds WHERE site = 'flaky'")[0][0]
    assert reason.startswith("2 consecutive failures") and "503" in reason
    polls = len(farm.requests_for(flaky.feed_url))
    run_crawl(feeds, db, "-a", "force=1", settings=settings, clock=farm.clock)
    assert len(farm.requests_for(flaky.feed_url)) == polls  # muted: left alone, even when forced

    farm.behave(flaky.feed_url)
    farm.add_route(flaky, "/feed/", "<rss version='2.0'><channel><title>back</title></channel></rss>")
    farm.clock.advance(7200 + 60)  # past the last Retry-After
    revived = run_crawl(feeds, db, "-a", "unmute=flaky", settings=settings, clock=farm.clock)
    assert revived.stat("feeds_failed") == 0 and len(farm.requests_for(flaky.feed_url)) == polls + 1
    assert rows(db, "SELECT muted_at, failures FROM feeds WHERE site = 'flaky'") == [(None, 0)]
