"""Bulk re-extraction on a Dask cluster: `scrapy reextract --dask ADDRESS|local:N`.

with dask_client("local:2") as client:          # or "tcp://scheduler:8786"
    report, plan = reextract_on_dask(store, client, since_text="7d")

Each site is one task (jobs.reextract.reextract_site: its profiles learned again, each done
batch extracted again as one set, the other pages with their profile version, what a killed
crawl left undone completed), run on a worker that opens the store itself by its location and
writes its results in short transactions (SQLite serializes writers; PostgreSQL's write lock is
taken per transaction), then records the site as done (store.reextractions), so a killed run
started again with the same filters skips the sites already done. The tasks get what could
depend on their order from the driver, taken at the run's start (the other sites' comment
identifiers, `known_before`), so the result is the single-process `reextract`'s.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jobs import extraction
from jobs.reextract import ReextractReport, prepare, reextract_site
from store import StoreBackend, open_store
from store.clock import to_iso
from store.query import parse_since
from store.reextractions import Plan
from store.storefile import first_line

if TYPE_CHECKING:  # Dask is imported where a cluster is used: it costs every `scrapy` command 1-3 s
    from distributed import Client

_LOCAL = re.compile(r"^local:(\d+)$")


class ReextractFailed(RuntimeError):
    """Some sites' tasks failed; the others are done and recorded, so running again resumes."""


# Schemes a Dask scheduler listens on; the dashboard (http://host:8787) is not one of them.
SCHEDULER_SCHEMES = ("tcp", "tls")
# A LocalCluster shares the machine's cores with its workers: its scheduler's, nannies' and
# workers' periodic checks (event-loop ticks every 20 ms, memory every 100 ms, system stats every
# 500 ms) took 3 % of a core at rest and slowed two workers on two cores, and each worker's
# profiler samples its task's stack every 10 ms (for a dashboard a LocalCluster here has not).
QUIET_LOCAL_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.worker.memory.monitor-interval": "500ms",
    "distributed.admin.system-monitor.interval": "2s",
}
# Seconds to wait for a scheduler to answer as Dask: a port that is something else never does.
CONNECT_TIMEOUT = 15.0


def check_address(text: str) -> str:
    """--dask: `local:N` (N >= 1 worker processes) or a scheduler address tcp://host:PORT (tls://, or
    host:PORT); returned as given, ValueError in one line saying what is wrong otherwise."""
    local = _LOCAL.match(text)
    why = _scheduler_problem(text.strip()) if local is None else "" if int(local.group(1)) >= 1 else "N is 0"
    if why:
        usage = "is neither local:N (N >= 1) nor a scheduler address such as tcp://host:8786"
        raise ValueError(f"{text!r} {usage} ({why})")
    return text


def _scheduler_problem(text: str) -> str:
    """What keeps `text` from being a scheduler address, in words ("" when it is one)."""
    if not text or text == "local" or text.startswith("local:"):
        return "give local:4 for four local worker processes"
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme.lower() in ("http", "https"):
        return f"{scheme}:// is the dashboard's; the scheduler listens on tcp://, port 8786 by default"
    if scheme.lower() not in SCHEDULER_SCHEMES:
        return f"{scheme}:// is not a scheme of a Dask scheduler: tcp:// or tls://"
    host, colon, port = rest.rstrip("/").rpartition(":")
    if not colon or not host or "/" in rest.rstrip("/"):
        return "no host:port"
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        return f"port {port!r} is not a number from 1 to 65535"
    return ""


@contextmanager
def dask_client(address: str, timeout: float = CONNECT_TIMEOUT) -> Iterator[Client]:
    """A client of the scheduler at `address`, or of a LocalCluster of N one-thread worker
    processes for `local:N` (started here and closed on leaving). A scheduler that does not answer
    as Dask within `timeout` seconds raises OSError in one line."""
    import dask.config
    from distributed import Client, LocalCluster

    local = _LOCAL.match(check_address(address))
    if local is None:
        client = _connect(address, timeout)
        with client:
            yield client
        return
    with (
        dask.config.set(QUIET_LOCAL_CLUSTER),
        LocalCluster(
            n_workers=int(local.group(1)), threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        from jobs.daskworkers import QuietClosingWorker

        client.register_plugin(QuietClosingWorker(), name="blogs-quiet-closing")
        yield client


def _connect(address: str, timeout: float) -> Client:
    """A client of the scheduler at `address`, or OSError in one line after `timeout` seconds.

    Client's own timeout covers the TCP connection only: a port where something else listens
    (the dashboard, a web server) accepts it and never completes Dask's handshake, so the client
    is made on a thread that is given up on (a daemon: it does not keep the process alive)."""
    from distributed import Client

    made: list[Client | BaseException] = []

    def connect() -> None:
        try:
            made.append(Client(address, timeout=timeout))
        except Exception as exc:
            made.append(exc)

    thread = threading.Thread(target=connect, name="dask-connect", daemon=True)
    thread.start()
    thread.join(timeout + 5)
    if not made:
        raise OSError(f"nothing answered as a Dask scheduler within {timeout:g} s (is it the scheduler's port?)")
    if isinstance(made[0], BaseException):
        raise OSError(f"no Dask scheduler answered within {timeout:g} s ({first_line(made[0])})")
    return made[0]


@dataclass(frozen=True)
class SiteTask:
    """One site's re-extraction: plain values, shipped to a worker."""

    location: str
    site: str
    scope: str
    batch_size: int
    known_before: str
    known: frozenset[str]
    since: str | None = None


def run_site(task: SiteTask) -> ReextractReport:
    """A worker's task: re-extract the site through its own connection, then mark it done."""
    cfg = extraction.JobConfig(task.location, batch_size=task.batch_size, known_before=task.known_before)
    report = ReextractReport(sites=1)
    try:
        with open_store(task.location, create=False) as store:
            reextract_site(store, cfg, task.site, report, known=task.known, since=task.since)
            store.finish_reextraction_site(task.scope, task.site, pages=report.pages, now=time.time())
    finally:
        extraction.close_stores()  # the jobs' own connections: a long-lived worker keeps none open
    return report


def scope_of(site: str | None, since_text: str | None) -> str:
    """The filters as given, which a resumed run must repeat: 'all', '--site S', '--since 7d'."""
    parts = [f"--site {site}" if site else "", f"--since {since_text}" if since_text else ""]
    return " ".join(p for p in parts if p) or "all"


def reextract_on_dask(
    store: StoreBackend,
    client: Client,
    *,
    site: str | None = None,
    since_text: str | None = None,
    batch_size: int = 10,
    progress: Callable[[str, ReextractReport, int, int], None] | None = None,
    planned: Callable[[Plan], None] | None = None,
) -> tuple[ReextractReport, Plan]:
    """Re-extract every site (or `site`; pages fetched since `since_text`, store.query.parse_since)
    with one task per site on `client`'s cluster, resuming an unfinished run of the same filters.
    `planned(plan)` is called before the tasks start (plan.resumed: a stopped run goes on), and
    `progress(site, report so far, sites done, sites in the run)` after each finished task.
    A resumed run takes the other sites' comment identifiers as the store has them then (the
    sites done before have their profiles learned again already).
    Raises QueryError for an unknown site or an unreadable --since, ReextractFailed when a task failed."""
    from distributed import as_completed

    if site is not None:
        store.check_site(site)
    scope = scope_of(site, since_text)
    stopped = store.unfinished_reextraction(scope)
    started, since = stopped if stopped else (to_iso(time.time()), parse_since(since_text) if since_text else None)
    cfg = extraction.JobConfig(store.location, batch_size=batch_size, known_before=started)
    try:
        prepare(store, cfg)
    finally:
        extraction.close_stores()
    counts = store.page_counts(since)
    sites = [s for s in counts if site is None or s == site]
    plan = store.begin_reextraction(scope, started=started, since=since, sites=sites)
    if planned is not None:
        planned(plan)
    report = ReextractReport()
    # Largest sites first: a worker left with the one big site at the end is idle time for the others.
    todo = sorted(plan.todo, key=lambda s: (-counts[s], s))
    known = store.known_comment_identifiers_by_site(todo)  # one read of the profiles, not one per site
    tasks = [SiteTask(store.location, name, scope, batch_size, started, known[name], since) for name in todo]
    futures = {
        client.submit(run_site, task, pure=False, priority=len(tasks) - i, retries=0): task.site
        for i, task in enumerate(tasks)
    }
    failed: list[str] = []
    finished = len(plan.done)
    for future in as_completed(futures):
        name = futures[future]
        try:
            done: ReextractReport = future.result()
        except Exception as exc:  # the task's own error, re-raised here; the other sites go on
            failed.append(f"{name}: {exc!r}")
            continue
        report.sites += done.sites
        report.profiles += done.profiles
        report.batches += done.batches
        report.pages += done.pages
        finished += 1
        if progress is not None:
            progress(name, report, finished, len(sites))
    if failed:
        raise ReextractFailed(f"{len(failed)} site(s) failed (run again to retry them): " + "; ".join(sorted(failed)))
    return report, plan
