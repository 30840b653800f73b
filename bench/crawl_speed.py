"""Crawl speed with the pipelines (store + batches + extraction) as a ratio to a plain Scrapy spider.

    python bench/crawl_speed.py [--blogs 6] [--articles 500] [--modes off,process,thread] [--workers 1]
                                [--unthrottled] [--backends sqlite,postgresql] [--fresh]

One run, one local farm (127.0.0.1 only): generated blogs with every article and comment
already published. First a plain spider (`PlainSpider` below: the project's settings and feed
parser, no item pipelines, nothing stored) fetches the feeds and every article page; then
the same spider reads also the comment feeds the crawl reads at first fetch; then `scrapy crawl
blogs` fetches the same pages into a fresh store, once per extraction mode (off: store only) and
backend, and waits for every extraction job before it exits. Prints per run the article pages,
the crawl's elapsed time (Scrapy's stats), pages per second and their ratio to each plain spider,
the HTTP requests made, requests per second and their ratio, wall time, and peak memory
(the crawler's max RSS from Scrapy's memusage stats; last, the largest process including
extraction workers); per blogs run, the extractions, their work time and the comment feeds read
at first fetch.

Measured 2026-11-26 on the 2-core development machine (quiet), 6 blogs x 150 articles = 900 pages,
`python bench/crawl_speed.py --modes off,process --articles 150` (polite: the project's settings).
`same` is the ratio to the plain spider that also reads the comment feeds the crawl reads at first
fetch (`plain + comment feeds`: the same requests), i.e. what the crawl's own bookkeeping costs:

    run                             pages  crawl s  pages/s  ratio   same  requests  req/s  ratio
    plain spider                      900     28.1     32.0   1.00   1.64       912   32.4   1.00
    plain + comment feeds             900     46.0     19.6   0.61   1.00      1661   36.1   1.11
    blogs, off                        900     46.9     19.2   0.60   0.98      1661   35.4   1.09
    blogs, process                    900     46.7     19.3   0.60   0.99      1661   35.6   1.10

Storing, batching and extraction cost the crawl 1-2 % (same 0.98-0.99, target >= 0.9). The pages
ratio (0.60) is what reading the articles' comment feeds at first fetch costs: 749 of 900
articles show `slash:comments` > 0 in their site feed, so their comment feed is read as
extraction evidence (crawler/articlefetching.py), and every blog of the farm is on 127.0.0.1,
one download slot, so those requests queue behind the same AutoThrottle delay as the pages.

The crawl's own case, `--fresh` (each article fetched right after it is published, before any
comment: no comment feed is read at first fetch), measured 2026-11-26, quiet machine,
`python bench/crawl_speed.py --fresh --modes off,process --articles 150`:

    run                             pages  crawl s  pages/s  ratio   same  requests  req/s  ratio
    plain spider                      900     29.7     30.3   1.00   0.97       912   30.7   1.00
    blogs, off                        900     28.9     31.1   1.03   0.99       912   31.5   1.03
    blogs, process                    900     28.8     31.3   1.03   1.00       912   31.7   1.03

The pages ratio is then the same-work ratio: the target (>= 0.9) holds on pages too.

Earlier the same day, 6 blogs x 500 articles = 3000 pages, `--modes off,process`, machine shared:

    python bench/crawl_speed.py --modes off,process   (polite: the project's own settings)
    run                             pages  crawl s  pages/s  ratio  requests  req/s  ratio
    plain spider                     3000     81.6     36.8   1.00      3012   36.9   1.00
    blogs, BLOGS_EXTRACT_MODE=off          3000    145.8     20.6   0.56      5487   37.6   1.02
    blogs, BLOGS_EXTRACT_MODE=process      3000    155.3     19.3   0.53      5487   35.3   0.96

    python bench/crawl_speed.py --modes off,process --unthrottled   (16 per host, no AutoThrottle)
    plain spider                     3000     17.8    168.1   1.00      3012  168.8   1.00
    blogs, BLOGS_EXTRACT_MODE=off          3000     25.5    117.5   0.70      5487  215.0   1.27
    blogs, BLOGS_EXTRACT_MODE=process      3000     51.6     58.2   0.35      5487  106.4   0.63

The same store on PostgreSQL (`--backends sqlite,postgresql`: a private server, farm.postgres),
measured 2026-11-26, 6 blogs x 150 articles = 900 pages, polite:

    run                             pages  crawl s  pages/s  ratio  requests  req/s  ratio
    plain spider                      900     30.3     29.7   1.00       912   30.1   1.00
    blogs, off, sqlite                900     47.3     19.0   0.64      1661   35.1   1.17
    blogs, off, postgresql            900     47.4     19.0   0.64      1661   35.1   1.17
    blogs, process, sqlite            900     48.7     18.5   0.62      1661   34.1   1.13
    blogs, process, postgresql        900     50.4     17.9   0.60      1661   33.0   1.10

PostgreSQL crawls at 0.97 x SQLite's pages/s with extraction (1.00 storing only).

Polite, the crawl makes requests as fast as the plain spider: every blog of the farm is on
127.0.0.1, one download slot, so both are bound by AutoThrottle's delay on it (py-spy: the
reactor is idle three quarters of the time). The pages ratio is lower because the crawl makes
5487 requests for 3000 pages: 2475 articles whose site feed shows `slash:comments` > 0 have
their comment feed read at first fetch (extraction evidence, crawler/articlefetching.py). The store
writes run on their own thread (pipelines/persist.py); before that change, on the same day and
machine, the polite ratios were off 0.54 (requests 0.98) and process 0.47 (requests 0.86), and
unthrottled the blogs runs took 27.8 s (off) and 58.4 s (process). Unthrottled on 2 cores the
crawl is CPU-bound and extraction competes with it for the CPU.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import scrapy

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from crawler.feedreader import read_feed  # noqa: E402
from farm.postgres import PostgresServer  # noqa: E402


class PlainSpider(scrapy.Spider):
    """Fetches the feeds listed in `feeds` (one URL per line) and every article they list; stores nothing.

    comment_feeds=1: also the comment feed of every entry whose slash:comments is above 0, as the
    blogs spider reads it at first fetch (crawler/articlefetching.py): the same requests as the
    crawl, so that the ratio measures the crawl's own bookkeeping, not the evidence it fetches.
    """

    name = "plain"
    # The project's settings otherwise: the same politeness as the blogs spider.
    custom_settings = {"ITEM_PIPELINES": {}}  # noqa: RUF012 (Scrapy reads it from the class)

    def __init__(self, feeds: str = "", comment_feeds: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.feed_urls = [line.split()[0] for line in Path(feeds).read_text().splitlines() if line.strip()]
        self.comment_feeds = comment_feeds == "1"

    async def start(self) -> AsyncIterator[Any]:
        for url in self.feed_urls:
            yield scrapy.Request(url, callback=self.parse_feed_page, priority=50)

    def parse_feed_page(self, response: scrapy.http.Response) -> Iterator[scrapy.Request]:
        parsed = read_feed(response.body, response.url, max_entries=100000)
        for entry in parsed.entries:
            if entry.link:
                yield scrapy.Request(entry.link, callback=self.parse_article, priority=100, dont_filter=True)
            if self.comment_feeds and entry.comment_rss and (entry.slash_comments or 0) > 0:
                yield scrapy.Request(entry.comment_rss, callback=self.parse_comment_feed, priority=110)

    def parse_article(self, response: scrapy.http.Response) -> None:
        self.crawler.stats.inc_value("plain/pages")  # type: ignore[union-attr]

    def parse_comment_feed(self, response: scrapy.http.Response) -> None:
        read_feed(response.body, response.url)  # read as the crawl reads it


_COMMON = {
    "BLOGS_CONTACT": "mailto:bench@example.invalid",
    "LOG_LEVEL": "INFO",
    "USER_AGENT": "blog-harvester-bench",
    "TELNETCONSOLE_ENABLED": "False",
    "BLOGS_ALLOW_PRIVATE_ADDRESSES": "True",  # the farm is on 127.0.0.1
}


def _stat(stderr: str, key: str) -> float | None:
    found = re.findall(rf"'{re.escape(key)}': ([0-9.]+)", stderr)
    return float(found[-1]) if found else None


def _run(cmd: list[str], timeout: float) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    started = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=env)
    wall = time.monotonic() - started
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f"{cmd[3]} exited with {proc.returncode}")
    return wall, proc.stderr


def _settings(values: dict[str, str]) -> list[str]:
    out: list[str] = []
    for key, value in values.items():
        out += ["-s", f"{key}={value}"]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--blogs", type=int, default=6, help="generated blogs (default 6)")
    p.add_argument("--articles", type=int, default=500, help="articles per blog (default 500; feeds list at most 500)")
    p.add_argument(
        "--modes",
        default="off,process,thread",
        help="BLOGS_EXTRACT_MODE values to measure (default off,process,thread; off: store only, no extraction;"
        " render: process with BLOGS_RENDER_COMMENTS on)",
    )
    p.add_argument("--workers", type=int, default=1, help="BLOGS_EXTRACT_WORKERS (default 1)")
    p.add_argument(
        "--backends",
        default="sqlite",
        help="stores to crawl into: sqlite, postgresql (a private server, farm.postgres) or both (default sqlite)",
    )
    p.add_argument("--timeout", type=float, default=900, help="per crawl, seconds")
    p.add_argument(
        "--unthrottled",
        action="store_true",
        help="no AutoThrottle, 16 requests per host: the crawl is CPU-bound, so extraction competes with it",
    )
    p.add_argument(
        "--fresh",
        action="store_true",
        help="articles published a second apart just before the run, no comments yet: the crawl's own case"
        " (each article fetched right after it is published), so no comment feed is read at first fetch",
    )
    args = p.parse_args(argv)
    common = dict(_COMMON)
    if args.unthrottled:
        common.update(AUTOTHROTTLE_ENABLED="False", CONCURRENT_REQUESTS_PER_DOMAIN="16", DOWNLOAD_DELAY="0")

    from farm import BlogFarm

    # (run, article pages, HTTP requests, crawl s, wall s, max RSS)
    results: list[tuple[str, int, int, float, float, float | None]] = []
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="crawl-speed-"))
        farm = stack.enter_context(BlogFarm())
        pg = stack.enter_context(PostgresServer()) if "postgresql" in backends else None
        # Backfill (default): every article and its comments published long ago. Fresh: the last
        # articles of a feed watched by the crawl, published a second apart; comments come later.
        interval = 1.0 if args.fresh else 3600.0
        backdate = args.articles * interval + (1.0 if args.fresh else 2 * 86400)
        for i in range(1, args.blogs + 1):
            farm.add_generated_blog(
                f"gen{i}", articles=args.articles, start=farm.clock.now() - backdate, interval=interval, seed=i
            )
        feeds = Path(tmp) / "feeds.txt"
        feeds.write_text("".join(line + "\n" for line in farm.feed_lines()), encoding="utf-8")
        total = args.blogs * args.articles
        mode = ("unthrottled" if args.unthrottled else "polite (project settings)") + (
            "; fresh articles, no comments yet" if args.fresh else "; backfill, comments published"
        )
        print(f"farm: {args.blogs} blogs x {args.articles} articles = {total} pages; {mode}; cpus {os.cpu_count()}")

        plain = [sys.executable, "-m", "scrapy", "runspider", str(Path(__file__).resolve()), "-a", f"feeds={feeds}"]
        for label, extra in (("plain spider", []), ("plain + comment feeds", ["-a", "comment_feeds=1"])):
            wall, err = _run(plain + extra + _settings(common), args.timeout)
            pages = int(_stat(err, "plain/pages") or 0)
            elapsed = _stat(err, "elapsed_time_seconds") or wall
            requests = int(_stat(err, "downloader/request_count") or 0)
            results.append((label, pages, requests, elapsed, wall, _stat(err, "memusage/max")))
        runs = [(m.strip(), b) for m in args.modes.split(",") if m.strip() for b in backends]
        for mode, backend in runs:
            db = pg.new_database() if pg is not None and backend == "postgresql" else str(Path(tmp) / f"{mode}.db")
            settings = {**common, "BLOGS_DB": db, "BLOGS_EXTRACT_MODE": mode}
            settings["BLOGS_EXTRACT_WORKERS"] = str(args.workers)
            if mode == "off":  # the crawler and the persist pipeline alone
                settings.update(BLOGS_EXTRACT_MODE="process", BLOGS_EXTRACT_ENABLED="False")
            if mode == "render":  # process extraction, and the comment render pipeline on (issue 31)
                settings.update(BLOGS_EXTRACT_MODE="process", BLOGS_RENDER_COMMENTS="60")
            cmd = [sys.executable, "-m", "scrapy", "crawl", "blogs", "-a", f"feeds={feeds}", *_settings(settings)]
            wall, err = _run(cmd, args.timeout)
            pages = int(_stat(err, "blogs/pages_stored") or 0)
            extracted = int(
                (_stat(err, "blogs/extract/batch_pages") or 0) + (_stat(err, "blogs/extract/profile_pages") or 0)
            )
            busy = (_stat(err, "blogs/extract/milliseconds") or 0) / 1000
            feeds_first = int(_stat(err, "blogs/comment_feeds_first") or 0)
            print(
                f"  {mode} {backend}: {extracted} extractions, {busy:.1f} s of extraction work;"
                f" {feeds_first} comment feeds read at first fetch"
            )
            results.append(
                (
                    f"blogs, {mode}" + (f", {backend}" if len(backends) > 1 else ""),
                    pages,
                    int(_stat(err, "downloader/request_count") or 0),
                    _stat(err, "elapsed_time_seconds") or wall,
                    wall,
                    _stat(err, "memusage/max"),
                )
            )
    peak_children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    base = results[0][1] / results[0][3] if results[0][3] else 0.0
    same = results[1][1] / results[1][3] if results[1][3] else 0.0  # the plain spider doing the same fetches
    base_req = results[0][2] / results[0][3] if results[0][3] else 0.0
    print(
        f"{'run':30} {'pages':>6} {'crawl s':>8} {'pages/s':>8} {'ratio':>6} {'same':>6}"
        f" {'requests':>9} {'req/s':>6} {'ratio':>6} {'wall s':>7} {'peak RSS':>9}"
    )
    for name, pages, requests, elapsed, wall, mem in results:
        rate = pages / elapsed if elapsed else 0.0
        req_rate = requests / elapsed if elapsed else 0.0
        rss = f"{mem / 2**20:.0f} MB" if mem else "-"
        print(
            f"{name:30} {pages:6d} {elapsed:8.1f} {rate:8.1f} {rate / base if base else 0:6.2f}"
            f" {rate / same if same else 0:6.2f} {requests:9d} {req_rate:6.1f}"
            f" {req_rate / base_req if base_req else 0:6.2f} {wall:7.1f} {rss:>9}"
        )
    print(f"largest process of all runs (extraction workers included): {peak_children:.0f} MB")
    ratios = {n: round((p / e) / base, 3) for n, p, _r, e, _w, _m in results[2:] if e and base}
    same_work = {n: round((p / e) / same, 3) for n, p, _r, e, _w, _m in results[2:] if e and same}
    request_ratios = {n: round((r / e) / base_req, 3) for n, _p, r, e, _w, _m in results[2:] if e and base_req}
    print(json.dumps({"ratios": ratios, "same_work_ratios": same_work, "request_ratios": request_ratios}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
