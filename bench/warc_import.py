"""Web archive import speed and memory: reading and grouping included, as ratios in one run.

    python bench/warc_import.py [--corpus ../shared/corpus] [--copies 2] [--repeat 3] [--dask]

The archive: the corpus' WordPress sites (30 pages each), `--copies` times over under other ports
(other sites to the site key), each page a WARC response record (gzip per record, warcio's writer),
the sites' pages interleaved as a crawl writes them. Prints (medians over --repeat runs, CPU time
of this process, so that other load on a shared machine disturbs the ratios less; 1 to 3 run in
turn, --repeat times, so that the machine's drift touches them alike):

1. lxml.html parse of every page, the baseline;
2. extraction alone: each site's pages, already in memory, extracted in sets of 10 as the crawl's
   batches (extractor.archives.warccli.extract_site_captures' work without the archive);
3. `python -m extractor warc`'s import: reading the archive (pass 1), grouping by site, reading
   each site's bodies again and extracting them (extractor.archives.warccli.extract_archives);
4. `scrapy import-warc`'s import into a new SQLite store (jobs.warcimport.import_archives:
   pages stored, batches, the crawl's extraction jobs);
pages/s of each, and 3 / 2 (target <= 1.5), 3 / 1, 4 / 2.
5. peak memory (max RSS, child processes) of 3 on archives of 1 and 4 x the sites: bounded by the
   largest site, it stays flat as the archive grows.
6. with --dask: wall time of `scrapy import-warc`'s import on LocalClusters of 1 and 2 workers, into
   a new SQLite store each run, of a larger archive (--dask-copies, by default twice --copies: the
   import's fixed costs, reading the plan and the barriers between its steps, would weigh more in
   a smaller one; the output says its size) written into 4 files (Dask reads them in pieces, then
   works site by site). Both clusters are started, and their workers' imports done, before any clock starts:
   that start-up is printed apart. The runs alternate 1, 2, 1, 2 ... workers --repeat times, each
   with the CPU seconds of the workers and of this process (scheduler, driver), the cores that
   makes, and the load average beside it (2 workers using well under 2 cores: the machine did not
   give them, or they waited); the fastest run of each counts (other load on a shared machine only
   ever slows a run down). Target: 2 workers >= 1.7 x one.

Measured 2026-11-28 on the 2-core development machine (load average 0.4 to 1.1), two runs of
`python bench/warc_import.py --dask`: import / extraction alone 1.39 and 1.35; Dask, 480 pages of
16 sites, 2 workers = 1.87 and 1.90 x one (1.82 to 1.89 cores used). Earlier runs of the same
session: 1.94, 1.99, and 1.84 on twice the archive (`--dask-copies 8`). Before that session's
changes: 1.66 to 1.72 x, and import / extraction alone 1.42 to 1.52. What changed: the workers of
a LocalCluster run without Dask's profiler (jobs.reextract_dask.QUIET_LOCAL_CLUSTER: two workers
used 4.3 CPU s for the import with it, 3.7 to 3.9 without); records inflated by ISA-L (the library
import 0.57 -> 0.51 CPU s, medians of 8 runs alternating the two); files read in pieces by every
worker, and hashed on the workers.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lxml.html
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

ROOT = Path(__file__).resolve().parents[1]
# The project, not bench/ (the script's folder, first on the path): bench/distributed.py would shadow Dask's.
sys.path[0] = str(ROOT)

from extractor import Page, extract_and_learn  # noqa: E402
from extractor.archives.warccli import extract_archives  # noqa: E402
from extractor.core.dates import clear_memos  # noqa: E402

BATCH = 10


def corpus_sites(corpus: Path, copies: int) -> list[list[tuple[str, bytes]]]:
    """[(url, body)] per site: each WordPress corpus site `copies` times, under ports of its own."""
    sites = []
    for copy in range(copies):
        for number, folder in enumerate(sorted((corpus / "wordpress").iterdir())):
            rows = [json.loads(line) for line in (folder / "truth.jsonl").open(encoding="utf-8")]
            port = 20000 + copy * 100 + number
            pages = []
            for row in rows:
                path = row["url"].split("/", 3)[3]
                pages.append((f"http://127.0.0.1:{port}/{path}", (folder / row["file"]).read_bytes()))
            sites.append(pages)
    return sites


def write_archive(sites: list[list[tuple[str, bytes]]], out: Path) -> int:
    """The sites' pages as WARC responses, interleaved site by site; returns the page count."""
    pages = 0
    with out.open("wb") as fh:
        writer = WARCWriter(fh, gzip=True, warc_version="1.1")
        for i in range(max(len(s) for s in sites)):
            for site in sites:
                if i >= len(site):
                    continue
                url, body = site[i]
                http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=UTF-8")], "HTTP/1.1")
                when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1_700_000_000 + i * 60))
                record = writer.create_warc_record(
                    url, "response", payload=io.BytesIO(body), http_headers=http, warc_headers_dict={"WARC-Date": when}
                )
                writer.write_record(record)
                pages += 1
    return pages


def cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def interleaved_medians(fns: list[Callable[[], object]], repeat: int) -> list[float]:
    """Each function's median CPU time, the functions run in turn `repeat` times (a drift of the
    machine's speed during the bench then touches every figure alike, not the later ones only)."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, taken in zip(fns, times, strict=True):
            clear_memos()  # every run starts cold, as an import meets new pages
            taken.append(cpu(fn))
    return [statistics.median(taken) for taken in times]


def parse_all(sites: list[list[tuple[str, bytes]]]) -> None:
    for site in sites:
        for _url, body in site:
            lxml.html.document_fromstring(body)


def extract_all(sites: list[list[tuple[str, bytes]]]) -> None:
    for site in sites:
        ordered = sorted(site)  # the archive's order: no feed, so by URL
        for start in range(0, len(ordered), BATCH):
            extract_and_learn([Page(url, body) for url, body in ordered[start : start + BATCH]])


def import_library(archive: Path) -> None:
    for _row in extract_archives([str(archive)], BATCH):
        pass


def import_store(archive: Path, folder: Path) -> None:
    from jobs import extraction
    from jobs.warcimport import import_archives
    from store import open_store

    db = folder / f"bench-{time.monotonic_ns()}.db"
    with open_store(db) as store:
        import_archives(store, [str(archive)], batch_size=BATCH)
    extraction.close_stores()


def child_peak_rss(archive: Path) -> int:
    """Peak RSS (KiB) of a child process running the library import of `archive`: its VmHWM, since
    ru_maxrss of a child started by a large parent may report the parent's peak."""
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from extractor.archives.warccli import extract_archives\n"
        f"for _ in extract_archives([{str(archive)!r}], {BATCH}): pass\n"
        "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip().splitlines()[-1])


def _warm() -> None:
    """A worker's imports (the extractor, its compiled parts, the store) before the clock starts."""
    import jobs.warcimport_dask  # noqa: F401


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _cluster_cpu(client: Any) -> float:
    """CPU seconds so far of the cluster's workers and of this process (its scheduler and the driver)."""
    return sum(client.run(_cpu_seconds).values()) + _cpu_seconds()


def dask_walls(archives: list[Path], folder: Path, counts: list[int], repeat: int) -> dict[int, float]:
    """The fastest wall time of the Dask import per worker count, the runs alternating between counts."""
    from contextlib import ExitStack

    from jobs.reextract_dask import dask_client
    from jobs.warcimport_dask import import_on_dask
    from store import open_store

    with ExitStack() as stack:
        clients = {}
        for n in counts:
            started = time.monotonic()
            clients[n] = stack.enter_context(dask_client(f"local:{n}"))
            clients[n].run(_warm)
            took = time.monotonic() - started
            print(f"Dask cluster of {n} worker(s) started and warmed up in {took:.1f} s (excluded)")
        walls: dict[int, list[float]] = {n: [] for n in counts}
        for run in range(repeat):
            for n in counts:
                with open_store(folder / f"dask-{n}-{run}.db") as store:
                    cpu = _cluster_cpu(clients[n])
                    started = time.monotonic()
                    import_on_dask(store, clients[n], [str(a) for a in archives], batch_size=BATCH)
                    walls[n].append(time.monotonic() - started)
                    cpu = _cluster_cpu(clients[n]) - cpu
                # Cores used below the workers' count: the machine did not give them (other load), or they waited.
                print(
                    f"  run {run + 1}, {n} worker(s): {walls[n][-1]:.1f} s, {cpu:.1f} CPU s (workers and this"
                    f" process), {cpu / walls[n][-1]:.2f} cores used (load average {os.getloadavg()[0]:.1f})"
                )
    return {n: min(times) for n, times in walls.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--copies", type=int, default=2, help="each corpus site this many times (other ports)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dask", action="store_true", help="also time the import on 1 and 2 Dask workers")
    ap.add_argument("--dask-copies", type=int, help="the Dask part's archive: each site this many times (2 x --copies)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sites = corpus_sites(a.corpus, a.copies)
        archive = folder / "bench.warc.gz"
        n = write_archive(sites, archive)
        size = archive.stat().st_size
        print(f"archive: {n} pages of {len(sites)} sites, {size / 1e6:.1f} MB (gzip per record)")
        parse, alone, library = interleaved_medians(
            [lambda: parse_all(sites), lambda: extract_all(sites), lambda: import_library(archive)], a.repeat
        )
        # Apart: a target compares only 3 and 2, and a parse run right after the store's writes was slower.
        (stored,) = interleaved_medians([lambda: import_store(archive, folder)], a.repeat)
        for name, seconds in (
            ("1. lxml parse", parse),
            ("2. extraction alone", alone),
            ("3. import (library: read, group, extract)", library),
            ("4. import into a store (scrapy import-warc)", stored),
        ):
            print(f"{name:46s} {seconds:7.2f} s CPU  {n / seconds:7.1f} pages/s")
        print(f"import / extraction alone: {library / alone:.2f} (target <= 1.5)")
        print(f"import / lxml parse: {library / parse:.2f}; extraction alone / lxml parse: {alone / parse:.2f}")
        print(f"store import / extraction alone: {stored / alone:.2f}")
        bigger = folder / "bigger.warc.gz"
        more = corpus_sites(a.corpus, a.copies * 4)
        write_archive(more, bigger)
        small_rss, big_rss = child_peak_rss(archive), child_peak_rss(bigger)
        print(
            f"peak RSS of the library import: {small_rss / 1024:.0f} MiB ({len(sites)} sites),"
            f" {big_rss / 1024:.0f} MiB ({len(more)} sites, 4 x the archive): x {big_rss / small_rss:.2f}"
        )
        if a.dask:
            dask_sites = corpus_sites(a.corpus, a.dask_copies or 2 * a.copies)
            parts = [folder / f"part{i}.warc.gz" for i in range(4)]
            pages = sum(write_archive(dask_sites[i::4], part) for i, part in enumerate(parts))
            print(f"Dask import: {pages} pages of {len(dask_sites)} sites in 4 files (gzip per record)")
            walls = dask_walls(parts, folder, [1, 2], a.repeat)
            one, two = walls[1], walls[2]
            print(
                f"Dask import wall time (fastest of {a.repeat}): 1 worker {one:.1f} s ({pages / one:.0f} pages/s),"
                f" 2 workers {two:.1f} s ({pages / two:.0f} pages/s): x {one / two:.2f} (target >= 1.7);"
                f" {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
            )
    print(f"(this process' peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
