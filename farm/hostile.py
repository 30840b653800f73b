"""Misbehaviour: rules that make a path answer badly, and the hostile bodies they send.

Big bodies (`huge`, `gzip_bomb`) are streamed from small repeated blocks, so a bomb costs the
farm a few kilobytes of memory whatever size it claims.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from farm.response import HTML, RSS, Response

MODES = frozenset(
    {"status", "slow", "malformed", "html_as_feed", "redirect", "entity_bomb", "gzip_bomb", "huge", "drop"}
)
MiB = 1 << 20


@dataclass
class Rule:
    """`mode` with `opts` for `path` (decoded) on `site` (None: every site)."""

    site: str | None
    path: str
    mode: str
    opts: dict[str, Any] = field(default_factory=dict)
    prefix: bool = False
    remaining: int | None = None  # None: until behave(); n: only the next n requests

    def matches(self, site: str, path: str) -> bool:
        if self.site is not None and self.site != site:
            return False
        return path.startswith(self.path) if self.prefix else path == self.path

    def rank(self) -> tuple[int, int, int]:
        # Most specific first: exact over prefix, a named site over all sites, longer paths first.
        return (0 if self.prefix else 1, 1 if self.site else 0, len(self.path))


class Rules:
    """Thread-safe set of rules; `take()` finds the best match and counts it down."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rules: list[Rule] = []

    def add(self, rule: Rule) -> None:
        if rule.mode not in MODES:
            raise ValueError(f"unknown misbehaviour {rule.mode!r}; modes: {sorted(MODES)}")
        with self._lock:
            self._rules = [r for r in self._rules if (r.site, r.path) != (rule.site, rule.path)]
            self._rules.append(rule)

    def remove(self, site: str | None, path: str | None) -> None:
        """Drop rules for (site, path); path None drops every rule (of that site, or all)."""
        with self._lock:
            self._rules = [
                r for r in self._rules if not ((path is None or r.path == path) and (site is None or r.site == site))
            ]

    def take(self, site: str, path: str) -> Rule | None:
        with self._lock:
            candidates = [r for r in self._rules if r.matches(site, path)]
            if not candidates:
                return None
            rule = max(candidates, key=Rule.rank)
            if rule.remaining is not None:
                rule.remaining -= 1
                if rule.remaining <= 0:
                    self._rules.remove(rule)
            return rule


def respond(
    rule: Rule, normal: Callable[[], Response], home: Callable[[], Response], stopping: threading.Event
) -> Response:
    """The answer for a request caught by `rule`; `normal()` is what it would have been."""
    o = rule.opts
    mode = rule.mode
    if mode == "slow":
        if o.get("gate") is not None:  # a test lets each request through by releasing the semaphore
            _through(o["gate"], stopping)
        stopping.wait(float(o.get("delay", 0.0 if o.get("gate") is not None else 2.0)))
        resp = normal()
        if o.get("chunk_delay"):
            resp = _trickle(resp, float(o["chunk_delay"]), int(o.get("chunk_size", 1024)), stopping)
        return resp
    if mode == "status":
        return _status(o)
    if mode == "redirect":
        location = str(o.get("location") or o.get("to") or "")
        if not location:
            raise ValueError("redirect needs location=URL")
        body = f'<html><body><a href="{location}">Moved</a></body></html>'.encode()
        return Response(int(o.get("status", 301)), body, headers={"Location": location})
    if mode == "drop":
        return Response(0, drop=True)
    if mode == "malformed":
        return _malformed(normal(), str(o.get("how", "truncate")))
    if mode == "html_as_feed":
        body = bytes(o["body"]) if "body" in o else _home_html(home())
        return Response(200, body, content_type=str(o.get("content_type", HTML)))
    if mode == "entity_bomb":
        return Response(200, entity_bomb(int(o.get("levels", 10))), content_type=str(o.get("content_type", RSS)))
    if mode == "gzip_bomb":
        return gzip_bomb(int(o.get("size", 1024 * MiB)), str(o.get("content_type", RSS)))
    if mode == "huge":
        return huge(int(o.get("size", 64 * MiB)), str(o.get("content_type", RSS)), bool(o.get("chunked", False)))
    raise ValueError(f"unknown misbehaviour {mode!r}")


def _through(gate: threading.Semaphore, stopping: threading.Event) -> None:
    """Wait for one of the gate's permits, or for the farm to stop."""
    while not gate.acquire(timeout=0.1):
        if stopping.is_set():
            return


def _status(o: dict[str, Any]) -> Response:
    status = int(o.get("status", 500))
    headers = {str(k): str(v) for k, v in dict(o.get("headers", {})).items()}
    if o.get("retry_after") is not None:
        headers["Retry-After"] = str(o["retry_after"])
    default = f"<!DOCTYPE html><html><body><h1>Error {status}</h1></body></html>".encode()
    body = bytes(o["body"]) if "body" in o else default
    return Response(status, body, content_type=str(o.get("content_type", HTML)), headers=headers)


def _home_html(page: Response) -> bytes:
    return page.body if page.status == 200 else b"<!DOCTYPE html><html><body><p>Not a feed</p></body></html>"


_SAMPLE_FEED = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Sample</title>'
    b"<link>http://127.0.0.1/</link><item><title>One</title><link>http://127.0.0.1/one/</link></item>"
    b"</channel></rss>\n"
)
_BROKEN_ITEM = b"<item><title>Broken & unescaped <b>markup</title><link>http://127.0.0.1/x</item></b>"


def _malformed(resp: Response, how: str) -> Response:
    body = resp.body if resp.status == 200 and resp.body else _SAMPLE_FEED
    content_type = resp.content_type if resp.status == 200 else RSS
    if how == "truncate":  # valid HTTP, the XML stops in the middle
        return Response(200, body[: max(1, len(body) // 2)], content_type=content_type)
    if how == "invalid":  # complete body, not well-formed XML
        at = body.find(b"<channel>")
        at = at + len(b"<channel>") if at >= 0 else len(body) // 2
        return Response(200, body[:at] + _BROKEN_ITEM + body[at:], content_type=content_type)
    if how == "short":  # Content-Length promises more than is sent, then the connection closes
        return Response(200, body, content_type=content_type, declared_length=len(body) + 4096)
    raise ValueError("malformed how= must be 'truncate', 'invalid' or 'short'")


def _trickle(resp: Response, delay: float, size: int, stopping: threading.Event) -> Response:
    body = resp.body

    def chunks() -> Iterator[bytes]:
        for i in range(0, len(body), size):
            if i and stopping.wait(delay):
                return
            yield body[i : i + size]

    return Response(
        resp.status, content_type=resp.content_type, headers=resp.headers, stream=chunks(), length=len(body)
    )


def entity_bomb(levels: int = 10) -> bytes:
    """A "billion laughs" RSS feed: each entity expands to ten of the previous level."""
    lines = ['<!ENTITY lol0 "lol">']
    for i in range(1, levels):
        refs = f"&lol{i - 1};" * 10
        lines.append(f'<!ENTITY lol{i} "{refs}">')
    doctype = "<!DOCTYPE rss [\n" + "\n".join(lines) + "\n]>\n"
    feed = (
        f'<rss version="2.0"><channel><title>&lol{levels - 1};</title><link>http://127.0.0.1/</link>'
        f"<item><title>&lol{levels - 1};</title><link>http://127.0.0.1/bomb/</link></item></channel></rss>\n"
    )
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + doctype + feed).encode()


_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # deflate, no name, mtime 0, max compression
_BOMB_PREFIX = b'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>'


def _deflate_blocks() -> tuple[bytes, bytes, bytes]:
    """Compressed prefix, one compressed MiB of spaces, and the final empty block.

    After a full flush the compressor forgets its history, so every MiB compresses to the
    same bytes and the stream can repeat one block any number of times.
    """
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = comp.compress(_BOMB_PREFIX) + comp.flush(zlib.Z_FULL_FLUSH)
    block = comp.compress(b" " * MiB) + comp.flush(zlib.Z_FULL_FLUSH)
    return first, block, comp.flush()


def gzip_bomb(size: int, content_type: str = RSS) -> Response:
    """`Content-Encoding: gzip` whose body inflates to about `size` bytes (about 1 KB per MiB on the wire)."""
    first, block, last = _deflate_blocks()
    blocks = max(1, size // MiB)
    inflated = len(_BOMB_PREFIX) + blocks * MiB

    def chunks() -> Iterator[bytes]:
        yield _GZIP_HEADER + first
        for _ in range(blocks):
            yield block
        # The CRC is only computed if a client really reads to the end.
        crc = zlib.crc32(_BOMB_PREFIX)
        spaces = b" " * MiB
        for _ in range(blocks):
            crc = zlib.crc32(spaces, crc)
        yield last + struct.pack("<II", crc, inflated & 0xFFFFFFFF)

    length = len(_GZIP_HEADER) + len(first) + blocks * len(block) + len(last) + 8
    headers = {"Content-Encoding": "gzip"}
    return Response(200, content_type=content_type, headers=headers, stream=chunks(), length=length)


def huge(size: int, content_type: str = RSS, chunked: bool = False) -> Response:
    """A feed of about `size` bytes made of repeated items; `chunked` omits Content-Length."""
    head = b'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Huge</title>\n'
    tail = b"</channel></rss>\n"
    item = b"<item><title>Filler</title><link>http://127.0.0.1/filler/</link><description>" + b"x" * 900
    item += b"</description></item>\n"
    block = item * 64
    count = max(1, (size - len(head) - len(tail)) // len(block))

    def chunks() -> Iterator[bytes]:
        yield head
        for _ in range(count):
            yield block
        yield tail

    length = None if chunked else len(head) + count * len(block) + len(tail)
    return Response(200, content_type=content_type, stream=chunks(), length=length)
