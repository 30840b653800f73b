"""Extraction pipeline: batches per site, site profiles, comment feeds; the work runs off the reactor.

ExtractPipeline(db_path="blogs.db", batch_size=10, mode="process", workers=1)

Runs after PersistPagePipeline (each page is already committed, `item.snapshot_id` set). On the
reactor thread it only does cheap bookkeeping: a first fetch joins its site's open batch
(store.batches); then jobs (jobs.extraction) go to a worker pool and the item passes on at
once, so crawling never waits for extraction:

* a batch that became full: `extract_site` on it, the site's next profile version (a site's
  batches one at a time, in order: each inherits from the profile before it);
* any page of a site that has a profile (new page or re-fetch): extracted at once with it;
  a page that matches the profile poorly (template drift) makes the worker re-learn it;
* a comment feed (`CommentFeedItem`, already committed raw by PersistPagePipeline): its entries
  are parsed and stored as the check on the comments.

A job that fails (an exception, or its worker process died) is retried up to `MAX_ATTEMPTS`
times; each failure is logged and counted (`blogs/extract/job_errors`, `job_retries`,
`job_gave_up`), a comment feed's also in its `comment_feed_fetches` row. `close_spider` waits
for every job, re-extracts with the newest profile the pages an older version extracted in
this run (which version a page got depended on timing), then compares comments with comment
feeds per site and warns where the agreement fell; a site that falls idle earlier (nothing due, no
request in flight: crawler.leasing) is settled then (`site_done`), so that extraction runs beside
the crawl, and the end skips it; the crawl keeps the site's lease while its jobs run here
(`sites_extracting`), so no other worker waits on their writes. A run killed meanwhile loses nothing:
`open_spider` processes stored comment feeds not processed yet, batches stored pages that were
not batched, re-runs full batches and extracts pending pages.

Thread or process? Measured with `bench/crawl_speed.py` on 2 cores, 3000 pages of generated
blogs (pages per second as a ratio to a plain Scrapy spider fetching the same pages):

    project settings (polite)     process 0.96   thread 0.94   (plain spider 39.5 pages/s)
    unthrottled (CPU-bound)       process 0.48   thread 0.35   store only 0.91 (plain 242 pages/s)

lxml parsing releases the GIL only in part; block building, matching and comment splitting are
pure Python and hold it, so an extraction thread slows the reactor's own Python work, while a
worker process only shares the CPU. Process workers are the default (`BLOGS_EXTRACT_MODE`).
"""

from __future__ import annotations

import ctypes
import dataclasses
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred, DeferredList
from twisted.python.failure import Failure

from crawler.items import CommentFeedItem, PageItem, TemplatePageItem
from crawler.leasing import site_idle, sites_extracting
from jobs import extraction
from store import StoreBackend, open_store, store_location
from store.clock import to_iso
from store.faults import store_fault
from store.pglock import follow_crawl_lock
from store.storefile import is_database_url

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

MODES = ("process", "thread")
CHECK_EVERY = 3600.0  # seconds between comment-feed checks in a long (watch mode) run
MAX_ATTEMPTS = 3  # tries of a job before it is given up (the next run tries again what it left)
_RETRYING = object()  # what _failed returns when it resubmitted the job
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def _watch_parent(parent: int) -> None:
    # A worker whose crawler died (kill -9) must not linger: nobody would ever stop it.
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)


def _die_with_parent(parent: int) -> None:
    """Linux: the kernel kills this worker (SIGKILL) the moment the crawl that started it dies, even
    while the worker is inside a long C call or stopped, so it never writes after the crawl's lock is
    gone. Elsewhere the watch thread below is all there is."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # no prctl: not Linux
        return
    if os.getppid() != parent:  # the crawl died before the request took effect
        os._exit(0)


def _init_worker(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the crawl gracefully; workers finish their job
    _die_with_parent(parent)
    follow_crawl_lock(parent)  # PostgreSQL: write only while the crawl holds its lock (a restart ends it)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="watch-parent").start()


T = TypeVar("T")


def deferred_from_future(future: Future[T]) -> Deferred[T]:
    """A Deferred that fires on the reactor thread with a worker's result (or its failure)."""
    from twisted.internet import reactor

    d: Deferred[T] = Deferred()

    def done(f: Future[T]) -> None:
        exc = f.exception()
        if exc is not None:
            reactor.callFromThread(d.errback, Failure(exc))  # type: ignore[attr-defined]
        else:
            reactor.callFromThread(d.callback, f.result())  # type: ignore[attr-defined]

    future.add_done_callback(done)
    return d


class Workers:
    """A pool of extraction workers (processes or threads) whose results arrive as Deferreds."""

    def __init__(self, mode: str, count: int) -> None:
        if mode not in MODES:
            raise ValueError(f"BLOGS_EXTRACT_MODE must be one of {MODES}, not {mode!r}")
        self.mode, self.count = mode, max(1, count)
        self.executor: Executor | None = None

    def _executor(self) -> Executor:
        if self.executor is None:  # created on first use: a run with nothing to extract starts no process
            if self.mode == "process":
                self.executor = ProcessPoolExecutor(
                    self.count,
                    mp_context=multiprocessing.get_context("spawn"),  # forking a process with a reactor is unsafe
                    initializer=_init_worker,
                    initargs=(os.getpid(),),
                )
            else:
                self.executor = ThreadPoolExecutor(self.count, thread_name_prefix="extract")
        return self.executor

    def submit(self, fn: Callable[..., extraction.JobReport], *args: Any) -> Deferred[extraction.JobReport]:
        try:
            future = self._executor().submit(fn, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start a new pool
            broken, self.executor = self.executor, None
            if broken is not None:
                broken.shutdown(wait=False)
            future = self._executor().submit(fn, *args)
        return deferred_from_future(future)

    def shutdown(self) -> None:
        if self.executor is not None:
            if self.mode == "thread":
                for _ in range(self.count):  # each worker thread closes its own connections
                    self.executor.submit(extraction.close_stores)
            self.executor.shutdown(wait=True)
            self.executor = None


class ExtractPipeline:
    """Batch, extract and check pages off the reactor; see the module docstring."""

    def __init__(
        self,
        db_path: str,
        batch_size: int = 10,
        mode: str = "process",
        workers: int = 1,
        drift_threshold: float = 0.5,
        agreement_min: float = 0.8,
        agreement_drop: float = 0.15,
        stats: StatsCollector | None = None,
    ) -> None:
        self.config = extraction.JobConfig(db_path, max(2, batch_size), drift_threshold)
        self.workers = Workers(mode, workers)
        self.agreement_min, self.agreement_drop = agreement_min, agreement_drop
        self.stats = stats
        self.store: StoreBackend | None = None
        self.profiled: set[str] = set()  # sites with a profile
        self.pending: set[Deferred[Any]] = set()
        self.site_jobs: Counter[str] = Counter()  # site -> its jobs submitted and not ended
        self.feed_site: dict[int, str] = {}  # comment feed fetch id -> its site
        self.feed_sites: set[str] = set()  # comment feeds read since the last check
        self.last_check = time.monotonic()
        self.batch_busy: set[str] = set()  # sites with a batch job running
        self.batch_queue: dict[str, list[int]] = {}  # site -> its batches waiting, in order
        self.batch_site: dict[int, str] = {}
        self.run_snapshots_after = 0  # snapshots above this id were stored by this run
        self.run_sites: set[str] = set()  # sites this run stored pages of
        self.settled: dict[str, int] = {}  # site -> its newest snapshot settled when it fell idle
        self.settle_after_batches: set[str] = set()  # sites that fell idle while a batch of theirs ran
        # A PostgreSQL store may have other crawler workers: the end-of-run sweep keeps to this run's
        # sites (the others are theirs); on SQLite this run is the only crawl and sweeps every site.
        self.sweep_every_site = not is_database_url(db_path)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractPipeline:
        s = crawler.settings
        if not s.getbool("BLOGS_EXTRACT_ENABLED", True):
            raise NotConfigured("BLOGS_EXTRACT_ENABLED is off: pages are stored, not extracted")
        pipeline = cls(
            db_path=store_location(s.get("BLOGS_DB")),
            batch_size=s.getint("BLOGS_BATCH_SIZE", 10),
            mode=s.get("BLOGS_EXTRACT_MODE", "process"),
            workers=s.getint("BLOGS_EXTRACT_WORKERS", 1),
            drift_threshold=s.getfloat("BLOGS_EXTRACT_DRIFT_THRESHOLD", 0.5),
            agreement_min=s.getfloat("BLOGS_COMMENT_FEED_AGREEMENT_MIN", 0.8),
            agreement_drop=s.getfloat("BLOGS_COMMENT_FEED_AGREEMENT_DROP", 0.15),
            stats=crawler.stats,
        )
        crawler.signals.connect(pipeline.site_done, signal=site_idle)
        crawler.signals.connect(pipeline.sites_extracting, signal=sites_extracting)
        return pipeline

    def _inc(self, key: str, count: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"blogs/extract/{key}", count)

    # -- lifecycle -------------------------------------------------------------------------

    def open_spider(self) -> None:
        self.store = open_store(self.config.db_path)
        self.profiled = self.store.sites_with_profile()
        # Other sites' comment identifiers as they were when the run started: what a batch
        # learns must not depend on which other site's batch happened to finish first.
        self.config = dataclasses.replace(self.config, known_before=to_iso(time.time()))
        self.run_snapshots_after = self.store.max_snapshot_id()
        # Whatever a killed run left: comment feeds not parsed (first: batches use them as
        # evidence), unbatched first fetches, full batches, pages never extracted.
        for fetch_id in self.store.unprocessed_comment_feeds(MAX_ATTEMPTS):
            self._submit(extraction.run_feed, fetch_id)
        try:
            self.store.assign_unbatched(self.config.batch_size, time.time())
        except Exception as exc:  # a full disk: the crawl stops at its own first write (crawler.outcome)
            if store_fault(exc) is None:
                raise
        # Another live worker's full batches are its own to extract (waiting for its writes would
        # stall this one: a paused worker holds its sites' locks).
        full = {batch: (self.store.batch(batch) or {}).get("site", "") for batch in self.store.full_batches()}
        free = self.store.unheld_sites(sorted(set(full.values())))
        for batch, site in full.items():
            if site in free:
                self._submit_batch(batch, site)
        for site in sorted(self.store.unheld_sites(sorted(self.profiled))):
            self._submit(extraction.run_pending, site)

    async def close_spider(self) -> None:
        if self.store is not None:
            # Nothing is in flight any more: batches that waited for a comment feed that never
            # came are full now.
            try:
                for batch in self.store.assign_unbatched(self.config.batch_size, time.time()):
                    self._submit_batch(batch)
            except Exception as exc:  # a full disk: the crawl reported it already (crawler.outcome)
                if store_fault(exc) is None:
                    raise
        while self.pending:
            await maybe_deferred_to_future(DeferredList(list(self.pending), consumeErrors=True))
        self._settle_run()
        while self.pending:
            await maybe_deferred_to_future(DeferredList(list(self.pending), consumeErrors=True))
        try:
            self._check_feeds()
        except Exception as exc:  # a full disk: the crawl reported it already (crawler.outcome)
            if store_fault(exc) is None:
                raise
        finally:
            self.workers.shutdown()
            if self.store is not None:
                self.store.close()
                self.store = None

    def _settle_run(self) -> None:
        """Re-extract, with the site's newest profile, this run's pages and the pages of batches not
        full yet that a profile extracted before it existed: which version they got depended on
        job timing (and on where a killed run stopped); with the newest they are what the same
        pages always give. `run_pages` skips those the newest profile extracted already. A site
        settled when the crawl gave it back (`site_done`) is skipped unless it has new pages since."""
        if self.store is None:
            return
        rows = self.store.unsettled_snapshots(self.run_snapshots_after)
        if not self.sweep_every_site:
            # This run's sites, and those a killed worker stored and never extracted (issue 35: the
            # articles without a post after a kill): no one else would, nothing of them being due.
            orphaned = self.store.orphaned_sites() - self.run_sites
            for site in sorted(orphaned):  # full batches it left (the others wait for these)
                for batch in self.store.full_batches(site):
                    self._submit_batch(batch, site)
            mine = self.run_sites | orphaned
            rows = [(site, snapshot) for site, snapshot in rows if site in mine]
        by_site: dict[str, list[int]] = {}
        for site, snapshot in rows:
            by_site.setdefault(site, []).append(int(snapshot))
        for site, ids in by_site.items():
            if max(ids) > self.settled.get(site, 0):  # new pages since (older ones cannot turn unsettled)
                self._settle_site(site, ids)

    def _settle_site(self, site: str, ids: list[int]) -> None:
        self.settled[site] = max(ids)
        if site in self.profiled:
            self._submit(extraction.run_pages, site, ids)
        else:  # no full batch yet: what its pages say so far
            self._submit(extraction.run_provisional, site)

    def site_done(self, site: str) -> None:
        """`site` fell idle (crawler.leasing: nothing due, no request in flight): settle it now,
        as the end of the run would (its last batches, then its pages with the newest profile, or
        provisionally), so that a worker's extraction runs while it crawls other sites rather than
        all at its end. Same pages, same batches, same results as at the end of the run."""
        if self.store is None or site not in self.run_sites:
            return
        try:
            for batch in self.store.settle_batches(site, self.config.batch_size, time.time(), wait_for_feeds=False):
                self._submit_batch(batch, site)
            if site in self.batch_busy:  # settled after its last batch (_batch_finished)
                self.settle_after_batches.add(site)
                return
            ids = [snapshot for _site, snapshot in self.store.unsettled_snapshots(self.run_snapshots_after, site)]
        except Exception as exc:  # a full disk: the crawl reports it (crawler.outcome)
            if store_fault(exc) is None:
                raise
            return
        if ids:
            self._settle_site(site, ids)
            self._inc("sites_settled_mid_run")

    def _check_feeds(self) -> None:
        """Compare comments with comment feeds for the sites whose feeds were read; warn where it fell."""
        if self.store is None or not self.feed_sites:
            return
        with self.store.transaction():
            found = self.store.check_comment_feeds(
                sorted(self.feed_sites), minimum=self.agreement_min, drop=self.agreement_drop, now=time.time()
            )
        for text in found:
            logger.warning(text)
        self.feed_sites.clear()
        self.last_check = time.monotonic()

    # -- items -----------------------------------------------------------------------------

    def process_item(self, item: Any) -> Any:
        if isinstance(item, PageItem) and item.snapshot_id is not None:
            self._page(item)
        elif isinstance(item, TemplatePageItem) and item.page_id is not None:
            # A site without a profile whose articles were extracted provisionally before its home
            # page came: again, with it in the set.
            if item.site in self.settled and item.site not in self.profiled:
                self._submit(extraction.run_provisional, item.site)
        elif isinstance(item, CommentFeedItem) and item.fetch_id is not None:
            self.feed_sites.add(item.site)
            self.feed_site[item.fetch_id] = item.site
            self._submit(extraction.run_feed, item.fetch_id)
            if self.store is not None:  # a batch may have waited for this feed
                size = self.config.batch_size
                for batch in self.store.settle_batches(item.site, size, time.time(), wait_for_feeds=True):
                    self._submit_batch(batch, item.site)
        return item

    def _page(self, item: PageItem) -> None:
        if self.store is None:
            self.open_spider()
        assert self.store is not None and item.snapshot_id is not None
        self.run_sites.add(item.site)
        filled: list[int] = []
        if item.kind == "first":
            filled = self.store.add_to_batch(
                site=item.site,
                snapshot=item.snapshot_id,
                article=item.article_url,
                size=self.config.batch_size,
                now=time.time(),
            )
        for batch in filled:
            self._submit_batch(batch, item.site)
        in_filled = bool(filled) and item.snapshot_id in self.store.batches_members(filled)
        if item.site in self.profiled and not in_filled:  # a filled batch extracts its pages itself
            self._submit(extraction.run_pages, item.site, [item.snapshot_id])

    # -- jobs ------------------------------------------------------------------------------

    def sites_extracting(self) -> set[str]:
        """The sites with extraction work running or queued here: the crawl keeps their leases until it
        ends (crawler.leasing), as the jobs hold a site's write lock while they write."""
        return set(self.site_jobs) | self.batch_busy | self.settle_after_batches  # a count at 0 is deleted

    def _job_site(self, fn: Callable[..., extraction.JobReport], args: tuple[Any, ...]) -> str:
        if fn is extraction.run_batch:
            return self.batch_site.get(args[0], "")
        if fn is extraction.run_feed:
            return self.feed_site.get(args[0], "")  # a feed left by a killed run: its site is not known here
        return str(args[0])  # the other jobs take the site first

    def _submit(self, fn: Callable[..., extraction.JobReport], *args: Any, attempt: int = 1) -> None:
        site = self._job_site(fn, args)
        d = self.workers.submit(fn, self.config, *args)
        self.pending.add(d)
        self.site_jobs[site] += 1
        d.addCallbacks(self._done, self._failed, errbackArgs=(fn, args, attempt))
        d.addBoth(self._forget, d, site, fn, args)
        if fn is extraction.run_batch:
            d.addBoth(self._batch_finished, args[0])

    def _submit_batch(self, batch_id: int, site: str | None = None) -> None:
        """Run a site's batches one at a time, in order: each inherits from the profile before it."""
        if site is None:
            found = self.store.batch(batch_id) if self.store is not None else None
            site = str((found or {}).get("site", ""))
        self.batch_site[batch_id] = site
        if site in self.batch_busy:
            if batch_id not in self.batch_queue.setdefault(site, []):
                self.batch_queue[site].append(batch_id)
            return
        self.batch_busy.add(site)
        self._submit(extraction.run_batch, batch_id)

    def _batch_finished(self, result: Any, batch_id: int) -> Any:
        if result is _RETRYING:
            return None  # the site stays busy with the retry
        site = self.batch_site.pop(batch_id, "")
        self.batch_busy.discard(site)
        queued = self.batch_queue.get(site)
        if queued:
            self._submit_batch(queued.pop(0), site)
        elif site in self.settle_after_batches:
            self.settle_after_batches.discard(site)
            self.site_done(site)
        return None

    def _forget(
        self, result: Any, d: Deferred[Any], site: str, fn: Callable[..., extraction.JobReport], args: tuple[Any, ...]
    ) -> Any:
        self.pending.discard(d)
        self.site_jobs[site] -= 1
        if self.site_jobs[site] <= 0:
            del self.site_jobs[site]
        if fn is extraction.run_feed and result is not _RETRYING:
            self.feed_site.pop(args[0], None)
        return result

    def _done(self, report: extraction.JobReport) -> None:
        for level, text in report.messages:
            logger.log(logging.WARNING if level == "warning" else logging.INFO, text)
        if report.kind == "feed":
            self._inc("feed_entries", report.pages)
            if time.monotonic() - self.last_check > CHECK_EVERY:  # watch mode never closes
                self._check_feeds()
            return
        self._inc(f"{report.kind}_pages", report.pages)
        self._inc("milliseconds", round(report.seconds * 1000))
        if report.errors:
            self._inc("page_errors", report.errors)
        if report.drifts:
            self._inc("drifts", report.drifts)
        if report.kind == "batch" and report.profile_version is not None:
            self._inc("batches")
            logger.info(
                "Site %s: batch of %d pages extracted, profile v%d", report.site, report.pages, report.profile_version
            )
            if report.site not in self.profiled:
                # Pages stored before this profile existed were not submitted: extract them now.
                self.profiled.add(report.site)
                self._submit(extraction.run_pending, report.site)

    def _failed(
        self, failure: Failure, fn: Callable[..., extraction.JobReport], args: tuple[Any, ...], attempt: int
    ) -> object:
        self._inc("job_errors")
        if failure.value is not None and store_fault(failure.value) is not None:
            # The store cannot be written (disk full, ...): the crawl stops on it in one line
            # (crawler.outcome); no retry, no per-job log; the next run does the job again.
            logger.debug("Extraction job %s failed on the store: %s", fn.__name__, failure.getErrorMessage())
            return None
        reason = failure.getErrorMessage() or repr(failure.value)
        if isinstance(failure.value, BrokenProcessPool):
            reason = "its worker process died"
        if fn is extraction.run_feed and self.store is not None:
            self.store.record_comment_feed_failure(args[0], reason)
        name = f"{fn.__name__}({args[0]!r}, ...)"
        if attempt < MAX_ATTEMPTS:
            self._inc("job_retries")
            logger.warning(
                "Extraction job %s failed (attempt %d of %d: %s); retrying", name, attempt, MAX_ATTEMPTS, reason
            )
            self._submit(fn, *args, attempt=attempt + 1)
            return _RETRYING
        self._inc("job_gave_up")
        logger.error(
            "Extraction job %s failed %d times, given up until the next run: %s",
            name,
            attempt,
            failure.getTraceback(),
        )
        return None
