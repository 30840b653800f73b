"""Comments that load by script, harvested from a REAL Isso server started here (issue 31).

A small blog on 127.0.0.1 embeds Isso as Isso documents it (`data-isso` + `embed.min.js`, an
empty `#isso-thread`); its pages hold no comment. The crawl must read each thread from Isso's
JSON API through Scrapy, follow "load more" to the end, keep replies' parents, turn an edit
into a version and a deletion into `gone_at`, and say so in `comments_state`; with Isso
stopped, every page says its comments were not read, and no comment is made up.
"""

from __future__ import annotations

import email.utils
import http.cookiejar
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from crawl_helpers import PROJECT, rows, run_crawl, wait_for, write_feeds

from crawler.connectors import CONNECTOR_PLANS
from extractor.comments.commentsystems import CommentSystem
from jobs.commentapi import isso_comments

ISSO = Path(sys.executable).with_name("isso")
POSTS = ("shooting-board", "bench-hook", "quiet-post", "long-thread")
PAGE_SIZE = 3  # comments per Isso request: the long thread needs several "load more" pages
PUBLISHED = time.time() - 600  # the posts are new: their re-fetches are due 1 h after publication


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class IssoServer:
    """A real Isso server on 127.0.0.1 with its own SQLite file; stopped by its pid."""

    root: Path
    blog_origin: str
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    cookies: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)
    # Pages embed Isso behind the blog's /isso/ proxy, which passes the feed and refuses the JSON API.
    proxied: bool = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        config = self.root / "isso.cfg"
        config.write_text(
            f"[general]\ndbpath = {self.root / 'comments.db'}\nhost = {self.blog_origin}\nmax-age = 1h\n"
            f"[server]\nlisten = {self.url}/\n[guard]\nenabled = false\n[moderation]\nenabled = false\n"
            f"[rss]\nbase = {self.blog_origin}\n",
            encoding="utf-8",
        )
        log = open(self.root / "isso.log", "ab")  # noqa: SIM115 -- the child owns it
        self.proc = subprocess.Popen([str(ISSO), "-c", str(config), "run"], stdout=log, stderr=log)
        if not wait_for(self._answers, timeout=30):
            self.stop()
            pytest.fail("isso did not start: " + (self.root / "isso.log").read_text(errors="replace")[-2000:])

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/info", timeout=2) as answer:
                return bool(answer.status == 200)
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)

    def _call(self, method: str, path: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(data).encode() if data is not None else None,
            method=method,
            headers={"Content-Type": "application/json", "Origin": self.blog_origin, "Referer": self.blog_origin},
        )
        with opener.open(request, timeout=10) as answer:
            body = answer.read()
        return json.loads(body) if body else {}

    def comment(self, path: str, text: str, author: str, parent: int | None = None) -> int:
        created = self._call("POST", f"/new?uri={path}", {"text": text, "author": author, "parent": parent})
        return int(created["id"])

    def edit(self, comment_id: int, text: str, author: str) -> None:
        self._call("PUT", f"/id/{comment_id}", {"text": text, "author": author})

    def delete(self, comment_id: int) -> None:
        self._call("DELETE", f"/id/{comment_id}")


def blog_handler(isso: IssoServer) -> type[BaseHTTPRequestHandler]:
    class Blog(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _send(self, status: int, kind: str, body: str) -> None:
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            host = self.headers.get("Host")
            if self.path.startswith("/isso/"):
                if not self.path.startswith("/isso/feed?"):
                    self._send(403, "text/plain", "forbidden")
                    return
                with urllib.request.urlopen(isso.url + self.path[len("/isso") :], timeout=10) as answer:
                    self._send(answer.status, answer.headers["Content-Type"], answer.read().decode("utf-8"))
                return
            if self.path == "/feed.xml":
                items = "".join(
                    f"<item><title>{slug}</title><link>http://{host}/2024/05/{slug}/</link>"
                    f"<guid>http://{host}/2024/05/{slug}/</guid>"
                    f"<pubDate>{email.utils.formatdate(PUBLISHED + i * 60, usegmt=True)}</pubDate></item>"
                    for i, slug in enumerate(POSTS)
                )
                rss = f'<?xml version="1.0"?><rss version="2.0"><channel><title>Jigs</title><link>http://{host}/</link>{items}</channel></rss>'
                self._send(200, "application/rss+xml", rss)
                return
            slug = self.path.strip("/").rsplit("/", 1)[-1]
            if slug not in POSTS:
                self._send(404, "text/plain", "not found")
                return
            words = " ".join(f"{slug} is a jig I built from oak and maple, part {n}." for n in range(40))
            server = f"http://{host}/isso" if isso.proxied else isso.url
            page = (
                f"<!doctype html><html><head><title>{slug}</title></head><body><header><a href='/'>Jigs</a></header>"
                f"<article><h1>{slug}</h1><p>{words}</p></article><h2>Comments</h2>"
                f'<script data-isso="{server}/" src="{server}/js/embed.min.js"></script>'
                '<section id="isso-thread"><noscript>Javascript needs to be activated to view comments.</noscript>'
                "</section><footer>Jigs blog, all rights reserved</footer></body></html>"
            )
            self._send(200, "text/html; charset=utf-8", page)

    return Blog


@dataclass
class Thread:
    """What was posted to Isso: comment id -> (path, author, text, parent id)."""

    comments: dict[int, tuple[str, str, str, int | None]] = field(default_factory=dict)

    def add(self, isso: IssoServer, path: str, author: str, text: str, parent: int | None = None) -> int:
        cid = isso.comment(path, text, author, parent)
        # Isso nests one level: a reply to a reply hangs under the top-level comment.
        top = parent if parent is None or self.comments[parent][3] is None else self.comments[parent][3]
        self.comments[cid] = (path, author, text, top)
        return cid


@pytest.fixture
def isso_blog(tmp_path: Path) -> Iterator[tuple[IssoServer, str]]:
    if not ISSO.exists():
        pytest.fail(f"isso is not installed in {ISSO.parent}: pip install -e '.[dev]'", pytrace=False)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    blog_origin = f"http://127.0.0.1:{httpd.server_address[1]}"
    isso = IssoServer(tmp_path / "isso", blog_origin)
    isso.root.mkdir()
    httpd.RequestHandlerClass = blog_handler(isso)
    serving = threading.Thread(target=httpd.serve_forever, daemon=True)
    serving.start()
    isso.start()
    try:
        yield isso, blog_origin
    finally:
        isso.stop()
        httpd.shutdown()
        httpd.server_close()


def stored(db: Path) -> dict[str, list[dict[str, Any]]]:
    """article path -> its comments rows in position order."""
    out: dict[str, list[dict[str, Any]]] = {}
    cols = ["article", "text", "author", "date", "parent", "fingerprint", "gone_at", "source", "position"]
    for row in rows(db, f"SELECT {', '.join(cols)} FROM comments ORDER BY article, position"):
        record = dict(zip(cols, row, strict=True))
        out.setdefault("/" + record["article"].split("/", 3)[3], []).append(record)
    return out


def states(db: Path) -> dict[str, tuple[str, str]]:
    found = rows(db, "SELECT url, comment_system, comments_state FROM articles")
    return {"/" + url.split("/", 3)[3]: (system, state) for url, system, state in found}


def scrapy_jsonl(db: Path, *args: str) -> list[dict[str, Any]]:
    """The JSON lines a project command prints (`export -`, `--format jsonl`)."""
    cmd = [str(Path(sys.executable).with_name("scrapy")), *args, "-s", f"BLOGS_DB={db}"]
    done = subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


SETTINGS = {"BLOGS_COMMENT_API_PAGE_SIZE": str(PAGE_SIZE), "BLOGS_EXTRACT_MODE": "thread"}


@pytest.mark.slow
def test_isso_threads_are_harvested_with_replies_edits_and_deletions(
    isso_blog: tuple[IssoServer, str], tmp_path: Path
) -> None:
    isso, blog = isso_blog
    posted = Thread()
    a, b, long = "/2024/05/shooting-board/", "/2024/05/bench-hook/", "/2024/05/long-thread/"
    ann = posted.add(isso, a, "Ann", "Nice jig, what angle did you plane the fence to?")
    bob = posted.add(isso, a, "Bob", "Ninety degrees, checked with a square.", parent=ann)
    posted.add(isso, a, "Cy", "A reply to Bob's reply: which square?", parent=bob)
    doomed = posted.add(isso, a, "Dee", "Spam spam spam, buy my planes now")
    lonely = posted.add(isso, b, "Eve", "The bench hook saved my thumb.")
    posted.add(isso, b, "Fay", "Same here, glad it helped.", parent=lonely)
    for n in range(11):  # 11 top-level comments and 4 replies to the first: several pages each
        top = posted.add(isso, long, f"Reader{n}", f"Comment number {n} on the long thread about dovetails.")
        if n == 0:
            first = top
    for n in range(4):
        posted.add(isso, long, f"Replier{n}", f"Reply number {n} to the first dovetail comment.", parent=first)

    feeds = write_feeds(tmp_path / "feeds.txt", [f"{blog}/feed.xml jigs"])
    db = tmp_path / "blogs.db"
    result = run_crawl(feeds, db, settings=SETTINGS)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stat("comment_api/requests") > len(POSTS)  # "load more" was followed

    got = stored(db)
    for path in (a, b, long):
        want = sorted((au, tx) for p, au, tx, _ in posted.comments.values() if p == path)
        assert sorted((c["author"], c["text"]) for c in got[path]) == want
        assert {c["source"] for c in got[path]} == {"api:isso"}
        assert all(c["date"] for c in got[path])
        by_fp = {c["fingerprint"]: c for c in got[path]}
        for c in got[path]:  # each reply's parent is the comment Isso lists it under
            (want_parent,) = [w[3] for w in posted.comments.values() if (w[1], w[2]) == (c["author"], c["text"])]
            parent = by_fp[c["parent"]]["text"] if c["parent"] else None
            assert parent == (posted.comments[want_parent][2] if want_parent else None)
    assert "/2024/05/quiet-post/" not in got
    exported = {p["url"].split("/", 3)[3]: p for p in scrapy_jsonl(db, "export", "-")}
    assert exported["2024/05/shooting-board/"]["comment_system"] == "isso"
    assert exported["2024/05/shooting-board/"]["comments_state"] == "harvested"
    assert {c["source"] for c in exported["2024/05/shooting-board/"]["comments"]} == {"api:isso"}
    assert exported["2024/05/quiet-post/"]["comments_state"] == "none"
    assert {c["source"] for c in scrapy_jsonl(db, "comments", "--format", "jsonl")} == {"api:isso"}
    assert states(db) == {
        a: ("isso", "harvested"),
        b: ("isso", "harvested"),
        long: ("isso", "harvested"),
        "/2024/05/quiet-post/": ("isso", "none"),
    }

    # An edit, a deletion of a comment without replies (Isso removes it) and of one with replies
    # (Isso keeps it emptied): the re-fetch reads the thread again.
    isso.edit(ann, "Nice jig! What angle did you plane the fence to, and why?", "Ann")
    isso.delete(doomed)
    isso.delete(lonely)
    second = run_crawl(feeds, db, settings=SETTINGS, clock=_Later(4000))
    assert second.returncode == 0, second.stderr[-3000:]
    got = stored(db)
    by_text = {c["text"]: c for c in got[a] + got[b]}
    assert by_text["Nice jig! What angle did you plane the fence to, and why?"]["gone_at"] is None
    versions = rows(db, "SELECT text FROM comment_versions")
    assert versions == [("Nice jig, what angle did you plane the fence to?",)]
    assert by_text["Spam spam spam, buy my planes now"]["gone_at"] is not None
    assert by_text["The bench hook saved my thumb."]["gone_at"] is not None
    assert by_text["Same here, glad it helped."]["gone_at"] is None
    assert all(c["gone_at"] is None for c in got[long])
    assert len(got[long]) == 15


@dataclass
class _Later:
    """A clock `offset` seconds ahead of the system's (what crawl_helpers.clock_offset reads)."""

    offset: float

    def now(self) -> float:
        return time.time() + self.offset


@pytest.mark.slow
def test_with_the_endpoint_off_pages_say_their_comments_were_not_read(
    isso_blog: tuple[IssoServer, str], tmp_path: Path
) -> None:
    isso, blog = isso_blog
    isso.comment("/2024/05/shooting-board/", "A comment nobody can read while Isso is down.", "Ann")
    isso.stop()
    feeds = write_feeds(tmp_path / "feeds.txt", [f"{blog}/feed.xml jigs"])
    db = tmp_path / "blogs.db"
    result = run_crawl(feeds, db, settings=SETTINGS)
    assert result.returncode == 0, result.stderr[-3000:]
    assert rows(db, "SELECT COUNT(*) FROM comments") == [(0,)]  # nothing made up from the page
    found = states(db)
    assert len(found) == len(POSTS)
    for system, state in found.values():
        assert system == "isso"
        assert state.startswith("not-harvested: isso endpoint failed")
    assert f"not read on {len(POSTS)} pages" in result.stderr.strip().splitlines()[-1]
    (site,) = scrapy_jsonl(db, "sites", "--format", "jsonl")
    assert site["comment_systems"] == f"isso {len(POSTS)}"
    assert site["comments_state"] == f"not-harvested {len(POSTS)}"


@pytest.mark.slow
def test_with_endpoint_reads_off_the_comments_come_from_rendering_in_chromium(
    isso_blog: tuple[IssoServer, str], tmp_path: Path
) -> None:
    isso, blog = isso_blog
    posted = Thread()
    a = "/2024/05/shooting-board/"
    ann = posted.add(isso, a, "Ann", "Nice jig, what angle did you plane the fence to?")
    posted.add(isso, a, "Bob", "Ninety degrees, checked with a square.", parent=ann)
    posted.add(isso, a, "Cy", "I glued a strip of sandpaper under mine.")
    feeds = write_feeds(tmp_path / "feeds.txt", [f"{blog}/feed.xml jigs"])
    db = tmp_path / "blogs.db"
    settings = {**SETTINGS, "BLOGS_COMMENT_API_BUDGET": "0", "BLOGS_RENDER_COMMENTS": "60"}
    result = run_crawl(feeds, db, settings=settings, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stat("render/rendered") == len(POSTS)
    assert result.stat("comment_api/requests") == 0  # the endpoint was not read: the browser's script read it
    (thread,) = stored(db).values()
    assert sorted((c["author"], c["text"]) for c in thread) == sorted((w[1], w[2]) for w in posted.comments.values())
    assert {c["source"] for c in thread} == {"rendered"}
    by_fp = {c["fingerprint"]: c for c in thread}
    assert [(c["author"], by_fp[c["parent"]]["author"] if c["parent"] else None) for c in thread] == [
        ("Ann", None),
        ("Bob", "Ann"),
        ("Cy", None),
    ]
    found = states(db)
    assert found.pop(a) == ("isso", "harvested")
    assert set(found.values()) == {("isso", "none")}


@pytest.mark.slow
def test_isso_feed_is_the_second_way_to_a_thread(isso_blog: tuple[IssoServer, str]) -> None:
    isso, _ = isso_blog
    a = "/2024/05/shooting-board/"
    ann = isso.comment(a, "Nice jig, what angle did you plane the fence to?", "Ann")
    isso.comment(a, "Ninety degrees, checked with a square.", "Bob", parent=ann)
    isso.comment(a, "I glued a strip of sandpaper under mine.", "Cy")
    system = CommentSystem("isso", isso.url, a)
    feed_url = CONNECTOR_PLANS["isso"].fallback(system)  # type: ignore[misc]
    with urllib.request.urlopen(feed_url, timeout=10) as answer:
        feed = answer.read().decode("utf-8")
    records = isso_comments([{"url": feed_url, "status": 200, "body": feed}])
    by_fp = {r["fingerprint"]: r for r in records}
    assert [(r["author"], by_fp[r["parent"]]["author"] if r["parent"] else None, r["text"]) for r in records] == [
        ("Ann", None, "Nice jig, what angle did you plane the fence to?"),
        ("Bob", "Ann", "Ninety degrees, checked with a square."),
        ("Cy", None, "I glued a strip of sandpaper under mine."),
    ]
    assert all(r["date"] for r in records)


@pytest.mark.slow
def test_when_the_json_api_is_refused_the_crawl_reads_the_isso_feed(
    isso_blog: tuple[IssoServer, str], tmp_path: Path
) -> None:
    isso, blog = isso_blog
    isso.proxied = True  # the blog's /isso/ proxy refuses the JSON API (403) and passes the feed
    posted = Thread()
    a = "/2024/05/shooting-board/"
    ann = posted.add(isso, a, "Ann", "Nice jig, what angle did you plane the fence to?")
    posted.add(isso, a, "Bob", "Ninety degrees, checked with a square.", parent=ann)
    posted.add(isso, a, "Cy", "I glued a strip of sandpaper under mine.")
    feeds = write_feeds(tmp_path / "feeds.txt", [f"{blog}/feed.xml jigs"])
    db = tmp_path / "blogs.db"
    result = run_crawl(feeds, db, settings=SETTINGS)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stat("comment_api/isso/failed") == len(POSTS)
    assert result.stat("comment_api/isso/fallback") == len(POSTS)
    (thread,) = stored(db).values()
    by_fp = {c["fingerprint"]: c for c in thread}
    assert [(c["author"], by_fp[c["parent"]]["author"] if c["parent"] else None, c["source"]) for c in thread] == [
        ("Ann", None, "api:isso"),
        ("Bob", "Ann", "api:isso"),
        ("Cy", None, "api:isso"),
    ]
    found = states(db)
    assert found.pop(a) == ("isso", "harvested")
    assert set(found.values()) == {("isso", "none")}
