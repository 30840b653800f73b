"""The store has one door: code outside store/ calls StoreBackend's methods and never its connection."""

from __future__ import annotations

import ast
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
CALLERS = ("commands", "pipelines", "jobs", "crawler", "bench")


def caller_files() -> list[Path]:
    return sorted(path for folder in CALLERS for path in (PROJECT / folder).rglob("*.py"))


def test_no_caller_takes_the_store_connection() -> None:
    files = caller_files()
    assert len(files) > 40  # the folders were found
    found = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "db":
                found.append(f"{path.relative_to(PROJECT)}:{node.lineno} .db")
            if isinstance(node, ast.ImportFrom) and node.module == "store.sql":
                found.append(f"{path.relative_to(PROJECT)}:{node.lineno} imports store.sql")
    assert found == []
