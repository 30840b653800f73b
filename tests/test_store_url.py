"""store.open_store and the StoreBackend interface: a path opens the SQLite store, a postgresql://
URL the PostgreSQL store; an unreachable server or another URL is refused in one line, with no
password, by the factory, the query commands and the crawl."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from crawl_helpers import PROJECT, _env, crawl_command, write_feeds

import store
from farm.postgres import PostgresServer
from store import StoreBackend, StoreError, open_store
from store.postgres import RETRIED_WRITES, PostgresStore
from store.sqlite import Store

URL = "postgresql://harvester:s3cret@127.0.0.1:9/blogs"


def test_open_store_opens_a_path_as_the_sqlite_store(tmp_path: Path) -> None:
    with open_store(tmp_path / "blogs.db") as opened:
        assert isinstance(opened, Store)
        opened.sync_feeds([("http://h/feed/", "s")], 0.0)
        assert opened.feed("http://h/feed/") is not None


def test_open_store_opens_a_url_as_the_postgresql_store(pg_server: PostgresServer) -> None:
    url = pg_server.new_database()
    with open_store(url) as opened:
        assert isinstance(opened, PostgresStore) and opened.location == url
        opened.sync_feeds([("http://h/feed/", "s")], 0.0)
        assert opened.feed("http://h/feed/") is not None
    with open_store(url, read_only=True) as reader:
        assert reader.feed("http://h/feed/") is not None


def test_a_read_only_open_never_creates_a_postgresql_store(pg_server: PostgresServer) -> None:
    url = pg_server.new_database()
    with pytest.raises(StoreError, match=r"^postgresql://127.0.0.1:\d+/store_\d+: not a store$"):
        open_store(url, read_only=True)
    with pytest.raises(StoreError, match="not a store"):
        open_store(url, create=False)
    with psycopg.connect(url) as conn:
        tables = conn.execute("SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
        assert tables == (0,)  # nothing was created


@pytest.mark.parametrize("store_class", [Store, PostgresStore])
def test_both_stores_are_the_one_door_and_add_only_opening(store_class: type) -> None:
    """Every read and write is StoreBackend's, written once: a backend adds opening, schema and closing
    only (PostgreSQL also runs some of the shared writes again after a lost connection: the same
    methods, wrapped, store.postgres.RETRIED_WRITES)."""
    assert issubclass(store_class, StoreBackend)
    own = {n for n, v in vars(store_class).items() if inspect.isfunction(v) and not n.startswith("_")}
    retried = set(RETRIED_WRITES) if store_class is PostgresStore else set()
    assert retried <= set(dir(StoreBackend))  # wrappers of shared methods, not methods of its own
    assert own - retried <= {"close", "schema_is_current", "ensure_schema", "live_crawlers"}, own - retried
    shared = [n for n in dir(StoreBackend) if not n.startswith("_") and inspect.isfunction(getattr(StoreBackend, n))]
    assert len(shared) > 60 and "save_page" in shared and "transaction" in shared and "posts" in shared


@pytest.mark.parametrize("location", [URL, "postgres://127.0.0.1:9/blogs"])
def test_an_unreachable_postgresql_server_is_one_line_at_once(
    location: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError, match=r"^postgres(ql)?://127.0.0.1:9/blogs: cannot connect: .*refused") as caught:
        open_store(location)
    assert "s3cret" not in str(caught.value) and "harvester" not in str(caught.value)
    assert "\n" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []  # no file named after the URL


def test_blogs_db_as_a_url_is_taken_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert store.store_location(URL) == URL
    with pytest.raises(StoreError, match="is not a store this version can open"):
        store.store_location("mysql://h/blogs")
    assert store.store_location("x.db") == "x.db"
    assert list(tmp_path.iterdir()) == []


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**_env(), "PYTHONWARNINGS": "ignore"}
    return subprocess.run(args, cwd=PROJECT, capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.slow
@pytest.mark.parametrize("command", [["sites"], ["posts"], ["search", "board"], ["reextract"]])
def test_commands_report_an_unreachable_postgresql_server_in_one_line(command: list[str]) -> None:
    before = sorted(p.name for p in PROJECT.iterdir())
    done = _run([sys.executable, "-m", "scrapy", *command, "-s", f"BLOGS_DB={URL}"])
    assert done.returncode == 1, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"scrapy {command[0]}: error: postgresql://127.0.0.1:9/blogs")
    assert "cannot connect" in lines[0]
    assert "s3cret" not in done.stderr
    assert sorted(p.name for p in PROJECT.iterdir()) == before


@pytest.mark.slow
def test_the_crawl_reports_an_unreachable_postgresql_server_with_exit_4(tmp_path: Path) -> None:
    feeds = write_feeds(tmp_path / "feeds.txt", ["http://127.0.0.1:9/feed/ closed-port"])
    args = crawl_command(feeds, Path("unused.db"), settings={"BLOGS_DB": URL})
    done = _run(args)
    assert done.returncode == 4, done.stderr[-3000:]
    errors = [line for line in done.stderr.splitlines() if " ERROR: " in line]
    assert len(errors) == 1 and "Cannot crawl into postgresql://127.0.0.1:9/blogs: cannot" in errors[0], done.stderr
    assert "Traceback" not in done.stderr and "s3cret" not in done.stderr
    assert not (PROJECT / "unused.db").exists() and not (tmp_path / "unused.db").exists()
