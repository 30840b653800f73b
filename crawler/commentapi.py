"""Reading a thread from its comment system's endpoint, for pages whose comments load by script.

CommentApiFetching._comment_api_requests(spider, article_row, page_response)  # [] or the first request

When a fetched page embeds a comment system this crawler has a connector for (Isso: its JSON
API, `GET {server}/?uri={path}`, as the page's own `embed.js` asks it), the spider reads the
thread through Scrapy (robots.txt, AutoThrottle and the private-address rule apply as to pages),
one request at a time, following "load more" (Isso's `hidden_replies`: the next page `after` the
last comment shown, for the top level and for each comment's replies) to the end, within the
per-site budget of endpoint requests (`BLOGS_COMMENT_API_BUDGET` per run, and per hour of a long run). The read, every
response raw, becomes one `CommentApiItem`, persisted before it is parsed (jobs.commentapi).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from scrapy import Request
from scrapy.http import Response
from twisted.python.failure import Failure

from crawler.items import CommentApiItem
from crawler.responses import classify_failure
from crawler.spiderbase import PRIO_COMMENT_FEED, BlogsSpiderBase
from extractor.commentsystems import detect_comment_system
from store.commentsystems import CONNECTORS, ApiRead

DEFAULT_BUDGET = 200  # endpoint requests per site and run (and per hour of a watch-mode run)
BUDGET_WINDOW = 3600.0
DEFAULT_PAGE_SIZE = 100  # comments per endpoint request ("load more" pages)
# Bytes that a page embedding a system with a connector must hold: most pages skip the parse here.
_MARKERS = {"isso": (b"data-isso", b"isso-thread", b"/js/embed")}


@dataclass
class ThreadReading:
    """A read in progress: the responses so far and the requests still to make (carried in meta)."""

    article: dict[str, Any]
    system: str
    first_url: str
    pending: list[str]
    responses: list[dict[str, Any]] = field(default_factory=list)


def isso_url(server: str, thread: str, page_size: int, parent: int | None = None, after: float | None = None) -> str:
    """An Isso fetch: the top level (with up to `page_size` replies each) or one comment's replies, after a time."""
    query: dict[str, Any] = {"uri": thread, "limit": page_size}
    if parent is None:
        query["nested_limit"] = page_size
    else:
        query["parent"] = parent
    if after is not None:
        query["after"] = repr(after)
    return f"{server}/?{urlencode(query)}"


def isso_more(data: dict[str, Any], server: str, thread: str, page_size: int) -> list[str]:
    """The "load more" requests one Isso answer calls for: the rest of its level, and the rest of
    each listed comment's replies (Isso nests one level deep)."""
    more = []
    replies = data.get("replies") or []
    if (data.get("hidden_replies") or 0) > 0 and replies:
        more.append(isso_url(server, thread, page_size, data.get("id"), replies[-1]["created"]))
    if data.get("id") is None:
        for comment in replies:
            if (comment.get("hidden_replies") or 0) > 0:
                shown = comment.get("replies") or []
                after = shown[-1]["created"] if shown else None
                more.append(isso_url(server, thread, page_size, comment["id"], after))
    return more


class CommentApiFetching(BlogsSpiderBase):
    """Turns a fetched page whose comments load by script into a read of its comment system's endpoint."""

    comment_api_budget: int  # BLOGS_COMMENT_API_BUDGET
    comment_api_page_size: int  # BLOGS_COMMENT_API_PAGE_SIZE
    comment_api_spent: dict[str, int]  # site -> endpoint requests made in the current budget window
    comment_api_window: float  # monotonic start of that window (a watch-mode run starts a new one each hour)

    def _comment_api_requests(self, art: dict[str, Any], response: Response) -> list[Request]:
        body = response.body
        if self.comment_api_budget <= 0 or not any(m in body for ms in _MARKERS.values() for m in ms):
            return []
        system = detect_comment_system(body, response.url)
        if system.name not in CONNECTORS or not system.server or not system.thread:
            return []
        first = isso_url(system.server, system.thread, self.comment_api_page_size)
        reading = ThreadReading(art, system.name, first, [first])
        self.inflight_comment_feeds.add(art["url"])  # its site stays busy until the read is stored
        self.inc(f"blogs/comment_api/{system.name}/reads")
        request = self._next_api_request(reading, system.server, system.thread)
        return [request] if request is not None else []

    def _next_api_request(self, reading: ThreadReading, server: str, thread: str) -> Request | None:
        site = reading.article["site"]
        if time.monotonic() - self.comment_api_window >= BUDGET_WINDOW:
            self.comment_api_spent, self.comment_api_window = {}, time.monotonic()
        if not reading.pending or self.comment_api_spent.get(site, 0) >= self.comment_api_budget:
            return None
        self.comment_api_spent[site] = self.comment_api_spent.get(site, 0) + 1
        self.inc("blogs/comment_api/requests")
        return Request(
            reading.pending.pop(0),
            callback=self.parse_comment_api,
            errback=self.comment_api_failed,
            headers={"Accept": "application/json"},
            priority=PRIO_COMMENT_FEED,
            dont_filter=True,
            meta={"reading": reading, "server": server, "thread": thread, "dont_cache": True},
        )

    def parse_comment_api(self, response: Response) -> Iterator[Request | CommentApiItem]:
        meta = response.meta
        reading: ThreadReading = meta["reading"]
        reading.responses.append({"url": response.url, "status": response.status, "body": response.text})
        try:
            data = json.loads(response.text)
        except ValueError:
            yield self._finished(reading, f"{reading.system} endpoint answered no JSON ({response.url})")
            return
        if not isinstance(data, dict):
            yield self._finished(reading, f"{reading.system} endpoint answered no thread ({response.url})")
            return
        reading.pending.extend(isso_more(data, meta["server"], meta["thread"], self.comment_api_page_size))
        following = self._next_api_request(reading, meta["server"], meta["thread"])
        if following is not None:
            yield following
        elif reading.pending:
            budget = self.comment_api_budget
            yield self._finished(reading, f"budget of {budget} endpoint requests for the site reached")
        else:
            yield self._finished(reading, None)

    def comment_api_failed(self, failure: Failure) -> Iterator[CommentApiItem]:
        reading: ThreadReading = failure.request.meta["reading"]  # type: ignore[attr-defined]
        info = classify_failure(failure)
        self.inc(f"blogs/comment_api/{reading.system}/failed")
        yield self._finished(reading, f"{reading.system} endpoint failed: {info.reason}")

    def _finished(self, reading: ThreadReading, error: str | None) -> CommentApiItem:
        art = reading.article
        read = ApiRead(
            article=art["url"],
            site=art["site"],
            system=reading.system,
            url=reading.first_url,
            fetched_at=self.now(),
            responses=reading.responses,
            complete=error is None,
            error=error,
        )
        return CommentApiItem(read)
