"""A feeds file of dead hosts: worked through in bounded time, and what was learned saved as it goes.

    python bench/dead_feeds.py [--feeds 5000] [--robots-timeout 10] [--concurrency 16]

Each feed is on a host of its own (127.0.x.y, loopback addresses) where a server accepts the
connection and never answers: the worst dead host, one that costs a full timeout (a refused port
or an unknown name fails at once). One `scrapy crawl blogs` over the whole file, with the project's
settings apart from BLOGS_ALLOW_PRIVATE_ADDRESSES (loopback) and the two options. Printed: the
wall time, when the first failure was saved in the store and how many feeds were saved failed
after a quarter, half and all of the run, requests per dead host, and the bound the crawl keeps:
a host's robots.txt request waits BLOGS_ROBOTS_TIMEOUT, then its requests fail at once
(crawler.robots), and each host in flight takes two of CONCURRENT_REQUESTS' slots (the feed
request waits in its slot for the robots.txt one), so the run takes about
feeds x robots timeout / (concurrency / 2). With `--again`, a second run follows at once: it
polls only the feeds whose back-off (BLOGS_BACKOFF_BASE, 150-300 s after a first failure) has
passed, so after a long first run most of them again.

Measured 2026-11-27 on the 2-core machine (load average 9-20, other work running), 5,000 dead
feeds, BLOGS_ROBOTS_TIMEOUT 10 s, `--concurrency 64`: 1,586 s (the bound: 1,562 s), the first
failure saved after 18 s, 1,219 / 2,471 / 5,000 saved at a quarter / half / the end, one
connection per dead host. Before crawler.robots, 300 such feeds took 535 s with 5 s timeouts
(four attempts per host), the first failure saved after 7 minutes: 5,000 with the default 30 s
timeouts would take about 15 hours.
"""

from __future__ import annotations

import argparse
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class SilentServer:
    """Accepts every connection on 0.0.0.0:port and never answers (the sockets are held open)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("0.0.0.0", 0))
        self.sock.listen(4096)
        self.port = self.sock.getsockname()[1]
        self.held: list[socket.socket] = []
        self.accepted = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            self.held.append(conn)

    def close(self) -> None:
        self.sock.close()
        for conn in self.held:
            conn.close()


def feed_urls(port: int, count: int) -> list[str]:
    """One feed per loopback host: 127.0.1.2, 127.0.1.3, ..., 250 hosts per third octet."""
    return [f"http://127.0.{1 + i // 250}.{2 + i % 250}:{port}/feed/" for i in range(count)]


def failed_feeds(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return conn.execute("SELECT COUNT(*) FROM feeds WHERE failures > 0").fetchone()[0]
    except sqlite3.Error:  # not created yet, or busy
        return 0


def crawl(feeds: Path, db: Path, args: argparse.Namespace) -> tuple[float, list[tuple[float, int]], str]:
    """One crawl: wall seconds, (seconds, feeds saved failed) sampled every 2 s, its last log line."""
    cmd = [sys.executable, "-m", "scrapy", "crawl", "blogs", "-a", f"feeds={feeds}"]
    for key, value in {
        "BLOGS_DB": str(db),
        "BLOGS_ALLOW_PRIVATE_ADDRESSES": "1",
        "BLOGS_ROBOTS_TIMEOUT": str(args.robots_timeout),
        "CONCURRENT_REQUESTS": str(args.concurrency),
        "LOG_LEVEL": "INFO",
    }.items():
        cmd += ["-s", f"{key}={value}"]
    log = db.with_suffix(".log")
    started = time.monotonic()
    samples: list[tuple[float, int]] = []
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        while proc.poll() is None:
            time.sleep(2)
            samples.append((time.monotonic() - started, failed_feeds(db)))
    elapsed = time.monotonic() - started
    lines = [line for line in log.read_text(errors="replace").splitlines() if "Run summary" in line]
    return elapsed, samples, (lines[-1].split("Run summary: ", 1)[-1] if lines else "(no summary)")


def saved_at(samples: list[tuple[float, int]], share: float, total: float) -> int:
    return max([n for t, n in samples if t <= share * total] or [0])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--feeds", type=int, default=5000)
    ap.add_argument("--robots-timeout", type=float, default=10.0)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--again", action="store_true", help="a second run at once, on the same store")
    args = ap.parse_args()
    server = SilentServer()
    try:
        with tempfile.TemporaryDirectory(prefix="dead-feeds-") as tmp:
            feeds = Path(tmp) / "feeds.txt"
            feeds.write_text("\n".join(feed_urls(server.port, args.feeds)) + "\n", encoding="utf-8")
            db = Path(tmp) / "blogs.db"
            elapsed, samples, summary = crawl(feeds, db, args)
            first = next((t for t, n in samples if n), None)
            bound = args.feeds * args.robots_timeout / (args.concurrency / 2)
            print(f"{args.feeds} dead feeds, robots.txt timeout {args.robots_timeout:g} s, {args.concurrency} requests")
            print(f"run 1: {elapsed:.0f} s (bound feeds x timeout / (concurrency / 2) = {bound:.0f} s)")
            print(f"  first failure saved after {first:.0f} s" if first is not None else "  no failure saved")
            print(
                "  feeds saved failed at 1/4, 1/2 and the end of the run: "
                f"{saved_at(samples, 0.25, elapsed)}, {saved_at(samples, 0.5, elapsed)}, {failed_feeds(db)}"
            )
            print(f"  connections to dead hosts: {server.accepted} ({server.accepted / args.feeds:.2f} per host)")
            print(f"  summary: {summary}")
            if args.again:
                again, _samples, summary2 = crawl(feeds, db, args)
                print(f"run 2 at once: {again:.0f} s; summary: {summary2}")
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
