"""`scrapy sites|posts|comments|search|export` as subprocesses on a crawled store, and while a crawl writes."""

from __future__ import annotations

import csv
import io
import json
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from crawl_helpers import PROJECT, _env, run_crawl, start_crawl, stop, wait_for, write_feeds
from crawl_helpers import rows as crawl_rows

from farm import BlogFarm
from farm.postgres import PostgresServer
from store.query import COMMENT_FIELDS, POST_FIELDS
from store.schema import TABLES

pytestmark = pytest.mark.slow

HOUR = 3600.0


def scrapy(db: Path | str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "scrapy", *args, "-s", f"BLOGS_DB={db}"]
    done = subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, timeout=60, env=_env())
    if check:
        assert done.returncode == 0, done.stderr[-3000:]
    return done


def jsonl(db: Path | str, *args: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in scrapy(db, *args, "--format", "jsonl").stdout.splitlines()]


@pytest.fixture(scope="module")
def crawled(corpus_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    tmp = tmp_path_factory.mktemp("commands")
    with BlogFarm(corpus_root=corpus_root) as farm:
        t0 = time.time()
        farm.clock.set(t0)
        for name, lang, seed in (("en", "en", 41), ("ja", "ja", 42)):
            farm.add_generated_blog(
                name,
                articles=14,
                start=t0 - 20 * HOUR,
                interval=HOUR,
                comments_per_article=(1, 4),
                lang=lang,
                seed=seed,
            )
        feeds = write_feeds(tmp / "feeds.txt", farm.feed_lines())
        db = tmp / "blogs.db"
        result = run_crawl(feeds, db, settings={"BLOGS_BATCH_SIZE": "5", "BLOGS_REFETCH_AFTER": "7d"}, clock=farm.clock)
        assert result.returncode == 0, result.stderr[-3000:]
    yield db


def test_sites_posts_and_comments_in_every_format(crawled: Path) -> None:
    sites = {row["site"]: row for row in jsonl(crawled, "sites")}
    assert set(sites) == {"en", "ja"}
    for row in sites.values():
        assert (row["articles"], row["pages"], row["posts"]) == (14, 14, 14)
        assert row["batch"] == "4/5" and row["profile"] == "v2" and row["profile_age"] and row["last_error"] is None
        assert row["comments"] > 0
    posts = jsonl(crawled, "posts")
    assert len(posts) == 28 and all(list(p) == POST_FIELDS for p in posts)
    assert all(p["text"] and p["title"] and p["published"] and p["fetched_at"] for p in posts)
    published = sorted(p["published"] for p in posts)
    assert [p["published"] for p in posts] == published[::-1]  # newest first
    only_en = jsonl(crawled, "posts", "--site", "en")
    assert len(only_en) == 14 and {p["site"] for p in only_en} == {"en"}
    cut = published[-6]
    assert {p["url"] for p in jsonl(crawled, "posts", "--since", cut)} == {
        p["url"] for p in posts if p["published"] >= cut
    }
    assert len(jsonl(crawled, "posts", "--limit", "3")) == 3
    table = scrapy(crawled, "posts", "--site", "ja").stdout.splitlines()
    assert re.split(r"\s+", table[0].strip()) == POST_FIELDS and len(table) == 15
    rows = list(csv.DictReader(io.StringIO(scrapy(crawled, "posts", "--format", "csv").stdout)))
    assert len(rows) == 28 and list(rows[0]) == POST_FIELDS
    assert {r["url"]: r["text"] for r in rows} == {p["url"]: p["text"] for p in posts}  # multi-line text survives

    article = jsonl(crawled, "comments", "--site", "ja", "--limit", "1")[0]["url"]
    comments = jsonl(crawled, "comments", "--article", article)
    assert comments and all(list(c) == COMMENT_FIELDS for c in comments)
    assert {c["url"] for c in comments} == {article} and [c["position"] for c in comments] == list(range(len(comments)))
    assert all(c["author"] and c["date"] and c["first_seen"] and c["gone_at"] is None for c in comments)
    per_site = jsonl(crawled, "comments", "--site", "en")
    assert len(per_site) == sites["en"]["comments"] and {c["site"] for c in per_site} == {"en"}


def test_search_finds_english_words_and_japanese_phrases(crawled: Path) -> None:
    posts = jsonl(crawled, "posts")
    en = next(p for p in posts if p["site"] == "en")
    word = max(re.findall(r"[A-Za-z]{6,}", en["text"].split("\n", 1)[1]), key=len)
    hits = jsonl(crawled, "search", word, "--limit", "50")
    assert en["url"] in {h["url"] for h in hits} and all("snippet" in h for h in hits)
    ja = next(p for p in posts if p["site"] == "ja")
    body = ja["text"].split("\n")[-1]
    phrase = next(
        body[i : i + 5] for i in range(len(body)) if re.fullmatch(r"[\u3040-\u30ff\u4e00-\u9fff]{5}", body[i : i + 5])
    )
    assert ja["url"] in {h["url"] for h in jsonl(crawled, "search", phrase, "--limit", "50")}, phrase
    assert ja["url"] in {h["url"] for h in jsonl(crawled, "search", phrase[:2], "--limit", "100")}  # LIKE fallback
    comment = jsonl(crawled, "comments", "--site", "ja", "--limit", "1")[0]
    found = jsonl(crawled, "search", comment["text"][:6], "--in", "comments", "--limit", "50")
    assert comment["url"] in {h["url"] for h in found}
    assert jsonl(crawled, "search", "zzqqxxyy") == []


def test_export_writes_every_post_with_its_comments(crawled: Path, tmp_path: Path) -> None:
    out = tmp_path / "export.jsonl"
    done = scrapy(crawled, "export", "--format", "jsonl", str(out))
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    total = sum(len(p["comments"]) for p in lines)
    assert len(lines) == 28 and f"wrote 28 posts and {total} comments" in done.stdout
    assert all({"url", "title", "text", "comments"} <= set(p) for p in lines)
    assert all(
        {"fingerprint", "text", "author", "first_seen", "gone_at"} <= set(c) for p in lines for c in p["comments"]
    )


def test_commands_without_a_store_say_so(tmp_path: Path) -> None:
    done = scrapy(tmp_path / "none.db", "posts", check=False)
    assert done.returncode != 0 and "no store at" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "none.db").exists()  # a query never creates a store
    usage = scrapy(tmp_path / "none.db", "search", check=False)
    assert usage.returncode != 0 and "Traceback" not in usage.stderr


def test_posts_and_sites_work_while_a_crawl_writes(farm: BlogFarm, tmp_path: Path) -> None:
    """The farm holds every article page until the test lets it through (a semaphore), so the crawl
    waits for the readers: each step lets three articles through, waits until they are stored (and
    from the second step on, until the first batch's posts are), then reads while the crawl still
    waits for the rest. No step depends on how fast anything runs."""
    t0 = time.time()
    farm.clock.set(t0)
    articles = 16
    blog = farm.add_generated_blog("slow", articles=articles, start=t0 - 16 * HOUR, interval=HOUR, seed=43)
    gate = threading.Semaphore(0)
    for article in blog.articles:  # the article pages (not their comment feeds) wait for a permit each
        farm.misbehave(article.url, "slow", gate=gate)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    log = tmp_path / "crawl.log"
    # the held article requests must not time out while the readers run
    settings = {"BLOGS_BATCH_SIZE": "3", "DOWNLOAD_TIMEOUT": "600"}
    crawl = start_crawl(feeds, db, settings=settings, clock=farm.clock, log=log)
    seen: list[int] = []
    try:
        for through in range(3, articles, 3):
            for _ in range(3):
                gate.release()
            stored = wait_for(lambda n=through: _count(db, "snapshots") >= n, timeout=300)
            assert stored, log.read_text(errors="replace")[-3000:]
            if through >= 6:  # the first batch is full: its posts come while the crawl still waits
                assert wait_for(lambda: _count(db, "posts") >= 3, timeout=300), log.read_text()[-3000:]
            posts = jsonl(db, "posts")
            sites = jsonl(db, "sites")
            assert crawl.poll() is None  # held: the crawl cannot finish before the last permits
            seen.append(len(posts))
            assert len(sites) == 1 and sites[0]["posts"] >= len(posts)
        for _ in range(articles):  # the rest, and more: the crawl finishes
            gate.release()
        code = stop(crawl, None, timeout=300)
    finally:
        if crawl.poll() is None:  # the test failed half-way
            stop(crawl, signal.SIGKILL)
    assert code == 0, log.read_text(errors="replace")[-3000:]
    assert len(seen) == 5 and seen[-1] >= 3, seen
    assert seen == sorted(seen)  # readers see committed progress, never a step back
    assert len(jsonl(db, "posts")) == articles
    print(f"posts seen while the crawl wrote: {seen}")


def _count(db: Path, table: str) -> int:
    found = crawl_rows(db, f"SELECT COUNT(*) FROM {table}")
    return int(found[0][0]) if found else 0


def test_a_copy_into_postgresql_answers_every_query_command_the_same(
    crawled: Path, pg_server: PostgresServer, tmp_path: Path
) -> None:
    """`scrapy copy URL` moves the crawled SQLite store into PostgreSQL; every query command then
    prints the same on both backends, and a second copy adds nothing."""
    url = pg_server.new_database()
    done = scrapy(crawled, "copy", url)
    copied = rf"copied \d+ rows of {len(TABLES)} tables to postgresql://127\.0\.0\.1:\d+/store_\d+ \(\d+ new"
    assert re.match(copied, done.stdout), done.stdout
    again = scrapy(crawled, "copy", url)
    assert "(0 new," in again.stdout, again.stdout

    def same(*args: str) -> str:
        lite, pg = scrapy(crawled, *args), scrapy(url, *args)
        assert pg.stdout == lite.stdout, args
        return lite.stdout

    sites = [{k: v for k, v in json.loads(line).items() if k != "profile_age"} for line in same_lines(crawled, url)]
    assert len(sites) == 2
    for fmt in ("jsonl", "csv", "table"):
        same("posts", "--format", fmt)
        same("comments", "--format", fmt)
    same("posts", "--site", "ja", "--since", "2000-01-01", "--limit", "5", "--format", "jsonl")
    article = jsonl(crawled, "comments", "--site", "ja", "--limit", "1")[0]["url"]
    assert same("comments", "--article", article, "--format", "jsonl")
    posts = jsonl(crawled, "posts")
    word = max(re.findall(r"[A-Za-z]{6,}", next(p for p in posts if p["site"] == "en")["text"]), key=len)
    ja = next(p for p in posts if p["site"] == "ja")["text"].split("\n")[-1]
    phrase = next(
        ja[i : i + 5] for i in range(len(ja)) if re.fullmatch(r"[\u3040-\u30ff\u4e00-\u9fff]{5}", ja[i : i + 5])
    )
    for query_args in ([word], [phrase], [phrase[:2]], [f'"{word}" OR {phrase}'], [word, "NOT", "zzqq"]):
        # the same hits; SQLite's FTS5 ranks them by relevance, PostgreSQL lists them newest first
        lite = {h["url"] for h in jsonl(crawled, "search", *query_args, "--limit", "100")}
        pg = {h["url"] for h in jsonl(url, "search", *query_args, "--limit", "100")}
        assert lite == pg and lite, query_args
    lite_out, pg_out = tmp_path / "lite.jsonl", tmp_path / "pg.jsonl"
    scrapy(crawled, "export", str(lite_out))
    scrapy(url, "export", str(pg_out))
    assert pg_out.read_bytes() == lite_out.read_bytes()


def same_lines(crawled: Path, url: str) -> list[str]:
    """`scrapy sites --format jsonl` on both stores, equal but for the profile's age (relative to now)."""
    lite, pg = (scrapy(db, "sites", "--format", "jsonl").stdout.splitlines() for db in (crawled, url))
    strip = [{k: v for k, v in json.loads(line).items() if k != "profile_age"} for line in lite]
    assert strip == [{k: v for k, v in json.loads(line).items() if k != "profile_age"} for line in pg]
    return lite
