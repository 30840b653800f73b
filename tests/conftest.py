"""Shared pytest fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from farm import DEFAULT_CORPUS_ROOT, BlogFarm
from farm.postgres import PostgresServer, PostgresUnavailable


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


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """A private PostgreSQL server for the test session (farm.postgres), stopped by its pid at the end.
    Missing server binaries are an error, not a skip: scripts/ensure_postgres.sh installs them."""
    try:
        server = PostgresServer()
    except PostgresUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
    with server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    """Run the test once per store backend."""
    return str(request.param)


@pytest.fixture
def fresh_db(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """The location of a new, empty store on each backend: a file path, or a new PostgreSQL database's URL."""
    if backend == "sqlite":
        yield str(tmp_path / "blogs.db")
        return
    server: PostgresServer = request.getfixturevalue("pg_server")
    url = server.new_database()
    yield url
    server.drop_database(url)
