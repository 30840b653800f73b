"""Comments read from a comment system's endpoint, in a real SQLite store (issue 31): a read is
persisted raw before it is parsed, a read a killed run left unparsed is parsed by the next, and
an article's `comments_state` never says "none" for comments nobody read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_store_schema import NOW, add_page

from extractor import PageExtraction
from jobs.commentapi import isso_comments, process_api_read, process_left_reads
from jobs.extraction import comment_system_of, extraction_row
from store import open_store
from store.comments import refresh_article
from store.commentsystems import ApiRead, ThreadRead, comments_state
from store.sqlite import Store

URL = "http://h/2024/05/a/"
ISSO_PAGE = b'<article><p>post</p></article><script data-isso="http://c/" src="http://c/js/embed.min.js"></script>'


def isso_answer(replies: list[dict[str, Any]], hidden: int = 0, parent: int | None = None) -> dict[str, Any]:
    return {
        "url": "http://c/?uri=/2024/05/a/",
        "status": 200,
        "body": json.dumps(
            {"id": parent, "total_replies": len(replies) + hidden, "hidden_replies": hidden, "replies": replies}
        ),
    }


def comment(cid: int, text: str, author: str | None, created: float, parent: int | None = None, **extra: Any) -> dict:
    return {
        "id": cid,
        "parent": parent,
        "text": f"<p>{text}</p>",
        "author": author,
        "created": created,
        "mode": 1,
        "replies": [],
        "hidden_replies": 0,
        **extra,
    }


def test_isso_answers_become_records_with_parents_and_without_deleted_comments() -> None:
    first = isso_answer(
        [
            comment(
                1,
                "First!",
                "Ann",
                NOW,
                replies=[comment(3, "Reply to Ann", "Bob", NOW + 20, parent=1)],
                hidden_replies=1,
            ),
            comment(2, "", None, NOW + 10, mode=4, replies=[comment(4, "Reply to a deleted one", "Cy", NOW + 30, 2)]),
        ],
        hidden=1,
    )
    more_top = isso_answer([comment(5, "Late top comment", None, NOW + 40)])
    more_replies = isso_answer([comment(6, "Second reply to Ann", "Dee", NOW + 50, parent=1)], parent=1)
    records = isso_comments([first, more_top, more_replies])
    assert [(r["text"], r["author"]) for r in records] == [
        ("First!", "Ann"),
        ("Reply to Ann", "Bob"),
        ("Second reply to Ann", "Dee"),
        ("Reply to a deleted one", "Cy"),
        ("Late top comment", None),
    ]
    by_fp = {r["fingerprint"]: r["text"] for r in records}
    assert [by_fp.get(r["parent"]) for r in records] == [None, "First!", "First!", None, None]
    assert all(r["date"] and r["date_precision"] == "second" for r in records)


def test_a_read_is_stored_raw_then_parsed_and_a_left_read_is_parsed_by_the_next_run(fresh_db: str) -> None:
    store = open_store(fresh_db)  # SQLite and PostgreSQL alike
    add_page(store, URL, ISSO_PAGE)
    read = ApiRead(
        URL,
        "h",
        "isso",
        "http://c/?uri=/2024/05/a/",
        NOW + 5,
        [isso_answer([comment(1, "Hi", "Ann", NOW)])],
        complete=True,
    )
    with store.transaction():
        first = store.save_api_read(read)
        assert store.save_api_read(read) == first  # the same read is stored once
    assert store.unprocessed_api_reads() == [first]
    assert store.db.execute("SELECT COUNT(*) FROM comments").fetchone() == (0,)
    assert process_left_reads(store, NOW + 6) == 1  # what a killed run left
    assert store.unprocessed_api_reads() == []
    rows = list(store.db.query("SELECT text, author, source, gone_at FROM comments"))
    assert rows == [{"text": "Hi", "author": "Ann", "source": "api:isso", "gone_at": None}]
    article = store.article(URL)
    assert article is not None
    assert (article["comment_system"], article["comments_state"]) == ("isso", "harvested")
    with store.transaction():
        assert process_api_read(store, first, NOW + 7) == 1  # twice is harmless
    store.close()


def test_a_failed_read_says_not_harvested_and_keeps_what_was_read_before(tmp_path: Path) -> None:
    store = Store(tmp_path / "blogs.db")
    add_page(store, URL, ISSO_PAGE)
    ok = ApiRead(URL, "h", "isso", "u", NOW + 5, [isso_answer([comment(1, "Hi", "Ann", NOW)])], complete=True)
    failed = ApiRead(URL, "h", "isso", "u", NOW + 3600, [], complete=False, error="isso endpoint failed: HTTP 503")
    with store.transaction() as db:
        for read in (ok, failed):
            process_api_read(store, store.save_api_read(read), NOW + 3601)
        refresh_article(db, URL)
    article = store.article(URL)
    assert article is not None and article["comments_state"] == "not-harvested: isso endpoint failed: HTTP 503"
    assert [(r["text"], r["gone_at"]) for r in store.db.query("SELECT text, gone_at FROM comments")] == [("Hi", None)]
    store.close()


def test_comments_state_wording() -> None:
    read = ThreadRead("isso", "2026-01-01T00:00:00Z", 1, True, None, [])
    assert comments_state("html", 3, []) == "harvested"
    assert comments_state("html", 0, []) == "none"
    assert comments_state("html", None, []) == "not-harvested: page not extracted"
    assert comments_state("jetpack", 0, []) == "none"  # Jetpack's comments are in the HTML
    assert comments_state("facebook", 0, []) == "not-harvested: no connector for facebook"
    needs_key = ThreadRead("disqus", "2026-01-01T00:00:00Z", 1, False, "needs disqus key", [])
    assert comments_state("disqus", 0, [needs_key]) == "not-harvested: needs disqus key"
    assert comments_state("unknown-script", 0, []) == "not-harvested: no connector for unknown-script"
    assert comments_state("isso", 0, []) == "not-harvested: isso endpoint not read yet"
    assert comments_state("isso", 0, [read]) == "none"  # read: the thread is empty


def test_a_snapshots_comment_system_is_found_once_and_read_back_on_re_extraction(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "blogs.db"))
    try:
        snap_id = add_page(store, URL, ISSO_PAGE)
        (first,) = store.load_snapshots([snap_id])
        assert first["known_comment_system"] is None
        row = extraction_row(first, PageExtraction(URL, post="post"), "provisional", None, 0)
        assert comment_system_of(first) == "isso"
        with store.transaction():
            store.write_extractions([row])
        (again,) = store.load_snapshots([snap_id])
        assert again["known_comment_system"] == "isso"
        # read back, not parsed again: a stored answer wins over the page's markup
        again["body"] = b""
        assert comment_system_of(again) == "isso"
    finally:
        store.close()
