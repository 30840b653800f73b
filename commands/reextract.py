"""`scrapy reextract [--site S]`: rebuild posts and comments from the stored snapshots, offline.

Takes the crawl lock (a crawl writing at the same time would race with it); the query commands
do not need it.
"""

from __future__ import annotations

import argparse
import time

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from commands import StoreCommand
from crawler.lock import run_lock
from pipelines.reextract import ReextractReport, reextract
from store import StoreError, store_location
from store.postgres import is_database_url, redact


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S]"

    def short_desc(self) -> str:
        return "Re-extract every post and comment from stored pages (no network)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--site", help="only this site")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        try:
            path = store_location(self.settings.get("BLOGS_DB"))
        except StoreError as exc:
            raise SystemExit(f"scrapy reextract: error: {exc}") from None
        lock = run_lock(path)
        shown = redact(path)  # no password in messages
        try:
            taken = lock.acquire()
        except OSError as exc:  # e.g. a read-only folder: reextract rewrites the store, so it must stop here
            if is_database_url(path):
                raise SystemExit(f"scrapy reextract: error: {shown}: cannot connect: {exc}") from None
            raise SystemExit(f"scrapy reextract: error: cannot write beside {path}: {exc.strerror}") from None
        if not taken:
            raise UsageError(f"a crawl is using {shown} ({lock.holder()}); run reextract when it has finished")
        started = time.monotonic()
        try:
            with self.open(write=True) as store:

                def progress(site: str, report: ReextractReport) -> None:
                    print(f"{site}: done ({report.pages} pages so far)", flush=True)

                report = reextract(
                    store, site=opts.site, batch_size=self.settings.getint("BATCH_SIZE", 10), progress=progress
                )
        finally:
            lock.release()
        print(
            f"re-extracted {report.pages} pages of {report.sites} sites ({report.batches} batches,"
            f" {report.profiles} profiles) in {time.monotonic() - started:.1f} s"
        )
