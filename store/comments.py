"""Comments as accumulating records: fingerprints, and the `posts`/`comments` rows derived from extractions.

refresh_article(store.db, "https://example.org/2024/05/a-post/")  # re-derive one article's rows

Every extracted snapshot keeps its own result in `extractions` (post text and comment records,
each with a fingerprint). An article's `posts` row and `comments` rows are a pure function of
its extractions, recomputed whenever one of them is written:

* a comment is identified by the fingerprint of its normalized text, author and date (plus its
  occurrence number, for identical comments on one page), so a re-fetch adds only the comments
  not seen before and never duplicates one; a row keeps the fingerprint it was first seen with, so
  a later extraction that finds the author or date an earlier one missed (provisional, then batch,
  then profile) updates the row rather than adding one, and an author once found stays;
* a comment whose text changed (same author and date, similar text or same place) is an edit:
  its row keeps its fingerprint and takes the new text, the earlier text goes to
  `comment_versions`;
* `first_seen` / `last_seen` are the fetch times of the first and last snapshot showing it;
  `gone_at` is the first later snapshot that no longer shows it and whose extraction can say so
  (it found comments with a template match that is not poor, or found none while the comment
  feed read with it listed none): a vanished comment is marked, never deleted.

Because the rows are derived, the order in which extractions arrive (a batch finishing after a
re-fetch, a crash and a re-run, a `scrapy reextract`) cannot change the result.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from extractor.comments.records import CommentRecord
from store.commentsystems import ThreadRead, article_system, comments_state, loads_by_script, thread_reads
from store.sql import Database

# Columns of `comments` that come from the page (the rest are bookkeeping).
_PAGE_FIELDS = ("text", "author", "date", "date_precision", "date_raw", "parent", "position", "source")
# What identifies a comment's writer: a later extraction that does not find them keeps what an earlier one found.
_IDENTITY_FIELDS = (("author",), ("date", "date_precision", "date_raw"))
_WORD = re.compile(r"[^\W_]+")
# A profile extraction matching less of its profile than this (the default drift threshold) may
# have misread the page: comments it misses are not marked gone.
POOR_MATCH = 0.5
EDIT_SIMILARITY = 0.6  # normalized texts at least this similar (difflib ratio) may be one comment edited
MIN_CONTAINED = 4  # a text contained in the other counts as the same comment from this many characters
MAX_SHIFT = 3  # an edited comment without author and date moved at most this many places
SAME_TEXT = 0.9  # a comment found once with and once without its author: texts at least this similar


@functools.lru_cache(maxsize=8192)  # edit matching compares every new comment with every earlier one
def _norm(text: str | None) -> str:
    # Runs of letters and digits after NFKC and casefolding (a cheap cousin of extractor.core.tokens.tokenize).
    return " ".join(_WORD.findall(unicodedata.normalize("NFKC", text or "").casefold()))


def fingerprint(text: str, author: str | None, date: str | None, occurrence: int = 0) -> str:
    """Stable id of a comment: fingerprint("Nice!", "Ann", "2024-05-01T10:00:00Z") == fingerprint(" nice ", "ann", ...).

    Text and author are compared as sequences of letter/digit runs (case, punctuation and
    spacing do not matter); `date` is the parsed ISO date (a raw date that did not parse is left out, so that
    relative dates such as "2 hours ago" cannot make a comment look new on every fetch).
    """
    key = "\x1f".join([_norm(text), _norm(author), _date_key(date), str(occurrence)])
    return hashlib.sha1(key.encode("utf-8"), usedforsecurity=False).hexdigest()[:16]


def _date_key(date: str | None) -> str:
    """The date as fingerprints have always keyed it, to the minute: a day-only date ("2024-05-01",
    read so since dates carry a precision) keys as its midnight, as it was stored before, so stores
    written earlier keep their fingerprints."""
    if not date:
        return ""
    return date[:16] if "T" in date else date[:10] + "T00:00"


def comment_dicts(records: Sequence[CommentRecord], texts: Sequence[str] = ()) -> list[dict[str, Any]]:
    """A page's comment records as stored in `extractions.comments`, with fingerprints.

    Without records (a profile without a comment layout) the plain comment texts are used.
    """
    out: list[dict[str, Any]] = []
    seen: dict[tuple[str, str, str], int] = {}
    by_position: dict[int, str] = {}
    items: list[tuple[str, str | None, str | None, str | None, str | None, int | None, int]]
    if records:
        items = [(r.text, r.author, r.date, r.date_precision, r.date_raw, r.parent, r.position) for r in records]
    else:
        items = [(t, None, None, None, None, None, i) for i, t in enumerate(texts)]
    for text, author, date, precision, date_raw, parent, position in items:
        if not _WORD.search(text or ""):
            continue
        key = (_norm(text), _norm(author), _date_key(date))
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
                "date_precision": precision,
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
    """One extracted snapshot of an article: when it was fetched and the comments it showed.

    `confident`: whether a comment missing here may be marked gone. None: derived (an extraction
    that found comments, with a template match that is not poor); an extraction that found none
    says nothing about comments seen before, unless the caller knows better (the comment feed
    read with the page listed none).
    """

    snapshot: int
    fetched_at: str
    ok: bool  # False: extraction failed, the page says nothing about its comments
    comments: list[dict[str, Any]]
    confident: bool | None = None
    template_match: float | None = None

    def can_mark_gone(self) -> bool:
        if not self.ok:
            return False
        if self.confident is not None:
            return self.confident
        poor = self.template_match is not None and self.template_match < POOR_MATCH
        return bool(self.comments) and not poor


@dataclass
class Derived:
    """An article's `comments` rows (by fingerprint) and `comment_versions` rows (earlier texts)."""

    rows: dict[str, dict[str, Any]]
    versions: list[dict[str, Any]]


def _similarity(a: str, b: str) -> float:
    """Text similarity of two normalized texts, 0..1; a text contained in the other counts as 1
    (an extraction that glued a reply to its parent, or cut one short, is the same comment)."""
    if not a or not b:
        return 0.0
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) >= MIN_CONTAINED and short in long:
        return 1.0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < EDIT_SIMILARITY or matcher.quick_ratio() < EDIT_SIMILARITY:
        return 0.0
    return matcher.ratio()


def _edit_score(item: dict[str, Any], row: dict[str, Any]) -> float | None:
    """How well a new comment matches an earlier row as an edit of it (None: not an edit).

    Author and date must agree (a comment's author and time do not change when its text is
    edited); then the texts must be similar, or, for a comment with both an author and a date,
    at the same place on the page. An author or date one side lacks is no disagreement when the
    texts are the same: one extraction found it and the other did not.
    """
    new_author, old_author = _norm(item.get("author")), _norm(row.get("author"))
    if new_author and old_author and new_author != old_author:
        return None
    new_date, old_date = (item.get("date") or "")[:16], (row.get("date") or "")[:16]
    if new_date and old_date and new_date != old_date:
        return None
    similarity = _similarity(_norm(item.get("text")), _norm(row.get("text")))
    distance = abs(int(item.get("position") or 0) - int(row.get("position") or 0))
    if (new_author != old_author or new_date != old_date) and similarity >= SAME_TEXT:
        # One extraction found the author (or date), another did not (a provisional set, a profile
        # without a comment layout): the same comment when the texts agree, wherever the records
        # around it (an author line or a heading taken for a comment) moved it.
        return similarity - distance / 1000
    if new_author != old_author:
        return None
    identified = bool(item.get("author")) and bool(new_date) and new_date == old_date
    if similarity >= EDIT_SIMILARITY and (identified or distance <= MAX_SHIFT):
        return similarity - distance / 1000
    if identified and distance == 0:
        return 0.5 * similarity - 0.5
    return None


def derive(article: str, site: str, observations: Sequence[Observation]) -> Derived:
    """The `comments` and `comment_versions` rows of one article from all its observations (any order).

    Observations are replayed in fetch order. A comment is matched to an earlier row by its
    fingerprint, else (an edit) by author, date, position and text similarity; an edit keeps
    the row (its fingerprint is the first text's) and moves the earlier text to `versions`.
    """
    ordered = sorted(observations, key=lambda o: (o.fetched_at, o.snapshot))
    rows: dict[str, dict[str, Any]] = {}
    since: dict[str, tuple[str, int]] = {}  # row -> (fetch time, snapshot) its current text was first seen
    versions: list[dict[str, Any]] = []
    for obs in ordered:
        if not obs.ok:
            continue
        claimed: dict[int, str] = {}  # index in obs.comments -> row fingerprint
        taken: set[str] = set()
        for i, item in enumerate(obs.comments):
            if item["fingerprint"] in rows and item["fingerprint"] not in taken:
                claimed[i] = item["fingerprint"]
                taken.add(item["fingerprint"])
        free = [fp for fp in rows if fp not in taken]
        pairs: list[tuple[float, int, str]] = []
        for i, item in enumerate(obs.comments):
            if i in claimed:
                continue
            for fp in free:
                score = _edit_score(item, rows[fp])
                if score is not None:
                    pairs.append((-score, i, fp))
        for _neg, i, fp in sorted(pairs):
            if i not in claimed and fp not in taken:
                claimed[i] = fp
                taken.add(fp)
        to_row = {item["fingerprint"]: claimed.get(i, item["fingerprint"]) for i, item in enumerate(obs.comments)}
        for i, item in enumerate(obs.comments):
            key = claimed.get(i, item["fingerprint"])
            row = rows.get(key)
            before = dict(row) if row is not None else {}
            if row is None:
                row = rows[key] = {
                    "article": article,
                    "fingerprint": key,
                    "site": site,
                    "first_seen": obs.fetched_at,
                    "first_snapshot": obs.snapshot,
                }
                since[key] = (obs.fetched_at, obs.snapshot)
            elif _norm(row["text"]) != _norm(item.get("text")):
                versions.append(
                    {
                        "article": article,
                        "fingerprint": key,
                        "seen_from": since[key][0],
                        "site": site,
                        "text": row["text"],
                        "seen_until": row["last_seen"],
                        "first_snapshot": since[key][1],
                        "last_snapshot": row["last_snapshot"],
                    }
                )
                since[key] = (obs.fetched_at, obs.snapshot)
            row.update({k: item.get(k) for k in _PAGE_FIELDS})  # the latest page wins
            for fields in _IDENTITY_FIELDS:  # ... but an author or date an earlier extraction found stays
                if not item.get(fields[0]) and before.get(fields[0]):
                    row.update({k: before[k] for k in fields})
            row["parent"] = to_row.get(item.get("parent"), item.get("parent")) if item.get("parent") else None
            row["last_seen"] = obs.fetched_at
            row["last_snapshot"] = obs.snapshot
            row["gone_at"] = None
        if obs.can_mark_gone():
            for fp, row in rows.items():
                if fp not in taken and row["gone_at"] is None and row["last_seen"] < obs.fetched_at:
                    row["gone_at"] = obs.fetched_at
    return Derived(rows, versions)


def merge(article: str, site: str, observations: Sequence[Observation]) -> dict[str, dict[str, Any]]:
    """The `comments` rows of one article from all its observations (any order), keyed by fingerprint."""
    return derive(article, site, observations).rows


def upsert(db: Database, table: str, rows: Sequence[dict[str, Any]], pk: tuple[str, ...]) -> None:
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
    db.executemany(sql, [[row[c] for c in cols] for row in rows])


@dataclass
class ArticleWrites:
    """The writes that make an article's derived rows what its extractions and reads give: nothing
    (falsy) when they already are."""

    article: str
    state: tuple[str | None, str] | None = None  # articles.(comment_system, comments_state), when changed
    post: dict[str, Any] | None = None  # the posts row to upsert, when changed
    drop_post: bool = False  # no extraction without an error: no post
    comments: RowChanges | None = None
    versions: RowChanges | None = None

    def __bool__(self) -> bool:
        return bool(self.state or self.post or self.drop_post or self.comments or self.versions)


@dataclass
class RowChanges:
    """An article's rows of one table to upsert and the keys of those to delete."""

    table: str
    pk: tuple[str, ...]
    changed: list[dict[str, Any]]
    gone: list[Any]

    def __bool__(self) -> bool:
        return bool(self.changed or self.gone)


def refresh_article(db: Database, article: str) -> None:
    """Re-derive the article's `posts` row and `comments` rows from its extractions (call inside a transaction)."""
    apply_writes(db, article_writes(db, article))


def article_writes(db: Database, article: str) -> ArticleWrites:
    """What re-deriving the article would write, read from the store as it is (nothing is written)."""
    writes = ArticleWrites(article)
    found = list(
        db.query(
            "SELECT e.snapshot, e.site, e.method, e.decided_by, e.confidence, e.profile_version, e.post, e.comments,"
            " e.comment_count, e.error, e.template_match, e.comment_system, e.post_author, e.published, s.fetched_at"
            " FROM extractions e JOIN snapshots s ON s.id = e.snapshot WHERE e.article = ?"
            " ORDER BY s.fetched_at, e.snapshot",
            [article],
        )
    )
    ok = [r for r in found if r["error"] is None]
    pages = list(db.query("SELECT fetched_at, id FROM snapshots WHERE article = ? ORDER BY fetched_at, id", [article]))
    reads = thread_reads(db, article, [(p["fetched_at"], p["id"]) for p in pages])
    system = article_system(ok[-1]["comment_system"] if ok else None, reads)
    # The thread as the comment system serves it: the page's HTML holds none of it.
    by_script = bool(reads) or any(loads_by_script(r["comment_system"]) for r in ok)
    state = comments_state(system, ok[-1]["comment_count"] if ok else None, reads)
    known = db.execute("SELECT comment_system, comments_state FROM articles WHERE url = ?", [article]).fetchone()
    if known is not None and tuple(known) != (system, state):
        writes.state = (system, state)
    if not ok:
        writes.drop_post = db.execute("SELECT 1 FROM posts WHERE url = ?", [article]).fetchone() is not None
    else:
        latest = ok[-1]
        meta = next(db.query("SELECT title, author, published FROM articles WHERE url = ?", [article]), {})
        post = {
            "url": article,
            "site": latest["site"],
            "title": meta.get("title"),
            # the feed entry's, else the page's byline (an archive's page has no feed entry)
            "author": meta.get("author") or latest["post_author"],
            "published": meta.get("published") or latest["published"],
            "text": latest["post"],
            "fetched_at": latest["fetched_at"],
            "snapshot": latest["snapshot"],
            "method": latest["method"],
            "decided_by": latest["decided_by"],
            "confidence": latest["confidence"],
            "profile_version": latest["profile_version"],
            "comments": _shown_count(reads) if by_script else latest["comment_count"],
            "comment_system": system,
            "comments_state": state,
        }
        old = next(db.query("SELECT * FROM posts WHERE url = ?", [article]), None)
        if old != post:
            writes.post = post
    site = found[0]["site"] if found else ""
    if not site:
        site_row = db.execute("SELECT site FROM articles WHERE url = ?", [article]).fetchone()
        site = site_row[0] if site_row else ""
    empty_feeds = _empty_comment_feeds(db, article)
    observations = []
    if by_script:
        found = []  # comments found in the HTML of a page whose comments load by script are not readers' comments
        for read in reads:
            # A complete read is the whole thread: a comment it no longer lists is gone.
            ok_read = read.complete or bool(read.comments)
            observations.append(Observation(read.snapshot, read.fetched_at, ok_read, read.comments, read.complete))
    previous = ""
    for r in found:
        comments = [{**c, "source": "html"} for c in json.loads(r["comments"] or "[]")]
        confident = None
        if r["error"] is None and not comments:
            # No comments found: gone only if the comment feed read since the previous fetch listed none.
            confident = any(previous < t <= r["fetched_at"] for t in empty_feeds)
        observations.append(
            Observation(r["snapshot"], r["fetched_at"], r["error"] is None, comments, confident, r["template_match"])
        )
        previous = r["fetched_at"]
    derived = derive(article, site, observations)
    writes.comments = row_changes(db, "comments", article, derived.rows, ("article", "fingerprint"))
    versions = {(v["fingerprint"], v["seen_from"]): v for v in derived.versions}
    writes.versions = row_changes(db, "comment_versions", article, versions, ("article", "fingerprint", "seen_from"))
    return writes


def apply_writes(db: Database, writes: ArticleWrites) -> None:
    """Write `writes` (call inside a transaction)."""
    article = writes.article
    if writes.state is not None:
        db.execute("UPDATE articles SET comment_system = ?, comments_state = ? WHERE url = ?", [*writes.state, article])
    if writes.drop_post:
        db.execute("DELETE FROM posts WHERE url = ?", [article])
    if writes.post is not None:
        upsert(db, "posts", [writes.post], ("url",))
    for changes in (writes.comments, writes.versions):
        if changes:
            upsert(db, changes.table, changes.changed, changes.pk)
            where = " AND ".join(f"[{k}] = ?" for k in changes.pk)
            for key in changes.gone:
                values = list(key) if isinstance(key, tuple) else [key]
                db.execute(f"DELETE FROM [{changes.table}] WHERE {where}", [article, *values])


def _shown_count(reads: Sequence[ThreadRead]) -> int | None:
    """posts.comments of a page whose comments load by script: the latest read's (None: never read)."""
    readable = [r for r in reads if r.complete or r.comments]
    return len(readable[-1].comments) if readable else None


def _empty_comment_feeds(db: Database, article: str) -> list[str]:
    """Fetch times of the article's comment feeds that were read and listed no entry."""
    rows = db.query("SELECT fetched_at FROM comment_feed_fetches WHERE article = ? AND entries = 0", [article])
    return [r["fetched_at"] for r in rows]


def row_changes(
    db: Database, table: str, article: str, wanted: dict[Any, dict[str, Any]], pk: tuple[str, ...]
) -> RowChanges:
    """What makes the article's rows of `table` equal `wanted` (keyed by the pk without `article`):
    changed rows to upsert, rows no extraction gives any more to delete (an older extraction's artefact)."""
    keys = pk[1:]
    existing = {
        tuple(r[k] for k in keys) if len(keys) > 1 else r[keys[0]]: r
        for r in db.query(f"SELECT * FROM [{table}] WHERE article = ?", [article])
    }
    changed = [row for key, row in wanted.items() if existing.get(key) != row]
    return RowChanges(table, pk, changed, [key for key in existing if key not in wanted])
