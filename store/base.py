"""The store's interface: what the crawler, the pipelines and the commands call on a store.

store: StoreBackend = open_store("blogs.db")   # or open_store("postgresql://user@host/blogs")

Two backends: store.sqlite.Store (SQLite through sqlite-utils, WAL; the default) and
store.postgres.PostgresStore (psycopg 3 with a connection pool). Both are the same mixins
(store.pages, store.batches, store.extractions, store.crawlstate, store.runs) over a connection
with one interface (store.sql.Database): every statement is written once. The read-side queries
(store.query), comment rows (store.comments) and comment feeds (store.commentfeeds) are module
functions over `store.db`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

from store.sql import Database


class StoreBackend(Protocol):
    """A connection to one store: crawl state, pages, batches, profiles, runs (see docs/schema.md)."""

    path: Path  # the SQLite file; for PostgreSQL the URL without its password, for messages
    location: str  # what open_store() was given: a file path or a postgresql:// URL
    read_only: bool

    @property
    def db(self) -> Database:
        """The connection, SQLite's dialect on either backend (store.query, store.comments and
        store.commentfeeds take it)."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> StoreBackend: ...

    def __exit__(self, *exc: object) -> None: ...

    def transaction(self) -> AbstractContextManager[Any]:
        """One write transaction, the store's write lock taken first (nested calls join the outer one)."""
        ...

    # -- site leases: which crawler worker fetches which site (store.leases) --
    def claim_sites(self, owner: str, sites: Sequence[str], *, now: float, lease: float, limit: int) -> list[str]:
        """Renew `owner`'s leases among `sites`, claim free or lapsed ones up to `limit`; the sites held."""
        ...

    def renew_leases(self, owner: str, *, now: float, lease: float) -> list[str]:
        """Extend every lease `owner` still holds; returns those sites."""
        ...

    def release_sites(self, owner: str, sites: Sequence[str] | None = None) -> int:
        """Give up `owner`'s leases (all, or those of `sites`)."""
        ...

    # -- crawl state: feeds and articles (store.crawlstate) --
    def sync_feeds(self, sources: Iterable[tuple[str, str]], now: float) -> None:
        """Register (url, site name) pairs from the feeds file; existing feeds keep their state."""
        ...

    def feed(self, url: str) -> dict[str, Any] | None: ...

    def due_feeds(self, urls: Sequence[str], now: float) -> list[dict[str, Any]]:
        """Feeds among `urls` that are not muted and whose next check has come, oldest first."""
        ...

    def set_feed_url(self, url: str, feed_url: str | None) -> None:
        """Remember the feed discovered for a home page (None: rediscover); validators reset."""
        ...

    def set_site_home(self, site: str, home_url: str | None, title: str | None) -> None: ...

    def record_feed_ok(
        self,
        url: str,
        *,
        now: float,
        status: int,
        next_check: float,
        interval: float,
        feed_url: str | None = None,
        etag: str | None = None,
        last_modified: str | None = None,
        title: str | None = None,
        new_articles: Sequence[dict[str, Any]] = (),
        seen: Sequence[dict[str, Any]] = (),
    ) -> list[str]:
        """Store a successful poll (200 or 304) with the new articles in one transaction."""
        ...

    def record_feed_failure(
        self, url: str, *, now: float, status: int | None, error: str, next_check: float, mute: str | None
    ) -> int:
        """Count a failed poll; `mute` (a reason) stops polling. Returns the consecutive failure count."""
        ...

    def unmute(self, urls: Sequence[str]) -> int:
        """Let muted feeds be polled again at once; returns how many were muted."""
        ...

    def count_muted(self, urls: Sequence[str]) -> int: ...

    def feed_entry_times(self, feed: str, since: float) -> list[float]:
        """Publication (else discovery) times of the feed's articles since `since`."""
        ...

    def known_articles(self, site: str, entry_ids: Sequence[str], urls: Sequence[str]) -> dict[str, str]:
        """Map entry ids and URLs already stored for `site` (or as any article URL) to the article URL."""
        ...

    def article(self, url: str) -> dict[str, Any] | None: ...

    def article_sites(self, urls: Sequence[str]) -> set[str]:
        """The sites of these articles."""
        ...

    def due_articles(self, feeds: Sequence[str], now: float, limit: int = 10000) -> list[dict[str, Any]]:
        """Pending first fetches and due re-fetches of articles of `feeds`, first fetches first."""
        ...

    def due_sites(self, feeds: Sequence[str], now: float) -> set[str]:
        """Sites with a due feed poll or article fetch among `feeds`."""
        ...

    def next_due(self, feeds: Sequence[str]) -> float | None:
        """Earliest next check of an unmuted feed or next fetch of an article of `feeds` (None: nothing)."""
        ...

    def skip_refetch(
        self,
        url: str,
        now: float,
        offsets: Sequence[float],
        *,
        comment_feed_etag: str | None = None,
        comment_feed_last_modified: str | None = None,
    ) -> float | None:
        """Pass over a due re-fetch (nothing changed); returns the next due time or None when done."""
        ...

    def comment_totals(self) -> tuple[int, int]:
        """(comments, comments marked gone) in the store."""
        ...

    def last_run_clock(self) -> float | None:
        """The latest time a crawl run recorded (its start or end)."""
        ...

    def throttle_site(self, site: str, until: float) -> None:
        """Keep a site's Retry-After for later runs: nothing of it is requested before `until`."""
        ...

    def throttled_sites(self, now: float) -> dict[str, float]:
        """Sites whose Retry-After has not passed at `now` -> until when."""
        ...

    def postpone(self, *, feeds: Sequence[str] = (), articles: Sequence[str] = (), until: float) -> None:
        """Move due polls and fetches to `until` (their site asked to wait), failures untouched."""
        ...

    def record_article_failure(
        self,
        url: str,
        *,
        now: float,
        status: int | None,
        error: str,
        next_fetch_at: float | None,
        state: str,
        failures: int,
    ) -> None:
        """Record a failed page fetch and the failure count to keep; `next_fetch_at` None stops trying."""
        ...

    # -- pages (store.sqlite) --
    def save_page(
        self,
        *,
        article: str,
        site: str,
        kind: str,
        url: str,
        request_url: str,
        status: int,
        headers: dict[str, list[str]],
        body: bytes,
        fetched_at: float,
        offsets: Sequence[float],
        slash_comments: int | None = None,
        comment_feed_sig: str | None = None,
        comment_feed_etag: str | None = None,
        comment_feed_last_modified: str | None = None,
    ) -> int:
        """Commit a fetched page and advance its article's schedule atomically; returns the snapshot id."""
        ...

    def save_template_page(
        self, *, site: str, url: str, status: int, headers: dict[str, list[str]], body: bytes, fetched_at: float
    ) -> int:
        """Commit a fetched template page (a site's home page); returns its id."""
        ...

    def template_pages(self, site: str, limit: int = 3) -> list[dict[str, Any]]:
        """The site's stored template pages (url, headers, raw body)."""
        ...

    def has_template_page(self, site: str) -> bool:
        """Whether a template page of the site was ever fetched."""
        ...

    # -- batches, profiles, extraction inputs (store.batches) --
    def add_to_batch(self, *, site: str, snapshot: int, article: str, size: int, now: float) -> list[int]:
        """Put a first fetch into the site's open batch; returns the ids of batches this filled."""
        ...

    def settle_batches(self, site: str, size: int, now: float, *, wait_for_feeds: bool) -> list[int]:
        """Close the site's batches that are full now (see `_settle`); returns their ids."""
        ...

    def assign_unbatched(self, size: int, now: float) -> list[int]:
        """Recovery: batch first fetches a killed run stored but did not batch; close open batches
        that are full now. Returns the ids of the batches this filled."""
        ...

    def full_batches(self, site: str | None = None) -> list[int]:
        """Batches waiting for extraction, oldest first."""
        ...

    def batch(self, batch_id: int) -> dict[str, Any] | None: ...

    def batch_snapshots(self, batch_id: int) -> list[int]: ...

    def sites_with_profile(self) -> set[str]: ...

    def latest_profile(self, site: str) -> dict[str, Any] | None: ...

    def latest_profile_version(self, site: str) -> int | None: ...

    def profile(self, site: str, version: int) -> dict[str, Any] | None: ...

    def pending_snapshots(self, site: str | None = None) -> list[int]:
        """Snapshots never extracted that a profile may extract (members of full batches wait for them)."""
        ...

    def extraction_states(self, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        """snapshot -> {method, profile_version} for those of `ids` already extracted."""
        ...

    def poorly_matched(self, site: str, below_version: int, threshold: float) -> list[int]:
        """Snapshots an older profile version extracted with a template match under `threshold`."""
        ...

    def newest_fresh_snapshots(self, site: str, limit: int, upto: int, exclude_article: str) -> list[int]:
        """The site's newest first fetches up to snapshot `upto`, one per article, without `exclude_article`."""
        ...

    def known_comment_identifiers(self, site: str, min_sites: int = ..., before: str | None = None) -> frozenset[str]:
        """Identifiers that held comments on at least `min_sites` other sites (their newest profiles,
        among those learned before `before` when given)."""
        ...

    def feed_comment_texts(self, snapshots: Sequence[dict[str, Any]]) -> dict[int, list[str]]:
        """snapshot id -> texts of its article's feed comments dated no later than the snapshot's fetch."""
        ...

    def load_snapshots(self, ids: Sequence[int]) -> list[dict[str, Any]]:
        """Snapshot rows (with the gzip body) in the order of `ids`."""
        ...

    # -- runs (store.runs) --
    def start_run(self, *, now: float, feeds_file: str, watch: bool) -> int:
        """Record a crawl run; earlier runs still running whose crawl is gone become `crashed`."""
        ...

    def finish_run(self, run_id: int, *, now: float, reason: str, summary: str, stats: dict[str, Any]) -> None:
        """Record the run's end: Scrapy's close reason, the one-line summary and the stats as JSON."""
        ...

    def comment_versions_count(self) -> int:
        """Earlier comment texts kept so far (the run's edits are the difference from its start)."""
        ...

    def comments_since(self, since: str) -> tuple[int, int]:
        """Comments first seen, and comments marked gone, at or after the ISO time `since`."""
        ...

    # -- extractions and profiles (store.extractions) --
    def write_extractions(self, rows: Sequence[Sequence[Any]], force: bool = False) -> None:
        """Upsert extraction rows and re-derive their articles' posts and comments (inside a transaction)."""
        ...

    def next_profile_version(self, site: str) -> int: ...

    def add_profile(self, row: dict[str, Any]) -> None:
        """Insert a `profiles` row (inside a transaction)."""
        ...

    def update_profile(self, site: str, version: int, *, profile: str, pages: int, warnings: str) -> None:
        """Rewrite a stored profile version (re-extraction), in its own transaction."""
        ...

    def profiles_of(self, site: str) -> list[dict[str, Any]]: ...

    def done_batches(self, site: str) -> list[dict[str, Any]]: ...

    def finish_batch(self, batch_id: int, version: int, now: float) -> None:
        """Mark a batch extracted, with the profile version it taught (inside a transaction)."""
        ...

    def batch_unprocessed_feeds(self, batch_id: int) -> list[int]:
        """Stored comment feeds of the batch's articles not parsed yet, oldest first."""
        ...

    def batches_members(self, batch_ids: Sequence[int]) -> set[int]:
        """Snapshot ids in any of the batches."""
        ...

    def profile_extractions(self, site: str) -> list[tuple[int, int | None]]:
        """(snapshot, profile_version) of the site's profile extractions, by snapshot."""
        ...

    def snapshot_sites(self) -> list[str]:
        """Every site with a stored page, by name."""
        ...

    def site_snapshots(self, site: str) -> list[tuple[int, str]]:
        """(snapshot id, article) of every stored page of the site, oldest first."""
        ...

    def max_snapshot_id(self) -> int: ...

    def unsettled_snapshots(self, after: int, site: str | None = None) -> list[tuple[str, int]]:
        """(site, snapshot) not extracted as a batch that came after snapshot `after` or wait in an
        open batch, by site and id (the end-of-run sweep of pipelines.extract); of one site or all."""
        ...
