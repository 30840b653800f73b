"""Opening the store safely (issue 21), end to end: every query command and `scrapy crawl blogs`
as subprocesses on files that are not usable stores, on a store in a read-only folder, and a
crawl killed with SIGKILL whose run the next crawl closes as crashed."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env, crawl_command, rows, run_crawl, start_crawl, wait_for, write_feeds
from test_store_open import damaged, fingerprint, foreign, make_store, read_only_folder

from farm import BlogFarm
from store.sqlite import Store
from store.storefile import APPLICATION_ID

pytestmark = pytest.mark.slow

HOUR = 3600.0
COMMANDS = {
    "sites": ["sites"],
    "posts": ["posts"],
    "comments": ["comments"],
    "search": ["search", "shooting board"],
    "export": ["export", "--format", "jsonl", "{tmp}/out.jsonl"],
    "report": ["report", "{tmp}/report"],
    "reextract": ["reextract"],
}
BAD = {
    "text": (lambda p: p.write_text("hello, I am a text file\n"), "is not a SQLite database"),
    "random-bytes": (lambda p: p.write_bytes(random.Random(3).randbytes(9000)), "is not a SQLite database"),
    "foreign": (
        lambda p: foreign(p, tables={"users": "id, name", "orders": "id"}),
        "is a SQLite database but not a blog-harvester store",
    ),
    "truncated": (lambda p: damaged(p, "truncated"), "is damaged"),
    "schema-overwritten": (lambda p: damaged(p, "schema-overwritten"), "is damaged"),
}
# Every command on the commonest mistakes; the rarer ones on one reading and one writing command.
CASES = [(kind, cmd) for kind in ("text", "foreign") for cmd in COMMANDS] + [
    (kind, cmd) for kind in ("random-bytes", "truncated", "schema-overwritten") for cmd in ("posts", "reextract")
]


def quiet_env() -> dict[str, str]:
    return {**_env(), "PYTHONWARNINGS": "ignore"}  # stale-build warnings are not what is tested here


def scrapy(db: Path, name: str, tmp: Path, prefix: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    args = [a.format(tmp=tmp) for a in COMMANDS[name]]
    cmd = [*(prefix or []), sys.executable, "-m", "scrapy", *args, "-s", f"BLOGS_DB={db}"]
    return subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, timeout=120, env=quiet_env())


def store_files(db: Path) -> list[str]:
    """The store and the files SQLite keeps beside it (lock files are the crawl's, not the store's)."""
    return sorted(p.name for p in db.parent.iterdir() if p.name.startswith(db.name) and not p.name.endswith(".lock"))


@pytest.mark.parametrize(("kind", "command"), CASES)
def test_every_command_refuses_a_file_that_is_not_a_usable_store(tmp_path: Path, kind: str, command: str) -> None:
    make, message = BAD[kind]
    db = tmp_path / "blogs.db"
    make(db)
    before = fingerprint(db)
    done = scrapy(db, command, tmp_path)
    assert done.returncode == 1, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"scrapy {command}: error: {db} "), done.stderr[-2000:]
    assert message in lines[0]
    assert fingerprint(db) == before and store_files(db) == ["blogs.db"]
    assert not (tmp_path / "out.jsonl").exists() and not (tmp_path / "report").exists()


def test_query_commands_refuse_an_empty_file_and_the_crawl_initialises_it(tmp_path: Path) -> None:
    db = tmp_path / "blogs.db"
    db.touch()
    done = scrapy(db, "sites", tmp_path)
    assert done.returncode == 1 and "is an empty file, not a blog-harvester store yet" in done.stderr
    assert db.stat().st_size == 0
    feeds = write_feeds(tmp_path / "feeds.txt", ["http://127.0.0.1:9/feed/ closed-port"])
    run_crawl(feeds, db)  # its only feed fails: what counts here is that the store was made
    assert sqlite3.connect(db).execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert scrapy(db, "sites", tmp_path).returncode == 0


@pytest.mark.parametrize("kind", ["text", "foreign", "truncated", "schema-overwritten"])
def test_the_crawl_refuses_a_file_that_is_not_a_usable_store(tmp_path: Path, kind: str) -> None:
    make, message = BAD[kind]
    db = tmp_path / "blogs.db"
    make(db)
    before = fingerprint(db)
    feeds = write_feeds(tmp_path / "feeds.txt", ["http://127.0.0.1:9/feed/ closed-port"])
    done = subprocess.run(
        crawl_command(feeds, db), cwd=PROJECT, capture_output=True, text=True, timeout=120, env=quiet_env()
    )
    assert done.returncode != 0, done.stderr[-3000:]
    errors = [line for line in done.stderr.splitlines() if " ERROR: " in line]
    assert len(errors) == 1 and message in errors[0] and str(db) in errors[0], done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert fingerprint(db) == before and store_files(db) == ["blogs.db"]


def test_a_damaged_table_fails_a_query_in_one_line(tmp_path: Path) -> None:
    """Damage past the schema shows only when a query reads it: still one line, not a traceback."""
    db = tmp_path / "blogs.db"
    with Store(db) as store:
        store.sync_feeds([("http://127.0.0.1:9/feed/", "s")], time.time())
        text = random.Random(4).choices("abcdefghij klmnop", k=3000)
        for i in range(300):
            store.db.execute(
                "INSERT INTO articles (url, site, feed) VALUES (?, 's', ?)",
                [f"http://h/{i}", "http://127.0.0.1:9/feed/"],
            )
            store.db.execute(
                "INSERT INTO posts (url, site, title, text) VALUES (?, 's', ?, ?)",
                [f"http://h/{i}", f"t{i}", "".join(text)],
            )
        store.db.conn.commit()
    data = bytearray(db.read_bytes())
    data[len(data) // 2 : len(data) - 8192] = bytes(len(data) // 2 - 8192)  # zeroed pages of posts
    db.write_bytes(bytes(data))
    done = scrapy(db, "posts", tmp_path)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "malformed" in lines[0], done.stderr[-2000:]


def test_query_commands_work_on_a_store_in_a_read_only_folder(tmp_path: Path) -> None:
    place = tmp_path / "ro"
    db = make_store(place / "blogs.db")
    prefix = read_only_folder(place)
    try:
        done = scrapy(db, "sites", tmp_path, prefix)
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.split()[:1] == ["site"] and "site2" in done.stdout
        assert store_files(db) == ["blogs.db"]
        rewrite = scrapy(db, "reextract", tmp_path, prefix)  # it writes, so it says it cannot
        assert rewrite.returncode == 1 and "Traceback" not in rewrite.stderr, rewrite.stderr[-2000:]
        assert rewrite.stderr.strip() == f"scrapy reextract: error: cannot write beside {db}: " + (
            "Read-only file system" if prefix else "Permission denied"
        )
    finally:
        place.chmod(0o755)


def test_the_crawl_refuses_a_store_folder_it_cannot_create(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file\n")
    feeds = write_feeds(tmp_path / "feeds.txt", ["http://127.0.0.1:9/feed/ closed-port"])
    db = blocker / "blogs.db"
    done = subprocess.run(
        crawl_command(feeds, db), cwd=PROJECT, capture_output=True, text=True, timeout=120, env=quiet_env()
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    errors = [line for line in done.stderr.splitlines() if " ERROR: " in line]
    assert len(errors) == 1 and str(db) in errors[0], done.stderr[-3000:]


def test_a_crawl_killed_mid_run_is_closed_as_crashed_by_the_next(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog("gen", articles=16, start=t0 - 16 * HOUR, interval=HOUR, seed=23)
    farm.misbehave("/20", "slow", prefix=True, delay=0.4)  # article pages take a while
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"
    log = tmp_path / "killed.log"
    victim = start_crawl(feeds, db, clock=farm.clock, log=log)
    try:
        started = lambda: bool(rows(db, "SELECT id FROM runs")) and any(farm.requests_for(a.url) for a in blog.articles)  # noqa: E731
        assert wait_for(started, timeout=60), log.read_text()[-2000:]
        assert victim.poll() is None, "killed in the middle of its run"
    finally:
        victim.kill()
        victim.wait(timeout=30)
    assert rows(db, "SELECT reason, finished_at FROM runs") == [(None, None)]  # left "running"
    result = run_crawl(feeds, db, clock=farm.clock)
    assert result.returncode == 0, result.stderr[-3000:]
    (first, second) = rows(db, "SELECT pid, reason, finished_at, summary FROM runs ORDER BY id")
    assert first[0] == victim.pid and first[1] == "crashed" and first[2] is not None
    assert f"process {victim.pid} ended without finishing the run" in first[3]
    assert second[1] == "finished" and second[2] is not None
