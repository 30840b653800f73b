"""`scrapy crawl blogs`: Scrapy's crawl command with the lock first, the summary last, exit codes.

scrapy crawl blogs -a feeds=feeds.txt -s BLOGS_DB=blogs.db; echo $?   # 0 1 2 3 4: crawler.outcome

Before any crawler component exists it checks the feeds file, takes the run lock and opens the
store (creating or upgrading its schema): a second run, a missing feeds file or a store that
cannot be created ends here in one line, having started nothing (no pipeline, no extraction
worker, no write). After the crawl, the run's summary and exit code are its last log line,
shown at any LOG_LEVEL. Other spiders run as with Scrapy's own command.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError
from twisted.internet.defer import Deferred
from twisted.python.failure import Failure

from crawler.feedsfile import FeedsFile, FeedsFileError, load_feeds_file
from crawler.outcome import (
    EXIT_LOCKED,
    EXIT_STORE,
    EXIT_USAGE,
    final_line,
    log_always,
)
from crawler.spiders.blogs import BlogsSpider, feeds_file_path
from crawler.validation import SettingError, accept_old_names, check_arguments, check_settings, unknown_settings
from store import StoreError, open_store, store_location
from store.faults import STORE_OPEN_ERRORS, store_fault
from store.lockfile import RunLock, holder_task, run_lock
from store.pglock import PgRunLock
from store.postgres import redact

if TYPE_CHECKING:
    import argparse

    from scrapy.crawler import Crawler


class RunRefused(Exception):
    """The run cannot start; `code` is its exit code, the message one line for the log."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror + (f": {exc.filename}" if exc.filename else "")
    return str(exc) or type(exc).__name__


def prepare_run(settings: Any, spider_args: dict[str, str]) -> RunLock | PgRunLock:
    """Check the feeds file, take the store's run lock, open (create, upgrade) the store.

    Returns the held lock; RunRefused when the run must not start. The feeds file is checked
    first and the lock taken before the store is opened, so a refused run writes nothing.
    """
    for warning in accept_old_names(settings):
        log_always(logging.WARNING, "%s", warning)
    try:
        checked = check_settings(settings)
        arguments = check_arguments(spider_args)
    except SettingError as exc:
        raise RunRefused(EXIT_USAGE, f"Cannot crawl: {exc}") from None
    for warning in unknown_settings(settings):
        log_always(logging.WARNING, "%s", warning)
    feeds = feeds_file_path(arguments.get("feeds"), settings.get("BLOGS_FEEDS"))
    try:
        parsed = load_feeds_file(feeds)
    except FeedsFileError as exc:
        raise RunRefused(EXIT_USAGE, f"Cannot crawl: {exc}") from None
    if arguments.get("unmute"):
        problem = unmute_problem(arguments["unmute"], parsed, feeds)
        if problem:
            raise RunRefused(EXIT_USAGE, f"Cannot crawl: {problem}")
    try:
        db = store_location(settings.get("BLOGS_DB"))
    except StoreError as exc:
        raise RunRefused(EXIT_STORE, f"Cannot crawl: {exc}") from None
    shown = redact(db)  # no password in messages
    logging.getLogger("blogs").info(
        "Crawling %s into the store %s; mode: %s", feeds, shown, run_mode(arguments, checked)
    )
    lock = run_lock(db, shared=True)  # PostgreSQL: crawler workers share the store (store.leases)
    try:
        taken = lock.acquire()
    except OSError as exc:
        what = "cannot connect" if isinstance(lock, PgRunLock) else "cannot create its lock file"
        raise RunRefused(EXIT_STORE, f"Cannot crawl into {shown}: {what} ({_why(exc)})") from None
    if not taken:
        holder = lock.holder()
        task = holder_task(holder)
        who = "Another crawl" if task == "crawl" else f"`scrapy {task}`"
        raise RunRefused(EXIT_LOCKED, f"{who} is using {shown} ({holder}); this run exits without touching it")
    try:
        open_store(db).close()
    except STORE_OPEN_ERRORS as exc:
        lock.release()
        raise RunRefused(EXIT_STORE, f"Cannot crawl into {shown}: cannot open the store ({_why(exc)})") from None
    return lock


def unmute_problem(wanted: str, parsed: FeedsFile, path: Path) -> str:
    """Why `-a unmute=wanted` names nothing to unmute ("" when it names all, a feed URL or a site of the file)."""
    known = [source.url for source in parsed.sources] + [source.name for source in parsed.sources]
    if wanted in ("1", "all") or wanted in known:
        return ""
    close = difflib.get_close_matches(wanted, known, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"spider argument -a unmute={wanted!r} names no feed URL or site of {path}{hint}; give all, a URL or a site"


def run_mode(arguments: dict[str, Any], settings: dict[str, Any]) -> str:
    """The run's mode in words: "once (cron)" or "watch", and what changes it (force, unmute, shard, no extraction)."""
    words = ["watch (until stopped)" if arguments.get("watch") else "once (cron)"]
    if arguments.get("force"):
        words.append("force: every feed polled now")
    if arguments.get("unmute"):
        words.append(f"unmute {arguments['unmute']}")
    if arguments.get("shard"):
        words.append("shard {}/{}".format(*arguments["shard"]))
    if not settings.get("BLOGS_EXTRACT_ENABLED", True):
        words.append("no extraction (BLOGS_EXTRACT_ENABLED off)")
    return ", ".join(words)


class Command(ScrapyCrawlCommand):
    def long_desc(self) -> str:
        return (
            "Run a spider of the project. For `blogs`: exit 0 when the run completed (some feeds may have"
            " failed), 1 when every feed failed or the crawl crashed, 2 for a setting or spider argument that is"
            " not valid, or a feeds file that is missing or lists no usable feed, 3 when another crawl is using"
            " the store, 4 when the store cannot be opened or written (e.g. disk full). The last log line is"
            " the run's summary."
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1 or args[0] != BlogsSpider.name:
            super().run(args, opts)
            return
        assert self.crawler_process is not None
        try:
            lock = prepare_run(self.settings, opts.spargs)
        except RunRefused as refused:
            log_always(logging.ERROR, "%s", refused)
            self.exitcode = refused.code
            return
        crash: list[BaseException] = []
        try:
            crawler = self._create_crawler(args[0])
            _catch_crash(self.crawler_process.crawl(crawler, **opts.spargs), crash)
            self.crawler_process.start()
        finally:
            lock.release()
        self.exitcode, level, text = final_line(_stats(crawler), crash[0] if crash else None)
        if crash and store_fault(crash[0]) is None:
            logging.getLogger("blogs").debug("The crawl failed", exc_info=crash[0])
        log_always(level, "%s", text)


def _catch_crash(running: Any, crash: list[BaseException]) -> None:
    """Keep the exception a crawl ended with (for the exit code and one line), so that neither
    asyncio ("Task exception was never retrieved") nor Twisted logs it as unhandled."""

    def task_done(task: asyncio.Future[Any]) -> None:
        exc = None if task.cancelled() else task.exception()  # retrieved: asyncio logs nothing
        if exc is not None:
            crash.append(exc)

    def failed(failure: Failure) -> None:
        if failure.value is not None:
            crash.append(failure.value)

    if isinstance(running, asyncio.Future):
        running.add_done_callback(task_done)
    elif isinstance(running, Deferred):
        running.addErrback(failed)
    else:  # pragma: no cover -- Scrapy returns a Task or a Deferred
        raise UsageError(f"unexpected crawl handle {running!r}")


def _stats(crawler: Crawler) -> dict[str, Any]:
    return dict(crawler.stats.get_stats()) if crawler.stats is not None else {}
