"""`make demo` (scripts/demo.py): a newcomer without internet sees the whole pipeline work, and every
command it prints works when pasted."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env

pytestmark = pytest.mark.slow


def run_demo(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "scripts/demo.py", *args],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=240,
        env={**_env(), "COLUMNS": "160"},
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    print(done.stdout)
    return done.stdout


def printed_commands(out: str) -> list[str]:
    """The commands the demo prints after 'Query it from ...:', indented by two spaces."""
    tail = out.split("Query it from ")[1].splitlines()[1:]
    return [line.strip() for line in tail if line.startswith("  ")]


def test_demo_crawls_the_local_farm_and_prints_posts_and_comments(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    out = run_demo("--db", str(db))
    for section in ("crawl 1", "crawl 2", "scrapy sites", "scrapy posts", "scrapy comments", "scrapy search"):
        assert f"== {section}" in out, section
    assert out.count("run summary: feeds ok") == 2
    sites = out.split("== scrapy sites")[1].split("==")[0].splitlines()[2:]
    assert {line.split()[0] for line in sites if line.strip()} == {
        "cocoon",
        "tt16",
        "tt21",
        "tt22",
        "notebook",
        "nikki",
    }
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*) FROM snapshots WHERE kind = 'refetch'").fetchone()[0] > 0
    assert conn.execute("SELECT COUNT(*) FROM posts").fetchone()[0] == 4 * 10 + 2 * 12
    assert conn.execute("SELECT COUNT(*) FROM comments WHERE author IS NOT NULL").fetchone()[0] > 100
    # Comments that arrived between the two runs were added by the second one.
    assert conn.execute("SELECT COUNT(DISTINCT first_seen) FROM comments WHERE site = 'notebook'").fetchone()[0] > 1
    assert "ベランダ" in out.split('scrapy search "ベランダ"')[1]
    conn.close()

    # The store is kept, and every command printed for it works when pasted in the project folder.
    commands = printed_commands(out)
    assert len(commands) >= 5 and any("--article" in c for c in commands)
    for command in commands:
        done = subprocess.run(command, shell=True, cwd=PROJECT, capture_output=True, text=True, timeout=120, env=_env())
        assert done.returncode == 0, command + "\n" + done.stderr[-2000:]
        assert len(done.stdout.strip().splitlines()) >= 2 or "--article" not in command, command
        assert done.stdout.strip(), command


def test_demo_refuses_an_existing_store(tmp_path: Path) -> None:
    db = tmp_path / "mine.db"
    db.write_bytes(b"precious")
    done = subprocess.run(
        [sys.executable, "scripts/demo.py", "--db", str(db)], cwd=PROJECT, capture_output=True, text=True, env=_env()
    )
    assert done.returncode != 0
    assert "exists" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert db.read_bytes() == b"precious"


def test_demo_without_the_shared_corpus_runs_on_the_generated_blogs(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    out = run_demo("--db", str(db), "--corpus-root", str(tmp_path / "no-corpus"))
    assert "no WordPress corpus at" in out
    sites = out.split("== scrapy sites")[1].split("==")[0].splitlines()[2:]
    assert {line.split()[0] for line in sites if line.strip()} == {"notebook", "nikki"}
    for command in printed_commands(out):
        done = subprocess.run(command, shell=True, cwd=PROJECT, capture_output=True, text=True, timeout=120, env=_env())
        assert done.returncode == 0 and done.stdout.strip(), command + "\n" + done.stderr[-2000:]


def test_ctrl_c_stops_the_demo_in_one_line_and_keeps_no_store(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    # Its own process group, as a terminal's foreground job: Ctrl-C sends SIGINT to the demo and its crawl.
    proc = subprocess.Popen(
        [sys.executable, "scripts/demo.py", "--db", str(db)],
        cwd=PROJECT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**_env(), "PYTHONUNBUFFERED": "1"},
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # interrupted while the first crawl runs
            if line.startswith("== crawl 1"):
                break
        while not Path(f"{db}.partial").exists() and proc.poll() is None:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err[-3000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    assert err.strip().splitlines() == ["demo: interrupted (Ctrl-C); no store was kept"], err[-3000:]
    assert "== crawl 2" not in out and "== scrapy sites" not in out
    assert sorted(p.name for p in tmp_path.iterdir()) == []
