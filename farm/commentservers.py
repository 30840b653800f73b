"""A blog whose comments load by script from a fake comment server of one family, on one farm site.

    blog = farm.add_comment_blog("r42", "remark42", posts=["a-jig", "a-bench"])
    server = blog.comments                                  # the site's CommentServer
    first = server.add("/2024/05/a-jig/", "Ann", "Nice jig.")
    server.add("/2024/05/a-jig/", "Bob", "Thanks!", parent=first.id)
    server.edit(first.id, "Nice jig!"); server.delete(first.id)

The site serves an RSS feed of its posts, each post page with the family's documented embed
snippet (an empty container and the script, pointing at the site itself as the comment server)
and the family's public read API with the JSON shapes its documentation gives:

* remark42: `GET /api/v1/find?site=&url=&format=plain` -> {"comments": [...], "info": {...}};
* cusdis: `GET /api/open/comments?appId=&pageId=&page=N` -> {"data": {"data": [...], "pageCount", ...}},
  top-level comments `page_size` a page, replies nested under their parent;
* utterances: GitHub's REST API (the crawl's BLOGS_GITHUB_API set to the site): `GET /search/issues?q=`
  finds the issue titled with the post's path, `GET /repos/{repo}/issues/{n}/comments?per_page=&page=`
  lists its comments (a JSON list, no replies);
* giscus: `GET /api/discussions?repo=&term=&first=&after=` -> {"viewer", "discussion": {"comments": [...,
  "replies": [...]], "pageInfo": {"hasNextPage", "endCursor"}, ...}}; 404 {"error"} for a thread without comments;
* commento: `POST /api/comment/list` {"commenterToken", "domain", "path"} -> {"success", "comments": [...],
  "commenters": {...}}, the whole thread.

Remark42's `/web/embed.js` is a small stand-in that draws the thread from `find` into `#remark42`
(comments nested as replies), so a browser shows it. `browsers_only` makes the API refuse (403)
requests whose User-Agent is no browser's, as a firewall against bots does: a browser's read
passes, a crawler's endpoint read fails.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from html import escape
from typing import Any
from urllib.parse import parse_qs, urlsplit

from farm.render import rfc822
from farm.response import HTML, RSS, Response, not_found

FAMILIES = ("remark42", "cusdis", "utterances", "commento", "giscus")
JSON = "application/json; charset=utf-8"
CUSDIS_APP = "8f1c2a9e-farm"
GITHUB_REPO = "ann/jigs-blog"
REMARK_SITE = "farm"


@dataclass
class FakeComment:
    id: int
    thread: str  # the post's path
    author: str
    text: str
    created: float
    parent: int | None = None
    deleted: bool = False
    edited: float | None = None


def _rfc3339(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + f".{int(ts % 1 * 1e6):06d}Z"


@dataclass
class CommentServer:
    """The threads of one family's fake server and its API answers (thread-safe)."""

    family: str
    page_size: int = 10
    browsers_only: bool = False
    comments: dict[int, FakeComment] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(
        self, thread: str, author: str, text: str, parent: int | None = None, at: float | None = None
    ) -> FakeComment:
        with self._lock:
            created = at if at is not None else time.time() - 3600 + len(self.comments)
            comment = FakeComment(len(self.comments) + 1, thread, author, text, created, parent)
            self.comments[comment.id] = comment
            return comment

    def edit(self, comment_id: int, text: str) -> None:
        with self._lock:
            self.comments[comment_id].text = text
            self.comments[comment_id].edited = time.time()

    def delete(self, comment_id: int) -> None:
        """Remark42 keeps a deleted comment, marked and emptied; Cusdis lists it no more."""
        with self._lock:
            self.comments[comment_id].deleted = True

    def thread(self, path: str) -> list[FakeComment]:
        with self._lock:
            return sorted((c for c in self.comments.values() if c.thread == path), key=lambda c: c.created)

    def embed(self, origin: str, path: str) -> str:
        """The family's embed snippet for the post at `path`, with this site as its server."""
        if self.family == "giscus":
            return (
                f'<script src="{origin}/client.js" data-repo="{GITHUB_REPO}" data-repo-id="R_kgDOfarm"'
                ' data-category="Comments" data-category-id="DIC_kwDOfarm" data-mapping="pathname" data-strict="0"'
                ' data-theme="light" crossorigin="anonymous" async></script><div class="giscus"></div>'
            )
        if self.family == "commento":
            return f'<script defer src="{origin}/js/commento.js"></script><div id="commento"></div>'
        if self.family == "utterances":
            return (
                f'<script src="https://utteranc.es/client.js" repo="{GITHUB_REPO}" issue-term="pathname"'
                ' theme="github-light" crossorigin="anonymous" async></script>'
            )
        if self.family == "remark42":
            return (
                '<div id="remark42"></div><script>var remark_config = {'
                f" host: '{origin}', site_id: '{REMARK_SITE}', url: '{origin}{path}', components: ['embed'] }};"
                f'</script><script defer src="{origin}/web/embed.js"></script>'
            )
        return (
            f'<div id="cusdis_thread" data-host="{origin}" data-app-id="{CUSDIS_APP}" data-page-id="{path}"'
            f' data-page-url="{origin}{path}" data-page-title="{escape(path)}"></div>'
            f'<script async defer src="{origin}/js/cusdis.es.js"></script>'
        )

    def answer(self, target: str, origin: str, user_agent: str | None = None) -> Response | None:
        """The API's answer to a request target (path and query); None: not an API route."""
        parts = urlsplit(target)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        if self.family == "remark42" and parts.path == "/web/embed.js":
            return Response(200, REMARK42_EMBED.encode("utf-8"), "text/javascript; charset=utf-8")
        if self.browsers_only and parts.path.startswith("/api/") and "Mozilla/" not in (user_agent or ""):
            return _json(403, {"code": 0, "details": "browsers only", "error": "forbidden"})
        if self.family == "remark42" and parts.path == "/api/v1/find":
            if query.get("site") != REMARK_SITE:
                return _json(400, {"code": 2, "details": "site not found", "error": "can't find site"})
            return _json(200, self._remark42(urlsplit(query.get("url", "")).path))
        if self.family == "cusdis" and parts.path == "/api/open/comments":
            if query.get("appId") != CUSDIS_APP:
                return _json(404, {"data": {"commentCount": 0, "data": [], "pageCount": 0, "pageSize": 10}})
            return _json(200, {"data": self._cusdis(query.get("pageId", ""), int(query.get("page") or 1))})
        if self.family == "utterances":
            return self._github(parts.path, query, origin)
        if self.family == "giscus" and parts.path == "/api/discussions":
            return self._giscus(query)
        return None

    def _giscus(self, query: dict[str, str]) -> Response:
        alive = self.thread(query.get("term", ""))
        if query.get("repo") != GITHUB_REPO or not alive:
            return _json(404, {"error": "Discussion not found"})
        first, after = (
            int(query.get("first") or 20),
            int((query.get("after") or "Y3Vyc29yO0")[len("Y3Vyc29yO") :] or 0),
        )

        def shown(c: FakeComment, reply_to: int | None) -> dict[str, Any]:
            return {
                "id": f"DC_kwDOfarm{c.id:04d}",
                "author": {"login": c.author, "avatarUrl": "", "url": f"https://github.com/{c.author}"},
                "viewerDidAuthor": False,
                "createdAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(c.created)),
                "url": f"https://github.com/{GITHUB_REPO}/discussions/1#discussioncomment-{c.id}",
                "authorAssociation": "NONE",
                "lastEditedAt": _rfc3339(c.edited) if c.edited else None,
                "deletedAt": _rfc3339(c.created) if c.deleted else None,
                "isMinimized": False,
                "bodyHTML": "" if c.deleted else f"<p>{escape(c.text)}</p>",
                **({"replyToId": f"DC_kwDOfarm{reply_to:04d}"} if reply_to else {}),
            }

        def root(c: FakeComment) -> int:  # GitHub nests one level: a reply to a reply answers its top comment
            while c.parent is not None and c.parent in self.comments:
                c = self.comments[c.parent]
            return c.id

        top = [c for c in alive if c.parent is None]
        page = top[after : after + first]
        comments = []
        for c in page:
            replies = [shown(r, c.id) for r in alive if r.parent is not None and root(r) == c.id]
            comments.append({**shown(c, None), "upvoteCount": 0, "replyCount": len(replies), "replies": replies})
        more = after + first < len(top)
        info = {"startCursor": f"Y3Vyc29yO{after}", "hasNextPage": more, "hasPreviousPage": after > 0}
        discussion = {
            "id": "D_kwDOfarm",
            "locked": False,
            "totalCommentCount": len(top),
            "totalReplyCount": len(alive) - len(top),
            "pageInfo": {**info, "endCursor": f"Y3Vyc29yO{after + first}"},
            "repository": {"nameWithOwner": GITHUB_REPO},
            "comments": comments,
        }
        return _json(200, {"viewer": None, "discussion": discussion})

    def answer_post(self, target: str, body: bytes) -> Response | None:
        """Commento's list (a POST); None: no such route."""
        if self.family != "commento" or urlsplit(target).path != "/api/comment/list":
            return None
        try:
            asked = json.loads(body or b"{}")
        except ValueError:
            return _json(400, {"success": False, "message": "Invalid JSON request."})
        listed = [c for c in self.thread(str(asked.get("path") or "")) if not c.deleted]
        comments = [
            {
                "commentHex": f"{c.id:064x}",
                "commenterHex": f"{c.author.lower():0>64}"[-64:],
                "markdown": c.text,
                "html": f"<p>{escape(c.text)}</p>\n",
                "parentHex": f"{c.parent:064x}" if c.parent else "root",
                "score": 0,
                "state": "approved",
                "direction": 0,
                "creationDate": _rfc3339(c.created),
                "deleted": False,
            }
            for c in listed
        ]
        commenters = {
            f"{c.author.lower():0>64}"[-64:]: {"commenterHex": f"{c.author.lower():0>64}"[-64:], "name": c.author}
            for c in listed
        }
        return _json(200, {"success": True, "comments": comments, "commenters": commenters, "isFrozen": False})

    def _github(self, path: str, query: dict[str, str], origin: str) -> Response | None:
        threads = sorted({c.thread for c in self.comments.values()})
        if path == "/search/issues":
            items = [
                {
                    "number": n,
                    "title": thread,
                    "state": "open",
                    "comments": len(self.thread(thread)),
                    "comments_url": f"{origin}/repos/{GITHUB_REPO}/issues/{n}/comments",
                }
                for n, thread in enumerate(threads, start=1)
                if f'"{thread}"' in query.get("q", "") and f"repo:{GITHUB_REPO}" in query.get("q", "")
            ]
            return _json(200, {"total_count": len(items), "incomplete_results": False, "items": items})
        prefix = f"/repos/{GITHUB_REPO}/issues/"
        if not path.startswith(prefix) or not path.endswith("/comments"):
            return None
        number = int(path[len(prefix) : -len("/comments")] or 0)
        if not 1 <= number <= len(threads):
            return _json(404, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})
        per_page, page = int(query.get("per_page") or 30), int(query.get("page") or 1)
        alive = [c for c in self.thread(threads[number - 1]) if not c.deleted]
        listed = [
            {
                "id": 1_000_000 + c.id,
                "html_url": f"https://github.com/{GITHUB_REPO}/issues/{number}#issuecomment-{1_000_000 + c.id}",
                "user": {"login": c.author, "type": "User"},
                "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(c.created)),
                "updated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(c.edited or c.created)),
                "author_association": "NONE",
                "body": c.text,
            }
            for c in alive[(page - 1) * per_page : page * per_page]
        ]
        return Response(200, json.dumps(listed).encode("utf-8"), JSON)

    def _remark42(self, path: str) -> dict[str, Any]:
        listed = []
        for c in self.thread(path):
            listed.append(
                {
                    "id": f"c{c.id:04d}",
                    "pid": f"c{c.parent:04d}" if c.parent else "",
                    "text": "" if c.deleted else f"<p>{escape(c.text)}</p>\n",
                    "user": {"name": c.author, "id": f"anonymous_{c.author.lower()}", "picture": "", "admin": False},
                    "locator": {"site": REMARK_SITE, "url": path},
                    "score": 0,
                    "vote": 0,
                    "time": _rfc3339(c.created),
                    **({"edit": {"time": _rfc3339(c.edited), "summary": ""}} if c.edited else {}),
                    "delete": c.deleted,
                }
            )
        info = {"url": path, "count": sum(not c["delete"] for c in listed), "read_only": False}
        return {"comments": listed, "info": info}

    def _cusdis(self, path: str, page: int) -> dict[str, Any]:
        alive = [c for c in self.thread(path) if not c.deleted]

        def shown(c: FakeComment) -> dict[str, Any]:
            replies = [r for r in alive if r.parent == c.id]
            return {
                "id": f"{c.id:08x}-cusdis",
                "pageId": path,
                "content": c.text,
                "parsedContent": f"<p>{escape(c.text)}</p>\n",
                "by_nickname": c.author,
                "createdAt": _rfc3339(c.created),
                "parsedCreatedAt": time.strftime("%Y-%m-%d %H:%M", time.gmtime(c.created)),
                "moderatorId": None,
                "replies": {"commentCount": len(replies), "data": [shown(r) for r in replies], "pageCount": 1},
            }

        top = [c for c in alive if c.parent is None]
        pages = max(1, -(-len(top) // self.page_size))
        listed = top[(page - 1) * self.page_size : page * self.page_size]
        return {"commentCount": len(top), "data": [shown(c) for c in listed], "pageCount": pages, "pageSize": 10}


# Draws `find`'s plain list into #remark42 as nested lists (what the real widget shows, less its styling).
REMARK42_EMBED = """
(function () {
  const config = window.remark_config;
  const query = new URLSearchParams({site: config.site_id, url: config.url, format: 'plain', sort: '+time'});
  fetch(config.host + '/api/v1/find?' + query).then((r) => r.json()).then((data) => {
    const root = document.getElementById('remark42');
    const counter = document.createElement('div');
    counter.className = 'comments-counter';
    counter.textContent = data.info.count + ' comments';
    root.appendChild(counter);
    const lists = {'': document.createElement('ul')};
    lists[''].className = 'comments';
    root.appendChild(lists['']);
    for (const c of data.comments) {
      if (c.delete) continue;
      const li = document.createElement('li');
      li.className = 'comment';
      li.innerHTML = '<div class="comment-author">' + c.user.name + '</div><time class="comment-date" datetime="'
        + c.time + '">' + c.time.slice(0, 16).replace('T', ' ') + '</time><div class="comment-content">' + c.text
        + '</div>';
      const replies = document.createElement('ul');
      replies.className = 'replies';
      li.appendChild(replies);
      lists[c.id] = replies;
      (lists[c.pid] || lists['']).appendChild(li);
    }
  });
})();
"""


def _json(status: int, data: dict[str, Any]) -> Response:
    return Response(status, json.dumps(data).encode("utf-8"), JSON)


@dataclass
class CommentBlog:
    """The blog side: an RSS feed of `posts` and their pages (see the module docstring)."""

    origin: str
    posts: list[str]
    comments: CommentServer
    published: float

    def path(self, slug: str) -> str:
        return f"/2024/05/{slug}/"

    def route(self, target: str, _now: float, user_agent: str | None = None) -> Response:
        answer = self.comments.answer(target, self.origin, user_agent)
        if answer is not None:
            return answer
        path = urlsplit(target).path
        if path == "/feed/":
            items = "".join(
                f"<item><title>{slug}</title><link>{self.origin}{self.path(slug)}</link>"
                f"<guid>{self.origin}{self.path(slug)}</guid>"
                f"<pubDate>{rfc822(self.published + i * 60)}</pubDate></item>"
                for i, slug in enumerate(self.posts)
            )
            rss = f'<?xml version="1.0"?><rss version="2.0"><channel><title>Jigs</title><link>{self.origin}/</link>'
            return Response(200, (rss + items + "</channel></rss>").encode(), RSS)
        slug = path.strip("/").rsplit("/", 1)[-1]
        if slug not in self.posts or path != self.path(slug):
            return not_found(path)
        words = " ".join(f"{slug} is a jig I built from oak and maple, part {n}." for n in range(40))
        page = (
            f"<!doctype html><html><head><title>{slug}</title></head><body><header><a href='/'>Jigs</a></header>"
            f"<article><h1>{slug}</h1><p>{words}</p></article><h2>Comments</h2>"
            f"{self.comments.embed(self.origin, path)}<footer>Jigs blog, all rights reserved</footer></body></html>"
        )
        return Response(200, page.encode("utf-8"), HTML)
