"""bench/dead_feeds.py runs and says what it promises, at a small size: every dead feed saved as
failed with one connection per host, within the bound it states."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from crawl_helpers import PROJECT, _env

pytestmark = pytest.mark.slow


def test_dead_feeds_bench_saves_every_failure_with_one_connection_per_host() -> None:
    done = subprocess.run(
        [sys.executable, "bench/dead_feeds.py", "--feeds", "12", "--robots-timeout", "1"],
        cwd=PROJECT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "feeds saved failed at 1/4, 1/2 and the end of the run:" in out and out.count(", 12\n") == 1, out
    assert "connections to dead hosts: 12 (1.00 per host)" in out, out
    assert "failed 12," in out, out
    bound = float(re.search(r"= (\d+) s\)", out).group(1))  # type: ignore[union-attr]
    assert bound == 2  # 12 feeds x 1 s / (16 / 2)
