"""bench/freshness.py runs on a small workload and says whether the issue 32 targets are met."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_freshness_bench_compares_the_policies() -> None:
    cmd = [sys.executable, str(ROOT / "bench" / "freshness.py"), "--feeds", "8", "--days", "2"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True).stdout
    lines = out.splitlines()
    for policy in ("fixed 5 min", "weekly average", "predictive"):
        assert any(line.startswith(policy) for line in lines), out
    fixed = next(line for line in lines if line.startswith("fixed 5 min"))
    assert fixed.split()[-1] == "288.0"  # requests per feed per day of a 5-minute poll
    assert lines[-1].startswith("targets (")
