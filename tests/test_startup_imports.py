"""Every `scrapy` command loads the project's command modules: none of them may import Dask at
start-up (1-3 s per command); Dask is imported where a cluster is used."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]


def test_command_modules_do_not_import_dask() -> None:
    modules = sorted(p.stem for p in (PROJECT / "commands").glob("*.py") if p.stem != "__init__")
    assert "reextract" in modules and "import-warc" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module('commands.' + name)\n"
        "import crawler.spiders.blogs\n"
        "print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=PROJECT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
