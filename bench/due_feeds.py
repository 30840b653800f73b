"""The schedule at scale: one poll cycle's due-feeds query on a PostgreSQL store of many feeds.

    python bench/due_feeds.py [--feeds 20000] [--due 0.01] [--cycles 20] [--check]

A private PostgreSQL server (farm.postgres), a store with `--feeds` feeds (one site each, 2 articles
each, every article fetched), a share `--due` of the feeds due now. A crawler worker asks
`due_sites(feeds, now)` about once a second (crawler.leasing): printed are its median and p95
time per call over `--cycles` calls, the rows it returns, and whether PostgreSQL's plan reaches the
feeds and articles through their indexes (no sequential scan of either table). Issue 32 asks
for 100,000 feeds (`--feeds 100000`, about 3-5 minutes to build on 2 cores); the default is small.
`--check` exits 1 when the plan scans a table or a call takes more than 0.5 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from farm.postgres import PostgresServer  # noqa: E402
from store import open_store  # noqa: E402
from store.clock import to_iso  # noqa: E402
from store.pgsql import to_postgres  # noqa: E402

NOW = 1_800_000_000.0
LIMIT_S = 0.5


def build(url: str, feeds: int, due: float) -> list[str]:
    """The store's feeds and articles, written with COPY-sized statements (not the crawl's path:
    what is measured is the query, not the build). Returns the feed URLs."""
    urls = [f"http://b{i}.test/feed/" for i in range(feeds)]
    due_every = max(1, round(1 / due)) if due > 0 else feeds + 1
    with open_store(url):
        pass  # the schema
    with psycopg.connect(url, autocommit=True) as conn, conn.cursor() as cur:
        with cur.copy("COPY sites (name, added_at) FROM STDIN") as copy:
            for i in range(feeds):
                copy.write_row((f"b{i}", to_iso(NOW - 86400)))
        with cur.copy("COPY feeds (url, site, added_at, next_check, polls) FROM STDIN") as copy:
            for i, feed in enumerate(urls):
                later = NOW - 60 if i % due_every == 0 else NOW + 600 + i % 3600
                copy.write_row((feed, f"b{i}", to_iso(NOW - 86400), to_iso(later), 1))
        with cur.copy(
            "COPY articles (url, site, feed, entry_id, discovered_at, state, next_fetch_at, failures) FROM STDIN"
        ) as copy:
            for i, feed in enumerate(urls):
                for n in range(2):
                    art = f"http://b{i}.test/{n}/"
                    copy.write_row((art, f"b{i}", feed, art, to_iso(NOW - 3600), "active", to_iso(NOW + 86400), 0))
        conn.execute("ANALYZE")
    return urls


def plan(url: str) -> str:
    """PostgreSQL's plan of due_sites' statement (store.crawlstate), as text."""
    stamp = to_iso(NOW)
    sql = to_postgres(
        "SELECT url, site FROM feeds WHERE next_check IS NULL AND muted_at IS NULL"
        " UNION SELECT url, site FROM feeds WHERE next_check <= ? AND muted_at IS NULL"
        " UNION SELECT feed, site FROM articles WHERE state = 'pending' AND failures = 0"
        " UNION SELECT feed, site FROM articles WHERE state IN ('pending', 'active') AND next_fetch_at <= ?"
    )
    with psycopg.connect(url, autocommit=True) as conn:
        cur = psycopg.ClientCursor(conn)
        return "\n".join(r[0] for r in cur.execute("EXPLAIN " + sql, [stamp, stamp]).fetchall())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--feeds", type=int, default=20000)
    parser.add_argument("--due", type=float, default=0.01, help="share of the feeds due now")
    parser.add_argument("--cycles", type=int, default=20)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    with PostgresServer() as pg:
        url = pg.new_database()
        started = time.perf_counter()
        feeds = build(url, args.feeds, args.due)
        print(f"store: {args.feeds} feeds, {2 * args.feeds} articles, built in {time.perf_counter() - started:.1f} s")
        shown = plan(url)
        scans = [line.strip() for line in shown.splitlines() if "Seq Scan" in line]
        with open_store(url) as store:
            times = []
            found: set[str] = set()
            for _ in range(args.cycles):
                t = time.perf_counter()
                found = store.due_sites(feeds, NOW)
                times.append(time.perf_counter() - t)
    times.sort()
    p50, p95 = statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))]
    print(shown)
    print(
        f"due_sites on {args.feeds} feeds: {len(found)} sites due; per poll cycle median {p50 * 1000:.1f} ms,"
        f" p95 {p95 * 1000:.1f} ms over {args.cycles} calls; sequential scans: {scans or 'none'}"
    )
    missed = bool(scans) or p95 > LIMIT_S
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
