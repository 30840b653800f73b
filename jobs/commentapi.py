"""Threads read from a comment system's endpoint: parse a stored read into comment records.

comments = isso_comments(responses)   # [{"fingerprint", "text", "author", "date", "parent", ...}]

The spider reads the thread (crawler.commentapi) and PersistPagePipeline commits the read raw
(store.commentsystems.save_api_read); then `process_api_read` parses it here into the same
comment records an HTML extraction gives, and re-derives the article's comments
(store.comments.refresh_article): new comments, edits as versions, the `gone_at` rule.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from extractor.comments.commentfeed import html_text
from extractor.comments.records import CommentRecord
from extractor.separation.rendered import rendered_comments
from jobs.commentparsers import (
    commento_comments,
    cusdis_comments,
    disqus_comments,
    giscus_comments,
    isso_feed_comments,
    remark42_comments,
    thread_records,
    utterances_comments,
)
from store import StoreBackend
from store.clock import to_iso
from store.comments import comment_dicts

ISSO_DELETED = 4  # Isso keeps a deleted comment that has replies, emptied, with this mode


def _isso_items(responses: Sequence[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Every comment the responses list, by id (a comment listed twice, the later answer's)."""
    found: dict[int, dict[str, Any]] = {}
    for response in responses:
        try:
            data = json.loads(response.get("body") or "")
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        for comment in data.get("replies") or []:
            nested = comment.get("replies") or []
            found[int(comment["id"])] = comment
            for reply in nested:
                found[int(reply["id"])] = reply
    return found


def isso_comments(responses: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The comment records (store.comments.comment_dicts) of an Isso thread read, in thread order:
    each top-level comment by time, then its replies by time; a deleted comment is left out.
    A read whose JSON API failed has the thread's Atom feed instead (crawler.connectors)."""
    feeds = [str(r.get("body") or "") for r in responses if str(r.get("body") or "").lstrip().startswith("<")]
    if feeds:
        return thread_records([c for body in feeds for c in isso_feed_comments(body)])
    items = _isso_items(responses)
    children: dict[int | None, list[dict[str, Any]]] = {}
    for comment in items.values():
        parent = comment.get("parent")
        children.setdefault(parent if parent in items else None, []).append(comment)
    records: list[CommentRecord] = []

    def visit(comment: dict[str, Any], parent_position: int | None) -> None:
        position = len(records)
        if comment.get("mode") != ISSO_DELETED:
            created = comment.get("created")
            date = to_iso(float(created)) if created is not None else None
            text = html_text(str(comment.get("text") or ""))
            author = comment.get("author") or None
            records.append(CommentRecord(text, author, date, str(created), parent_position, position, "", "second"))
        own = position if comment.get("mode") != ISSO_DELETED else parent_position
        for child in sorted(children.get(int(comment["id"]), []), key=lambda c: (c.get("created") or 0, c["id"])):
            visit(child, own)

    for top in sorted(children.get(None, []), key=lambda c: (c.get("created") or 0, c["id"])):
        visit(top, None)
    return comment_dicts(records)


def rendered_records(responses: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The comment records of a rendered page (pipelines.render): the comments in its thread's container."""
    if not responses or not responses[-1].get("body"):
        return []
    last = responses[-1]
    return comment_dicts(rendered_comments(str(last["body"]).encode("utf-8"), last.get("url"), str(last["container"])))


PARSERS = {
    "isso": isso_comments,
    "remark42": remark42_comments,
    "cusdis": cusdis_comments,
    "disqus": disqus_comments,
    "utterances": utterances_comments,
    "commento": commento_comments,
    "giscus": giscus_comments,
    "rendered": rendered_records,
}


def process_api_read(store: StoreBackend, read_id: int, now: float) -> int | None:
    """Parse a stored read into comment records, mark it processed and re-derive its article's
    comments (call inside a transaction). Returns how many comments it lists (None: no such read)."""
    row = store.api_read_responses(read_id)
    if row is None:
        return None
    store.lock_sites([row["site"]])  # the article's comments are re-derived: one writer of its site at a time
    parse = PARSERS.get(row["system"])
    comments = parse(row["responses"]) if parse is not None else []
    store.mark_api_read_processed(read_id, comments, now)
    store.refresh_article(row["article"])
    return len(comments)


def process_left_reads(store: StoreBackend, now: float) -> int:
    """Parse the reads a killed run stored but did not parse (each in its own transaction); returns how many."""
    left = store.unprocessed_api_reads()
    for read_id in left:
        with store.transaction():
            process_api_read(store, read_id, now)
    return len(left)
