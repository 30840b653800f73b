"""What a farm route answers, and conditional GET (ETag / Last-Modified / 304)."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from email.utils import formatdate, parsedate_to_datetime

HTML = "text/html; charset=UTF-8"
RSS = "application/rss+xml; charset=UTF-8"


@dataclass
class Response:
    """A response before it is written.

    A 200 with `last_modified` set gets ETag and Last-Modified headers and may become a 304.
    `stream` replaces `body` for big generated bodies; `length` is then the Content-Length
    (None: no length, the connection is closed after the body). `drop` closes the connection
    without answering; `declared_length` lets a hostile answer promise more bytes than it sends.
    """

    status: int
    body: bytes = b""
    content_type: str | None = HTML
    headers: dict[str, str] = field(default_factory=dict)
    last_modified: float | None = None
    stream: Iterable[bytes] | None = None
    length: int | None = None
    drop: bool = False
    declared_length: int | None = None


def not_found(path: str) -> Response:
    body = (
        '<!DOCTYPE html>\n<html><head><meta charset="UTF-8"><title>Page not found</title></head>'
        f"<body><h1>Not Found</h1><p>Nothing here: {_escape(path)}</p></body></html>\n"
    )
    return Response(404, body.encode("utf-8"))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def etag_for(body: bytes) -> str:
    return '"' + hashlib.sha1(body).hexdigest()[:20] + '"'


def http_date(timestamp: float) -> str:
    return formatdate(timestamp, usegmt=True)


def _etag_matches(header: str, etag: str) -> bool:
    tags = [t.strip() for t in header.split(",")]
    # If-None-Match uses the weak comparison: W/"x" matches "x".
    return any(t == "*" or t.removeprefix("W/") == etag for t in tags)


def _not_modified_since(header: str, last_modified: float) -> bool:
    try:
        since = parsedate_to_datetime(header).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return False  # an unparsable date is ignored, as RFC 9110 says
    return int(last_modified) <= since


def apply_conditional(resp: Response, request_headers: Mapping[str, str]) -> Response:
    """Add validators to a cacheable 200 and turn it into a 304 when the client's copy is current.

    `request_headers` must have lower-cased names. If-None-Match wins over If-Modified-Since.
    The given response is not changed (routes may share it between threads).
    """
    changed = resp.last_modified
    if resp.status != 200 or changed is None or resp.stream is not None:
        return resp
    etag = resp.headers.get("ETag") or etag_for(resp.body)
    headers = {"ETag": etag, "Last-Modified": http_date(changed), **resp.headers}
    resp = dataclasses.replace(resp, headers=headers)
    inm = request_headers.get("if-none-match")
    ims = request_headers.get("if-modified-since")
    fresh = _etag_matches(inm, etag) if inm is not None else ims is not None and _not_modified_since(ims, changed)
    if not fresh:
        return resp
    kept = {k: v for k, v in resp.headers.items() if k in ("ETag", "Last-Modified", "Cache-Control")}
    return Response(304, b"", content_type=None, headers=kept)
