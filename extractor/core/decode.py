"""Step 1: bytes to text.

    >>> from extractor.core.decode import decode_html
    >>> decode_html(b"<p>caf\\xc3\\xa9</p>").text
    '<p>café</p>'

Order: BOM, HTTP ``Content-Type`` charset, ``<meta>`` charset (w3lib's ``html_to_unicode``). A page
that declares none is decoded by evidence: the 7-bit ISO-2022 encodings when their escapes are there,
strict UTF-8, the encoding of the site's other pages (``prefer``) when it decodes the bytes, a CJK
encoding whose strict decode reads as clean Japanese, Chinese or Korean text (charsets.py), and only
then charset-normalizer's guess among the single-byte code pages (windows-1252, cp1251, cp874 ...).
A declared latin-1/windows-1252 page whose bytes are valid multi-byte UTF-8 is read as UTF-8:
servers mislabel UTF-8 that way far more often than the reverse.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from charset_normalizer import from_bytes
from w3lib.encoding import html_body_declared_encoding, html_to_unicode, http_content_type_encoding

from .charsets import guess_cjk, iso2022

# Detection reads at most this much; charset-normalizer's cost grows with input.
_DETECT_SAMPLE = 256 * 1024
_LATIN1_FAMILY = {"cp1252", "latin_1", "iso8859_1", "windows-1252", "iso-8859-1", "ascii"}


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str
    encoding: str
    source: str  # "bom", "header", "meta" (declared), or "utf-8", "detected", "fallback" (guessed)
    # the page's bytes when they are exactly ``text`` in UTF-8 (most pages): the parser reads them
    # as they are instead of a re-encoded copy
    utf8: bytes | None = None

    @property
    def encoding_source(self) -> str:
        """``declared`` (a BOM, the HTTP header or ``<meta>`` said it) or ``guessed``."""
        return "declared" if self.source in _DECLARED else "guessed"


_DECLARED = frozenset({"bom", "header", "meta"})


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
    """charset-normalizer's best single-byte code page for undeclared bytes that are neither UTF-8
    nor clean CJK (the caller tried both): its multi-byte guesses are what charsets.py rejected."""
    matches = [m for m in from_bytes(data[:_DETECT_SAMPLE]) if not m.encoding.startswith(_MULTI_BYTE)]
    if not matches:
        return "cp1252"
    best = matches[0]
    if best.encoding in _LATIN_LOOKALIKES and any("cp1252" in m.could_be_from_charset for m in matches):
        return "cp1252"
    return best.encoding


# Multi-byte encodings charset-normalizer may name (Python codec names).
_MULTI_BYTE = ("utf", "shift_jis", "cp932", "euc_", "gb", "hz", "big5", "cp949", "cp950", "johab", "iso2022")


def _undeclared(data: bytes, prefer: str | None) -> Decoded:
    """A page that declares no encoding: see the module docstring for the order of the evidence."""
    seven_bit = iso2022(data)
    if seven_bit is not None:
        return Decoded(data.decode(seven_bit), seven_bit, "detected")
    text = _strict_utf8(data)
    if text is not None:
        return Decoded(text, "utf-8", "utf-8", data)
    encoding = guess_cjk(data, prefer) or _strict_preference(data, prefer) or _detect(data) or "cp1252"
    try:
        return Decoded(data.decode(encoding, "replace"), encoding, "detected")
    except LookupError:
        return Decoded(data.decode("cp1252", "replace"), "cp1252", "fallback")


def _strict_preference(data: bytes, prefer: str | None) -> str | None:
    """The site's encoding when it decodes these bytes without an error."""
    if not prefer or prefer == "utf-8":
        return None
    try:
        data.decode(prefer)
    except (UnicodeDecodeError, LookupError):
        return None
    return prefer


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


def decode_html(data: bytes, headers: Mapping[str, object] | None = None, prefer: str | None = None) -> Decoded:
    """Decode a fetched page; never raises on bad bytes (undecodable bytes become U+FFFD).

    ``prefer``: the encoding guessed for the site's other pages; an undeclared page that is not
    UTF-8 is read in it whenever it decodes the bytes cleanly (one site, one encoding).
    """
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
        return _undeclared(data, prefer)
    source = "header" if http_content_type_encoding(content_type) else "meta"
    if declared.lower().replace("_", "-") in ("utf-8", "utf8"):
        text = _strict_utf8(data)  # what html_to_unicode gives for valid UTF-8, without a re-encoding
        if text is not None:
            return Decoded(text, "utf-8", source, data)
    encoding, read = html_to_unicode(content_type, data)
    return Decoded(read, encoding, source)
