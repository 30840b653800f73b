"""Messages said right (issue 32, item 9): a store from a newer release, a reextract or copy that
must wait for a crawl, a crawl that must wait for a reextract, the JSON export of page bodies."""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env, run_crawl, write_feeds
from scrapy.exporters import JsonLinesItemExporter

from crawler.items import CommentFeedItem, PageItem
from store import StoreError, open_store
from store.lockfile import RunLock
from store.migrations import SCHEMA_VERSION


def scrapy(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "scrapy", *args]
    return subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, timeout=120, env=_env())


def one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "usage:" not in stderr.lower() and "Traceback" not in stderr
    return lines[0]


def test_a_store_from_a_newer_release_is_not_called_older(tmp_path: Path) -> None:
    db = tmp_path / "blogs.db"
    with open_store(str(db)) as store, store.transaction() as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (?, 'from the future', 'now')", [SCHEMA_VERSION + 1])
    with pytest.raises(StoreError) as refused:
        open_store(str(db), read_only=True)
    assert "written by a newer blog-harvester" in str(refused.value)
    assert "older" not in str(refused.value)


def test_reextract_during_a_crawl_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "blogs.db"
    open_store(str(db)).close()
    with RunLock(f"{db}.lock") as crawl:  # a crawl (this process) holds the store
        assert crawl.acquired
        done = scrapy("reextract", "-s", f"BLOGS_DB={db}")
    assert done.returncode == 3  # as a crawl refused by another (crawler.outcome.EXIT_LOCKED)
    line = one_line(done.stderr)
    assert line.startswith(f"scrapy reextract: error: a crawl is using {db} (pid ")
    assert line.endswith("run reextract when it has finished")


def test_sqlite_copy_during_a_crawl_is_refused(tmp_path: Path) -> None:
    db, target = tmp_path / "blogs.db", tmp_path / "copy.db"
    open_store(str(db)).close()
    with RunLock(f"{db}.lock"):  # a crawl writes the source
        done = scrapy("copy", str(target), "-s", f"BLOGS_DB={db}")
    assert done.returncode == 3
    assert one_line(done.stderr).startswith(f"scrapy copy: error: a crawl is using {db} (pid ")
    assert not target.exists()
    assert scrapy("copy", str(target), "-s", f"BLOGS_DB={db}").returncode == 0  # once it is over


@pytest.mark.slow
def test_a_crawl_blocked_by_reextract_says_so(tmp_path: Path) -> None:
    db = tmp_path / "blogs.db"
    feeds = write_feeds(tmp_path / "feeds.txt", ["http://127.0.0.1:9/feed/ nowhere"])
    open_store(str(db)).close()
    with RunLock(f"{db}.lock", purpose="reextract"):
        result = run_crawl(feeds, db)
    assert result.returncode == 3, result.stderr[-3000:]
    last = result.stderr.rstrip().splitlines()[-1]
    assert f"`scrapy reextract` is using {db} (reextract pid " in last, last
    assert "Another crawl" not in result.stderr


def test_page_bodies_export_as_json() -> None:
    """Scrapyd's items_dir (and FEEDS) export every item: bytes bodies go out as base64 text."""
    page = PageItem(
        site="s",
        feed_url="f",
        article_url="a",
        url="u",
        status=200,
        headers={},
        body=b"\xff<p>",
        fetched_at=0.0,
        kind="first",
    )
    feed = CommentFeedItem(site="s", article_url="a", url="u", body=b"<rss/>", headers={}, fetched_at=0.0)
    out = io.BytesIO()
    exporter = JsonLinesItemExporter(out)
    exporter.start_exporting()
    for item in (page, feed):
        exporter.export_item(item)
    exporter.finish_exporting()
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert base64.b64decode(first["body"]) == b"\xff<p>"
    assert base64.b64decode(second["body"]) == b"<rss/>"
