"""Render pages whose comments load by script in headless Chromium, off the reactor, within a budget.

RenderCommentsPipeline(db_path="blogs.db", per_minute=6, timeout=30.0, skip_systems={"isso"}, site_budget=20)

The general fallback for comment systems without a connector (crawler.commentapi): for a stored
page (PersistPagePipeline ran first), a worker process detects its comment system; when the
comments load by script into an element of the page, the page is rendered in Debian's Chromium
(Playwright, `executable_path=/usr/bin/chromium`, no browser download) and the rendered DOM is
stored as a read of the thread (`comment_api_reads`, system `rendered`), persisted before it is
parsed by extractor.separation.rendered. The browser gets the page as stored (not fetched again), a fresh
profile per page (no persistent profile), and no URL but http(s): `file:` and the like are
refused, so a rendered page cannot reach the file system.

A page whose comment system has a connector is rendered only when its endpoint read fails (or
the endpoint wants a key the settings lack): the read's item comes here after the page's.

Budget: `BLOGS_RENDER_COMMENTS` pages per minute (0, the default: off), `BLOGS_RENDER_SITE_BUDGET`
pages per site and run, `BLOGS_RENDER_TIMEOUT` seconds per page. Renders run one at a time in their
own process, never on the reactor thread; pages beyond the budget are not rendered (their state
says why) and are tried at their next re-fetch. The browser's requests meet the crawl's address
rule: a host resolving to a private, loopback or link-local address is refused unless
BLOGS_ALLOW_PRIVATE_ADDRESSES (or BLOGS_ALLOWED_NETWORKS lets it through).
"""

from __future__ import annotations

import ipaddress
import logging
import multiprocessing
import os
import socket
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from scrapy.exceptions import NotConfigured
from twisted.internet.defer import Deferred, DeferredList
from twisted.internet.threads import deferToThread

from crawler.addresses import address_refusal, parse_networks
from crawler.items import CommentApiItem, PageItem
from extractor.comments.commentsystems import detect_comment_system
from jobs.commentapi import process_api_read
from pipelines.extract import _init_worker as init_worker
from pipelines.extract import deferred_from_future
from pipelines.renderpage import Requests, inline_hidden_parts, load_more, wait_for_thread
from store import open_store, store_location
from store.commentsystems import CONNECTORS, ApiRead

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


@dataclass(frozen=True, slots=True)
class AddressRule:
    """The crawl's private-address rule, as plain values a render worker gets."""

    allow_private: bool = False
    allowed_networks: str = ""  # BLOGS_ALLOWED_NETWORKS

    def refusal(self, url: str) -> str | None:
        """Why the browser must not fetch `url` ("10.0.0.5 is private"), or None."""
        if self.allow_private:
            return None
        host = urlsplit(url).hostname or ""
        try:
            found = {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
        except OSError:
            return f"{host} does not resolve"
        allowed = parse_networks(self.allowed_networks)
        return next((f"{a} is {why}" for a in sorted(found) if (why := address_refusal(a, allowed))), None)


def render_target(url: str, body: bytes) -> RenderTarget | None:
    """The page's render target, or None (comments in the HTML, or no element holds them)."""
    system = detect_comment_system(body, url)
    if not system.loads_by_script or not system.container:
        return None
    return RenderTarget(system.name, system.container)


def render(url: str, body: bytes, container: str, timeout: float, rule: AddressRule = AddressRule()) -> Rendered:
    """Render the stored page in headless Chromium until the network is idle and the thread shows, click
    its "load more" controls (bounded), and return its DOM with shadow roots and iframes inlined (runs in a worker)."""
    from playwright.sync_api import Error, sync_playwright

    started = time.monotonic()
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=_browser_args(url))
            try:
                context = browser.new_context(accept_downloads=False, service_workers="block")
                refused: dict[str, str | None] = {}  # host -> the rule's answer, asked once per render
                context.route("**/*", lambda route: _only_web(route, url, body, rule, refused))
                page = context.new_page()
                requests = Requests(page)
                page.goto(url, wait_until="networkidle", timeout=timeout * 1000)
                deadline = started + timeout
                wait_for_thread(page, container, deadline - time.monotonic(), requests)
                load_more(page, container, deadline, requests)
                inline_hidden_parts(page, container)
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
        args.append(
            "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights"
        )
    return args


def _only_web(route: Any, url: str, body: bytes, rule: AddressRule, refused: dict[str, str | None]) -> None:
    """The page itself from the store; other http(s) requests go out unless the address rule refuses
    their host; any other scheme is refused. (Chromium resolves the name again when it connects.)"""
    requested = route.request.url
    if requested == url:
        route.fulfill(status=200, body=body, headers={"Content-Type": "text/html; charset=utf-8"})
        return
    if not requested.startswith(("http://", "https://")):
        route.abort("addressunreachable")
        return
    host = urlsplit(requested).hostname or ""
    if host not in refused:
        refused[host] = rule.refusal(requested)
    if refused[host] is None:
        route.continue_()
    else:
        route.abort("addressunreachable")


class RenderCommentsPipeline:
    """Render stored pages whose comments load by script (see the module docstring); items pass on at once."""

    def __init__(
        self,
        db_path: str,
        per_minute: float,
        timeout: float,
        skip_systems: frozenset[str] = frozenset(),
        site_budget: int = 0,
        rule: AddressRule = AddressRule(),
    ) -> None:
        self.db_path = db_path
        self.per_minute = per_minute
        self.timeout = timeout
        self.skip_systems = skip_systems  # rendered only after their endpoint read failed
        self.site_budget = site_budget  # renders per site and run (0: no limit)
        self.rule = rule
        self.pool: ProcessPoolExecutor | None = None
        self.pending: set[Deferred[Any]] = set()
        self.started: list[float] = []  # monotonic start times of renders in the last minute
        self.per_site: dict[str, int] = {}  # site -> renders started this run
        # A page of a system with a connector waits for its endpoint read; a failed read waits for its page.
        self.awaiting_read: dict[str, tuple[PageItem, RenderTarget]] = {}
        self.failed_reads: dict[str, float] = {}  # article -> fetched_at of its failed read
        self.stats: Any = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RenderCommentsPipeline:
        settings = crawler.settings
        per_minute = settings.getfloat("BLOGS_RENDER_COMMENTS", 0)
        if per_minute <= 0:
            raise NotConfigured  # BLOGS_RENDER_COMMENTS is 0: no rendering (no message: Scrapy would warn)
        # Systems a connector reads are rendered only when their endpoint read fails (or reads are off).
        skip = CONNECTORS if settings.getint("BLOGS_COMMENT_API_BUDGET", 200) > 0 else frozenset()
        rule = AddressRule(
            settings.getbool("BLOGS_ALLOW_PRIVATE_ADDRESSES"), settings.get("BLOGS_ALLOWED_NETWORKS", "")
        )
        pipeline = cls(
            store_location(settings.get("BLOGS_DB")),
            per_minute,
            settings.getfloat("BLOGS_RENDER_TIMEOUT", 30),
            skip,
            settings.getint("BLOGS_RENDER_SITE_BUDGET", 0),
            rule,
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
        if self.pool is None:
            return item
        if isinstance(item, PageItem) and item.snapshot_id is not None:
            self._track(self._submit(render_target, item.url, item.body).addCallback(self._target, item))
        elif isinstance(item, CommentApiItem) and item.read.system != RENDERED and not item.read.complete:
            self._inc("after_failed_read")
            self.failed_reads[item.article_url] = item.read.fetched_at
            waiting = self.awaiting_read.pop(item.article_url, None)
            if waiting is not None:
                self._track(self._start(*waiting))
        elif isinstance(item, CommentApiItem):
            self.awaiting_read.pop(item.article_url, None)  # read: no render needed
        return item

    def _submit(self, fn: Callable[..., T], *args: Any) -> Deferred[T]:
        assert self.pool is not None
        return deferred_from_future(self.pool.submit(fn, *args))

    def _track(self, d: Deferred[Any] | None) -> None:
        if d is None:
            return
        self.pending.add(d)
        d.addErrback(lambda f: logger.error("Rendering comments failed: %s", f.getErrorMessage()))
        d.addBoth(lambda _: self.pending.discard(d))

    def _within_budget(self, site: str) -> bool:
        now = time.monotonic()
        self.started = [t for t in self.started if now - t < 60]
        if len(self.started) >= self.per_minute:
            self._inc("over_budget")
            return False
        if self.site_budget and self.per_site.get(site, 0) >= self.site_budget:
            self._inc("over_site_budget")
            return False
        self.started.append(now)
        self.per_site[site] = self.per_site.get(site, 0) + 1
        return True

    def _target(self, target: RenderTarget | None, item: PageItem) -> Deferred[Any] | None:
        if target is None:
            return None
        if target.system in self.skip_systems:
            if item.article_url in self.failed_reads:
                return self._start(item, target)
            self.awaiting_read[item.article_url] = (item, target)
            return None
        return self._start(item, target)

    def _start(self, item: PageItem, target: RenderTarget) -> Deferred[Any] | None:
        # A render after a failed read is a later observation of the thread than that read.
        after = self.failed_reads.pop(item.article_url, 0.0)
        if not self._within_budget(item.site):
            return None
        self._inc("pages")
        d = self._submit(render, item.url, item.body, target.container, self.timeout, self.rule)
        return d.addCallback(self._rendered, item, target, after)

    def _rendered(self, result: Rendered, item: PageItem, target: RenderTarget, after: float) -> Deferred[Any]:
        self._inc("failed" if result.html is None else "rendered")
        read = ApiRead(
            article=item.article_url,
            site=item.site,
            system=RENDERED,
            url=item.url,
            fetched_at=max(item.fetched_at + result.seconds, after + 0.001),
            responses=[{"url": item.url, "status": 200, "body": result.html or "", "container": target.container}],
            complete=result.html is not None,
            error=result.error,
        )
        return deferToThread(self._store, read)

    def _store(self, read: ApiRead) -> None:
        """Persist the rendered DOM, then parse it (a thread of the reactor's pool, its own connection)."""
        with open_store(self.db_path) as store:
            read_id = store.save_api_read(read)
            with store.transaction():
                process_api_read(store, read_id, time.time())
