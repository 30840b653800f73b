"""The crawl lock outlives a PostgreSQL restart (issue 32): the restart ends the session holding it, the
store reconnects, and before it writes again the lock is taken again, or, when another run took it
meanwhile, every write is refused. A real private server, really restarted."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from farm.postgres import PostgresServer
from store import open_store, pglock
from store.base import StoreBackend
from store.pglock import HOLDERS_SQL, RUN_LOCK_KEY, PgRunLock, RunLockLost, holder_name
from store.pgsql import to_postgres

T0 = 1_800_000_000.0


@pytest.fixture
def store_url(pg_server: PostgresServer) -> Iterator[str]:
    url = pg_server.new_database()
    open_store(url).close()
    yield url
    pg_server.drop_database(url)


def _holders(url: str) -> list[str]:
    """application_name of the sessions holding the crawl lock."""
    with psycopg.connect(url, autocommit=True) as conn:
        return [r[0] for r in conn.execute(to_postgres(HOLDERS_SQL), [RUN_LOCK_KEY]).fetchall()]


def _sync(store: StoreBackend, site: str) -> None:
    store.sync_feeds([(f"http://{site}.test/feed/", site)], T0)


def test_a_crawl_takes_its_lock_again_after_a_restart_before_it_writes(
    pg_server: PostgresServer, store_url: str
) -> None:
    with PgRunLock(store_url, shared=True) as lock, open_store(store_url) as store:
        assert lock.acquired
        _sync(store, "a")
        assert _holders(store_url) == [holder_name()]
        pg_server.restart()
        assert _holders(store_url) == []  # the restart ended the lock's session
        _sync(store, "b")  # the write reconnects, and takes the lock again first
        assert _holders(store_url) == [holder_name()]
        # A reextract (exclusive) is refused again, as before the restart.
        with psycopg.connect(store_url, autocommit=True) as other:
            assert other.execute("SELECT pg_try_advisory_lock(%s)", [RUN_LOCK_KEY]).fetchone() == (False,)
    assert _holders(store_url) == []


def test_a_crawl_whose_lock_another_run_took_during_a_restart_writes_nothing(
    pg_server: PostgresServer, store_url: str
) -> None:
    with PgRunLock(store_url, shared=True), open_store(store_url) as store:
        _sync(store, "a")
        pg_server.restart()
        # A reextract started while the crawl was away takes the lock exclusively.
        with psycopg.connect(store_url, autocommit=True, application_name="blog-harvester reextract pid 7") as other:
            assert other.execute("SELECT pg_try_advisory_lock(%s)", [RUN_LOCK_KEY]).fetchone() == (True,)
            for _ in range(2):  # refused, and refused again: nothing may be written any more
                with pytest.raises(RunLockLost, match="blog-harvester reextract pid 7 holds it now"):
                    _sync(store, "b")
            with pytest.raises(RunLockLost), store.transaction() as db:
                db.execute("DELETE FROM feeds")
            assert [r[0] for r in other.execute("SELECT site FROM feeds").fetchall()] == ["a"]


def test_an_extraction_process_writes_only_while_its_crawl_holds_the_lock(
    pg_server: PostgresServer, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An extraction process follows its crawl's lock (the crawl: here a session named as crawl pid 4242's)."""
    monkeypatch.setattr(pglock, "_FOLLOWED", [])
    pglock.follow_crawl_lock(4242)
    take = "SELECT pg_try_advisory_lock_shared(%s)"
    with psycopg.connect(store_url, autocommit=True, application_name=holder_name(4242)) as crawl:
        assert crawl.execute(take, [RUN_LOCK_KEY]).fetchone() == (True,)
        with open_store(store_url) as store:
            _sync(store, "a")
            pg_server.restart()  # the crawl's session ends; a reextract takes the lock before the crawl is back
            with psycopg.connect(store_url, autocommit=True, application_name="blog-harvester reextract pid 8") as rx:
                assert rx.execute("SELECT pg_try_advisory_lock(%s)", [RUN_LOCK_KEY]).fetchone() == (True,)
                with pytest.raises(RunLockLost, match="blog-harvester reextract pid 8 holds it now"):
                    _sync(store, "b")
            # The reextract is done and the crawl took its lock again: the process writes again.
            with psycopg.connect(store_url, autocommit=True, application_name=holder_name(4242)) as back:
                assert back.execute(take, [RUN_LOCK_KEY]).fetchone() == (True,)
                _sync(store, "c")
    with psycopg.connect(store_url, autocommit=True) as conn:
        assert [r[0] for r in conn.execute("SELECT site FROM feeds ORDER BY site").fetchall()] == ["a", "c"]
