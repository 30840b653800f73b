"""Bulk re-extraction on a Dask cluster: `scrapy reextract --dask ADDRESS|local:N`.

with dask_client("local:2") as client:          # or "tcp://scheduler:8786"
    report, plan = reextract_on_dask(store, client, since_text="7d")

Each site is one task (pipelines.reextract.reextract_site: its profiles learned again, each done
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
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from distributed import Client, LocalCluster, as_completed

from pipelines import jobs
from pipelines.reextract import ReextractReport, prepare, reextract_site
from store import StoreBackend, open_store
from store.clock import to_iso
from store.query import check_site, parse_since
from store.reextractions import Plan, begin, finish_site, page_counts, unfinished

_LOCAL = re.compile(r"^local:(\d+)$")


class ReextractFailed(RuntimeError):
    """Some sites' tasks failed; the others are done and recorded, so running again resumes."""


def check_address(text: str) -> str:
    """--dask: `local:N` (N >= 1 worker processes) or a scheduler address (tcp://host:8786, host:8786)."""
    local = _LOCAL.match(text)
    bad = int(local.group(1)) < 1 if local else text == "local" or text.startswith("local:") or not text.strip()
    if bad:
        raise ValueError(f"{text!r} is neither local:N (N >= 1) nor a scheduler address such as tcp://host:8786")
    return text


@contextmanager
def dask_client(address: str) -> Iterator[Client]:
    """A client of the scheduler at `address`, or of a LocalCluster of N one-thread worker
    processes for `local:N` (started here and closed on leaving)."""
    local = _LOCAL.match(check_address(address))
    if local is None:
        with Client(address) as client:
            yield client
        return
    with (
        LocalCluster(
            n_workers=int(local.group(1)), threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


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
    cfg = jobs.JobConfig(task.location, batch_size=task.batch_size, known_before=task.known_before)
    report = ReextractReport(sites=1)
    try:
        with open_store(task.location, create=False) as store:
            reextract_site(store, cfg, task.site, report, known=task.known, since=task.since)
            finish_site(store, task.scope, task.site, pages=report.pages, now=time.time())
    finally:
        jobs.close_stores()  # the jobs' own connections: a long-lived worker keeps none open
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
    if site is not None:
        check_site(store.db, site)
    scope = scope_of(site, since_text)
    stopped = unfinished(store.db, scope)
    started, since = stopped if stopped else (to_iso(time.time()), parse_since(since_text) if since_text else None)
    cfg = jobs.JobConfig(store.location, batch_size=batch_size, known_before=started)
    try:
        prepare(store, cfg)
    finally:
        jobs.close_stores()
    counts = page_counts(store.db, since)
    sites = [s for s in counts if site is None or s == site]
    plan = begin(store, scope, started=started, since=since, sites=sites)
    if planned is not None:
        planned(plan)
    report = ReextractReport()
    # Largest sites first: a worker left with the one big site at the end is idle time for the others.
    todo = sorted(plan.todo, key=lambda s: (-counts[s], s))
    tasks = [
        SiteTask(store.location, name, scope, batch_size, started, store.known_comment_identifiers(name), since)
        for name in todo
    ]
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
