"""Exit codes and the last log line of `scrapy crawl blogs`, as cron and shells read them.

Real `scrapy crawl blogs` subprocesses against the local farm (crawler.outcome: 0 done, 1 every
feed failed, 2 unusable feeds file, 3 store in use, 4 store not writable).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from crawl_helpers import CrawlResult, rows, run_crawl, write_feeds

from farm import BlogFarm

pytestmark = pytest.mark.slow

HOUR = 3600.0
_LEVEL = re.compile(r"^\S+ \S+ \[[^\]]+\] (DEBUG|INFO|WARNING|ERROR|CRITICAL): ")


def log_lines(stderr: str, *levels: str) -> list[str]:
    """The log records of a crawl's stderr at the given levels (first lines of records)."""
    return [line for line in stderr.splitlines() if (m := _LEVEL.match(line)) and m.group(1) in levels]


def last_line(result: CrawlResult) -> str:
    return result.stderr.rstrip().splitlines()[-1]


def assert_one_clear_line(result: CrawlResult, *words: str) -> str:
    """The run said what went wrong in exactly one line, its last, and nothing crashed."""
    assert "Traceback" not in result.stderr and "Task exception" not in result.stderr, result.stderr[-3000:]
    problems = log_lines(result.stderr, "WARNING", "ERROR", "CRITICAL")
    assert problems == [last_line(result)], result.stderr[-3000:]
    for word in words:
        assert word in problems[0], problems[0]
    return problems[0]


def test_unusable_feeds_file_exits_2_in_one_line_touching_nothing(tmp_path: Path) -> None:
    store_dir = tmp_path / "store"
    store_dir.mkdir()
    db = store_dir / "blogs.db"
    (tmp_path / "folder.txt").mkdir()
    useless = write_feeds(tmp_path / "useless.txt", ["ftp://files.example/feed.xml", "javascript:alert(1)"])
    cases = {
        tmp_path / "missing.txt": "not found",
        tmp_path / "folder.txt": "is a directory",
        useless: "lists no usable feed (2 line(s) refused; line 2: not an http(s) URL (scheme ftp))",
    }
    for feeds, words in cases.items():
        result = run_crawl(feeds, db)
        assert result.returncode == 2, result.stderr[-3000:]
        assert_one_clear_line(result, "Cannot crawl: feeds file", str(feeds), words)
        assert list(store_dir.iterdir()) == [], "a refused run creates neither store nor lock file"


def test_store_path_that_cannot_be_created_exits_4_in_one_line(farm: BlogFarm, tmp_path: Path) -> None:
    blog = farm.add_generated_blog("gen", articles=2, start=farm.clock.now() - 2 * HOUR, interval=HOUR, seed=1)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    (tmp_path / "plain-file").write_text("not a directory\n")
    result = run_crawl(feeds, tmp_path / "plain-file" / "sub" / "blogs.db", clock=farm.clock)
    assert result.returncode == 4, result.stderr[-3000:]
    assert_one_clear_line(result, "Cannot crawl into", "Not a directory")
    assert farm.requests == []


def test_every_feed_failed_exits_1_some_failed_exits_0_and_the_summary_says_so(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    broken = farm.add_site("broken")
    farm.misbehave(broken.feed_url, "status", status=500)
    bad = [broken.feed_line(), "http://127.0.0.1:1/feed/ refused"]  # nothing listens on port 1
    db = tmp_path / "blogs.db"

    failed = run_crawl(write_feeds(tmp_path / "bad.txt", bad), db, clock=farm.clock)
    assert failed.returncode == 1, failed.stderr[-3000:]
    assert "Traceback" not in failed.stderr and "Task exception" not in failed.stderr
    summary = last_line(failed)
    assert " ERROR: Run summary: feeds ok 0 (not modified 0), failed 2," in summary
    assert summary.endswith("; exit 1: every feed failed (2 of 2 polls)")
    # One WARNING per failed feed (with its URL), then the summary; no other complaint.
    assert len(log_lines(failed.stderr, "WARNING", "ERROR", "CRITICAL")) == 3

    blog = farm.add_generated_blog("gen", articles=3, start=t0 - 3 * HOUR, interval=HOUR, seed=2)
    some = run_crawl(
        write_feeds(tmp_path / "some.txt", [blog.feed_line(), *bad]), db, "-a", "force=1", clock=farm.clock
    )
    assert some.returncode == 0, some.stderr[-3000:]
    summary = last_line(some)
    assert " WARNING: Run summary: feeds ok 1 (not modified 0), failed 2," in summary
    assert "new articles 3;" in summary and "pages stored 3," in summary
    assert summary.endswith("; exit 0: 2 of 3 feed polls failed")
    assert rows(db, "SELECT summary FROM runs ORDER BY id DESC LIMIT 1")[0][0] in summary


def test_summary_is_the_last_line_at_log_level_warning_with_the_store_counts(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    blog = farm.add_generated_blog(
        "gen", articles=12, start=t0 - 12 * HOUR, interval=HOUR, seed=7, comments_per_article=(1, 3),
        comment_delays=(60, 600),
    )  # fmt: skip
    farm.clock.set(t0)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    result = run_crawl(feeds, db, settings={"LOG_LEVEL": "WARNING", "BLOGS_REFETCH_AFTER": "7d"}, clock=farm.clock)
    assert result.returncode == 0, result.stderr[-3000:]
    assert log_lines(result.stderr, "WARNING", "ERROR", "CRITICAL") == []
    summary = last_line(result)
    assert " INFO: Run summary: feeds ok 1 (not modified 0), failed 0, muted 0 (muted in all 0);" in summary
    comments = rows(db, "SELECT COUNT(*) FROM comments")[0][0]
    assert comments > 0, "the run extracted the comments of its pages"
    assert "new articles 12;" in summary and "pages stored 12, fetches failed 0;" in summary
    assert f"comments new {comments}, edited 0, gone 0; errors 0;" in summary
    assert summary.endswith("; exit 0")
    assert log_lines(result.stderr, "INFO") == [summary]  # at WARNING, the one INFO line shown
