"""`make demo` (scripts/demo.py): a newcomer without internet sees the whole pipeline work."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env

pytestmark = pytest.mark.slow


def test_demo_crawls_the_local_farm_and_prints_posts_and_comments(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    done = subprocess.run(
        [sys.executable, "scripts/demo.py", "--db", str(db)],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=240,
        env={**_env(), "COLUMNS": "160"},
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    out = done.stdout
    print(out)
    for section in ("crawl 1", "crawl 2", "scrapy sites", "scrapy posts", "scrapy comments", "scrapy search"):
        assert f"== {section}" in out, section
    assert out.count("run summary: feeds polled") == 2
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
