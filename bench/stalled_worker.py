"""One crawler worker of four paused (SIGSTOP) on PostgreSQL: do the others slow down while it is stopped?

    python bench/stalled_worker.py [--stop 120] [--workers 4] [--blogs 1000] [--articles 15]
        [--crawl-delay 1] [--lease-sites N] [--warmup 30] [--tries 30] [--control] [--logs DIR]

The farm and the workers are bench/crawl_workers.py's: generated blogs, each on a loopback address
of its own asking for a Crawl-delay, a private PostgreSQL server, `--workers` `scrapy crawl blogs`
processes started together on a new database, each with a User-Agent of its own (BLOGS_CONTACT),
so the farm's request log tells whose fetch each article request was. `--lease-sites` sets
BLOGS_LEASE_SITES (sites a worker holds at once; the crawl's default when not given): with fewer,
a small farm lasts longer (a worker fetches about lease-sites / crawl-delay pages per second).
The first window starts `--warmup` seconds after every running worker fetched its first article,
and not before half the stored pages are extracted: a site's first batch (BLOGS_BATCH_SIZE pages)
is learned only when it is full, so the first minutes are mostly fetching, and on a busy machine
a window there against one in the extraction that follows measures that change, not the stop.
`--control` runs the same windows without stopping anyone: the drop the run's own course gives.

Then, after `--stop` seconds, the first worker is stopped with its extraction processes
(SIGSTOP to the process tree, as a VM pause or a suspended job stops them all), preferably inside a
write transaction, the worst case: it is stopped, and if none of its sessions (found by their
client ports among its processes' sockets) is left idle inside a transaction that wrote rows or
holds a site's lock, it is resumed and stopped again a moment later, up to `--tries` times (each stop
waits up to 3 s for one of its sessions to be inside a write: `writing_soon`). It
stays stopped `--stop` seconds. Compared: the article pages the other workers fetched per second
in the `--stop` seconds before the stop and in the `--stop` seconds it was stopped (same window
length). While it is stopped
the store's sessions are sampled twice a second: their wait events, and sessions waiting on a
lock (pg_blocking_pids) held by the stopped worker's sessions, with the wait event and the
statement that waits, whose session it is (worker N) and who holds the site's lease: a stopped
worker must hold nothing another one needs. Its own sessions waiting on each other (its extraction
process on its crawler process's transaction: stopped too) hold up no one, and are shown apart.
Printed per window: the others' pages/s, pages stored per second (all workers), the others' CPU
in cores and the machine's busy share (other work on the machine takes cores from the workers:
compare the two windows' shares before reading the drop as the crawler's).

Exit 1 when the others' pages/s drop by 25 % or more, when the others ran out of work before the
window ended (more --blogs or --articles), or a page is stored twice. The last line states every
figure.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "bench"))

import crawl_workers  # noqa: E402

from crawler.addon import user_agent  # noqa: E402
from farm import BlogFarm, FarmSite  # noqa: E402
from farm.log import normalize_path  # noqa: E402
from farm.postgres import PostgresServer  # noqa: E402
from store.pglock import RUN_LOCK_KEY  # noqa: E402
from store.pgsql import SITE_LOCK_CLASS  # noqa: E402

TARGET_DROP = 0.25  # the others' pages/s may drop by less than this while one worker is stopped
SAMPLE_S = 0.5
# After a SIGSTOP: time for the server to finish a statement the worker had sent, so its session
# shows where the worker stopped (idle, or idle inside a transaction).
SETTLE_S = 0.5


@dataclass
class Window:
    """What happened in one window of the run: [start, end) in wall-clock seconds."""

    label: str
    start: float
    end: float
    pages: int = 0  # article pages the running workers fetched (farm log, by User-Agent)
    stored: int = 0  # pages stored by every worker
    cpu: float = 0.0  # CPU seconds of the running workers and their extraction processes
    machine: float = 0.0  # busy CPU seconds of the whole machine

    @property
    def seconds(self) -> float:
        return self.end - self.start

    @property
    def rate(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Reading:
    """Counters read at one moment, to be subtracted over a window."""

    at: float  # wall-clock seconds
    machine: float  # busy CPU seconds of the machine since boot
    cpu: float  # CPU seconds of the running workers' process trees
    stored: int  # pages in the store


class Timeline:
    """Readings every SAMPLE_S seconds; a window's figures are the differences of the nearest readings."""

    def __init__(self, url: str, running: list[subprocess.Popen[bytes]]) -> None:
        self.url = url
        self.running = running
        self.readings: list[Reading] = []

    def read(self) -> None:
        self.readings.append(
            Reading(
                time.time(),
                crawl_workers.machine_busy(),
                sum(crawl_workers.tree_cpu(p.pid) for p in self.running if p.poll() is None),
                crawl_workers.store_count(self.url, "SELECT COUNT(*) FROM snapshots"),
            )
        )

    def at(self, moment: float) -> Reading:
        return min(self.readings, key=lambda r: abs(r.at - moment))

    def fill(self, window: Window) -> None:
        """The window's stored pages, workers' CPU and machine's busy seconds."""
        first, last = self.at(window.start), self.at(window.end)
        window.stored = last.stored - first.stored
        window.cpu = last.cpu - first.cpu
        window.machine = last.machine - first.machine


@dataclass
class StopSamples:
    """pg_stat_activity samples taken while the worker was stopped."""

    waits: Counter[str] = field(default_factory=Counter)  # wait event (or CPU) of busy sessions -> samples
    blocked: Counter[str] = field(default_factory=Counter)  # "lock: waiting statement" blocked by the stopped
    # The same, of the stopped worker's own sessions (its extraction process waiting on its crawler
    # process's transaction): stopped as well, they hold up no other worker, so they are not counted.
    own: Counter[str] = field(default_factory=Counter)
    samples: int = 0


def signal_tree(pids: Iterable[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


def client_ports(pids: Iterable[int]) -> set[int]:
    """Local TCP ports of the sockets the processes `pids` hold (/proc/PID/fd and /proc/net/tcp): the
    client_port of their sessions in pg_stat_activity."""
    inodes = set()
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    target = os.readlink(fd)
                    if target.startswith("socket:["):
                        inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[9] in inodes:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def victim_sessions(url: str, pids: Iterable[int]) -> dict[int, str]:
    """The stopped processes' sessions: backend pid -> state ("idle", "idle in transaction", ...)."""
    ports = client_ports(pids)
    found = crawl_workers.query_rows(
        url, "SELECT pid, client_port, state FROM pg_stat_activity WHERE datname = current_database()"
    )
    return {int(str(pid)): str(state) for pid, port, state in found if port in ports}


def writing_soon(url: str, pids: list[int], within: float = 3.0) -> bool:
    """Wait (up to `within` seconds, polling every 20 ms) until one of the processes' sessions is in a
    transaction that wrote or holds a site's lock, so the stop that follows lands inside a write; a
    write lasts milliseconds on a quiet machine, where stopping at random rarely catches one."""
    ports = client_ports(pids)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = crawl_workers.query_rows(
            url,
            "SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.granted"
            " AND (l.locktype = 'transactionid' OR (l.locktype = 'advisory' AND l.classid ="
            f" {SITE_LOCK_CLASS})) AND a.client_port IN ({', '.join(map(str, ports)) or '0'}) LIMIT 1",
        )
        if found:
            return True
        time.sleep(0.02)
    return False


def inside_write(url: str, sessions: dict[int, str]) -> list[int]:
    """The sessions idle inside a transaction that wrote (it has a transaction id) or holds a site's lock."""
    idle = [pid for pid, state in sessions.items() if state.startswith("idle in transaction")]
    if not idle:
        return []
    found = crawl_workers.query_rows(
        url,
        "SELECT DISTINCT pid FROM pg_locks WHERE granted AND (locktype = 'transactionid'"
        f" OR (locktype = 'advisory' AND classid = {SITE_LOCK_CLASS})) AND pid IN ({', '.join(map(str, idle))})",
    )
    return sorted(int(str(r[0])) for r in found)


def held_locks(url: str, sessions: list[int]) -> list[str]:
    """What `sessions` hold that another session could wait on: advisory locks (the crawl lock, site
    locks) and the tables they wrote rows of (row locks), for the report."""
    if not sessions:
        return []
    found = crawl_workers.query_rows(
        url,
        "SELECT l.locktype, l.classid, l.objid, l.mode, c.relname, c.relkind FROM pg_locks l"
        " LEFT JOIN pg_class c ON c.oid = l.relation"
        f" WHERE l.granted AND l.pid IN ({', '.join(str(s) for s in sessions)})",
    )
    named: Counter[str] = Counter()
    for locktype, classid, objid, mode, relname, relkind in found:
        if locktype == "advisory" and classid == SITE_LOCK_CLASS:
            named["a site's transaction lock"] += 1
        elif locktype == "advisory" and (classid, objid) == (0, RUN_LOCK_KEY):
            named[f"the crawl lock ({mode})"] += 1
        elif locktype == "advisory":
            named[f"advisory {classid}/{objid}"] += 1
        elif locktype == "relation" and relkind == "r" and mode == "RowExclusiveLock":
            named[f"rows written in {relname}"] += 1
        elif locktype == "transactionid":
            named["an open write transaction"] += 1
    return [f"{what}{f' x {n}' if n > 1 else ''}" for what, n in sorted(named.items())]


def stop_victim(
    victim: subprocess.Popen[bytes], url: str, tries: int, timeline: Timeline
) -> tuple[list[int], dict[int, str], int]:
    """SIGSTOP the victim's process tree, inside a write transaction if one of `tries` stops catches
    it there: (the stopped pids, their sessions and states, stops made)."""
    for attempt in range(1, tries + 1):
        pids = crawl_workers.process_tree(victim.pid)
        writing_soon(url, pids)
        signal_tree(pids, signal.SIGSTOP)
        time.sleep(SETTLE_S)
        sessions = victim_sessions(url, pids)
        if inside_write(url, sessions) or attempt == tries:
            return pids, sessions, attempt
        signal_tree(pids, signal.SIGCONT)
        timeline.read()
        time.sleep(0.3)
    raise AssertionError("unreachable")


def sample_stop(url: str, stopped: list[int], samples: StopSamples, workers: list[subprocess.Popen[bytes]]) -> None:
    """One sample of the store's sessions: wait events, and waits on a lock the stopped sessions hold,
    each with whose session waits (worker N, by its processes' client ports) and, for a site's lock,
    who holds the site's lease: what tells how another worker came to want the stopped one's site."""
    try:
        samples.waits.update(crawl_workers.wait_events(url))
        if stopped:
            blocked = crawl_workers.query_rows(
                url,
                "SELECT COALESCE(wait_event_type || ':' || wait_event, '?') || ': ' || left(query, 80), client_port"
                " FROM pg_stat_activity WHERE datname = current_database()"
                f" AND pg_blocking_pids(pid) && ARRAY[{', '.join(str(s) for s in stopped)}]",
            )
            stopped_ports = client_ports(crawl_workers.process_tree(workers[0].pid))
            for waiting, port in blocked:
                found = samples.own if port in stopped_ports else samples.blocked
                found[_who(url, str(waiting), port, workers)] += 1
    except psycopg.Error:
        return
    samples.samples += 1


def _who(url: str, waiting: str, port: int | None, workers: list[subprocess.Popen[bytes]]) -> str:
    """`waiting` with the worker whose session it is and the lease of the site it waits for."""
    found = [i for i, w in enumerate(workers) if port in client_ports(crawl_workers.process_tree(w.pid))]
    who = f"worker {found[0]}" if found else "a session of no worker"
    site = re.search(r"hashtext\('([\w.:-]+)'\)", waiting)
    if site is None:
        return f"{waiting} ({who})"
    sql = f"SELECT owner, released_by, claims FROM site_leases WHERE site = '{site[1]}'"
    lease = crawl_workers.query_rows(url, sql)
    owner, released_by, claims = lease[0] if lease else (None, None, 0)
    holder = next((i for i, w in enumerate(workers) if owner and f" pid {w.pid} " in owner), None)
    leased = f"worker {holder}" if holder is not None else (owner or "no one")
    return f"{waiting} ({who}; the site's lease: {leased}, claimed {claims} times, last given back by {released_by})"


def article_fetches(farm: BlogFarm, blogs: list[FarmSite], agents: set[str], window: Window) -> int:
    """Article pages requested by a worker with one of `agents` as User-Agent during `window`."""
    articles = {(b.name, normalize_path(a.url)) for b in blogs for a in b.articles}
    return sum(
        1
        for r in farm.requests
        if window.start <= r.wall_time < window.end
        and r.user_agent in agents
        and (r.site, r.path_only) in articles
        and r.status == 200
    )


def wait_for_extraction(url: str, timeout: float) -> None:
    """Until half the stored pages have an extraction (the first batches are learned)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stored = crawl_workers.store_count(url, "SELECT COUNT(*) FROM snapshots")
        extracted = crawl_workers.store_count(url, "SELECT COUNT(DISTINCT snapshot) FROM extractions")
        if stored and extracted >= stored / 2:
            return
        time.sleep(SAMPLE_S)


def wait_for_fetches(farm: BlogFarm, blogs: list[FarmSite], agents: set[str], timeout: float) -> None:
    """Until each worker with one of `agents` has fetched an article page (they start in seconds on an
    idle machine, in tens of seconds on a busy one)."""
    everything = Window("so far", 0.0, float("inf"))
    deadline = time.monotonic() + timeout
    for agent in sorted(agents):
        while not article_fetches(farm, blogs, {agent}, everything) and time.monotonic() < deadline:
            time.sleep(SAMPLE_S)


def end_workers(workers: list[subprocess.Popen[bytes]], stopped: list[int]) -> None:
    """Resume the stopped worker, then end every worker (SIGTERM: a graceful stop; SIGKILL after 60 s)."""
    signal_tree(stopped, signal.SIGCONT)
    for p in workers:
        if p.poll() is None:
            p.terminate()
    deadline = time.monotonic() + 60
    for p in workers:
        try:
            p.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=30)


@dataclass
class Measured:
    """What one run of the bench saw."""

    before: Window
    during: Window
    samples: StopSamples
    stopped: list[int]  # pids of the stopped worker's processes (none in a control run)
    sessions: dict[int, str]  # their store sessions and states when stopped
    locks: list[str]  # what those sessions held
    stops: int  # stops made to catch the worker inside a write transaction
    writing: int  # its sessions stopped inside a write transaction
    ran_out: list[int]  # running workers that finished before the second window ended
    stored_twice: int

    @property
    def inside(self) -> bool:
        return self.writing > 0

    @property
    def drop(self) -> float:
        return 1 - self.during.rate / self.before.rate if self.before.rate else 1.0


def start_workers(args: argparse.Namespace, feeds: Path, url: str, log_dir: Path) -> list[subprocess.Popen[bytes]]:
    """`args.workers` crawls on the store at `url`, worker i with the contact (User-Agent) workerI."""
    workers = []
    for i in range(args.workers):
        settings = {"BLOGS_CONTACT": contact(i)}
        if args.lease_sites:
            settings["BLOGS_LEASE_SITES"] = str(args.lease_sites)
        cmd = crawl_workers.worker_command(feeds, url, settings)
        with open(log_dir / f"worker{i}.log", "wb") as log:
            env = crawl_workers.worker_env()
            workers.append(subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log, env=env))
    return workers


def contact(worker: int) -> str:
    return f"mailto:worker{worker}@example.invalid"


def measure(args: argparse.Namespace, farm: BlogFarm, blogs: list[FarmSite], url: str, log_dir: Path) -> Measured:
    """Run the workers, stop the first (unless --control) and read both windows; see the module docstring."""
    feeds = log_dir / "feeds.txt"
    feeds.write_text("".join(line + "\n" for line in farm.feed_lines()), encoding="utf-8")
    workers = start_workers(args, feeds, url, log_dir)
    victim, others = workers[0], workers[1:]
    agents = {user_agent(contact(i)) for i in range(1, args.workers)}
    stopped: list[int] = []
    sessions: dict[int, str] = {}
    stops = 0
    samples = StopSamples()
    timeline = Timeline(url, others)
    try:
        wait_for_fetches(farm, blogs, agents, timeout=300)
        time.sleep(args.warmup)
        wait_for_extraction(url, timeout=600)
        timeline.read()
        until = time.time() + args.stop
        while time.time() < until:
            time.sleep(SAMPLE_S)
            timeline.read()
        if args.control:
            during = Window("no stop (control)", time.time(), 0.0)
        else:
            stopped, sessions, stops = stop_victim(victim, url, args.tries, timeline)
            # The stop that held: the windows meet there (the resumed tries count as running time).
            during = Window("while stopped", time.time() - SETTLE_S, 0.0)
        before = Window("before the stop", during.start - args.stop, during.start)
        locks = held_locks(url, list(sessions))
        writing = len(inside_write(url, sessions))
        timeline.read()
        while time.time() < during.start + args.stop:
            sample_stop(url, list(sessions), samples, workers)
            time.sleep(SAMPLE_S)
            timeline.read()
        during.end = time.time()
        ran_out = [i + 1 for i, w in enumerate(others) if w.poll() is not None]
    finally:
        end_workers(workers, stopped)
    for window in (before, during):
        window.pages = article_fetches(farm, blogs, agents, window)
        timeline.fill(window)
    stored_twice = crawl_workers.store_count(url, "SELECT COUNT(*) - COUNT(DISTINCT article) FROM snapshots")
    return Measured(before, during, samples, stopped, sessions, locks, stops, writing, ran_out, stored_twice)


def report(args: argparse.Namespace, m: Measured) -> int:
    """Print the figures; 1 when a target or a check is missed."""
    cores = os.cpu_count() or 1
    if args.control:
        where = "(control: none stopped)"
    elif m.inside:
        where = f"inside a write transaction (stop {m.stops} of {args.tries})"
    else:
        where = "outside any transaction"
    if not args.control:
        print(f"worker 0 (pids {', '.join(map(str, m.stopped))}) stopped {where}; its sessions: {m.sessions}")
    if m.locks:
        print(f"  its stopped sessions hold: {'; '.join(m.locks)}")
    print(f"{'window':18} {'s':>6} {'others pages':>12} {'pages/s':>8} {'stored/s (all)':>14} {'others cores':>12}"
          f" {'machine busy':>12}")  # fmt: skip
    for w in (m.before, m.during):
        print(f"{w.label:18} {w.seconds:6.1f} {w.pages:12d} {w.rate:8.2f} {w.stored / w.seconds:14.2f}"
              f" {w.cpu / w.seconds:12.2f} {w.machine / w.seconds / cores:12.0%}")  # fmt: skip
    top = ", ".join(f"{name} {count}" for name, count in m.samples.waits.most_common(5))
    print(f"store sessions in the second window ({m.samples.samples} samples; wait event: samples): {top or 'none'}")
    blocked = sum(m.samples.blocked.values())
    print(f"sessions waiting on a lock the stopped worker holds: {blocked} (in {m.samples.samples} samples)")
    for what, count in m.samples.blocked.most_common(5):
        print(f"  {count} x {what}")
    own = sum(m.samples.own.values())
    print(f"the stopped worker's own sessions waiting on each other (not counted: they hold up no one): {own}")
    for what, count in m.samples.own.most_common(3):
        print(f"  {count} x {what}")
    missed = []
    if m.drop >= TARGET_DROP and not args.control:
        missed.append(f"drop {m.drop:.1%} >= {TARGET_DROP:.0%}")
    if m.ran_out:
        missed.append(f"worker(s) {m.ran_out} ran out of work before the window ended: more --blogs or --articles")
    if m.stored_twice:
        missed.append(f"{m.stored_twice} pages stored twice")
    busy = [w.machine / w.seconds / cores if w.seconds else 0.0 for w in (m.before, m.during)]
    stopped = "none stopped (control)" if args.control else f"one stopped {args.stop:g} s {where}"
    print(
        f"stalled worker: {args.workers} workers, {stopped}; the others' pages/s"
        f" {m.before.rate:.2f} before, {m.during.rate:.2f} while stopped: drop {m.drop:.1%} (target <"
        f" {TARGET_DROP:.0%}); waits on the stopped worker's locks {blocked}; stored twice {m.stored_twice};"
        f" machine: {cores} cores, {busy[0]:.0%} busy before, {busy[1]:.0%} while stopped; "
        + ("MISSED: " + "; ".join(missed) if missed else "met")
    )
    return 1 if missed else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--stop", type=float, default=120.0, help="seconds the worker stays stopped (and the window before)")
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--blogs", type=int, default=1000)
    p.add_argument("--articles", type=int, default=15, help="articles per blog")
    p.add_argument("--crawl-delay", type=float, default=1.0, help="each blog's robots.txt Crawl-delay, s")
    p.add_argument("--lease-sites", type=int, help="BLOGS_LEASE_SITES of every worker")
    p.add_argument("--warmup", type=float, default=30.0, help="seconds after the first fetches before the first window")
    p.add_argument("--tries", type=int, default=30, help="stops tried to catch the worker inside a transaction")
    p.add_argument("--control", action="store_true", help="stop no worker: the same windows, for comparison")
    p.add_argument("--logs", type=Path, help="keep each worker's log in this folder")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="stalled-worker-") as tmp, BlogFarm() as farm, PostgresServer() as pg:
        blogs = crawl_workers.add_blogs(farm, args.blogs, args.articles, args.crawl_delay)
        print(
            f"farm: {args.blogs} blogs x {args.articles} articles = {sum(len(b.articles) for b in blogs)} pages,"
            f" Crawl-delay {args.crawl_delay:g} s; {args.workers} workers, the first stopped {args.stop:g} s"
            f"{' (control: not stopped)' if args.control else ''}; cpus {os.cpu_count()}",
            flush=True,
        )
        log_dir = args.logs or Path(tmp)
        log_dir.mkdir(parents=True, exist_ok=True)
        measured = measure(args, farm, blogs, pg.new_database(), log_dir)
    return report(args, measured)


if __name__ == "__main__":
    raise SystemExit(main())
