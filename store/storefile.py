"""Opening the store file safely: refuse whatever is not a blog-harvester store before writing to it.

check_file(Path("blogs.db"))   # "missing", "empty" or "sqlite"; StoreError for anything else

`store.sqlite.Store` runs these checks when it opens a path: the file's 100-byte header says
whether it is SQLite at all and whether it was cut short; a read-only connection then reads its
schema to tell a store (PRAGMA application_id, or the store's own tables for stores made before
the marker) from another program's database. Nothing is written into a file that fails them.
Every problem is one `StoreError` whose message is one line naming the file, so the query
commands and the crawl report it the same way.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from pathlib import Path


def is_database_url(location: str) -> bool:
    """is_database_url("postgresql://u@h/db") is True; a file path is False."""
    return location.split("://", 1)[0].lower() in ("postgresql", "postgres") and "://" in location


SQLITE_MAGIC = b"SQLite format 3\x00"
# PRAGMA application_id of a store ("Blog"): written when a store is created or upgraded.
APPLICATION_ID = 0x426C6F67
# A store made before the marker has these tables (another program's would rarely have all three
# with these key columns); a partial old store is recognised by holding only the store's tables.
CORE_COLUMNS = {"feeds": {"url", "site"}, "articles": {"url", "site"}, "snapshots": {"article", "fetched_at"}}
# Primary SQLite result codes (sqlite_errorcode & 0xFF) that mean "this file", not "this query".
_SQLITE_PERM, _SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_CORRUPT = 3, 8, 10, 11
_SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_NOTADB = 13, 14, 26


# Files (device, inode) this process has opened SQLite connections to. Their header is not read
# again: closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's
# included, and another process would then take the live WAL for abandoned and delete it.
_CONNECTED: set[tuple[int, int]] = set()


class StoreError(Exception):
    """The store cannot be opened or used: missing, not SQLite, another program's database,
    damaged, or in a folder that cannot be written. str(error) is one line naming the file."""


def first_line(exc: BaseException) -> str:
    """An error's message on one line: first_line(OSError("refused\nDETAIL: x")) == "refused"."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def refuse_url(location: str) -> None:
    """StoreError when `location` is a URL of a database the store cannot use (postgresql:// is
    opened by store.postgres before this is asked).

    refuse_url("blogs.db") is None; refuse_url("mysql://u@h/db") raises StoreError.
    """
    if "://" in location:
        raise StoreError(
            f"BLOGS_DB {location.split('://', 1)[0]}://… is not a store this version can open:"
            " give a file path or a postgresql:// URL"
        )


def open_connection(
    path: Path, *, read_only: bool, create: bool, known: Collection[str], timeout: float
) -> sqlite3.Connection:
    """A connection to the store at `path` once the checks passed: read-only (`mode=ro`) or
    read-write; `create` lets a missing file, an empty file or an empty SQLite database become a
    new store (never with `read_only`). StoreError, with nothing written, for anything else."""
    if str(path) == ":memory:":
        return sqlite3.connect(":memory:", timeout=timeout)
    create = create and not read_only
    state = check_file(path)
    if state == "missing" and not create:
        raise StoreError(f"no store at {path}: run `scrapy crawl blogs` first, or give -s BLOGS_DB=PATH")
    if state == "empty" and not create:
        raise StoreError(f"{path} is an empty file, not a blog-harvester store yet: `scrapy crawl blogs` makes it one")
    if not read_only:
        prepare_folder(path)
    if state == "sqlite":
        with converted(path):
            probe = _probe(path, timeout)
            try:
                kind = classify(probe, path, known)
            finally:
                probe.close()
        if kind == "empty" and not create:
            raise StoreError(
                f"{path} is an empty SQLite database, not a blog-harvester store yet: `scrapy crawl blogs` makes it one"
            )
    with converted(path):
        conn = connect_read_only(path, timeout) if read_only else sqlite3.connect(str(path), timeout=timeout)
    _remember(path)
    return conn


def _remember(path: Path) -> None:
    """Note that this process now holds a connection to `path` (see _CONNECTED)."""
    try:
        info = path.stat()
    except OSError:
        return
    _CONNECTED.add((info.st_dev, info.st_ino))


def _probe(path: Path, timeout: float) -> sqlite3.Connection:
    """A connection to read the schema of a file not yet known to be a store, creating nothing
    beside it: `immutable=1` while no -wal, -shm or -journal file exists (nobody has it open for
    writing; even a read-only connection to a WAL database would leave -wal and -shm behind)."""
    if any(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-shm", "-journal")):
        return connect_read_only(path, timeout)
    conn = sqlite3.connect(path.absolute().as_uri() + "?mode=ro&immutable=1", uri=True, timeout=timeout)
    conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    return conn


@contextmanager
def converted(path: Path) -> Iterator[None]:
    """Turn SQLite errors about the file itself (damaged, read-only, ...) into StoreError."""
    try:
        yield
    except sqlite3.Error as exc:
        error = storage_error(exc, path)
        if error is None:
            raise
        raise error from exc


def check_file(path: Path) -> str:
    """What `path` holds, from its header only: "missing", "empty" (0 bytes) or "sqlite".

    StoreError when it is not a regular file, not SQLite, or a SQLite file cut short.
    """
    try:
        info = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return "missing"
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from exc
    if stat.S_ISDIR(info.st_mode):
        raise StoreError(f"{path} is a folder, not a store file: give -s BLOGS_DB=FOLDER/blogs.db")
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(f"{path} is not a regular file, so it cannot be a store")
    if info.st_size == 0:
        return "empty"
    if (info.st_dev, info.st_ino) in _CONNECTED:
        return "sqlite"  # checked when this process first connected; see _CONNECTED
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror}") from exc
    if not head.startswith(SQLITE_MAGIC):
        raise StoreError(
            f"{path} is not a SQLite database ({_describe(head)}); BLOGS_DB must name a blog-harvester store"
        )
    if len(head) < 100:
        raise StoreError(f"{path} is damaged: its SQLite header is cut short at {len(head)} bytes")
    _check_size(path, head, info.st_size)
    return "sqlite"


def _describe(head: bytes) -> str:
    """A few words on what a non-SQLite file starts with, for the error message."""
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return "it starts with bytes " + head[:8].hex(" ")
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return f"it holds text: {first[:40]!r}" if first else "it holds only blank text"


def _has_data(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except OSError:
        return False


def _check_size(path: Path, head: bytes, size: int) -> None:
    """StoreError when the header's page count says the file was longer (a truncated copy or disk)."""
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise StoreError(f"{path} is damaged: its SQLite header is invalid (page size {page_size})")
    pages = int.from_bytes(head[28:32], "big")
    # The in-header size is only valid when its change counter matches; a live -wal or -journal
    # may legitimately lag the header behind the file (a checkpoint or commit in progress).
    valid = pages > 0 and head[24:28] == head[92:96]
    live = _has_data(Path(f"{path}-wal")) or _has_data(Path(f"{path}-journal"))
    if valid and not live and size < pages * page_size:
        raise StoreError(
            f"{path} is damaged: it is cut short at {size} of its {pages * page_size} bytes;"
            f" restore it from a backup, or salvage what is left with `sqlite3 {path} .recover`"
        )


def connect_read_only(path: Path, timeout: float) -> sqlite3.Connection:
    """A `mode=ro` connection that has read the schema once; StoreError when it cannot.

    Reading a WAL database needs its -shm file: when the folder is read-only and there is none,
    the file is opened `immutable=1` instead, which is safe there because no writer can work in a
    read-only folder; but if a -wal file holds changes, they cannot be read that way.
    """
    uri = path.absolute().as_uri() + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=timeout)
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as exc:
        conn.close()
        if _primary(exc) not in (_SQLITE_READONLY, _SQLITE_CANTOPEN) or os.access(path.absolute().parent, os.W_OK):
            raise
        if _has_data(Path(f"{path}-wal")):
            raise StoreError(
                f"{path} has changes in {path.name}-wal that cannot be read without writing {path.name}-shm,"
                f" and its folder is read-only: open it once with write access (e.g. `scrapy crawl blogs`)"
            ) from exc
    conn = sqlite3.connect(uri + "&immutable=1", uri=True, timeout=timeout)
    conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    return conn


def classify(conn: sqlite3.Connection, path: Path, known: Collection[str]) -> str:
    """ "store" (a blog-harvester store, maybe of an older schema) or "empty" (SQLite with no tables).

    StoreError for another program's database. `known`: every table name the store may hold.
    """
    app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
    if app_id == APPLICATION_ID:
        return "store"
    tables = {
        name
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
        if not name.startswith("sqlite_")
    }
    if app_id == 0 and not tables:
        return "empty"
    if app_id == 0 and (_has_core(conn, tables) or (tables & set(known) and tables <= set(known))):
        return "store"
    shown = ", ".join(sorted(tables)[:6]) + (", …" if len(tables) > 6 else "")
    owner = f"application_id {app_id:#x}" if app_id else f"tables: {shown}"
    raise StoreError(
        f"{path} is a SQLite database but not a blog-harvester store ({owner}); give -s BLOGS_DB=PATH"
        " of a store, or of a new file for a new store"
    )


def _has_core(conn: sqlite3.Connection, tables: set[str]) -> bool:
    if not set(CORE_COLUMNS) <= tables:
        return False
    for table, needed in CORE_COLUMNS.items():
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info([{table}])")}
        if not needed <= columns:
            return False
    return True


def prepare_folder(path: Path) -> None:
    """Create the store's folder; StoreError when it cannot be made or written (the crawl writes
    the store, its -wal and -shm files there)."""
    folder = path.absolute().parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the folder {folder} for the store {path.name}: {exc.strerror}") from exc
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(
            f"cannot write the store {path}: its folder {folder} is not writable"
            f" (a crawl writes {path.name}, {path.name}-wal and {path.name}-shm there)"
        )
    if path.exists() and not os.access(path, os.W_OK):
        raise StoreError(f"cannot write the store {path}: the file is read-only")


def _primary(exc: sqlite3.Error) -> int:
    return int(getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF


def storage_error(exc: sqlite3.Error, path: Path) -> StoreError | None:
    """The StoreError for a SQLite error about the file itself (damaged, unreadable, read-only, full);
    None for any other error (a query's own mistake stays a normal exception)."""
    code = _primary(exc)
    message = " ".join(str(exc).split())
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return StoreError(
            f"{path} is damaged ({message}); restore it from a backup, or salvage what is left with"
            f" `sqlite3 {path} .recover`"
        )
    if code == _SQLITE_READONLY:
        return StoreError(f"cannot write {path} ({message}): a crawl needs write access to it and its folder")
    if code in (_SQLITE_PERM, _SQLITE_CANTOPEN):
        return StoreError(f"cannot open {path} ({message})")
    if code == _SQLITE_FULL:
        return StoreError(f"cannot write {path}: the disk is full")
    if code == _SQLITE_IOERR:
        return StoreError(f"cannot read or write {path}: {message}")
    return None
