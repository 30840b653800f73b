"""One crawl at a time per store: the lock file beside a SQLite store, its format, and `run_lock`.

with RunLock("blogs.db.lock") as lock: assert lock.acquired

fcntl.flock is released by the kernel when the process dies, even on kill -9, so a crashed
run never leaves a stale lock behind. The `crawl` command takes the lock before anything opens
the store; the crawl's lock extension (crawler.extensions.runlock) asks again for it, which succeeds
at once in the process holding it (flock alone would refuse a second open file of the same process).

The file holds one line, written here and read here only (holder_line, holder_pid, holder_task):
"pid 7 since 2026-11-27T10:00:00+0000" for a crawl, "reextract pid 7 since ..." for another task.
"""

from __future__ import annotations

import fcntl
import os
import re
import time
from pathlib import Path

from store.pglock import PgRunLock
from store.storefile import is_database_url

# What may hold a store's lock besides a crawl; a crawl's line names no task.
OTHER_TASKS = ("reextract", "copy")


def holder_line(purpose: str = "crawl", pid: int | None = None) -> str:
    """The lock file's line: holder_line("copy", 7).startswith("copy pid 7 since ")."""
    task = "" if purpose == "crawl" else f"{purpose} "
    return f"{task}pid {pid or os.getpid()} since {time.strftime('%Y-%m-%dT%H:%M:%S%z')}\n"


def holder_pid(line: str) -> int:
    """The pid of a crawl's lock file line; -1 for another task's or an unreadable line (its holder cannot
    be told to be a crawl): holder_pid(holder_line("crawl", 7)) == 7."""
    found = re.match(r"pid (\d+)", line)
    return int(found.group(1)) if found else -1


# Lock files held by this process: resolved path -> the RunLock holding the flock.
_HELD: dict[str, RunLock] = {}


class RunLock:
    """Non-blocking exclusive lock on `path`; the holder's pid and start time are written into it."""

    def __init__(self, path: str | os.PathLike[str], purpose: str = "crawl") -> None:
        self.path = Path(path)
        self.purpose = purpose  # "crawl", "reextract" or "copy": written for whoever is refused
        self._fd: int | None = None
        self._nested = False  # acquired while another RunLock of this process holds the file

    @property
    def acquired(self) -> bool:
        return self._fd is not None or self._nested

    def _key(self) -> str:
        return str(self.path.expanduser().resolve())

    def acquire(self) -> bool:
        """Take the lock if it is free; False (at once) if another process holds it.

        OSError when the lock file cannot be created (e.g. its directory cannot be made).
        """
        if self.acquired:
            return True
        holder = _HELD.get(self._key())
        if holder is not None and holder._fd is not None:
            self._nested = True
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, holder_line(self.purpose).encode())
        self._fd = fd
        _HELD[self._key()] = self
        return True

    def holder(self) -> str:
        """What the current holder wrote (pid and start time), for the error message."""
        try:
            return self.path.read_text(encoding="utf-8", errors="replace").strip() or "unknown process"
        except OSError:
            return "unknown process"

    def release(self) -> None:
        if self._nested:
            self._nested = False
            return
        if self._fd is None:
            return
        if _HELD.get(self._key()) is self:
            del _HELD[self._key()]
        try:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def run_lock(location: str, *, shared: bool = False, purpose: str = "crawl") -> RunLock | PgRunLock:
    """The crawl lock of the store at `location`: a lock file beside a SQLite store (always
    exclusive: one crawl per file), an advisory lock in a PostgreSQL one (store.pglock), shared
    by crawler workers (`shared`) and exclusive for reextract and copy (`purpose` says which)."""

    if is_database_url(location):
        return PgRunLock(location, shared=shared, purpose=purpose)
    return RunLock(f"{location}.lock", purpose)


def holder_task(holder: str) -> str:
    """What the holder of a store's lock does, from its holder() text: "crawl", "reextract" or "copy".

    holder_task("reextract pid 7 since 2026-11-27T10:00:00+0000") == "reextract"
    """
    words = holder.replace("blog-harvester", " ").split()
    return next((w for w in words if w in OTHER_TASKS), "crawl")


def other_lock_holder(lock_path: Path) -> int | None:
    """The pid of another process holding the crawl lock at `lock_path` (RunLock);
    None when no other process holds it, so every run recorded as running is dead; -1 when it is
    held but the holder cannot be told (then nothing may be declared dead)."""
    try:
        fd = os.open(lock_path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    except OSError:
        return -1
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            pass  # held (flock also refuses a second open file of the holding process itself)
        else:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return None
        pid = holder_pid(os.read(fd, 200).decode("utf-8", errors="replace"))
        return None if pid == os.getpid() else pid
    finally:
        os.close(fd)
