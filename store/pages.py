"""Storing fetched pages: the snapshot row and its article's schedule, in one transaction (both backends).

page = PageRecord(site="demo", article_url=url, url=url, status=200, headers={}, body=b"<html>…",
                  fetched_at=time.time(), kind="first")
store.save_page(page, offsets=[3600])

Bodies are stored gzip-compressed (deterministic: the same page gives the same blob); the raw
size is kept in `body_size`, the stored size is `length(body)`.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from store.clock import from_iso, next_refetch, refetch_base, to_iso
from store.crawlstate import StoreBase


def gzip_body(body: bytes) -> bytes:
    """Deterministic gzip (mtime 0): the same page always gives the same blob."""
    return gzip.compress(body, compresslevel=6, mtime=0)


def gunzip_body(blob: bytes) -> bytes:
    """The raw page bytes of a snapshot's `body`: gunzip_body(gzip_body(b"x")) == b"x"."""
    return gzip.decompress(blob)


@dataclass(frozen=True)
class StoredBody:
    """A page body as its snapshot keeps it: compressed, with the raw body's size and SHA-256."""

    gzipped: bytes
    size: int
    sha256: str


def stored_body(body: bytes) -> StoredBody:
    """What a snapshot keeps of `body`: made before a write lock is taken (SQLite's is the whole
    store's), since hashing and compressing take longer than the writes."""
    return StoredBody(gzip_body(body), len(body), hashlib.sha256(body).hexdigest())


@dataclass(kw_only=True)
class PageRecord:
    """A fetched article page as the store keeps it (crawler.items.PageItem is one, with the feed's metadata).

    `article_url` is the article's natural key (articles.url); `url` the final URL after redirects,
    `request_url` the one asked for (empty: the same). `fetched_at` is a POSIX time; the comment-feed
    validators are those of the feed read with the page (kept only with `comment_feed_sig`).
    """

    site: str
    article_url: str
    url: str
    status: int
    headers: dict[str, list[str]]
    body: bytes
    fetched_at: float
    kind: str  # "first" | "refetch"
    request_url: str = ""
    slash_comments: int | None = None
    comment_feed_sig: str | None = None
    comment_feed_etag: str | None = None
    comment_feed_last_modified: str | None = None


class PageState(StoreBase):
    """Fetched article pages (`snapshots`) and template pages (`template_pages`)."""

    def save_page(self, page: PageRecord, offsets: Sequence[float], *, body: StoredBody | None = None) -> int:
        """Commit a fetched page and advance its article's schedule atomically; returns the snapshot id.

        Idempotent: the same (article, fetched_at) is stored once. `body`: stored_body(page.body) made
        already (an import makes it before its write transaction of many pages, while other workers write).
        """
        stamp = to_iso(page.fetched_at)
        article = page.article_url
        kept = body or stored_body(page.body)
        values = [
            article,
            page.site,
            page.kind,
            page.url,
            page.request_url or page.url,
            page.status,
            json.dumps(page.headers, ensure_ascii=False),
            kept.gzipped,
            kept.size,
            kept.sha256,
            stamp,
        ]
        with self.transaction() as db:
            db.execute(
                "INSERT INTO snapshots (article, site, kind, url, request_url, status, headers, body,"
                " body_size, body_sha256, fetched_at) VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                values,
            )
            snap = db.execute(
                "SELECT id FROM snapshots WHERE article = ? AND fetched_at = ?", [article, stamp]
            ).fetchone()
            row = db.execute("SELECT published, first_fetched_at FROM articles WHERE url = ?", [article]).fetchone()
            published = from_iso(row[0]) if row else None
            first = (from_iso(row[1]) if row and row[1] else None) or page.fetched_at
            due = next_refetch(refetch_base(published, first), offsets, page.fetched_at)
            db.execute(
                "UPDATE articles SET first_fetched_at = COALESCE(first_fetched_at, :now),"
                " last_fetched_at = :now,"
                " fetches = fetches + 1, state = :state, next_fetch_at = :next, failures = 0,"
                " last_status = :status, last_error = NULL,"
                " slash_at_fetch = COALESCE(:slash, slash_comments),"
                " comment_feed_sig = COALESCE(:sig, comment_feed_sig),"
                " comment_feed_etag = CASE WHEN :sig IS NULL THEN comment_feed_etag ELSE :etag END,"
                " comment_feed_last_modified ="
                " CASE WHEN :sig IS NULL THEN comment_feed_last_modified ELSE :lm END"
                " WHERE url = :url",
                {
                    "url": article,
                    "now": stamp,
                    "state": "active" if due else "done",
                    "next": to_iso(due) if due else None,
                    "status": page.status,
                    "slash": page.slash_comments,
                    "sig": page.comment_feed_sig,
                    "etag": page.comment_feed_etag,
                    "lm": page.comment_feed_last_modified,
                },
            )
        return int(snap[0])

    def save_template_page(
        self,
        *,
        site: str,
        url: str,
        status: int,
        headers: dict[str, list[str]],
        body: bytes,
        fetched_at: float,
        kind: str = "home page",
    ) -> int:
        """Commit a fetched template page (a site's home page, a previous article or an archive page,
        store.schema `template_pages`); the latest fetch of a URL replaces the earlier one. Returns its id."""
        row = [
            site,
            url,
            status,
            json.dumps(headers, ensure_ascii=False),
            gzip_body(body),
            len(body),
            to_iso(fetched_at),
            kind,
        ]
        with self.transaction() as db:
            db.execute(
                "INSERT INTO template_pages (site, url, status, headers, body, body_size, fetched_at, kind)"
                " VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (site, url) DO UPDATE SET status = excluded.status,"
                " headers = excluded.headers, body = excluded.body, body_size = excluded.body_size,"
                " fetched_at = excluded.fetched_at, kind = excluded.kind",
                row,
            )
            found = db.execute("SELECT id FROM template_pages WHERE site = ? AND url = ?", [site, url]).fetchone()
        return int(found[0])

    def template_pages(self, site: str, limit: int = 3) -> list[dict[str, Any]]:
        """The site's stored template pages (url, headers as a dict, raw body, kind), oldest URL first."""
        rows = self.db.query(
            "SELECT url, headers, body, kind FROM template_pages WHERE site = ? AND status = 200 ORDER BY id LIMIT ?",
            [site, limit],
        )
        return [
            {
                "url": r["url"],
                "headers": json.loads(r["headers"] or "{}"),
                "body": gunzip_body(r["body"]),
                "kind": r["kind"] or "home page",
            }
            for r in rows
        ]

    def has_template_page(self, site: str) -> bool:
        """Whether a template page of the site was ever fetched (whatever its status)."""
        return self.db.execute("SELECT 1 FROM template_pages WHERE site = ? LIMIT 1", [site]).fetchone() is not None
