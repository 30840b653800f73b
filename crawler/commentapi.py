"""Reading a thread from its comment system's endpoint, for pages whose comments load by script.

CommentApiFetching._comment_api_requests(spider, article_row, page_response)  # [] or the first request

When a fetched page embeds a comment system this crawler has a connector for (crawler.connectors:
Isso, Remark42, Cusdis, Commento, giscus, utterances, Disqus with an API key), the spider reads the thread
through Scrapy (robots.txt, AutoThrottle and the private-address rule apply as to pages), one request at a time,
following "load more" to the end, within the per-site budget of endpoint requests
(`BLOGS_COMMENT_API_BUDGET` per run, and per hour of a long run). The read, every response raw,
becomes one `CommentApiItem`, persisted before it is parsed (jobs.commentapi). A family whose
endpoint needs a key the settings lack gives a read without requests that says so.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from scrapy import Request
from scrapy.http import Response
from twisted.python.failure import Failure

from crawler.connectors import (
    CONNECTOR_PLANS,
    ISSO_FEED_LIMIT,
    MARKERS,
    ConnectorSettings,
    answer_error,
    redact_key,
)
from crawler.items import CommentApiItem
from crawler.responses import classify_failure
from crawler.spiderbase import PRIO_COMMENT_FEED, BlogsSpiderBase
from extractor.comments.commentsystems import CommentSystem, detect_comment_system
from store.commentsystems import ApiRead

DEFAULT_BUDGET = 200  # endpoint requests per site and run (and per hour of a watch-mode run)
BUDGET_WINDOW = 3600.0
DEFAULT_PAGE_SIZE = 100  # comments per endpoint request ("load more" pages)


@dataclass
class ThreadReading:
    """A read in progress: the responses so far and the requests still to make (carried in meta)."""

    article: dict[str, Any]
    system: CommentSystem
    first_url: str
    pending: list[str]
    responses: list[dict[str, Any]] = field(default_factory=list)
    fallback_url: str | None = None  # set once the read turned to its connector's fallback (a feed)
    first_error: str | None = None  # why the endpoint failed, before any fallback
    page_url: str = ""  # the page the thread belongs to (a POST read names its host)


class CommentApiFetching(BlogsSpiderBase):
    """Turns a fetched page whose comments load by script into a read of its comment system's endpoint."""

    comment_api_budget: int  # BLOGS_COMMENT_API_BUDGET
    comment_api_page_size: int  # BLOGS_COMMENT_API_PAGE_SIZE
    comment_api_spent: dict[str, int]  # site -> endpoint requests made in the current budget window
    comment_api_window: float  # monotonic start of that window (a watch-mode run starts a new one each hour)
    connector_settings: ConnectorSettings  # keys and API bases from the settings

    def _comment_api_requests(self, art: dict[str, Any], response: Response) -> list[Request | CommentApiItem]:
        body = response.body
        if self.comment_api_budget <= 0 or not any(m in body for m in MARKERS):
            return []
        system = detect_comment_system(body, response.url)
        connector = CONNECTOR_PLANS.get(system.name)
        if connector is None:
            return []
        first = connector.first(system, self.comment_api_page_size, self.connector_settings)
        if first is None:
            missing = connector.needs(self.connector_settings)
            if missing:  # say why the thread was not read, so it never looks empty
                self.inc(f"blogs/comment_api/{system.name}/needs_key")
                return [self._finished(ThreadReading(art, system, response.url, []), f"needs {missing}")]
            return []
        reading = ThreadReading(art, system, first, [first], page_url=response.url)
        request = self._next_api_request(reading)
        if request is None:  # the site's budget is spent: the thread waits for the next re-fetch
            return []
        self.inflight_comment_feeds.add(art["url"])  # its site stays busy until the read is stored
        self.inc(f"blogs/comment_api/{system.name}/reads")
        return [request]

    def _next_api_request(self, reading: ThreadReading) -> Request | None:
        site = reading.article["site"]
        if time.monotonic() - self.comment_api_window >= BUDGET_WINDOW:
            self.comment_api_spent, self.comment_api_window = {}, time.monotonic()
        if not reading.pending or self.comment_api_spent.get(site, 0) >= self.comment_api_budget:
            return None
        self.comment_api_spent[site] = self.comment_api_spent.get(site, 0) + 1
        self.inc("blogs/comment_api/requests")
        url = reading.pending.pop(0)
        post = CONNECTOR_PLANS[reading.system.name].post
        body = post(reading.system, reading.page_url) if post is not None and url != reading.fallback_url else None
        return Request(
            url,
            method="POST" if body is not None else "GET",
            body=body,
            callback=self.parse_comment_api,
            errback=self.comment_api_failed,
            headers={
                "Accept": "application/json",
                **({"Content-Type": "application/json"} if body is not None else {}),
                **self.connector_settings.headers(url),
            },
            priority=PRIO_COMMENT_FEED,
            dont_filter=True,
            meta={"reading": reading, "dont_cache": True},
        )

    def parse_comment_api(self, response: Response) -> Iterator[Request | CommentApiItem]:
        reading: ThreadReading = response.meta["reading"]
        system = reading.system.name
        reading.responses.append({"url": redact_key(response.url), "status": response.status, "body": response.text})
        if response.url == reading.fallback_url:  # the whole thread as a feed: one answer
            yield self._finished(reading, None if response.body.count(b"<entry") < ISSO_FEED_LIMIT else "feed cut")
            return
        try:
            data = json.loads(response.text)
        except ValueError:
            yield from self._fall_back(reading, f"{system} endpoint answered no JSON ({redact_key(response.url)})")
            return
        if not isinstance(data, dict | list):
            yield self._finished(reading, f"{system} endpoint answered no thread ({redact_key(response.url)})")
            return
        refused = answer_error(data)
        if refused is not None:
            yield from self._fall_back(reading, f"{system} endpoint refused: {refused}")
            return
        more = CONNECTOR_PLANS[system].more(data, response.url, reading.system, self.comment_api_page_size)
        reading.pending.extend(more)
        following = self._next_api_request(reading)
        if following is not None:
            yield following
        elif reading.pending:
            budget = self.comment_api_budget
            yield self._finished(reading, f"budget of {budget} endpoint requests for the site reached")
        else:
            yield self._finished(reading, None)

    def comment_api_failed(self, failure: Failure) -> Iterator[Request | CommentApiItem]:
        reading: ThreadReading = failure.request.meta["reading"]  # type: ignore[attr-defined]
        info = classify_failure(failure)
        if info.status == 404 and CONNECTOR_PLANS[reading.system.name].missing_is_empty:
            yield self._finished(reading, None)  # no thread yet: nobody commented
            return
        self.inc(f"blogs/comment_api/{reading.system.name}/failed")
        yield from self._fall_back(reading, f"{reading.system.name} endpoint failed: {info.reason}")

    def _fall_back(self, reading: ThreadReading, error: str) -> Iterator[Request | CommentApiItem]:
        """After a failed request: the connector's second way to the thread, once; else the read ends with `error`."""
        reading.first_error = reading.first_error or error
        fallback = CONNECTOR_PLANS[reading.system.name].fallback
        url = fallback(reading.system) if fallback is not None and reading.fallback_url is None else None
        if url is None:
            yield self._finished(reading, reading.first_error)
            return
        self.inc(f"blogs/comment_api/{reading.system.name}/fallback")
        reading.fallback_url, reading.pending = url, [url]
        following = self._next_api_request(reading)
        yield following if following is not None else self._finished(reading, error)

    def _finished(self, reading: ThreadReading, error: str | None) -> CommentApiItem:
        art = reading.article
        read = ApiRead(
            article=art["url"],
            site=art["site"],
            system=reading.system.name,
            url=redact_key(reading.first_url),
            fetched_at=self.now(),
            responses=reading.responses,
            complete=error is None,
            error=error,
        )
        return CommentApiItem(read)
