"""The PostgreSQL benches run and say what they promise (their figures need no test; a broken script does)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_due_feeds_bench_states_the_cost_per_poll_cycle_through_the_indexes() -> None:
    cmd = [sys.executable, str(ROOT / "bench" / "due_feeds.py"), "--feeds", "2000", "--cycles", "5", "--check"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    last = out.stdout.strip().splitlines()[-1]
    assert "due_sites on 2000 feeds: 20 sites due; per poll cycle median" in last, last
    assert last.endswith("sequential scans: none"), last


@pytest.mark.slow
def test_crawl_workers_bench_names_where_time_goes_and_the_machine_share() -> None:
    cmd = [sys.executable, str(ROOT / "bench" / "crawl_workers.py"), "--blogs", "6", "--articles", "2"]
    out = subprocess.run(
        [*cmd, "--workers", "1,2", "--crawl-delay", "0.2"], capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "PG CPU s" in out.stdout and "per-core eff" in out.stdout, out.stdout
    assert "store sessions sampled (wait event: samples)" in out.stdout, out.stdout
    last = out.stdout.strip().splitlines()[-1]
    assert "; machine: " in last and "articles without exactly one post 0" in last, last
