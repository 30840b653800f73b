"""`scrapy report OUT_DIR` on a crawled store: an index with the profile version, painted page views,
pages listed by title with readable addresses (a Japanese blog: percent-encoded paths)."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env, run_crawl, write_feeds
from lxml import etree

from farm import BlogFarm

pytestmark = pytest.mark.slow

HOUR = 3600.0


@pytest.fixture(scope="module")
def crawled_farm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, BlogFarm]]:
    tmp = tmp_path_factory.mktemp("report")
    with BlogFarm() as farm:
        t0 = time.time()
        farm.clock.set(t0)
        farm.add_generated_blog(
            "en", articles=8, start=t0 - 10 * HOUR, interval=HOUR, comments_per_article=(0, 3), seed=7
        )
        farm.add_generated_blog(
            "ja", articles=4, start=t0 - 6 * HOUR, interval=HOUR, comments_per_article=(0, 2), lang="ja", seed=7
        )
        feeds = write_feeds(tmp / "feeds.txt", farm.feed_lines())
        db = tmp / "blogs.db"
        result = run_crawl(feeds, db, settings={"BLOGS_BATCH_SIZE": "4", "BLOGS_REFETCH_AFTER": "7d"}, clock=farm.clock)
        assert result.returncode == 0, result.stderr[-3000:]
        yield db, farm  # the farm stays up: the index's links to the pages must work


@pytest.fixture(scope="module")
def crawled(crawled_farm: tuple[Path, BlogFarm]) -> Path:
    return crawled_farm[0]


def report(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "scrapy", "report", *args, "-s", f"BLOGS_DB={db}"]
    return subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, timeout=120, env=_env())


def test_report_writes_an_index_with_the_profile_version(crawled: Path, tmp_path: Path) -> None:
    done = report(crawled, str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr[-3000:]
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "en" in index
    assert "v2" in index  # the latest of the two profiles its two batches stored
    views = [p for p in (tmp_path / "out").rglob("*.html") if p.name != "index.html"]
    assert len(views) == 8 + 4


def test_report_views_paint_posts_and_comments(crawled: Path, tmp_path: Path) -> None:
    assert report(crawled, "--site", "en", str(tmp_path / "out")).returncode == 0
    html = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "out").rglob("*.html") if p.name != "index.html")
    assert 'data-role="post"' in html
    assert 'data-role="comment"' in html
    assert "<script" not in html.lower()


def test_report_needs_an_out_dir(crawled: Path) -> None:
    done = report(crawled)
    assert done.returncode != 0
    assert "OUT_DIR" in done.stderr + done.stdout


def test_index_lists_pages_by_title_with_readable_working_addresses(
    crawled_farm: tuple[Path, BlogFarm], tmp_path: Path
) -> None:
    db, farm = crawled_farm
    out = tmp_path / "out"
    assert report(db, "--site", "ja", str(out)).returncode == 0
    root = etree.fromstring((out / "index.html").read_bytes(), etree.HTMLParser(encoding="utf-8"))
    cells = root.xpath('//td[@class="page"]')
    assert len(cells) == 4
    articles = {a.url: a for a in farm.sites["ja"].articles}
    for cell in cells:
        view_link, page_link = cell.xpath(".//a")
        url = page_link.get("href")
        article = articles[url]
        assert "%" in url and article.title  # a percent-encoded Japanese path, as the feed links it
        assert view_link.xpath("string()") == article.title  # listed by its (Japanese) title
        assert (out / view_link.get("href")).is_file()
        shown = page_link.xpath("string()")
        assert "%" not in shown and shown == urllib.parse.unquote(url)  # readable: 日本語, not %E6%97%A5
        with urllib.request.urlopen(url, timeout=10) as answer:  # and the link itself works
            assert answer.status == 200
