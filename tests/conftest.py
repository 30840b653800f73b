"""Shared pytest fixtures, and the run's hygiene: subprocesses end with the run, slow tests are marked."""

from __future__ import annotations

import atexit
import itertools
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

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


# --- subprocesses end with the run ------------------------------------------------------------------


def _children_of(pid: int) -> list[int]:
    """Pids whose parent is `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _kill_leftover_children() -> None:
    """SIGKILL this process's remaining children: only processes this test run started, each by its pid
    (their own children, a crawl's extraction workers, die with them: pipelines.extract)."""
    for pid in _children_of(os.getpid()):
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def _terminated(signum: int, frame: FrameType | None) -> None:
    # A SIGTERM/SIGHUP'd run unwinds like Ctrl-C: fixtures stop what they started, then atexit sweeps.
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_configure(config: pytest.Config) -> None:
    # Interrupted (Ctrl-C, SIGTERM, SIGHUP): fixtures stop what they started and atexit sweeps the rest;
    # killed (SIGKILL): each crawl dies with the run by itself (crawl_helpers.die_with_test_run).
    signal.signal(signal.SIGTERM, _terminated)
    signal.signal(signal.SIGHUP, _terminated)
    atexit.register(_kill_leftover_children)
    sys.addaudithook(_audit)


# --- the slow marker marks every test that starts a crawl, a cluster or a browser ----------------------

_running: list[pytest.Item] = []  # the test being set up, run or torn down


def _heavy(args: Any) -> str | None:
    """What a subprocess's argv starts, if it is a crawl, a Dask cluster or a browser."""
    argv = [str(a) for a in args] if isinstance(args, (list, tuple)) else str(args).split()
    words = [os.path.basename(w) for w in argv]
    if "scrapy" in words and "crawl" in words:
        return "a crawl (scrapy crawl)"
    # --dask local:N starts a LocalCluster (a scheduler address only connects); the bench starts its own
    if any(f"{w}={nxt}".startswith("--dask=local:") for w, nxt in itertools.pairwise([*words, ""])):
        return "a Dask cluster"
    if "distributed.py" in words or any(w.startswith("dask-") for w in words):
        return "a Dask cluster"
    if any("chrom" in w or "playwright" in w for w in words):
        return "a browser"
    return None


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event != "subprocess.Popen" or not _running:
        return
    item = _running[-1]
    what = _heavy(args[1])
    if what is not None and item.get_closest_marker("slow") is None:
        raise RuntimeError(f"{item.nodeid} starts {what}: mark it @pytest.mark.slow (pytest -m 'not slow' is quick)")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    _running.append(item)
    try:
        return (yield)
    finally:
        _running.pop()
