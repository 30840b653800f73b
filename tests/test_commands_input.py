"""Issue 21, errors instead of empty answers: the query commands' input handling and output, as
`scrapy` subprocesses and as queries on a real store built with the pipeline's own writers.

Unknown sites and articles, unreadable --since values and search queries, and impossible export
paths are one line on stderr with exit 2; URLs match however they are spelled; table output never
cuts a URL; search phrases and AND/OR/NOT/* mean the same in the FTS5 path and the scan path.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from crawl_helpers import PROJECT, _env

from extractor.comments.records import CommentRecord
from farm.postgres import PostgresServer
from store import StoreBackend, open_store, query
from store.clock import to_iso
from store.comments import comment_dicts, refresh_article, upsert
from store.pages import PageRecord
from store.searchquery import parse_search
from store.sqlite import Store
from store.urls import normalize_url

NOW = time.time()
HOUR, DAY = 3600.0, 86400.0
EN, JA = "http://127.0.0.1:8001/en", "http://127.0.0.1:8002/ja"
LONG = f"{EN}/2026/11/making-a-shooting-board-for-the-small-bench-plane-and-keeping-it-square-for-years-to-come/"
JA_RAW = f"{JA}/日本語の記事/"  # as a browser shows it; stored %-encoded (upper-case escapes)
POSTS: list[tuple[str, str, str, str, float, list[tuple[str, str]]]] = [
    # site, url, title, text, published, comments (text, author)
    (
        "en",
        LONG,
        "Making a shooting board",
        "Making a shooting board\nA shooting board keeps the plane square to the edge. The jig is simple.",
        NOW - 3 * HOUR,
        [("Great shooting board, thanks!", "Maya Keller"), ("What wood did you use?", "Jonas Quinn")],
    ),
    (
        "en",
        f"{EN}/keyboard-trays/",
        "Keyboard trays",
        "Keyboard trays\nKeyboard trays and boards under the bench. Shooting is for another day.",
        NOW - 3 * DAY,
        [("Nice tray.", "Ann")],
    ),
    ("en", f"{EN}/a-jig/", "A jig", "A jig\nA simple jig for sharpening chisels.", NOW - 10 * DAY, []),
    (
        "ja",
        normalize_url(JA_RAW),
        "ベランダ菜園の記録",
        "ベランダ菜園の記録\n日本の夏はベランダでトマトを育てます。",
        NOW - 5 * HOUR,
        [("参考になりました。ありがとうございます。", "週末カメラマン")],
    ),
    ("ja", f"{JA}/sake/", "日本酒の話", "日本酒の話\n冷やで飲む日本酒が好きです。", NOW - 2 * DAY, []),
]


def add_post(
    store: StoreBackend, site: str, url: str, title: str, text: str, published: float, coms: list[tuple[str, str]]
) -> None:
    """A feed entry, its stored page and its extraction, through the crawler's own store writers."""
    feed = f"http://127.0.0.1/{site}/feed/"
    store.sync_feeds([(feed, site)], published)
    entry = {
        "url": url,
        "site": site,
        "entry_id": url,
        "guid": None,
        "link": url,
        "title": title,
        "author": "Ann",
        "published": to_iso(published),
        "comment_rss": None,
        "slash_comments": None,
    }
    store.record_feed_ok(feed, now=published, status=200, next_check=NOW, interval=600, new_articles=[entry])
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
    items = comment_dicts([CommentRecord(text=t, author=a, position=i) for i, (t, a) in enumerate(coms)])
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
                    "comments": json.dumps(items, ensure_ascii=False),
                    "comment_count": len(items),
                    "warnings": "[]",
                }
            ],
            ("snapshot",),
        )
        refresh_article(db, url)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("commands_input") / "blogs.db"
    with Store(path) as store:
        for site, url, title, text, published, coms in POSTS:
            add_post(store, site, url, title, text, published, coms)
    return path


def scrapy(db: Path, *args: str, code: int = 0, columns: int = 200) -> subprocess.CompletedProcess[str]:
    """`scrapy ARGS -s BLOGS_DB=db` as the user runs it; asserts the exit code and no traceback."""
    # Warnings off: a stale compiled build warns on stderr, and these tests count stderr lines.
    env = {**_env(), "COLUMNS": str(columns), "PYTHONWARNINGS": "ignore"}
    cmd = [sys.executable, "-m", "scrapy", *args, "-s", f"BLOGS_DB={db}"]
    done = subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == code, (done.returncode, done.stderr[-3000:])
    assert "Traceback" not in done.stderr, done.stderr
    return done


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and done.stdout == "", (done.stdout, done.stderr)
    assert re.match(r"^scrapy \w+: error: ", lines[0]), lines[0]
    return lines[0]


def urls(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [json.loads(line)["url"] for line in done.stdout.splitlines()]


# ---------------------------------------------------------------- unknown site and article


def test_unknown_site_is_an_error_naming_the_sites(db: Path) -> None:
    for command in ("posts", "comments", "export"):
        args = ["-"] if command == "export" else []
        line = one_line_error(scrapy(db, command, "--site", "NOSUCH", *args, code=2))
        assert "no site 'NOSUCH' in the store; sites: en, ja" in line, line
    assert "did you mean 'en'?" in one_line_error(scrapy(db, "posts", "--site", "EN", code=2))
    assert len(urls(scrapy(db, "comments", "--site", "ja", "--format", "jsonl"))) == 1


def test_unknown_article_is_an_error(db: Path) -> None:
    line = one_line_error(scrapy(db, "comments", "--article", f"{EN}/no-such-post/", code=2))
    assert f"no article '{EN}/no-such-post/' in the store" in line
    line = one_line_error(scrapy(db, "comments", "--site", "ja", "--article", LONG, code=2))
    assert "is on site 'en', not 'ja'" in line


@pytest.mark.parametrize(
    "spelling",
    [
        LONG.rstrip("/"),  # trailing slash dropped
        LONG.replace("http://127.0.0.1:8001", "HTTP://127.0.0.1:8001") + "?utm_source=rss#comments",
        JA_RAW,  # decoded non-ASCII path
        quote(JA_RAW, safe=":/").lower(),  # lower-case escapes: %e6%97%a5...
        JA_RAW.rstrip("/"),
    ],
)
def test_article_urls_match_however_they_are_spelled(db: Path, spelling: str) -> None:
    with Store(db) as store:
        found = store.find_article(spelling)
    assert found == (LONG if spelling.lower().startswith(EN) else normalize_url(JA_RAW)), (spelling, found)


def test_comments_of_a_decoded_url_through_the_command(db: Path) -> None:
    done = scrapy(db, "comments", "--article", JA_RAW.rstrip("/"), "--format", "jsonl")
    assert urls(done) == [normalize_url(JA_RAW)]


# ---------------------------------------------------------------- --since


def test_since_reads_iso_forms_and_relative_times() -> None:
    now = 1_714_557_600.0  # 2024-05-01T10:00:00Z
    assert query.parse_since("2024-05-01", now) == "2024-05-01T00:00:00.000Z"
    assert query.parse_since("2024-05-01T10:00", now) == "2024-05-01T10:00:00.000Z"
    assert query.parse_since("2024-05-01T10:00Z", now) == "2024-05-01T10:00:00.000Z"
    assert query.parse_since("2024-05-01T12:00:00+02:00", now) == "2024-05-01T10:00:00.000Z"
    assert query.parse_since("2024-05-01 05:30-04:30", now) == "2024-05-01T10:00:00.000Z"
    assert query.parse_since("7d", now) == "2024-04-24T10:00:00.000Z"
    assert query.parse_since("12h", now) == "2024-04-30T22:00:00.000Z"
    assert query.parse_since("30m", now) == "2024-05-01T09:30:00.000Z"
    assert query.parse_since("2w", now) == "2024-04-17T10:00:00.000Z"
    assert query.parse_since("today", now) == "2024-05-01T00:00:00.000Z"
    assert query.parse_since("Yesterday", now) == "2024-04-30T00:00:00.000Z"
    for bad in ("2024-13-45", "last tuesday", "7", "2024", "2024-05", "", "7 days", "-3d", "20240501"):
        with pytest.raises(query.QueryError, match=re.escape("is not a date; use e.g. 2024-05-01")):
            query.parse_since(bad, now)


def test_since_filters_in_utc_and_rejects_what_it_cannot_read(db: Path) -> None:
    everything = urls(scrapy(db, "posts", "--format", "jsonl"))
    assert len(everything) == 5
    assert set(urls(scrapy(db, "posts", "--since", "1d", "--format", "jsonl"))) == {LONG, normalize_url(JA_RAW)}
    assert set(urls(scrapy(db, "posts", "--since", "12h", "--site", "en", "--format", "jsonl"))) == {LONG}
    # The same instant written with an offset: before the fix this compared "…+05:00" as text.
    four_hours_ago = to_iso(NOW - 4 * HOUR)
    offset = time.strftime("%Y-%m-%dT%H:%M:%S+05:00", time.gmtime(NOW - 4 * HOUR + 5 * HOUR))
    via_offset = urls(scrapy(db, "posts", "--since", offset, "--format", "jsonl"))
    assert via_offset == urls(scrapy(db, "posts", "--since", four_hours_ago, "--format", "jsonl")) == [LONG]
    for bad in ("2024-13-45", "last tuesday"):
        line = one_line_error(scrapy(db, "posts", "--since", bad, code=2))
        assert f"--since {bad!r} is not a date" in line
    assert len(urls(scrapy(db, "comments", "--since", "2w", "--format", "jsonl"))) == 4


# ---------------------------------------------------------------- search


def search(db: Path | str, text: str, where: str = "posts", scan: bool | None = None) -> set[str]:
    with open_store(db, read_only=True) as store:
        return {hit["url"] for hit in store.search(text, where, limit=50, scan=scan)}


QUERIES = {
    "shooting board": {LONG, f"{EN}/keyboard-trays/"},
    '"shooting board"': {LONG},
    '"Shooting Board"': {LONG},
    "shooting AND board": {LONG, f"{EN}/keyboard-trays/"},
    "shooting NOT tray": {LONG},
    '"shooting board" OR sharpening': {LONG, f"{EN}/a-jig/"},
    "jig NOT (chisels OR square)": set(),
    "(jig OR tray) NOT chisels": {LONG, f"{EN}/keyboard-trays/"},
    "shoot*": {LONG, f"{EN}/keyboard-trays/"},
    '"shooting bo"*': {LONG},
    "ベランダ": {normalize_url(JA_RAW)},
    '"日本の夏"': {normalize_url(JA_RAW)},
    "日本酒 OR トマト": {normalize_url(JA_RAW), f"{JA}/sake/"},
    "日本 NOT 日本酒": {normalize_url(JA_RAW)},  # 2 characters: the scan path
    "zzqqxxyy": set(),
}


@pytest.mark.parametrize("text", sorted(QUERIES))
def test_search_syntax_means_the_same_in_fts_and_in_the_scan(db: Path, text: str) -> None:
    assert search(db, text) == QUERIES[text]
    assert search(db, text, scan=True) == QUERIES[text]
    if parse_search(text).fits_fts():
        assert search(db, text, scan=False) == QUERIES[text]


@pytest.fixture(scope="module")
def pg_db(pg_server: PostgresServer) -> str:
    """The same posts and comments in a PostgreSQL store."""
    url = pg_server.new_database()
    with open_store(url) as store:
        for site, post_url, title, text, published, coms in POSTS:
            add_post(store, site, post_url, title, text, published, coms)
    return url


@pytest.mark.parametrize("text", sorted(QUERIES))
def test_search_syntax_means_the_same_on_postgresql(pg_db: str, text: str) -> None:
    assert search(pg_db, text) == QUERIES[text]


@pytest.mark.parametrize("on", ["sqlite", "postgresql"])
def test_search_in_comments_by_phrase_author_and_short_terms(db: Path, pg_db: str, on: str) -> None:
    where = db if on == "sqlite" else pg_db
    assert search(where, '"shooting board"', "comments") == {LONG}
    assert search(where, '"Maya Keller" OR Ann', "comments") == {LONG, f"{EN}/keyboard-trays/"}
    assert search(where, "参考 NOT 週末", "comments") == set()
    assert search(where, "100%", "comments") == search(where, "a_b", "comments") == set()  # LIKE wildcards are text


def test_search_phrase_through_the_command(db: Path) -> None:
    done = scrapy(db, "search", '"shooting board"', "--format", "jsonl")
    hits = [json.loads(line) for line in done.stdout.splitlines()]
    assert [h["url"] for h in hits] == [LONG] and "[shooting board]" in hits[0]["snippet"].lower()
    short = [json.loads(line) for line in scrapy(db, "search", "日本 トマト", "--format", "jsonl").stdout.splitlines()]
    assert [h["url"] for h in short] == [normalize_url(JA_RAW)] and "[日本]" in short[0]["snippet"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty query"),
        ('"shooting board', "unclosed quote"),
        ('""', "empty phrase"),
        ("OR board", "OR needs a word or phrase on both sides"),
        ("board AND", "the query ends where a word or phrase is expected"),
        ("NOT board", "NOT needs an item before it"),
        ("(board", "unbalanced '('"),
        ("board)", "unbalanced ')'"),
        ("()", "empty or unbalanced parentheses"),
        ("sh*ot", "* goes only at the end of a word"),
        ("*", "* goes only at the end of a word"),
    ],
)
def test_unreadable_search_queries_are_one_line_errors(db: Path, text: str, message: str) -> None:
    with Store(db) as store, pytest.raises(query.QueryError, match=re.escape(message)):
        store.search(text)


def test_search_syntax_errors_through_the_command(db: Path) -> None:
    assert "unclosed quote" in one_line_error(scrapy(db, "search", '"shooting board', code=2))
    assert "empty query" in one_line_error(scrapy(db, "search", code=2))
    assert "empty query" in one_line_error(scrapy(db, "search", "  ", code=2))


# ---------------------------------------------------------------- table output


def test_table_never_cuts_a_url_so_it_round_trips(db: Path) -> None:
    table = scrapy(db, "posts", "--site", "en", columns=80).stdout.splitlines()
    assert len(LONG) > 100 and any(line.startswith(LONG + " ") for line in table), table
    pasted = table[1].split()[0]
    assert pasted == LONG
    done = scrapy(db, "comments", "--article", pasted, "--format", "jsonl")
    assert urls(done) == [LONG, LONG]
    comments_table = scrapy(db, "comments", "--article", pasted, columns=80).stdout.splitlines()
    assert all(line.split()[0] == LONG for line in comments_table[1:]), comments_table
    hits = scrapy(db, "search", "square", columns=80).stdout.splitlines()
    assert hits[1].split()[0] == LONG


def test_empty_table_says_none(db: Path) -> None:
    done = scrapy(db, "posts", "--since", "2099-01-01")
    assert done.stdout.splitlines()[1:] == ["(none)"]
    assert scrapy(db, "posts", "--since", "2099-01-01", "--format", "jsonl").stdout == ""


# ---------------------------------------------------------------- export


def test_export_to_standard_output(db: Path, tmp_path: Path) -> None:
    done = scrapy(db, "export", "--site", "ja", "-")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["url"] for r in records] == [normalize_url(JA_RAW), f"{JA}/sake/"]
    assert records[0]["comments"][0]["author"] == "週末カメラマン"
    assert done.stderr.strip() == "wrote 2 posts and 1 comments to standard output"
    assert not (PROJECT / "-").exists()


def test_export_into_a_missing_folder_writes_nothing(db: Path, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "posts.jsonl"
    line = one_line_error(scrapy(db, "export", str(target), code=2))
    assert f"no folder {target.parent}" in line
    assert not target.parent.exists()
    assert "is a folder" in one_line_error(scrapy(db, "export", str(tmp_path), code=2))
    assert os.listdir(tmp_path) == []


def test_bad_limit_is_a_usage_error(db: Path) -> None:
    for value in ("0", "-3", "many"):
        done = scrapy(db, "posts", "--limit", value, code=2)
        assert "is not a positive whole number" in done.stderr


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path: Path) -> None:
    db = tmp_path / "blogs.db"
    with Store(db) as store:  # one post far larger than a pipe's buffer: the writer must meet the closed pipe
        add_post(store, "en", f"{EN}/big/", "Big", "Big\n" + "sawdust " * 40_000, NOW - HOUR, [])
    env = {**_env(), "PYTHONWARNINGS": "ignore"}
    cmd = [sys.executable, "-m", "scrapy", "export", "-", "-s", f"BLOGS_DB={db}"]
    proc = subprocess.Popen(cmd, cwd=PROJECT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # like `| head` that has read enough
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1 and err == "", err
