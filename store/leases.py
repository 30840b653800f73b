"""Site leases: which crawler worker fetches which site, so that many workers share one store.

held = store.claim_sites("host pid 7 #a1", ["gen1", "gen2"], now=time.time(), lease=300, limit=50)

A worker fetches (polls feeds, fetches and re-fetches articles of) only the sites it holds a live
lease on, so a site's requests come from one worker at a time and politeness settings mean the
same with one worker or twenty. A lease is renewed while the worker works and lapses when it
stops renewing (a killed worker, a lost machine): another worker then claims the site and finds
its state in the store (every page is stored before it is processed). On PostgreSQL the claim is
`SELECT … FOR UPDATE SKIP LOCKED`, so workers claiming at the same moment get disjoint sites
without waiting for each other; on SQLite one process crawls at a time and claims always succeed.

Mixed into both stores (store.sqlite.Store, store.postgres.PostgresStore).
"""

from __future__ import annotations

import os
import re
import secrets
import socket
from collections.abc import Callable, Sequence

from store.clock import to_iso
from store.crawlstate import StoreBase

FREE = ""  # expires_at of a site nobody holds: sorts before every time


def worker_name() -> str:
    """A lease owner name unique to this process: host, pid and a random token."""
    return f"{socket.gethostname()} pid {os.getpid()} #{secrets.token_hex(3)}"


def owner_process(owner: str) -> tuple[str, int] | None:
    """(host, pid) of a lease owner: owner_process("h1 pid 7 #a1b2c3") == ("h1", 7)."""
    found = re.fullmatch(r"(\S+) pid (\d+) #\w+", owner)
    return (found.group(1), int(found.group(2))) if found else None


class LeaseBook(StoreBase):
    """Claim, renew and release site leases (`site_leases`)."""

    live_crawlers: Callable[[], set[tuple[str, int]] | None]  # store.runs (SQLite), store.postgres

    def claim_sites(self, owner: str, sites: Sequence[str], *, now: float, lease: float, limit: int) -> list[str]:
        """Renew `owner`'s leases among `sites`, then claim free or lapsed ones up to `limit` held in all.

        Returns the sites `owner` holds among `sites`, sorted. Sites must exist in `sites` (the
        table); a site whose lease lapsed is taken over (its `claims` count grows).
        """
        if not sites:
            return []
        stamp, until = to_iso(now), to_iso(now + lease)
        marks = self._marks(sites)
        with self.db.transaction(lock=False) as db:
            db.executemany(
                "INSERT INTO site_leases (site, expires_at, claims) VALUES (?, ?, 0) ON CONFLICT DO NOTHING",
                [[site, FREE] for site in sites],
            )
            held = [
                r[0]
                for r in db.execute(
                    f"UPDATE site_leases SET expires_at = ? WHERE owner = ? AND site IN ({marks}) RETURNING site",
                    [until, owner, *sites],
                ).fetchall()
            ]
            room = limit - len(held)
            if room > 0:
                skip = " FOR UPDATE SKIP LOCKED" if db.dialect == "postgresql" else ""
                dead = self.dead_lease_owners(owner) or [FREE]  # FREE: no owner has that name
                free = [
                    r[0]
                    for r in db.execute(
                        f"SELECT site FROM site_leases WHERE site IN ({marks}) AND owner IS NOT ?"
                        f" AND (expires_at <= ? OR owner IN ({self._marks(dead)}))"
                        f" ORDER BY expires_at, site LIMIT ?{skip}",
                        [*sites, owner, stamp, *dead, room],
                    ).fetchall()
                ]
                if free:
                    db.execute(
                        f"UPDATE site_leases SET owner = ?, expires_at = ?, claimed_at = ?, claims = claims + 1"
                        f" WHERE site IN ({self._marks(free)})",
                        [owner, until, stamp, *free],
                    )
                held += free
        return sorted(held)

    def dead_lease_owners(self, owner: str) -> list[str]:
        """Owners of leases (other than `owner`) whose process no longer holds the crawl lock: a
        worker that was killed, whose sites may be taken at once rather than when the lease lapses.
        A lost machine whose connection the server has not dropped yet still counts as alive."""
        live = self.live_crawlers()
        if live is None:
            return []
        owners = self.db.execute(
            "SELECT DISTINCT owner FROM site_leases WHERE owner IS NOT NULL AND owner IS NOT ?", [owner]
        ).fetchall()
        me = (socket.gethostname(), os.getpid())  # this process is alive, whatever it holds
        return [r[0] for r in owners if owner_process(r[0]) not in live | {me}]

    def orphaned_sites(self) -> set[str]:
        """Sites with a stored page never extracted whose worker is gone: killed after storing them and
        before extracting them (holding the site, or having given it back with its extraction still
        queued). A site with nothing due is claimed by no one, so no one else would extract them."""
        live = self.live_crawlers()
        if live is None:
            return set()
        alive = live | {(socket.gethostname(), os.getpid())}
        rows = self.db.execute(
            "SELECT DISTINCT s.site, l.owner, l.released_by FROM snapshots s LEFT JOIN site_leases l"
            " ON l.site = s.site WHERE NOT EXISTS (SELECT 1 FROM extractions e WHERE e.snapshot = s.id)"
        ).fetchall()
        gone = [site for site, owner, released_by in rows if owner_process(owner or released_by or "") not in alive]
        return self.unheld_sites(sorted(set(gone)))

    def unheld_sites(self, sites: Sequence[str]) -> set[str]:
        """Those of `sites` that no live worker holds a lease on and no session is writing now
        (its site lock is free): what a worker may recover without waiting for another's writes."""
        if not sites:
            return set()
        dead = self.dead_lease_owners("") or [FREE]
        held = {
            r[0]
            for r in self.db.execute(
                f"SELECT site FROM site_leases WHERE site IN ({self._marks(sites)}) AND owner IS NOT NULL"
                f" AND owner NOT IN ({self._marks(dead)})",
                [*sites, *dead],
            ).fetchall()
        }
        with self.db.transaction() as db:
            return set(db.lock_sites([s for s in sites if s not in held], wait=False))

    def renew_leases(self, owner: str, *, now: float, lease: float) -> list[str]:
        """Extend every lease `owner` still holds; returns those sites (a lease taken over is gone)."""
        with self.db.transaction(lock=False) as db:
            rows = db.execute(
                "UPDATE site_leases SET expires_at = ? WHERE owner = ? RETURNING site", [to_iso(now + lease), owner]
            ).fetchall()
        return sorted(r[0] for r in rows)

    def release_sites(self, owner: str, sites: Sequence[str] | None = None) -> int:
        """Give up `owner`'s leases (all, or those of `sites`): another worker may claim them at once."""
        where, params = "owner = ?", [owner]
        if sites is not None:
            if not sites:
                return 0
            where += f" AND site IN ({self._marks(sites)})"
            params += list(sites)
        with self.db.transaction(lock=False) as db:
            cur = db.execute(
                f"UPDATE site_leases SET released_by = owner, owner = NULL, expires_at = ? WHERE {where}",
                [FREE, *params],
            )
        return int(cur.rowcount)
