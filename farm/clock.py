"""A clock that tests can freeze, set and advance; the farm decides what is "published" by it."""

from __future__ import annotations

import datetime as dt
import threading
import time


def to_timestamp(value: float | dt.datetime) -> float:
    """A POSIX timestamp from a number or a datetime (naive datetimes are taken as UTC)."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=dt.UTC)
        return value.timestamp()
    return float(value)


class Clock:
    """Real time by default; `set()` or `freeze()` stop it, `resume()` lets it run again.

    `advance()` works in both modes: a running clock keeps running from the shifted time.
    All methods are thread-safe (the farm's request threads read it while a test moves it).
    """

    def __init__(self, start: float | dt.datetime | None = None) -> None:
        self._lock = threading.Lock()
        self._frozen: float | None = None if start is None else to_timestamp(start)
        self._offset = 0.0

    def now(self) -> float:
        with self._lock:
            return self._now_locked()

    def _now_locked(self) -> float:
        if self._frozen is not None:
            return self._frozen
        return time.time() + self._offset

    def datetime(self) -> dt.datetime:
        """The current clock time as an aware UTC datetime."""
        return dt.datetime.fromtimestamp(self.now(), dt.UTC)

    @property
    def frozen(self) -> bool:
        with self._lock:
            return self._frozen is not None

    def set(self, when: float | dt.datetime) -> None:
        """Freeze the clock at `when`."""
        with self._lock:
            self._frozen = to_timestamp(when)

    def freeze(self) -> float:
        """Stop the clock at its current time and return that time."""
        with self._lock:
            self._frozen = self._now_locked()
            return self._frozen

    def resume(self) -> None:
        """Let a frozen clock run again at real speed from where it stands."""
        with self._lock:
            if self._frozen is not None:
                self._offset = self._frozen - time.time()
                self._frozen = None

    def advance(self, seconds: float | dt.timedelta) -> float:
        """Move the clock forward (or back, if negative) and return the new time."""
        delta = seconds.total_seconds() if isinstance(seconds, dt.timedelta) else float(seconds)
        with self._lock:
            if self._frozen is not None:
                self._frozen += delta
            else:
                self._offset += delta
            return self._now_locked()

    def __repr__(self) -> str:
        state = "frozen" if self.frozen else "running"
        return f"Clock({self.datetime().isoformat()}, {state})"
