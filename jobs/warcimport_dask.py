"""`scrapy import-warc --dask ADDRESS|local:N`: the import of jobs.warcimport on a Dask cluster,
by file and then by site.

with dask_client("local:2") as client:
    plan, report = import_on_dask(store, client, ["a.warc.gz", "b.warc.gz"])

1. One task per piece of a file reads it (pass 1, extractor.archives.warc.ArchiveIndex): a WARC file
   compressed per record is cut into pieces of a few MB (extractor.archives.records.pieces), so that
   one large file (a Common Crawl segment's 1 GB) is read by every worker, any other file is one
   piece. What comes back to this process is the index, a few fields per record, never a body.
   Before it, one task per file hashes it (a file imported before is skipped: its SHA-256).
2. Here, from all the indexes: sites and articles (a site's pages may sit in many files).
3. One task per site, largest first, on a worker that opens the store itself: it stores the site's
   pages (bodies read from every file that holds them, one chunk at a time), in the single-process
   import's order within the site, then parses its comment feeds, batches its first fetches and
   extracts its pages (jobs.warcimport.prepare_site, extract_site): a site's pages are gathered by
   the store, by site key, on the cluster, and no site waits for all the others to be stored.
   Snapshot ids differ from a single-process import's only in how the sites interleave; other
   sites' identifiers count as of the import's start, so the posts and comments are those of the
   single-process import. The files are recorded once every site is done.
4. Sites an import stopped before extracting (their files are skipped now) are extracted as in
   step 3, after jobs.warcimport.prepare_extraction here.

The workers must reach the files (same paths) and the store (across machines: PostgreSQL).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from extractor.archives.records import ReadTally, pieces
from extractor.archives.warc import ArchiveIndex
from jobs import extraction
from jobs.warcimport import (
    ArchiveFile,
    ImportPlan,
    ImportReport,
    archive_files,
    extract_site,
    file_sha256,
    finish_plan,
    prepare_extraction,
    prepare_site,
    record_file,
    site_plans,
    sites_to_extract,
    store_site,
)
from store import StoreBackend, open_store
from store.clock import to_iso

if TYPE_CHECKING:  # Dask is imported where a cluster is used (start-up time of every command)
    from distributed import Client, Future


_MIN_PIECE = 1 << 20
_MAX_PIECE = 64 << 20


class ImportFailed(RuntimeError):
    """A task failed; what was stored is kept (files recorded, pages stored), so running again resumes."""


def _result(future: Future, what: str) -> Any:
    try:
        return future.result()
    except Exception as exc:  # the task's own error, re-raised here: one line for the user
        raise ImportFailed(f"{what} failed (run again to resume): {exc!r}") from exc


def index_piece(path: str, start: int, stop: int | None) -> ArchiveIndex:
    """Task: pass 1 over one piece of a file."""
    index = ArchiveIndex()
    index.add_file(path, start, stop)
    return index


def piece_size(files: list[ArchiveFile], workers: int) -> int:
    """Bytes per piece: about 4 pieces per worker, so that the last ones even out the workers'
    shares; at least 1 MiB (a task's own cost), at most 64 MiB (progress, memory of a piece's index)."""
    total = sum(f.size for f in files)
    return min(max(total // (4 * max(1, workers)), _MIN_PIECE), _MAX_PIECE)


def read_indexes(
    client: Client, files: list[ArchiveFile], say: Callable[[str], None], size: int
) -> tuple[ArchiveIndex, dict[str, ReadTally]]:
    """Pass 1 on the cluster, in pieces of `size` bytes: the files' index, in the order given (the
    single-process import's), and each file's tally."""
    from distributed import as_completed

    cut = {f.path: pieces(f.path, size) for f in files}
    every = [(f, start, stop) for f in files for start, stop in cut[f.path]]
    # Largest first (a file's last piece is its shortest): no worker is left reading while the others wait.
    every.sort(key=lambda piece: (piece[2] if piece[2] is not None else piece[0].size) - piece[1], reverse=True)
    reading = {
        client.submit(index_piece, f.path, start, stop, pure=False, priority=len(every) - i): (f.path, start)
        for i, (f, start, stop) in enumerate(every)
    }
    found: dict[tuple[str, int], ArchiveIndex] = {}
    left = {path: len(parts) for path, parts in cut.items()}
    read = 0
    for future in as_completed(reading):
        path, start = reading[future]
        found[path, start] = _result(future, f"reading {path}")
        left[path] -= 1
        if not left[path]:
            read += 1
            say(f"read {read}/{len(files)} files ({Path(path).name})")
    index = ArchiveIndex()
    tallies = {}
    for archive in files:
        tallies[archive.path] = ReadTally()
        for start, _stop in cut[archive.path]:
            tallies[archive.path].merge(found[archive.path, start].tally)
            index.merge(found[archive.path, start])
    return index, tallies


@dataclass(frozen=True)
class SiteTask:
    location: str
    site: str
    batch_size: int
    known_before: str


def import_site_task(task: SiteTask, plan: ImportPlan) -> ImportReport:
    """Task: pass 2 for one site's part of the plan, then the site's extraction, through the
    worker's own connection."""
    cfg = extraction.JobConfig(task.location, batch_size=task.batch_size, known_before=task.known_before)
    try:
        with open_store(task.location, create=False) as store:
            report = store_site(store, plan)
            prepare_site(store, cfg, task.site)
            report.extracted = extract_site(store, cfg, task.site)
            return report
    finally:
        extraction.close_stores()


def extract_site_task(task: SiteTask) -> int:
    """Task: one site's extraction, through the worker's own connection."""
    cfg = extraction.JobConfig(task.location, batch_size=task.batch_size, known_before=task.known_before)
    try:
        with open_store(task.location, create=False) as store:
            return extract_site(store, cfg, task.site)
    finally:
        extraction.close_stores()


def _largest_first(parts: dict[str, ImportPlan]) -> list[str]:
    """Sites by the bytes of their records, most first (a site's pages with many comments take
    longer than as many short ones): no worker is left with a big site while the others idle."""
    sizes = {
        site: sum(page.ref.size or 1 for pages in part.pages.values() for page in pages) for site, part in parts.items()
    }
    return sorted(parts, key=lambda site: (-sizes[site], site))


def import_on_dask(
    store: StoreBackend,
    client: Client,
    paths: list[str],
    *,
    batch_size: int = 10,
    progress: Callable[[str], None] | None = None,
    piece_bytes: int | None = None,
) -> tuple[ImportPlan, ImportReport]:
    """The import of jobs.warcimport.import_archives, its reading and extraction on `client`'s cluster
    (files read in pieces of `piece_bytes`, by default piece_size's)."""
    from distributed import as_completed

    say = progress or (lambda _text: None)
    cfg = extraction.JobConfig(store.location, batch_size=max(2, batch_size), known_before=to_iso(time.time()))

    def hashed_on_workers(found: list[str]) -> list[str]:  # seconds a GB: side by side, not here one by one
        return list(client.gather(client.map(file_sha256, found, pure=False)))

    files, already = archive_files(store, paths, hashed_on_workers)
    size = piece_bytes or piece_size(files, sum(client.nthreads().values()))
    index, tallies = read_indexes(client, files, say, size)
    plan = finish_plan(store, index, files, already, tallies)
    tally = plan.tally
    say(f"read {tally.records} records: {tally.pages} pages, {tally.feeds} feeds of {len(plan.sites)} sites")
    report = ImportReport(files=len(files), sites=len(plan.sites))
    parts = site_plans(plan)

    def task(site: str) -> SiteTask:
        return SiteTask(store.location, site, cfg.batch_size, cfg.known_before or "")

    importing = {
        client.submit(import_site_task, task(site), parts[site], pure=False, priority=len(parts) - i): site
        for i, site in enumerate(_largest_first(parts))
    }
    for number, future in enumerate(as_completed(importing), 1):
        done: ImportReport = _result(future, f"importing site {importing[future]}")
        report.pages += done.pages
        report.comment_feeds += done.comment_feeds
        report.extracted += done.extracted
        say(
            f"stored and extracted {number}/{len(parts)} sites ({importing[future]}): {report.pages} pages stored,"
            f" {report.extracted} extracted so far"
        )
    now = time.time()
    with store.transaction():  # every site stored: the files are imported
        for archive in files:
            record_file(store, plan, archive, now)
    left = [site for site in sites_to_extract(store, plan) if site not in parts]
    report.sites = len(parts) + len(left)
    if left:  # sites an import stopped before extracting
        prepare_extraction(store, cfg)
        tasks = {
            client.submit(extract_site_task, task(site), pure=False, priority=len(left) - i): site
            for i, site in enumerate(left)
        }
        for number, future in enumerate(as_completed(tasks), 1):
            report.extracted += _result(future, f"extracting site {tasks[future]}")
            say(f"extracted {number}/{len(left)} sites left by a stopped import ({tasks[future]})")
    return plan, report
