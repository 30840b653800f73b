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
    reduced = ["--copies", "1", "--repeat", "1", "--dask", "--dask-copies", "1"]
    out = subprocess.run([*cmd, *reduced], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "archive: 120 pages of 4 sites" in out.stdout
    for figure in (
        "import / extraction alone: ",
        "store import / extraction alone: ",
        "peak RSS of the library import",
        "Dask import: 120 pages of 4 sites in 4 files",
        "Dask cluster of 2 worker(s) started and warmed up in ",  # apart from the import's time
        "Dask import wall time (fastest of 1): 1 worker ",
    ):
        assert figure in out.stdout, out.stdout
