"""`scrapy reextract --dask ADDRESS` (issue 33): an address that cannot be a scheduler's is refused
in one line before anything starts, and a port where something else listens times out in one line.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env

from jobs.reextract_dask import check_address
from store.sqlite import Store


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("banana", "(no host:port)"),
        ("tcp://", "(no host:port)"),
        (
            "http://127.0.0.1:8787",
            "(http:// is the dashboard's; the scheduler listens on tcp://, port 8786 by default)",
        ),
        ("https://dask.example.org:8787/status", "(https:// is the dashboard's"),
        ("tcp://host:99999", "(port '99999' is not a number from 1 to 65535)"),
        ("tcp://host:port", "(port 'port' is not a number from 1 to 65535)"),
        ("inproc://x", "(inproc:// is not a scheme of a Dask scheduler: tcp:// or tls://)"),
        ("local:0", "(N is 0)"),
    ],
)
def test_addresses_that_cannot_be_a_schedulers_say_why(address: str, why: str) -> None:
    with pytest.raises(ValueError) as refused:
        check_address(address)
    message = str(refused.value)
    assert message.startswith(f"{address!r} is neither local:N (N >= 1) nor a scheduler address") and why in message


def test_scheduler_addresses_are_kept_as_given() -> None:
    for address in ("tcp://10.0.0.5:8786", "tls://sched.example.org:8786", "sched:8786", "[::1]:8786", "local:2"):
        assert check_address(address) == address


@pytest.fixture
def web_server() -> Iterator[int]:
    """A web server on 127.0.0.1 (what a pasted dashboard port answers with): accepts, never speaks Dask."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"<html>dashboard</html>")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def reextract(db: Path, address: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "scrapy", "reextract", "--dask", address, "-s", f"BLOGS_DB={db}"]
    return subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, timeout=180, env=_env())


def test_a_bad_address_is_a_usage_error_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "blogs.db"
    Store(db).close()
    done = reextract(db, "http://127.0.0.1:8787")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "http:// is the dashboard's" in done.stderr.strip().splitlines()[-1]


@pytest.mark.slow
def test_a_port_that_is_not_a_scheduler_times_out_in_one_line(tmp_path: Path, web_server: int) -> None:
    db = tmp_path / "blogs.db"
    Store(db).close()
    done = reextract(db, f"tcp://127.0.0.1:{web_server}")
    assert done.returncode == 1, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.stderr.strip().splitlines() == [
        f"scrapy reextract: error: Dask at tcp://127.0.0.1:{web_server}: nothing answered as a Dask scheduler"
        " within 15 s (is it the scheduler's port?)"
    ]
    # The lock was given back: a re-extraction in this process runs at once.
    here = subprocess.run(
        [sys.executable, "-m", "scrapy", "reextract", "-s", f"BLOGS_DB={db}"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(),
    )
    assert here.returncode == 0 and "re-extracted 0 pages" in here.stdout, here.stderr[-3000:]
