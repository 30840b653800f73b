"""Re-fetch schedule end to end: on time by a controlled clock, skipped when nothing changed,
stopped after the last offset; watch mode sleeps until due and stops cleanly on SIGTERM."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, start_crawl, stop, wait_for, write_feeds

from farm import BlogFarm
from store.lockfile import RunLock

pytestmark = pytest.mark.slow

HOUR = 3600.0
DAY = 86400.0


def test_refetches_follow_the_schedule_and_stop(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    # Three comments each, all arriving 30 min after publication.
    blog = farm.add_generated_blog(
        "gen", articles=2, start=t0 - 60, interval=30, seed=2, comments_per_article=(3, 3), comment_delays=(1800, 1800)
    )
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    # An HTTP cache is on: re-fetches and feed polls must bypass it (meta dont_cache).
    settings = {
        "BLOGS_REFETCH_AFTER": "1h,6h,1d",
        "HTTPCACHE_ENABLED": "True",
        "HTTPCACHE_DIR": str(tmp_path / "cache"),
    }
    # The feed is polled at most daily, so the 6 h and 1 d re-fetches ask the comment feed (a feed
    # polled in the same run would answer them from slash:comments, without a request).
    settings["BLOGS_FEED_MIN_INTERVAL"] = "86400"
    pages = {a.url: a for a in blog.articles}

    def run_at(when: float) -> None:
        farm.clock.set(when)
        result = run_crawl(feeds, db, settings=settings, clock=farm.clock)
        assert result.returncode == 0, result.stderr[-3000:]

    run_at(t0)  # first fetch, no comments yet
    run_at(t0 + HOUR + 10)  # 1 h: the comment feed changed -> page re-fetched
    run_at(t0 + 6 * HOUR + 10)  # 6 h: comment feed unchanged (304) -> skipped
    run_at(t0 + DAY + 10)  # 1 d: unchanged -> skipped, schedule over
    run_at(t0 + 30 * DAY)  # nothing left to do for these articles
    for url, article in pages.items():
        fetches = farm.requests_for(url)
        assert [r.status for r in fetches] == [200, 200], url
        assert fetches[0].clock_time < article.published + 1800  # before the comments
        assert fetches[1].clock_time >= article.published + HOUR  # not before the 1 h offset
        checks = farm.requests_for(url + "feed/")
        assert [r.status for r in checks] == [200, 304, 304]
        assert checks[1].clock_time >= article.published + 6 * HOUR
        assert checks[2].clock_time >= article.published + DAY
    assert rows(db, "SELECT state, next_fetch_at, fetches, refetches_skipped FROM articles") == [
        ("done", None, 2, 2),
        ("done", None, 2, 2),
    ]
    assert rows(db, "SELECT kind, COUNT(*) FROM snapshots GROUP BY kind ORDER BY kind") == [
        ("first", 2),
        ("refetch", 2),
    ]


def _feed_with_slash(origin: str, comments: int) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" '
        'xmlns:slash="http://purl.org/rss/1.0/modules/slash/"><channel><title>Slash</title>'
        f"<link>{origin}/</link><item><title>Only</title><link>{origin}/only/</link><guid>only-1</guid>"
        f"<slash:comments>{comments}</slash:comments></item></channel></rss>"
    )


def test_unchanged_slash_comments_skip_the_refetch(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    site = farm.add_site("slash")
    farm.add_route(site, "/feed/", _feed_with_slash(site.origin, 2))
    farm.add_route(site, "/only/", "<html><body><p>post</p><p>2 comments</p></body></html>", "text/html")
    feeds = write_feeds(tmp_path / "feeds.txt", [f"{site.feed_url} slash"])
    db = tmp_path / "blogs.db"
    settings = {"BLOGS_REFETCH_AFTER": "1h,6h"}

    assert run_crawl(feeds, db, settings=settings, clock=farm.clock).returncode == 0
    farm.clock.set(t0 + HOUR + 10)
    # force=1 polls the feed (304: unchanged, so slash:comments is still 2) before deciding.
    second = run_crawl(feeds, db, "-a", "force=1", settings=settings, clock=farm.clock)
    assert second.stat("refetches_skipped/slash_comments") == 1
    farm.clock.set(t0 + 6 * HOUR + 10)
    farm.add_route(site, "/feed/", _feed_with_slash(site.origin, 5))  # three new comments
    third = run_crawl(feeds, db, "-a", "force=1", settings=settings, clock=farm.clock)
    assert third.stat("refetches") == 1
    assert [r.status for r in farm.requests_for(site.origin + "/feed/")] == [200, 304, 200]
    pages = farm.requests_for(site.origin + "/only/")
    assert len(pages) == 2 and pages[1].clock_time >= t0 + 6 * HOUR


def test_watch_mode_refetches_on_time_then_stops_cleanly(farm: BlogFarm, tmp_path: Path) -> None:
    now = farm.clock.now()  # the fixture's clock runs in real time
    blog = farm.add_generated_blog(
        "live", articles=3, start=now - 1, interval=0.5, seed=5, comments_per_article=(2, 2), comment_delays=(1, 2)
    )
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    log = tmp_path / "watch.log"
    proc = start_crawl(feeds, db, "-a", "watch=1", settings={"BLOGS_REFETCH_AFTER": "3s,6s"}, clock=farm.clock, log=log)
    try:
        all_done = wait_for(
            lambda: rows(db, "SELECT COUNT(*) FROM articles WHERE state = 'done'") == [(3,)], timeout=60
        )
        assert all_done, log.read_text()[-3000:]
        settled = len(farm.requests)
        time.sleep(2.5)  # the schedule is over: the watcher sleeps, it does not fetch
        assert len(farm.requests) == settled
    finally:
        code = stop(proc, signal.SIGTERM)
    text = log.read_text()
    assert code == 0, text[-3000:]
    assert "Run summary" in text and "Closing spider (shutdown)" in text
    for article in blog.articles:
        fetches = farm.requests_for(article.url)
        assert 1 <= len(fetches) <= 3
        assert all(r.clock_time >= article.published + 3 for r in fetches[1:])
    assert RunLock(f"{db}.lock").acquire()  # released on shutdown


def _feed_with_comment_feeds(origin: str) -> str:
    items = "".join(
        f"<item><title>{name}</title><link>{origin}/{name}/</link><guid>{name}-1</guid>"
        f"<wfw:commentRss>{origin}/{name}/feed/</wfw:commentRss><slash:comments>{n}</slash:comments></item>"
        for name, n in (("old", 2), ("new", 0))
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:wfw="http://wellformedweb.org/CommentAPI/" '
        'xmlns:slash="http://purl.org/rss/1.0/modules/slash/"><channel><title>Late</title>'
        f"<link>{origin}/</link>{items}</channel></rss>"
    )


def _comment_feed(origin: str) -> str:
    items = "".join(
        f"<item><title>By {who}</title><link>{origin}/old/#comment-{i}</link><guid>{origin}/?c={i}</guid>"
        f"<pubDate>Mon, 28 Sep 2026 1{i}:00:00 +0000</pubDate><description>{text}</description></item>"
        for i, (who, text) in enumerate((("Ann", "Lovely orchard photos"), ("Bo", "Which lens did you use?")))
    )
    return f'<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>c</title>{items}</channel></rss>'


def test_a_first_fetch_reads_the_comment_feed_when_readers_already_commented(farm: BlogFarm, tmp_path: Path) -> None:
    # the crawler met the article late: its comment feed is stored as the extractor's evidence
    farm.clock.set(time.time())
    site = farm.add_site("late")
    farm.add_route(site, "/feed/", _feed_with_comment_feeds(site.origin))
    for name in ("old", "new"):
        farm.add_route(site, f"/{name}/", f"<html><body><p>{name} post</p></body></html>", "text/html")
        farm.add_route(site, f"/{name}/feed/", _comment_feed(site.origin))
    feeds = write_feeds(tmp_path / "feeds.txt", [f"{site.feed_url} late"])
    db = tmp_path / "blogs.db"
    run = run_crawl(feeds, db, clock=farm.clock)
    assert run.returncode == 0 and run.stat("comment_feeds_first") == 1
    assert len(farm.requests_for(site.origin + "/old/feed/")) == 1
    assert farm.requests_for(site.origin + "/new/feed/") == []  # no comments yet: nothing to read
    stored = rows(db, "SELECT article, text FROM feed_comments ORDER BY text")
    assert stored == [
        (site.origin + "/old/", "Lovely orchard photos"),
        (site.origin + "/old/", "Which lens did you use?"),
    ]
