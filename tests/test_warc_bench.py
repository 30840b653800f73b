"""bench/warc_import.py runs (its timing needs no test; a broken script does)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_warc_import_bench_runs_and_states_every_figure(corpus_root: Path) -> None:
    cmd = [sys.executable, str(ROOT / "bench" / "warc_import.py"), "--corpus", str(corpus_root)]
    out = subprocess.run([*cmd, "--copies", "1", "--repeat", "1"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "archive: 120 pages of 4 sites" in out.stdout
    for figure in (
        "import / extraction alone: ",
        "store import / extraction alone: ",
        "peak RSS of the library import",
    ):
        assert figure in out.stdout, out.stdout
