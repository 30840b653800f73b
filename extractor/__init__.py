"""Separate blog posts from readers' comments: ExtractUniqueBlock + post/comment separation.

    >>> from extractor import Page, extract_site
    >>> results = extract_site([Page(None, b"<body><p>a</p></body>"), Page(None, b"<body><p>b</p></body>")])

Pure library: no Scrapy, no SQLite. See docs/algorithm.md for the method and its deviations.
"""

from .options import DEFAULT, PAPER, PRESETS, Options
from .pipeline import BlockResult, Page, PageExtraction, extract_site, read_page
from .profile import SiteProfile, extract_and_learn, learn_profile

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
