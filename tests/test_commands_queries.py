"""Queries that say what they did (issue 33): how many hits a --limit left out, several --site,
--limit bounded, the author of posts and the parent of replies in every format; `scrapy feeds`.

A real SQLite store written through the crawler's own store writers; the commands run as the user
runs them (`python -m scrapy ...` subprocesses).
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env

from crawler.progress import progress_line
from extractor.comments.records import CommentRecord
from farm.postgres import PostgresServer
from store import StoreBackend, open_store
from store.clock import to_iso
from store.comments import comment_dicts, refresh_article, upsert
from store.feedstates import FEED_FIELDS
from store.pages import PageRecord
from store.query import COMMENT_FIELDS, POST_FIELDS
from store.sqlite import Store

NOW = time.time()
HOUR = 3600.0
SITES = {"alpha": 15, "beta": 10, "gamma": 5}  # posts per site, each with "the" in its text


def add_post(store: StoreBackend, site: str, n: int) -> None:
    """Post `n` of `site` (by Ann), a comment and a reply to it, through the store's writers."""
    feed = f"http://127.0.0.1:9/{site}/feed/"
    url = f"http://127.0.0.1:9/{site}/post-{n}/"
    published = NOW - (n + 1) * HOUR
    store.sync_feeds([(feed, site)], published)
    entry = {
        "url": url,
        "site": site,
        "entry_id": url,
        "guid": None,
        "link": url,
        "title": f"Post {n} of {site}",
        "author": "Ann",
        "published": to_iso(published),
        "comment_rss": None,
        "slash_comments": None,
    }
    store.record_feed_ok(feed, now=published, status=200, next_check=NOW + HOUR, interval=600, new_articles=[entry])
    text = f"Post {n} of {site}\nAll about the plane, number {n}."
    snapshot = store.save_page(
        PageRecord(
            site=site,
            kind="first",
            url=url,
            request_url=url,
            status=200,
            headers={"Content-Type": ["text/html; charset=utf-8"]},
            body=f"<html><body><p>{text}</p></body></html>".encode(),
            fetched_at=published + 60,
            article_url=url,
        ),
        offsets=[3600.0],
    )
    records = [
        CommentRecord(text=f"A question about post {n}", author="Bo", position=0),
        CommentRecord(text=f"An answer about post {n}", author="Ann", position=1, parent=0),
    ]
    items = comment_dicts(records)
    with store.transaction() as db:
        upsert(
            db,
            "extractions",
            [
                {
                    "snapshot": snapshot,
                    "article": url,
                    "site": site,
                    "method": "profile",
                    "profile_version": 1,
                    "post": text,
                    "comments": json.dumps(items),
                    "comment_count": len(items),
                    "warnings": "[]",
                }
            ],
            ("snapshot",),
        )
        refresh_article(db, url)


def fill(store: StoreBackend) -> None:
    for site, count in SITES.items():
        for n in range(count):
            add_post(store, site, n)
    # One feed muted, one failing, one never polled: what `scrapy feeds` must tell apart.
    store.sync_feeds([("http://127.0.0.1:9/gone/feed/", "gone"), ("http://127.0.0.1:9/new/feed/", "new")], NOW)
    for _ in range(2):
        store.record_feed_failure(
            "http://127.0.0.1:9/beta/feed/", now=NOW, status=503, error="HTTP 503", next_check=NOW + HOUR, mute=None
        )
    store.record_feed_failure(
        "http://127.0.0.1:9/gone/feed/", now=NOW, status=410, error="HTTP 410", next_check=NOW, mute="410 Gone"
    )


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("queries") / "blogs.db"
    with Store(path) as store:
        fill(store)
    return path


@pytest.fixture(scope="module")
def pg_db(pg_server: PostgresServer) -> str:
    """The same store on PostgreSQL."""
    url = pg_server.new_database()
    with open_store(url) as store:
        fill(store)
    return url


def scrapy(db: Path | str, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = {**_env(), "COLUMNS": "200", "PYTHONWARNINGS": "ignore"}
    cmd = [sys.executable, "-m", "scrapy", *args, "-s", f"BLOGS_DB={db}"]
    done = subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == code, (done.returncode, done.stderr[-3000:])
    assert "Traceback" not in done.stderr, done.stderr
    return done


def jsonl(done: subprocess.CompletedProcess[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_search_says_how_many_hits_the_limit_left_out(db: Path) -> None:
    done = scrapy(db, "search", "the", "--format", "jsonl")
    assert len(jsonl(done)) == 20
    assert done.stderr.strip() == "20 of 30 hits, --limit to see more"
    everything = scrapy(db, "search", "the", "--limit", "30", "--format", "jsonl")
    assert len(jsonl(everything)) == 30 and everything.stderr == ""
    short = scrapy(db, "search", "th", "--limit", "4")  # under 3 characters: the substring scan counts too
    assert short.stderr.strip() == "4 of 30 hits, --limit to see more"


def test_posts_and_comments_say_how_many_the_limit_left_out(db: Path) -> None:
    assert scrapy(db, "posts", "--limit", "3").stderr.strip() == "3 of 30 posts, --limit to see more"
    assert scrapy(db, "comments", "--site", "gamma", "--limit", "4").stderr.strip() == (
        "4 of 10 comments, --limit to see more"
    )
    assert scrapy(db, "posts", "--site", "gamma", "--limit", "5").stderr == ""


def test_several_sites_are_all_queried(db: Path) -> None:
    posts = jsonl(scrapy(db, "posts", "--site", "alpha", "--site", "gamma", "--format", "jsonl"))
    assert len(posts) == 20 and {p["site"] for p in posts} == {"alpha", "gamma"}
    comments = jsonl(scrapy(db, "comments", "--site", "beta", "--site", "gamma", "--format", "jsonl"))
    assert len(comments) == 30 and {c["site"] for c in comments} == {"beta", "gamma"}
    hits = jsonl(
        scrapy(db, "search", "plane", "--site", "beta", "--site", "gamma", "--limit", "100", "--format", "jsonl")
    )
    assert len(hits) == 15 and {h["site"] for h in hits} == {"beta", "gamma"}
    refused = scrapy(db, "posts", "--site", "alpha", "--site", "nope", code=2)
    assert refused.stderr.strip().startswith("scrapy posts: error: no site 'nope' in the store")


@pytest.mark.parametrize("command", ["posts", "comments", "search"])
def test_a_huge_limit_is_one_line_exit_2(db: Path, command: str) -> None:
    args = ["the"] if command == "search" else []
    done = scrapy(db, command, *args, "--limit", "99999999999999999999", code=2)
    assert done.stdout == ""
    assert done.stderr.strip().splitlines()[-1].endswith("is too large: at most 1 000 000 000")


def test_posts_show_their_author_and_comments_their_parent_in_every_format(db: Path) -> None:
    posts = jsonl(scrapy(db, "posts", "--site", "gamma", "--format", "jsonl"))
    assert list(posts[0]) == POST_FIELDS and {p["author"] for p in posts} == {"Ann"}
    rows = list(csv.DictReader(io.StringIO(scrapy(db, "posts", "--site", "gamma", "--format", "csv").stdout)))
    assert list(rows[0]) == POST_FIELDS and {r["author"] for r in rows} == {"Ann"}
    table = scrapy(db, "posts", "--site", "gamma").stdout.splitlines()
    assert table[0].split() == POST_FIELDS and len(table) > 1 and all(" Ann " in line for line in table[1:])

    article = "http://127.0.0.1:9/gamma/post-0/"
    comments = jsonl(scrapy(db, "comments", "--article", article, "--format", "jsonl"))
    assert list(comments[0]) == COMMENT_FIELDS
    question, answer = comments
    assert question["parent"] is None and answer["parent"] == question["fingerprint"]
    rows = list(csv.DictReader(io.StringIO(scrapy(db, "comments", "--article", article, "--format", "csv").stdout)))
    assert rows[1]["parent"] == rows[0]["fingerprint"] != ""
    table = scrapy(db, "comments", "--article", article).stdout.splitlines()
    assert table[0].split() == COMMENT_FIELDS and str(question["fingerprint"]) in table[2]


def test_feeds_tells_ok_failing_muted_and_new_apart(db: Path) -> None:
    rows = {row["site"]: row for row in jsonl(scrapy(db, "feeds", "--format", "jsonl"))}
    assert list(next(iter(rows.values()))) == FEED_FIELDS
    assert set(rows) == {"alpha", "beta", "gamma", "gone", "new"}
    assert rows["alpha"]["state"] == "ok" and rows["alpha"]["failures"] == 0
    assert rows["alpha"]["articles"] == 15 and rows["alpha"]["week_entries"] == 15
    assert rows["alpha"]["interval"] == "10m" and rows["alpha"]["last_poll"] and rows["alpha"]["next_poll"] != "due"
    assert (rows["beta"]["state"], rows["beta"]["failures"], rows["beta"]["last_error"]) == ("failing", 2, "HTTP 503")
    assert (rows["gone"]["state"], rows["gone"]["reason"], rows["gone"]["next_poll"]) == ("muted", "410 Gone", None)
    assert (rows["new"]["state"], rows["new"]["next_poll"], rows["new"]["articles"]) == ("new", "due", 0)
    muted = jsonl(scrapy(db, "feeds", "--state", "muted", "--format", "jsonl"))
    assert [row["site"] for row in muted] == ["gone"]
    table = scrapy(db, "feeds", "--site", "beta").stdout.splitlines()
    assert table[0].split() == FEED_FIELDS and "failing" in table[1] and "HTTP 503" in table[1]
    assert "scrapy feeds" in scrapy(db, "sites", "--help").stdout


def test_query_commands_check_the_settings_too(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "scrapy", *args]
        return subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, timeout=60, env=_env())

    empty = run("posts", "-s", "BLOGS_DB=")  # an unset shell variable: not the project's blogs.db
    assert (empty.returncode, empty.stdout) == (2, "")
    assert empty.stderr.splitlines() == [
        "scrapy posts: error: setting BLOGS_DB is empty: it takes a SQLite file path or a"
        " postgresql://user@host:port/db URL (or leave it out)"
    ]
    bad = run("reextract", "-s", "BLOGS_BATCH_SIZE=abc", "-s", f"BLOGS_DB={tmp_path / 'none.db'}")
    assert bad.returncode == 2 and bad.stderr.splitlines() == [
        "scrapy reextract: error: setting BLOGS_BATCH_SIZE='abc' is not valid: it takes a whole number of at least 1"
    ]


def test_the_same_answers_on_postgresql(db: Path, pg_db: str) -> None:
    for args in (
        ("feeds", "--format", "jsonl"),
        ("posts", "--site", "alpha", "--site", "gamma", "--limit", "7", "--format", "jsonl"),
        ("comments", "--site", "beta", "--limit", "3", "--format", "csv"),
        ("search", "plane", "--site", "beta", "--limit", "4", "--format", "jsonl"),
    ):
        lite, pg = scrapy(db, *args), scrapy(pg_db, *args)
        assert lite.stderr == pg.stderr and lite.stderr.endswith("--limit to see more\n") != (args[0] == "feeds")
        if args[0] == "search":  # SQLite ranks FTS hits, PostgreSQL lists them newest first
            assert sorted(lite.stdout.splitlines()) == sorted(pg.stdout.splitlines())
        else:
            assert lite.stdout == pg.stdout, args


def test_the_harvest_line_counts_what_the_store_holds(db: Path) -> None:
    with open_store(db, read_only=True) as store:
        counts = store.harvest_counts(NOW)
    assert counts == {"due": 1, "failing": 1, "muted": 1, "queued": 0, "backlog": 0}
    stats = {"blogs/feeds_polled": 7, "blogs/feeds_failed": 2, "blogs/pages_stored/first": 5}
    assert progress_line(stats, counts) == (
        "Harvest: feeds polled 7 (failed 2), due 1, failing 1, muted 1; articles fetched 5, queued 0;"
        " re-fetches 0; extraction backlog 0 pages"
    )
