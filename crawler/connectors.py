"""The endpoint requests of each comment system with a connector: the first, and the "load more" ones.

    connector = CONNECTOR_PLANS["remark42"]
    url = connector.first(system, page_size, ConnectorSettings())  # the thread's first request
    later = connector.more(json_answer, url, system, page_size)     # what that answer calls for next

Pure (no Scrapy): crawler.commentapi sends the requests, one at a time, within the per-site
budget; jobs.commentparsers turns the stored answers into comment records. Each connector
asks the public, unauthenticated per-thread read API its own embed script asks (plain GETs,
JSON); a family whose API wants a key or token the settings lack says so (`needs`), and the
thread is recorded as `not-harvested: needs <what>` instead of being asked.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from extractor.comments.commentsystems import CommentSystem


@dataclass(frozen=True, slots=True)
class ConnectorSettings:
    """What connectors read from the crawl's settings."""

    disqus_key: str = ""  # BLOGS_DISQUS_API_KEY
    github_api: str = "https://api.github.com"  # BLOGS_GITHUB_API (GitHub Enterprise: its own)
    github_token: str = ""  # BLOGS_GITHUB_TOKEN (optional for utterances: a higher rate limit)

    def headers(self, url: str) -> dict[str, str]:
        """Extra request headers for `url`: the GitHub token, sent to the GitHub API only."""
        if self.github_token and url.startswith(self.github_api.rstrip("/") + "/"):
            return {"Authorization": f"Bearer {self.github_token}"}
        return {}


def _needs_nothing(_settings: ConnectorSettings) -> str | None:
    return None


@dataclass(frozen=True, slots=True)
class Connector:
    """How to read one family's threads (see the module docstring)."""

    # Bytes a page embedding the family holds: most pages skip the parse for detection.
    markers: tuple[bytes, ...]
    first: Callable[[CommentSystem, int, ConnectorSettings], str | None]  # (system, page size, settings) -> URL
    more: Callable[[Any, str, CommentSystem, int], list[str]]  # (answer, its URL, system, page size) -> URLs
    # A second way to the thread when the first request fails or answers no JSON (Isso's Atom feed).
    fallback: Callable[[CommentSystem], str | None] | None = None
    # The JSON body of a POST read, from the system and the page's URL (None: reads are GETs).
    post: Callable[[CommentSystem, str], bytes] | None = None
    # A 404 answers a thread nobody commented on yet (giscus makes the discussion at the first comment).
    missing_is_empty: bool = False
    # What the settings lack for this family's endpoint ("disqus key"): "not-harvested: needs <it>".
    needs: Callable[[ConnectorSettings], str | None] = _needs_nothing


def _query(url: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlsplit(url).query).items()}


def _with(url: str, **changes: Any) -> str:
    """`url` with some query parameters replaced."""
    parts = urlsplit(url)
    query = {**_query(url), **{k: str(v) for k, v in changes.items()}}
    return parts._replace(query=urlencode(query)).geturl()


# -- Isso: GET {server}/?uri={path} (https://isso-comments.de/docs/reference/server-api/) --------------


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


def _isso_first(system: CommentSystem, page_size: int, _settings: ConnectorSettings) -> str | None:
    if not system.server or not system.thread:
        return None
    return isso_url(system.server, system.thread, page_size)


def isso_more(data: Any, _url: str, system: CommentSystem, page_size: int) -> list[str]:
    """The "load more" requests one Isso answer calls for: the rest of its level, and the rest of
    each listed comment's replies (Isso nests one level deep)."""
    if not isinstance(data, dict) or not system.server or not system.thread:
        return []
    server, thread = system.server, system.thread
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


ISSO_FEED_LIMIT = 100  # entries Isso's feed lists at most by default ([rss] limit): a full feed may be cut


def isso_feed_url(system: CommentSystem) -> str | None:
    """Isso's per-thread Atom feed (`GET /feed?uri=`, served when its [rss] section sets a base)."""
    if not system.server or not system.thread:
        return None
    return f"{system.server}/feed?{urlencode({'uri': system.thread})}"


# -- Remark42: GET {host}/api/v1/find?site=&url=&format=plain (the whole thread, one answer) ------------


def _remark42_first(system: CommentSystem, _page_size: int, _settings: ConnectorSettings) -> str | None:
    if not system.server or not system.thread:
        return None
    query = {"site": system.site_id or "remark", "url": system.thread, "format": "plain", "sort": "+time"}
    return f"{system.server}/api/v1/find?{urlencode(query)}"


def _no_more(_data: Any, _url: str, _system: CommentSystem, _page_size: int) -> list[str]:
    return []


# -- Cusdis: GET {host}/api/open/comments?appId=&pageId=&page=N (top level paged, replies nested) -------


def _cusdis_first(system: CommentSystem, _page_size: int, _settings: ConnectorSettings) -> str | None:
    if not system.server or not system.thread or not system.site_id:
        return None
    query = {"appId": system.site_id, "pageId": system.thread, "page": 1}
    return f"{system.server}/api/open/comments?{urlencode(query)}"


def _cusdis_more(data: Any, url: str, _system: CommentSystem, _page_size: int) -> list[str]:
    """Page 1 announces `pageCount`: the other pages, each asked once."""
    wrapper = data.get("data") if isinstance(data, dict) else None
    if not isinstance(wrapper, dict) or _query(url).get("page") != "1":
        return []
    pages = int(wrapper.get("pageCount") or 1)
    return [_with(url, page=n) for n in range(2, pages + 1)]


# -- Disqus: GET disqus.com/api/3.0/threads/listPosts.json (needs the forum's public API key) ------------

DISQUS_API = "https://disqus.com/api/3.0/threads/listPosts.json"


def _disqus_first(system: CommentSystem, page_size: int, settings: ConnectorSettings) -> str | None:
    if not system.site_id or not system.thread or not settings.disqus_key:
        return None
    query = {
        "api_key": settings.disqus_key,
        "forum": system.site_id,
        "thread:ident": system.thread,
        "limit": min(page_size, 100),  # the API's maximum
        "order": "asc",
    }
    return f"{DISQUS_API}?{urlencode(query)}"


def _disqus_more(data: Any, url: str, _system: CommentSystem, _page_size: int) -> list[str]:
    cursor = data.get("cursor") if isinstance(data, dict) else None
    if not isinstance(cursor, dict) or not cursor.get("hasNext") or not cursor.get("next"):
        return []
    return [_with(url, cursor=cursor["next"])]


# -- giscus: GET {giscus}/api/discussions?repo=&term= (or &number=), what its widget asks for anonymous
# readers (giscus.app reads GitHub with its own app token); comments 100 a page by cursor, replies within.


def _giscus_first(system: CommentSystem, page_size: int, _settings: ConnectorSettings) -> str | None:
    if not system.server or not system.thread or not system.site_id:
        return None
    query = {"repo": system.site_id, "first": min(page_size, 100)}
    query.update({"number": system.thread} if system.thread.isdigit() else {"term": system.thread})
    return f"{system.server}/api/discussions?{urlencode(query)}"


def _giscus_more(data: Any, url: str, _system: CommentSystem, _page_size: int) -> list[str]:
    discussion = data.get("discussion") if isinstance(data, dict) else None
    info = (discussion or {}).get("pageInfo") or {}
    if not info.get("hasNextPage") or not info.get("endCursor"):
        return []
    return [_with(url, after=info["endCursor"])]


# -- Commento: POST {origin}/api/comment/list {"commenterToken", "domain", "path"} (the whole thread) --------


def _commento_first(system: CommentSystem, _page_size: int, _settings: ConnectorSettings) -> str | None:
    if not system.server or not system.thread:
        return None
    # commento.io's script comes from its CDN; its API answers on commento.io itself
    server = system.server.replace("://cdn.commento.io", "://commento.io")
    return f"{server}/api/comment/list"


def commento_body(system: CommentSystem, page_url: str) -> bytes:
    """What Commento's own script posts: an anonymous reader, the blog's host and the page's path (or page id)."""
    query = {"commenterToken": "anonymous", "domain": urlsplit(page_url).netloc, "path": system.thread}
    return json.dumps(query).encode("utf-8")


# -- utterances: GitHub's REST API, public repositories without a token ---------------------------------
# The issue utterances made for the page: by number (issue-number), else the search for the issue
# whose title is the term (pathname, url, title ...), as utterances itself finds it; then its comments
# page by page (GET /repos/{repo}/issues/{n}/comments?per_page=&page=, a JSON list).


def _utterances_first(system: CommentSystem, page_size: int, settings: ConnectorSettings) -> str | None:
    if not system.site_id or not system.thread:
        return None
    api = settings.github_api.rstrip("/")
    if system.thread.isdigit():
        query = {"per_page": min(page_size, 100), "page": 1}
        return f"{api}/repos/{system.site_id}/issues/{system.thread}/comments?{urlencode(query)}"
    search = f'"{system.thread}" type:issue in:title repo:{system.site_id}'
    return f"{api}/search/issues?{urlencode({'q': search})}"


def _utterances_more(data: Any, url: str, system: CommentSystem, page_size: int) -> list[str]:
    if isinstance(data, dict):  # the search: the issue titled exactly as the term
        found = [i for i in data.get("items") or [] if i.get("title") == system.thread and i.get("comments_url")]
        if not found:
            return []
        return [f"{found[0]['comments_url']}?{urlencode({'per_page': min(page_size, 100), 'page': 1})}"]
    if isinstance(data, list) and len(data) >= min(page_size, 100):  # a full page: there may be another
        return [_with(url, page=int(_query(url).get("page") or 1) + 1)]
    return []


CONNECTOR_PLANS: dict[str, Connector] = {
    "isso": Connector((b"data-isso", b"isso-thread", b"/js/embed"), _isso_first, isso_more, fallback=isso_feed_url),
    "remark42": Connector((b"remark_config", b"remark42"), _remark42_first, _no_more),
    "cusdis": Connector((b"cusdis_thread",), _cusdis_first, _cusdis_more),
    "disqus": Connector(
        (b"disqus",), _disqus_first, _disqus_more, needs=lambda s: None if s.disqus_key else "disqus key"
    ),
    "utterances": Connector((b"utteranc.es",), _utterances_first, _utterances_more),
    "commento": Connector((b"commento",), _commento_first, _no_more, post=commento_body),
    "giscus": Connector((b"giscus", b"data-repo-id"), _giscus_first, _giscus_more, missing_is_empty=True),
}
MARKERS = tuple(m for connector in CONNECTOR_PLANS.values() for m in connector.markers)


def answer_error(data: Any) -> str | None:
    """The refusal a 200 answer carries, in the families' own words (Commento's `success: false`,
    Disqus's nonzero `code`, an `error` field), or None for a thread."""
    if not isinstance(data, dict):
        return None
    if data.get("success") is False or data.get("code") not in (None, 0) or data.get("error"):
        detail = data.get("message") or data.get("error") or data.get("response") or data.get("code")
        return str(detail)[:200]
    return None


def redact_key(url: str) -> str:
    """`url` without its api_key (stored raw reads must not keep a credential)."""
    if "api_key=" not in url:
        return url
    return _with(url, api_key="REDACTED")
