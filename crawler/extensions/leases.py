"""Site leases as an extension: which sites this worker fetches (crawler.leasing), renewed and given back.

On SQLite one crawl holds every site; on a shared PostgreSQL store each worker holds at most
BLOGS_LEASE_SITES sites and takes the next as soon as one is done (a top-up every TOP_UP_SECONDS),
not in waves. The leases are renewed every third of BLOGS_LEASE_SECONDS and given back at the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from twisted.internet.task import LoopingCall

from crawler.leasing import SiteLeases, site_idle, sites_extracting
from crawler.outcome import store_failed, store_guard
from crawler.signals import run_closing, run_opened
from crawler.validation import setting
from store import store_location
from store.leases import worker_name
from store.storefile import is_database_url

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from store import StoreBackend

# How often a worker holding a limited number of sites (PostgreSQL) looks for more, seconds.
TOP_UP_SECONDS = 1.0


def default_lease_sites(concurrent_requests: int, per_site: int) -> int:
    """Sites a worker holds at once on a shared store: as many as its request slots keep busy with
    AutoThrottle's per-site delays (4 x the sites it fetches from at the same moment).
    default_lease_sites(16, 2) == 32"""
    return 4 * max(1, concurrent_requests // per_site)


class LeaseKeeper:
    """Claims the sites the spider fetches (spider.leases), renews them, tops them up, gives them back."""

    def __init__(self, crawler: Crawler, *, lease_seconds: float, limit: int) -> None:
        self.crawler = crawler
        self.lease_seconds = lease_seconds  # a site lease lapses this long after its last renewal
        self.limit = limit  # most sites held at once; 0: every site (one crawl per SQLite store)
        self.leases: SiteLeases | None = None
        self.spider: Any = None
        self.loops: list[LoopingCall] = []

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LeaseKeeper:
        s = crawler.settings
        per_site = setting(s, "CONCURRENT_REQUESTS_PER_DOMAIN", 2)
        sites = setting(s, "BLOGS_LEASE_SITES") or default_lease_sites(setting(s, "CONCURRENT_REQUESTS", 16), per_site)
        shared = is_database_url(store_location(s.get("BLOGS_DB")))
        extension = cls(crawler, lease_seconds=setting(s, "BLOGS_LEASE_SECONDS", 300.0), limit=sites if shared else 0)
        crawler.signals.connect(extension.run_opened, signal=run_opened)
        crawler.signals.connect(extension.run_closing, signal=run_closing)
        return extension

    def run_opened(self, spider: Any, store: StoreBackend) -> None:
        self.spider = spider
        self.leases = SiteLeases(
            store,
            owner=worker_name(),
            lease=self.lease_seconds,
            limit=self.limit,
            on_idle=self.site_idle,
            extracting=self.sites_extracting,
        )
        spider.leases = self.leases
        renewal = LoopingCall(self.renew)
        renewal.start(self.lease_seconds / 3, now=False)
        self.loops.append(renewal)
        if self.limit:
            top_up = LoopingCall(self.take_more_sites)
            top_up.start(TOP_UP_SECONDS, now=False)
            self.loops.append(top_up)

    def site_idle(self, site: str) -> None:
        self.crawler.signals.send_catch_log(site_idle, site=site)

    def sites_extracting(self) -> set[str]:
        found: set[str] = set()
        for _receiver, sites in self.crawler.signals.send_catch_log(sites_extracting):
            if isinstance(sites, set):
                found |= sites
        return found

    def _active(self) -> bool:
        return self.leases is not None and not self.spider.closing and not store_failed(self.crawler)

    def renew(self) -> None:
        if not self._active():
            return
        assert self.leases is not None
        with store_guard(self.crawler, "renewing the site leases"):
            self.leases.renew(self.spider.now())

    def take_more_sites(self) -> None:
        """Give back the sites that are done and claim others with work due, while the others are still
        being fetched: without it a worker would claim its next sites only when all of them are done."""
        if not self._active():
            return
        assert self.leases is not None
        if len(self.spider.busy_sites()) >= self.leases.limit:
            return
        self.spider.schedule_due("claiming sites")

    def run_closing(self, spider: Any, store: StoreBackend, reason: str) -> None:
        for loop in self.loops:
            if loop.running:
                loop.stop()
        self.loops = []
        if self.leases is not None:
            with store_guard(self.crawler, "giving the site leases back"):
                self.leases.release()
