"""Comments a script loads: reads of a comment system's endpoint, and each article's comment state.

read_id = store.save_api_read(read)   # raw responses first, in their own transaction

An article's `comment_system` is what the extractor detected in its latest extracted page
(extractor.comments.commentsystems); its `comments_state` says whether its comments were read:

* `harvested`: comments were read (from the HTML, or from the comment system's endpoint);
* `none`: they were read and there are none;
* `not-harvested: <reason>`: they live somewhere this run could not read (no connector for the
  system, the endpoint failed, not read yet), so the page never looks like a page without comments.

For a page whose comments load by script, comments the HTML extraction found are not kept (the
served markup holds none: whatever it found is not a reader's comment); the article's comments
come from its endpoint reads (`comment_api_reads`), each read one observation of the thread.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from extractor.comments.commentsystems import HTML, IN_HTML, UNKNOWN
from store.clock import to_iso
from store.crawlstate import StoreBase
from store.sql import Database

HARVESTED = "harvested"
NONE = "none"
NOT_HARVESTED = "not-harvested"
# Systems with an endpoint reader (crawler.connectors; Disqus's needs BLOGS_DISQUS_API_KEY).
CONNECTORS = frozenset({"isso", "remark42", "cusdis", "commento", "disqus", "giscus", "utterances"})


def loads_by_script(system: str | None) -> bool:
    """Whether comments of a page with this detected system are not in its HTML (None: detected before it was)."""
    return system is not None and system not in IN_HTML


@dataclass(slots=True)
class ApiRead:
    """One read of a thread from a comment system's endpoint, pagination followed: every response raw."""

    article: str
    site: str
    system: str
    url: str
    fetched_at: float
    responses: list[dict[str, Any]]  # {url, status, body (text)}
    complete: bool
    error: str | None = None


@dataclass(slots=True)
class ThreadRead:
    """A processed endpoint read as refresh_article replays it."""

    system: str
    fetched_at: str
    snapshot: int  # the article's page read last before it
    complete: bool
    error: str | None
    comments: list[dict[str, Any]]


def thread_reads(db: Database, article: str, pages: Sequence[tuple[str, int]]) -> list[ThreadRead]:
    """The article's processed endpoint reads, oldest first; `pages`: (fetched_at, snapshot) of its pages."""
    out = []
    rows = db.query(
        "SELECT system, fetched_at, complete, error, comments FROM comment_api_reads"
        " WHERE article = ? AND processed_at IS NOT NULL ORDER BY fetched_at, id",
        [article],
    )
    for row in rows:
        before = [snap for at, snap in pages if at <= row["fetched_at"]]
        snapshot = before[-1] if before else (pages[0][1] if pages else 0)
        source = "rendered" if row["system"] == "rendered" else f"api:{row['system']}"
        comments = [{**c, "source": source} for c in json.loads(row["comments"] or "[]")]
        out.append(
            ThreadRead(row["system"], row["fetched_at"], snapshot, bool(row["complete"]), row["error"], comments)
        )
    return out


def comments_state(system: str | None, extracted: int | None, reads: Sequence[ThreadRead]) -> str:
    """An article's comments_state from its latest page's detected system, the comments its latest
    extraction found (None: not extracted, or failed) and its endpoint reads (these decide when there are any)."""
    if reads:
        latest = reads[-1]
        if not latest.complete and not latest.comments:
            return f"{NOT_HARVESTED}: {latest.error or latest.system + ' endpoint read failed'}"
        return HARVESTED if latest.comments else NONE
    if not loads_by_script(system):
        if extracted is None:
            return f"{NOT_HARVESTED}: page not extracted"
        return HARVESTED if extracted else NONE
    if system not in CONNECTORS:
        return f"{NOT_HARVESTED}: no connector for {system}"
    return f"{NOT_HARVESTED}: {system} endpoint not read yet"


def article_system(latest_extracted_system: str | None, reads: Sequence[ThreadRead]) -> str:
    """The article's comment_system: its latest extracted page's, else the system its endpoint reads
    came from (a page not extracted yet), else html (pages extracted before detection existed)."""
    if latest_extracted_system and (loads_by_script(latest_extracted_system) or not reads):
        return latest_extracted_system
    systems = [r.system for r in reads if r.system != "rendered"]
    return systems[-1] if systems else UNKNOWN if reads else HTML


@dataclass(slots=True)
class SiteCommentStates:
    """A site's articles by comment system and by comments state, as `scrapy sites` shows them."""

    systems: str | None  # "html 10, isso 2"
    states: str | None  # "harvested 9, none 1, not-harvested 2"


class CommentSystemBook(StoreBase):
    """Threads read from comment systems' endpoints (`comment_api_reads`) and the comment states they give."""

    def save_api_read(self, read: ApiRead) -> int:
        """Commit a read's raw responses in its own transaction (or the caller's); returns its id.

        Idempotent: the same (article, fetched_at) is stored once.
        """
        with self.transaction() as db:
            stamp = to_iso(read.fetched_at)
            body = gzip.compress(json.dumps(read.responses, ensure_ascii=False).encode("utf-8"), mtime=0)
            db.execute(
                "INSERT INTO comment_api_reads (article, site, system, url, fetched_at, requests, complete, error,"
                " body) VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                [
                    read.article,
                    read.site,
                    read.system,
                    read.url,
                    stamp,
                    len(read.responses),
                    int(read.complete),
                    read.error,
                    body,
                ],
            )
            row = db.execute(
                "SELECT id FROM comment_api_reads WHERE article = ? AND fetched_at = ?", [read.article, stamp]
            )
            return int(row.fetchone()[0])

    def api_read_responses(self, read_id: int) -> dict[str, Any] | None:
        """A stored read with its responses decoded (None: no such read)."""
        db = self.db
        row = next(db.query("SELECT * FROM comment_api_reads WHERE id = ?", [read_id]), None)
        if row is None:
            return None
        row["responses"] = json.loads(gzip.decompress(row.pop("body")).decode("utf-8")) if row["body"] else []
        return row

    def unprocessed_api_reads(self) -> list[int]:
        """Reads stored but not parsed yet (a run killed in between), oldest first."""
        db = self.db
        return [
            int(r[0]) for r in db.execute("SELECT id FROM comment_api_reads WHERE processed_at IS NULL ORDER BY id")
        ]

    def mark_api_read_processed(self, read_id: int, comments: Sequence[dict[str, Any]], now: float) -> None:
        """Store the comment records parsed from a read (call inside a transaction)."""
        db = self.db
        db.execute(
            "UPDATE comment_api_reads SET comments = ?, processed_at = ? WHERE id = ?",
            [json.dumps(list(comments), ensure_ascii=False), to_iso(now), read_id],
        )

    def comment_states(self, site: str) -> SiteCommentStates:
        """How many of the site's articles have each comment system and each state (reasons folded)."""
        db = self.db
        systems: dict[str, int] = {}
        states: dict[str, int] = {}
        rows = db.execute(
            "SELECT comment_system, comments_state, COUNT(*) FROM articles"
            " WHERE site = ? AND comments_state IS NOT NULL GROUP BY comment_system, comments_state",
            [site],
        )
        for system, state, count in rows.fetchall():
            systems[system or HTML] = systems.get(system or HTML, 0) + int(count)
            kind = str(state).split(":", 1)[0]
            states[kind] = states.get(kind, 0) + int(count)

        def shown(counts: dict[str, int]) -> str | None:
            return ", ".join(f"{k} {n}" for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))) or None

        return SiteCommentStates(shown(systems), shown(states))

    def comments_not_read_since(self, since: str) -> int:
        """Articles fetched at or after the ISO time `since` whose comments load by script and could not be read."""
        db = self.db
        in_html = sorted(IN_HTML)
        row = db.execute(
            "SELECT COUNT(*) FROM articles WHERE last_fetched_at >= ? AND comments_state LIKE ?"
            f" AND comment_system NOT IN ({', '.join('?' for _ in in_html)})",
            [since, NOT_HARVESTED + "%", *in_html],
        ).fetchone()
        return int(row[0] or 0) if row else 0
