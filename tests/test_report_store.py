"""`scrapy report` on a real store: the figures `scrapy sites` shows, and every stored comment painted.

The store is built with the pipeline's own jobs from wordpress/tt21 corpus pages (a batch, then
pages extracted with the learned profile), two articles with comment feeds (one feed missing a
comment, so count exactness is 0.50), and one re-fetch not extracted yet; then `scrapy sites`
and `scrapy report` run as subprocesses on it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env
from lxml import etree
from test_pipeline_batches import corpus_pages, stored
from test_store_schema import NOW, add_page

from commands.report import NOT_EXTRACTED
from extractor.report.render import display_url
from jobs import extraction
from jobs.commentfeeds import parse_comment_feed
from store.sqlite import Store

pytestmark = pytest.mark.slow

SITE = "tt21"


def scrapy(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "scrapy", *args, "-s", f"BLOGS_DB={db}"]
    return subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, timeout=180, env=_env())


@pytest.fixture(scope="module")
def store_db(tmp_path_factory: pytest.TempPathFactory, corpus_root: Path) -> Path:
    db = tmp_path_factory.mktemp("report-store") / "blogs.db"
    store = Store(db)
    cfg = extraction.JobConfig(str(db), batch_size=10)
    truth = corpus_pages(corpus_root, SITE)
    stored(store, truth[:10], SITE)
    # Comment feeds read just before the first fetch of two commented articles; the second feed
    # misses one comment the page shows.
    fed = [k for k, row in enumerate(truth[:10]) if 2 <= len(row["comments"]) < 10][:2]  # feeds list 10 at most
    for n, k in enumerate(fed):
        row = truth[k]
        name = Path(row["file"]).stem
        body = (corpus_root / "wordpress" / SITE / "comment-feeds" / f"{name}.xml").read_bytes()
        entries = parse_comment_feed(body, row["url"] + "feed/")
        with store.transaction():
            store.store_feed_comments(article=row["url"], site=SITE, entries=entries[n:], fetched_at=NOW + 60 * k - 1)
    assert extraction.run_batch(cfg, 1).pages == 10
    later = stored(store, truth[10:16], SITE, start=20)
    assert extraction.run_pages(cfg, SITE, later).pages == 6
    # A re-fetch stored but not extracted yet: its view must say so.
    add_page(store, truth[12]["url"], truth[12]["body"], kind="refetch", at=NOW + 3600, site=SITE)
    store.close()
    return db


@pytest.fixture(scope="module")
def report_dir(store_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report-out") / "report"
    done = scrapy(store_db, "report", str(out))
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def _tree(path: Path) -> etree._Element:
    return etree.fromstring(path.read_bytes(), etree.HTMLParser(encoding="utf-8"))


def _norm(text: str) -> str:
    return " ".join(text.split())


def test_index_shows_the_comment_feed_check_as_scrapy_sites_does(store_db: Path, report_dir: Path) -> None:
    done = scrapy(store_db, "sites", "--format", "jsonl")
    assert done.returncode == 0, done.stderr[-3000:]
    (row,) = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    check = row["feed_check"]
    assert check is not None and "count 0.50" in check, check  # one of two articles' counts agree
    index = _tree(report_dir / "index.html")
    head = [th.xpath("string()") for th in index.xpath("//table[1]//tr[1]/th")]
    cells = [td.xpath("string()") for td in index.xpath("//table[1]//tr[2]/td")]
    summary = dict(zip(head, cells, strict=True))
    assert summary["comment-feed check (articles, count exactness, token F1)"] == check
    assert summary["profile"] == row["profile"]
    assert "%" not in summary["comment-feed check (articles, count exactness, token F1)"]


def _newest_snapshots(db: Path) -> dict[str, int]:
    conn = Store(db)
    try:
        return {
            r["article"]: r["id"]
            for r in conn.db.query(
                "SELECT article, id FROM snapshots s WHERE fetched_at = "
                "(SELECT MAX(fetched_at) FROM snapshots t WHERE t.article = s.article)"
            )
        }
    finally:
        conn.close()


def _stored_comments(db: Path, article: str, snapshot: int) -> list[str]:
    conn = Store(db)
    try:
        return [
            r["text"]
            for r in conn.db.query(
                "SELECT text FROM comments WHERE article = ? AND last_snapshot = ? AND gone_at IS NULL",
                [article, snapshot],
            )
        ]
    finally:
        conn.close()


def test_every_stored_comment_is_painted_as_a_comment(store_db: Path, report_dir: Path) -> None:
    newest = _newest_snapshots(store_db)
    by_label = {display_url(url): url for url in newest}
    views = [p for p in report_dir.rglob("*.html") if p.name != "index.html"]
    assert len(views) == 16
    checked = repainted = 0
    total_stored = 0
    for view in views:
        root = _tree(view)
        label = root.xpath('string(//*[@id="xr-legend"]//p[@class="xr-meta"][1])')
        url = by_label[label]
        texts = _stored_comments(store_db, url, newest[url])
        total_stored += len(texts)
        painted = [_norm(el.xpath("string()")) for el in root.xpath('//*[@data-role="comment"]')]
        for text in texts:
            for line in filter(None, map(_norm, text.split("\n"))):
                assert any(line in p for p in painted), f"{view.name}: stored comment line not painted: {line!r}"
                checked += 1
        repainted += len(root.xpath('//*[@data-role="comment"][contains(@title, "block classified boilerplate")]'))
    assert checked > 50
    # Short comments that repeat across pages ("Well done!") are boilerplate blocks, painted as comments.
    assert repainted >= 3
    index = _tree(report_dir / "index.html")
    comments_cell = index.xpath("string(//table[1]//tr[2]/td[11])")
    assert int(comments_cell) >= total_stored  # the re-fetch not extracted yet adds its re-extracted comments


def test_a_page_not_extracted_in_the_store_says_so(report_dir: Path) -> None:
    index = (report_dir / "index.html").read_text(encoding="utf-8")
    assert index.count(NOT_EXTRACTED) == 1
    views = [p.read_text(encoding="utf-8") for p in report_dir.rglob("*.html") if p.name != "index.html"]
    assert sum(NOT_EXTRACTED in v for v in views) == 1


def test_bad_arguments_get_one_line_errors(store_db: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for args, expected in (
        (["--site", "tt2l", str(tmp_path / "r")], "no site 'tt2l' in the store (did you mean 'tt21'?); sites: tt21"),
        (["--pages", "0", str(tmp_path / "r")], "'0' is not a positive whole number"),
        ([str(blocker)], "exists and is not a folder"),
    ):
        done = scrapy(store_db, "report", *args)
        assert done.returncode == 2, (args, done.stderr[-2000:])
        assert expected in done.stderr, done.stderr[-2000:]
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "r").exists()
