"""Reading web archives (extractor.archives.warc, `python -m extractor warc`): WARC files written by warcio's
writer from a local farm blog's real HTTP responses; revisits resolved; a truncated gzip member and
a wrong Content-Length cost only their own record, and are reported."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import subprocess
import sys
import urllib.request
from base64 import b32encode
from pathlib import Path

from crawl_helpers import PROJECT, _env
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from crawler.items import PageItem
from extractor.archives.records import ReadTally, iter_records, pieces
from extractor.archives.warc import ArchiveIndex, read_capture
from extractor.archives.warcsites import group_sites
from extractor.core.sitekeys import default_site_name
from farm import BlogFarm
from pipelines.warcpipeline import WarcPipeline

HOUR = 3600.0


def fetch(url: str) -> tuple[int, list[tuple[str, str]], bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, list(response.headers.items()), response.read()


def blog_fetches(farm: BlogFarm, articles: int = 6) -> tuple[str, list[tuple[str, int, list[tuple[str, str]], bytes]]]:
    """(feed URL, [(url, status, headers, body)]): the feed, then every article page, fetched over HTTP.
    The farm's clock is fixed, so the pages (and where a test cuts a record short) are the same every run."""
    now = 1_800_000_000.0
    farm.clock.set(now)
    blog = farm.add_generated_blog("gen", articles=articles, start=now - 48 * HOUR, interval=HOUR, seed=7)
    feed = blog.url("/feed/")
    fetched = [(feed, *fetch(feed))]
    for article in blog.articles:
        fetched.append((article.url, *fetch(article.url)))
    return feed, fetched


def _digest(body: bytes) -> str:
    return "sha1:" + b32encode(hashlib.sha1(body).digest()).decode()


def records(fetched: list[tuple[str, int, list[tuple[str, str]], bytes]], *, gz: bool) -> list[bytes]:
    """Each fetch as one WARC response record (its own gzip member when `gz`), then a revisit of the
    second article page a day later: the bytes of each record, in order."""
    out = []
    for url, status, headers, body in fetched:
        buffer = io.BytesIO()
        writer = WARCWriter(buffer, gzip=gz, warc_version="1.1")
        http = StatusAndHeaders(f"{status} OK", headers, protocol="HTTP/1.1")
        record = writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http)
        writer.write_record(record)
        out.append(buffer.getvalue())
    url, _status, headers, body = fetched[2]
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=gz, warc_version="1.1")
    revisit = writer.create_revisit_record(url, _digest(body), url, "2026-01-01T00:00:00Z")
    writer.write_record(revisit)
    out.append(buffer.getvalue())
    return out


def run_warc_cli(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "extractor", "warc", *map(str, paths)],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(),
    )


def test_pages_grouped_by_the_feed_site_revisit_resolved_bodies_read_back(farm: BlogFarm, tmp_path: Path) -> None:
    feed, fetched = blog_fetches(farm)
    path = tmp_path / "blog.warc.gz"
    path.write_bytes(b"".join(records(fetched, gz=True)))
    index = ArchiveIndex()
    tally = index.add_file(path)
    assert (tally.records, tally.pages, tally.feeds, dict(tally.skipped)) == (8, 6, 1, {})
    assert index.resolve_revisits() == {} and index.tally.revisits == 1
    sites = group_sites(index)
    assert list(sites) == [default_site_name(feed)]  # the name the crawl gives the feed's site
    pages = sites[default_site_name(feed)]
    assert len(pages) == 7  # six articles, and the revisit of one as a later capture
    bodies = {url: body for url, _s, _h, body in fetched}
    for page in pages:
        assert read_capture(page.ref, page.url, page.captured_at).body == bodies[page.url]
    revisited = [p for p in pages if p.url == fetched[2][0]]
    assert len(revisited) == 2 and revisited[1].captured_at > revisited[0].captured_at


def test_extractor_cli_reads_whole_gzip_and_plain_warc_alike(farm: BlogFarm, tmp_path: Path) -> None:
    _feed, fetched = blog_fetches(farm)
    plain = tmp_path / "blog.warc"
    plain.write_bytes(b"".join(records(fetched, gz=False)))
    whole = tmp_path / "whole.warc.gz"  # one gzip stream over every record, as some tools write
    whole.write_bytes(gzip.compress(plain.read_bytes()))
    outputs = []
    for path in (plain, whole):
        done = run_warc_cli(path)
        assert done.returncode == 0, done.stderr
        assert "skipped" not in done.stderr
        rows = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(rows) == 7 and all(r["post"] and r["error"] is None for r in rows)
        outputs.append(rows)
    assert outputs[0] == outputs[1]
    assert sum(len(r["comments"]) for r in outputs[0]) > 0


def test_damaged_records_are_skipped_and_reported_the_rest_imported(farm: BlogFarm, tmp_path: Path) -> None:
    _feed, fetched = blog_fetches(farm)
    members = records(fetched, gz=True)
    members[3] = members[3][: len(members[3]) // 2]  # a gzip member cut short: the third article
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(b"".join(members))
    plain = records(fetched, gz=False)
    wrong = plain[4].replace(b"Content-Length: ", b"Content-Length: 1", 1)  # ten times and more too long
    assert wrong != plain[4]
    bad_length = tmp_path / "length.warc"
    bad_length.write_bytes(b"".join([*plain[:4], wrong, *plain[5:]]))
    for path, reason in ((cut, "unreadable"), (bad_length, "wrong Content-Length")):
        done = run_warc_cli(path)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        rows = [json.loads(line) for line in done.stdout.splitlines()]
        urls = {r["url"] for r in rows}
        lost = fetched[3][0] if path == cut else fetched[4][0]
        assert lost not in urls, path
        assert {u for u, *_ in fetched[1:]} - urls == {lost}, path  # every other article is there
        assert "warning: " in done.stderr and reason in done.stderr, done.stderr


def test_a_file_that_is_no_archive_is_one_line_and_exit_1(tmp_path: Path) -> None:
    junk = tmp_path / "junk.warc"
    junk.write_bytes(b"<html>not an archive</html>\n" * 20)
    done = run_warc_cli(junk)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "1 skipped (1 unreadable)" in done.stderr


def test_a_revisit_of_a_response_in_another_file_is_resolved_also_when_files_are_indexed_apart(
    farm: BlogFarm, tmp_path: Path
) -> None:
    _feed, fetched = blog_fetches(farm)
    members = records(fetched, gz=True)
    first, second = tmp_path / "1.warc.gz", tmp_path / "2.warc.gz"
    first.write_bytes(b"".join(members[:-1]))
    second.write_bytes(members[-1])  # the revisit alone
    together = ArchiveIndex()
    together.add_file(second)  # the revisit comes first: it waits for its response
    together.add_file(first)
    apart = ArchiveIndex()  # as on Dask: each file indexed by itself, then merged
    for path in (second, first):
        alone = ArchiveIndex()
        alone.add_file(path)
        apart.merge(alone)
    for index in (together, apart):
        assert index.resolve_revisits() == {}
        pages = [p for pages in group_sites(index).values() for p in pages]
        assert [p.url for p in pages].count(fetched[2][0]) == 2
    lonely = ArchiveIndex()
    lonely.add_file(second)
    assert lonely.resolve_revisits() == {str(second): 1}
    assert lonely.tally.skipped_text() == "1 skipped (1 revisit without its original)"


def arc_record(url: str, status: int, headers: list[tuple[str, str]], body: bytes) -> bytes:
    """One ARC v1 record (the format before WARC, as Internet Archive crawls of the 2000s hold it)."""
    head = "".join(f"{k}: {v}\r\n" for k, v in headers if k.lower() != "transfer-encoding")
    http = f"HTTP/1.1 {status} OK\r\n{head}\r\n".encode() + body
    return f"{url} 127.0.0.1 20260101000000 text/html {len(http)}\n".encode() + http + b"\n"


def test_arc_files_gzip_per_record_are_read_as_warc(farm: BlogFarm, tmp_path: Path) -> None:
    _feed, fetched = blog_fetches(farm)
    info = b"1 0 blog-harvester test\nURL IP-address Archive-date Content-type Archive-length\n"
    first = f"filedesc://blog.arc 0.0.0.0 20260101000000 text/plain {len(info)}\n".encode() + info + b"\n"
    path = tmp_path / "blog.arc.gz"
    path.write_bytes(gzip.compress(first) + b"".join(gzip.compress(arc_record(*f)) for f in fetched[1:]))
    done = run_warc_cli(path)
    assert done.returncode == 0 and "skipped" not in done.stderr, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert sorted(r["url"] for r in rows) == sorted(u for u, *_ in fetched[1:])
    assert all(r["post"] for r in rows)


def page_item(number: int) -> PageItem:
    url = f"http://127.0.0.1:8000/2026/01/post-{number}/"
    body = f"<html><body><article><p>Post {number}</p></article></body></html>".encode() * 40
    item = PageItem(
        site="blog",
        feed_url="http://127.0.0.1:8000/feed/",
        article_url=url,
        url=url,
        status=200,
        headers={"Content-Type": ["text/html"]},
        body=body,
        fetched_at=1e9,
        kind="first",
    )
    item.snapshot_id = number  # as PersistPagePipeline sets it once the page is stored
    return item


def test_the_warc_pipeline_rotates_files_and_passes_every_item_on_even_when_writing_fails(tmp_path: Path) -> None:
    folder = tmp_path / "warc"
    pipeline = WarcPipeline(str(folder), max_bytes=1)  # a new file after every page
    pipeline.open_spider()
    items = [page_item(i) for i in range(1, 6)]
    assert [pipeline.process_item(item) for item in items] == items
    pipeline.close_spider()
    files = sorted(folder.iterdir())
    assert len(files) == 5 and files == sorted(pipeline.written)
    notes = []
    for path in files:
        with path.open("rb") as fh:
            for record in ArchiveIterator(fh):
                if record.rec_type == "metadata":
                    notes.append(record.content_stream().read().decode())
    assert len(notes) == 5 and all("site: blog" in n and "kind: first" in n for n in notes)
    broken = WarcPipeline(str(tmp_path / "gone"), max_bytes=1)
    broken.open_spider()
    (tmp_path / "gone").rmdir()  # the folder disappears: the next file cannot be opened
    assert broken.process_item(items[0]) is items[0] and broken.broken
    assert broken.process_item(items[1]) is items[1]
    broken.close_spider()


def test_sites_without_a_feed_entry_go_by_the_longest_blog_root_else_the_host(tmp_path: Path) -> None:
    feed = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>Alice</title>
<item><title>A</title><link>http://127.0.0.1:1/alice/2026/a/</link></item>
<item><title>B</title><link>http://127.0.0.1:1/alice/2026/b/</link></item></channel></rss>"""
    fetched = [("http://127.0.0.1:1/alice/feed/", 200, [("Content-Type", "application/rss+xml")], feed)]
    for path in ("alice/2026/a/", "alice/2026/b/", "alice/2026/c/", "bob/x/", "alice/", "category/news/"):
        body = f"<html><body><p>{path}</p></body></html>".encode()
        fetched.append((f"http://127.0.0.1:1/{path}", 200, [("Content-Type", "text/html")], body))
    archive = tmp_path / "two-blogs.warc.gz"
    archive.write_bytes(b"".join(records(fetched, gz=True)[:-1]))  # without the revisit
    index = ArchiveIndex()
    index.add_file(archive)
    sites = {site: sorted(p.url.split(":1/")[1] for p in pages) for site, pages in group_sites(index).items()}
    assert sites == {
        "127.0.0.1_1-alice": ["alice/2026/a/", "alice/2026/b/", "alice/2026/c/"],  # c: under alice's root
        "127.0.0.1_1": ["bob/x/"],  # no feed: the host
    }
    assert index.tally.listings == 2  # alice's home and a category page are no articles


def test_a_cut_gzip_member_is_unreadable_however_its_inflater_ran_on() -> None:
    """Two archives where the fourth of eight gzip members is cut in half (as the test above cuts
    it), kept from runs where the cut went the rare ways (about 1 in 25): the inflater ran on into
    the next member's bytes and failed later, so the record looked like one with a wrong
    Content-Length; and warcio read the member on as raw bytes, so the next member's compressed
    bytes became the record's target URI and the fifth record was lost with it."""
    for name in ("cut-member-inflates-on", "cut-member-read-raw"):
        tally = ReadTally()
        path = Path(__file__).parent / "data" / "warc" / f"{name}.warc.gz"
        uris = [raw.record.rec_headers.get_header("WARC-Target-URI") for raw in iter_records(str(path), tally)]
        assert dict(tally.skipped) == {"unreadable": 1}, name
        assert len(uris) == 7 and all(uri.startswith("http://127.0.0.1:") and uri.isprintable() for uri in uris), name


def _walk(path: Path, start: int = 0, stop: int | None = None) -> tuple[list[int], ReadTally]:
    tally = ReadTally()
    return [raw.offset for raw in iter_records(str(path), tally, start, stop=stop)], tally


def test_pieces_of_a_file_read_apart_give_its_records_and_damage_once(farm: BlogFarm, tmp_path: Path) -> None:
    """A file compressed per record, cut at any offsets (inside a record, inside a damaged one, on a
    record's first byte), read piece by piece: every sound record once, in the file's order, and
    each damaged record counted once, as one reading of the whole file gives them."""
    _feed, fetched = blog_fetches(farm)
    members = records(fetched, gz=True)
    members[3] = members[3][: len(members[3]) // 2]
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(b"".join(members))
    sound = tmp_path / "sound.warc.gz"
    sound.write_bytes(b"".join(records(fetched, gz=True)))
    kept = [
        Path(__file__).parent / "data" / "warc" / f"{name}.warc.gz"
        for name in ("cut-member-inflates-on", "cut-member-read-raw")
    ]
    for path in (sound, cut, *kept):
        whole, whole_tally = _walk(path)
        length = path.stat().st_size
        starts = sorted(set(whole))
        for size in (*range(700, length, 1531), *(start - 1 for start in starts[1:]), *starts[1:]):
            cuts = pieces(str(path), size)
            assert len(cuts) == -(-length // size) > 1, (path.name, size)
            offsets: list[int] = []
            tally = ReadTally()
            for start, stop in cuts:
                found, piece_tally = _walk(path, start, stop)
                offsets += found
                tally.merge(piece_tally)
            assert offsets == whole, (path.name, size)
            assert tally.skipped == whole_tally.skipped, (path.name, size)
    assert pieces(str(sound), sound.stat().st_size) == [(0, None)]


def test_a_whole_gzip_plain_or_arc_file_is_one_piece(farm: BlogFarm, tmp_path: Path) -> None:
    _feed, fetched = blog_fetches(farm, articles=3)
    plain = tmp_path / "plain.warc"
    plain.write_bytes(b"".join(records(fetched, gz=False)))
    whole = tmp_path / "whole.warc.gz"
    whole.write_bytes(gzip.compress(plain.read_bytes()))
    for path in (plain, whole):
        assert pieces(str(path), 100) == [(0, None)], path.name
