"""Render pages whose comments load by script in headless Chromium, off the reactor, within a budget.

RenderCommentsPipeline(db_path="blogs.db", per_minute=6, timeout=30.0, skip_systems={"isso"})

The general fallback for comment systems without a connector (crawler.commentapi): for a stored
page (PersistPagePipeline ran first), a worker process detects its comment system; when the
comments load by script into an element of the page, the page is rendered in Debian's Chromium
(Playwright, `executable_path=/usr/bin/chromium`, no browser download) and the rendered DOM is
stored as a read of the thread (`comment_api_reads`, system `rendered`), persisted before it is
parsed by extractor.rendered. The browser gets the page as stored (not fetched again), a fresh
profile per page (no persistent profile), and no URL but http(s): `file:` and the like are
refused, so a rendered page cannot reach the file system.

Budget: `BLOGS_RENDER_COMMENTS` pages per minute (0, the default: off), `BLOGS_RENDER_TIMEOUT`
seconds per page. Renders run one at a time in their own process, never on the reactor thread;
pages beyond the budget are not rendered (their state says why) and are tried at their next re-fetch.
"""

from __future__ import annotations

import ipaddress
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from scrapy.exceptions import NotConfigured
from twisted.internet.defer import Deferred, DeferredList
from twisted.internet.threads import deferToThread

from crawler.items import PageItem
from extractor.commentsystems import detect_comment_system
from jobs.commentapi import process_api_read
from pipelines.extract import _init_worker as init_worker
from pipelines.extract import deferred_from_future
from store import open_store, store_location
from store.commentsystems import CONNECTORS, ApiRead, save_api_read

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)
T = TypeVar("T")
CHROMIUM = "/usr/bin/chromium"
RENDERED = "rendered"


@dataclass(frozen=True, slots=True)
class RenderTarget:
    """Where a page's script puts its comments: the system and the container's element id."""

    system: str
    container: str


@dataclass(frozen=True, slots=True)
class Rendered:
    """The DOM after the page's scripts ran (None and an error when the render failed)."""

    html: str | None
    error: str | None
    seconds: float


def render_target(url: str, body: bytes, skip_systems: frozenset[str]) -> RenderTarget | None:
    """The page's render target, or None (comments in the HTML, a connector reads them, or no element holds them)."""
    system = detect_comment_system(body, url)
    if not system.loads_by_script or system.name in skip_systems or not system.container:
        return None
    return RenderTarget(system.name, system.container)


def render(url: str, body: bytes, container: str, timeout: float) -> Rendered:
    """Render the stored page in headless Chromium until the network is idle; its DOM (runs in a worker)."""
    from playwright.sync_api import Error, sync_playwright

    started = time.monotonic()
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=_browser_args(url))
            try:
                context = browser.new_context(accept_downloads=False, service_workers="block")
                context.route("**/*", lambda route: _only_web(route, url, body))
                page = context.new_page()
                page.goto(url, wait_until="networkidle", timeout=timeout * 1000)
                filled = f"document.getElementById({container!r})?.innerText.trim().length > 0"
                page.wait_for_function(filled, timeout=max(1.0, timeout - (time.monotonic() - started)) * 1000)
                return Rendered(page.content(), None, time.monotonic() - started)
            finally:
                browser.close()
    except Error as exc:  # Playwright's timeouts and browser failures: this page's render failed
        reason = str(exc).splitlines()[0][:200]
        return Rendered(None, f"render failed: {reason}", time.monotonic() - started)


def _browser_args(url: str) -> list[str]:
    """Chromium's flags. The page comes from the store (route.fulfill), so Chromium takes it for a
    public page and refuses its scripts any private address; a page that itself lives on a private
    or loopback address (an intranet blog, the test farm) keeps the reach it had where it lives."""
    args = ["--no-sandbox", "--disable-gpu"]  # no sandbox: the crawl may run as root (containers)
    host = urlsplit(url).hostname or ""
    try:
        private = host == "localhost" or ipaddress.ip_address(host).is_private
    except ValueError:  # a name: public as far as the browser is told
        private = False
    if private:
        args.append("--disable-features=LocalNetworkAccessChecks")
    return args


def _only_web(route: Any, url: str, body: bytes) -> None:
    """The page itself from the store; other http(s) requests go out; any other scheme is refused."""
    requested = route.request.url
    if requested == url:
        route.fulfill(status=200, body=body, headers={"Content-Type": "text/html; charset=utf-8"})
    elif requested.startswith(("http://", "https://")):
        route.continue_()
    else:
        route.abort()


class RenderCommentsPipeline:
    """Render stored pages whose comments load by script (see the module docstring); items pass on at once."""

    def __init__(
        self, db_path: str, per_minute: float, timeout: float, skip_systems: frozenset[str] = frozenset()
    ) -> None:
        self.db_path = db_path
        self.per_minute = per_minute
        self.timeout = timeout
        self.skip_systems = skip_systems
        self.pool: ProcessPoolExecutor | None = None
        self.pending: set[Deferred[Any]] = set()
        self.started: list[float] = []  # monotonic start times of renders in the last minute
        self.stats: Any = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RenderCommentsPipeline:
        settings = crawler.settings
        per_minute = settings.getfloat("BLOGS_RENDER_COMMENTS", 0)
        if per_minute <= 0:
            raise NotConfigured  # BLOGS_RENDER_COMMENTS is 0: no rendering (no message: Scrapy would warn)
        # Systems a connector reads are rendered only when their endpoint reads are off.
        skip = CONNECTORS if settings.getint("BLOGS_COMMENT_API_BUDGET", 200) > 0 else frozenset()
        pipeline = cls(
            store_location(settings.get("BLOGS_DB")), per_minute, settings.getfloat("BLOGS_RENDER_TIMEOUT", 30), skip
        )
        pipeline.stats = crawler.stats
        return pipeline

    def open_spider(self) -> None:
        # Like the extraction workers: spawned (never a fork of the reactor), Ctrl-C left to the crawl,
        # and gone when the crawl dies (the browser's driver then closes its Chromium).
        self.pool = ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn"), initializer=init_worker, initargs=(os.getpid(),)
        )

    async def close_spider(self) -> None:
        from scrapy.utils.defer import maybe_deferred_to_future

        if self.pending:
            await maybe_deferred_to_future(DeferredList(list(self.pending)))
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"blogs/render/{key}")

    def process_item(self, item: Any) -> Any:
        if isinstance(item, PageItem) and item.snapshot_id is not None and self.pool is not None:
            self._track(
                self._submit(render_target, item.url, item.body, self.skip_systems).addCallback(self._target, item)
            )
        return item

    def _submit(self, fn: Callable[..., T], *args: Any) -> Deferred[T]:
        assert self.pool is not None
        return deferred_from_future(self.pool.submit(fn, *args))

    def _track(self, d: Deferred[Any]) -> None:
        self.pending.add(d)
        d.addErrback(lambda f: logger.error("Rendering comments failed: %s", f.getErrorMessage()))
        d.addBoth(lambda _: self.pending.discard(d))

    def _within_budget(self) -> bool:
        now = time.monotonic()
        self.started = [t for t in self.started if now - t < 60]
        if len(self.started) >= self.per_minute:
            return False
        self.started.append(now)
        return True

    def _target(self, target: RenderTarget | None, item: PageItem) -> Deferred[Any] | None:
        if target is None:
            return None
        if not self._within_budget():
            self._inc("over_budget")
            return None
        self._inc("pages")
        d = self._submit(render, item.url, item.body, target.container, self.timeout)
        return d.addCallback(self._rendered, item, target)

    def _rendered(self, result: Rendered, item: PageItem, target: RenderTarget) -> Deferred[Any]:
        self._inc("failed" if result.html is None else "rendered")
        read = ApiRead(
            article=item.article_url,
            site=item.site,
            system=RENDERED,
            url=item.url,
            fetched_at=item.fetched_at + result.seconds,
            responses=[{"url": item.url, "status": 200, "body": result.html or "", "container": target.container}],
            complete=result.html is not None,
            error=result.error,
        )
        return deferToThread(self._store, read)

    def _store(self, read: ApiRead) -> None:
        """Persist the rendered DOM, then parse it (a thread of the reactor's pool, its own connection)."""
        with open_store(self.db_path) as store:
            with store.transaction() as db:
                read_id = save_api_read(db, read)
            with store.transaction() as db:
                process_api_read(db, read_id, time.time())
