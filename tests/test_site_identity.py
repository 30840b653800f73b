"""A site is its feed, its name a label (issue 33): renaming it in feeds.txt splits nothing and says so;
a home page listed beside its own feed is one site, warned; names keep their characters.

Real `scrapy crawl blogs` subprocesses against the local farm (the crawl tests are slow).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, write_feeds

from crawler.feedsfile import clean_name, default_site_name, parse_feeds_text
from farm import BlogFarm

HOUR = 3600.0


def test_names_keep_their_characters() -> None:
    decomposed = "cafe\u0301"  # as typed on a Mac: e and a combining accent
    sources = parse_feeds_text(f"https://a.example/feed/ {decomposed}\nhttps://b.example/feed/ 日記 ブログ\n").sources
    assert [s.name for s in sources] == ["café", "日記_ブログ"]
    assert clean_name("x\u0915\u093f y/z") == "x\u0915\u093f_y_z"  # a vowel sign stays with its letter
    assert default_site_name("https://ex.com/caf%C3%A9/feed/") == "ex.com-café"


@pytest.mark.slow
def test_renaming_a_site_moves_nothing_and_says_so(farm: BlogFarm, tmp_path: Path) -> None:
    farm.clock.set(time.time())
    blog = farm.add_generated_blog("blog", articles=3, start=farm.clock.now() - 3 * HOUR, interval=HOUR, seed=5)
    db = tmp_path / "blogs.db"
    first = run_crawl(write_feeds(tmp_path / "feeds.txt", [f"{blog.feed_url} café"]), db, clock=farm.clock)
    assert first.returncode == 0, first.stderr[-3000:]
    assert rows(db, "SELECT site, COUNT(*) FROM articles GROUP BY site") == [("café", 3)]

    feeds = write_feeds(tmp_path / "feeds.txt", [f"{blog.feed_url} renamed"])
    second = run_crawl(feeds, db, "-a", "force=1", clock=farm.clock)
    assert second.returncode == 0, second.stderr[-3000:]
    warned = [line for line in second.stderr.splitlines() if "WARNING" in line and "renaming" in line]
    assert len(warned) == 1 and f"names the feed {blog.feed_url} 'renamed'; it stays site 'café'" in warned[0]
    assert rows(db, "SELECT site, COUNT(*) FROM articles GROUP BY site") == [("café", 3)]
    assert rows(db, "SELECT site FROM feeds") == [("café",)]
    assert rows(db, "SELECT name FROM sites") == [("café",)]


@pytest.mark.slow
def test_a_home_page_beside_its_own_feed_is_one_site_warned(farm: BlogFarm, tmp_path: Path) -> None:
    farm.clock.set(time.time())
    blog = farm.add_generated_blog("blog", articles=3, start=farm.clock.now() - 3 * HOUR, interval=HOUR, seed=6)
    feeds = write_feeds(tmp_path / "feeds.txt", [f"{blog.origin}/ home", f"{blog.feed_url} blog"])
    db = tmp_path / "blogs.db"
    result = run_crawl(feeds, db, clock=farm.clock)
    assert result.returncode == 0, result.stderr[-3000:]
    warned = [line for line in result.stderr.splitlines() if "WARNING" in line and "home page" in line]
    assert len(warned) == 1, result.stderr[-3000:]
    assert (
        f"Feed {blog.origin}/ muted: the home page of feed {blog.feed_url}, listed on its own line as site 'blog'"
        in (warned[0])
    )
    assert rows(db, "SELECT site, COUNT(*) FROM articles GROUP BY site") == [("blog", 3)]
    muted = rows(db, "SELECT url, mute_reason FROM feeds WHERE muted_at IS NOT NULL")
    assert [url for url, _ in muted] == [f"{blog.origin}/"]
    again = run_crawl(feeds, db, "-a", "force=1", clock=farm.clock)  # muted: not polled again, not warned again
    assert "home page" not in again.stderr and again.returncode == 0, again.stderr[-3000:]
