"""Which sites this crawler worker fetches now: leases claimed in the store, renewed, given back.

leases = SiteLeases(store, owner=worker_name(), lease=300, limit=32)
feeds = leases.feeds(sources, busy={"gen1"}, now=time.time())   # the feeds of the sites held

Several `scrapy crawl blogs` processes can share one PostgreSQL store with no coordinator: each
claims up to `limit` sites that have work due (store.leases: FOR UPDATE SKIP LOCKED), polls and
fetches only those, and gives a site back as soon as it has nothing due and nothing in flight, so
another worker can take it. A worker holds a site alone, so a site's requests come from one worker
at a time and the politeness settings mean the same with one worker or twenty. A worker that dies
stops renewing; its leases lapse after `lease` seconds and the sites are claimed again.

On SQLite one crawl runs at a time: it claims every site (limit 0 means no limit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from store import StoreBackend

# Signal (site=...): this worker gave a site back because it has nothing due and nothing in flight,
# every item of it through the pipelines: what the run fetched of the site is complete, so its
# extraction need not wait for the end of the run (pipelines.extract).
site_given_back = object()


class SiteLeases:
    """This worker's site leases in the store."""

    def __init__(
        self,
        store: StoreBackend,
        *,
        owner: str,
        lease: float,
        limit: int,
        on_give_back: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.owner = owner
        self.lease = lease
        self.limit = limit  # most sites held at once; 0: every site
        self.on_give_back = on_give_back  # called with each site given back while the run goes on
        self.held: set[str] = set()

    def feeds(self, sources: dict[str, str], *, busy: Iterable[str], now: float, force: bool = False) -> list[str]:
        """The feeds (of `sources`, feed url -> site) of the sites this worker holds after giving back
        the idle ones and claiming sites with work due; `busy` sites have requests in flight."""
        sites = sorted(set(sources.values()))
        busy = set(busy)
        due = set(sites) if force else self.store.due_sites(list(sources), now)
        idle = {site for site in self.held if site not in due and site not in busy}
        if idle:
            self.store.release_sites(self.owner, sorted(idle))
            self.held -= idle
            if self.on_give_back is not None:
                for site in sorted(idle):
                    self.on_give_back(site)
        wanted = sorted((due | busy | self.held) & set(sites))
        limit = self.limit or len(sites)
        self.held = set(self.store.claim_sites(self.owner, wanted, now=now, lease=self.lease, limit=limit))
        return [url for url, site in sources.items() if site in self.held]

    def renew(self, now: float) -> set[str]:
        """Extend the leases still held (call well within `lease`); returns the sites held."""
        self.held = set(self.store.renew_leases(self.owner, now=now, lease=self.lease))
        return self.held

    def release(self) -> None:
        """Give every lease back (the end of a run)."""
        self.store.release_sites(self.owner)
        self.held = set()
