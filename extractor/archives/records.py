"""The record walk under extractor.archives.warc: sound records of a WARC/ARC file one after another,
damaged ones counted and stepped over, and the pieces a large file can be read in apart.

tally = ReadTally()
for raw in iter_records("crawl.warc.gz", tally):        # RawRecord: offset, warcio record, body
    ...
for start, stop in pieces("crawl.warc.gz", 64 << 20):   # ranges that tasks read side by side
    records = list(iter_records("crawl.warc.gz", ReadTally(), start=start, stop=stop))

A piece holds the sound records that start inside it. Its reading begins at the first sound record
at or after its start, and goes on past its stop until a sound record: the damage between two
pieces is counted once, by the piece before, as one reading of the whole file counts it.
"""

from __future__ import annotations

import gzip
import os
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, ClassVar, cast

from isal import isal_zlib
from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import DecompressingBufferedReader
from warcio.exceptions import ArchiveLoadFailed
from warcio.recordloader import ArcWarcRecord

_GZIP_MAGIC = b"\x1f\x8b\x08"
_WARC_LINE = b"WARC/1."
_SCAN = 1 << 20
_BLOCK = 1 << 16  # bytes per read: fewer buffer refills than warcio's 16 KiB
_WHOLE_PROBE = 8 << 20  # decompressed bytes is_whole_gzip looks at
# What a damaged record raises in warcio, zlib or gzip: counted and skipped, never a crash.
_ISAL_ERROR = cast(type[Exception], isal_zlib.error)  # its stub calls it an instance
_DAMAGE = (ArchiveLoadFailed, EOFError, zlib.error, _ISAL_ERROR, OSError, ValueError, IndexError, KeyError)


def _inflate_member() -> Any:
    return isal_zlib.decompressobj(31)  # a gzip member, its CRC checked at its end


class _Reader(DecompressingBufferedReader):  # type: ignore[misc]
    """warcio's reader with ISA-L's inflate for gzip members, twice zlib's speed: an import inflates
    every record twice (pass 1 to find the next record, pass 2 for the page), and inflating was half
    of its reading."""

    DECOMPRESSORS: ClassVar[dict[str, Callable[[], Any]]] = {
        **DecompressingBufferedReader.DECOMPRESSORS,
        "gzip": _inflate_member,
    }


class _Iterator(ArchiveIterator):  # type: ignore[misc]
    INC_RECORD = ""  # a wrong Content-Length is counted (err_count) and reported by us, not printed

    def __init__(self, fh: IO[bytes], *, block_size: int = _BLOCK, arc2warc: bool = True) -> None:
        super().__init__(fh, arc2warc=arc2warc, block_size=block_size)
        self.reader = _Reader(self.fh, block_size=block_size)  # nothing is read before the first record


@dataclass(slots=True)
class ReadTally:
    """What reading archives found: for progress lines and the final summary."""

    files: int = 0
    records: int = 0
    pages: int = 0
    feeds: int = 0
    revisits: int = 0
    listings: int = 0  # home, category, archive pages: not articles (group_sites)
    skipped: Counter[str] = field(default_factory=Counter)  # reason -> records

    def merge(self, other: ReadTally) -> None:
        self.files += other.files
        self.records += other.records
        self.pages += other.pages
        self.feeds += other.feeds
        self.revisits += other.revisits
        self.listings += other.listings
        self.skipped.update(other.skipped)

    def skipped_text(self) -> str:
        """`3 skipped (2 truncated, 1 wrong Content-Length)`, or '' when none was."""
        total = sum(self.skipped.values())
        if not total:
            return ""
        parts = ", ".join(f"{n} {reason}" for reason, n in sorted(self.skipped.items()))
        return f"{total} skipped ({parts})"


@dataclass(slots=True)
class RawRecord:
    """A sound record with its content read (HTTP body for responses)."""

    offset: int
    record: ArcWarcRecord
    body: bytes


def _next_start(fh: Any, after: int, gz: bool) -> int | None:
    """The offset of the next record start at or after `after` (a gzip member, or a `WARC/1.` line)."""
    magic = _GZIP_MAGIC if gz else _WARC_LINE
    pos = after
    while True:
        fh.seek(pos)
        chunk = fh.read(_SCAN + len(magic))
        if len(chunk) < len(magic):
            return None
        found = chunk.find(magic)
        if found >= 0 and (gz or found == 0 or chunk[found - 1 : found] == b"\n"):
            return pos + found
        if found >= 0:  # `WARC/1.` inside a line: look further
            pos += found + 1
            continue
        pos += _SCAN


def _suspect(record: ArcWarcRecord) -> bool:
    """A record that may be a gzip member cut short which warcio read on as raw bytes: compressed
    bytes in its headers (a target URI with control characters), or an ARC header line in a WARC
    file (a line of compressed bytes with four spaces in it passes for one)."""
    uri = record.rec_headers.get_header("WARC-Target-URI") or ""
    return record.format != "warc" or any(ord(c) < 0x20 or c == "\x7f" for c in uri)


def _sound_member(fh: Any, offset: int) -> bool:
    """Whether the gzip member at `offset` inflates whole, its CRC and length checked (the file's
    position is kept)."""
    kept = fh.tell()
    fh.seek(offset)
    inflate = zlib.decompressobj(31)
    try:
        while not inflate.eof:
            chunk = fh.read(_BLOCK)
            if not chunk:
                return False
            inflate.decompress(chunk)
    except zlib.error:
        return False
    finally:
        fh.seek(kept)
    return True


def is_whole_gzip(path: str) -> bool:
    """One gzip stream over many records (not the standard gzip per record): its first member
    holds a second record's start. Reads at most a few MB."""
    with open(path, "rb") as fh:
        if fh.read(3) != _GZIP_MAGIC:
            return False
        fh.seek(0)
        inflate = zlib.decompressobj(31)
        seen = b""
        while not inflate.eof and len(seen) < _WHOLE_PROBE:
            chunk = fh.read(1 << 16)
            if not chunk:
                break
            try:
                seen += inflate.decompress(chunk)
            except zlib.error:
                return False
            if b"\nWARC/1." in seen:
                return True
    return False


def open_archive(path: str, whole: bool) -> IO[bytes]:
    """The file as warcio reads it: a whole-gzip file through gzip's own seekable stream (seeking
    back re-reads from the start), any other as it is."""
    return gzip.open(path, "rb") if whole else open(path, "rb")  # type: ignore[return-value]


def gzip_per_record(fh: IO[bytes], whole: bool) -> bool:
    """Whether an open archive (open_archive) is compressed record by record: a damaged record is
    stepped over to the next gzip member."""
    fh.seek(0)
    return not whole and fh.read(3) == _GZIP_MAGIC


def every_record(_record: ArcWarcRecord) -> bool:
    return True


def no_record(_record: ArcWarcRecord) -> bool:
    return False


def iter_records(
    path: str,
    tally: ReadTally,
    start: int = 0,
    limit: int | None = None,
    whole: bool = False,
    body: Callable[[ArcWarcRecord], bool] = every_record,
    stop: int | None = None,
) -> Iterator[RawRecord]:
    """The file's sound records from `start` (at most `limit`), damaged ones counted in `tally.skipped`;
    their content read when `body(record)`. `start` > 0 and `stop`: a piece of the file (pieces)."""
    with open_archive(path, whole) as fh:
        gz = gzip_per_record(fh, whole)
        first = _first_sound(fh, gz, start) if start else 0
        if first is not None:
            yield from walk_records(fh, gz, tally, first, limit, body, stop)


def _first_sound(fh: IO[bytes], gz: bool, start: int) -> int | None:
    """The offset of the first sound record at or after `start`: where a piece's reading begins.
    Damage before it is not counted here: the piece before reads on to that record and counts it."""
    candidate = _next_start(fh, start, gz)
    if candidate is None:
        return None
    for raw in walk_records(fh, gz, ReadTally(), candidate, 1, no_record):
        return raw.offset
    return None


def walk_records(
    fh: IO[bytes],
    gz: bool,
    tally: ReadTally,
    start: int,
    limit: int | None,
    body: Callable[[ArcWarcRecord], bool],
    stop: int | None = None,
) -> Iterator[RawRecord]:
    """iter_records over an open archive (`gz`: gzip_per_record): the sound records from the one at
    `start`, up to the first sound record at or after `stop`."""
    offset: int | None = start
    given = 0
    while offset is not None:
        fh.seek(offset)
        it = _Iterator(fh, arc2warc=True, block_size=_BLOCK)
        try:
            for record in it:
                errors = it.err_count
                content = record.content_stream().read() if body(record) else b""
                it.read_to_end()  # the rest of the block, then the blank lines after it
                at = it.get_record_offset()
                damage = (
                    "truncated"  # the file ended before the block's Content-Length
                    if getattr(record.raw_stream, "limit", 0)
                    else "wrong Content-Length"  # the next record does not start where it says
                    if it.err_count > errors
                    else None
                )
                if gz and (damage is not None or _suspect(record)) and not _sound_member(fh, at):
                    # A gzip member cut short: its inflater ran on into the next member's bytes, which
                    # now and then decode as deflate data for a while, or warcio read it on as raw bytes.
                    damage = "unreadable"
                if damage is None and stop is not None and at >= stop:
                    return  # the next piece's first record
                if damage is not None:
                    # A Content-Length too long swallowed the records after it: look for them.
                    tally.skipped[damage] += 1
                    offset = _next_start(fh, at + 1, gz)
                    break
                yield RawRecord(at, record, content)
                given += 1
                if limit is not None and given >= limit:
                    return
            else:
                offset = None
        except _DAMAGE:
            tally.skipped["unreadable"] += 1
            offset = _next_start(fh, max(it.offset, offset) + 1, gz)


def pieces(path: str, size: int) -> list[tuple[int, int | None]]:
    """[start, stop) byte ranges of the file that can be read apart (iter_records' start and stop),
    about `size` bytes each: a WARC file compressed record by record is cut, as a record's gzip
    member can be found from any offset; a whole-gzip, uncompressed or ARC file is one piece."""
    length = os.path.getsize(path)
    if length <= size or not _cuttable(path):
        return [(0, None)]
    starts = list(range(0, length, size))
    return list(zip(starts, [*starts[1:], None], strict=True))


def _cuttable(path: str) -> bool:
    """A WARC file, gzip per record: its first member inflates to a WARC record on its own."""
    if is_whole_gzip(path):
        return False
    with open(path, "rb") as fh:
        try:  # an uncompressed file fails here (no gzip header), an ARC file below
            head = zlib.decompressobj(31).decompress(fh.read(_BLOCK), len(_WARC_LINE))
        except zlib.error:
            return False
    return head == _WARC_LINE
