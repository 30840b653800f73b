"""`scrapy reextract [--site S] [--since T] [--dask ADDRESS|local:N]`: rebuild posts and comments
from the stored snapshots, offline; in this process, or one task per site on a Dask cluster
(jobs.reextract_dask: resumable, a line per finished site on stderr).

Takes the crawl lock (a crawl writing at the same time would race with it); the query commands
do not need it.
"""

from __future__ import annotations

import argparse
import sys
import time

from scrapy.commands import ScrapyCommand

from commands import StoreCommand
from crawler.outcome import EXIT_LOCKED
from jobs.reextract import ReextractReport, reextract
from jobs.reextract_dask import ReextractFailed, check_address, dask_client, reextract_on_dask
from store import StoreBackend, StoreError, store_location
from store.lockfile import run_lock
from store.postgres import redact
from store.query import parse_since
from store.reextractions import Plan
from store.storefile import is_database_url


def _address(text: str) -> str:
    try:
        return check_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S] [--since T] [--dask ADDRESS|local:N]"

    def short_desc(self) -> str:
        return "Re-extract every post and comment from stored pages (no network)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--site", help="only this site")
        parser.add_argument("--since", help="only pages fetched at or after this time (as posts --since)")
        parser.add_argument(
            "--dask",
            type=_address,
            metavar="ADDRESS",
            help="one task per site on this Dask scheduler (tcp://host:8786), or local:N worker processes",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        try:
            path = store_location(self.settings.get("BLOGS_DB"))
        except StoreError as exc:
            raise SystemExit(f"scrapy reextract: error: {exc}") from None
        lock = run_lock(path, purpose="reextract")
        shown = redact(path)  # no password in messages
        try:
            taken = lock.acquire()
        except OSError as exc:  # e.g. a read-only folder: reextract rewrites the store, so it must stop here
            if is_database_url(path):
                raise SystemExit(f"scrapy reextract: error: {shown}: cannot connect: {exc}") from None
            raise SystemExit(f"scrapy reextract: error: cannot write beside {path}: {exc.strerror}") from None
        if not taken:  # one line, no usage banner: the command was right, the moment was not
            busy = f"a crawl is using {shown} ({lock.holder()})"
            sys.stderr.write(f"scrapy reextract: error: {busy}; run reextract when it has finished\n")
            raise SystemExit(EXIT_LOCKED)
        started = time.monotonic()
        report: ReextractReport | None = None
        try:
            with self.open(write=True) as store, self.reported():
                report = self._dask(store, opts) if opts.dask else self._here(store, opts)
        finally:
            lock.release()
        if report is None:
            return  # reported: exit code set
        print(
            f"re-extracted {report.pages} pages of {report.sites} sites ({report.batches} batches,"
            f" {report.profiles} profiles) in {time.monotonic() - started:.1f} s"
        )

    def _here(self, store: StoreBackend, opts: argparse.Namespace) -> ReextractReport:
        def progress(site: str, report: ReextractReport) -> None:
            print(f"{site}: done ({report.pages} pages so far)", flush=True)

        since = parse_since(opts.since) if opts.since else None
        size = self.settings.getint("BLOGS_BATCH_SIZE", 10)
        return reextract(store, site=opts.site, batch_size=size, progress=progress, since=since)

    def _dask(self, store: StoreBackend, opts: argparse.Namespace) -> ReextractReport | None:
        def progress(site: str, report: ReextractReport, done: int, total: int) -> None:
            print(f"{site}: done ({done}/{total} sites, {report.pages} pages so far)", file=sys.stderr, flush=True)

        def planned(plan: Plan) -> None:
            if plan.resumed:
                done, total = len(plan.done), len(plan.done) + len(plan.todo)
                print(
                    f"resuming the re-extraction started {plan.started}: {done} of {total} sites already done",
                    file=sys.stderr,
                    flush=True,
                )

        # What the store can refuse is refused before a cluster starts.
        if opts.since:
            parse_since(opts.since)
        if opts.site:
            store.check_site(opts.site)
        try:
            with dask_client(opts.dask) as client:
                workers = len(client.nthreads())
                shown = f"{workers} worker{'s' if workers != 1 else ''}"
                print(f"re-extracting on {opts.dask} ({shown})", file=sys.stderr, flush=True)
                report, _plan = reextract_on_dask(
                    store,
                    client,
                    site=opts.site,
                    since_text=opts.since,
                    batch_size=self.settings.getint("BLOGS_BATCH_SIZE", 10),
                    progress=progress,
                    planned=planned,
                )
        except ReextractFailed as exc:
            sys.stderr.write(f"scrapy reextract: error: {exc}\n")
            self.exitcode = 1
            return None
        except OSError as exc:  # no scheduler there, or the cluster could not start
            sys.stderr.write(f"scrapy reextract: error: Dask at {opts.dask}: {exc}\n")
            self.exitcode = 1
            return None
        return report
