"""Comments as accumulating records: fingerprints, and the `posts`/`comments` rows derived from extractions.

refresh_article(store.db, "https://example.org/2024/05/a-post/")  # re-derive one article's rows

Every extracted snapshot keeps its own result in `extractions` (post text and comment records,
each with a fingerprint). An article's `posts` row and `comments` rows are a pure function of
its extractions, recomputed whenever one of them is written:

* a comment is identified by the fingerprint of its normalized text, author and date (plus its
  occurrence number, for identical comments on one page), so a re-fetch adds only the comments
  not seen before and never duplicates one;
* `first_seen` / `last_seen` are the fetch times of the first and last snapshot showing it;
  `gone_at` is the first later (successfully extracted) snapshot that no longer shows it: a
  vanished comment is marked, never deleted.

Because the rows are derived, the order in which extractions arrive (a batch finishing after a
re-fetch, a crash and a re-run, a `scrapy reextract`) cannot change the result.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from extractor.records import CommentRecord

# Columns of `comments` that come from the page (the rest are bookkeeping).
_PAGE_FIELDS = ("text", "author", "date", "date_raw", "parent", "position")
_WORD = re.compile(r"[^\W_]+")


def _norm(text: str | None) -> str:
    # Runs of letters and digits after NFKC and casefolding (a cheap cousin of extractor.scoring.tokenize).
    return " ".join(_WORD.findall(unicodedata.normalize("NFKC", text or "").casefold()))


def fingerprint(text: str, author: str | None, date: str | None, occurrence: int = 0) -> str:
    """Stable id of a comment: fingerprint("Nice!", "Ann", "2024-05-01T10:00:00Z") == fingerprint(" nice ", "ann", ...).

    Text and author are compared as sequences of letter/digit runs (case, punctuation and
    spacing do not matter); `date` is the parsed ISO date (a raw date that did not parse is left out, so that
    relative dates such as "2 hours ago" cannot make a comment look new on every fetch).
    """
    key = "\x1f".join([_norm(text), _norm(author), (date or "")[:16], str(occurrence)])
    return hashlib.sha1(key.encode("utf-8"), usedforsecurity=False).hexdigest()[:16]


def comment_dicts(records: Sequence[CommentRecord], texts: Sequence[str] = ()) -> list[dict[str, Any]]:
    """A page's comment records as stored in `extractions.comments`, with fingerprints.

    Without records (a profile without a comment layout) the plain comment texts are used.
    """
    out: list[dict[str, Any]] = []
    seen: dict[tuple[str, str, str], int] = {}
    by_position: dict[int, str] = {}
    items: list[tuple[str, str | None, str | None, str | None, int | None, int]]
    if records:
        items = [(r.text, r.author, r.date, r.date_raw, r.parent, r.position) for r in records]
    else:
        items = [(t, None, None, None, None, i) for i, t in enumerate(texts)]
    for text, author, date, date_raw, parent, position in items:
        if not _WORD.search(text or ""):
            continue
        key = (_norm(text), _norm(author), (date or "")[:16])
        occurrence = seen.get(key, 0)
        seen[key] = occurrence + 1
        fp = fingerprint(text, author, date, occurrence)
        by_position[position] = fp
        out.append(
            {
                "fingerprint": fp,
                "text": text,
                "author": author,
                "date": date,
                "date_raw": date_raw,
                "parent": parent,  # a position for now, a fingerprint below
                "position": position,
            }
        )
    for number, item in enumerate(out):
        item["parent"] = by_position.get(item["parent"]) if item["parent"] is not None else None
        item["position"] = number
    return out


@dataclass(slots=True)
class Observation:
    """One extracted snapshot of an article: when it was fetched and the comments it showed."""

    snapshot: int
    fetched_at: str
    ok: bool  # False: extraction failed, the page says nothing about its comments
    comments: list[dict[str, Any]]


def merge(article: str, site: str, observations: Sequence[Observation]) -> dict[str, dict[str, Any]]:
    """The `comments` rows of one article from all its observations (any order), keyed by fingerprint."""
    ordered = sorted(observations, key=lambda o: (o.fetched_at, o.snapshot))
    rows: dict[str, dict[str, Any]] = {}
    for obs in ordered:
        if not obs.ok:
            continue
        for item in obs.comments:
            row = rows.get(item["fingerprint"])
            if row is None:
                row = rows[item["fingerprint"]] = {
                    "article": article,
                    "fingerprint": item["fingerprint"],
                    "site": site,
                    "first_seen": obs.fetched_at,
                    "first_snapshot": obs.snapshot,
                }
            row.update({k: item.get(k) for k in _PAGE_FIELDS})  # the latest page wins
            row["last_seen"] = obs.fetched_at
            row["last_snapshot"] = obs.snapshot
    for row in rows.values():
        later = [o for o in ordered if o.ok and (o.fetched_at, o.snapshot) > (row["last_seen"], row["last_snapshot"])]
        row["gone_at"] = later[0].fetched_at if later else None
    return rows


def upsert(db: sqlite_utils.Database, table: str, rows: Sequence[dict[str, Any]], pk: tuple[str, ...]) -> None:
    """INSERT … ON CONFLICT(pk) DO UPDATE for rows with the same keys: what `upsert_all(pk=...)` does,
    without the table introspection sqlite-utils runs on every call (≈40 statements a page here)."""
    if not rows:
        return
    cols = list(rows[0])
    sets = ", ".join(f"[{c}] = excluded.[{c}]" for c in cols if c not in pk)
    sql = (
        f"INSERT INTO [{table}] ({', '.join(f'[{c}]' for c in cols)}) VALUES ({', '.join('?' for _ in cols)})"
        f" ON CONFLICT({', '.join(pk)}) DO UPDATE SET {sets}"
    )
    db.conn.executemany(sql, [[row[c] for c in cols] for row in rows])


def refresh_article(db: sqlite_utils.Database, article: str) -> None:
    """Re-derive the article's `posts` row and `comments` rows from its extractions (call inside a transaction)."""
    found = list(
        db.query(
            "SELECT e.snapshot, e.site, e.method, e.profile_version, e.post, e.comments, e.comment_count, e.error,"
            " s.fetched_at FROM extractions e JOIN snapshots s ON s.id = e.snapshot WHERE e.article = ?"
            " ORDER BY s.fetched_at, e.snapshot",
            [article],
        )
    )
    ok = [r for r in found if r["error"] is None]
    if not ok:
        db.execute("DELETE FROM posts WHERE url = ?", [article])
    else:
        latest = ok[-1]
        meta = next(db.query("SELECT title, author, published FROM articles WHERE url = ?", [article]), {})
        post = {
            "url": article,
            "site": latest["site"],
            "title": meta.get("title"),
            "author": meta.get("author"),
            "published": meta.get("published"),
            "text": latest["post"],
            "fetched_at": latest["fetched_at"],
            "snapshot": latest["snapshot"],
            "method": latest["method"],
            "profile_version": latest["profile_version"],
            "comments": latest["comment_count"],
        }
        old = next(db.query("SELECT * FROM posts WHERE url = ?", [article]), None)
        if old != post:
            upsert(db, "posts", [post], ("url",))
    site = found[0]["site"] if found else ""
    observations = [
        Observation(r["snapshot"], r["fetched_at"], r["error"] is None, json.loads(r["comments"] or "[]"))
        for r in found
    ]
    wanted = merge(article, site, observations)
    existing = {r["fingerprint"]: r for r in db.query("SELECT * FROM comments WHERE article = ?", [article])}
    changed = [row for fp, row in wanted.items() if existing.get(fp) != row]
    if changed:
        upsert(db, "comments", changed, ("article", "fingerprint"))
    stale = [fp for fp in existing if fp not in wanted]  # an older extraction's artefact, not a vanished comment
    for fp in stale:
        db.execute("DELETE FROM comments WHERE article = ? AND fingerprint = ?", [article, fp])
