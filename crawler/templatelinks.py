"""One more page of a new site's template, found on its home page (issue 28: a site is never one page).

The home page is one template page; an article's set is better served by a page of the same
template kind as its articles. A link marked as a post's permalink (``rel="bookmark"``, hAtom and
WordPress) to an article the crawl does not hold (older than the feed lists) is such a page: a
previous article. Else an archive: a link marked as a tag or category (the rel-tag microformat,
WordPress's ``rel="category tag"``: a post's own category, never empty), else one whose path is a
category, tag or archives listing.

>>> pick_template_link([Anchor("/2026/01/old-post/", "bookmark"), Anchor("/category/3/", "")],
...                    "http://h/", known=set())
TemplateLink(url='http://h/2026/01/old-post/', kind='previous article')
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

from store.urls import normalize_url

PREVIOUS_ARTICLE = "previous article"
ARCHIVE = "archive page"
HOME = "home page"

# rel values that mark a link to a listing of the site's posts (rel-tag; WordPress: "category tag")
ARCHIVE_RELS = frozenset(("tag", "category", "archives"))
# the first path segment (below the home page) of WordPress's and most engines' listings
ARCHIVE_SEGMENTS = frozenset(("category", "categories", "tag", "tags", "archives", "archive"))


@dataclass(frozen=True, slots=True)
class Anchor:
    """A link of the home page: its href as written and its rel attribute."""

    href: str
    rel: str


@dataclass(frozen=True, slots=True)
class TemplateLink:
    url: str
    kind: str  # PREVIOUS_ARTICLE or ARCHIVE


def pick_template_link(anchors: Iterable[Anchor], home: str, known: Collection[str]) -> TemplateLink | None:
    """The first previous article linked from the home page ``home``, else its first archive link;
    only pages below the home page, not the home page, not a feed, no query; ``known``: the
    normalized URLs of the site's articles (they are the set's articles already)."""
    marked: TemplateLink | None = None  # an archive the page marks as one (rel), before one by its path
    by_path: TemplateLink | None = None
    for anchor in anchors:
        url = below_home(anchor.href, home)
        if url is None or normalize_url(url) in known:
            continue
        rels = set(anchor.rel.lower().split())
        if "bookmark" in rels:
            return TemplateLink(url, PREVIOUS_ARTICLE)
        if marked is None and rels & ARCHIVE_RELS:
            marked = TemplateLink(url, ARCHIVE)
        elif by_path is None and _first_segment(url, home) in ARCHIVE_SEGMENTS:
            by_path = TemplateLink(url, ARCHIVE)
    return marked or by_path


def below_home(href: str, home: str) -> str | None:
    """``href`` made absolute without its fragment, when it is a page below ``home`` (not home itself,
    no query, no feed), else None."""
    parts = urlsplit(urljoin(home, href.strip()))
    base = urlsplit(home)
    if parts.scheme not in ("http", "https") or parts.netloc != base.netloc or parts.query:
        return None
    if not parts.path.startswith(base.path) or parts.path.rstrip("/") == base.path.rstrip("/"):
        return None
    if "/feed" in parts.path or parts.path.endswith((".xml", ".rss", ".atom")):
        return None
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def _first_segment(url: str, home: str) -> str:
    rest = urlsplit(url).path[len(urlsplit(home).path) :].strip("/")
    return rest.split("/", 1)[0].lower()
