"""The feeds file (which blogs to watch) and feed discovery from a blog's home page.

read_feeds_file("feeds.txt")  # [FeedSource(url='https://…/feed/', name='make-wordpress-core'), …]

Format: one feed URL or blog home page per line, optionally followed by whitespace and a site
name; blank lines and lines starting with `#` are ignored, as is a `#` comment after the URL.
A site is one line: two blogs on one host are two sites.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import lxml.html

from extractor.core.sitekeys import clean_name, default_site_name
from store.urls import is_fetchable, url_scheme

logger = logging.getLogger(__name__)

FEED_TYPES = ("application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/feed+xml")


@dataclass(frozen=True)
class FeedSource:
    """One line of the feeds file: the URL as written (feed or home page) and the site name."""

    url: str
    name: str


@dataclass
class FeedsFile:
    """Parsed feeds file: usable sources plus the lines that were refused and why."""

    sources: list[FeedSource]
    rejected: list[tuple[int, str, str]]  # (line number, text, reason)


def parse_feeds_text(text: str) -> FeedsFile:
    """Parse the feeds file's text; the first occurrence of a URL or a name wins.

    parse_feeds_text("https://a.example/feed/ alpha\\n# c\\n").sources[0].name == "alpha"
    """
    sources: list[FeedSource] = []
    rejected: list[tuple[int, str, str]] = []
    seen_urls: set[str] = set()
    seen_names: set[str] = set()
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        line = re.split(r"\s#", line, maxsplit=1)[0]  # inline comment needs a blank before '#'
        fields = line.split(None, 1)
        url = fields[0]
        name = " ".join(fields[1].split()) if len(fields) > 1 else ""
        if not is_fetchable(url):
            scheme = url_scheme(url) or "none"
            rejected.append((lineno, line, f"not an http(s) URL (scheme {scheme})"))
            continue
        name = clean_name(name) if name else default_site_name(url)
        if url in seen_urls:
            rejected.append((lineno, line, "duplicate URL"))
            continue
        if name in seen_names:
            rejected.append((lineno, line, f"duplicate site name {name!r}"))
            continue
        seen_urls.add(url)
        seen_names.add(name)
        sources.append(FeedSource(url=url, name=name))
    return FeedsFile(sources=sources, rejected=rejected)


def read_feeds_file(path: str | Path) -> FeedsFile:
    """Read and parse a feeds file (UTF-8); a missing file raises FileNotFoundError."""
    return parse_feeds_text(Path(path).read_text(encoding="utf-8", errors="replace"))


class FeedsFileError(Exception):
    """A feeds file that cannot be used, with a one-line message for the user."""


def load_feeds_file(path: str | Path) -> FeedsFile:
    """read_feeds_file, or FeedsFileError in one line when the file is missing, unreadable or
    lists no usable feed (a run has nothing to do then: a usage error, not an empty run)."""
    path = Path(path)
    if path.is_dir():
        raise FeedsFileError(f"feeds file {path} is a directory, not a file")
    try:
        parsed = read_feeds_file(path)
    except FileNotFoundError:
        raise FeedsFileError(f"feeds file {path} not found (give one with -a feeds=PATH)") from None
    except OSError as exc:
        raise FeedsFileError(f"cannot read feeds file {path}: {exc.strerror or exc}") from None
    if not parsed.sources:
        refused = ""
        if parsed.rejected:
            lineno, _text, reason = parsed.rejected[0]
            refused = f" ({len(parsed.rejected)} line(s) refused; line {lineno}: {reason})"
        raise FeedsFileError(f"feeds file {path} lists no usable feed{refused}")
    return parsed


def discover_feed_links(body: bytes, base_url: str, encoding: str | None = None) -> list[str]:
    """Feed URLs announced by `<link rel="alternate" type="application/rss+xml">` (or Atom) in HTML.

    Absolute, in page order, comment feeds last (a WordPress home page lists the posts feed and
    the site-wide comments feed). Non-http(s) links are left out.
    """
    if not body.strip():
        return []
    try:
        parser = lxml.html.HTMLParser(encoding=encoding) if encoding else lxml.html.HTMLParser()
        doc = lxml.html.document_fromstring(body, parser=parser)
    except (ValueError, lxml.etree.ParserError):
        return []
    base = base_url
    base_el = doc.find(".//base[@href]")
    if base_el is not None:
        base = urljoin(base_url, (base_el.get("href") or "").strip())
    posts: list[str] = []
    comments: list[str] = []
    for link in doc.iter("link"):
        rels = (link.get("rel") or "").lower().split()
        kind = (link.get("type") or "").lower().split(";")[0].strip()
        if "alternate" not in rels or kind not in FEED_TYPES:
            continue
        url = urljoin(base, (link.get("href") or "").strip())
        if not is_fetchable(url) or url in posts or url in comments:
            continue
        title = (link.get("title") or "").lower()
        is_comments = "comment" in title or "/comments/" in urlsplit(url).path or "コメント" in title
        (comments if is_comments else posts).append(url)
    return posts + comments
