"""Comment records from the stored answers of Remark42, Cusdis, Commento, Disqus, utterances reads, Isso's feed.

records = remark42_comments(responses)   # store.comments.comment_dicts: fingerprint, text, author, date, parent

Each parser reads a family's JSON (the shapes its public read API documents) into `ApiComment`s,
and `thread_records` puts them in thread order (each comment, then its replies, by time) with
each reply's parent; a deleted comment is left out and its replies hang under its own parent.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from lxml import etree

from extractor.comments.commentfeed import html_text
from extractor.comments.records import CommentRecord
from store.clock import to_iso
from store.comments import comment_dicts


@dataclass(frozen=True, slots=True)
class ApiComment:
    """One comment as a comment system's API lists it."""

    id: str
    parent: str | None
    author: str | None
    html: str  # the comment's text as the API gives it (HTML or plain text)
    created: str | None  # the API's own date string
    deleted: bool = False


def api_timestamp(value: str | None) -> float | None:
    """Seconds since the epoch of an API's ISO 8601 date (RFC 3339 with nanoseconds, `Z`, or no zone: UTC)."""
    if not value:
        return None
    text = re.sub(r"(\.\d{6})\d+", r"\1", value.strip()).replace("Z", "+00:00")
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).timestamp()


def thread_records(comments: Sequence[ApiComment]) -> list[dict[str, Any]]:
    """The comments as stored records, in thread order (a comment listed twice: the later answer's)."""
    by_id = {c.id: c for c in comments}
    children: dict[str | None, list[ApiComment]] = {}
    for comment in by_id.values():
        children.setdefault(comment.parent if comment.parent in by_id else None, []).append(comment)
    records: list[CommentRecord] = []

    def when(comment: ApiComment) -> tuple[float, str]:
        return (api_timestamp(comment.created) or 0.0, comment.id)

    def visit(comment: ApiComment, parent_position: int | None) -> None:
        own = parent_position
        if not comment.deleted:
            own = len(records)
            stamp = api_timestamp(comment.created)
            date = to_iso(stamp) if stamp is not None else None
            text = html_text(comment.html)
            precision = "second" if date else None
            records.append(
                CommentRecord(text, comment.author, date, comment.created, parent_position, own, "", precision)
            )
        for child in sorted(children.get(comment.id, []), key=when):
            visit(child, own)

    for top in sorted(children.get(None, []), key=when):
        visit(top, None)
    return comment_dicts(records)


def _answers(responses: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The JSON objects the stored responses hold (an answer that is not one is skipped)."""
    for response in responses:
        try:
            data = json.loads(response.get("body") or "")
        except ValueError:
            continue
        if isinstance(data, dict):
            yield data


def _text_of(value: Any) -> str | None:
    return str(value) if value not in (None, "") else None


def remark42_comments(responses: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Remark42's `find` answer (`format=plain`):
    {"comments": [{id, pid, text, user: {name}, time, delete}], "info": {...}}."""
    found = []
    for data in _answers(responses):
        for c in data.get("comments") or []:
            user = c.get("user") or {}
            found.append(
                ApiComment(
                    str(c["id"]),
                    _text_of(c.get("pid")),
                    _text_of(user.get("name")),
                    str(c.get("text") or ""),
                    _text_of(c.get("time")),
                    bool(c.get("delete")),
                )
            )
    return thread_records(found)


def _cusdis_walk(wrapper: Any, parent: str | None) -> Iterator[ApiComment]:
    for c in (wrapper or {}).get("data") or []:
        text = c.get("parsedContent") or c.get("content") or ""
        yield ApiComment(str(c["id"]), parent, _text_of(c.get("by_nickname")), str(text), _text_of(c.get("createdAt")))
        yield from _cusdis_walk(c.get("replies"), str(c["id"]))


def cusdis_comments(responses: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cusdis's open API: {"data": {"data": [{id, by_nickname, content, createdAt, replies: {data: [...]}}],
    "commentCount", "pageCount"}}, replies nested in their parent."""
    found = [c for data in _answers(responses) for c in _cusdis_walk(data.get("data"), None)]
    return thread_records(found)


def disqus_comments(responses: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Disqus's threads/listPosts: {"cursor": {...}, "response": [{id, parent, message, author: {name}, createdAt,
    isDeleted}]}; createdAt is UTC without a zone."""
    found = []
    for data in _answers(responses):
        for c in data.get("response") or []:
            author = c.get("author") or {}
            found.append(
                ApiComment(
                    str(c["id"]),
                    _text_of(c.get("parent")),
                    _text_of(author.get("name")),
                    str(c.get("message") or ""),
                    _text_of(c.get("createdAt")),
                    bool(c.get("isDeleted")),
                )
            )
    return thread_records(found)


def utterances_comments(responses: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """GitHub's issue comments (REST, pages of [{id, user: {login}, body, created_at}]) of an utterances
    thread; the search answer that found the issue lists none. GitHub's comments have no replies."""
    found = []
    for response in responses:
        try:
            data = json.loads(response.get("body") or "")
        except ValueError:
            continue
        for c in data if isinstance(data, list) else []:
            user = c.get("user") or {}
            found.append(
                ApiComment(
                    str(c["id"]), None, _text_of(user.get("login")), str(c.get("body") or ""), c.get("created_at")
                )
            )
    return thread_records(found)


def giscus_comments(responses: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """giscus's discussions API: {"discussion": {"comments": [{id, author: {login}, bodyHTML, createdAt, deletedAt,
    replies: [{id, replyToId, ...}]}], "pageInfo": {...}}}; a deleted comment's replies stay."""
    found = []
    for data in _answers(responses):
        for c in (data.get("discussion") or {}).get("comments") or []:
            for item, parent in [(c, None), *((r, r.get("replyToId") or c["id"]) for r in c.get("replies") or [])]:
                author = (item.get("author") or {}).get("login")
                deleted = bool(item.get("deletedAt"))
                body = str(item.get("bodyHTML") or "")
                found.append(
                    ApiComment(str(item["id"]), parent, _text_of(author), body, item.get("createdAt"), deleted)
                )
    return thread_records(found)


def commento_comments(responses: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Commento's comment/list: {"success", "comments": [{commentHex, commenterHex, html, markdown, parentHex
    ("root": top level), creationDate, deleted}], "commenters": {hex: {name, ...}}}."""
    found = []
    for data in _answers(responses):
        names = {k: (v or {}).get("name") for k, v in (data.get("commenters") or {}).items()}
        for c in data.get("comments") or []:
            parent = c.get("parentHex")
            found.append(
                ApiComment(
                    str(c["commentHex"]),
                    None if parent in (None, "", "root") else str(parent),
                    _text_of(names.get(c.get("commenterHex"))),
                    str(c.get("html") or c.get("markdown") or ""),
                    _text_of(c.get("creationDate")),
                    bool(c.get("deleted")),
                )
            )
    return thread_records(found)


_ATOM = "{http://www.w3.org/2005/Atom}"
_THREAD = "{http://purl.org/syndication/thread/1.0}"


def isso_feed_comments(body: str) -> list[ApiComment]:
    """The comments of Isso's per-thread Atom feed (`/feed?uri=`): entry ids and `thr:in-reply-to`
    refs end in the comment's id; `updated` is its last edit's time (Isso's feed has no other)."""
    try:
        root = etree.fromstring(body.encode("utf-8"), etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        return []
    found = []
    for entry in root.iter(f"{_ATOM}entry"):
        entry_id = (entry.findtext(f"{_ATOM}id") or "").rstrip("/").rsplit("/", 1)[-1]
        if not entry_id:
            continue
        reply_to = entry.find(f"{_THREAD}in-reply-to")
        parent = (reply_to.get("ref") or "").rstrip("/").rsplit("/", 1)[-1] if reply_to is not None else None
        author = entry.findtext(f"{_ATOM}author/{_ATOM}name")
        html = entry.findtext(f"{_ATOM}content") or ""
        found.append(ApiComment(entry_id, parent or None, author or None, html, entry.findtext(f"{_ATOM}updated")))
    return found
