"""Web archives in the store: archived pages' sites and articles, imported files, and what an export reads.

with store.transaction():
    store.add_archived_article(ArchivedArticle(site="ex.com-blog", url="http://ex.com/blog/a/"), now=time.time())
store.imported_files(["9f86d0…"])   # the SHA-256s already imported

An archived page joins the store as a crawled one does (a `sites` row, its `feeds` row when a feed
in the archive listed it, an `articles` row, then `save_page`), so batches, extraction and every
query treat it alike. The articles are `done`: the crawl never schedules a re-fetch of them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from store.clock import to_iso
from store.crawlstate import StoreBase
from store.sql import Database


@dataclass(frozen=True)
class ArchivedArticle:
    """What the archive says of an article (from a feed entry, or the export's note)."""

    site: str
    url: str  # articles.url: normalized (store.urls.normalize_url)
    link: str | None = None
    feed_url: str | None = None
    title: str | None = None
    author: str | None = None
    published: str | None = None  # ISO 8601 UTC
    guid: str | None = None
    comment_rss: str | None = None


_PAGE_CHUNK = 100  # rows per read: memory for a few bodies, not for the store


def _chunked(db: Database, sql: str, site: str | None) -> Iterator[dict[str, Any]]:
    """Rows of `sql` (which filters `{id} > ?` and optionally site, ordered by id), a chunk per read."""
    last = 0
    while True:
        params: list[Any] = [last, *([site] if site else []), _PAGE_CHUNK]
        rows = list(db.query(sql, params))
        yield from rows
        if len(rows) < _PAGE_CHUNK:
            return
        last = int(rows[-1]["id"])


class WarcBook(StoreBase):
    """Web archives imported (`warc_imports`), the articles they bring, and the pages an export writes."""

    def add_archived_site(self, site: str, now: float) -> None:
        """Insert the site's row when missing (call in a transaction)."""
        self.db.execute(
            "INSERT INTO sites (name, home_url, added_at) VALUES (?, NULL, ?) ON CONFLICT(name) DO NOTHING",
            [site, to_iso(now)],
        )

    def add_archived_article(self, article: ArchivedArticle, now: float) -> None:
        """Insert the article's site, feed and article rows when missing (call in a transaction)."""
        db = self.db
        stamp = to_iso(now)
        self.add_archived_site(article.site, now)
        if article.feed_url:
            db.execute(
                "INSERT INTO feeds (url, site, feed_url, added_at) VALUES (?, ?, ?, ?) ON CONFLICT(url) DO NOTHING",
                [article.feed_url, article.site, article.feed_url, stamp],
            )
        db.execute(
            "INSERT INTO articles (url, site, feed, entry_id, guid, link, title, author, published, comment_rss,"
            " discovered_at, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'done') ON CONFLICT DO NOTHING",
            [
                article.url,
                article.site,
                article.feed_url,
                article.guid or article.url,
                article.guid,
                article.link or article.url,
                article.title,
                article.author,
                article.published,
                article.comment_rss,
                stamp,
            ],
        )

    def imported_files(self, digests: Sequence[str]) -> set[str]:
        """Those of `digests` (SHA-256 of files) imported before."""
        db = self.db
        found: set[str] = set()
        for start in range(0, len(digests), 400):
            chunk = list(digests[start : start + 400])
            marks = ",".join("?" for _ in chunk)
            found.update(r[0] for r in db.execute(f"SELECT sha256 FROM warc_imports WHERE sha256 IN ({marks})", chunk))
        return found

    def record_import(
        self, *, sha256: str, path: str, size: int, counts: dict[str, int], skipped: Counter[str], now: float
    ) -> None:
        """Mark a file imported (call in a transaction, after its pages are stored)."""
        db = self.db
        db.execute(
            "INSERT INTO warc_imports (sha256, path, size, records, pages, feeds, skipped, imported_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(sha256) DO NOTHING",
            [
                sha256,
                path,
                size,
                counts.get("records", 0),
                counts.get("pages", 0),
                counts.get("feeds", 0),
                json.dumps(dict(skipped), ensure_ascii=False),
                to_iso(now),
            ],
        )

    def unextracted_sites(self) -> set[str]:
        """Sites with a stored page never extracted (an import or crawl stopped before extracting it)."""
        db = self.db
        rows = db.execute(
            "SELECT DISTINCT site FROM snapshots s"
            " WHERE NOT EXISTS (SELECT 1 FROM extractions e WHERE e.snapshot = s.id)"
        )
        return {r[0] for r in rows}

    def archived_article_sites(self, urls: Iterable[str]) -> dict[str, str]:
        """articles.url -> site for those of `urls` already stored (a later archive keeps their site)."""
        db = self.db
        wanted = sorted(set(urls))
        found: dict[str, str] = {}
        for start in range(0, len(wanted), 400):
            chunk = wanted[start : start + 400]
            marks = ",".join("?" for _ in chunk)
            found.update(
                (r[0], r[1]) for r in db.execute(f"SELECT url, site FROM articles WHERE url IN ({marks})", chunk)
            )
        return found

    def exported_pages(self, site: str | None = None) -> Iterator[dict[str, Any]]:
        """Every stored page (gzip body) with what its article's feed entry said, oldest snapshot first."""
        where = " AND s.site = ?" if site else ""
        return _chunked(
            self.db,
            "SELECT s.id, s.article, s.site, s.kind, s.url, s.request_url, s.status, s.headers, s.body,"
            " s.fetched_at, a.feed, a.title, a.author, a.published, a.guid, a.link, a.comment_rss"
            f" FROM snapshots s JOIN articles a ON a.url = s.article WHERE s.id > ?{where} ORDER BY s.id LIMIT ?",
            site,
        )

    def exported_template_pages(self, site: str | None = None) -> Iterator[dict[str, Any]]:
        """Every stored template page (a site's home page beside its articles; gzip body), oldest first."""
        where = " AND site = ?" if site else ""
        return _chunked(
            self.db,
            "SELECT id, site, url, status, headers, body, fetched_at, kind FROM template_pages"
            f" WHERE id > ?{where} ORDER BY id LIMIT ?",
            site,
        )

    def exported_comment_feeds(self, site: str | None = None) -> Iterator[dict[str, Any]]:
        """Every stored comment-feed fetch (gzip body), oldest first."""
        where = " AND site = ?" if site else ""
        return _chunked(
            self.db,
            "SELECT id, article, site, url, headers, body, fetched_at FROM comment_feed_fetches"
            f" WHERE id > ?{where} ORDER BY id LIMIT ?",
            site,
        )
