"""The store: the schema and every SQL statement of the project, behind one interface.

with open_store("blogs.db") as store: store.due_feeds(["https://example.org/feed/"], now=time.time())

Layers (tests/test_layers.py): commands -> pipelines -> crawler -> store -> extractor. The store
imports nothing of crawler/, pipelines/ or commands/. `StoreBackend` (store.base) is the
one door (its methods are every read and write); `Store` (store.sqlite) and `PostgresStore`
(store.postgres) its two backends. `open_store` opens (or makes) the crawl's store;
`open_existing_store` opens one that must exist, read-only unless asked (the query commands).
"""

from __future__ import annotations

import os
from pathlib import Path

from store.base import StoreBackend
from store.postgres import PostgresStore
from store.sqlite import Store, default_db_path
from store.storefile import StoreError, is_database_url, refuse_url

__all__ = [
    "PostgresStore",
    "Store",
    "StoreBackend",
    "StoreError",
    "default_db_path",
    "open_existing_store",
    "open_store",
    "store_location",
]


def store_location(setting: str | None = None) -> str:
    """Where BLOGS_DB points: a postgresql:// URL as given, else the SQLite file (store.sqlite.default_db_path).

    store_location("postgresql://u@h/blogs") == "postgresql://u@h/blogs"
    """
    if setting and is_database_url(setting):
        return setting
    return str(default_db_path(setting))


def open_store(location: str | os.PathLike[str], *, read_only: bool = False, create: bool = True) -> StoreBackend:
    """The store at `location`: a file path (SQLite, store.sqlite.Store) or a postgresql:// URL
    (store.postgres.PostgresStore). Any other URL raises StoreError, one line."""
    where = os.fspath(location)
    if is_database_url(where):
        return PostgresStore(where, read_only=read_only, create=create)
    refuse_url(where)
    return Store(location, read_only=read_only, create=create)


def open_existing_store(location: str | os.PathLike[str], *, write: bool = False) -> StoreBackend:
    """The existing store at `location`, read-only (`mode=ro`) unless `write`; never a new store.

    FileNotFoundError when there is no file; StoreError (store.storefile) when the file or the
    postgresql:// database is not a store (empty, not SQLite, another program's database,
    damaged, unreachable) or `location` is another URL, with nothing written.
    """
    where = os.fspath(location)
    if not is_database_url(where):
        refuse_url(where)
        if not Path(where).exists():
            raise FileNotFoundError(f"no store at {where}: run `scrapy crawl blogs` first, or give -s BLOGS_DB=PATH")
    return open_store(location, read_only=not write, create=False)
