"""Scrapy logs some failures itself (robots.txt of a dead host as an ERROR with traceback, responses
over DOWNLOAD_MAXSIZE); the spider reports each failure once with its feed or article URL, so those
records are demoted to DEBUG for the crawl.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy import signals

if TYPE_CHECKING:
    from scrapy.crawler import Crawler


# (logger, message start) of Scrapy records that repeat a failure the spider reports itself.
_DUPLICATES = {
    "scrapy.downloadermiddlewares.robotstxt": ("Error downloading",),
    "scrapy.core.downloader.handlers.http11": ("Received", "Expected to receive"),
    "scrapy.downloadermiddlewares.httpcompression": ("Ignored response",),
}


class QuietDuplicateErrors(logging.Filter):
    """Demote Scrapy's own report of a failure the spider logs anyway to DEBUG, without traceback.

    Only failures are demoted: a "download warn size" record stays a warning.
    """

    def __init__(self, prefixes: tuple[str, ...]) -> None:
        super().__init__()
        self.prefixes = prefixes

    def filter(self, record: logging.LogRecord) -> bool:
        msg = str(record.msg)
        failure = record.levelno >= logging.ERROR or "max size" in msg or "DOWNLOAD_MAXSIZE" in msg
        if failure and msg.startswith(self.prefixes):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            record.exc_info, record.exc_text = None, None
        return True  # handlers drop it unless LOG_LEVEL is DEBUG


class QuietDuplicateErrorsExtension:
    """Installs QuietDuplicateErrors on the loggers in _DUPLICATES for the crawl."""

    def __init__(self) -> None:
        self.filters = {name: QuietDuplicateErrors(prefixes) for name, prefixes in _DUPLICATES.items()}
        for name, flt in self.filters.items():
            logging.getLogger(name).addFilter(flt)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> QuietDuplicateErrorsExtension:
        ext = cls()
        crawler.signals.connect(ext._closed, signal=signals.spider_closed)
        return ext

    def _closed(self, *args: Any, **kwargs: Any) -> None:
        for name, flt in self.filters.items():
            logging.getLogger(name).removeFilter(flt)
