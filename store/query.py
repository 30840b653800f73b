"""Read-side queries behind `scrapy sites|posts|comments|search|export`; plain SQL over the store.

with open_existing_store("blogs.db") as store: rows = list(store.posts(site="gen1", since=parse_since("7d")))

Readers never take the crawl lock and never block a running crawl (WAL): opening a current
store writes nothing, and every query is a single read transaction.
"""

from __future__ import annotations

import difflib
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

from store.clock import from_iso, to_iso
from store.commentfeeds import CommentFeedBook
from store.commentsystems import CommentSystemBook
from store.faults import DATABASE_ERRORS
from store.searchquery import SearchSyntaxError, parse_search, register_fold, scan_snippet
from store.sql import Database
from store.urls import normalize_url

POST_FIELDS = ["url", "site", "title", "author", "text", "published", "fetched_at", "comment_system", "comments_state"]
# `fingerprint` names a comment, `parent` the fingerprint of the comment it replies to.
COMMENT_FIELDS = [
    "url", "site", "fingerprint", "parent", "text", "author", "date", "position", "first_seen", "gone_at", "source",
]  # fmt: skip
SITE_FIELDS = [
    "site",
    "articles",
    "pages",
    "page_kb",
    "posts",
    "comments",
    "comment_systems",
    "comments_state",
    "batch",
    "profile",
    "profile_age",
    "feed_check",
    "last_error",
]
_RELATIVE = re.compile(r"^(\d+)\s*([smhdw])$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
SINCE_FORMS = "2024-05-01, 2024-05-01T10:00, 2024-05-01T10:00Z or +02:00, 7d, 12h, 30m, 2w, today, yesterday"


class QueryError(ValueError):
    """A user's question the store cannot answer as asked (no such site, unreadable date or query):
    the commands print the one-line message and exit 2 instead of printing an empty answer."""


def _age(iso: str | None, now: float) -> str | None:
    t = from_iso(iso)
    if t is None:
        return None
    seconds = max(0.0, now - t)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f}{unit}"
    return f"{seconds:.0f}s"


def _count(db: Database, sql: str) -> dict[str, int]:
    return {r[0]: int(r[1]) for r in db.execute(sql).fetchall()}


def _slash_twin(url: str) -> str | None:
    """The same URL with the path's trailing slash added or removed (None for a bare host)."""
    head, sep, query = url.partition("?")
    scheme_host = head.split("/", 3)
    if len(scheme_host) < 4 or scheme_host[3] == "":
        return None
    twin = head[:-1] if head.endswith("/") else head + "/"
    return twin + sep + query


def parse_since(text: str, now: float | None = None) -> str:
    """`--since` as the store's ISO UTC text: parse_since("2024-05-01T12:00+02:00") == '2024-05-01T10:00:00.000Z'.

    ISO dates and datetimes (no zone: UTC), or relative to `now`: 7d, 12h, 30m, 2w, today, yesterday
    (midnight UTC). QueryError for anything else.
    """
    value = text.strip().lower()
    now = time.time() if now is None else now
    if value in ("today", "yesterday"):
        midnight = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        return to_iso((midnight - timedelta(days=1 if value == "yesterday" else 0)).timestamp())
    relative = _RELATIVE.match(value)
    if relative:
        return to_iso(now - int(relative.group(1)) * _UNIT_SECONDS[relative.group(2)])
    try:
        if not re.match(r"^\d{4}-\d\d-\d\d", value):
            raise ValueError(value)
        moment = datetime.fromisoformat(text.strip().upper().replace(" ", "T", 1))
    except ValueError:
        raise QueryError(f"--since {text!r} is not a date; use e.g. {SINCE_FORMS}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return to_iso(moment.timestamp())


Sites = str | list[str] | tuple[str, ...] | None


def _site_filter(column: str, site: Sites, where: list[str], params: list[Any]) -> None:
    """Restrict `column` to one site or several (`--site a --site b`); nothing for None or []."""
    names = [site] if isinstance(site, str) else list(site or [])
    if names:
        where.append(f"{column} IN ({', '.join('?' * len(names))})")
        params.extend(names)


def _posts_filter(site: Sites, since: str | None) -> tuple[str, list[Any]]:
    where: list[str] = ["1 = 1"]
    params: list[Any] = []
    _site_filter("site", site, where, params)
    if since:
        where.append("COALESCE(published, fetched_at) >= ?")
        params.append(since)
    return " AND ".join(where), params


def _comments_filter(site: Sites, article: str | None, since: str | None) -> tuple[str, list[Any]]:
    where: list[str] = ["1 = 1"]
    params: list[Any] = []
    _site_filter("c.site", site, where, params)
    if article:
        where.append("c.article = ?")
        params.append(article)
    if since:
        where.append("c.first_seen >= ?")
        params.append(since)
    return " AND ".join(where), params


@dataclass
class SearchPlan:
    """The FROM/WHERE part of a search and its parameters; `select` is what a hit row shows."""

    source: str
    params: list[Any]
    select: str
    order: str
    parsed: Any


class ReadQueries(CommentFeedBook, CommentSystemBook):
    """What `scrapy sites|posts|comments|search|export|report` read: one read transaction per query."""

    def sites(self, now: float | None = None) -> list[dict[str, Any]]:
        """One summary row per site: counts, mean page size fetched -> stored, batch fill, profile version
        and age, comment-feed check, last error."""
        db = self.db
        now = time.time() if now is None else now
        articles = _count(db, "SELECT site, COUNT(*) FROM articles GROUP BY site")
        pages = _count(db, "SELECT site, COUNT(*) FROM snapshots GROUP BY site")
        sizes = {
            r[0]: (float(r[1] or 0), float(r[2] or 0))
            for r in db.execute(
                "SELECT site, AVG(body_size), AVG(LENGTH(body)) FROM snapshots GROUP BY site"
            ).fetchall()
        }
        posts_n = _count(db, "SELECT site, COUNT(*) FROM posts GROUP BY site")
        comments_n = _count(db, "SELECT site, COUNT(*) FROM comments WHERE gone_at IS NULL GROUP BY site")
        out = []
        for site in db.query("SELECT * FROM sites ORDER BY name"):
            name = site["name"]
            batch = next(
                db.query(
                    "SELECT members, size FROM batches WHERE site = ? AND state != 'done' ORDER BY id LIMIT 1", [name]
                ),
                None,
            )
            prof = next(
                db.query(
                    "SELECT version, learned_at FROM profiles WHERE site = ? ORDER BY version DESC LIMIT 1", [name]
                ),
                None,
            )
            error = next(
                db.query(
                    "SELECT t, e FROM (SELECT last_polled_at AS t, last_error AS e FROM feeds WHERE site = :s AND"
                    " last_error IS NOT NULL UNION ALL SELECT last_fetched_at, last_error FROM articles WHERE site = :s"
                    " AND last_error IS NOT NULL) AS errors ORDER BY t DESC LIMIT 1",
                    {"s": name},
                ),
                None,
            )
            agreement = self.site_agreement(name)
            systems = self.comment_states(name)
            out.append(
                {
                    "site": name,
                    "articles": articles.get(name, 0),
                    "pages": pages.get(name, 0),
                    # mean page as fetched -> as stored (gzip), in KiB: what a page costs the store
                    "page_kb": f"{sizes[name][0] / 1024:.1f} -> {sizes[name][1] / 1024:.1f}" if name in sizes else None,
                    "posts": posts_n.get(name, 0),
                    "comments": comments_n.get(name, 0),
                    "comment_systems": systems.systems,
                    "comments_state": systems.states,
                    "batch": f"{batch['members']}/{batch['size']}" if batch else "0",
                    "profile": f"v{prof['version']}" if prof else None,
                    "profile_age": _age(prof["learned_at"], now) if prof else None,
                    "feed_check": (
                        f"{agreement.articles} art., count {agreement.count_exact:.2f}, F1 {agreement.f1:.2f}"
                        if agreement
                        else None
                    ),
                    "last_error": error["e"] if error else None,
                }
            )
        return out

    def check_site(self, site: str) -> str:
        """`site` when the store has it, else QueryError naming the sites it has (and the closest one)."""
        db = self.db
        names = [r[0] for r in db.execute("SELECT name FROM sites ORDER BY name").fetchall()]
        if site in names:
            return site
        if not names:
            raise QueryError(f"no site {site!r} in the store: it has no sites yet (run scrapy crawl blogs)")
        close = difflib.get_close_matches(site, names, n=1) or [n for n in names if n.lower() == site.lower()]
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        shown = ", ".join(names[:12]) + (f", … ({len(names)} sites)" if len(names) > 12 else "")
        raise QueryError(f"no site {site!r} in the store{hint}; sites: {shown}")

    def find_article(self, url: str) -> str:
        """The stored article URL that `url` names, normalized as the crawler keys articles (store.urls):
        case of %-escapes, decoded non-ASCII, default port, tracking parameters and a trailing slash
        do not matter. QueryError when no article matches."""
        db = self.db
        key = normalize_url(url)
        candidates = [key, url.strip()]
        twin = _slash_twin(key)
        if twin:
            candidates.append(twin)
        for candidate in candidates:  # exact first: /a and /a/ may be two articles
            if db.execute("SELECT 1 FROM articles WHERE url = ?", [candidate]).fetchone():
                return candidate
        raise QueryError(f"no article {url!r} in the store (URLs as scrapy posts lists them)")

    def article_site(self, article: str) -> str:
        """The site of a known article (an `articles.url`, e.g. from find_article)."""
        db = self.db
        return str(db.execute("SELECT site FROM articles WHERE url = ?", [article]).fetchone()[0])

    def newest_pages(self, site: str, limit: int) -> list[dict[str, Any]]:
        """The newest snapshot of each of the site's articles, newest first, with the stored extraction.

        Columns: id, url, headers, body (gzip), title, stored (extractions.comments), stored_error,
        comment_system, comments_state (the article's).
        """
        db = self.db
        return list(
            db.query(
                "SELECT s.id, s.url, s.headers, s.body, a.title, x.comments AS stored, x.error AS stored_error,"
                " a.comment_system, a.comments_state"
                " FROM snapshots s JOIN ("
                "  SELECT article, MAX(fetched_at) AS newest FROM snapshots WHERE site = ? GROUP BY article"
                ") n ON n.article = s.article AND n.newest = s.fetched_at"
                " LEFT JOIN articles a ON a.url = s.article LEFT JOIN extractions x ON x.snapshot = s.id"
                " ORDER BY s.fetched_at DESC LIMIT ?",
                [site, limit],
            )
        )

    def posts(self, site: Sites = None, since: str | None = None, limit: int | None = None) -> Iterator[dict[str, Any]]:
        """Posts, newest publication first; `site` one name or several; `since` (store ISO text, see
        parse_since) compares with publication (else fetch) time."""
        db = self.db
        condition, params = _posts_filter(site, since)
        sql = (
            f"SELECT {', '.join(POST_FIELDS)} FROM posts WHERE {condition}"
            " ORDER BY COALESCE(published, fetched_at) DESC, url"
        )
        if limit:
            sql += f" LIMIT {int(limit)}"
        yield from db.query(sql, params)

    def count_posts(self, site: Sites = None, since: str | None = None) -> int:
        """How many posts `posts` lists without a limit."""
        db = self.db
        condition, params = _posts_filter(site, since)
        return int(db.execute(f"SELECT COUNT(*) FROM posts WHERE {condition}", params).fetchone()[0])

    def comments(
        self,
        site: Sites = None,
        article: str | None = None,
        limit: int | None = None,
        since: str | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Comments in page order per article (those gone from the page too, with `gone_at`);
        `since` (store ISO text) compares with first_seen; `parent` is the fingerprint of the comment replied to."""
        db = self.db
        condition, params = _comments_filter(site, article, since)
        sql = (
            "SELECT c.article AS url, c.site, c.fingerprint, c.parent, c.text, c.author, c.date, c.position,"
            " c.first_seen, c.gone_at, c.source FROM comments c LEFT JOIN posts p ON p.url = c.article"
            f" WHERE {condition}"
            " ORDER BY COALESCE(p.published, p.fetched_at) DESC, c.article, c.gone_at IS NOT NULL, c.position"
        )
        if limit:
            sql += f" LIMIT {int(limit)}"
        yield from db.query(sql, params)

    def count_comments(self, site: Sites = None, article: str | None = None, since: str | None = None) -> int:
        """How many comments `comments` lists without a limit."""
        db = self.db
        condition, params = _comments_filter(site, article, since)
        return int(db.execute(f"SELECT COUNT(*) FROM comments c WHERE {condition}", params).fetchone()[0])

    def _search_plan(self, query: str, where: str, site: Sites, scan: bool | None) -> SearchPlan:
        db = self.db
        try:
            parsed = parse_search(query)
        except SearchSyntaxError as exc:
            raise QueryError(str(exc)) from None
        if where == "posts":
            table, cols, fields = "posts", ["title", "text"], "t.url, t.site, t.title, t.published"
            order = "COALESCE(t.published, t.fetched_at) DESC"
        elif where == "comments":
            table, cols, fields = "comments", ["text", "author"], "t.article AS url, t.site, t.author, t.date"
            order = "t.first_seen DESC"
        else:
            raise ValueError(f"search in posts or comments, not {where!r}")
        text = cols[-1] if table == "posts" else cols[0]
        sites: list[str] = []
        site_params: list[Any] = []
        _site_filter("t.site", site, sites, site_params)
        extra = "".join(f" AND {condition}" for condition in sites)
        if db.dialect == "postgresql":  # pg_trgm GIN indexes serve ILIKE '%item%' (store.postgres)
            condition, params = parsed.sql(cols, dialect="postgresql")
            source = f"{table} t WHERE {condition}{extra}"
        elif bool(scan) or not parsed.fits_fts():  # FTS5 would silently miss items under 3 characters
            register_fold(db.conn)  # type: ignore[attr-defined]
            condition, params = parsed.sql(cols)
            source = f"{table} t WHERE {condition}{extra}"
        else:
            source = f"{table}_fts JOIN {table} t ON t.rowid = {table}_fts.rowid WHERE {table}_fts MATCH ?{extra}"
            params = [parsed.fts()]
            order = "rank"
        return SearchPlan(source, [*params, *site_params], f"{fields}, t.{text} AS _text", order, parsed)

    def search(
        self, query: str, where: str = "posts", limit: int = 20, scan: bool | None = None, site: Sites = None
    ) -> list[dict[str, Any]]:
        """Posts (or comments) matching `query` (store.searchquery: words, "phrases", AND/OR/NOT, *).

        SQLite: FTS5 (trigram) ranked best first when every item has 3+ characters and scan is not
        True; otherwise a substring scan with the same meaning, newest first. PostgreSQL: ILIKE over
        pg_trgm indexes, same hits, newest first. QueryError on bad syntax.
        """
        db = self.db
        plan = self._search_plan(query, where, site, scan)
        try:
            hits = list(
                db.query(
                    f"SELECT {plan.select} FROM {plan.source} ORDER BY {plan.order} LIMIT ?", [*plan.params, limit]
                )
            )
        except DATABASE_ERRORS as exc:  # the parser should leave none; if one slips through, one line
            raise QueryError(f"{query!r}: {exc}") from None
        # One snippet for both paths (FTS5's snippet() counts trigrams, a few characters).
        for hit in hits:
            hit["snippet"] = scan_snippet(hit.pop("_text"), plan.parsed.positive)
        return hits

    def count_search(self, query: str, where: str = "posts", scan: bool | None = None, site: Sites = None) -> int:
        """How many hits `search` finds without a limit."""
        db = self.db
        plan = self._search_plan(query, where, site, scan)
        try:
            return int(db.execute(f"SELECT COUNT(*) FROM {plan.source}", plan.params).fetchone()[0])
        except DATABASE_ERRORS as exc:
            raise QueryError(f"{query!r}: {exc}") from None

    def _post_records(self, site: str | None) -> Iterator[dict[str, Any]]:
        db = self.db
        for post in self.posts(site=site):
            rows = list(
                db.query(
                    "SELECT fingerprint, text, author, date, date_precision, date_raw, parent, position, first_seen,"
                    " last_seen, gone_at, source FROM comments WHERE article = ?"
                    " ORDER BY gone_at IS NOT NULL, position",
                    [post["url"]],
                )
            )
            yield {**post, "comments": rows}

    def export_jsonl(self, out: Path | TextIO, site: str | None = None) -> tuple[int, int]:
        """One JSON object per post, with its comments, to a file (replaced whole at the end) or an
        open text stream; returns (posts, comments) written."""
        n_posts = n_comments = 0
        if not isinstance(out, Path):
            for record in self._post_records(site):
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                n_posts += 1
                n_comments += len(record["comments"])
            out.flush()
            return n_posts, n_comments
        tmp = out.with_name(out.name + ".tmp")
        try:
            with tmp.open("w", encoding="utf-8") as fh:
                for record in self._post_records(site):
                    fh.write(json.dumps(record, ensure_ascii=False) + "\n")
                    n_posts += 1
                    n_comments += len(record["comments"])
            tmp.replace(out)  # readers never see half a file
        finally:
            tmp.unlink(missing_ok=True)  # after a failure: no stray half file
        return n_posts, n_comments
