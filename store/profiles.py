"""Site profiles (`profiles`): what a site's batch taught, versioned, and what later pages are extracted with.

store.latest_profile("gen1")   # the newest version's row, or None before the first full batch

A version is written when a full batch is extracted (jobs.extraction) and rewritten by a
re-extraction (jobs.reextract); every read and write of the table is here.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from store.crawlstate import StoreBase

# An identifier learned on other sites marks comments here when this many sites' newest profiles
# held comments under it (and none held their post or metadata there): one site's odd container is
# not the web's comment markup (2013 §4.7).
KNOWN_ID_SITES = 2


class ProfileBook(StoreBase):
    """Profile versions per site."""

    def next_profile_version(self, site: str) -> int:
        row = self.db.execute("SELECT COALESCE(MAX(version), 0) FROM profiles WHERE site = ?", [site]).fetchone()
        return int(row[0]) + 1

    def add_profile(self, row: dict[str, Any]) -> None:
        """Insert a `profiles` row (inside a transaction)."""
        self.db.insert_row("profiles", row)

    def update_profile(self, site: str, version: int, *, profile: str, pages: int, warnings: str) -> None:
        """Rewrite a stored profile version (re-extraction), in its own transaction."""
        with self.transaction() as db:
            db.execute(
                "UPDATE profiles SET profile = ?, pages = ?, warnings = ? WHERE site = ? AND version = ?",
                [profile, pages, warnings, site, version],
            )

    def profiles_of(self, site: str) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM profiles WHERE site = ? ORDER BY version", [site])

    def sites_with_profile(self) -> set[str]:
        return {r["site"] for r in self._rows("SELECT DISTINCT site FROM profiles")}

    def latest_profile(self, site: str) -> dict[str, Any] | None:
        return self._one("SELECT * FROM profiles WHERE site = ? ORDER BY version DESC LIMIT 1", [site])

    def latest_profile_version(self, site: str) -> int | None:
        row = self._one("SELECT MAX(version) AS v FROM profiles WHERE site = ?", [site])
        return int(row["v"]) if row and row["v"] is not None else None

    def profile(self, site: str, version: int) -> dict[str, Any] | None:
        return self._one("SELECT * FROM profiles WHERE site = ? AND version = ?", [site, version])

    def known_comment_identifiers(
        self, site: str, min_sites: int = KNOWN_ID_SITES, before: str | None = None
    ) -> frozenset[str]:
        """Identifiers that held comments on at least `min_sites` other sites (their newest profiles,
        among those learned before `before` when given)."""
        rows = self._rows(
            "SELECT p.profile FROM profiles p JOIN (SELECT site, MAX(version) AS v FROM profiles WHERE site != ?"
            " AND learned_at < ? GROUP BY site) m ON m.site = p.site AND m.v = p.version",
            [site, before or "9999"],
        )
        comments: Counter[str] = Counter()
        elsewhere: set[str] = {"_default"}
        for row in rows:
            data = json.loads(row["profile"])
            comments.update(set(data.get("comment_ids") or []))
            elsewhere.update(data.get("post_ids") or [], data.get("metadata_ids") or [])
        return frozenset(i for i, n in comments.items() if n >= min_sites and i not in elsewhere)

    def known_comment_identifiers_by_site(
        self, sites: list[str], min_sites: int = KNOWN_ID_SITES, before: str | None = None
    ) -> dict[str, frozenset[str]]:
        """known_comment_identifiers of each of `sites`, the profiles read and parsed once (a run's
        driver needs every site's set before its tasks start: once per site was sites x profiles)."""
        rows = self._rows(
            "SELECT p.site, p.profile FROM profiles p JOIN (SELECT site, MAX(version) AS v FROM profiles"
            " WHERE learned_at < ? GROUP BY site) m ON m.site = p.site AND m.v = p.version",
            [before or "9999"],
        )
        comments: Counter[str] = Counter()
        elsewhere: Counter[str] = Counter()
        own: dict[str, tuple[set[str], set[str]]] = {}
        for row in rows:
            data = json.loads(row["profile"])
            held = set(data.get("comment_ids") or [])
            other = {*(data.get("post_ids") or []), *(data.get("metadata_ids") or [])}
            own[row["site"]] = (held, other)
            comments.update(held)
            elsewhere.update(other)
        # Only these can reach min_sites with one site left out.
        candidates = [i for i, n in comments.items() if n >= min_sites and i != "_default"]
        known: dict[str, frozenset[str]] = {}
        for site in sites:
            held, other = own.get(site, (set(), set()))
            known[site] = frozenset(
                i for i in candidates if comments[i] - (i in held) >= min_sites and elsewhere[i] - (i in other) <= 0
            )
        return known
