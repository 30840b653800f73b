"""The store: the schema and every SQL statement of the project, behind one interface.

with open_store("blogs.db") as store: store.due_feeds(["https://example.org/feed/"], now=time.time())

Layers (tests/test_layers.py): commands -> pipelines -> crawler -> store -> extractor. The store
imports nothing of crawler/, pipelines/ or commands/. `StoreBackend` (store.base) is the
interface; `Store` (store.sqlite) the SQLite implementation.
"""

from __future__ import annotations

import os

from store.base import StoreBackend
from store.sqlite import Store, default_db_path
from store.storefile import StoreError, refuse_url

__all__ = ["Store", "StoreBackend", "StoreError", "default_db_path", "open_store"]


def open_store(location: str | os.PathLike[str], *, read_only: bool = False, create: bool = True) -> StoreBackend:
    """The store at `location`: a file path (SQLite). A database URL raises StoreError, one line
    ("PostgreSQL backend not available yet" for postgresql://); see store.sqlite.Store for the rest."""
    refuse_url(os.fspath(location))
    return Store(location, read_only=read_only, create=create)
