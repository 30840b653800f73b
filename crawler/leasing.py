"""Which sites this crawler worker fetches now: leases claimed in the store, renewed, given back.

leases = SiteLeases(store, owner=worker_name(), lease=300, limit=32)
feeds = leases.feeds(sources, busy={"gen1"}, now=time.time())   # the feeds of the sites held

Several `scrapy crawl blogs` processes can share one PostgreSQL store with no coordinator: each
claims up to `limit` sites that have work due (store.leases: FOR UPDATE SKIP LOCKED), polls and
fetches only those, and gives a site back as soon as it has nothing due, no request in flight and
no extraction job running, so another worker can take it. An extraction still running keeps the site
(it holds the site's write lock while it writes: a worker that claimed the site then would wait for
it, and for as long as it is paused, if it is). A site idle but for its extraction is settled
(`on_idle`) once and held until the jobs end, outside the `limit` of sites fetched at once.
A worker holds a site alone, so a site's requests come from one worker at a time and the
politeness settings mean the same with one worker or twenty. A worker that dies
stops renewing; its leases lapse after `lease` seconds and the sites are claimed again.

On SQLite one crawl runs at a time: it claims every site (limit 0 means no limit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from store import StoreBackend

# Signal (site=...): a site this worker holds has nothing due and no request in flight, every item
# of it through the pipelines: what the run fetched of the site is complete, so its extraction need
# not wait for the end of the run (pipelines.extract starts it).
site_idle = object()
# Signal, no arguments: receivers return the set of sites with extraction jobs running in this
# worker; the worker keeps those sites' leases until the jobs end (pipelines.extract).
sites_extracting = object()


class SiteLeases:
    """This worker's site leases in the store."""

    def __init__(
        self,
        store: StoreBackend,
        *,
        owner: str,
        lease: float,
        limit: int,
        on_idle: Callable[[str], None] | None = None,
        extracting: Callable[[], set[str]] | None = None,
    ) -> None:
        self.store = store
        self.owner = owner
        self.lease = lease
        self.limit = limit  # most sites held at once; 0: every site
        self.on_idle = on_idle  # called once with each site that fell idle while the run goes on
        self.extracting = extracting  # the sites with extraction jobs running: kept until they end
        self.held: set[str] = set()
        self.settling: set[str] = set()  # held, idle, told to on_idle: kept for their extraction

    def feeds(self, sources: dict[str, str], *, busy: Iterable[str], now: float, force: bool = False) -> list[str]:
        """The feeds (of `sources`, feed url -> site) of the sites this worker holds after giving back
        the idle ones and claiming sites with work due; `busy` sites have requests in flight."""
        sites = sorted(set(sources.values()))
        busy = set(busy)
        due = set(sites) if force else self.store.due_sites(list(sources), now)
        idle = {site for site in self.held if site not in due and site not in busy}
        self.settling &= idle  # a site due again is fetched again, and told again when next idle
        if self.on_idle is not None:
            for site in sorted(idle - self.settling):
                self.on_idle(site)
        self.settling = idle & self.extracting() if self.extracting is not None else set()
        done = idle - self.settling
        if done:
            self.store.release_sites(self.owner, sorted(done))
            self.held -= done
        wanted = sorted((due | busy | self.held) & set(sites))
        limit = (self.limit or len(sites)) + len(self.settling)  # sites kept for extraction only are extra
        self.held = set(self.store.claim_sites(self.owner, wanted, now=now, lease=self.lease, limit=limit))
        return [url for url, site in sources.items() if site in self.held and site not in self.settling]

    def renew(self, now: float) -> set[str]:
        """Extend the leases still held (call well within `lease`); returns the sites held."""
        self.held = set(self.store.renew_leases(self.owner, now=now, lease=self.lease))
        return self.held

    def release(self) -> None:
        """Give every lease back (the end of a run)."""
        self.store.release_sites(self.owner)
        self.held = set()
        self.settling = set()
