"""Feed entries found in a web archive, and the URL form pages and entry links are matched in.

read_feed(body, "http://ex.com/blog/feed/", {"Content-Type": ["application/rss+xml"]})[0].link

A feed in an archive is evidence, as the crawl's feeds are: its entries name the blog's articles
(extractor.archives.warcsites), with their titles, publication times and comment feeds (wfw:commentRss).
feedparser reads it; a feed it cannot read gives no entries.
"""

from __future__ import annotations

import calendar
import io
from dataclasses import dataclass
from urllib.parse import urlsplit

import feedparser
from w3lib.url import canonicalize_url

from extractor.comments.commentfeed import strip_internal_subset


@dataclass(slots=True)
class FeedEntryLink:
    """A feed entry found in the archive: the evidence that a page is an article of a site."""

    feed_url: str
    link: str  # url_key of the entry's link
    guid: str | None = None
    title: str | None = None
    author: str | None = None
    published: float | None = None
    comment_rss: str | None = None  # url_key of wfw:commentRss
    to_comment: bool = False  # the link points at a comment (#comment-5): a comment feed's entry


def url_key(url: str) -> str:
    """The form in which archived page URLs and feed entry links are compared (no fragment, sorted query)."""
    try:
        parts = urlsplit(url.strip())
        lowered = parts._replace(scheme=parts.scheme.lower(), netloc=parts.netloc.lower(), fragment="").geturl()
        return canonicalize_url(lowered, keep_fragments=False)
    except ValueError:
        return url.strip()


def read_feed(body: bytes, url: str, headers: dict[str, list[str]]) -> list[FeedEntryLink]:
    """The entries of a feed (link, guid, title, publication, comment feed); [] for what is not one."""
    flat = {k.lower(): v[0] for k, v in headers.items() if v}
    try:
        data = feedparser.parse(
            io.BytesIO(strip_internal_subset(body)), response_headers={"content-location": url, **flat}
        )
    except Exception:  # feedparser is robust; one odd feed must not stop an archive
        return []
    out = []
    for raw in data.get("entries") or []:
        link = raw.get("link")
        if not link:
            continue
        parsed = dict.get(raw, "published_parsed") or dict.get(raw, "updated_parsed")
        comments = raw.get("wfw_commentrss")
        out.append(
            FeedEntryLink(
                feed_url=url,
                link=url_key(str(link)),
                guid=raw.get("id") or None,
                title=" ".join(str(raw.get("title") or "").split()) or None,
                author=raw.get("author") or None,
                published=float(calendar.timegm(parsed)) if parsed else None,
                comment_rss=url_key(str(comments)) if comments else None,
                to_comment="#comment" in str(link) or "/comment" in urlsplit(str(link)).path,
            )
        )
    return out
