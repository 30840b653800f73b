"""Shared pytest fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from farm import DEFAULT_CORPUS_ROOT, BlogFarm


@pytest.fixture(scope="session")
def corpus_root() -> Path:
    """The shared evaluation corpus (../shared/corpus); its absence is an error, not a skip."""
    if not (DEFAULT_CORPUS_ROOT / "wordpress").is_dir():
        pytest.fail(f"evaluation corpus missing: expected {DEFAULT_CORPUS_ROOT}/wordpress", pytrace=False)
    return DEFAULT_CORPUS_ROOT


@pytest.fixture
def farm(corpus_root: Path) -> Iterator[BlogFarm]:
    """A started local blog farm (no sites yet), stopped after the test."""
    with BlogFarm(corpus_root=corpus_root) as running:
        yield running
