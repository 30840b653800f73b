"""`python -m extractor warc FILES… [--out OUT.jsonl]`: posts and comments of the blogs in web archives,
with the library alone (no Scrapy, no store).

extract_archives(["crawl.warc.gz"])   # rows: site, url, captured_at, post, comments, error

Pages are read and grouped by site as extractor.archives.warc says; each site's oldest capture of each
article joins a set, in publication order (from the archive's feeds; else URL), `batch_size` at a
time as the crawl's batches: each set is extracted as one and teaches the site's profile, and the
later captures (re-fetches) are extracted with the newest profile. One site's pages are in memory
at a time. An article's comment feed in the archive is evidence for its pages, as in the crawl and
`scrapy import-warc`: its entries dated no later than a page's capture (extractor.comments.commentfeed).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any

from extractor.archives.feedlinks import url_key
from extractor.archives.records import ReadTally
from extractor.archives.warc import ArchiveIndex, CaptureReader, PageCapture
from extractor.archives.warcsites import comment_feeds_by_article, feed_entries, group_sites
from extractor.comments.commentfeed import feed_texts_until, parse_comment_feed
from extractor.separation.method import Page, PageExtraction
from extractor.separation.profile import SiteProfile, extract_and_learn


def _row(site: str, page: PageCapture, result: PageExtraction) -> dict[str, object]:
    when = datetime.fromtimestamp(page.captured_at, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return {
        "site": site,
        "url": page.url,
        "captured_at": when,
        "post": result.post,
        "comments": result.comments,
        "error": result.error,
    }


class CommentFeeds:
    """The comment-feed entries of each article in the archive, read when a page of it is extracted."""

    def __init__(self, reader: CaptureReader, index: ArchiveIndex) -> None:
        self.reader = reader
        self.captures = comment_feeds_by_article(index)
        self.entries: dict[str, list[dict[str, Any]]] = {}

    def texts(self, page: PageCapture) -> list[str]:
        """Texts of the article's comment-feed entries the page can show (none: no comment feed)."""
        article = url_key(page.article) if page.article else page.key  # key: url_key(url), from pass 1
        if article not in self.entries:
            self.entries[article] = []
            for feed in self.captures.get(article, []):
                read = self.reader.read(feed.ref, feed.url, feed.captured_at)
                headers = {k: v[0] for k, v in read.headers.items() if v}
                self.entries[article] += parse_comment_feed(read.body, read.url, headers)
        return feed_texts_until(self.entries[article], page.captured_at)


def _page(reader: CaptureReader, capture: PageCapture, feeds: CommentFeeds | None = None) -> Page:
    read = reader.read(capture.ref, capture.url, capture.captured_at)
    texts = tuple(feeds.texts(capture)) if feeds is not None else ()
    return Page(read.url, read.body, read.headers, feed_comments=texts)


def extract_site_captures(
    reader: CaptureReader,
    site: str,
    pages: Sequence[PageCapture],
    published: dict[str, float],
    batch_size: int,
    feeds: CommentFeeds | None = None,
) -> Iterator[dict[str, object]]:
    """One site's rows: first captures in sets of `batch_size`, later ones with the newest profile."""
    firsts: dict[str, PageCapture] = {}
    later: list[PageCapture] = []
    for page in pages:  # oldest capture first
        if page.key in firsts:
            later.append(page)
        else:
            firsts[page.key] = page
    ordered = sorted(firsts.values(), key=lambda p: (published.get(p.key, float("inf")), p.key))
    profile: SiteProfile | None = None
    for start in range(0, len(ordered), batch_size):
        chunk = ordered[start : start + batch_size]
        results, profile = extract_and_learn([_page(reader, p, feeds) for p in chunk])
        for page, result in zip(chunk, results, strict=True):
            yield _row(site, page, result)
    for page in later:
        assert profile is not None  # every later capture has a first one
        yield _row(site, page, profile.extract(_page(reader, page, feeds)))


def extract_archives(paths: Sequence[str], batch_size: int = 10, tally: ReadTally | None = None) -> Iterator[dict]:
    """Rows of every page of the archives, site by site (see the module docstring)."""
    index = ArchiveIndex()
    for path in paths:
        index.add_file(path)
    index.resolve_revisits()
    if tally is not None:
        tally.merge(index.tally)
    published = {key: e.published for key, e in feed_entries(index).items() if e.published is not None}
    with CaptureReader() as reader:
        feeds = CommentFeeds(reader, index)
        for site, pages in group_sites(index).items():
            yield from extract_site_captures(reader, site, pages, published, max(2, batch_size), feeds)
            feeds.entries.clear()  # one site's comment feeds in memory at a time


def cmd_warc(a: argparse.Namespace) -> int:
    tally = ReadTally()
    with ExitStack() as stack:
        out = stack.enter_context(open(a.out, "w", encoding="utf-8")) if a.out else sys.stdout
        sites: set[object] = set()
        count = 0
        for row in extract_archives(a.files, a.batch_size, tally):
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
            if row["site"] not in sites:
                sites.add(row["site"])
                print(f"warc: site {row['site']} ({len(sites)} so far, {count} pages)", file=sys.stderr, flush=True)
    skipped = tally.skipped_text()
    print(
        f"warc: {tally.files} files, {tally.records} records, {count} pages of {len(sites)} sites"
        + (f"; warning: {skipped}" if skipped else ""),
        file=sys.stderr,
    )
    return 0 if tally.records or not a.files else 1
