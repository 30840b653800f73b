"""`scrapy import-warc` and `scrapy export --warc` end to end: a WARC written by Debian's wget against
the local farm imported (site from its feed, comment feeds as evidence, a second run skips the file);
a crawled store exported as WARC 1.1, read back by warcio, imported into a fresh store with the same
posts and comments (the round trip); on a real Dask LocalCluster the import gives the same rows."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from crawl_helpers import PROJECT, _env, run_crawl, write_feeds
from warcio.archiveiterator import ArchiveIterator

from extractor.archives.records import pieces
from extractor.archives.warc import ArchiveIndex, CaptureReader
from extractor.archives.warccli import CommentFeeds
from extractor.archives.warcsites import group_sites
from extractor.core.sitekeys import default_site_name
from farm import BlogFarm
from jobs import extraction
from jobs.reextract_dask import dask_client
from jobs.warcimport import ImportPlan, import_archives, plan_import, store_file
from jobs.warcimport_dask import import_on_dask
from jobs.warcwriter import Written, export_warc_file
from store import open_store

HOUR = 3600.0
PAGES_AND_COMMENTS = {
    "posts": "SELECT url, site, title, published, text, fetched_at, comments FROM posts ORDER BY url",
    "comments": "SELECT article, fingerprint, site, text, author, date, parent, position, first_seen, gone_at"
    " FROM comments ORDER BY article, fingerprint",
}


def scrapy(db: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "scrapy", *args, "-s", f"BLOGS_DB={db}"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(),
    )
    assert done.returncode == code, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done


def rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def wget_warc(farm: BlogFarm, out: Path, articles: int = 14) -> tuple[str, list[str]]:
    """A blog captured by `wget --warc-file`: home page, feed, every article and its comment feed.
    Returns (feed URL, article URLs)."""
    if shutil.which("wget") is None:
        pytest.fail("wget missing: scripts/ensure_wget.sh (run by make test) installs it", pytrace=False)
    now = time.time()
    farm.clock.set(now)
    blog = farm.add_generated_blog(
        "gen", articles=articles, start=now - 4 * 24 * HOUR, interval=5 * HOUR, comments_per_article=(1, 5), seed=11
    )
    urls = [a.url for a in blog.articles]
    capture = [blog.url("/"), blog.url("/feed/"), *urls, *(u + "feed/" for u in urls)]
    done = subprocess.run(
        [
            *("wget", "--no-verbose", "-e", "robots=off", "--delete-after", "--no-directories", "--tries=1"),
            f"--warc-file={out.with_suffix('').with_suffix('')}",
            *capture,
        ],
        cwd=out.parent,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert out.is_file()
    return blog.url("/feed/"), urls


@pytest.mark.slow
def test_a_wget_archive_is_imported_by_site_with_its_comment_feeds_and_once(farm: BlogFarm, tmp_path: Path) -> None:
    archive = tmp_path / "blog.warc.gz"
    feed, urls = wget_warc(farm, archive)
    db = tmp_path / "blogs.db"
    done = scrapy(db, "import-warc", str(archive))
    assert "imported 1 files" in done.stdout and f"{len(urls)} pages" in done.stdout, done.stdout
    assert "read 1/1 files" in done.stderr and "extracted 1/1 sites" in done.stderr  # progress on stderr
    site = default_site_name(feed)
    assert rows(db, "SELECT DISTINCT site FROM posts") == [(site,)]
    assert sorted(r[0] for r in rows(db, "SELECT url FROM posts")) == sorted(urls)
    assert rows(db, "SELECT COUNT(*) FROM posts WHERE published IS NULL OR title IS NULL") == [(0,)]  # from the feed
    assert rows(db, "SELECT COUNT(*) FROM comment_feed_fetches") == [(len(urls),)]
    assert rows(db, "SELECT COUNT(*) FROM feed_comments")[0][0] > 0
    assert rows(db, "SELECT COUNT(*) FROM comments")[0][0] > 0
    # A full batch (BLOGS_BATCH_SIZE 10) taught the site its profile, as in a crawl.
    assert rows(db, "SELECT COUNT(*) FROM batches WHERE state = 'done'") == [(1,)]
    before = rows(db, "SELECT COUNT(*) FROM snapshots")
    again = scrapy(db, "import-warc", str(archive))
    assert "imported before, skipped" in again.stderr and "imported 0 files" in again.stdout
    assert rows(db, "SELECT COUNT(*) FROM snapshots") == before
    assert rows(db, "SELECT path, pages FROM warc_imports") == [(str(archive), len(urls))]


@pytest.mark.slow
def test_missing_file_is_one_line_exit_2_and_nothing_written(tmp_path: Path) -> None:
    db = tmp_path / "blogs.db"
    done = scrapy(db, "import-warc", str(tmp_path / "nope.warc.gz"), code=2)
    assert "nope.warc.gz: no such file" in done.stderr
    assert not db.exists()


def crawled_store(farm: BlogFarm, tmp_path: Path, settings: dict[str, str] | None = None) -> Path:
    now = time.time()
    farm.clock.set(now)
    blogs = [
        farm.add_generated_blog("alpha", articles=13, start=now - 3 * 24 * HOUR, interval=5 * HOUR, seed=3),
        farm.add_generated_blog("beta", articles=6, start=now - 2 * 24 * HOUR, interval=7 * HOUR, seed=4),
    ]
    feeds = write_feeds(tmp_path / "feeds.txt", [b.feed_line() for b in blogs])
    db = tmp_path / "crawled.db"
    result = run_crawl(feeds, db, settings=settings, clock=farm.clock, timeout=180)
    assert result.returncode == 0, result.stderr[-3000:]
    return db


@pytest.mark.slow
def test_round_trip_export_warc_then_import_gives_the_same_posts_and_comments(farm: BlogFarm, tmp_path: Path) -> None:
    crawled = crawled_store(farm, tmp_path)
    out = tmp_path / "export.warc.gz"
    done = scrapy(crawled, "export", "--warc", str(out))
    pages = rows(crawled, "SELECT COUNT(*) FROM snapshots")[0][0]
    feeds = rows(crawled, "SELECT COUNT(*) FROM comment_feed_fetches")[0][0]
    # each site's home page and the archive page it links (crawler.templatelinks)
    templates = rows(crawled, "SELECT COUNT(*) FROM template_pages")[0][0]
    assert templates == 4
    assert f"wrote {pages} pages and {feeds} comment feeds, {templates} template pages" in done.stdout
    # Read back by warcio: WARC 1.1, each page a response with its request and metadata records.
    types: dict[str, int] = {}
    with out.open("rb") as fh:
        for record in ArchiveIterator(fh):
            assert record.rec_headers.protocol == "WARC/1.1"
            types[record.rec_type] = types.get(record.rec_type, 0) + 1
            if record.rec_type == "metadata":
                text = record.content_stream().read().decode()
                assert "fetched-at: " in text and "site: " in text
    records = pages + feeds + templates
    assert types == {"warcinfo": 1, "response": records, "request": records, "metadata": records}
    # warcio's own checker: every record's block and payload digest holds.
    check = subprocess.run(
        [str(Path(sys.executable).parent / "warcio"), "check", "-v", str(out)], capture_output=True, text=True
    )
    assert check.returncode == 0 and check.stdout.count("digest pass") >= 3 * (pages + feeds), check.stdout[-2000:]
    fresh = tmp_path / "fresh.db"
    scrapy(fresh, "import-warc", str(out))
    for name, sql in PAGES_AND_COMMENTS.items():
        assert rows(fresh, sql) == rows(crawled, sql), name
    assert rows(fresh, "SELECT COUNT(*) FROM comments")[0][0] > 0
    home_pages = "SELECT site, url, status, body_size, kind FROM template_pages ORDER BY site, url"
    assert rows(fresh, home_pages) == rows(crawled, home_pages)  # template pages, not articles
    beta = rows(crawled, "SELECT COUNT(*) FROM snapshots WHERE site LIKE 'beta%'")[0][0]
    site = rows(crawled, "SELECT DISTINCT site FROM snapshots WHERE site LIKE 'beta%'")[0][0]
    one = scrapy(crawled, "export", "--site", site, "--warc", str(tmp_path / "beta.warc.gz"))
    assert f"wrote {beta} pages" in one.stdout and 0 < beta < pages


@pytest.mark.slow
def test_import_on_a_local_dask_cluster_gives_the_single_process_rows(farm: BlogFarm, tmp_path: Path) -> None:
    crawled = crawled_store(farm, tmp_path)
    out = tmp_path / "export.warc.gz"
    scrapy(crawled, "export", "--warc", str(out))
    archive = tmp_path / "wget.warc.gz"
    wget_warc(farm, archive, articles=11)
    single, dask = tmp_path / "single.db", tmp_path / "dask.db"
    scrapy(single, "import-warc", str(out), str(archive))
    done = scrapy(dask, "import-warc", "--dask", "local:2", str(out), str(archive))
    assert "importing on local:2 (2 workers)" in done.stderr
    # Sites are stored in parallel: a snapshot's id depends on how the sites interleaved, not its row,
    # nor the order of a site's snapshots (their batches, hence their posts and comments).
    snapshots = (
        "SELECT article, site, kind, url, request_url, status, headers, body, body_size, body_sha256, fetched_at"
        " FROM snapshots ORDER BY site, id"
    )
    for name, sql in {**PAGES_AND_COMMENTS, "snapshots": snapshots}.items():
        assert rows(dask, sql) == rows(single, sql), name
    assert len(rows(dask, "SELECT DISTINCT site FROM posts")) == 3
    # The files read in pieces of 4 KB (many per record: most start inside one), on 2 workers.
    pieces = tmp_path / "pieces.db"
    with dask_client("local:2") as client, open_store(pieces) as store:
        plan, _report = import_on_dask(store, client, [str(out), str(archive)], piece_bytes=4096)
    assert sum(len(cuts) for cuts in plan_pieces(plan, 4096)) > 20
    for name, sql in {**PAGES_AND_COMMENTS, "snapshots": snapshots}.items():
        assert rows(pieces, sql) == rows(single, sql), name
    assert rows(pieces, "SELECT path, records, pages, feeds, skipped FROM warc_imports ORDER BY path") == rows(
        single, "SELECT path, records, pages, feeds, skipped FROM warc_imports ORDER BY path"
    )


def plan_pieces(plan: ImportPlan, size: int) -> list[list[tuple[int, int | None]]]:
    return [pieces(f.path, size) for f in plan.files]


@pytest.mark.slow
def test_the_crawl_writes_warc_as_it_goes_rotated_by_size(farm: BlogFarm, tmp_path: Path) -> None:
    folder = tmp_path / "warc"
    crawled = crawled_store(farm, tmp_path, {"BLOGS_WARC_DIR": str(folder), "BLOGS_WARC_MAX_SIZE": "40000"})
    files = sorted(folder.iterdir())
    assert len(files) > 2 and all(f.name.endswith(".warc.gz") for f in files)  # rotated; none left .open
    responses = 0
    for path in files:
        with path.open("rb") as fh:
            responses += sum(r.rec_type == "response" for r in ArchiveIterator(fh))
    stored = rows(
        crawled,
        "SELECT (SELECT COUNT(*) FROM snapshots) + (SELECT COUNT(*) FROM comment_feed_fetches)"
        " + (SELECT COUNT(*) FROM template_pages)",
    )
    assert responses == stored[0][0]
    fresh = tmp_path / "fresh.db"
    scrapy(fresh, "import-warc", *map(str, files))
    for name, sql in PAGES_AND_COMMENTS.items():
        assert rows(fresh, sql) == rows(crawled, sql), name


def store_rows(location: str) -> dict[str, list[dict[str, Any]]]:
    with open_store(location, read_only=True) as store:
        return {name: list(store.db.query(sql)) for name, sql in PAGES_AND_COMMENTS.items()}


@pytest.mark.slow
def test_import_gives_the_same_rows_on_both_backends(farm: BlogFarm, tmp_path: Path, fresh_db: str) -> None:
    archive = tmp_path / "blog.warc.gz"
    _feed, urls = wget_warc(farm, archive, articles=12)
    reference = str(tmp_path / "reference.db")
    for location in (reference, fresh_db):
        with open_store(location) as store:
            plan, report = import_archives(store, [str(archive)], batch_size=5)
        extraction.close_stores()
        assert (report.files, report.pages, report.sites) == (1, len(urls), 1)
    expected = store_rows(reference)
    assert len(expected["posts"]) == len(urls) and expected["comments"]
    assert store_rows(fresh_db) == expected
    with open_store(fresh_db) as store:  # given again: skipped, nothing written
        plan, report = import_archives(store, [str(archive)], batch_size=5)
    extraction.close_stores()
    assert (plan.already, report.pages) == ([str(archive)], 0)
    out = tmp_path / "again.warc.gz"  # exported from that backend, read back by warcio
    with open_store(fresh_db, read_only=True) as store:
        assert export_warc_file(store, out) == Written(len(urls), len(urls))  # pages and their comment feeds
    with out.open("rb") as fh:
        assert sum(r.rec_type == "response" for r in ArchiveIterator(fh)) == 2 * len(urls)


@pytest.mark.slow
def test_an_import_stopped_after_storing_is_extracted_when_run_again(farm: BlogFarm, tmp_path: Path) -> None:
    archive = tmp_path / "blog.warc.gz"
    _feed, urls = wget_warc(farm, archive, articles=12)
    location = str(tmp_path / "blogs.db")
    with open_store(location) as store:
        plan = plan_import(store, [str(archive)])
        for file in plan.files:  # stored and recorded; the import is stopped before extraction
            store_file(store, plan, file)
    with open_store(location) as store:
        plan, report = import_archives(store, [str(archive)], batch_size=5)
    extraction.close_stores()
    assert (plan.already, report.pages, report.sites, report.extracted) == ([str(archive)], 0, 1, len(urls))
    assert len(rows(Path(location), "SELECT url FROM posts")) == len(urls)


@pytest.mark.slow
def test_the_library_reads_comment_feeds_as_the_import_does(farm: BlogFarm, tmp_path: Path) -> None:
    """Every article has comments, so no page is comment-free: the comment feeds in the archive are
    the evidence that separates them, in `python -m extractor warc` as in `scrapy import-warc`."""
    archive = tmp_path / "blog.warc.gz"
    _feed, urls = wget_warc(farm, archive)
    db = tmp_path / "blogs.db"
    scrapy(db, "import-warc", str(archive))
    stored: dict[str, int] = dict.fromkeys(urls, 0)
    for (url,) in rows(db, "SELECT article FROM comments"):
        stored[url] += 1
    done = subprocess.run(
        [sys.executable, "-m", "extractor", "warc", str(archive)],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(),
    )
    assert done.returncode == 0, done.stderr[-2000:]
    extracted = {r["url"]: len(r["comments"]) for r in map(json.loads, done.stdout.splitlines())}
    assert sum(stored.values()) > len(urls) and all(stored.values())  # every article commented
    assert extracted == stored
    # The evidence itself: each page carries its article's comment-feed texts, as the import stored them.
    index = ArchiveIndex()
    index.add_file(archive)
    with CaptureReader() as reader:
        feeds = CommentFeeds(reader, index)
        pages = [p for site_pages in group_sites(index).values() for p in site_pages]
        carried = {p.url: sorted(feeds.texts(p)) for p in pages}
    imported: dict[str, list[str]] = {url: [] for url in urls}
    for url, text in rows(db, "SELECT article, text FROM feed_comments"):
        imported[url].append(text)
    assert {u: sorted(t) for u, t in imported.items()} == carried
    assert all(carried.values())
