"""Site keys: which blog a URL belongs to, the same rule for the crawl's feeds file and for web archives.

    >>> default_site_name("https://www.ex.com/blog/feed/"), default_site_name("http://127.0.0.1:8080/")
    ('ex.com-blog', '127.0.0.1_8080')

A site is one blog, not a host: its name comes from its feed URL without the trailing feed-ish
segments, so the feed and the home page of a blog get one name while /alice/ and /bob/ on one
host stay two sites. Pure (no Scrapy, no store), so extractor.archives.warc groups archived pages by it.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import unquote, urlsplit

_FEEDISH = frozenset(
    {"feed", "rss", "atom", "rss2", "index.xml", "feed.xml", "rss.xml", "atom.xml", "index.rdf", "default"}
)


def site_root_segments(url: str) -> list[str]:
    """The path segments naming the blog of a feed or home-page URL (feed-ish tail dropped)."""
    segments = [s for s in urlsplit(url).path.split("/") if s]
    while segments and segments[-1].lower() in _FEEDISH:
        segments.pop()
    if segments and segments[-1].lower() == "feeds":
        segments.pop()
    return segments


def default_site_name(url: str) -> str:
    """A readable site name from a URL: default_site_name("https://ex.com/blog/feed/") == "ex.com-blog".

    Trailing feed-ish path segments are dropped so that the feed and the home page of one blog
    get the same name, while /alice/ and /bob/ on one host stay distinct.
    """
    parts = urlsplit(url)
    host = (parts.hostname or "site").lower().removeprefix("www.")
    if parts.port:
        host = f"{host}_{parts.port}"
    segments = [unquote(s) for s in site_root_segments(url)]  # caf%C3%A9 is café
    return clean_name("-".join([host, *segments]))


def clean_name(text: str) -> str:
    """A site name as the store keys it: its characters kept (composed, NFC: `café` typed on a Mac is
    `cafe` + a combining accent), a run of anything else (blanks, slashes) one `_`, at most 80.

    clean_name("Café du Nord") == "Café_du_Nord"
    """
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        # Letters, digits, combining marks (a Devanagari vowel sign has no composed form) and ._@-
        if ch.isalnum() or ch in "_.@-" or unicodedata.category(ch).startswith("M"):
            out.append(ch)
        elif not out or out[-1] != "_":
            out.append("_")
    return "".join(out)[:80]
