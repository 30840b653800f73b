"""`scrapy copy TARGET`: copy the store at BLOGS_DB, every row, into TARGET (a file path or a postgresql:// URL).

scrapy copy postgresql://harvester@db.example.org/blogs -s BLOGS_DB=blogs.db

How a store moves from SQLite to PostgreSQL (or back, or to a new file). The source is opened
read-only; the target is created or upgraded, and rows it already holds are kept, so an
interrupted copy is finished by running it again. A crawl must not be writing the target.
"""

from __future__ import annotations

import argparse
import sys
import time

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from commands import StoreCommand
from crawler.outcome import EXIT_LOCKED
from store import StoreError, open_store, store_location
from store.copy import copy_store
from store.lockfile import run_lock
from store.postgres import redact


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "TARGET"

    def short_desc(self) -> str:
        return "Copy the whole store into TARGET (a file path or a postgresql:// URL), e.g. SQLite to PostgreSQL"

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one target: a file path or a postgresql:// URL")
        target_location = store_location(args[0]) if "://" in args[0] else args[0]
        if target_location == store_location(self.settings.get("BLOGS_DB")):
            raise UsageError("the target is the store itself: give another file or database")
        # Neither store may be written while it is copied: the source (docs/scaling.md) nor the target.
        source_location = store_location(self.settings.get("BLOGS_DB"))
        locks = [run_lock(where, purpose="copy") for where in (source_location, target_location)]
        for where, lock in zip((source_location, target_location), locks, strict=True):
            try:
                taken = lock.acquire()
            except OSError as exc:
                taken = None
                problem = f"{redact(where)}: {exc}"
            else:
                problem = f"a crawl is using {redact(where)} ({lock.holder()}); copy when it has finished"
            if not taken:
                for held in locks:
                    held.release()
                sys.stderr.write(f"scrapy copy: error: {problem}\n")
                raise SystemExit(EXIT_LOCKED if taken is False else 1)
        started = time.monotonic()
        try:
            with self.reported(), self.open() as source:
                try:
                    target = open_store(target_location)
                except StoreError as exc:
                    raise SystemExit(f"scrapy copy: error: {exc}") from None
                with target:
                    try:
                        report = copy_store(source, target)
                    except StoreError as exc:
                        raise SystemExit(f"scrapy copy: error: {exc}") from None
        finally:
            for lock in locks:
                lock.release()
        if self.exitcode:
            return
        rows, new = sum(report.read.values()), sum(report.written.values())
        print(
            f"copied {rows} rows of {len(report.read)} tables to {redact(target_location)}"
            f" ({new} new, {report.read.get('snapshots', 0)} pages) in {time.monotonic() - started:.1f} s",
            file=sys.stdout,
        )
