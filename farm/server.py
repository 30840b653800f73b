"""The blog farm: one small HTTP server per site on 127.0.0.1, all sharing a clock and a log.

Each site listens on its own free port (corpus sites would collide on paths otherwise) with a
`ThreadingHTTPServer` in a background thread; every connection gets its own thread, so a slow
answer never holds up other requests. `stop()` closes listeners and open connections and joins
the threads, so a test leaves no ports or threads behind.
"""

from __future__ import annotations

import selectors
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from farm import corpus, hostile
from farm.clock import Clock, to_timestamp
from farm.commentservers import CommentBlog, CommentServer
from farm.corpus import DEFAULT_CORPUS_ROOT, REWRITTEN_KINDS, CorpusEntry
from farm.generated import BlogOptions, GeneratedArticle, GeneratedBlog
from farm.httpd import HOST, Handler, SiteServer, write_response
from farm.log import RequestLog, RequestRecord, normalize_path
from farm.response import RSS, Response, apply_conditional, not_found

Backend = Callable[[str, float], Response]


@dataclass
class FarmSite:
    """A site served by the farm. `articles` is filled for generated blogs, `entries` for corpus sites."""

    name: str
    kind: str  # "corpus", "generated" or "custom"
    origin: str  # http://127.0.0.1:PORT
    feed_url: str
    home_url: str
    articles: list[GeneratedArticle] = field(default_factory=list)
    entries: list[CorpusEntry] = field(default_factory=list)
    original_origin: str | None = None  # corpus sites: the origin their files were captured from
    blog: GeneratedBlog | None = None

    @property
    def port(self) -> int:
        return int(urlsplit(self.origin).port or 80)

    def url(self, path: str = "/") -> str:
        return self.origin + path

    def feed_line(self) -> str:
        """This site as a feeds.txt line: feed URL, then the site name."""
        return f"{self.feed_url} {self.name}"


class BlogFarm:
    """Serves corpus sites and generated blogs on 127.0.0.1; see the package docstring."""

    def __init__(self, corpus_root: Path | str | None = None, clock: Clock | None = None) -> None:
        self.corpus_root = Path(corpus_root) if corpus_root is not None else DEFAULT_CORPUS_ROOT
        self.clock = clock if clock is not None else Clock()
        self.sites: dict[str, FarmSite] = {}
        self._by_origin: dict[str, FarmSite] = {}  # "http://host:port" -> its site (site_for)
        self._servers: dict[str, SiteServer] = {}
        self._selector: selectors.BaseSelector | None = None
        self._acceptor: threading.Thread | None = None
        self._backends: dict[str, Backend] = {}
        self._custom: dict[tuple[str, str], Response] = {}
        self._comment_blogs: dict[str, CommentBlog] = {}  # their routes see the query and the User-Agent
        self._rules = hostile.Rules()
        self._log = RequestLog()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._running = False

    # --- lifecycle -----------------------------------------------------------------------

    def start(self) -> BlogFarm:
        """Start serving; sites are added afterwards. Restarting a stopped farm gives an empty one."""
        if self._running:
            return self
        with self._lock:
            self.sites.clear()
            self._by_origin.clear()
            self._backends.clear()
            self._custom.clear()
        self._rules.remove(None, None)
        self._stopping.clear()
        self._selector = selectors.DefaultSelector()
        self._acceptor = threading.Thread(target=self._accept, args=(self._selector,), name="farm-accept", daemon=True)
        self._running = True
        self._acceptor.start()
        return self

    def _accept(self, selector: selectors.BaseSelector) -> None:
        """One thread accepts the connections of every site, each then served on a thread of its
        own: a thread polling each site's socket (socketserver's serve_forever) woke 20 times a
        second per site, and with a thousand sites that alone kept a core busy."""
        while not self._stopping.is_set():
            for key, _events in selector.select(timeout=0.05):
                key.data._handle_request_noblock()  # accept, then process_request (a thread)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop every site, close open connections and join all farm threads.

        `sites` and the request log stay readable afterwards.
        """
        if not self._running:
            return
        self._running = False
        self._stopping.set()  # wakes up slow answers
        with self._lock:
            servers = list(self._servers.values())
            self._servers.clear()
        deadline = time.monotonic() + timeout
        if self._acceptor is not None:
            self._acceptor.join(timeout)
        for server in servers:
            server.server_close()
            server.close_connections(deadline)
        if self._selector is not None:
            self._selector.close()

    @property
    def running(self) -> bool:
        return self._running

    def __enter__(self) -> BlogFarm:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _listen(self, name: str, port: int, host: str = HOST) -> tuple[SiteServer, str]:
        if not self._running:
            raise RuntimeError("start the farm before adding sites")
        if name in self.sites:
            raise ValueError(f"site {name!r} already exists")
        if not host.startswith("127."):
            raise ValueError(f"the farm serves loopback addresses only, not {host}")
        server = SiteServer(self, name, port, host)
        return server, f"http://{host}:{server.server_address[1]}"

    def _launch(self, server: SiteServer, site: FarmSite, backend: Backend) -> FarmSite:
        assert self._selector is not None
        with self._lock:
            self.sites[site.name] = site
            self._by_origin[site.origin] = site
            self._backends[site.name] = backend
            self._servers[site.name] = server
        self._selector.register(server.socket, selectors.EVENT_READ, server)
        return site

    # --- sites ---------------------------------------------------------------------------

    def serve_corpus_site(
        self, name: str, *, port: int = 0, rewrite_kinds: frozenset[str] = REWRITTEN_KINDS
    ) -> FarmSite:
        """Replay one WordPress corpus site (`<corpus_root>/wordpress/<name>`) at its original paths."""
        server, origin = self._listen(name, port)
        try:
            data = corpus.load_site(self.corpus_root, name, origin, rewrite_kinds)
        except Exception:
            server.server_close()
            raise
        routes = data.routes
        site = FarmSite(
            name=name,
            kind="corpus",
            origin=origin,
            feed_url=origin + "/feed/",
            home_url=origin + "/",
            entries=data.entries,
            original_origin=data.original_origin,
        )
        return self._launch(server, site, lambda path, _now: routes.get(path) or not_found(path))

    def serve_corpus(self) -> dict[str, FarmSite]:
        """Serve every WordPress corpus site (already served ones are kept)."""
        for name in corpus.wordpress_sites(self.corpus_root):
            if name not in self.sites:
                self.serve_corpus_site(name)
        return {n: s for n, s in self.sites.items() if s.kind == "corpus"}

    def add_generated_blog(
        self,
        name: str,
        articles: int = 20,
        start: float | datetime | None = None,
        interval: float = 3600.0,
        comments_per_article: tuple[int, int] = (0, 5),
        comment_delays: tuple[float, float] = (600.0, 86400.0),
        lang: str = "en",
        encoding: str = "utf-8",
        feed_format: str = "rss",
        seed: int = 1,
        *,
        feed_items: int | None = None,
        title: str | None = None,
        port: int = 0,
        host: str = HOST,
        declare_charset: bool = True,
    ) -> FarmSite:
        """A blog whose i-th article is published at `start + i * interval` (farm clock).

        Each article gets `comments_per_article` (min, max) comments arriving `comment_delays`
        (min, max) seconds after publication. `start` None means the clock's current time.
        `host` another loopback address (127.0.0.2, ...) gives the blog a host of its own, as
        real blogs have: crawlers keep politeness per host.
        """
        if interval < 0 or articles < 0:
            raise ValueError("articles and interval must not be negative")
        first = to_timestamp(start) if start is not None else self.clock.now()
        options = BlogOptions(
            articles=articles,
            start=first,
            interval=interval,
            comments_per_article=comments_per_article,
            comment_delays=comment_delays,
            lang=lang,
            encoding=encoding,
            feed_format=feed_format,
            seed=seed,
            feed_items=feed_items,
            title=title,
            declare_charset=declare_charset,
        )
        server, origin = self._listen(name, port, host)
        try:
            blog = GeneratedBlog(name, origin, options)
        except Exception:
            server.server_close()
            raise
        feed = origin + "/feed/"
        site = FarmSite(name, "generated", origin, feed, origin + "/", articles=blog.articles, blog=blog)
        return self._launch(server, site, blog.route)

    def add_site(self, name: str, *, port: int = 0) -> FarmSite:
        """An empty site that only answers the routes given to `add_route()`."""
        server, origin = self._listen(name, port)
        site = FarmSite(name, "custom", origin, origin + "/feed/", origin + "/")
        return self._launch(server, site, lambda path, _now: not_found(path))

    def add_comment_blog(
        self,
        name: str,
        family: str,
        posts: list[str],
        *,
        page_size: int = 10,
        published: float | None = None,
        browsers_only: bool = False,
    ) -> tuple[FarmSite, CommentBlog]:
        """A blog whose comments a fake `family` server on the same site serves (farm.commentservers)."""
        server, origin = self._listen(name, port=0)
        when = published if published is not None else time.time() - 600
        blog = CommentBlog(origin, list(posts), CommentServer(family, page_size, browsers_only), when)
        site = FarmSite(name, "custom", origin, origin + "/feed/", origin + "/")
        with self._lock:
            self._comment_blogs[name] = blog
        return self._launch(server, site, blog.route), blog

    def add_route(
        self,
        site: str | FarmSite,
        path: str,
        body: bytes | str,
        content_type: str = RSS,
        status: int = 200,
        headers: dict[str, str] | None = None,
    ) -> str:
        """Serve `body` at `path` of `site` (before anything else there); returns the URL.

        The route's Last-Modified is the clock time of this call, so conditional GET works.
        """
        name = self._site_name(site)
        data = body.encode("utf-8") if isinstance(body, str) else bytes(body)
        resp = Response(status, data, content_type, dict(headers or {}), last_modified=self.clock.now())
        with self._lock:
            self._custom[(name, normalize_path(path))] = resp
        return self.sites[name].origin + path

    def remove_route(self, site: str | FarmSite, path: str) -> None:
        with self._lock:
            self._custom.pop((self._site_name(site), normalize_path(path)), None)

    def site_for(self, url: str) -> FarmSite:
        """The site that serves `url` (by host and port: blogs on loopback addresses of their own
        may share a port number)."""
        parts = urlsplit(url)
        site = self._by_origin.get(f"{parts.scheme}://{parts.hostname}:{parts.port}")
        if site is None:
            raise KeyError(f"no farm site serves {url}")
        return site

    def feed_lines(self) -> list[str]:
        """All sites as feeds.txt lines."""
        return [s.feed_line() for s in self.sites.values()]

    def _site_name(self, site: str | FarmSite) -> str:
        name = site.name if isinstance(site, FarmSite) else site
        if name not in self.sites:
            raise KeyError(f"unknown site {name!r}")
        return name

    # --- misbehaviour --------------------------------------------------------------------

    def _rule_target(self, url_or_path: str, site: str | FarmSite | None) -> tuple[str | None, str]:
        if "://" in url_or_path:
            return self.site_for(url_or_path).name, normalize_path(url_or_path)
        return (self._site_name(site) if site is not None else None), normalize_path(url_or_path)

    def misbehave(
        self,
        url_or_path: str,
        mode: str,
        *,
        site: str | FarmSite | None = None,
        prefix: bool = False,
        times: int | None = None,
        **opts: Any,
    ) -> None:
        """Make a URL (its site only) or a path (on every site, or on `site`) answer badly.

        Modes and options: status (status=500, retry_after, body, headers), slow (delay=2.0,
        chunk_delay, chunk_size; gate: a threading.Semaphore, each answer waits for a permit, delay
        then 0), malformed (how="truncate"|"invalid"|"short"), html_as_feed (body, content_type),
        redirect (location, status=301), entity_bomb (levels=10), gzip_bomb (size=1 GiB inflated),
        huge (size=64 MiB, chunked=False), drop.
        `prefix` matches every path starting with the given one; `times` limits the rule to the
        next n matching requests.
        """
        site_name, path = self._rule_target(url_or_path, site)
        self._rules.add(hostile.Rule(site_name, path, mode, dict(opts), prefix, times))

    def behave(self, url_or_path: str | None = None, *, site: str | FarmSite | None = None) -> None:
        """Remove the misbehaviour set for a URL or path; with no argument, remove all of it."""
        if url_or_path is None:
            self._rules.remove(self._site_name(site) if site is not None else None, None)
            return
        self._rules.remove(*self._rule_target(url_or_path, site))

    # --- request log ---------------------------------------------------------------------

    @property
    def requests(self) -> list[RequestRecord]:
        """Every request so far, oldest first (a copy)."""
        return self._log.snapshot()

    def requests_for(self, target: str | FarmSite) -> list[RequestRecord]:
        """Requests for a site (FarmSite or name), a URL (its site and path) or a path (any site)."""
        records = self._log.snapshot()
        if isinstance(target, FarmSite):
            return [r for r in records if r.site == target.name]
        if "://" in target:
            try:
                name = self.site_for(target).name
            except KeyError:
                return []
            path = normalize_path(target)
            return [r for r in records if r.site == name and r.path_only == path]
        if target.startswith("/"):
            path = normalize_path(target)
            return [r for r in records if r.path_only == path]
        return [r for r in records if r.site == target]

    def clear_log(self) -> None:
        self._log.clear()

    # --- request handling (runs in connection threads) -----------------------------------

    def _route(self, site: str, path: str, target: str = "", user_agent: str | None = None) -> Response:
        with self._lock:
            custom = self._custom.get((site, path))
            backend = self._backends.get(site)
            comment_blog = self._comment_blogs.get(site)
        if custom is not None:
            return custom
        if comment_blog is not None:
            return comment_blog.route(target or path, self.clock.now(), user_agent)
        if backend is None:
            return not_found(path)
        return backend(path, self.clock.now())

    def handle_request(self, h: Handler, head: bool) -> None:
        wall, now = time.time(), self.clock.now()
        site = h.server.site_name
        path = normalize_path(h.path)
        headers = {k.lower(): v for k, v in h.headers.items()}
        if h.command == "POST":
            length = int(headers.get("content-length") or 0)
            data = h.rfile.read(length)  # drained in any case, so keep-alive stays in sync
            with self._lock:
                comment_blog = self._comment_blogs.get(site)
            answer = comment_blog.comments.answer_post(h.path, data) if comment_blog is not None else None
            resp = answer if answer is not None else Response(405, b"", headers={"Allow": "GET, HEAD"})
        else:
            rule = self._rules.take(site, path)
            if rule is None:
                resp = self._route(site, path, h.path, headers.get("user-agent"))
            else:
                resp = hostile.respond(
                    rule,
                    lambda: self._route(site, path, h.path, headers.get("user-agent")),
                    lambda: self._route(site, "/"),
                    self._stopping,
                )
            resp = apply_conditional(resp, headers)
        port = int(h.server.server_address[1])
        self._log.append(RequestRecord(wall, now, h.command, h.path, site, port, resp.status, headers))
        write_response(h, resp, head)
