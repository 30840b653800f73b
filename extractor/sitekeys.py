"""Site keys: which blog a URL belongs to, the same rule for the crawl's feeds file and for web archives.

    >>> default_site_name("https://www.ex.com/blog/feed/"), default_site_name("http://127.0.0.1:8080/")
    ('ex.com-blog', '127.0.0.1_8080')

A site is one blog, not a host: its name comes from its feed URL without the trailing feed-ish
segments, so the feed and the home page of a blog get one name while /alice/ and /bob/ on one
host stay two sites. Pure (no Scrapy, no store), so extractor.warc groups archived pages by it.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

NAME_OK = re.compile(r"[^\w.@-]+")
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
    name = "-".join([host, *site_root_segments(url)])
    return NAME_OK.sub("_", name)[:80]
