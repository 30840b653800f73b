"""Several `scrapy crawl blogs` workers sharing one PostgreSQL store (issue 23): real subprocesses,
a real PostgreSQL server, the local farm. Sites are divided by leases (crawler.leasing): every
article is fetched once, each site by one worker, and a killed worker's sites are finished by
another; nothing is lost and nothing is stored twice."""

from __future__ import annotations

import json
import os
import signal
import time
from collections import defaultdict
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, start_crawl, stop, wait_for, write_feeds

from farm import BlogFarm
from farm.postgres import PostgresServer

pytestmark = pytest.mark.slow

HOUR = 3600.0


def worker_settings(name: str) -> dict[str, str]:
    """Each worker signs its requests (the contact in its User-Agent) and holds two sites at a time."""
    return {"BLOGS_CONTACT": f"mailto:{name}@example.invalid", "BLOGS_LEASE_SITES": "2", "BLOGS_REFETCH_AFTER": "7d"}


def served_by(farm: BlogFarm) -> dict[int, set[str]]:
    """Farm port (one per blog) -> the workers whose requests it served (robots.txt aside)."""
    by_site: dict[int, set[str]] = defaultdict(set)
    for r in farm.requests:
        if r.path_only != "/robots.txt":
            by_site[r.port].add((r.user_agent or "").split("mailto:")[-1].split("@")[0])
    return by_site


def test_three_workers_divide_the_sites_and_fetch_every_article_once(
    farm: BlogFarm, pg_server: PostgresServer, tmp_path: Path
) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blogs = [
        farm.add_generated_blog(f"b{i}", articles=5, start=t0 - 5 * HOUR, interval=HOUR, seed=60 + i) for i in range(9)
    ]
    farm.misbehave("/20", "slow", prefix=True, delay=0.2)  # article pages take a moment: the workers overlap
    feeds = write_feeds(tmp_path / "feeds.txt", [b.feed_line() for b in blogs])
    db = pg_server.new_database()  # empty: the three workers create the schema together
    names = ["w1", "w2", "w3"]
    logs = {n: tmp_path / f"{n}.log" for n in names}
    workers = {n: start_crawl(feeds, db, settings=worker_settings(n), clock=farm.clock, log=logs[n]) for n in names}
    codes = {n: stop(p, sig=None, timeout=180) for n, p in workers.items()}
    assert codes == dict.fromkeys(names, 0), {n: logs[n].read_text()[-2000:] for n in names}

    articles = [a for b in blogs for a in b.articles if a.published <= t0]
    for article in articles:
        assert [r.status for r in farm.requests_for(article.url)] == [200], article.url
    assert rows(db, "SELECT COUNT(*), COUNT(DISTINCT article) FROM snapshots") == [(len(articles), len(articles))]
    assert rows(db, "SELECT COUNT(*) FROM articles WHERE state = 'pending'") == [(0,)]
    assert rows(db, "SELECT COUNT(*) FROM posts") == [(len(articles),)]
    sites = served_by(farm)
    assert all(len(workers_of) == 1 for workers_of in sites.values()), sites  # one worker per site
    assert len(set().union(*sites.values())) >= 2, sites  # the work was shared
    assert rows(db, "SELECT COUNT(*) FROM site_leases WHERE owner IS NOT NULL") == [(0,)]  # all given back
    finished = rows(db, "SELECT reason, host, stats FROM runs")
    assert sorted(r[0] for r in finished) == ["finished"] * 3 and all(r[1] for r in finished)
    # Each worker settles its own sites (their first batches are not full: provisional extraction),
    # not every site of the store, and each site when it gives it back, while it crawls others
    # (pipelines.extract.site_done), not again at the end of its run: each page once.
    stats = [json.loads(r[2]) for r in finished]
    provisional = sum(s.get("blogs/extract/provisional_pages", 0) for s in stats)
    assert provisional == len(articles), provisional
    assert sum(s.get("blogs/extract/sites_settled_mid_run", 0) for s in stats) >= len(blogs) - 3, stats


def test_a_killed_workers_sites_are_finished_by_another(
    farm: BlogFarm, pg_server: PostgresServer, tmp_path: Path
) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blogs = [
        farm.add_generated_blog(f"k{i}", articles=6, start=t0 - 6 * HOUR, interval=HOUR, seed=70 + i) for i in range(4)
    ]
    farm.misbehave("/20", "slow", prefix=True, delay=0.5)
    feeds = write_feeds(tmp_path / "feeds.txt", [b.feed_line() for b in blogs])
    db = pg_server.new_database()
    victim = start_crawl(feeds, db, settings=worker_settings("victim"), clock=farm.clock, log=tmp_path / "victim.log")
    stored = lambda: {a for (a,) in rows(db, "SELECT article FROM snapshots")}  # noqa: E731
    try:
        assert wait_for(lambda: len(stored()) >= 2, timeout=60), (tmp_path / "victim.log").read_text()[-2000:]
        held = {s for (s,) in rows(db, "SELECT site FROM site_leases WHERE owner LIKE '% pid %'")}
        assert held, "the victim holds sites when it is killed"
    finally:
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=10)
    killed_at = time.time()
    before = stored()
    # A worker started after the kill takes the dead worker's sites at once (its process no longer
    # holds the crawl lock), without waiting for the leases to lapse (BLOGS_LEASE_SECONDS: 300).
    survivor = run_crawl(feeds, db, settings=worker_settings("survivor"), clock=farm.clock, timeout=180)
    assert survivor.returncode == 0, survivor.stderr[-3000:]
    articles = [a for b in blogs for a in b.articles if a.published <= t0]
    assert rows(db, "SELECT COUNT(*), COUNT(DISTINCT article) FROM snapshots") == [(len(articles), len(articles))]
    assert rows(db, "SELECT COUNT(*) FROM articles WHERE state = 'pending'") == [(0,)]
    for article in articles:
        later = [r for r in farm.requests_for(article.url) if r.wall_time > killed_at]
        assert later == [] if article.url in before else len(later) == 1, article.url
    assert rows(db, "SELECT reason FROM runs ORDER BY id") == [("crashed",), ("finished",)]


def test_workers_on_one_sqlite_file_still_refuse_each_other(farm: BlogFarm, tmp_path: Path) -> None:
    """SQLite keeps one crawl at a time: a second worker exits 3 without touching the store."""
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog("solo", articles=8, start=t0 - 8 * HOUR, interval=HOUR, seed=80)
    farm.misbehave("/20", "slow", prefix=True, delay=0.5)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    first = start_crawl(feeds, db, clock=farm.clock, log=tmp_path / "first.log")
    try:
        assert wait_for(lambda: rows(db, "SELECT COUNT(*) FROM snapshots") not in ([], [(0,)]), timeout=60)
        second = run_crawl(feeds, db, clock=farm.clock)
        assert second.returncode == 3 and "Another crawl is using" in second.stderr
    finally:
        assert stop(first, sig=None, timeout=120) == 0


def test_static_shards_split_the_sites_between_runs(farm: BlogFarm, tmp_path: Path) -> None:
    """`-a shard=K/N`: each run fetches only its share of the sites; the shares cover every site once."""
    t0 = time.time()
    farm.clock.set(t0)
    blogs = [
        farm.add_generated_blog(f"s{i}", articles=2, start=t0 - 2 * HOUR, interval=HOUR, seed=90 + i) for i in range(6)
    ]
    feeds = write_feeds(tmp_path / "feeds.txt", [b.feed_line() for b in blogs])
    db = tmp_path / "blogs.db"
    fetched: list[set[str]] = []
    for k in (1, 2, 3):
        farm.clear_log()
        done = run_crawl(feeds, db, "-a", f"shard={k}/3", settings={"BLOGS_REFETCH_AFTER": "7d"}, clock=farm.clock)
        assert done.returncode == 0, done.stderr[-3000:]
        fetched.append({b.name for b in blogs if any(farm.requests_for(a.url) for a in b.articles)})
    assert set().union(*fetched) == {b.name for b in blogs} and sum(map(len, fetched)) == len(blogs)
    assert all(len(share) < len(blogs) for share in fetched)
    bad = run_crawl(feeds, db, "-a", "shard=4/3", clock=farm.clock)
    assert bad.returncode == 2 and "-a shard='4/3' is not valid: it takes K/N" in bad.stderr


def test_a_stopped_workers_leases_lapse_and_another_takes_its_sites_over(
    farm: BlogFarm, pg_server: PostgresServer, tmp_path: Path
) -> None:
    """A worker that stops answering (SIGSTOP: a hung or cut-off machine) still holds the crawl lock,
    so its sites are not taken at once: its leases lapse (BLOGS_LEASE_SECONDS), then a worker in
    watch mode claims them and finishes; nothing it had stored is fetched again."""
    t0 = time.time()
    farm.clock.set(t0)
    blogs = [
        farm.add_generated_blog(f"h{i}", articles=6, start=t0 - 6 * HOUR, interval=HOUR, seed=100 + i) for i in range(4)
    ]
    farm.misbehave("/20", "slow", prefix=True, delay=0.5)
    feeds = write_feeds(tmp_path / "feeds.txt", [b.feed_line() for b in blogs])
    db = pg_server.new_database()
    lease = {"BLOGS_LEASE_SECONDS": "4", "BLOGS_WATCH_MAX_SLEEP": "1"}
    articles = [a for b in blogs for a in b.articles if a.published <= t0]
    stored = lambda: {a for (a,) in rows(db, "SELECT article FROM snapshots")}  # noqa: E731
    hung = start_crawl(feeds, db, settings={**worker_settings("hung"), **lease}, clock=farm.clock)
    survivor = None
    try:
        assert wait_for(lambda: len(stored()) >= 2, timeout=60)
        os.kill(hung.pid, signal.SIGSTOP)
        stopped_at = time.time()
        held = {s for (s,) in rows(db, "SELECT site FROM site_leases WHERE owner IS NOT NULL")}
        before = stored()
        survivor = start_crawl(
            feeds,
            db,
            "-a",
            "watch=1",
            settings={**worker_settings("survivor"), **lease},
            clock=farm.clock,
            log=tmp_path / "survivor.log",
        )
        assert wait_for(lambda: len(stored()) == len(articles), timeout=120), (tmp_path / "survivor.log").read_text()[
            -3000:
        ]
    finally:
        if survivor is not None:
            stop(survivor)
        os.kill(hung.pid, signal.SIGKILL)
        hung.wait(timeout=10)
    assert held, "the hung worker held sites"
    assert rows(db, "SELECT COUNT(*), COUNT(DISTINCT article) FROM snapshots") == [(len(articles), len(articles))]
    ports = {b.port: b.name for b in blogs}
    for article in articles:
        later = [r for r in farm.requests_for(article.url) if r.wall_time > stopped_at]
        assert later == [] if article.url in before else len(later) == 1, article.url
    taken = [
        r.wall_time - stopped_at
        for r in farm.requests
        if r.wall_time > stopped_at and ports.get(r.port) in held and "survivor" in (r.user_agent or "")
    ]
    assert taken and min(taken) > 4 / 3, "the survivor waited for the hung worker's leases to lapse"
