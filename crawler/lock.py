"""One crawl at a time per database: an advisory lock file next to it.

with RunLock("blogs.db.lock") as lock: assert lock.acquired

fcntl.flock is released by the kernel when the process dies, even on kill -9, so a crashed
run never leaves a stale lock behind.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path


class RunLock:
    """Non-blocking exclusive lock on `path`; the holder's pid and start time are written into it."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._fd: int | None = None

    @property
    def acquired(self) -> bool:
        return self._fd is not None

    def acquire(self) -> bool:
        """Take the lock if it is free; False (at once) if another process holds it."""
        if self._fd is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()} since {time.strftime('%Y-%m-%dT%H:%M:%S%z')}\n".encode())
        self._fd = fd
        return True

    def holder(self) -> str:
        """What the current holder wrote (pid and start time), for the error message."""
        try:
            return self.path.read_text(encoding="utf-8", errors="replace").strip() or "unknown process"
        except OSError:
            return "unknown process"

    def release(self) -> None:
        if self._fd is None:
            return
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
