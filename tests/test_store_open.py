"""Opening the store safely (issue 21), on real SQLite files: what is not a store is refused with
one line and left untouched, older stores are upgraded, queries read through `mode=ro`, damaged
stores say so, and runs whose crawl died end as `crashed`."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env

from store import open_existing_store
from store.lockfile import RunLock
from store.sqlite import Store, StoreError
from store.storefile import APPLICATION_ID

NOW = 1_714_557_600.0  # 2024-05-01T10:00:00Z
NOT_SQLITE = {
    "text": b"https://example.org/feed/ example\n# a feeds file given as BLOGS_DB\n",
    "random-bytes": random.Random(21).randbytes(5000),
    "gzip": b"\x1f\x8b\x08\x00" + random.Random(22).randbytes(3000),
}
# How each side opens a store: the crawl (create or upgrade), the query commands (read-only),
# `scrapy reextract` (read-write, never a new store).
OPENERS: dict[str, Callable[[Path], Store]] = {
    "crawl": lambda path: Store(path),
    "query": lambda path: open_existing_store(path),
    "reextract": lambda path: open_existing_store(path, write=True),
}


def fingerprint(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


def folder(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


def make_store(path: Path, sites: int = 3) -> Path:
    with Store(path) as store:
        store.sync_feeds([(f"http://127.0.0.1:9/{i}/feed/", f"site{i}") for i in range(sites)], NOW)
    return path


def refused(opener: str, path: Path, message: str) -> StoreError:
    """Open `path` as `opener` does, expecting a one-line StoreError naming it; the file untouched."""
    before, names = fingerprint(path), folder(path)
    with pytest.raises(StoreError, match=message) as caught:
        OPENERS[opener](path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    assert fingerprint(path) == before, "a refused file must not be written"
    assert folder(path) == names, "nor may -wal, -shm or -journal files appear beside it"
    return caught.value


# -- 1. not SQLite ------------------------------------------------------------------------------


@pytest.mark.parametrize("opener", OPENERS)
@pytest.mark.parametrize("kind", NOT_SQLITE)
def test_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path: Path, kind: str, opener: str) -> None:
    path = tmp_path / "blogs.db"
    path.write_bytes(NOT_SQLITE[kind])
    refused(opener, path, "is not a SQLite database")


def test_an_empty_file_becomes_a_store_for_the_crawl_only(tmp_path: Path) -> None:
    path = tmp_path / "blogs.db"
    path.touch()
    refused("query", path, "is an empty file, not a blog-harvester store yet")
    refused("reextract", path, "is an empty file")
    with Store(path) as store:  # a crawl may initialise it, as `touch blogs.db` suggests
        assert store.schema_is_current()
    with open_existing_store(path) as store:
        assert store.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_an_empty_sqlite_database_becomes_a_store_for_the_crawl_only(tmp_path: Path) -> None:
    path = tmp_path / "blogs.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 7")  # a header, no table
    conn.close()
    refused("query", path, "is an empty SQLite database")
    with Store(path) as store:
        assert store.schema_is_current()


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a folder"):
        open_existing_store(tmp_path)
    with pytest.raises(StoreError, match="is a folder"):
        Store(tmp_path)


# -- 2. another program's database, and older stores of this one ---------------------------------


def foreign(path: Path, *, tables: dict[str, str], app_id: int = 0) -> Path:
    conn = sqlite3.connect(path)
    for name, columns in tables.items():
        conn.execute(f"CREATE TABLE {name} ({columns})")
        conn.execute(f"INSERT INTO {name} DEFAULT VALUES")
    conn.execute(f"PRAGMA application_id = {app_id}")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("opener", OPENERS)
def test_another_programs_database_is_refused_untouched(tmp_path: Path, opener: str) -> None:
    path = foreign(tmp_path / "app.db", tables={"users": "id INTEGER PRIMARY KEY, name TEXT", "orders": "id, user"})
    error = refused(opener, path, "is a SQLite database but not a blog-harvester store")
    assert "orders, users" in str(error)
    conn = sqlite3.connect(path)
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master ORDER BY name")] == ["orders", "users"]


def test_a_database_marked_by_another_program_is_refused_even_with_our_table_names(tmp_path: Path) -> None:
    tables = {"feeds": "url, site", "articles": "url, site", "snapshots": "article, fetched_at"}
    path = foreign(tmp_path / "reader.db", tables=tables, app_id=0x0F055112)
    error = refused("crawl", path, "not a blog-harvester store")
    assert "application_id 0xf055112" in str(error)


def test_a_store_without_the_marker_is_recognised_upgraded_and_marked(tmp_path: Path) -> None:
    """A store of an earlier version: no application_id yet, a table and a column fewer, plus a
    table of the user's own (Datasette users add some): the crawl opens and upgrades it."""
    path = make_store(tmp_path / "blogs.db")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 0")
    conn.execute("DROP TABLE feed_comments")
    conn.execute("ALTER TABLE sites DROP COLUMN comment_feed_checked_at")
    conn.execute("CREATE TABLE my_notes (site TEXT, note TEXT)")
    conn.commit()
    conn.close()
    with Store(path) as store:
        assert store.schema_is_current()
        assert store.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert "comment_feed_checked_at" in store.db.table("sites").columns_dict
        assert {"feed_comments", "my_notes"} <= set(store.db.table_names())
        assert store.db.execute("SELECT COUNT(*) FROM feeds").fetchone()[0] == 3


def test_a_query_upgrades_an_older_store_it_may_write_then_reads_it_read_only(tmp_path: Path) -> None:
    path = make_store(tmp_path / "blogs.db")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 0")
    conn.execute("DROP TABLE feed_comments")
    conn.commit()
    conn.close()
    with open_existing_store(path) as store:
        assert store.read_only and "feed_comments" in store.db.table_names()


# -- 3. queries read through a read-only connection ----------------------------------------------


def test_queries_open_the_store_read_only(tmp_path: Path) -> None:
    path = make_store(tmp_path / "blogs.db")
    before, names = fingerprint(path), folder(path)
    with open_existing_store(path) as store:
        assert store.read_only
        assert [row["site"] for row in store.sites()] == ["site0", "site1", "site2"]
        with pytest.raises(sqlite3.OperationalError, match="readonly"):  # the connection itself is mode=ro
            store.db.execute("INSERT INTO sites (name) VALUES ('written')")
    assert fingerprint(path) == before
    assert {n for n in folder(path) if not n.endswith(("-wal", "-shm"))} == set(names)
    with open_existing_store(path, write=True) as store:
        assert not store.read_only
        store.db.execute("INSERT INTO sites (name) VALUES ('written')")


def test_a_read_only_store_file_can_be_queried(tmp_path: Path) -> None:
    path = make_store(tmp_path / "blogs.db")
    path.chmod(0o444)
    try:
        with open_existing_store(path) as store:
            assert store.db.execute("SELECT COUNT(*) FROM sites").fetchone()[0] == 3
        if os.geteuid() != 0:  # root may write a 0444 file anyway
            with pytest.raises(StoreError, match="the file is read-only"):
                Store(path)
    finally:
        path.chmod(0o644)


def read_only_folder(path: Path) -> list[str]:
    """A command prefix under which `path` is a read-only folder: chmod for a normal user; for
    root, whom chmod does not stop, a read-only bind mount in a private mount namespace."""
    if os.geteuid() != 0:
        path.chmod(0o555)
        return []
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    prefix = ["unshare", "-m", "sh", "-c", script, str(path)]
    try:
        probe = subprocess.run([*prefix, "touch", str(path / "probe")], capture_output=True, text=True, timeout=30)
    except FileNotFoundError:
        pytest.skip("running as root, where chmod does not stop writes, and unshare is not installed")
    if "Read-only file system" not in probe.stderr:
        pytest.skip(f"running as root, where chmod does not stop writes, and no read-only mount: {probe.stderr}")
    return prefix


def run_python(prefix: list[str], code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**_env(), "PYTHONWARNINGS": "ignore"}
    cmd = [*prefix, sys.executable, "-c", code, *args]
    return subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, timeout=120, env=env)


OPEN_IN_CHILD = """
import sys
from store import open_existing_store
from store.sqlite import Store, StoreError
try:
    store = open_existing_store(sys.argv[1]) if sys.argv[2] == "query" else Store(sys.argv[1])
    print(store.read_only, store.db.execute("SELECT COUNT(*) FROM sites").fetchone()[0])
except StoreError as exc:
    print("StoreError:", exc)
"""


def test_a_store_in_a_read_only_folder_is_read_without_wal_files(tmp_path: Path) -> None:
    """WAL readers need the -shm file; with none and a read-only folder the store is read immutable."""
    place = tmp_path / "ro"
    path = make_store(place / "blogs.db")
    assert folder(path) == ["blogs.db"]  # closed cleanly: no -wal, no -shm
    prefix = read_only_folder(place)
    try:
        read = run_python(prefix, OPEN_IN_CHILD, str(path), "query")
        assert read.stdout.strip() == "True 3", read.stderr[-2000:]
        crawl = run_python(prefix, OPEN_IN_CHILD, str(path), "crawl")
        assert crawl.stdout.startswith(f"StoreError: cannot write the store {path}: its folder"), crawl.stderr[-2000:]
        assert folder(path) == ["blogs.db"]
    finally:
        place.chmod(0o755)


def test_an_older_store_in_a_read_only_folder_asks_for_an_upgrade(tmp_path: Path) -> None:
    place = tmp_path / "ro"
    path = make_store(place / "blogs.db")
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE feed_comments")
    conn.commit()
    conn.close()
    prefix = read_only_folder(place)
    try:
        read = run_python(prefix, OPEN_IN_CHILD, str(path), "query")
        assert read.stdout.startswith(
            f"StoreError: {path} is a store of an older blog-harvester; upgrading it failed: cannot write"
        ), read.stdout + read.stderr[-2000:]
    finally:
        place.chmod(0o755)


def test_uncheckpointed_changes_in_a_read_only_folder_are_not_silently_skipped(tmp_path: Path) -> None:
    """A -wal file with commits but no -shm (a killed crawl's store, copied): reading it immutable
    would miss those commits, so the query says so instead."""
    source = make_store(tmp_path / "live.db", sites=1)
    writer = sqlite3.connect(source)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("INSERT INTO sites (name) VALUES ('only-in-wal')")
    writer.commit()
    place = tmp_path / "ro"
    place.mkdir()
    (place / "blogs.db").write_bytes(source.read_bytes())
    (place / "blogs.db-wal").write_bytes(Path(f"{source}-wal").read_bytes())
    writer.close()
    assert (place / "blogs.db-wal").stat().st_size > 0
    prefix = read_only_folder(place)
    try:
        read = run_python(prefix, OPEN_IN_CHILD, str(place / "blogs.db"), "query")
        assert "StoreError:" in read.stdout and "has changes in blogs.db-wal" in read.stdout, read.stderr[-2000:]
    finally:
        place.chmod(0o755)


# -- 4. damaged stores ----------------------------------------------------------------------------


def damaged(path: Path, how: str) -> Path:
    data = bytearray(make_store(path, sites=40).read_bytes())
    if how == "truncated":
        data = data[: len(data) // 2]
    elif how == "header-cut":
        data = data[:60]
    elif how == "schema-overwritten":
        data[100:4096] = random.Random(5).randbytes(3996)  # page 1: the schema table's b-tree
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("opener", OPENERS)
@pytest.mark.parametrize("how", ["truncated", "header-cut", "schema-overwritten"])
def test_a_damaged_store_is_refused_untouched(tmp_path: Path, how: str, opener: str) -> None:
    path = damaged(tmp_path / "blogs.db", how)
    error = refused(opener, path, "is damaged")
    assert "Traceback" not in str(error)


# -- 6. a folder the crawl cannot create ----------------------------------------------------------


def test_a_store_whose_folder_cannot_be_created_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the store's folder should be\n")
    with pytest.raises(StoreError, match=f"cannot create the folder {blocker}/sub for the store blogs.db"):
        Store(blocker / "sub" / "blogs.db")
    assert blocker.read_text().startswith("a file")


# -- 5. runs whose crawl died -----------------------------------------------------------------------

CRAWL_IN_CHILD = """
import sys, time
from store.lockfile import RunLock
from store.sqlite import Store
lock = RunLock(sys.argv[1] + ".lock")
assert lock.acquire(), "the lock is free"
run = Store(sys.argv[1]).start_run(now=time.time(), feeds_file="feeds.txt", watch=False)
print(run, flush=True)
sys.stdin.read()  # a crawl at work, until it is killed
"""


def runs(path: Path) -> dict[int, tuple[str | None, str | None]]:
    conn = sqlite3.connect(path)
    try:
        return {r[0]: (r[1], r[2]) for r in conn.execute("SELECT id, reason, finished_at FROM runs")}
    finally:
        conn.close()


def test_runs_whose_crawl_died_are_marked_crashed_at_the_next_start(tmp_path: Path) -> None:
    path = make_store(tmp_path / "blogs.db")
    crawls = []
    for _ in range(2):  # the first is killed (kill -9: its lock dies with it), the second keeps running
        proc = subprocess.Popen(
            [sys.executable, "-c", CRAWL_IN_CHILD, str(path)],
            cwd=PROJECT,
            env={**_env(), "PYTHONWARNINGS": "ignore"},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        crawls.append((proc, int(proc.stdout.readline())))
        if len(crawls) == 1:
            proc.kill()
            proc.wait(timeout=30)
    (killed, killed_run), (alive, alive_run) = crawls
    try:
        state = runs(path)  # the second crawl, holding the lock, found the first one's run dead
        assert state[killed_run][0] == "crashed" and state[killed_run][1] is not None
        assert state[alive_run] == (None, None)
        summary = sqlite3.connect(path).execute("SELECT summary FROM runs WHERE id = ?", [killed_run]).fetchone()[0]
        assert f"process {killed.pid} ended without finishing the run" in summary
        with Store(path) as store:  # the lock is held by the live crawl: its run is alive
            mine = store.start_run(now=NOW, feeds_file="f", watch=False)
            store.finish_run(mine, now=NOW + 1, reason="finished", summary="", stats={})
        assert runs(path)[alive_run] == (None, None), "a run whose crawl still holds the lock is alive"
    finally:
        alive.kill()
        alive.wait(timeout=30)
    lock = RunLock(f"{path}.lock")
    assert lock.acquire()  # as `scrapy crawl` does before it records its run
    try:
        with Store(path) as store:
            store.start_run(now=NOW + 60, feeds_file="f", watch=False)
    finally:
        lock.release()
    assert runs(path)[alive_run] == ("crashed", "2024-05-01T10:01:00.000Z")
    assert runs(path)[mine] == ("finished", "2024-05-01T10:00:01.000Z")  # finished runs keep their end


def test_start_run_when_nobody_holds_the_lock_closes_every_unfinished_run(tmp_path: Path) -> None:
    path = make_store(tmp_path / "blogs.db")
    with Store(path) as store:
        first = store.start_run(now=NOW, feeds_file="f", watch=False)
        assert not Path(f"{path}.lock").exists()
        second = store.start_run(now=NOW + 5, feeds_file="f", watch=True)
    state = runs(path)
    assert state[first] == ("crashed", "2024-05-01T10:00:05.000Z") and state[second] == (None, None)


def test_a_second_store_in_one_process_keeps_the_first_ones_commits_visible(tmp_path: Path) -> None:
    """Opening the same store twice in one process must not drop SQLite's POSIX locks (closing any
    descriptor of the file would): another process's reader would then delete the live WAL, and
    the first store's later commits would be invisible to readers and lost on a kill."""
    db = tmp_path / "blogs.db"

    def sites_seen_by_another_process() -> int:
        query = "SELECT COUNT(*) FROM sites"
        code = f"import sqlite3; print(sqlite3.connect({str(db)!r}).execute({query!r}).fetchone()[0])"
        return int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)

    first = Store(db)
    with first.transaction() as conn:
        conn.execute("INSERT INTO sites (name, added_at) VALUES ('a', 'now')")
    assert sites_seen_by_another_process() == 1
    second = Store(db)
    assert sites_seen_by_another_process() == 1
    with first.transaction() as conn:
        conn.execute("INSERT INTO sites (name, added_at) VALUES ('b', 'now')")
    assert sites_seen_by_another_process() == 2
    assert Path(f"{db}-wal").exists()
    second.close()
    first.close()
