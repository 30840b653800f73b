"""Keep the crawl's pages as WARC files as it goes (BLOGS_WARC_DIR), rotated by size.

WarcPipeline(directory="warc/", max_bytes=1 << 30)

Runs after PersistPagePipeline: an item reaches it once its page (or comment feed) is committed
to the store, so a page is stored before it is archived. Each page is written as
jobs.warcwriter writes an export (response, request and metadata records, WARC 1.1, gzip per
record), each comment feed as a response and a metadata record. A file is written as
`blogs-<start time>-<pid>-<n>.warc.gz.open` and renamed to `.warc.gz` when it passes
BLOGS_WARC_MAX_SIZE bytes or the crawl ends, so that a complete file never changes again and
archive tools (and `scrapy import-warc`) can take every `.warc.gz` in the folder at any time.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from warcio.warcwriter import WARCWriter

from crawler.items import CommentFeedItem, PageItem, TemplatePageItem
from jobs.warcwriter import ArchivedFetch, new_writer, template_note, write_page
from store.clock import to_iso

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)
DEFAULT_MAX_BYTES = 1 << 30  # 1 GiB, as Heritrix and wget's --warc-max-size users often choose


class WarcPipeline:
    """Write each stored page and comment feed into the folder's current WARC file."""

    def __init__(self, directory: str, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.directory = Path(directory)
        self.max_bytes = max(1, max_bytes)
        self.stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime())
        self.serial = 0
        self.handle: IO[bytes] | None = None
        self.writer: WARCWriter | None = None
        self.path: Path | None = None
        self.written: list[Path] = []  # complete files of this run
        self.broken = False  # a write failed: the rest of the crawl writes no WARC

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcPipeline:
        directory = crawler.settings.get("BLOGS_WARC_DIR")
        if not directory:
            raise NotConfigured  # no message: Scrapy would log a WARNING on every run without WARC
        try:
            Path(directory).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            # The crawl still stores every page (`scrapy export --warc` writes them later): one line, no WARC.
            logger.error("BLOGS_WARC_DIR %s cannot be created (%s): this crawl writes no WARC", directory, exc.strerror)
            raise NotConfigured from None  # said once above
        return cls(directory, crawler.settings.getint("BLOGS_WARC_MAX_SIZE", DEFAULT_MAX_BYTES))

    def open_spider(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)

    def close_spider(self) -> None:
        try:
            self._finish()
        except OSError as exc:
            logger.error("Cannot finish the WARC file %s: %s", self.path, exc)

    def _current(self) -> WARCWriter:
        if self.writer is None:
            self.serial += 1
            self.path = self.directory / f"blogs-{self.stamp}-{os.getpid()}-{self.serial:05d}.warc.gz.open"
            self.handle = open(self.path, "wb")  # noqa: SIM115 -- kept open across items, closed by _finish
            self.writer = new_writer(self.handle)
        return self.writer

    def _finish(self) -> None:
        if self.handle is None or self.path is None:
            return
        self.handle.close()
        done = self.path.with_name(self.path.name.removesuffix(".open"))
        self.path.replace(done)
        self.written.append(done)
        self.handle = self.writer = self.path = None

    def process_item(self, item: Any) -> Any:
        if isinstance(item, PageItem) and item.snapshot_id is not None:
            fetch = ArchivedFetch(
                item.url, item.request_url or item.url, item.status, item.headers, item.body, to_iso(item.fetched_at)
            )
            note = {
                "site": item.site,
                "article": item.article_url,
                "kind": item.kind,
                "via-feed": item.feed_url,
                "entry-title": item.title,
                "entry-published": item.published,
            }
        elif isinstance(item, TemplatePageItem) and item.page_id is not None:
            fetch = ArchivedFetch(item.url, item.url, item.status, item.headers, item.body, to_iso(item.fetched_at))
            note = template_note(item.site, item.kind)
        elif isinstance(item, CommentFeedItem) and item.fetch_id is not None:
            fetch = ArchivedFetch(item.url, item.url, 200, item.headers, item.body, to_iso(item.fetched_at))
            note = {"site": item.site, "article": item.article_url, "kind": "comment-feed"}
        else:
            return item
        if self.broken:
            return item
        try:
            write_page(self._current(), fetch, note)
            assert self.handle is not None
            if self.handle.tell() >= self.max_bytes:
                self._finish()
        except OSError as exc:  # disk full, folder gone: the page is stored; extraction must still see it
            self.broken = True
            logger.error("Cannot write WARC into %s (%s): no more WARC in this crawl", self.directory, exc)
        return item
