"""The local blog farm, exercised over real HTTP on 127.0.0.1."""

from __future__ import annotations

import gzip
import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zlib
from email.utils import formatdate
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from lxml import etree

from farm import BlogFarm, Clock, FarmSite
from farm.corpus import rewrite_origin

T0 = 1_800_000_000.0  # 2027-01-15 08:00 UTC
NS = {
    "wfw": "http://wellformedweb.org/CommentAPI/",
    "slash": "http://purl.org/rss/1.0/modules/slash/",
    "dc": "http://purl.org/dc/elements/1.1/",
    "atom": "http://www.w3.org/2005/Atom",
}


def fetch(url: str, headers: dict[str, str] | None = None, timeout: float = 10) -> tuple[int, dict[str, str], bytes]:
    """GET without raising on 3xx/4xx/5xx; header names are lower-cased."""
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


def raw_get(url: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    """GET without following redirects or decoding; the caller reads and closes."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    conn.request("GET", parts.path or "/", headers=headers or {})
    return conn.getresponse()


def blog(farm: BlogFarm, name: str = "gen", **kw: object) -> FarmSite:
    farm.clock.set(T0)
    options: dict[str, object] = {"articles": 5, "start": T0, "interval": 3600, "seed": 7, **kw}
    return farm.add_generated_blog(name, **options)  # type: ignore[arg-type]


def feed_links(xml: bytes) -> list[str]:
    return [str(x) for x in etree.fromstring(xml).xpath("//item/link/text()")]


# --- corpus replay ----------------------------------------------------------------------------


def test_corpus_site_served_byte_identical(farm: BlogFarm) -> None:
    site = farm.serve_corpus_site("tt21")
    assert len(site.entries) == 62
    for entry in site.entries:
        status, headers, body = fetch(entry.url)
        expected = entry.file.read_bytes()
        if entry.kind in ("feed", "comment-feed", "home"):
            expected = rewrite_origin(expected, site.original_origin or "", site.origin)
        assert (status, headers["content-type"]) == (entry.status, entry.content_type), entry.url
        assert body == expected, entry.url
    assert sum(e.kind == "post" for e in site.entries) == 30  # posts: compared with the raw files


def test_every_corpus_site_on_its_own_port(farm: BlogFarm) -> None:
    sites = farm.serve_corpus()
    assert set(sites) == {"cocoon", "tt16", "tt21", "tt22"}
    assert len({s.port for s in sites.values()}) == 4
    for site in sites.values():
        posts = [e for e in site.entries if e.kind == "post"]
        for entry in (posts[0], posts[len(posts) // 2], posts[-1]):
            assert fetch(entry.url)[2] == entry.file.read_bytes()
    # WordPress writes lower-case percent escapes; clients may send upper case.
    cocoon = sites["cocoon"]
    ja = next(e for e in cocoon.entries if "%e3" in e.path and e.kind == "post")
    assert fetch(cocoon.origin + ja.path.upper())[2] == ja.file.read_bytes()
    assert fetch(cocoon.url("/no/such/page/"))[0] == 404


def test_corpus_feed_links_point_to_the_farm(farm: BlogFarm) -> None:
    site = farm.serve_corpus_site("tt21")
    status, _, body = fetch(site.feed_url)
    assert status == 200 and b"18081" not in body
    root = etree.fromstring(body)
    links = feed_links(body) + [str(x) for x in root.xpath("//wfw:commentRss/text()", namespaces=NS)]
    assert len(links) == 20  # WordPress lists the newest 10 posts
    assert root.xpath("//atom:link/@href", namespaces=NS) == [site.feed_url]
    for link in links:
        assert link.startswith(site.origin + "/")
        assert fetch(link)[0] == 200, link
    home = fetch(site.home_url)[2]
    assert f'href="{site.feed_url}"'.encode() in home and b"18081" not in home


# --- conditional GET --------------------------------------------------------------------------


def test_conditional_get_on_corpus_page(farm: BlogFarm) -> None:
    site = farm.serve_corpus_site("tt22")
    url = site.entries[0].url
    status, headers, _ = fetch(url)
    assert status == 200 and headers["etag"] and headers["last-modified"]
    assert fetch(url, {"If-None-Match": headers["etag"]})[0] == 304
    assert fetch(url, {"If-None-Match": f'W/{headers["etag"]}, "other"'})[0] == 304
    assert fetch(url, {"If-Modified-Since": headers["last-modified"]})[0] == 304
    assert fetch(url, {"If-None-Match": '"stale"'})[0] == 200
    assert fetch(url, {"If-Modified-Since": formatdate(0, usegmt=True)})[0] == 200
    not_modified = raw_get(url, {"If-None-Match": headers["etag"]})
    assert not_modified.status == 304 and not_modified.read() == b""
    assert not_modified.getheader("ETag") == headers["etag"]


def test_conditional_get_follows_generated_content(farm: BlogFarm) -> None:
    site = blog(farm, comments_per_article=(1, 1), comment_delays=(600, 600))
    page = site.articles[0].url
    for url in (page, site.feed_url):
        _, first, _ = fetch(url)
        assert first["last-modified"] == formatdate(T0, usegmt=True)
        validators = ({"If-None-Match": first["etag"]}, {"If-Modified-Since": first["last-modified"]})
        farm.clock.set(T0 + 300)  # time passes, nothing new
        assert [fetch(url, v)[0] for v in validators] == [304, 304]
        farm.clock.set(T0 + 600)  # the first comment arrives
        assert [fetch(url, v)[0] for v in validators] == [200, 200]
        assert fetch(url)[1]["last-modified"] == formatdate(T0 + 600, usegmt=True)
        farm.clock.set(T0)


# --- generated blogs and the clock ------------------------------------------------------------


def test_clock_controls_feed_and_pages(farm: BlogFarm) -> None:
    site = blog(farm, comments_per_article=(3, 3), comment_delays=(600, 1800))
    first, second = site.articles[0], site.articles[1]
    assert feed_links(fetch(site.feed_url)[2]) == [first.url]
    assert fetch(second.url)[0] == 404 and fetch(second.url + "feed/")[0] == 404

    farm.clock.advance(3600)
    assert feed_links(fetch(site.feed_url)[2]) == [second.url, first.url]  # newest first
    assert fetch(second.url)[0] == 200

    comment = second.comments[0]
    farm.clock.set(comment.time - 1)
    page = fetch(second.url)[2].decode()
    assert f'id="post-{second.id}"' in page and f'id="comment-{comment.id}"' not in page
    farm.clock.set(comment.time)
    page = fetch(second.url)[2].decode()
    assert f'<li id="comment-{comment.id}" class="comment' in page and comment.text in page
    assert all(f'id="comment-{c.id}"' not in page for c in second.comments[1:])
    item = etree.fromstring(fetch(site.feed_url)[2]).xpath("//item")[0]
    assert item.findtext("slash:comments", namespaces=NS) == "1"
    assert item.findtext("wfw:commentRss", namespaces=NS) == second.url + "feed/"
    assert item.findtext("dc:creator", namespaces=NS) == second.author
    assert item.findtext("guid") and item.findtext("pubDate", "").endswith("+0000")
    comments = etree.fromstring(fetch(second.url + "feed/")[2]).xpath("//item/link/text()")
    assert comments == [f"{second.url}#comment-{comment.id}"]


def test_article_markup_and_threaded_comments(farm: BlogFarm) -> None:
    site = blog(farm, articles=10, comments_per_article=(6, 8), comment_delays=(60, 600))
    farm.clock.advance(10 * 3600)
    article = next(a for a in site.articles if any(c.parent for c in a.comments))
    tree = etree.HTML(fetch(article.url)[2])
    post = tree.xpath(f'//article[@id="post-{article.id}"]')[0]
    assert "post" in post.get("class").split()
    assert len(tree.xpath('//ol[@class="comment-list"]//li[contains(@class, "comment")]')) == len(article.comments)
    reply = next(c for c in article.comments if c.parent)
    nested = tree.xpath(f'//li[@id="comment-{reply.parent}"]/ol[@class="children"]/li[@id="comment-{reply.id}"]')
    assert len(nested) == 1
    assert tree.xpath('//header[@id="masthead"]') and tree.xpath('//aside[contains(@class, "widget-area")]')
    assert tree.xpath('//footer[@id="colophon"]') and tree.xpath('//nav[@id="site-navigation"]')


def test_generated_text_is_deterministic_and_varied(farm: BlogFarm, corpus_root: Path) -> None:
    farm.clock.set(T0 + 10 * 3600)
    one = farm.add_generated_blog("one", articles=10, start=T0, seed=3)
    other = farm.add_generated_blog("other", articles=10, start=T0, seed=3)  # the name is part of the seed
    bodies = [a.body_text for a in one.articles]
    assert len(set(bodies)) == 10
    assert bodies != [a.body_text for a in other.articles]
    with BlogFarm(corpus_root=corpus_root, clock=Clock(T0)) as second:
        again = second.add_generated_blog("one", articles=10, start=T0, seed=3)
        assert [(a.path, a.body_text) for a in again.articles] == [(a.path, a.body_text) for a in one.articles]
        texts = [c.text for a in again.articles for c in a.comments]
        assert texts == [c.text for a in one.articles for c in a.comments]
        reseeded = second.add_generated_blog("one-b", articles=10, start=T0, seed=4)
        assert bodies != [a.body_text for a in reseeded.articles]


def test_atom_variant_and_big_blog(farm: BlogFarm) -> None:
    site = blog(farm, feed_format="atom")
    farm.clock.advance(3600)
    status, headers, body = fetch(site.feed_url)
    assert status == 200 and headers["content-type"].startswith("application/atom+xml")
    assert etree.fromstring(body).xpath("//atom:entry/atom:link[@rel='alternate']/@href", namespaces=NS) == [
        site.articles[1].url,
        site.articles[0].url,
    ]
    assert fetch(site.url("/feed/rss2/"))[1]["content-type"].startswith("application/rss+xml")

    started = time.perf_counter()
    big = farm.add_generated_blog("big", articles=3000, start=T0 - 3000 * 60, interval=60, feed_items=10)
    assert time.perf_counter() - started < 2.0  # metadata only; pages are rendered on request
    assert len(feed_links(fetch(big.feed_url)[2])) == 10
    assert fetch(big.articles[-1].url)[0] == 200


@pytest.mark.parametrize(("encoding", "label"), [("shift_jis", "Shift_JIS"), ("euc-jp", "EUC-JP"), ("utf-8", "UTF-8")])
def test_japanese_blog_encodings(farm: BlogFarm, encoding: str, label: str) -> None:
    site = blog(farm, lang="ja", encoding=encoding, comments_per_article=(2, 2), comment_delays=(60, 60))
    farm.clock.advance(60)
    article = site.articles[0]
    status, headers, body = fetch(article.url)
    assert status == 200 and headers["content-type"] == f"text/html; charset={label}"
    assert f'<meta charset="{label}">'.encode() in body
    text = body.decode(encoding)  # strict: every byte is in the declared charset
    assert article.title in text and article.comments[0].text in text and "&#" not in text
    if encoding != "utf-8":
        with pytest.raises(UnicodeDecodeError):
            body.decode("utf-8")
    status, headers, xml = fetch(site.feed_url)
    assert headers["content-type"] == f"application/rss+xml; charset={label}"
    assert xml.startswith(f'<?xml version="1.0" encoding="{label}"?>'.encode())
    assert etree.fromstring(xml).xpath("//item/title/text()") == [article.title]


# --- request log ------------------------------------------------------------------------------


def test_request_log_records_times_and_headers(farm: BlogFarm) -> None:
    site = blog(farm)
    corpus = farm.serve_corpus_site("tt21")
    before = time.time()
    fetch(site.feed_url, {"User-Agent": "farm-test/1", "If-None-Match": '"x"', "If-Modified-Since": "yesterday"})
    fetch(site.url("/missing/"))
    fetch(corpus.feed_url)
    feed_req, missing, corpus_req = farm.requests
    assert (feed_req.method, feed_req.path, feed_req.site, feed_req.port, feed_req.status) == (
        "GET",
        "/feed/",
        "gen",
        site.port,
        200,
    )
    assert before <= feed_req.wall_time <= time.time() and feed_req.clock_time == T0
    assert (feed_req.user_agent, feed_req.if_none_match, feed_req.if_modified_since) == (
        "farm-test/1",
        '"x"',
        "yesterday",
    )
    assert missing.status == 404 and corpus_req.site == "tt21"
    assert farm.requests_for(site) == farm.requests_for("gen") == [feed_req, missing]
    assert farm.requests_for(site.feed_url) == [feed_req]
    assert farm.requests_for("/feed/") == [feed_req, corpus_req]
    farm.clear_log()
    assert farm.requests == []


# --- misbehaviour -----------------------------------------------------------------------------


def test_status_modes_and_behave(farm: BlogFarm) -> None:
    site = blog(farm)
    farm.misbehave(site.feed_url, "status", status=503, retry_after=120)
    status, headers, _ = fetch(site.feed_url)
    assert status == 503 and headers["retry-after"] == "120"
    farm.misbehave(site.feed_url, "status", status=410)
    assert fetch(site.feed_url)[0] == 410
    farm.behave(site.feed_url)
    assert fetch(site.feed_url)[0] == 200
    farm.misbehave("/feed/", "status", times=1)  # any site, next request only
    assert [fetch(site.feed_url)[0] for _ in range(2)] == [500, 200]
    farm.misbehave("/2027/", "status", status=404, prefix=True)
    assert fetch(site.articles[0].url)[0] == 404 and fetch(site.feed_url)[0] == 200
    farm.behave()
    assert fetch(site.articles[0].url)[0] == 200
    assert [r.status for r in farm.requests_for(site.feed_url)][:3] == [503, 410, 200]


def test_slow_answer_does_not_block_others(farm: BlogFarm) -> None:
    site = blog(farm)
    farm.misbehave(site.feed_url, "slow", delay=1.5)
    results: dict[str, float] = {}

    def slow_fetch() -> None:
        started = time.perf_counter()
        assert fetch(site.feed_url)[0] == 200
        results["slow"] = time.perf_counter() - started

    worker = threading.Thread(target=slow_fetch)
    worker.start()
    time.sleep(0.1)
    started = time.perf_counter()
    assert fetch(site.articles[0].url)[0] == 200
    assert time.perf_counter() - started < 0.5
    worker.join()
    assert results["slow"] >= 1.4


def test_malformed_feeds(farm: BlogFarm) -> None:
    site = blog(farm)
    good = fetch(site.feed_url)[2]
    farm.misbehave(site.feed_url, "malformed")
    status, _, body = fetch(site.feed_url)
    assert status == 200 and good.startswith(body) and len(body) < len(good)
    farm.misbehave(site.feed_url, "malformed", how="invalid")
    for broken in (body, fetch(site.feed_url)[2]):
        with pytest.raises(etree.XMLSyntaxError):
            etree.fromstring(broken)
    farm.misbehave(site.feed_url, "malformed", how="short")
    with pytest.raises(http.client.IncompleteRead):
        fetch(site.feed_url)
    farm.misbehave(site.feed_url, "html_as_feed")
    status, headers, body = fetch(site.feed_url)
    assert headers["content-type"].startswith("text/html") and body.startswith(b"<!DOCTYPE html>")


def test_redirects_including_other_schemes(farm: BlogFarm) -> None:
    site = blog(farm)
    farm.misbehave(site.feed_url, "redirect", location="file:///etc/passwd")
    resp = raw_get(site.feed_url)
    assert (resp.status, resp.getheader("Location")) == (301, "file:///etc/passwd")
    resp.read()
    farm.misbehave(site.feed_url, "redirect", location="ftp://127.0.0.1/feed.xml", status=302)
    assert raw_get(site.feed_url).status == 302
    farm.misbehave(site.feed_url, "redirect", location=site.url("/feed/rss2/"), status=307)
    status, _, body = fetch(site.feed_url)  # urllib follows http redirects
    assert status == 200 and body.startswith(b"<?xml")


def test_drop_closes_without_answer(farm: BlogFarm) -> None:
    site = blog(farm)
    farm.misbehave(site.feed_url, "drop")
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError, urllib.error.URLError)):
        fetch(site.feed_url)
    assert farm.requests_for(site.feed_url)[-1].status == 0


def test_bombs_and_huge_bodies(farm: BlogFarm) -> None:
    site = farm.add_site("hostile")
    farm.misbehave(site.url("/gzip/"), "gzip_bomb")  # 1 GiB inflated, read only a little
    resp = raw_get(site.url("/gzip/"), {"Accept-Encoding": "gzip"})
    assert resp.getheader("Content-Encoding") == "gzip"
    assert int(resp.getheader("Content-Length", "0")) < 2 << 20
    inflater = zlib.decompressobj(31)
    start = inflater.decompress(resp.read(4096), 1 << 20)
    assert start.startswith(b"<?xml") and start.endswith(b"    ")
    resp.close()
    farm.misbehave(site.url("/small-gzip/"), "gzip_bomb", size=3 << 20)
    small = gzip.decompress(raw_get(site.url("/small-gzip/")).read())  # checks CRC and size too
    assert len(small) > 3 << 20 and small.rstrip().endswith(b"<title>")

    farm.misbehave(site.url("/laughs/"), "entity_bomb")
    body = fetch(site.url("/laughs/"))[2]
    assert b"<!DOCTYPE rss [" in body and b'<!ENTITY lol9 "&lol8;' in body and len(body) < 4096

    farm.misbehave(site.url("/huge/"), "huge", size=2 << 20)
    _, headers, body = fetch(site.url("/huge/"))
    assert int(headers["content-length"]) == len(body) > 1 << 20
    farm.misbehave(site.url("/huge/"), "huge", size=1 << 20, chunked=True)
    _, headers, body = fetch(site.url("/huge/"))
    assert "content-length" not in headers and body.endswith(b"</rss>\n")


def test_custom_routes(farm: BlogFarm) -> None:
    site = farm.add_site("custom")
    feed = b'<rss version="2.0"><channel><item><link>javascript:alert(1)</link></item></channel></rss>'
    url = farm.add_route(site, "/feed/", feed, "application/rss+xml")
    status, headers, body = fetch(url)
    assert (status, headers["content-type"], body) == (200, "application/rss+xml", feed)
    assert fetch(url, {"If-None-Match": headers["etag"]})[0] == 304
    farm.add_route("custom", "/gone/", "<p>gone</p>", "text/html", status=410)
    assert fetch(site.url("/gone/"))[0] == 410
    farm.remove_route(site, "/feed/")
    assert fetch(url)[0] == 404


# --- lifecycle --------------------------------------------------------------------------------


def test_stop_frees_ports_and_threads(corpus_root: Path) -> None:
    farm = BlogFarm(corpus_root=corpus_root, clock=Clock(T0)).start()
    sites = [farm.serve_corpus_site("tt16"), farm.add_generated_blog("gen", start=T0)]
    idle = http.client.HTTPConnection("127.0.0.1", sites[1].port, timeout=10)
    idle.request("GET", "/feed/")
    idle.getresponse().read()  # the keep-alive connection stays open
    farm.misbehave("/slow/", "slow", delay=30)
    threading.Thread(target=fetch, args=(sites[0].url("/slow/"),), daemon=True).start()
    time.sleep(0.2)
    started = time.perf_counter()
    farm.stop()
    assert time.perf_counter() - started < 3
    assert not [t for t in threading.enumerate() if t.name.startswith("farm-")]
    for site in sites:
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", site.port), timeout=2)
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("127.0.0.1", site.port))
    idle.close()
    with pytest.raises(RuntimeError):
        farm.add_site("late")


def test_clock() -> None:
    clock = Clock(T0)
    assert clock.frozen and clock.now() == T0
    assert clock.advance(90) == T0 + 90
    clock.resume()
    assert not clock.frozen and T0 + 90 <= clock.now() < T0 + 100
    real = Clock()
    assert abs(real.now() - time.time()) < 1
    real.advance(3600)
    assert abs(real.now() - time.time() - 3600) < 1
    assert real.freeze() == real.now()


def test_command_line_farm(tmp_path: Path) -> None:
    port_file = tmp_path / "feeds.txt"
    cmd = [sys.executable, "-m", "farm", "--generated", "2", "--articles", "3", "--port-file", str(port_file)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
    try:
        lines = [proc.stdout.readline() for _ in range(2)] if proc.stdout else []
        assert [line.split()[1] for line in lines] == ["gen1", "gen2"]
        assert port_file.read_text().splitlines() == [line.strip() for line in lines]
        body = fetch(lines[0].split()[0])[2]
        assert len(feed_links(body)) == 3  # backdated: everything is published
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
        if proc.stdout:
            proc.stdout.close()
