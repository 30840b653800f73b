"""Separate blog posts from readers' comments: ExtractUniqueBlock + post/comment separation.

    >>> from extractor import Page, extract_site
    >>> results = extract_site([Page(None, b"<body><p>a</p></body>"), Page(None, b"<body><p>b</p></body>")])

Pure library: no Scrapy, no SQLite. See docs/algorithm.md for the method and its deviations.
"""

from ._compiled import prefer_fresh_sources

prefer_fresh_sources()  # before any compiled module is imported: a stale build must not run

from .core.options import DEFAULT, PAPER, PRESETS, Options  # noqa: E402
from .separation.method import BlockResult, Page, PageExtraction, extract_site, read_page  # noqa: E402
from .separation.profile import SiteProfile, extract_and_learn, learn_profile  # noqa: E402

__all__ = [
    "DEFAULT",
    "PAPER",
    "PRESETS",
    "BlockResult",
    "Options",
    "Page",
    "PageExtraction",
    "SiteProfile",
    "extract_and_learn",
    "extract_site",
    "learn_profile",
    "read_page",
]
