"""Due feeds found through an index, not an IN list of every feed (issue 32, item 10): a worker asks
for the sites with work due every second, whatever the size of its feeds file."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from store import open_store
from store.clock import to_iso

FEEDS = 40_000  # more than SQLite binds in one statement (32,766): an IN list of them cannot even run


def test_due_sites_of_a_large_feeds_file(tmp_path: Path) -> None:
    now = time.time()
    feeds = {f"http://blog{i}.example/feed/": f"blog{i}" for i in range(FEEDS)}
    with open_store(str(tmp_path / "blogs.db")) as store:
        store.sync_feeds(feeds.items(), now)
        assert len(store.due_sites(list(feeds), now)) == FEEDS  # never polled: all due
        # A SQLite crawl holds every site: the polls due, the articles due and the next wake-up of all its feeds.
        assert len(store.due_feeds(list(feeds), now)) == FEEDS
        assert store.due_articles(list(feeds), now) == []
        assert store.next_due(list(feeds)) == 0.0  # due now
        with store.transaction() as db:
            db.execute("UPDATE feeds SET next_check = ?", [to_iso(now + 3600)])
            db.execute("UPDATE feeds SET next_check = ? WHERE site IN ('blog7', 'blog9')", [to_iso(now - 1)])
        assert store.due_sites(list(feeds), now) == {"blog7", "blog9"}
        assert [row["site"] for row in store.due_feeds(list(feeds), now)] in (["blog7", "blog9"], ["blog9", "blog7"])
        assert store.next_due(list(feeds)) == pytest.approx(now - 1, abs=0.01)
        # Only the feeds asked about count (another worker's shard, a line removed from the file).
        assert store.due_sites(["http://blog7.example/feed/"], now) == {"blog7"}
        plan = " ".join(
            str(r) for r in store.db.execute("EXPLAIN QUERY PLAN SELECT url FROM feeds WHERE next_check <= ?", ["x"])
        )
        assert "idx_feeds_next_check" in plan
