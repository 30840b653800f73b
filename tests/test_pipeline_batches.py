"""Batches per site, versioned profiles, drift, pending pages and reextract, in-process on a real SQLite
file with real corpus pages (the jobs run here exactly as in a worker)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_fallback import _undated
from test_store_schema import NOW, add_page

from extractor.evaluation.scoring import Counts, score_page
from jobs import extraction
from jobs.commentfeeds import parse_comment_feed
from jobs.reextract import reextract
from store import StoreBackend, open_store


def corpus_pages(corpus_root: Path, site: str) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (corpus_root / "wordpress" / site / "truth.jsonl").open(encoding="utf-8")]
    for row in rows:
        row["body"] = (corpus_root / "wordpress" / site / row["file"]).read_bytes()
    return rows


@pytest.fixture
def store(fresh_db: str) -> Iterator[StoreBackend]:
    """A new store on each backend (conftest.fresh_db)."""
    with open_store(fresh_db) as s:
        yield s


def cfg(store: StoreBackend, size: int) -> extraction.JobConfig:
    return extraction.JobConfig(store.location, batch_size=size)


def stored(
    store: StoreBackend, pages: list[dict[str, Any]], site: str, start: int = 0, kind: str = "first"
) -> list[int]:
    """Store pages as snapshots of `site` (one minute apart); first fetches join the open batch."""
    ids = []
    for i, page in enumerate(pages):
        at = NOW + 60 * (start + i)
        sid = add_page(store, page["url"], page["body"], kind=kind, at=at, site=site)
        if kind == "first":
            store.add_to_batch(site=site, snapshot=sid, article=page["url"], size=10, now=at)
        ids.append(sid)
    return ids


def tables(store: StoreBackend) -> dict[str, list[dict[str, Any]]]:
    return {
        name: list(store.db.query(f"SELECT * FROM {name} ORDER BY 1, 2"))
        for name in ("posts", "comments", "extractions")
    }


def score(store: StoreBackend, truth: list[dict[str, Any]]) -> Counts:
    counts = Counts()
    for page in truth:
        post = store.db.execute("SELECT text, snapshot FROM posts WHERE url = ?", [page["url"]]).fetchone()
        texts = [
            r[0]
            for r in store.db.execute(
                "SELECT text FROM comments WHERE article = ? AND last_snapshot = ? ORDER BY position",
                [page["url"], post[1] if post else -1],
            )
        ]
        counts.add(score_page(page, {"post": post[0] if post else "", "comments": texts}, split=True))
    return counts


def test_batches_hold_distinct_first_fetches_and_survive_reopening(store: StoreBackend, corpus_root: Path) -> None:
    pages = corpus_pages(corpus_root, "tt21")[:6]
    ids = [add_page(store, p["url"], p["body"], at=NOW + i) for i, p in enumerate(pages)]
    assert store.add_to_batch(site="h", snapshot=ids[0], article=pages[0]["url"], size=4, now=NOW) == []
    assert store.add_to_batch(site="h", snapshot=ids[0], article=pages[0]["url"], size=4, now=NOW) == []
    again = add_page(store, pages[0]["url"], pages[0]["body"], kind="refetch", at=NOW + 99)
    assert store.add_to_batch(site="h", snapshot=again, article=pages[0]["url"], size=4, now=NOW) == []
    store.add_to_batch(site="h", snapshot=ids[1], article=pages[1]["url"], size=4, now=NOW)
    store.close()
    reopened = open_store(store.location)  # the next cron run: the half-full batch is still there
    assert reopened.db.execute("SELECT state, members FROM batches").fetchall() == [("open", 2)]
    # A run killed between storing a page and batching it: recovery batches it, by publication time.
    reopened.assign_unbatched(4, NOW)
    assert reopened.full_batches() == [1]
    members = reopened.db.execute("SELECT snapshot, article, position FROM batch_members WHERE batch = 1").fetchall()
    assert [m[0] for m in members] == ids[:4] and len({m[1] for m in members}) == 4
    assert [m[2] for m in members] == [0, 1, 2, 3]
    assert reopened.db.execute("SELECT id, state, members FROM batches WHERE id = 2").fetchall() == [(2, "open", 2)]


def test_full_batch_is_extracted_as_a_set_and_teaches_profile_v1(store: StoreBackend, corpus_root: Path) -> None:
    truth = corpus_pages(corpus_root, "tt21")
    ids = stored(store, truth[:10], "tt21")
    assert store.full_batches() == [1]
    report = extraction.run_batch(cfg(store, 10), 1)
    assert (report.pages, report.profile_version, report.errors) == (10, 1, 0)
    prof = store.latest_profile("tt21")
    assert prof is not None and prof["source"] == "batch" and json.loads(prof["snapshots"]) == ids
    assert store.batch(1)["state"] == "done" and store.batch(1)["profile_version"] == 1
    assert store.db.execute("SELECT method, COUNT(*) FROM extractions GROUP BY method").fetchall() == [("batch", 10)]
    counts = score(store, truth[:10])
    post_f1, comment_f1 = counts.post_prf()[2], counts.comment_prf()[2]
    assert post_f1 > 0.95 and comment_f1 is not None and comment_f1 > 0.9, (post_f1, comment_f1)
    before = tables(store)
    assert extraction.run_batch(cfg(store, 10), 1).pages == 0  # done: a second run changes nothing
    assert tables(store) == before


def test_profile_extracts_new_pages_at_once_and_the_batch_result_replaces_it(
    store: StoreBackend, corpus_root: Path
) -> None:
    truth = corpus_pages(corpus_root, "tt21")
    stored(store, truth[:10], "tt21")
    # Re-fetches stored before the site had a profile wait for it.
    early = stored(store, truth[:2], "tt21", start=10, kind="refetch")
    assert extraction.run_pages(cfg(store, 10), "tt21", early).pages == 0
    extraction.run_batch(cfg(store, 10), 1)
    assert store.pending_snapshots("tt21") == early
    assert extraction.run_pending(cfg(store, 10), "tt21").pages == 2
    new = stored(store, truth[10:20], "tt21", start=20)
    report = extraction.run_pages(cfg(store, 10), "tt21", new[:5])  # the batch is not full yet: the profile extracts
    assert report.pages == 5 and report.profile_version == 1
    marks = ",".join(map(str, new[:5]))
    rows = store.db.execute(
        f"SELECT method, profile_version, template_match FROM extractions WHERE snapshot IN ({marks})"
    ).fetchall()
    assert {(m, v) for m, v, _t in rows} == {("profile", 1)} and min(t for *_x, t in rows) > 0.5
    profiled = score(store, truth[10:15])
    assert profiled.post_prf()[2] > 0.9, profiled.post_prf()
    assert store.full_batches() == [2]
    extraction.run_batch(cfg(store, 10), 2)  # the set's extraction replaces the profile's ...
    extraction.run_pages(cfg(store, 10), "tt21", new[:5])  # ... and a late profile job cannot undo that
    assert store.db.execute(
        f"SELECT DISTINCT method, profile_version FROM extractions WHERE snapshot IN ({','.join(map(str, new))})"
    ).fetchall() == [("batch", 2)]
    assert store.db.execute("SELECT COUNT(*) FROM posts").fetchone() == (20,)


def test_template_drift_relearns_from_the_newest_pages_and_reextract_reproduces(
    store: StoreBackend, corpus_root: Path
) -> None:
    tt21, cocoon = corpus_pages(corpus_root, "tt21"), corpus_pages(corpus_root, "cocoon")
    stored(store, tt21[:10], "blog")
    extraction.run_batch(cfg(store, 10), 1)
    # The blog switches theme: its new pages share almost no block with profile v1.
    new = stored(store, cocoon[:4], "blog", start=10)
    reports = [extraction.run_pages(cfg(store, 10), "blog", [sid]) for sid in new]
    assert sum(r.drifts for r in reports) >= 1
    drift = store.db.execute("SELECT version, snapshots FROM profiles WHERE source = 'drift'").fetchall()
    assert drift, [r.messages for r in reports]
    assert any("template drift" in text for r in reports for _lvl, text in r.messages)
    # Every page of the new theme ends up read by the re-learned profile, the early ones included.
    marks = ",".join(map(str, new))
    got = store.db.execute(f"SELECT profile_version, template_match FROM extractions WHERE snapshot IN ({marks})")
    read = got.fetchall()
    assert len(read) == len(new) > 0 and all(version == drift[-1][0] and match >= 0.5 for version, match in read)
    assert score(store, cocoon[:4]).post_prf()[2] > 0.9
    before = tables(store)
    report = reextract(open_store(store.location))
    assert report.pages == 14 and report.profiles == 1 + len(drift)
    assert tables(store) == before  # the same rows, learned again from the same snapshots


def _undated_rows(corpus_root: Path, site: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Ten of the site's pages with comments, their comment dates removed (test_fallback._undated)."""
    truth, pages = _undated(corpus_root, site, feeds=False, n=10)
    return truth, [{"url": t["url"], "body": p.body, "file": t["file"]} for t, p in zip(truth, pages, strict=True)]


def test_a_batch_with_no_comment_free_page_uses_its_articles_comment_feeds(
    store: StoreBackend, corpus_root: Path
) -> None:
    truth, rows = _undated_rows(corpus_root, "tt16")
    stored(store, rows, "tt16")
    feeds = corpus_root / "wordpress" / "tt16" / "comment-feeds"
    with store.transaction():
        for row in rows:
            body = (feeds / (Path(row["file"]).stem + ".xml")).read_bytes()
            entries = parse_comment_feed(body, row["url"])
            store.store_feed_comments(article=row["url"], site="tt16", entries=entries, fetched_at=NOW - 60)
    extraction.run_batch(cfg(store, 10), 1)
    counts = score(store, truth)
    assert (counts.comment_prf()[2] or 0) >= 0.95
    warnings = json.loads(store.latest_profile("tt16")["warnings"])
    assert any("comment feeds" in w for w in warnings)


def test_a_batch_with_no_comment_free_page_uses_comment_identifiers_of_other_sites(
    store: StoreBackend, corpus_root: Path
) -> None:
    # two sites extracted normally: both held their comments under #comments
    for n, site in enumerate(("tt21", "cocoon")):
        stored(store, corpus_pages(corpus_root, site)[:10], site, start=100 * n)
        extraction.run_batch(cfg(store, 10), n + 1)
    assert store.known_comment_identifiers("tt16") == {"#comments"}
    # (cocoon's post navigation, #pager-post-navi, held false comments before issue 20's veto)
    assert store.known_comment_identifiers("tt16", min_sites=1) == {"#comments"}
    # a third site's first batch has comments on every page, and no dates to find them by
    truth, rows = _undated_rows(corpus_root, "tt16")
    stored(store, rows, "tt16", start=300)
    extraction.run_batch(cfg(store, 10), 3)
    assert (score(store, truth).comment_prf()[2] or 0) >= 0.95
    warnings = json.loads(store.latest_profile("tt16")["warnings"])
    assert any("identifiers learned on other sites" in w for w in warnings)
