"""Helpers for end-to-end crawl tests: run `scrapy crawl blogs` as a subprocess against the farm.

Every test crawl resolves host names through `LoopbackOnlyResolver`, so even a feed that links
to a real host cannot make a test leave 127.0.0.1. The farm is on loopback addresses, so test
crawls allow private addresses (BLOGS_ALLOW_PRIVATE_ADDRESSES); tests of the refusal turn it off.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from twisted.internet import defer
from twisted.internet.error import DNSLookupError

from crawler.addresses import PublicAddressResolver
from store.pgsql import to_postgres
from store.storefile import is_database_url

PROJECT = Path(__file__).resolve().parents[1]
# tests/breakpoints/sitecustomize.py: put first on a crawl's PYTHONPATH by _env(breakpoint=...)
BREAKPOINTS = Path(__file__).resolve().parent / "breakpoints"
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies

TEST_SETTINGS = {
    "AUTOTHROTTLE_START_DELAY": "0",
    "AUTOTHROTTLE_MAX_DELAY": "1",
    "DOWNLOAD_TIMEOUT": "5",
    "RETRY_TIMES": "0",
    "BLOGS_CONTACT": "mailto:tests@example.invalid",
    "TWISTED_DNS_RESOLVER": "tests.crawl_helpers.LoopbackOnlyResolver",
    "BLOGS_ALLOW_PRIVATE_ADDRESSES": "True",
    "LOG_LEVEL": "INFO",
}


def _loopback_literal(name: str) -> str | None:
    """127.x.y.z for an IPv4 literal in any form inet_aton reads (127.0.0.2, 2130706434, 0177.0.0.2)."""
    try:
        packed = socket.inet_aton(name)
    except OSError:
        return None
    return socket.inet_ntoa(packed) if packed[0] == 127 else None


class LoopbackOnlyResolver(PublicAddressResolver):
    """Resolves localhost, 127-x-y-z.localhost and 127.x literals in any form; every other
    name fails at once, offline. Its answers go through the crawl's address check like any other."""

    def getHostByName(self, name: str, timeout: Sequence[int] = ()) -> defer.Deferred[str]:
        if name == "localhost":
            return defer.succeed("127.0.0.1")
        # 127-0-0-2.localhost: a name (not a literal) for another loopback address
        literal = _loopback_literal(name.removesuffix(".localhost").replace("-", ".") if "-" in name else name)
        if literal is not None:
            return defer.succeed(literal)
        return defer.fail(DNSLookupError(f"{name}: test crawls resolve loopback names only"))


@dataclass
class CrawlResult:
    returncode: int
    stderr: str
    elapsed: float
    stats: dict[str, Any]

    def stat(self, key: str) -> int:
        return int(self.stats.get(f"blogs/{key}", 0))


def write_feeds(path: Path, lines: Sequence[str]) -> Path:
    path.write_text("# test feeds\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def crawl_command(
    feeds: Path, db: Path | str, *args: str, settings: dict[str, str] | None = None, clock_offset: float = 0.0
) -> list[str]:
    cmd = [sys.executable, "-m", "scrapy", "crawl", "blogs", "-a", f"feeds={feeds}", *args]
    merged = {**TEST_SETTINGS, "BLOGS_DB": str(db), "BLOGS_CLOCK_OFFSET": f"{clock_offset:.3f}", **(settings or {})}
    for key, value in merged.items():
        cmd += ["-s", f"{key}={value}"]
    return cmd


def clock_offset(clock: Any | None) -> float:
    """The BLOGS_CLOCK_OFFSET that makes the crawler's clock read like the farm's."""
    return 0.0 if clock is None else clock.now() - time.time()


def run_crawl(
    feeds: Path,
    db: Path | str,
    *args: str,
    settings: dict[str, str] | None = None,
    clock: Any | None = None,
    timeout: float = 90,
) -> CrawlResult:
    before = max_run_id(db)
    started = time.monotonic()
    proc = subprocess.run(
        crawl_command(feeds, db, *args, settings=settings, clock_offset=clock_offset(clock)),
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=_env(),
        preexec_fn=die_with_test_run,
    )
    elapsed = time.monotonic() - started
    return CrawlResult(proc.returncode, proc.stderr, elapsed, run_stats(db, after=before))


def start_crawl(
    feeds: Path,
    db: Path | str,
    *args: str,
    settings: dict[str, str] | None = None,
    clock: Any | None = None,
    log: Path | None = None,
    breakpoint: str | None = None,
) -> subprocess.Popen[bytes]:
    """Start a crawl in the background, in its own process group (the test may kill the group: the
    crawl and its extraction workers); stderr goes to `log` (or is discarded). `breakpoint` names a
    stop in tests/breakpoints/sitecustomize.py."""
    out = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115 -- the child owns it
    return subprocess.Popen(
        crawl_command(feeds, db, *args, settings=settings, clock_offset=clock_offset(clock)),
        cwd=PROJECT,
        stdout=subprocess.DEVNULL,
        stderr=out,
        env=_env(breakpoint),
        start_new_session=True,
        preexec_fn=die_with_test_run,
    )


def die_with_test_run() -> None:
    """preexec_fn of every subprocess a test starts: the kernel kills the child (SIGKILL) when the
    test process dies, even by kill -9, so an interrupted run leaves no crawl behind. (Runs in the
    forked child before exec; the setting survives exec.)"""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def stop(proc: subprocess.Popen[bytes], sig: int | None = signal.SIGTERM, timeout: float = 30) -> int:
    """Send `sig` (None: none, just wait) and wait for the exit code; kill it after `timeout`."""
    if sig is not None and proc.poll() is None:
        proc.send_signal(sig)
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
        raise


def _env(breakpoint: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PROJECT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    env.pop("BLOGS_TEST_BREAKPOINT", None)
    if breakpoint is not None:
        env["PYTHONPATH"] = str(BREAKPOINTS) + os.pathsep + env["PYTHONPATH"]
        env["BLOGS_TEST_BREAKPOINT"] = breakpoint
    return env


def rows(db: Path | str, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """The rows of `sql` (SQLite's dialect) on the store at `db`: a file, or a postgresql:// URL."""
    if is_database_url(str(db)):
        try:
            with psycopg.connect(str(db), autocommit=True, cursor_factory=psycopg.ClientCursor) as pg:
                return [tuple(r) for r in pg.execute(to_postgres(sql), list(params)).fetchall()]
        except psycopg.errors.UndefinedTable:
            return []  # the crawl has not created the schema yet
    db = Path(db)
    if not db.exists():
        return []
    conn = sqlite3.connect(db, timeout=30)
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError:
        return []  # the crawl has not created the schema yet
    finally:
        conn.close()


def max_run_id(db: Path | str) -> int:
    found = rows(db, "SELECT MAX(id) FROM runs")
    return int(found[0][0] or 0) if found else 0


def run_stats(db: Path | str, after: int = 0) -> dict[str, Any]:
    """Stats of the newest finished run with an id above `after` ({} if none)."""
    found = rows(db, "SELECT stats FROM runs WHERE stats IS NOT NULL AND id > ? ORDER BY id DESC LIMIT 1", [after])
    return json.loads(found[0][0]) if found else {}


def wait_for(predicate: Any, timeout: float, interval: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())
