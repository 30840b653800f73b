"""Comments accumulate: stable fingerprints, first_seen kept, vanished comments marked, never duplicated,
and the derived rows do not depend on the order extractions arrive in."""

from __future__ import annotations

import json
import random

from test_store_schema import NOW, add_page

from extractor.comments.records import CommentRecord
from store import open_store
from store.comments import Observation, comment_dicts, fingerprint, merge, refresh_article, upsert
from store.sqlite import Store

URL = "http://h/a"


def records(*items: tuple[str, str | None, str | None]) -> list[CommentRecord]:
    return [CommentRecord(text=t, author=a, date=d, position=i) for i, (t, a, d) in enumerate(items)]


def obs(snapshot: int, minute: int, *items: tuple[str, str | None, str | None], ok: bool = True) -> Observation:
    return Observation(snapshot, f"2027-01-15T08:{minute:02d}:00.000Z", ok, comment_dicts(records(*items)))


A = ("Great write-up, thanks!", "Maya Keller", "2026-07-13T13:33:25Z")
B = ("How long did it take?", "Jonas Quinn", "2026-07-14T09:00:00Z")
C = ("ありがとうございます。参考になりました。", "週末カメラマン", "2026-07-15T10:00:00Z")


def test_fingerprint_ignores_case_spacing_and_punctuation_not_content() -> None:
    base = fingerprint("Great write-up, thanks!", "Maya Keller", "2026-07-13T13:33:25Z")
    assert fingerprint("  great   WRITE up thanks ", "maya keller", "2026-07-13T13:33:25Z") == base
    assert fingerprint("Great write-up, thanks!", "Maya Keller", "2026-07-13T13:33:59Z") == base  # minute precision
    assert fingerprint("Great write-up, thanks!", "Someone Else", "2026-07-13T13:33:25Z") != base
    assert fingerprint("Great write-up, thanks!", "Maya Keller", "2026-07-14T13:33:25Z") != base
    assert fingerprint("Great write-up, thanks a lot!", "Maya Keller", "2026-07-13T13:33:25Z") != base
    assert fingerprint("Great write-up, thanks!", "Maya Keller", "2026-07-13T13:33:25Z", occurrence=1) != base


def test_a_day_only_date_keeps_the_fingerprint_it_had_as_midnight() -> None:
    # Day-only dates were read as midnight ("2026-07-13T00:00:00") before records carried a precision;
    # the comments stored then must keep their fingerprints when the page is extracted again.
    old = fingerprint("Great write-up, thanks!", "Maya Keller", "2026-07-13T00:00:00")
    assert fingerprint("Great write-up, thanks!", "Maya Keller", "2026-07-13") == old
    assert fingerprint("Great write-up, thanks!", "Maya Keller", "2026-07-14") != old


def test_comment_dicts_number_duplicates_link_parents_and_drop_empty_texts() -> None:
    recs = [
        CommentRecord(text="+1", author="Ann", position=0),
        CommentRecord(text="+1", author="Ann", position=1),
        CommentRecord(text="Why?", author="Bob", parent=0, position=2),
        CommentRecord(text=" … ", author="Nobody", position=3),  # no token: not a comment
    ]
    items = comment_dicts(recs)
    assert [i["text"] for i in items] == ["+1", "+1", "Why?"]
    assert len({i["fingerprint"] for i in items}) == 3
    assert items[2]["parent"] == items[0]["fingerprint"] and items[0]["parent"] is None
    assert [i["position"] for i in items] == [0, 1, 2]
    plain = comment_dicts([], ["first", "second"])  # a profile without a comment layout: texts only
    assert [(i["text"], i["author"]) for i in plain] == [("first", None), ("second", None)]


def test_refetches_add_new_comments_keep_first_seen_and_mark_vanished_ones() -> None:
    history = [obs(1, 0), obs(2, 10, A), obs(3, 20, A, B), obs(4, 30, B, C)]
    rows = merge(URL, "h", history)
    assert len(rows) == 3  # A, B, C once each: no duplicates
    by_text = {r["text"]: r for r in rows.values()}
    a, b, c = by_text[A[0]], by_text[B[0]], by_text[C[0]]
    assert a["first_seen"] == "2027-01-15T08:10:00.000Z" and a["last_seen"] == "2027-01-15T08:20:00.000Z"
    assert a["gone_at"] == "2027-01-15T08:30:00.000Z"  # vanished in snapshot 4: marked, kept
    assert b["first_seen"] == "2027-01-15T08:20:00.000Z" and b["gone_at"] is None and b["position"] == 0
    assert c["first_snapshot"] == 4 and c["author"] == "週末カメラマン" and c["date"] == C[2]
    # A failed extraction says nothing about the page's comments.
    assert merge(URL, "h", [*history, obs(5, 40, ok=False)]) == rows
    # Arrival order does not matter (a batch finishing after a re-fetch, a crash and a re-run).
    for seed in range(5):
        shuffled = history[:]
        random.Random(seed).shuffle(shuffled)
        assert merge(URL, "h", shuffled) == rows


def extraction(
    store: Store, snapshot: int, *items: tuple[str, str | None, str | None], method: str = "profile"
) -> None:
    with store.transaction() as db:
        upsert(
            db,
            "extractions",
            [
                {
                    "snapshot": snapshot,
                    "article": URL,
                    "site": "h",
                    "method": method,
                    "profile_version": 1,
                    "post": f"post as of snapshot {snapshot}",
                    "comments": json.dumps(comment_dicts(records(*items))),
                    "comment_count": len(items),
                    "warnings": "[]",
                }
            ],
            ("snapshot",),
        )
        refresh_article(db, URL)


def table(store: Store, name: str) -> list[dict]:
    return list(store.db.query(f"SELECT * FROM {name} ORDER BY 1, 2"))


def test_store_rows_follow_the_extractions_idempotently(fresh_db: str) -> None:
    store = open_store(fresh_db)
    first = add_page(store, URL, b"<p>v1</p>", at=NOW)
    again = add_page(store, URL, b"<p>v2</p>", kind="refetch", at=NOW + 3600)
    extraction(store, first)
    extraction(store, again, A, B)
    posts, comments = table(store, "posts"), table(store, "comments")
    assert [(p["text"], p["comments"], p["snapshot"]) for p in posts] == [(f"post as of snapshot {again}", 2, again)]
    assert posts[0]["title"] == f"Title of {URL}" and posts[0]["author"] == "Ann"
    assert len(comments) == 2 and {c["first_snapshot"] for c in comments} == {again}
    extraction(store, again, A, B)  # the same extraction again: nothing changes
    assert table(store, "posts") == posts and table(store, "comments") == comments
    # The snapshot is extracted differently (a batch replaces a profile extraction): the old
    # version's comment that no page shows any more is an artefact and goes, it is not "gone".
    extraction(store, again, A, C, method="batch")
    texts = {c["text"]: c for c in table(store, "comments")}
    assert set(texts) == {A[0], C[0]} and texts[A[0]]["gone_at"] is None
    assert len(store.search('"参考になり"', where="comments")) == 1
