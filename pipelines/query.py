"""Read-side queries behind `scrapy sites|posts|comments|search|export`; plain SQL over the store.

with open_store("blogs.db") as store: rows = list(posts(store.db, site="gen1", since="2024-05-01"))

Readers never take the crawl lock and never block a running crawl (WAL): opening a current
store writes nothing, and every query is a single read transaction.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import sqlite_utils

from crawler.schedule import from_iso
from pipelines.feedcheck import site_agreement
from pipelines.store import Store

POST_FIELDS = ["url", "site", "title", "text", "published", "fetched_at"]
COMMENT_FIELDS = ["url", "site", "text", "author", "date", "position", "first_seen", "gone_at"]
SITE_FIELDS = [
    "site",
    "articles",
    "pages",
    "posts",
    "comments",
    "batch",
    "profile",
    "profile_age",
    "feed_check",
    "last_error",
]
# Trigram FTS matches terms of 3+ characters; shorter ones (二字熟語 such as 日本) use LIKE.
MIN_FTS_TERM = 3


def open_store(path: str | Path) -> Store:
    """The store at `path`; FileNotFoundError when there is none (a query must not create one)."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"no store at {path}: run `scrapy crawl blogs` first, or give -s BLOGS_DB=PATH")
    return Store(path)


def _age(iso: str | None, now: float) -> str | None:
    t = from_iso(iso)
    if t is None:
        return None
    seconds = max(0.0, now - t)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f}{unit}"
    return f"{seconds:.0f}s"


def _count(db: sqlite_utils.Database, sql: str) -> dict[str, int]:
    return {r[0]: int(r[1]) for r in db.execute(sql).fetchall()}


def sites(db: sqlite_utils.Database, now: float | None = None) -> list[dict[str, Any]]:
    """One summary row per site: counts, batch fill, profile version and age, comment-feed check, last error."""
    now = time.time() if now is None else now
    articles = _count(db, "SELECT site, COUNT(*) FROM articles GROUP BY site")
    pages = _count(db, "SELECT site, COUNT(*) FROM snapshots GROUP BY site")
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
            db.query("SELECT version, learned_at FROM profiles WHERE site = ? ORDER BY version DESC LIMIT 1", [name]),
            None,
        )
        error = next(
            db.query(
                "SELECT t, e FROM (SELECT last_polled_at AS t, last_error AS e FROM feeds WHERE site = :s AND"
                " last_error IS NOT NULL UNION ALL SELECT last_fetched_at, last_error FROM articles WHERE site = :s"
                " AND last_error IS NOT NULL) ORDER BY t DESC LIMIT 1",
                {"s": name},
            ),
            None,
        )
        agreement = site_agreement(db, name)
        out.append(
            {
                "site": name,
                "articles": articles.get(name, 0),
                "pages": pages.get(name, 0),
                "posts": posts_n.get(name, 0),
                "comments": comments_n.get(name, 0),
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


def posts(
    db: sqlite_utils.Database, site: str | None = None, since: str | None = None, limit: int | None = None
) -> Iterator[dict[str, Any]]:
    """Posts, newest publication first; `since` compares with publication (else fetch) time, ISO text."""
    where, params = ["1 = 1"], []
    if site:
        where.append("site = ?")
        params.append(site)
    if since:
        where.append("COALESCE(published, fetched_at) >= ?")
        params.append(since)
    sql = (
        f"SELECT {', '.join(POST_FIELDS)} FROM posts WHERE {' AND '.join(where)}"
        " ORDER BY COALESCE(published, fetched_at) DESC, url"
    )
    if limit:
        sql += f" LIMIT {int(limit)}"
    yield from db.query(sql, params)


def comments(
    db: sqlite_utils.Database, site: str | None = None, article: str | None = None, limit: int | None = None
) -> Iterator[dict[str, Any]]:
    """Comments in page order per article (those gone from the page too, with `gone_at`)."""
    where, params = ["1 = 1"], []
    if site:
        where.append("c.site = ?")
        params.append(site)
    if article:
        where.append("c.article = ?")
        params.append(article)
    sql = (
        "SELECT c.article AS url, c.site, c.text, c.author, c.date, c.position, c.first_seen, c.gone_at"
        f" FROM comments c LEFT JOIN posts p ON p.url = c.article WHERE {' AND '.join(where)}"
        " ORDER BY COALESCE(p.published, p.fetched_at) DESC, c.article, c.gone_at IS NOT NULL, c.position"
    )
    if limit:
        sql += f" LIMIT {int(limit)}"
    yield from db.query(sql, params)


def _like(term: str) -> str:
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def search(db: sqlite_utils.Database, query: str, where: str = "posts", limit: int = 20) -> list[dict[str, Any]]:
    """Posts (or comments) containing every term of `query`, best match first.

    FTS5 with the trigram tokenizer (substring match, any script) when every term has 3+
    characters; otherwise LIKE over the same columns, newest first.
    """
    terms = query.split()
    if not terms:
        return []
    if where == "posts":
        table, cols, fields = "posts", ["title", "text"], "t.url, t.site, t.title, t.published"
        order = "COALESCE(t.published, t.fetched_at) DESC"
    elif where == "comments":
        table, cols, fields = "comments", ["text", "author"], "t.article AS url, t.site, t.author, t.date"
        order = "t.first_seen DESC"
    else:
        raise ValueError(f"search in posts or comments, not {where!r}")
    text_col = len(cols) - 1 if table == "posts" else 0
    if all(len(t) >= MIN_FTS_TERM for t in terms):
        match = " ".join('"' + t.replace('"', '""') + '"' for t in terms)
        sql = (
            f"SELECT {fields}, snippet({table}_fts, {text_col}, '[', ']', '…', 16) AS snippet"
            f" FROM {table}_fts JOIN {table} t ON t.rowid = {table}_fts.rowid WHERE {table}_fts MATCH ?"
            " ORDER BY rank LIMIT ?"
        )
        return list(db.query(sql, [match, limit]))
    text = cols[text_col]
    conds = " AND ".join("(" + " OR ".join(f"t.{c} LIKE ? ESCAPE '\\'" for c in cols) + ")" for _ in terms)
    params: list[Any] = [_like(t) for t in terms for _ in cols]
    sql = f"SELECT {fields}, substr(t.{text}, 1, 160) AS snippet FROM {table} t WHERE {conds} ORDER BY {order} LIMIT ?"
    return list(db.query(sql, [*params, limit]))


def export_jsonl(db: sqlite_utils.Database, out: Path, site: str | None = None) -> tuple[int, int]:
    """One JSON object per post, with its comments; returns (posts, comments) written."""
    n_posts = n_comments = 0
    tmp = out.with_name(out.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for post in posts(db, site=site):
            rows = list(
                db.query(
                    "SELECT fingerprint, text, author, date, date_raw, parent, position, first_seen, last_seen,"
                    " gone_at FROM comments WHERE article = ? ORDER BY gone_at IS NOT NULL, position",
                    [post["url"]],
                )
            )
            fh.write(json.dumps({**post, "comments": rows}, ensure_ascii=False) + "\n")
            n_posts += 1
            n_comments += len(rows)
    tmp.replace(out)  # readers never see half a file
    return n_posts, n_comments
