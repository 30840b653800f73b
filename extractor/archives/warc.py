"""Reading web archives (WARC 1.0/1.1 and ARC, gzip per record, whole or none) with warcio.

index = ArchiveIndex()
index.add_file("crawl.warc.gz")           # pass 1: which records are pages and feeds, no bodies kept
index.resolve_revisits()                  # once every file is indexed
sites = extractor.archives.warcsites.group_sites(index)    # site name -> its captures, oldest first
capture = read_capture(sites["ex.com-blog"][0].ref)   # pass 2: one record's page, read again by offset

Pure (no Scrapy, no store): `python -m extractor warc` and `scrapy import-warc` share it.

What is kept: `response` records (and `revisit` records resolved to the response they repeat)
of http(s) pages with status 200 that are HTML (by Content-Type, else by how the body starts),
and feeds (RSS/Atom), which are read at once as evidence for grouping. `metadata` records that
this project's export writes beside each response (extractor.archives.warc.NOTE_FIELDS) say the page's site
and article as the crawl had them. A record that is cut short (its Content-Length says more than
the file holds), whose Content-Length is wrong (the next record does not start where it says),
or that cannot be parsed or decompressed is counted in `ReadTally.skipped` and skipped; reading
goes on at the next record start found after it (the next gzip member, or `WARC/` line).

Memory: the index holds a few fields per record, never a body; bodies are read again per site.
The record walk itself (damage, pieces of a file read apart) is extractor.archives.records'.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

from warcio.recordloader import ArcWarcRecord

from extractor.archives.feedlinks import FeedEntryLink, read_feed, url_key
from extractor.archives.records import (
    RawRecord,
    ReadTally,
    gzip_per_record,
    is_whole_gzip,
    iter_records,
    open_archive,
    walk_records,
)

# The metadata record this project writes beside each response: `name: value` lines.
NOTE_FIELDS = (
    "fetched-at",
    "site",
    "article",
    "kind",
    "via-feed",
    "entry-title",
    "entry-published",
    "entry-guid",
    "template-kind",  # a template page's: home page, previous article, archive page
)


@dataclass(frozen=True, slots=True)
class RecordRef:
    """Where a record starts in an archive file (read again by `read_capture`)."""

    path: str
    offset: int
    whole: bool = False  # the file is one gzip stream: offsets count its decompressed bytes
    size: int = 0  # the record block's length (Content-Length): what a task of its site will read


@dataclass(slots=True)
class PageCapture:
    """One archived page as pass 1 saw it: no body (see `read_capture`)."""

    url: str
    key: str  # the URL normalized (url_key): what feed entries are matched on
    captured_at: float  # WARC-Date, POSIX time
    ref: RecordRef  # the response holding the body (the original of a revisit)
    record_id: str
    site: str = ""  # set by group_sites
    article: str = ""  # the article's key, as the note or the URL says


@dataclass(slots=True)
class FeedCapture:
    url: str
    key: str
    captured_at: float
    ref: RecordRef
    record_id: str
    entries: list[FeedEntryLink]


@dataclass(slots=True)
class Capture:
    """A page read back from the archive."""

    url: str
    status: int
    headers: dict[str, list[str]]
    body: bytes
    captured_at: float


def _when(text: str | None) -> float:
    if not text:
        return 0.0
    try:
        return datetime.fromisoformat(text.strip().replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0


def _http_headers(record: ArcWarcRecord) -> tuple[int, dict[str, list[str]]]:
    if record.http_headers is None:
        return 0, {}
    try:
        status = int(record.http_headers.get_statuscode() or 0)
    except ValueError:
        status = 0
    headers: dict[str, list[str]] = {}
    for name, value in record.http_headers.headers:
        headers.setdefault(name, []).append(value)
    return status, headers


def _content_type(headers: dict[str, list[str]]) -> str:
    for name, values in headers.items():
        if name.lower() == "content-type" and values:
            return values[0].lower()
    return ""


def _kind(content_type: str, head: bytes) -> str | None:
    """'page', 'feed' or None (neither) by Content-Type, else by the body's start."""
    if "html" in content_type:
        return "page"
    if any(t in content_type for t in ("rss", "atom", "rdf", "xml")):
        return "feed"
    start = head[:512].lstrip().lower()
    if start.startswith((b"<!doctype html", b"<html")):
        return "page"
    if b"<rss" in start or b"<feed" in start or b"<rdf:rdf" in start:
        return "feed"
    return None


def _body_wanted(record: ArcWarcRecord) -> bool:
    return record.rec_type in ("response", "revisit", "metadata", "resource")


def _body_needed_to_index(record: ArcWarcRecord) -> bool:
    """Pass 1 reads bodies of metadata and of responses that may be feeds; an HTML page's body is
    only read in pass 2 (the block is still decompressed to find the next record, not copied)."""
    if record.rec_type == "metadata":
        return True
    if record.rec_type != "response":
        return False
    _status, headers = _http_headers(record)
    return "html" not in _content_type(headers)


def _note(body: bytes) -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in body.decode("utf-8", "replace").splitlines():
        name, sep, value = line.partition(":")
        if sep and name.strip() in NOTE_FIELDS:
            fields[name.strip()] = value.strip()
    return fields


@dataclass(frozen=True, slots=True)
class Revisit:
    """A revisit record, until the response it repeats is found (ArchiveIndex.resolve_revisits)."""

    uri: str
    when: float
    record_id: str
    path: str
    digest: str  # WARC-Payload-Digest
    refers_to: tuple[str, str]  # WARC-Refers-To-Target-URI, WARC-Refers-To-Date


@dataclass
class ArchiveIndex:
    """Pass 1 over archive files: pages and feeds by reference, notes, what was skipped."""

    pages: list[PageCapture] = field(default_factory=list)
    feeds: list[FeedCapture] = field(default_factory=list)
    notes: dict[str, dict[str, str]] = field(default_factory=dict)  # response record id -> note
    tally: ReadTally = field(default_factory=ReadTally)
    originals: dict[str, tuple[str, RecordRef]] = field(default_factory=dict)  # payload digest -> kind, ref
    by_uri_date: dict[tuple[str, str], tuple[str, RecordRef]] = field(default_factory=dict)
    # Revisits wait until every file is indexed: the response they repeat may sit in a later file.
    revisits: list[Revisit] = field(default_factory=list)

    def add_file(self, path: str | Path, start: int = 0, stop: int | None = None) -> ReadTally:
        """Index one file, or the piece of it from `start` to `stop` (extractor.archives.records.pieces:
        the pieces' indexes merged in file order are the file's); returns what it held (also added
        to `self.tally`)."""
        tally = ReadTally(files=int(start == 0))
        whole = is_whole_gzip(str(path))
        for raw in iter_records(str(path), tally, start, whole=whole, body=_body_needed_to_index, stop=stop):
            tally.records += 1
            self._add(str(path), whole, raw, tally)
        self.tally.merge(tally)
        return tally

    def merge(self, other: ArchiveIndex) -> None:
        """Add another index's findings (files indexed elsewhere, e.g. on a Dask worker)."""
        self.pages += other.pages
        self.feeds += other.feeds
        self.notes.update(other.notes)
        self.originals.update(other.originals)
        self.by_uri_date.update(other.by_uri_date)
        self.revisits += other.revisits
        self.tally.merge(other.tally)

    def resolve_revisits(self) -> Counter[str]:
        """Add the revisits whose response is indexed, as later captures of it; count the others
        in `tally.skipped`. Returns path -> revisits skipped there. Call once every file is indexed."""
        unresolved: Counter[str] = Counter()
        for revisit in self.revisits:
            found = self.originals.get(revisit.digest) or self.by_uri_date.get(revisit.refers_to)
            if found is None:
                unresolved[revisit.path] += 1
                self.tally.skipped["revisit without its original"] += 1
                continue
            kind, ref = found
            self.tally.revisits += 1
            self._capture(kind, revisit.uri, revisit.when, ref, revisit.record_id, None, {}, self.tally)
        self.revisits = []
        return unresolved

    def _add(self, path: str, whole: bool, raw: RawRecord, tally: ReadTally) -> None:
        rec = raw.record
        headers = rec.rec_headers
        if rec.rec_type == "metadata":
            target = headers.get_header("WARC-Concurrent-To")
            if target:
                self.notes[target.strip()] = _note(raw.body)
            return
        uri = (headers.get_header("WARC-Target-URI") or "").strip().strip("<>")
        if urlsplit(uri).scheme.lower() not in ("http", "https"):
            return
        when = _when(headers.get_header("WARC-Date"))
        record_id = (headers.get_header("WARC-Record-ID") or "").strip()
        ref = RecordRef(path, raw.offset, whole, int(rec.length or 0))
        if rec.rec_type == "revisit":
            self.revisits.append(
                Revisit(
                    uri,
                    when,
                    record_id,
                    path,
                    (headers.get_header("WARC-Payload-Digest") or "").strip(),
                    (
                        (headers.get_header("WARC-Refers-To-Target-URI") or "").strip(),
                        headers.get_header("WARC-Refers-To-Date") or "",
                    ),
                )
            )
            return
        if rec.rec_type != "response":
            return
        status, http = _http_headers(rec)
        kind = _kind(_content_type(http), raw.body) if status == 200 else None
        if kind is None:
            return
        digest = headers.get_header("WARC-Payload-Digest")
        if digest:
            self.originals[digest.strip()] = (kind, ref)
        self.by_uri_date[(uri, headers.get_header("WARC-Date") or "")] = (kind, ref)
        self._capture(kind, uri, when, ref, record_id, raw.body, http, tally)

    def _capture(
        self,
        kind: str,
        uri: str,
        when: float,
        ref: RecordRef,
        record_id: str,
        body: bytes | None,
        http: dict[str, list[str]],
        tally: ReadTally,
    ) -> None:
        if kind == "page":
            tally.pages += 1
            self.pages.append(PageCapture(uri, url_key(uri), when, ref, record_id))
            return
        tally.feeds += 1
        if body is None:  # a revisit of a feed: its body is the original's
            original = read_capture(ref)
            body, http = original.body, original.headers
        self.feeds.append(FeedCapture(uri, url_key(uri), when, ref, record_id, read_feed(body, uri, http)))


class CaptureReader:
    """Pass 2: captures read again by reference, each file kept open while the reader is.

    with CaptureReader() as reader: capture = reader.read(page.ref, page.url, page.captured_at)
    """

    def __init__(self) -> None:
        self.files: dict[tuple[str, bool], tuple[IO[bytes], bool]] = {}

    def __enter__(self) -> CaptureReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for fh, _gz in self.files.values():
            fh.close()
        self.files.clear()

    def read(self, ref: RecordRef, url: str | None = None, captured_at: float | None = None) -> Capture:
        """The response at `ref` (its URL and time replaced by a revisit's, when given)."""
        key = (ref.path, ref.whole)
        if key not in self.files:
            fh = open_archive(ref.path, ref.whole)
            self.files[key] = (fh, gzip_per_record(fh, ref.whole))
        fh, gz = self.files[key]
        for raw in walk_records(fh, gz, ReadTally(), ref.offset, 1, _body_wanted):
            status, headers = _http_headers(raw.record)
            uri = (raw.record.rec_headers.get_header("WARC-Target-URI") or "").strip().strip("<>")
            when = _when(raw.record.rec_headers.get_header("WARC-Date"))
            return Capture(url or uri, status, headers, raw.body, when if captured_at is None else captured_at)
        raise ValueError(f"{ref.path}: no readable record at offset {ref.offset}")


def read_capture(ref: RecordRef, url: str | None = None, captured_at: float | None = None) -> Capture:
    """One capture read again (CaptureReader.read, the file opened for it alone)."""
    with CaptureReader() as reader:
        return reader.read(ref, url, captured_at)
