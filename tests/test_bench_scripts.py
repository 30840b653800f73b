"""The benchmark scripts' workloads run (their timing needs no test; a broken script does)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def one_site(corpus_root: Path, tmp_path: Path) -> Path:
    (tmp_path / "wordpress").mkdir()
    (tmp_path / "wordpress" / "tt21").symlink_to(corpus_root / "wordpress" / "tt21")
    return tmp_path


@pytest.mark.parametrize("workload", ["none", "parse", "parse_later", "set", "learn", "learn_and_extract"])
def test_instruction_workloads_run(one_site: Path, workload: str) -> None:
    cmd = [sys.executable, str(ROOT / "bench" / "extract_instructions.py"), "--workload", workload]
    out = subprocess.run([*cmd, "--corpus", str(one_site)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"{workload}: 1 sets, 30 pages"


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind not installed")
def test_instruction_count_is_read_from_valgrind(one_site: Path) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import extract_instructions
    finally:
        sys.path.remove(str(ROOT / "bench"))
    assert extract_instructions.count("none", one_site) > 10**8  # an interpreter's start-up at least


@pytest.mark.parametrize("records", [True, False], ids=["with-records", "without-records"])
def test_profile_ratio_runs(one_site: Path, records: bool) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import extract_speed
    finally:
        sys.path.remove(str(ROOT / "bench"))
    from extractor import DEFAULT, Page
    from extractor.evaluation.corpus import iter_corpus

    sets = [[Page(None, p.read_bytes()) for p in s.page_files()] for s in iter_corpus(one_site)]
    ratio, sites = extract_speed.profile_ratio(sets, DEFAULT.but(comment_records=records), 1)
    assert sites == 1 and 0 < ratio < 100


def test_reading_ratios_run(one_site: Path) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import extract_speed
    finally:
        sys.path.remove(str(ROOT / "bench"))
    from extractor import DEFAULT, Page
    from extractor.evaluation.corpus import iter_corpus
    from extractor.speedups import _csax

    sets = [[Page(None, p.read_bytes()) for p in s.page_files()] for s in iter_corpus(one_site)]
    reading, floor = extract_speed.reading_ratios(sets, DEFAULT, 1)
    assert 0 < reading < 100
    # the tokenizer floor is printed when the streaming reader is built, and is below reading
    assert (floor is None) == (_csax is None)
    assert floor is None or 0 < floor < reading


def test_page_compression_prints_the_store_codec(corpus_root: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "page_compression.py"), "--corpus", str(corpus_root)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    line = next(row for row in done.stdout.splitlines() if row.startswith("gzip-6"))
    kib, ratio = float(line.split()[1]), float(line.split()[2])
    assert "<- the store" in line and kib > 0 and ratio > 2


@pytest.mark.slow
def test_the_scaling_bench_runs_both_parts_and_states_every_figure_on_its_last_line() -> None:
    cmd = [sys.executable, str(ROOT / "bench" / "distributed.py"), "--crawl-blogs", "6", "--crawl-articles", "2"]
    cmd += ["--crawl-workers", "1,2", "--blogs", "2", "--articles", "4", "--workers", "1", "--repeat", "1"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("crawl workers: 12 pages, 1 worker(s) "), last
    assert "2, one killed" in last and "pages lost 0, stored twice 0, not done 0, fetched twice 0" in last
    assert "articles without exactly one post 0, comments stored twice 0" in last
    assert "re-extraction on Dask: 16 pages" in last and "identical to single-process reextract: yes" in last


def test_the_crawl_bench_checks_comments_stored_against_comments_shown() -> None:
    sys.path.insert(0, str(ROOT))  # bench/ is not installed
    from bench.crawl_workers import comment_tally
    from farm.generated import BlogOptions, GeneratedBlog

    blog = GeneratedBlog("b", "http://127.0.0.1:8000", BlogOptions(articles=4, comments_per_article=(2, 4), seed=3))
    now = blog.articles[-1].published + 30 * 86400  # every comment out
    shown = [(a.url, c.text, c.author) for a in blog.articles for c in a.visible_comments(now)]
    exact = comment_tally(shown, blog.articles, now)
    assert exact.ok and exact.stored == exact.shown == exact.authors_right == len(shown) >= 8
    url, text, author = shown[0]
    doubled = comment_tally([*shown, (url, text, None)], blog.articles, now)  # one comment, a second row
    assert not doubled.ok and doubled.twice == 1 and doubled.authors_right == len(shown)
    unsigned = comment_tally([(url, text, None), *shown[1:]], blog.articles, now)
    assert not unsigned.ok and unsigned.authors_right == len(shown) - 1 and unsigned.twice == 0
    author_line = comment_tally([*shown, (url, f"{author} says:", None)], blog.articles, now)
    assert not author_line.ok and author_line.not_shown == 1 and author_line.stored == len(shown) + 1
    assert str(exact) == f"{len(shown)}/{len(shown)} (twice 0, not shown 0, authors {len(shown)}/{len(shown)})"


def test_the_comment_check_names_what_it_flags_and_counts_what_each_page_showed_when_fetched() -> None:
    sys.path.insert(0, str(ROOT))  # bench/ is not installed
    from bench.comment_tally import MISSING, NOT_A_COMMENT, TWICE, WRONG_AUTHOR, comment_tally, served_at
    from farm.generated import BlogOptions, GeneratedBlog

    blog = GeneratedBlog("b", "http://127.0.0.1:8000", BlogOptions(articles=4, comments_per_article=(2, 4), seed=3))
    late = blog.articles[-1].published + 30 * 86400  # every comment out
    first, second = blog.articles[0], blog.articles[1]
    # the first article's page was served before its last comment came: that comment is not missing
    early = first.comments[-1].time - 1
    pages = {("b", a.path): a.url for a in blog.articles}
    when = served_at([("b", a.path, 200, late) for a in blog.articles[1:]] + [("b", first.path, 200, early)], pages)
    stored = [(a.url, c.text, c.author, "batch") for a in blog.articles for c in a.visible_comments(when[a.url])]
    exact = comment_tally(stored, blog.articles, when)
    assert exact.ok and exact.stored == len(stored) == sum(len(a.comments) for a in blog.articles) - 1
    assert not comment_tally(stored, blog.articles, late).ok  # at the end of the run, one looks missing
    url, text, author, _method = stored[len(first.visible_comments(early))]  # the second article's first
    assert url == second.url
    wrong = [
        (url, f"{author} says:", None, "provisional"),  # an author line taken for the comment
        *[row for row in stored if row[:3] != (url, text, author)],
        (url, text, None, "provisional"),  # ... and the comment without its author
        (url, text, None, "profile"),  # ... twice
    ]
    tally = comment_tally(wrong, blog.articles, when)
    kinds = sorted(f.kind for f in tally.flagged)
    assert kinds == sorted([NOT_A_COMMENT, WRONG_AUTHOR, TWICE]) and tally.missing == 0
    line = next(str(f) for f in tally.flagged if f.kind == WRONG_AUTHOR)
    assert url in line and repr(text) in line and repr(author) in line and "provisional" in line
    dropped = comment_tally([row for row in stored if row[:3] != (url, text, author)], blog.articles, when)
    assert [(f.kind, f.article, f.farm_text, f.farm_author) for f in dropped.flagged] == [(MISSING, url, text, author)]


def test_the_farm_sets_bench_checks_the_crawl_benchs_blogs_without_a_crawl() -> None:
    cmd = [sys.executable, str(ROOT / "bench" / "farm_sets.py"), "--blogs", "30", "--check"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    first, verdict = out.stdout.strip().splitlines()[:2]
    assert first.startswith("30 blogs x 5 articles (en), provisional sets (+ home page beside 2 articles or more): "), first
    assert "(twice 0, not shown 0," in first and verdict == "no comment flagged", out.stdout


def test_two_articles_with_the_same_kind_words_keep_their_comments() -> None:
    """Blog 450 of the farm: two articles, each commented "Great write-up, thanks for sharing." by
    another reader. Step 4 drops the words both pages show, and the comment was its author line
    alone ("Grace Whitley says:"); the words are the comment's, its unit kept no others."""
    cmd = [sys.executable, str(ROOT / "bench" / "farm_sets.py"), "--blogs", "451", "--articles", "2", "--check"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    first, verdict = out.stdout.strip().splitlines()[:2]
    assert "(twice 0, not shown 0," in first and verdict == "no comment flagged", out.stdout
