"""Comment feeds as a check: entries parsed and stored, agreement per site, a warning when it falls."""

from __future__ import annotations

import json
from pathlib import Path

from test_store_schema import NOW, add_page

from extractor.comments.records import CommentRecord
from extractor.core.tokens import tokenize
from jobs.commentfeeds import parse_comment_feed
from store import open_store
from store.clock import to_iso
from store.comments import comment_dicts, refresh_article, upsert
from store.sqlite import Store


def truth_of(corpus_root: Path, name: str) -> dict:
    path = corpus_root / "wordpress" / "tt21" / "truth.jsonl"
    return next(row for row in map(json.loads, path.open(encoding="utf-8")) if row["file"] == f"pages/{name}.html")


def extracted(store: Store, snapshot: int, url: str, comments: list[tuple[str, str]]) -> None:
    records = [CommentRecord(text=t, author=a, position=i) for i, (t, a) in enumerate(comments)]
    with store.transaction() as db:
        upsert(
            db,
            "extractions",
            [
                {
                    "snapshot": snapshot,
                    "article": url,
                    "site": "h",
                    "method": "profile",
                    "profile_version": 1,
                    "post": "post",
                    "comments": json.dumps(comment_dicts(records)),
                    "comment_count": len(records),
                    "warnings": "[]",
                }
            ],
            ("snapshot",),
        )
        refresh_article(db, url)


def test_comment_feed_entries_are_the_page_comments(corpus_root: Path) -> None:
    truth = truth_of(corpus_root, "28")
    body = (corpus_root / "wordpress" / "tt21" / "comment-feeds" / "28.xml").read_bytes()
    entries = parse_comment_feed(body, truth["url"] + "feed/")
    assert len(entries) == len(truth["comments"]) == 7
    assert {e["guid"] for e in entries} == {e["link"] for e in entries}
    assert sorted(tokenize(" ".join(e["text"] for e in entries))) == sorted(
        tokenize(" ".join(c["text"] for c in truth["comments"]))
    )
    assert {e["author"] for e in entries} == {c["author"] for c in truth["comments"]}
    assert all(e["date"] and e["date"].endswith("Z") and "<" not in e["text"] for e in entries)
    assert parse_comment_feed(b"<html><body>not a feed</body></html>", "http://h/feed/") == []


def test_agreement_per_site_and_a_warning_when_it_falls(fresh_db: str, corpus_root: Path) -> None:
    store = open_store(fresh_db)
    pages = {}
    for name in ("28", "25"):
        truth = truth_of(corpus_root, name)
        body = (corpus_root / "wordpress" / "tt21" / "comment-feeds" / f"{name}.xml").read_bytes()
        first = add_page(store, truth["url"], b"<p>first</p>", at=NOW)
        with store.transaction():
            entries = parse_comment_feed(body, truth["url"] + "feed/")
            store.store_feed_comments(article=truth["url"], site="h", entries=entries, fetched_at=NOW + 3600)
        again = add_page(store, truth["url"], b"<p>again</p>", kind="refetch", at=NOW + 3601)
        extracted(store, first, truth["url"], [])
        extracted(store, again, truth["url"], [(c["text"], c["author"]) for c in truth["comments"]])
        pages[name] = (truth, again)
    found = store.site_agreement("h")
    assert found is not None and (found.articles, found.count_exact, round(found.f1, 6)) == (2, 1.0, 1.0)
    with store.transaction():
        assert store.check_comment_feeds(["h"], minimum=0.8, drop=0.15, now=NOW + 4000) == []
    assert store.db.execute(
        "SELECT comment_feed_articles, comment_feed_exact, comment_feed_f1 FROM sites"
    ).fetchone() == (
        2,
        1.0,
        1.0,
    )
    # The template changes: the next re-fetch of one article is read as two comments of boilerplate.
    truth, _again = pages["28"]
    later = add_page(store, truth["url"], b"<p>later</p>", kind="refetch", at=NOW + 7200)
    with store.transaction():
        body = (corpus_root / "wordpress" / "tt21" / "comment-feeds" / "28.xml").read_bytes()
        entries = parse_comment_feed(body, truth["url"] + "feed/")
        store.store_feed_comments(article=truth["url"], site="h", entries=entries, fetched_at=NOW + 7199)
    extracted(store, later, truth["url"], [("Leave a Reply", "Search"), ("Categories Travel", "Menu")])
    with store.transaction():
        warnings = store.check_comment_feeds(["h"], minimum=0.8, drop=0.15, now=NOW + 8000)
    assert len(warnings) == 2 and all("Site h" in w and "(was 1.00)" in w for w in warnings), warnings
    assert store.db.execute("SELECT comment_feed_exact FROM sites").fetchone() == (0.5,)
    assert store.db.execute("SELECT comment_feed_checked_at FROM sites").fetchone() == (to_iso(NOW + 8000),)
    # The comments of the old template's fetch are kept, marked gone from the page.
    gone = store.db.execute("SELECT COUNT(*) FROM comments WHERE article = ? AND gone_at IS NOT NULL", [truth["url"]])
    assert gone.fetchone() == (7,)
