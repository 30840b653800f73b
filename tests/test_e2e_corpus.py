"""End to end through the pipelines: `scrapy crawl blogs` over the farm's WordPress corpus sites, then the
stored posts and comments are scored against the corpus truth with extractor.evaluation.scoring.

The corpus feeds list 10 posts each (WordPress's default) while the truth has 30 pages per
site: each site also gets a feed listing all its posts (`/feed/all/`, built from the farm's
entries), so the crawl stores all 120 pages. With BLOGS_BATCH_SIZE=8 every site fills 3 batches
(`extract_site` on the set) and leaves 6 pages to its profile v3 (`SiteProfile.extract`), so
both ways of extracting are scored. Then: a second crawl run changes no table, and
`scrapy reextract` reproduces them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from email.utils import format_datetime
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pytest
from crawl_helpers import PROJECT, TEST_SETTINGS, _env, run_crawl, write_feeds

from extractor.evaluation.scoring import Counts, RecordCounts, score_page, score_records
from farm import BlogFarm, FarmSite
from store.sqlite import Store
from store.urls import normalize_url

pytestmark = pytest.mark.slow

BATCH = 8
TABLES = ("posts", "comments", "extractions", "batches", "batch_members")


def truth_rows(corpus_root: Path, site: str) -> dict[str, dict[str, Any]]:
    path = corpus_root / "wordpress" / site / "truth.jsonl"
    return {row["url"]: row for row in map(json.loads, path.open(encoding="utf-8"))}


def full_feed(site: FarmSite, truth: dict[str, dict[str, Any]]) -> str:
    """An RSS feed listing every post of a corpus site (with its comment feed), newest first."""
    posts = [e for e in site.entries if e.kind == "post" and e.original_url in truth]
    posts.sort(key=lambda e: truth[e.original_url].get("date") or "", reverse=True)
    items = []
    for e in posts:
        row = truth[e.original_url]
        date = datetime.fromisoformat(str(row["date"]).replace("Z", "+00:00"))
        items.append(
            f"<item><title>{escape(row.get('title') or '')}</title><link>{escape(e.url)}</link>"
            f'<guid isPermaLink="true">{escape(e.url)}</guid><pubDate>{format_datetime(date)}</pubDate>'
            f"<wfw:commentRss>{escape(e.url)}feed/</wfw:commentRss></item>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:wfw="http://wellformedweb.org/CommentAPI/">'
        f"<channel><title>{site.name}</title><link>{site.home_url}</link>{''.join(items)}</channel></rss>"
    )


@pytest.fixture(scope="module")
def crawled(corpus_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("corpus")
    with BlogFarm(corpus_root=corpus_root) as farm:
        sites = farm.serve_corpus()
        truths = {name: truth_rows(corpus_root, name) for name in sites}
        lines = []
        for name, site in sites.items():
            farm.add_route(site, "/feed/all/", full_feed(site, truths[name]))
            lines.append(f"{site.origin}/feed/all/ {name}")
        feeds = write_feeds(tmp / "feeds.txt", lines)
        db = tmp / "blogs.db"
        settings = {"BLOGS_BATCH_SIZE": str(BATCH), "BLOGS_REFETCH_AFTER": "7d"}
        result = run_crawl(feeds, db, settings=settings, timeout=180)
        assert result.returncode == 0, result.stderr[-3000:]
        assert "Traceback" not in result.stderr, result.stderr[-3000:]
        yield {"db": db, "feeds": feeds, "sites": sites, "truths": truths, "settings": settings, "first": result}


def dump(db: Path) -> dict[str, list[dict[str, Any]]]:
    with Store(db) as store:
        return {t: list(store.db.query(f"SELECT * FROM {t} ORDER BY 1, 2")) for t in TABLES}


def test_stored_posts_and_comments_match_the_corpus_truth(crawled: dict[str, Any]) -> None:
    stats = crawled["first"].stats
    assert crawled["first"].stat("pages_stored") == 120
    assert stats.get("blogs/extract/batches") == 12 and not stats.get("blogs/extract/job_errors")
    per_site: dict[str, tuple[Counts, RecordCounts]] = {}
    with Store(crawled["db"]) as store:
        methods = dict(store.db.execute("SELECT method, COUNT(*) FROM extractions GROUP BY method").fetchall())
        assert methods == {"batch": 96, "profile": 24}, methods
        for name, site in crawled["sites"].items():
            counts, records = Counts(), RecordCounts()
            by_original = {e.original_url: e.url for e in site.entries}
            for original, truth in crawled["truths"][name].items():
                url = normalize_url(by_original[original])
                post = store.db.execute("SELECT text, snapshot FROM posts WHERE url = ?", [url]).fetchone()
                assert post is not None, f"{name}: no post stored for {url}"
                comments = list(
                    store.db.query(
                        "SELECT text, author, date FROM comments WHERE article = ? AND last_snapshot = ?"
                        " ORDER BY position",
                        [url, post[1]],
                    )
                )
                counts.add(score_page(truth, {"post": post[0], "comments": [c["text"] for c in comments]}, True))
                records.add(score_records(truth, comments))
            per_site[name] = (counts, records)
    lines = []
    for name, (counts, records) in sorted(per_site.items()):
        post_f1, com_f1 = counts.post_prf()[2], counts.comment_prf()[2]
        lines.append(
            f"{name:8} post F1 {post_f1:.3f}  comment F1 {com_f1:.3f}  count exact {counts.count_exact_rate():.2f}"
            f"  author {records.authors_exact}/{records.authors}  date {records.dates_ok}/{records.dates}"
        )
    post_macro = sum(c.post_prf()[2] for c, _r in per_site.values()) / len(per_site)
    com_macro = sum(c.comment_prf()[2] or 0.0 for c, _r in per_site.values()) / len(per_site)
    print("\n" + "\n".join(lines) + f"\nMACRO    post F1 {post_macro:.3f}  comment F1 {com_macro:.3f}")
    assert post_macro >= 0.95 and com_macro >= 0.90, lines


def test_a_second_run_changes_no_table_and_reextract_reproduces_them(crawled: dict[str, Any]) -> None:
    db = crawled["db"]
    before = dump(db)
    again = run_crawl(crawled["feeds"], db, "-a", "force=1", settings=crawled["settings"], timeout=120)
    assert again.returncode == 0, again.stderr[-3000:]
    assert again.stat("feeds_polled") == 4 and again.stat("pages_stored") == 0
    assert dump(db) == before
    cmd = [sys.executable, "-m", "scrapy", "reextract", "-s", f"BLOGS_DB={db}", "-s", f"BLOGS_BATCH_SIZE={BATCH}"]
    done = subprocess.run(cmd, cwd=PROJECT, capture_output=True, text=True, timeout=120, env=_env())
    assert done.returncode == 0, done.stderr[-3000:]
    assert "re-extracted 120 pages of 4 sites (12 batches, 12 profiles)" in done.stdout, done.stdout
    assert dump(db) == before
    assert TEST_SETTINGS  # the crawls ran with the loopback-only resolver
