"""The store keeps how each page was decided and how precise each comment date is, so users can filter:
`extractions.decided_by` / `confidence` (also on `posts`) and `comments.date_precision`."""

from __future__ import annotations

from pathlib import Path

from test_pipeline_batches import corpus_pages, stored

from jobs import extraction
from store import open_store

SITE = "tt21"


def test_batch_and_profile_extractions_store_method_confidence_and_date_precision(
    fresh_db: str, corpus_root: Path
) -> None:
    store = open_store(fresh_db)
    truth = corpus_pages(corpus_root, SITE)
    stored(store, truth[:10], SITE)
    cfg = extraction.JobConfig(fresh_db, batch_size=10)
    assert extraction.run_batch(cfg, 1).pages == 10
    later = stored(store, truth[10:14], SITE, start=20)
    assert extraction.run_pages(cfg, SITE, later).pages == 4

    conn = store.db
    decided = dict(conn.execute("SELECT DISTINCT method, decided_by FROM extractions").fetchall())
    assert decided == {"batch": "set", "profile": "profile"}
    confidences = [c for (c,) in conn.execute("SELECT confidence FROM extractions").fetchall()]
    assert confidences and all(0.5 <= c <= 0.9 for c in confidences), confidences
    posts = conn.execute("SELECT COUNT(*) FROM posts WHERE decided_by IS NOT NULL AND confidence > 0").fetchone()
    assert posts[0] == 14
    # tt21 dates its comments with <time datetime> to the second: every dated comment says so.
    precisions = dict(conn.execute("SELECT date_precision, COUNT(*) FROM comments GROUP BY date_precision").fetchall())
    assert set(precisions) == {"second"} and precisions["second"] > 0
    store.close()
