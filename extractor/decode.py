"""Step 1: bytes to text.

    >>> from extractor.decode import decode_html
    >>> decode_html(b"<p>caf\\xc3\\xa9</p>").text
    '<p>café</p>'

Order: BOM, HTTP ``Content-Type`` charset, ``<meta>`` charset (w3lib's ``html_to_unicode``), and for
undeclared pages strict UTF-8 first, then charset-normalizer's detection (Shift_JIS, EUC-JP, GB2312,
windows-1252 ...). A declared latin-1/windows-1252 page whose bytes are valid multi-byte UTF-8 is read
as UTF-8: servers mislabel UTF-8 that way far more often than the reverse.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from charset_normalizer import from_bytes
from w3lib.encoding import html_body_declared_encoding, html_to_unicode, http_content_type_encoding

# Detection reads at most this much; charset-normalizer's cost grows with input.
_DETECT_SAMPLE = 256 * 1024
_LATIN1_FAMILY = {"cp1252", "latin_1", "iso8859_1", "windows-1252", "iso-8859-1", "ascii"}


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str
    encoding: str
    source: str  # "bom", "header", "meta", "utf-8", "detected" or "fallback"
    # the page's bytes when they are exactly ``text`` in UTF-8 (most pages): the parser reads them
    # as they are instead of a re-encoded copy
    utf8: bytes | None = None


# Single-byte Latin code pages a detector confuses on short Western text ("très" read as cp1257
# "trčs"): when windows-1252 fits the bytes as well, it wins, as the Web's default 8-bit encoding.
_LATIN_LOOKALIKES = {
    "cp1250", "cp1254", "cp1257", "iso8859_2", "iso8859_4", "iso8859_9", "iso8859_10", "iso8859_13",
    "iso8859_14", "iso8859_15", "iso8859_16", "latin_1", "mac_latin2", "mac_roman", "mac_iceland",
    "mac_turkish", "cp850", "cp437", "cp858",
}  # fmt: skip


def _strict_utf8(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _detect(data: bytes) -> str | None:
    """The encoding of undeclared bytes that are not valid UTF-8 (the caller tried UTF-8)."""
    matches = from_bytes(data[:_DETECT_SAMPLE])
    best = matches.best()
    if best is None:
        return "cp1252"
    if best.encoding in _LATIN_LOOKALIKES and any("cp1252" in m.could_be_from_charset for m in matches):
        return "cp1252"
    return best.encoding


def header_value(headers: Mapping[str, object] | None, name: str) -> str | None:
    """Case-insensitive header lookup that tolerates bytes and list values (Scrapy style)."""
    if not headers:
        return None
    for key, value in headers.items():
        k = key.decode("latin-1") if isinstance(key, bytes) else str(key)
        if k.lower() != name.lower():
            continue
        if isinstance(value, list | tuple):
            value = value[0] if value else None
        if isinstance(value, bytes):
            return value.decode("latin-1")
        return None if value is None else str(value)
    return None


def decode_html(data: bytes, headers: Mapping[str, object] | None = None) -> Decoded:
    """Decode a fetched page; never raises on bad bytes (undecodable bytes become U+FFFD)."""
    content_type = header_value(headers, "content-type")
    if data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):  # a BOM outranks any label
        encoding, bom_text = html_to_unicode(None, data)
        return Decoded(bom_text, encoding, "bom")
    declared = http_content_type_encoding(content_type) or html_body_declared_encoding(data[:4096])
    if declared and declared.lower().replace("-", "_") in _LATIN1_FAMILY and not data.isascii():
        text = _strict_utf8(data)
        if text is not None:  # valid multi-byte UTF-8 under a Latin-1 label
            return Decoded(text, "utf-8", "utf-8", data)
    if not declared:
        text = _strict_utf8(data)
        if text is not None:
            return Decoded(text, "utf-8", "utf-8", data)
        encoding = _detect(data) or "utf-8"
        try:
            return Decoded(data.decode(encoding, "replace"), encoding, "utf-8" if encoding == "utf-8" else "detected")
        except LookupError:
            return Decoded(data.decode("cp1252", "replace"), "cp1252", "fallback")
    source = "header" if http_content_type_encoding(content_type) else "meta"
    if declared.lower().replace("_", "-") in ("utf-8", "utf8"):
        text = _strict_utf8(data)  # what html_to_unicode gives for valid UTF-8, without a re-encoding
        if text is not None:
            return Decoded(text, "utf-8", source, data)
    encoding, read = html_to_unicode(content_type, data)
    return Decoded(read, encoding, source)
