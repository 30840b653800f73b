"""The persist pipeline writes on its own thread: the reactor runs while a commit waits, and the
item moves on only once its page is committed (persist first).

The scenario runs under a real Twisted reactor in a subprocess (a reactor starts once per
process); another connection holds the SQLite write lock, so the commit cannot happen until the
test releases it: no timing is involved.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]

SCENARIO = r"""
import json, sqlite3, sys
from scrapy.exceptions import DropItem
from twisted.internet import defer, task
from crawler.items import PageItem
from pipelines.persist import PersistPagePipeline
from store import open_store

DB, FEED, NOW = sys.argv[1], "http://h/feed", 1_700_000_000.0


def page(url):
    return PageItem(site="h", feed_url=FEED, article_url=url, url=url, status=200,
                    headers={"Content-Type": ["text/html"]}, body=b"<html>hi</html>", fetched_at=NOW, kind="first")


async def scenario(reactor):
    store = open_store(DB)
    store.sync_feeds([(FEED, "h")], NOW)
    new = [{"url": "http://h/a", "site": "h", "entry_id": "http://h/a", "guid": None, "link": "http://h/a",
            "title": "T", "author": "A", "published": None, "comment_rss": None, "slash_comments": None}]
    store.record_feed_ok(FEED, now=NOW, status=200, next_check=NOW + 60, interval=60, new_articles=new)
    store.close()
    out = {}
    blocker = sqlite3.connect(DB, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # holds the write lock: the writer thread must wait
    pipe = PersistPagePipeline(db_path=DB, refetch_after=[3600.0], background=True)
    pipe.open_spider()
    d = defer.Deferred.fromCoroutine(pipe.process_item(page("http://h/a")))
    ticks = []
    for _ in range(3):  # the reactor keeps running while the commit waits
        await task.deferLater(reactor, 0, ticks.append, 1)
    out["reactor_ticks_while_waiting"] = len(ticks)
    out["done_while_locked"] = d.called
    out["snapshots_while_locked"] = blocker.execute("SELECT count(*) FROM snapshots").fetchone()[0]
    blocker.execute("ROLLBACK")
    item = await d
    reader = sqlite3.connect(DB)  # committed: another connection sees it
    out["snapshot_id"] = item.snapshot_id
    out["stored"] = reader.execute("SELECT id FROM snapshots").fetchall()
    out["state"] = reader.execute("SELECT state FROM articles").fetchall()
    out["passed_through"] = pipe.process_item({"not": "a page"})
    try:  # unknown article: the foreign key refuses it, the item is dropped
        await defer.Deferred.fromCoroutine(pipe.process_item(page("http://h/unknown")))
        out["dropped"] = False
    except DropItem:
        out["dropped"] = True
    await defer.Deferred.fromCoroutine(pipe.close_spider())
    out["closed"] = pipe.store is None and pipe.pool is None
    print(json.dumps(out))


task.react(lambda reactor: defer.Deferred.fromCoroutine(scenario(reactor)))
"""


def test_commit_waits_off_the_reactor_and_item_moves_on_after_it(tmp_path: Path) -> None:
    db = tmp_path / "blogs.db"
    proc = subprocess.run(
        [sys.executable, "-c", SCENARIO, str(db)], cwd=PROJECT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["reactor_ticks_while_waiting"] == 3
    assert out["done_while_locked"] is False
    assert out["snapshots_while_locked"] == 0
    assert out["stored"] == [[out["snapshot_id"]]]
    assert out["state"] == [["active"]]
    assert out["passed_through"] == {"not": "a page"}
    assert out["dropped"] is True
    assert out["closed"] is True
