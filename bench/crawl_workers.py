"""Crawler workers sharing one PostgreSQL store: pages/s with 1, 2 and 4 workers, nothing lost or doubled.

    python bench/crawl_workers.py [--blogs 1000] [--articles 5] [--workers 1,2,4] [--kill] [--check]
        [--store postgresql|sqlite] [--logs DIR]

One local farm of generated blogs, each on a loopback address of its own (127.0.1.2, ...: real
blogs have hosts of their own, and Scrapy keeps its politeness per host) whose robots.txt asks for
a Crawl-delay (`--crawl-delay`, 1 s), and one private PostgreSQL server (farm.postgres). For
each worker count, a new database and that many `scrapy crawl blogs` processes started together
(cron runs, the project's polite settings: AutoThrottle, 2 requests per site), each on the whole
feeds file; they divide the sites with leases (crawler.leasing). A run ends when every worker
has exited. Printed per run: article pages stored, wall seconds from start to the last exit,
pages/s, the ratio to one worker, CPU seconds of all workers (their extraction processes
included) and CPU use in cores, the cores busy on the whole machine (PostgreSQL, the farm and
anything else running included), and the checks: pages lost (published but not stored), article
pages fetched more than once, pages stored twice, articles not in a terminal state.
Why 1000 blogs: a worker holds 32 sites at a time (BLOGS_LEASE_SITES' default), and a site's
requests come one Crawl-delay apart, so a site takes the same time (about 9-10 s for 5 articles)
with any number of workers. With 200 blogs one worker crawls them in 200 / 32 = 6.25 rounds of
sites and four in 200 / 128 = 1.6, that is 2, the last half empty, plus a start and an end that
every run pays: the ratio cannot pass about 3 whatever the crawler does. The more blogs, the
closer the ratio comes to what the workers sustain (a real farm has thousands).
`--kill` adds a run with the largest worker count where one worker is killed (SIGKILL) when a
third of the pages are stored: the others take its sites over and must finish with the same
checks. Comments are checked against the farm's pages (`comment_tally`, which bench/distributed.py
uses through `run_bench` too, bench/comment_tally.py): comments stored = comments shown, each
comment in one row, no row that is not a comment, every author right, where "shown" is what the farm
served when the crawl fetched the page (its clock runs: comments that came later are not missing);
every flagged comment or row is printed, one line each (kind, article URL, stored text and author
beside the farm's, the extraction method that wrote the row). `--store sqlite`: an SQLite file per
run instead of PostgreSQL (in `--logs DIR` when given, kept for a look afterwards), for one worker.
`--check` exits 1 when 4 workers reach less than 3 x one worker's pages/s (on a machine that was
CPU-bound during that run: a per-core efficiency under 0.75) or any check fails; the last line
states every figure, with the machine's busy share per run.
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.comment_tally import CommentTally, comment_tally, explain, served_at  # noqa: E402
from farm import BlogFarm, FarmSite  # noqa: E402
from farm.generated import GeneratedArticle  # noqa: E402
from farm.log import normalize_path  # noqa: E402
from farm.postgres import PostgresServer  # noqa: E402
from store.urls import normalize_url  # noqa: E402

TARGET_4 = 3.0  # 4 workers / 1 worker, pages/s
TARGET_EFFICIENCY = 0.75  # per-core efficiency of 4 workers, the target instead when that run was CPU-bound
CPU_BOUND_SHARE = 0.9  # of the machine's cores busy: the run was CPU-bound
SETTINGS = {
    "BLOGS_CONTACT": "mailto:bench@example.invalid",
    "LOG_LEVEL": "INFO",
    "TELNETCONSOLE_ENABLED": "False",
    "BLOGS_REFETCH_AFTER": "7d",  # no re-fetch falls due during a run
    "BLOGS_ALLOW_PRIVATE_ADDRESSES": "True",  # the farm is on 127.0.0.1
}


@dataclass
class Run:
    label: str
    workers: int
    pages: int
    seconds: float
    cpu: float  # CPU seconds of the worker processes and their children
    machine: float  # cores busy on the whole machine during the run (PostgreSQL and the farm too)
    lost: int
    fetched_twice: int
    stored_twice: int
    not_terminal: int
    posts_wrong: int  # articles stored without exactly one post (posts are keyed by URL: none twice)
    next_run: int  # after a kill: pages left to the next (cron) run, which fetched them
    comments: CommentTally  # comments stored against those the farm's pages showed
    without_post: list[str]  # the articles counted in posts_wrong, by URL
    cpu_pg: float  # CPU seconds of the PostgreSQL server's processes during the run
    cpu_farm: float  # CPU seconds of this process (the farm's servers run in its threads)
    waits: Counter[str]  # pg_stat_activity samples of the store's sessions: wait event (or "CPU") -> count

    @property
    def comments_twice(self) -> int:
        return self.comments.twice

    @property
    def cpu_bound(self) -> bool:
        """The machine's cores were nearly all busy: adding workers could not have helped."""
        return self.machine >= CPU_BOUND_SHARE * (os.cpu_count() or 1)

    @property
    def rate(self) -> float:
        return self.pages / self.seconds if self.seconds else 0.0

    @property
    def ok(self) -> bool:
        """Nothing lost, nothing stored twice, every article done; nothing fetched twice unless a worker
        was killed (its fetches in flight were never stored, so another worker fetches them again)."""
        killed = "killed" in self.label
        return not (
            self.lost
            or self.stored_twice
            or self.not_terminal
            or self.posts_wrong
            or not self.comments.ok
            or (self.fetched_twice and not killed)
        )


def store_count(url: str, sql: str) -> int:
    """One number from the store (0 before the first worker has created the tables)."""
    try:
        rows = query_rows(url, sql)
    except (psycopg.errors.UndefinedTable, sqlite3.OperationalError):
        return 0
    return int(str(rows[0][0] or 0)) if rows else 0


def crawl(
    farm: BlogFarm,
    blogs: list[FarmSite],
    pg: PostgresServer | None,
    feeds: Path,
    workers: int,
    *,
    kill_at: float | None,
    label: str,
    log_dir: Path,
) -> Run:
    """Start `workers` crawls together on a new database; kill the first when `kill_at` of the pages are stored."""
    # A new database per run: on the private PostgreSQL server, or an SQLite file in `log_dir`
    url = pg.new_database() if pg else str(log_dir / f"{label.replace(' ', '-').replace(',', '')}.db")
    farm.clear_log()
    published = [a for blog in blogs for a in blog.articles if a.published <= farm.clock.now()]
    env = worker_env()
    cmd = worker_command(feeds, url)
    started = time.monotonic()
    busy_before = machine_busy()
    procs = []
    for i in range(workers):
        log = open(log_dir / f"{label}-{i}.log", "wb")  # noqa: SIM115 -- the child writes it
        procs.append(subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log, env=env))
        log.close()
    killed = kill_at is None
    cpu = 0.0
    pg_before, farm_before = tree_cpu(pg.process.pid if pg and pg.process else 0), _own_cpu()
    waits: Counter[str] = Counter()
    pending = {p.pid: p for p in procs}
    while pending:
        if not killed and store_count(url, "SELECT COUNT(*) FROM snapshots") >= (kill_at or 0) * len(published):
            if procs[0].pid in pending:  # a worker that already finished cannot be killed
                os.kill(procs[0].pid, signal.SIGKILL)
            killed = True
        waits.update(wait_events(url))
        for pid in list(pending):
            done, _status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                cpu += usage.ru_utime + usage.ru_stime
                del pending[pid]
        time.sleep(0.2)
    next_run = 0
    left = len(published) - store_count(url, "SELECT COUNT(DISTINCT article) FROM snapshots")
    if kill_at is not None and left:
        # The others had finished their own sites before the dead worker's were free: as with
        # cron, the next run takes them over (its leases are free at once: its process is gone).
        log = open(log_dir / f"{label}-next.log", "wb")  # noqa: SIM115 -- the child writes it
        follow = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log, env=env, check=False)
        log.close()
        next_run = store_count(url, "SELECT COUNT(DISTINCT article) FROM snapshots") - (len(published) - left)
        print(f"    the next run (exit {follow.returncode}) fetched the {next_run} pages left", flush=True)
    seconds = time.monotonic() - started
    machine = (machine_busy() - busy_before) / seconds if seconds else 0.0
    cpu_pg = tree_cpu(pg.process.pid if pg and pg.process else 0) - pg_before
    cpu_farm = _own_cpu() - farm_before
    without_post = sorted(
        str(r[0])
        for r in query_rows(
            url, "SELECT DISTINCT s.article FROM snapshots s LEFT JOIN posts p ON p.url = s.article WHERE p.url IS NULL"
        )
    )
    articles = {r[0] for r in query_rows(url, "SELECT DISTINCT article FROM snapshots")}
    fetches = Counter((r.site, r.path_only) for r in farm.requests)  # one pass over the farm's log
    twice = [a.url for a in published if fetches[farm.site_for(a.url).name, normalize_path(a.url)] > 1]
    for page in twice[:3]:  # what happened to them, for the reader of a failed check
        print(f"    fetched twice: {page}: {[(r.status, round(r.wall_time, 2)) for r in farm.requests_for(page)]}")
    fetched_twice = len(twice)
    return Run(
        label=label,
        workers=workers,
        pages=len(articles),
        seconds=seconds,
        cpu=cpu,
        machine=machine,
        lost=sum(1 for a in published if a.url not in articles),
        fetched_twice=fetched_twice,
        stored_twice=store_count(url, "SELECT COUNT(*) - COUNT(DISTINCT article) FROM snapshots"),
        not_terminal=store_count(url, "SELECT COUNT(*) FROM articles WHERE state NOT IN ('active', 'done')"),
        posts_wrong=len(without_post),
        next_run=next_run,
        comments=comment_tally(_comment_rows(url), published, _served_at(farm, published)),
        without_post=without_post,
        cpu_pg=cpu_pg,
        cpu_farm=cpu_farm,
        waits=waits,
    )


def _served_at(farm: BlogFarm, published: list[GeneratedArticle]) -> dict[str, float]:
    """Article URL -> the farm's clock time when it last served the page: what the page showed then
    is what the crawl could store (comments keep arriving while the farm's clock runs)."""
    pages = {(farm.site_for(a.url).name, normalize_path(a.url)): normalize_url(a.url) for a in published}
    return served_at(((r.site, r.path_only, r.status, r.clock_time) for r in farm.requests), pages)


def add_blogs(farm: BlogFarm, count: int, articles: int, crawl_delay: float) -> list[FarmSite]:
    """`count` generated blogs of `articles` published articles each, every one on a loopback address of
    its own (real blogs have hosts of their own, and crawlers keep politeness per host), asking for
    a Crawl-delay in its robots.txt."""
    now = farm.clock.now()
    blogs = []
    for i in range(count):
        host = f"127.0.{1 + i // 250}.{2 + i % 250}"
        start = now - (articles + 1) * 3600
        blog = farm.add_generated_blog(f"w{i:03d}", articles=articles, start=start, seed=i, host=host)
        farm.add_route(blog, "/robots.txt", f"User-agent: *\nCrawl-delay: {crawl_delay:g}\n", "text/plain")
        blogs.append(blog)
    return blogs


def worker_command(feeds: Path, url: str, settings: dict[str, str] | None = None) -> list[str]:
    """A crawler worker's `scrapy crawl blogs` on the store at `url` with the bench's settings (and `settings`)."""
    cmd = [sys.executable, "-m", "scrapy", "crawl", "blogs", "-a", f"feeds={feeds}"]
    for key, value in {**SETTINGS, "BLOGS_DB": url, **(settings or {})}.items():
        cmd += ["-s", f"{key}={value}"]
    return cmd


def worker_env() -> dict[str, str]:
    """The environment of a worker started from the project root (the project importable)."""
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _efficiency(run: Run, base: Run) -> float:
    """Pages per machine core-second against one worker's: 1.0 when the added cores were used as
    well as the first (what scaling can mean on a machine that is CPU-bound)."""
    if not (run.machine and base.machine and base.rate):
        return 0.0
    return (run.rate / run.machine) / (base.rate / base.machine)


def machine_busy() -> float:
    """Busy CPU seconds of the whole machine since boot (/proc/stat: all but idle and iowait)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    ticks = os.sysconf("SC_CLK_TCK")
    return (sum(fields) - fields[3] - fields[4]) / ticks


def wait_events(url: str) -> list[str]:
    """What each of the store's busy sessions is doing now: its wait event, or CPU when it waits for nothing."""
    if not url.startswith("postgresql://"):
        return []  # an SQLite store has no sessions to ask
    try:
        found = query_rows(
            url,
            "SELECT COALESCE(wait_event_type || ':' || wait_event, 'CPU') FROM pg_stat_activity"
            " WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid()",
        )
    except psycopg.Error:
        return []
    return [str(r[0]) for r in found]


def process_tree(pid: int) -> list[int]:
    """`pid` and its living descendants (/proc/PID/task/*/children)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            found += process_tree(int(child))
    return found


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of process `pid` and its living descendants (/proc)."""
    if not pid:  # no PostgreSQL server (an SQLite store)
        return 0.0
    total = 0.0
    for each in process_tree(pid):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _own_cpu() -> float:
    usage = os.times()
    return usage.user + usage.system


def _comment_rows(url: str) -> list[tuple[str, str | None, str | None, str]]:
    """(article URL, text, author, method of the extraction that last wrote it) of every stored comment."""
    sql = (
        "SELECT c.article, c.text, c.author, e.method FROM comments c"
        " LEFT JOIN extractions e ON e.snapshot = c.last_snapshot"
    )
    return [
        (str(a), t if t is None else str(t), w if w is None else str(w), str(m or ""))
        for a, t, w, m in query_rows(url, sql)
    ]


def query_rows(url: str, sql: str) -> list[tuple[object, ...]]:
    """The rows of a query on the store: a PostgreSQL URL, or an SQLite file read only (never created)."""
    if not url.startswith("postgresql://"):
        lite = sqlite3.connect(f"file:{url}?mode=ro", uri=True)
        try:
            return [tuple(r) for r in lite.execute(sql).fetchall()]
        finally:
            lite.close()
    with psycopg.connect(url, autocommit=True) as conn:
        return [tuple(r) for r in conn.execute(sql).fetchall()]


@dataclass
class CrawlBench:
    """What `run_bench` measured: the runs, the summary line and whether every target and check held."""

    runs: list[Run]
    summary: str
    met: bool


def add_arguments(p: argparse.ArgumentParser, prefix: str = "") -> None:
    """This bench's options (bench/distributed.py adds them with the prefix `crawl-`)."""
    p.add_argument(f"--{prefix}blogs", type=int, default=1000)
    p.add_argument(f"--{prefix}articles", type=int, default=5, help="articles per blog")
    p.add_argument(f"--{prefix}workers", default="1,2,4")
    delay = f"--{prefix}delay" if prefix else "--crawl-delay"
    p.add_argument(
        delay,
        dest=f"{prefix}crawl_delay".replace("-", "_"),
        type=float,
        default=1.0,
        help="each blog's robots.txt Crawl-delay, s",
    )
    p.add_argument(f"--{prefix}logs", type=Path, help="keep each worker's log (and an SQLite store) in this folder")
    p.add_argument(
        f"--{prefix}store",
        choices=("postgresql", "sqlite"),
        default="postgresql",
        help="the store: a private PostgreSQL server, or an SQLite file per run (one worker at a time)",
    )


def run_bench(
    blogs_count: int,
    articles: int,
    counts: list[int],
    crawl_delay: float,
    kill: bool,
    logs: Path | None,
    store: str = "postgresql",
) -> CrawlBench:
    """Build the farm, run the crawls, print the table; see the module docstring."""
    runs: list[Run] = []
    server = PostgresServer() if store == "postgresql" else nullcontext(None)
    with tempfile.TemporaryDirectory(prefix="crawl-workers-") as tmp, BlogFarm() as farm, server as pg:
        blogs = add_blogs(farm, blogs_count, articles, crawl_delay)
        log_dir = logs or Path(tmp)
        log_dir.mkdir(parents=True, exist_ok=True)
        feeds = Path(tmp) / "feeds.txt"
        feeds.write_text("".join(line + "\n" for line in farm.feed_lines()), encoding="utf-8")
        print(
            f"farm: {blogs_count} blogs x {articles} articles = {blogs_count * articles} pages, each blog on its own"
            f" loopback address with Crawl-delay {crawl_delay:g} s; cpus {os.cpu_count()}",
            flush=True,
        )
        for n in counts:
            runs.append(crawl(farm, blogs, pg, feeds, n, kill_at=None, label=f"{n} worker(s)", log_dir=log_dir))
            print(f"  {runs[-1].label}: {runs[-1].pages} pages in {runs[-1].seconds:.1f} s", flush=True)
        if kill:
            n = max(counts)
            runs.append(crawl(farm, blogs, pg, feeds, n, kill_at=1 / 3, label=f"{n}, one killed", log_dir=log_dir))
    base = runs[0].rate
    print(
        f"{'run':16} {'pages':>6} {'wall s':>7} {'pages/s':>8} {'ratio':>6} {'CPU s':>6} {'cores':>6} {'machine':>7}"
        f" {'lost':>5} {'fetched 2x':>10} {'stored 2x':>9} {'not done':>8} {'posts off':>9}"
        f" {'comments 2x':>11} {'PG CPU s':>8} {'farm CPU s':>10} {'CPU-bound':>9} {'per-core eff':>12}"
        "  comments stored/shown"
    )
    for r in runs:
        print(
            f"{r.label:16} {r.pages:6d} {r.seconds:7.1f} {r.rate:8.1f} {r.rate / base if base else 0:6.2f}"
            f" {r.cpu:6.1f} {r.cpu / r.seconds if r.seconds else 0:6.2f} {r.machine:7.2f}"
            f" {r.lost:5d} {r.fetched_twice:10d} {r.stored_twice:9d} {r.not_terminal:8d} {r.posts_wrong:9d}"
            f" {r.comments_twice:11d} {r.cpu_pg:8.1f} {r.cpu_farm:10.1f} {'yes' if r.cpu_bound else 'no':>9}"
            f" {_efficiency(r, runs[0]):12.2f}  {r.comments}"
        )
    for r in runs:
        print("\n".join(explain(r.label, r.comments)) if r.comments.flagged else f"  {r.label}: no comment flagged")
        if r.without_post:
            print(f"  {r.label}: articles without exactly one post: {', '.join(r.without_post)}")
        top = ", ".join(f"{name} {count}" for name, count in r.waits.most_common(4))
        print(f"  {r.label}: store sessions sampled (wait event: samples): {top or 'none busy'}")
    cores = os.cpu_count() or 1
    load = f"; machine: {cores} cores, " + ", ".join(
        f"{r.label} {r.machine / cores:.0%} busy{' (CPU-bound)' if r.cpu_bound else ''}" for r in runs
    )
    by_count = {r.workers: r.rate for r in runs if "killed" not in r.label}
    four = by_count.get(4, 0.0) / base if base else 0.0
    failed = [r.label for r in runs if not r.ok]
    # A CPU-bound machine cannot give 4 workers 4 workers' cores: then the cores it had must be
    # used as well as one worker used its own.
    four_run = next((r for r in runs if r.workers == 4 and "killed" not in r.label), None)
    bound = four_run is not None and four_run.cpu_bound
    efficiency = _efficiency(four_run, runs[0]) if four_run is not None else 0.0
    scaled = four >= TARGET_4 or (bound and efficiency >= TARGET_EFFICIENCY)
    met = (4 not in by_count or scaled) and not failed
    figures = ", ".join(
        f"{r.label} {r.rate:.1f} pages/s ({r.cpu / r.seconds if r.seconds else 0:.2f} cores)" for r in runs
    )
    plain = [r for r in runs if "killed" not in r.label]
    refetched = sum(r.fetched_twice for r in runs if "killed" in r.label)
    summary = (
        f"crawl workers: {blogs_count * articles} pages, {figures}; 4/1 = {four:.2f} (target >= {TARGET_4}"
        + (f"; CPU-bound: per-core efficiency {efficiency:.2f}, target >= {TARGET_EFFICIENCY}" if bound else "")
        + ");"
        f" pages lost {sum(r.lost for r in runs)}, stored twice {sum(r.stored_twice for r in runs)},"
        f" not done {sum(r.not_terminal for r in runs)}, fetched twice {sum(r.fetched_twice for r in plain)}"
        + (
            f" (after the kill: {refetched} in flight when it died, fetched again;"
            f" {sum(r.next_run for r in runs)} left to the next run)"
            if kill
            else ""
        )
        + f", articles without exactly one post {sum(r.posts_wrong for r in runs)}, comments stored twice"
        f" {sum(r.comments_twice for r in runs)} (stored / shown by the farm:"
        f" {', '.join(str(r.comments) for r in runs)})" + load
    )
    return CrawlBench(runs, summary, met)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(p)
    p.add_argument("--kill", action="store_true", help="add a run where one worker is killed mid-run")
    p.add_argument("--check", action="store_true", help="exit 1 when a target or a check fails")
    args = p.parse_args(argv)
    counts = [int(n) for n in args.workers.split(",")]
    bench = run_bench(args.blogs, args.articles, counts, args.crawl_delay, args.kill, args.logs, args.store)
    print(f"{bench.summary}; {'met' if bench.met else 'MISSED'}")
    return 1 if args.check and not bench.met else 0


if __name__ == "__main__":
    raise SystemExit(main())
