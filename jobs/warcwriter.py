"""Pages as WARC 1.1 records (warcio's writer): `scrapy export --warc OUT.warc.gz` and BLOGS_WARC_DIR.

with open("out.warc.gz", "wb") as fh:
    writer = new_writer(fh)
    write_page(writer, ArchivedFetch(url, url, 200, headers, body, "2024-05-01T10:00:00.000Z"), note)

Each page is three records, gzip per record: the `response` (HTTP status line and headers as
stored, the body as stored: decoded, so Content-Encoding and Transfer-Encoding are dropped and
Content-Length is the body's), the `request` that fetched it, and a `metadata` record
(`application/warc-fields`, extractor.archives.warc.NOTE_FIELDS) with the fetch time, the site and article
as the crawl keyed them, and the feed entry that led to it. Both point at the response with
WARC-Concurrent-To. A comment feed is a response and a metadata record (kind: comment-feed), so a
second import (jobs.warcimport) rebuilds the same store: same sites, articles, batches.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from crawler.templatelinks import HOME
from extractor.archives.warc import NOTE_FIELDS
from extractor.archives.warcsites import TEMPLATE_KIND
from store import StoreBackend
from store.pages import gunzip_body

_DROPPED = frozenset({"content-encoding", "transfer-encoding", "content-length"})


@dataclass(frozen=True)
class Written:
    """What an export wrote."""

    pages: int = 0
    comment_feeds: int = 0
    template_pages: int = 0


@dataclass(frozen=True)
class ArchivedFetch:
    """One fetched page or feed, as a WARC response records it."""

    url: str
    request_url: str
    status: int
    headers: Mapping[str, Any]  # name -> value or list of values
    body: bytes
    fetched_at: str  # ISO 8601 UTC (store.clock.to_iso)


def new_writer(fh: IO[bytes]) -> WARCWriter:
    """A WARC 1.1 writer, gzip per record, with a `warcinfo` record first."""
    writer = WARCWriter(fh, gzip=True, warc_version="1.1")
    info = writer.create_warcinfo_record(
        "", {"software": "blog-harvester (warcio)", "format": "WARC File Format 1.1", "conformsTo": "ISO 28500:2017"}
    )
    writer.write_record(info)
    return writer


def _header_pairs(headers: Mapping[str, Any], length: int) -> list[tuple[str, str]]:
    pairs = []
    for name, value in headers.items():
        if str(name).lower() in _DROPPED:
            continue
        for item in value if isinstance(value, list | tuple) else [value]:
            pairs.append((str(name), str(item)))
    pairs.append(("Content-Length", str(length)))
    return pairs


def _status_line(status: int) -> str:
    try:
        return f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        return f"{status} Unknown"


def write_page(writer: WARCWriter, fetch: ArchivedFetch, note: Mapping[str, str | None]) -> None:
    """The response, request and metadata records of one fetch (`note`: NOTE_FIELDS values)."""
    http = StatusAndHeaders(_status_line(fetch.status), _header_pairs(fetch.headers, len(fetch.body)), "HTTP/1.1")
    response = writer.create_warc_record(
        fetch.url,
        "response",
        payload=io.BytesIO(fetch.body),
        length=len(fetch.body),
        http_headers=http,
        warc_headers_dict={"WARC-Date": fetch.fetched_at},
    )
    writer.write_record(response)
    response_id = response.rec_headers.get_header("WARC-Record-ID")
    parts = urlsplit(fetch.url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    request = writer.create_warc_record(
        fetch.url,
        "request",
        payload=io.BytesIO(b""),
        length=0,
        http_headers=StatusAndHeaders(f"GET {target} HTTP/1.1", [("Host", parts.netloc)], is_http_request=True),
        warc_headers_dict={"WARC-Date": fetch.fetched_at, "WARC-Concurrent-To": response_id},
    )
    writer.write_record(request)
    fields = {"fetched-at": fetch.fetched_at, **note}
    text = "".join(f"{k}: {' '.join(str(v).split())}\r\n" for k, v in fields.items() if v and k in NOTE_FIELDS)
    metadata = writer.create_warc_record(
        fetch.url,
        "metadata",
        payload=io.BytesIO(text.encode("utf-8")),
        warc_content_type="application/warc-fields",
        warc_headers_dict={"WARC-Date": fetch.fetched_at, "WARC-Concurrent-To": response_id},
    )
    writer.write_record(metadata)


def page_note(row: Mapping[str, Any]) -> dict[str, str | None]:
    """NOTE_FIELDS of a stored page (store.warcimports.exported_pages row)."""
    return {
        "site": row["site"],
        "article": row["article"],
        "kind": row["kind"],
        "via-feed": row.get("feed"),
        "entry-title": row.get("title"),
        "entry-published": row.get("published"),
        "entry-guid": row.get("guid"),
    }


def export_warc(store: StoreBackend, out: IO[bytes], site: str | None = None) -> Written:
    """Every stored page (and comment feed) of the store, or of `site`, into `out`. Reads a few pages at a time."""
    writer = new_writer(out)
    pages = feeds = 0
    for row in store.exported_pages(site):
        headers = row["headers"]
        fetch = ArchivedFetch(
            row["url"],
            row["request_url"] or row["url"],
            int(row["status"] or 200),
            json.loads(headers) if isinstance(headers, str) else headers or {},
            gunzip_body(row["body"]),
            row["fetched_at"],
        )
        write_page(writer, fetch, page_note(row))
        pages += 1
    for row in store.exported_comment_feeds(site):
        headers = row["headers"]
        fetch = ArchivedFetch(
            row["url"],
            row["url"],
            200,
            json.loads(headers) if isinstance(headers, str) else headers or {},
            gunzip_body(row["body"]),
            row["fetched_at"],
        )
        write_page(writer, fetch, {"site": row["site"], "article": row["article"], "kind": "comment-feed"})
        feeds += 1
    templates = 0
    for row in store.exported_template_pages(site):
        headers = row["headers"]
        fetch = ArchivedFetch(
            row["url"],
            row["url"],
            int(row["status"] or 200),
            json.loads(headers) if isinstance(headers, str) else headers or {},
            gunzip_body(row["body"]),
            row["fetched_at"],
        )
        write_page(writer, fetch, template_note(row["site"], row["kind"] or HOME))
        templates += 1
    return Written(pages, feeds, templates)


def template_note(site: str, template_kind: str = HOME) -> dict[str, str | None]:
    """The metadata of a template page (a site's home page, a previous article or an archive page the
    crawl read beside its articles: never an article; the import stores it as a template page of
    that kind again)."""
    return {"site": site, "article": None, "kind": TEMPLATE_KIND, "template-kind": template_kind}


def export_warc_file(store: StoreBackend, path: Path, site: str | None = None) -> Written:
    """export_warc into `path`, replaced whole when done (a failed export leaves no half file)."""
    partial = path.with_name(path.name + ".part")
    try:
        with open(partial, "wb") as fh:
            written = export_warc(store, fh, site)
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
    return written
