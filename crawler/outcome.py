"""How a crawl run ends: store faults that stop it, its one-line summary and its exit code.

run_outcome({"blogs/feeds_polled": 3, "blogs/feeds_failed": 3})  # (1, 'every feed failed (3 of 3 polls)')

A store that cannot be written any more (disk full, I/O error, read-only, damaged) is a fault
of the whole run, not of one page: the first one is logged in one line, stops new fetches
(the spider is closed) and makes the run exit with EXIT_STORE. Transactions roll back, so what
was committed stays and what was not (pages, feed polls) is simply due again next run.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any

from scrapy import Spider
from scrapy.logformatter import LogFormatter, LogFormatterResult
from scrapy.utils.defer import _schedule_coro

from store import store_location
from store.faults import store_fault
from store.postgres import redact

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.python.failure import Failure

logger = logging.getLogger("blogs")

# Exit codes of `scrapy crawl blogs` (README, "Running it").
EXIT_OK = 0  # the run completed (some feeds may have failed: the summary says how many)
EXIT_FAILED = 1  # every feed polled failed, or the crawl crashed
EXIT_USAGE = 2  # bad arguments: the feeds file is missing, a directory, or lists no usable feed
EXIT_LOCKED = 3  # another crawl is using the store; nothing was touched
EXIT_STORE = 4  # the store could not be opened or written (path, permissions, disk full, damage)


def store_failed(crawler: Crawler | None) -> bool:
    """True once a store fault stopped this crawl (the spider then schedules nothing new)."""
    stats = crawler.stats if crawler is not None else None
    return bool(stats is not None and stats.get_value("blogs/store_failed"))


def report_store_fault(crawler: Crawler, exc: BaseException, doing: str) -> bool:
    """If `exc` is a store fault: count it, log the first one in one line and stop the crawl.

    Returns False (and does nothing) for any other exception, which the caller re-raises.
    """
    why = store_fault(exc)
    if why is None:
        return False
    stats = crawler.stats
    assert stats is not None
    first = not stats.get_value("blogs/store_failed")
    stats.inc_value("blogs/store_failed")
    if not first:
        logger.debug("Store write failed again while %s: %s", doing, why)
        return True
    stats.set_value("blogs/store_error", why)
    db = redact(store_location(crawler.settings.get("BLOGS_DB")))
    logger.error(
        "Cannot write the store %s while %s: %s; stopping the crawl (what is stored is kept, the rest is due again)",
        db,
        doing,
        why,
    )
    engine = crawler.engine
    if engine is not None and engine.spider is not None:
        _schedule_coro(_close(crawler))
    return True


async def _close(crawler: Crawler) -> None:
    assert crawler.engine is not None
    with suppress(RuntimeError):  # already closed meanwhile
        await crawler.engine.close_spider_async(reason="store_failed")


@contextmanager
def store_guard(crawler: Crawler, doing: str) -> Iterator[None]:
    """Turn a store fault raised inside the block into report_store_fault; other errors pass."""
    try:
        yield
    except Exception as exc:
        if not report_store_fault(crawler, exc, doing):
            raise


class StoreFaultLogFormatter(LogFormatter):
    """LOG_FORMATTER: a store fault raised by a spider callback or an item pipeline stops the crawl
    through report_store_fault (one line for the run); Scrapy's own record of it, with its
    traceback, goes to DEBUG. (Errbacks, start and idle handlers use store_guard.)"""

    crawler: Crawler | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StoreFaultLogFormatter:
        formatter = cls()
        formatter.crawler = crawler
        return formatter

    def _demoted(self, result: LogFormatterResult, exc: BaseException | None, doing: str) -> LogFormatterResult:
        if self.crawler is not None and exc is not None and report_store_fault(self.crawler, exc, doing):
            return {**result, "level": logging.DEBUG}
        return result

    def item_error(
        self, item: Any, exception: BaseException, response: Response | Failure | None, spider: Spider
    ) -> LogFormatterResult:
        doing = f"processing {getattr(item, 'url', type(item).__name__)}"
        return self._demoted(super().item_error(item, exception, response, spider), exception, doing)

    def spider_error(
        self, failure: Failure, request: Any, response: Response | Failure, spider: Spider
    ) -> LogFormatterResult:
        doing = f"handling {getattr(request, 'url', request)}"
        return self._demoted(super().spider_error(failure, request, response, spider), failure.value, doing)


def _count(stats: Mapping[str, Any], key: str) -> int:
    try:
        return int(stats.get(key) or 0)
    except (TypeError, ValueError):
        return 0


def summary_text(stats: Mapping[str, Any]) -> str:
    """The run's one-line summary from its stats (also stored in `runs.summary`)."""
    v = lambda key: _count(stats, f"blogs/{key}")  # noqa: E731
    polled, failed = v("feeds_polled"), v("feeds_failed")
    not_stored = v("pages_store_failed")
    refused = v("requests_refused_address")
    errors = _count(stats, "log_count/ERROR") + _count(stats, "log_count/CRITICAL")
    return (
        f"feeds ok {polled - failed} (not modified {v('feeds_not_modified')}), failed {failed},"
        f" muted {v('feeds_muted')} (muted in all {v('feeds_muted_total')}); new articles {v('articles_new')};"
        f" re-fetches {v('refetches')} (skipped {v('refetches_skipped')}); pages stored {v('pages_stored')}"
        + (f" (not stored {not_stored})" if not_stored else "")
        + f", fetches failed {v('articles_failed')}; comments new {v('comments_new')}, edited"
        f" {v('comments_edited')}, gone {v('comments_gone')}"
        + (f", not read on {v('comments_not_read')} pages (comments load by script)" if v("comments_not_read") else "")
        + ";"
        + (f" requests refused (not a public address) {v('requests_refused_address')};" if refused else "")
        + f" errors {errors};"
        f" {float(stats.get('blogs/run_seconds') or 0):.1f} s"
    )


def run_outcome(stats: Mapping[str, Any], crash: BaseException | None = None) -> tuple[int, str]:
    """The exit code of a finished run and why, in words ("" for a clean run)."""
    if crash is not None:
        why = store_fault(crash)
        if why is not None:
            return EXIT_STORE, f"the store could not be written ({why})"
        return EXIT_FAILED, f"the crawl failed: {type(crash).__name__}: {crash}"
    if _count(stats, "blogs/store_failed"):
        return EXIT_STORE, f"stopped: the store could not be written ({stats.get('blogs/store_error')})"
    reason = stats.get("finish_reason")
    if reason == "already_running":
        return EXIT_LOCKED, "another crawl is using the store"
    if reason == "no_feeds":
        return EXIT_USAGE, "no usable feed to poll"
    if reason == "start_error":
        return EXIT_FAILED, "the run could not start (see the error above)"
    polled, failed = _count(stats, "blogs/feeds_polled"), _count(stats, "blogs/feeds_failed")
    if polled and failed >= polled:
        return EXIT_FAILED, f"every feed failed ({failed} of {polled} polls)"
    if failed:
        return EXIT_OK, f"{failed} of {polled} feed polls failed"
    return EXIT_OK, ""


def final_line(stats: Mapping[str, Any], crash: BaseException | None = None) -> tuple[int, int, str]:
    """(exit code, log level, text) of the run's last log line: its summary and its exit code.

    INFO for a clean run, WARNING when something failed but the run did its job, ERROR when it
    exits non-zero.
    """
    code, why = run_outcome(stats, crash)
    troubled = (
        why
        or _count(stats, "blogs/articles_failed")
        or _count(stats, "log_count/ERROR")
        or _count(stats, "blogs/pages_store_failed")
    )
    level = logging.ERROR if code else logging.WARNING if troubled else logging.INFO
    return code, level, f"Run summary: {summary_text(stats)}; exit {code}" + (f": {why}" if why else "")


def log_always(level: int, msg: str, *args: Any) -> None:
    """Log one record to the root handlers whatever LOG_LEVEL is (`-L WARNING` still shows it);
    nothing with --nolog (then there is no handler)."""
    record = logger.makeRecord(logger.name, level, __file__, 0, msg, args, None)
    for handler in logging.getLogger().handlers:
        handler.handle(record)
