"""A blog whose pages declare no charset, crawled for real: its Japanese is stored as Japanese (not
the mojibake of a detector's first guess), searchable, and every page says its encoding was guessed."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, write_feeds

from farm import BlogFarm

pytestmark = pytest.mark.slow

HOUR = 3600.0
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize("encoding", ["euc_jp", "shift_jis"])
def test_undeclared_japanese_blog_is_stored_as_japanese(farm: BlogFarm, tmp_path: Path, encoding: str) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    quiet = farm.add_generated_blog(
        "quiet", articles=4, start=t0 - 4 * HOUR, interval=HOUR, seed=7, lang="ja", encoding=encoding,
        declare_charset=False,
    )  # fmt: skip
    declared = farm.add_generated_blog("declared", articles=2, start=t0 - 2 * HOUR, interval=HOUR, seed=8, lang="ja")
    feeds = write_feeds(tmp_path / "feeds.txt", [quiet.feed_line(), declared.feed_line()])
    db = tmp_path / "blogs.db"

    result = run_crawl(feeds, db, clock=farm.clock, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]

    pages = rows(db, "SELECT site, encoding, encoding_source FROM extractions ORDER BY site, snapshot")
    assert len(pages) == 6
    want = "cp932" if encoding == "shift_jis" else encoding
    assert {p for p in pages if p[0] == "quiet"} == {("quiet", want, "guessed")}
    assert {p for p in pages if p[0] == "declared"} == {("declared", "utf-8", "declared")}
    texts = rows(db, "SELECT text FROM posts WHERE site = 'quiet'")
    assert len(texts) == 4
    for (text,) in texts:
        japanese = len(JAPANESE.findall(text))
        assert japanese > 0.5 * len(text.replace(" ", "").replace("\n", "")), text[:200]
    # what the farm wrote is what the store holds: a sentence of the first article, found as written
    first = quiet.articles[0]
    sentence = next(s for s in re.split(r"[。\n]", first.paragraphs[0]) if len(s) >= 6)
    assert any(sentence in text for (text,) in texts), sentence
