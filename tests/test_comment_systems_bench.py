"""bench/render_comments.py runs (its timing needs no test; a broken script does)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_render_bench_states_detection_and_rendering_costs(corpus_root: Path) -> None:
    cmd = [sys.executable, str(ROOT / "bench" / "render_comments.py"), "--pages", "1", "--corpus", str(corpus_root)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    detection, rendering = out.stdout.strip().splitlines()
    assert detection.startswith("detection: ") and " ms/page; html " in detection
    assert rendering.startswith("rendering: 1 pages, ") and "comments found per page [20] of 20" in rendering
