"""Which errors are the store's, on either backend, and which of them mean it cannot be written any more.

store_fault(sqlite3.OperationalError("database or disk is full")) == "database or disk is full"

The one place that knows SQLite's and PostgreSQL's error kinds: the crawl (crawler.outcome), the
persist and extraction pipelines and the commands ask here.
"""

from __future__ import annotations

import errno
import sqlite3

import psycopg

from store.storefile import StoreError, first_line

# What a store's database may raise, on either backend.
DATABASE_ERRORS: tuple[type[BaseException], ...] = (sqlite3.Error, psycopg.Error)
# What a write can raise that is the store's, not a bug: the database's errors and the file system's.
STORE_ERRORS: tuple[type[BaseException], ...] = (*DATABASE_ERRORS, OSError)
# What opening the store can raise: its own error (a store that cannot be opened), the database's, the file system's.
STORE_OPEN_ERRORS: tuple[type[BaseException], ...] = (*STORE_ERRORS, StoreError)

# Primary SQLite result codes after which no write can succeed: BUSY/LOCKED (held beyond the
# busy timeout), READONLY, IOERR, CORRUPT, FULL, CANTOPEN, NOTADB, PERM.
_FATAL_SQLITE = {3, 5, 6, 8, 10, 11, 13, 14, 26}
_FATAL_ERRNO = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS, errno.EACCES, errno.EPERM}
# PostgreSQL error classes after which no write can succeed: connection lost, out of disk or
# memory, server shut down, system error; and no write privilege, a read-only transaction.
_FATAL_PG_CLASSES = {"08", "53", "57", "58"}
_FATAL_PG_STATES = {"42501", "25006"}


def store_fault(exc: BaseException) -> str | None:
    """Why `exc` means the store cannot be written any more, in words; None for other errors."""
    if isinstance(exc, StoreError):
        return str(exc)
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None:
            return str(exc) if (code & 0xFF) in _FATAL_SQLITE else None
        text = str(exc).lower()  # raised without a result code (e.g. by a wrapper)
        fatal = ("disk is full", "disk i/o error", "readonly database", "malformed", "not a database", "locked")
        return str(exc) if any(word in text for word in fatal) else None
    if isinstance(exc, psycopg.Error):
        state = exc.sqlstate or ""
        fatal_pg = isinstance(exc, psycopg.OperationalError) or state[:2] in _FATAL_PG_CLASSES
        return first_line(exc) if fatal_pg or state in _FATAL_PG_STATES else None
    if isinstance(exc, OSError) and exc.errno in _FATAL_ERRNO:
        return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
    return None
