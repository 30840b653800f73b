"""Edits are not deletions: a comment whose text changed keeps its row and its earlier text as a
version; `gone_at` only where the page, extracted with confidence, really no longer shows it."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, write_feeds
from test_store_schema import NOW, add_page

from extractor.comments.records import CommentRecord
from farm import BlogFarm
from store import open_store
from store.clock import to_iso
from store.comments import Observation, comment_dicts, derive, merge, refresh_article, upsert
from store.sqlite import Store

URL = "http://h/a"
HOUR = 3600.0

A = ("写真がとてもきれいですね。", "鈴木一郎", "2026-11-25T15:02:15Z")
REPLY = ("続きを楽しみにしています。同じことで困っていたので助かりました。", "伊藤誠", "2026-11-25T18:12:00Z")
B = ("続きを楽しみにしています。", "渡辺由美", "2026-11-25T17:32:28Z")
A_WITH_REPLY = (A[0] + "\n" + REPLY[0], A[1], A[2])  # the reply glued to its parent by an extraction


def at(minute: int) -> str:
    return f"2027-01-15T08:{minute:02d}:00.000Z"


def obs(snapshot: int, minute: int, *items: tuple[str, str | None, str | None], **kw: object) -> Observation:
    recs = [CommentRecord(text=t, author=a, date=d, position=i) for i, (t, a, d) in enumerate(items)]
    return Observation(snapshot, at(minute), True, comment_dicts(recs), **kw)  # type: ignore[arg-type]


def by_author(found: dict[str, dict]) -> dict[str, dict]:
    return {r["author"]: r for r in found.values()}


def test_a_changed_text_is_an_edit_with_its_earlier_version_not_a_deletion() -> None:
    history = [obs(1, 0, A), obs(2, 10, A_WITH_REPLY, B)]
    derived = derive(URL, "nikki", history)
    assert len(derived.rows) == 2  # not A gone + a new "A with reply"
    a = by_author(derived.rows)[A[1]]
    assert a["gone_at"] is None and a["text"] == A_WITH_REPLY[0]
    assert a["first_seen"] == at(0) and a["last_seen"] == at(10)
    assert [(v["fingerprint"], v["text"], v["seen_from"], v["seen_until"]) for v in derived.versions] == [
        (a["fingerprint"], A[0], at(0), at(0))
    ]
    # The extractor separates them again: the same row, the glued text becomes a version too.
    again = derive(URL, "nikki", [*history, obs(3, 20, A, B, REPLY)])
    a3 = by_author(again.rows)[A[1]]
    assert a3["fingerprint"] == a["fingerprint"] and a3["text"] == A[0] and len(again.rows) == 3
    assert [v["text"] for v in again.versions] == [A[0], A_WITH_REPLY[0]]
    assert all(r["gone_at"] is None for r in again.rows.values())


def test_an_edit_needs_the_same_author_and_date() -> None:
    other_author = (A_WITH_REPLY[0], "別の人", A[2])
    later = (A_WITH_REPLY[0], A[1], "2026-11-26T09:00:00Z")
    for new in (other_author, later):
        found = by_author(merge(URL, "nikki", [obs(1, 0, A, B), obs(2, 10, new, B)]))
        gone = [r for r in merge(URL, "nikki", [obs(1, 0, A, B), obs(2, 10, new, B)]).values() if r["gone_at"]]
        assert [r["text"] for r in gone] == [A[0]], new
        assert len(found) >= 2
    # Unrelated texts of one author at one date on different places: two comments, not an edit.
    first = ("Great write-up, thanks!", "Ann", "2027-01-01T10:00:00Z")
    second = ("How did you cut the dovetails so cleanly?", "Ann", "2027-01-01T10:00:00Z")
    found = merge(URL, "h", [obs(1, 0, B, first), obs(2, 10, second, B, first)])
    assert len(found) == 3 and not any(r["gone_at"] for r in found.values())


def test_only_a_confident_extraction_marks_comments_gone() -> None:
    seen = [obs(1, 0, A, B)]
    # A page whose extraction found no comments (the comment region was missed) says nothing.
    missed = merge(URL, "h", [*seen, obs(2, 10)])
    assert len(missed) == 2 and not any(r["gone_at"] for r in missed.values())
    # Nor does a profile extraction that matched its profile poorly.
    poor = obs(2, 10, B, template_match=0.2)
    matched_poorly = merge(URL, "h", [*seen, poor])
    assert len(matched_poorly) == 2 and not any(r["gone_at"] for r in matched_poorly.values())
    # A confident extraction that found comments, but not A: A is gone, and B is not.
    found = by_author(merge(URL, "h", [*seen, obs(2, 10, B, template_match=0.9)]))
    assert found[A[1]]["gone_at"] == at(10) and found[B[1]]["gone_at"] is None
    # The caller may know better (the comment feed read with the page listed none).
    found = by_author(merge(URL, "h", [*seen, obs(2, 10, confident=True)]))
    assert found[A[1]]["gone_at"] == at(10) == found[B[1]]["gone_at"]


def _extraction(store: Store, snapshot: int, *items: tuple[str, str | None, str | None]) -> None:
    recs = [CommentRecord(text=t, author=a, date=d, position=i) for i, (t, a, d) in enumerate(items)]
    with store.transaction() as db:
        upsert(
            db,
            "extractions",
            [
                {
                    "snapshot": snapshot,
                    "article": URL,
                    "site": "h",
                    "method": "profile",
                    "profile_version": 1,
                    "template_match": 0.9,
                    "post": "post",
                    "comments": json.dumps(comment_dicts(recs)),
                    "comment_count": len(recs),
                    "warnings": "[]",
                }
            ],
            ("snapshot",),
        )
        refresh_article(db, URL)


def test_the_store_keeps_versions_and_an_empty_comment_feed_confirms_deletions(fresh_db: str) -> None:
    store = open_store(fresh_db)
    s1 = add_page(store, URL, b"<p>1</p>", at=NOW)
    s2 = add_page(store, URL, b"<p>2</p>", kind="refetch", at=NOW + HOUR)
    s3 = add_page(store, URL, b"<p>3</p>", kind="refetch", at=NOW + 2 * HOUR)
    _extraction(store, s1, A, B)
    _extraction(store, s2, A_WITH_REPLY, B)
    comments = list(store.db.query("SELECT fingerprint, text, gone_at FROM comments ORDER BY position"))
    assert [(c["text"], c["gone_at"]) for c in comments] == [(A_WITH_REPLY[0], None), (B[0], None)]
    versions = list(store.db.query("SELECT * FROM comment_versions"))
    assert [(v["fingerprint"], v["text"], v["seen_from"], v["seen_until"]) for v in versions] == [
        (comments[0]["fingerprint"], A[0], to_iso(NOW), to_iso(NOW))
    ]
    _extraction(store, s3)  # no comments found: not a deletion by itself
    assert store.db.execute("SELECT COUNT(*) FROM comments WHERE gone_at IS NOT NULL").fetchone() == (0,)
    with store.transaction() as db:  # the comment feed read before that fetch listed no entry
        db.insert_row(
            "comment_feed_fetches",
            {
                "article": URL,
                "site": "h",
                "url": URL + "feed/",
                "headers": "{}",
                "body": gzip.compress(b"<rss/>"),
                "fetched_at": to_iso(NOW + 2 * HOUR - 5),
                "entries": 0,
                "processed_at": to_iso(NOW + 2 * HOUR),
            },
        )
        refresh_article(db, URL)
    gone = store.db.execute("SELECT gone_at FROM comments").fetchall()
    assert gone == [(to_iso(NOW + 2 * HOUR),)] * 2
    store.close()


@pytest.mark.slow
def test_refetching_the_demo_japanese_blog_marks_no_visible_comment_gone(farm: BlogFarm, tmp_path: Path) -> None:
    # The demo's `nikki` (scripts/demo.py): its re-fetch once gave a still visible comment a gone_at.
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog(
        "nikki",
        articles=12,
        start=t0 - 11 * 20 * 60,
        interval=20 * 60,
        comments_per_article=(1, 5),
        comment_delays=(600, 5 * HOUR),
        lang="ja",
        seed=8,
    )
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    for advance in (0.0, 3 * HOUR):
        farm.clock.advance(advance)
        result = run_crawl(feeds, db, settings={"BLOGS_REFETCH_AFTER": "1h,2h,6h"}, clock=farm.clock)
        assert result.returncode == 0, result.stderr[-3000:]
    assert rows(db, "SELECT COUNT(*) FROM snapshots WHERE kind = 'refetch'")[0][0] > 0
    assert rows(db, "SELECT COUNT(*) FROM comments")[0][0] > 0
    # The farm never deletes a comment: none may be marked gone.
    assert rows(db, "SELECT author, date, text FROM comments WHERE gone_at IS NOT NULL") == []
