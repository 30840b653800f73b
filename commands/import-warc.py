"""`scrapy import-warc [--dask ADDRESS|local:N] FILES…`: web archives (WARC/ARC) into the store, then
posts and comments extracted by site set as the crawl does (jobs.warcimport; on a Dask
cluster by file, then by site: jobs.warcimport_dask). Files imported before are skipped.

Progress goes to stderr (files, records, sites); damaged records are counted and skipped with one
warning line per file. Exit 2: a file is missing or not a file (nothing is imported); exit 1: no
file held a readable record, or the store cannot be opened. The module's name is the command's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from commands import StoreCommand
from jobs.reextract_dask import check_address, dask_client
from jobs.warcimport import ImportPlan, ImportReport, import_archives
from jobs.warcimport_dask import ImportFailed, import_on_dask
from store import StoreBackend, StoreError, open_store, store_location
from store.lockfile import run_lock
from store.postgres import redact


def _address(text: str) -> str:
    try:
        return check_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--dask ADDRESS|local:N] FILE [FILE ...]"

    def short_desc(self) -> str:
        return "Import web archives (WARC/ARC files) and extract their blogs' posts and comments"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--dask",
            type=_address,
            metavar="ADDRESS",
            help="read files and extract sites on this Dask scheduler (tcp://host:8786), or local:N worker processes",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args:
            raise UsageError("give one or more WARC files, e.g. scrapy import-warc crawl.warc.gz")
        for arg in args:
            if not Path(arg).is_file():
                what = "a folder, not a file" if Path(arg).is_dir() else "no such file"
                raise UsageError(f"{arg}: {what}", print_help=False)
        try:
            location = store_location(self.settings.get("BLOGS_DB"))
        except StoreError as exc:
            raise SystemExit(f"scrapy import-warc: error: {exc}") from None
        lock = run_lock(location)
        try:
            taken = lock.acquire()
        except OSError as exc:
            raise SystemExit(f"scrapy import-warc: error: cannot lock {redact(location)}: {exc}") from None
        if not taken:
            raise UsageError(f"a crawl is using {redact(location)} ({lock.holder()}); import when it has finished")
        started = time.monotonic()
        try:
            try:
                store = open_store(location)
            except StoreError as exc:
                raise SystemExit(f"scrapy import-warc: error: {exc}") from None
            with store, self.reported():
                try:
                    plan, report = self._import(store, args, opts)
                except OSError as exc:  # unreadable file (permissions, I/O): it is not recorded as imported
                    what = f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc)
                    raise SystemExit(f"scrapy import-warc: error: {what}") from None
                self._summary(plan, report, time.monotonic() - started)
        finally:
            lock.release()

    def _import(
        self, store: StoreBackend, args: list[str], opts: argparse.Namespace
    ) -> tuple[ImportPlan, ImportReport]:
        size = self.settings.getint("BLOGS_BATCH_SIZE", 10)
        if not opts.dask:
            return import_archives(store, args, batch_size=size, progress=_say)
        try:
            with dask_client(opts.dask) as client:
                _say(f"importing on {opts.dask} ({len(client.nthreads())} workers)")
                return import_on_dask(store, client, args, batch_size=size, progress=_say)
        except ImportFailed as exc:
            raise SystemExit(f"scrapy import-warc: error: {exc}") from None
        except OSError as exc:  # no scheduler there, or the cluster could not start
            raise SystemExit(f"scrapy import-warc: error: Dask at {opts.dask}: {exc}") from None

    def _summary(self, plan: ImportPlan, report: ImportReport, seconds: float) -> None:
        for path in plan.already:
            _say(f"{path}: imported before, skipped")
        for path, tally in plan.tallies.items():
            if tally.skipped:
                _say(f"warning: {path}: {tally.skipped_text()}; the rest was imported")
        tally = plan.tally
        print(
            f"imported {report.files} files ({tally.records} records, {report.pages} pages,"
            f" {report.comment_feeds} comment feeds) of {report.sites} sites, {report.extracted} pages extracted"
            f" in {seconds:.1f} s" + (f"; {tally.skipped_text()}" if tally.skipped else "")
        )
        if plan.files and not tally.records:
            _say("scrapy import-warc: error: no readable WARC or ARC record in the files given")
            self.exitcode = 1
