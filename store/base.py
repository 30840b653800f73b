"""The store's one door: every read and write the crawler, the pipelines and the commands make.

with open_store("blogs.db") as store: store.due_feeds(["https://example.org/feed/"], now=time.time())

`StoreBackend` is the door: the parts below, one module a group of tables, each holding that
group's SQL, over a connection with one interface (store.sql.Database, SQLite's dialect on either
backend). Two backends subclass it and add only opening, schema and closing: store.sqlite.Store
(SQLite through sqlite-utils, WAL; the default) and store.postgres.PostgresStore (psycopg 3 with
a connection pool). Callers outside store/ call its methods and never take `db`.

| part | tables |
| --- | --- |
| store.crawlstate.CrawlState | sites, feeds, articles (the crawl schedule) |
| store.leases.LeaseBook | site leases (which crawler worker fetches which site) |
| store.pages.PageState | snapshots (fetched pages) |
| store.batches.BatchState | batches, batch_members (extraction inputs) |
| store.profiles.ProfileBook | profiles (what a site's batch taught) |
| store.extractions.ExtractionState | extractions, posts, comments (derived) |
| store.runs.RunBook | runs |
| store.commentfeeds.CommentFeedBook | comment_feed_fetches, feed_comments |
| store.commentsystems.CommentSystemBook | api_reads (comment threads read from an endpoint) |
| store.query.ReadQueries | what the query commands read (sites, posts, comments, search, export) |
| store.feedstates.FeedStates | feed states for `scrapy feeds` |
| store.reextractions.ReextractionBook | reextractions (resumable re-extraction runs) |
| store.warcimports.WarcBook | warc_imports and the pages a WARC archive brings or takes |
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Self

from store.batches import BatchState
from store.crawlstate import CrawlState
from store.extractions import ExtractionState
from store.feedstates import FeedStates
from store.leases import LeaseBook
from store.pages import PageState
from store.profiles import ProfileBook
from store.query import ReadQueries
from store.reextractions import ReextractionBook
from store.runs import RunBook
from store.schema import TABLES
from store.warcimports import WarcBook


class StoreBackend(
    PageState,
    LeaseBook,
    BatchState,
    ProfileBook,
    ExtractionState,
    CrawlState,
    RunBook,
    ReadQueries,
    FeedStates,
    ReextractionBook,
    WarcBook,
):
    """A connection to one store: crawl state, pages, batches, profiles, runs (see docs/schema.md)."""

    path: Path  # the SQLite file; for PostgreSQL the URL without its password, for messages
    location: str  # what open_store() was given: a file path or a postgresql:// URL
    read_only: bool

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def table_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of the store's tables, ordered by its first two columns (to compare stores)."""
        if table not in TABLES:
            raise ValueError(f"no table {table!r} in the store")
        return list(self.db.query(f"SELECT * FROM {table} ORDER BY 1, 2"))
