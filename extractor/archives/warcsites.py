"""Sites and articles of an archive's pages (extractor.archives.warc's pass 1 index), as the crawl keys them.

sites = group_sites(index)   # site name -> its page captures, oldest first

See README "Web archives": a note the export wrote wins; else the site of the first site feed in
the archive listing the page; else the site whose root is the longest prefix of its URL; else its
host. Listing pages (home, categories, archives, search) no feed lists are no articles.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from extractor.archives.feedlinks import FeedEntryLink, url_key
from extractor.archives.warc import ArchiveIndex, FeedCapture, PageCapture
from extractor.core.sitekeys import default_site_name, site_root_segments

TEMPLATE_KIND = "template"  # the metadata kind of a template page (jobs.warcwriter writes it)


def comment_feed_keys(index: ArchiveIndex) -> dict[str, str]:
    """url_key of each comment feed an entry announces (wfw:commentRss) -> the article's url_key."""
    return {e.comment_rss: e.link for f in index.feeds for e in f.entries if e.comment_rss}


def comment_feeds_by_article(index: ArchiveIndex) -> dict[str, list[FeedCapture]]:
    """url_key of an article -> the captures of its comment feed (an entry announced it, or the
    export's note says so), oldest first."""
    announced = comment_feed_keys(index)
    found: dict[str, list[FeedCapture]] = {}
    for feed in index.feeds:
        note = index.notes.get(feed.record_id, {})
        article = announced.get(feed.key) or (note.get("article") if note.get("kind") == "comment-feed" else None)
        if article:
            found.setdefault(url_key(article), []).append(feed)
    for captures in found.values():
        captures.sort(key=lambda f: f.captured_at)
    return found


def site_feeds(index: ArchiveIndex) -> list[FeedCapture]:
    """The feeds that list a blog's articles: not comment feeds (announced by an entry, or whose
    entries link to comments), the blog's own feed before its category feeds (fewest path segments)."""
    comment_feeds = comment_feed_keys(index)
    feeds = [
        f
        for f in index.feeds
        if f.key not in comment_feeds
        and index.notes.get(f.record_id, {}).get("kind") != "comment-feed"
        and f.entries
        and sum(e.to_comment for e in f.entries) * 2 < len(f.entries)
    ]
    return sorted(feeds, key=lambda f: (len(site_root_segments(f.url)), f.key, f.captured_at))


# Path segments and query names of a blog's listing pages (home, archives, categories, search): no article.
_LISTING_SEGMENTS = frozenset({"category", "categories", "tag", "tags", "author", "page", "search", "feed", "comments"})
_LISTING_QUERY = ("s=", "paged=", "cat=", "tag=", "author=", "m=")


def is_listing(key: str, roots: set[str]) -> bool:
    """A blog's home, archive, category, tag, author or search page, not an article."""
    parts = urlsplit(key)
    segments = [s.lower() for s in parts.path.split("/") if s]
    if key in roots or (not segments and not parts.query):
        return True
    return bool(_LISTING_SEGMENTS.intersection(segments)) or any(
        q.startswith(_LISTING_QUERY) for q in parts.query.split("&")
    )


def group_sites(index: ArchiveIndex) -> dict[str, list[PageCapture]]:
    """Each page's site and article key, and the pages by site (oldest capture first). See docs:
    a note written by the export wins; else the site of the first site feed listing the page (feeds
    are named as the crawl names them, extractor.core.sitekeys); else the site whose root (a feed's
    URL without its feed-ish tail) is the longest prefix of the page's URL on its host; else the
    host (with its port) is the site. Listing pages (is_listing) that no feed entry names are left
    out (counted in `index.tally.listings`), as the crawl fetches articles only."""
    entry_site: dict[str, str] = {}
    roots: list[tuple[str, str]] = []  # (url_key of the blog's root, site)
    for feed in site_feeds(index):
        site = default_site_name(feed.url)
        parts = urlsplit(feed.key)
        root = f"{parts.scheme}://{parts.netloc}/" + "".join(s + "/" for s in site_root_segments(feed.url))
        roots.append((root, site))
        for entry in feed.entries:
            entry_site.setdefault(entry.link, site)
    roots.sort(key=lambda r: -len(r[0]))
    root_keys = {root for root, _site in roots}
    sites: dict[str, list[PageCapture]] = {}
    index.tally.listings = 0
    for page in index.pages:
        note = index.notes.get(page.record_id, {})
        if note.get("kind") == TEMPLATE_KIND:
            continue  # a site's home page the crawl read beside its articles (template_pages)
        if not note and page.key not in entry_site and is_listing(page.key, root_keys):
            index.tally.listings += 1
            continue
        page.article = note.get("article") or page.key
        page.site = note.get("site") or entry_site.get(page.key) or _by_root(page.key, roots)
        sites.setdefault(page.site, []).append(page)
    for pages in sites.values():
        pages.sort(key=lambda p: (p.captured_at, p.ref.path, p.ref.offset))
    return dict(sorted(sites.items()))


def template_pages(index: ArchiveIndex) -> list[PageCapture]:
    """The pages our export or crawl wrote as a site's template page (kind: template): never
    articles; the store's import keeps them as template pages again. Each with its site."""
    found = []
    for page in index.pages:
        note = index.notes.get(page.record_id, {})
        if note.get("kind") == TEMPLATE_KIND and note.get("site"):
            page.site = note["site"]
            found.append(page)
    return found


def _by_root(key: str, roots: list[tuple[str, str]]) -> str:
    for root, site in roots:
        if key.startswith(root):
            return site
    parts = urlsplit(key)
    return default_site_name(f"{parts.scheme}://{parts.netloc}/")


def feed_entries(index: ArchiveIndex) -> dict[str, FeedEntryLink]:
    """url_key of an article -> the entry of the first site feed listing it (as group_sites chose)."""
    found: dict[str, FeedEntryLink] = {}
    for feed in site_feeds(index):
        for entry in feed.entries:
            found.setdefault(entry.link, entry)
    return found
