"""The farm's request log: one small record per request, kept in memory."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit


@dataclass(frozen=True)
class RequestRecord:
    """One request as the farm saw it.

    `status` is the status line sent, 0 when the connection was dropped without an answer.
    `headers` holds every request header with a lower-cased name.
    """

    wall_time: float
    clock_time: float
    method: str
    path: str  # request target as sent: path plus query string
    site: str
    port: int
    status: int
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.path}"

    @property
    def path_only(self) -> str:
        """The decoded path without the query string, as the farm routes it."""
        return normalize_path(self.path)

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())

    @property
    def if_none_match(self) -> str | None:
        return self.header("If-None-Match")

    @property
    def if_modified_since(self) -> str | None:
        return self.header("If-Modified-Since")

    @property
    def user_agent(self) -> str | None:
        return self.header("User-Agent")


def normalize_path(target: str) -> str:
    """Path of a request target or URL, percent-decoded, without query or fragment.

    Decoding makes `%E3%83%86` and `%e3%83%86` (WordPress writes lower case) the same route.
    """
    path = urlsplit(target).path or "/"
    return unquote(path, errors="surrogateescape")


class RequestLog:
    """Thread-safe, append-only list of `RequestRecord`s."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: list[RequestRecord] = []

    def append(self, record: RequestRecord) -> None:
        with self._lock:
            self._records.append(record)

    def clear(self) -> None:
        with self._lock:
            self._records.clear()

    def snapshot(self) -> list[RequestRecord]:
        with self._lock:
            return list(self._records)
