"""Site leases (store.leases) on both backends: claim, renew, lapse and takeover, release; and on
PostgreSQL, workers claiming at the same moment get disjoint sites (FOR UPDATE SKIP LOCKED)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from farm.postgres import PostgresServer
from store import StoreBackend, open_store
from store.leases import worker_name

NOW = 1_800_000_000.0
SITES = [f"s{i:02d}" for i in range(12)]


@pytest.fixture
def store(fresh_db: str) -> Iterator[StoreBackend]:
    with open_store(fresh_db) as s:
        s.sync_feeds([(f"http://{name}/feed/", name) for name in SITES], NOW)
        yield s


def owners(store: StoreBackend) -> dict[str, str | None]:
    return dict(store.db.execute("SELECT site, owner FROM site_leases").fetchall())


def test_a_worker_claims_up_to_its_limit_renews_and_releases(store: StoreBackend) -> None:
    a = worker_name()
    held = store.claim_sites(a, SITES, now=NOW, lease=60, limit=5)
    assert held == SITES[:5]
    # Claiming again renews what it holds and takes no more than the limit.
    assert store.claim_sites(a, SITES, now=NOW + 10, lease=60, limit=5) == held
    assert store.renew_leases(a, now=NOW + 20, lease=60) == held
    expires = dict(store.db.execute("SELECT site, expires_at FROM site_leases WHERE owner = ?", [a]).fetchall())
    assert set(expires) == set(held) and len(set(expires.values())) == 1
    assert store.release_sites(a, held[:2]) == 2
    assert store.claim_sites(a, SITES, now=NOW + 30, lease=60, limit=3) == held[2:]
    assert store.release_sites(a) == 3 and store.renew_leases(a, now=NOW + 40, lease=60) == []
    assert set(owners(store).values()) == {None}


def test_a_live_lease_is_never_shared_and_a_lapsed_one_is_taken_over(store: StoreBackend) -> None:
    a, b = worker_name(), worker_name()
    first = store.claim_sites(a, SITES, now=NOW, lease=60, limit=8)
    second = store.claim_sites(b, SITES, now=NOW + 1, lease=60, limit=8)
    assert set(first).isdisjoint(second) and len(first) == 8 and len(second) == 4  # only 4 were free
    # a stops renewing (killed): at NOW + 61 its leases have lapsed and b takes them over.
    taken = store.claim_sites(b, SITES, now=NOW + 61, lease=60, limit=12)
    assert taken == sorted(SITES)
    assert store.renew_leases(a, now=NOW + 62, lease=60) == []  # a has nothing left to renew
    claims = dict(store.db.execute("SELECT site, claims FROM site_leases").fetchall())
    assert all(claims[s] == 2 for s in first) and all(claims[s] == 1 for s in second)


def test_concurrent_claims_on_postgresql_get_disjoint_sites(pg_server: PostgresServer) -> None:
    """Four workers claim at the same moment (SQLite has one crawl at a time: no race to test there)."""
    fresh_db = pg_server.new_database()
    with open_store(fresh_db) as s:
        s.sync_feeds([(f"http://{name}/feed/", name) for name in SITES], NOW)
    workers = [worker_name() for _ in range(4)]
    start = threading.Barrier(len(workers))
    got: dict[str, list[str]] = {}

    def claim(name: str) -> None:
        with open_store(fresh_db) as mine:
            start.wait()
            got[name] = mine.claim_sites(name, SITES, now=NOW, lease=60, limit=3)

    threads = [threading.Thread(target=claim, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    claimed = [site for w in workers for site in got[w]]
    assert sorted(claimed) == sorted(SITES) and all(len(got[w]) == 3 for w in workers)


def test_leases_of_a_worker_that_died_are_taken_at_once(store: StoreBackend) -> None:
    """A killed worker's process no longer holds the crawl lock: its live-looking leases are free."""
    ghost = "gone-host pid 999999 #dead00"
    assert store.claim_sites(ghost, SITES, now=NOW, lease=3600, limit=12) == sorted(SITES)
    me = worker_name()
    assert store.dead_lease_owners(me) == [ghost]
    assert store.claim_sites(me, SITES, now=NOW + 1, lease=60, limit=12) == sorted(SITES)


def test_a_site_idle_but_for_its_extraction_keeps_its_lease_until_the_jobs_end(store: StoreBackend) -> None:
    """A worker's extraction holds the site's write lock while it writes: were the site given back
    at once, another worker could claim it and wait on that lock (for as long as a paused worker
    stays paused). It is told idle once, kept while its jobs run, outside the fetch limit."""
    from crawler.leasing import SiteLeases
    from store.clock import to_iso

    sources = {f"http://{name}/feed/": name for name in SITES[:3]}
    told: list[str] = []
    running: set[str] = set()

    def idle(site: str) -> None:
        told.append(site)
        running.add(site)  # the settlement it starts: a job of the site now runs

    a = SiteLeases(store, owner=worker_name(), lease=60, limit=2, on_idle=idle, extracting=lambda: set(running))
    b = SiteLeases(store, owner=worker_name(), lease=60, limit=3)
    assert a.feeds(sources, busy=(), now=NOW) == ["http://s00/feed/", "http://s01/feed/"]
    # s00 has nothing due any more (its feed polled, no article waiting), no request in flight.
    store.db.execute("UPDATE feeds SET next_check = ? WHERE site = 's00'", [to_iso(NOW + 3600)])
    # a keeps s00 while its extraction runs and takes s02 (s00 is outside its limit of 2 now).
    assert a.feeds(sources, busy=(), now=NOW + 1) == ["http://s01/feed/", "http://s02/feed/"]
    assert told == ["s00"] and a.held == {"s00", "s01", "s02"} and a.settling == {"s00"}
    assert b.feeds(sources, busy=(), now=NOW + 2) == []  # no one else may claim s00 meanwhile
    a.feeds(sources, busy=(), now=NOW + 3)
    assert told == ["s00"]  # told once
    running.clear()  # the job ended: s00 is given back at the next look, and b may take it
    a.feeds(sources, busy=(), now=NOW + 4)
    assert a.held == {"s01", "s02"} and not a.settling and told == ["s00"]
    assert b.feeds(sources, busy=(), now=NOW + 5) == []  # s00 has nothing due: b claims only due sites
    assert owners(store)["s00"] is None
