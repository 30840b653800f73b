"""Sanity of the synthetic non-WordPress engine corpus (tests/engines): format, determinism, truth vs. page text.

These tests check the generator only; how well the extractor does on these pages is measured with
``python -m extractor evaluate --corpus`` on a generated corpus, not here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import lxml.html
import pytest

from tests.engines import ENGINES, build_corpus
from tests.engines.write import REGISTRY

PAGES = 14
NESTING = {"blogger-threaded", "drupal"}  # engines that show replies nested
PARENTS = NESTING | {"movabletype"}  # engines whose pages tell a reply's parent ("replied to comment from X")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("engines")
    build_corpus(root, seed=7, pages=PAGES)
    return root


def folder(root: Path, engine: str) -> Path:
    return root / REGISTRY[engine].source / engine


def truth(root: Path, engine: str) -> list[dict]:
    return [json.loads(line) for line in (folder(root, engine) / "truth.jsonl").read_text("utf-8").splitlines()]


def visible_text(path: Path) -> str:
    """The page's text as a reader sees it: UTF-8, no script / style / noscript, whitespace collapsed."""
    doc = lxml.html.fromstring(path.read_bytes().decode("utf-8"))
    for el in doc.xpath("//script|//style|//noscript|//template"):
        el.drop_tree()
    return " ".join(doc.text_content().split())


def norm(s: str) -> str:
    return " ".join(s.split())


def test_same_seed_gives_identical_bytes(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    build_corpus(a, seed=5, pages=6)
    build_corpus(b, seed=5, pages=6)
    build_corpus(c, seed=6, pages=6)
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    assert files and all((a / f).read_bytes() == (b / f).read_bytes() for f in files)
    assert any((a / f).read_bytes() != (c / f).read_bytes() for f in files if (c / f).is_file())


def test_build_corpus_returns_one_folder_per_engine(tmp_path: Path) -> None:
    out = build_corpus(tmp_path, seed=1, pages=3, engines=["drupal", "hatena-ja"])
    assert out == [tmp_path / "drupal" / "drupal", tmp_path / "hatena" / "hatena-ja"]
    with pytest.raises(ValueError, match="unknown engine"):
        build_corpus(tmp_path, engines=["wordpress"])


@pytest.mark.parametrize("engine", ENGINES)
def test_engine_writes_the_declared_pages(corpus: Path, engine: str) -> None:
    site = folder(corpus, engine)
    meta = json.loads((site / "site.json").read_text("utf-8"))
    rows = truth(corpus, engine)
    assert meta["site"] == engine and meta["pages"] == PAGES == len(rows)
    assert meta["comments_split"] is True and meta["lang"] == ("ja" if engine == "hatena-ja" else "en")
    assert meta["pages_with_comments"] == sum(1 for r in rows if r["comments"])
    assert sorted(p.name for p in (site / "pages").iterdir()) == sorted(Path(r["file"]).name for r in rows)
    for r in rows:
        assert set(r) == {"file", "url", "post", "comments", "title", "author", "date"}
        assert r["post"].split("\n")[0] == r["title"]
        for c in r["comments"]:
            assert set(c) == {"text", "author", "date", "parent", "id"}
            assert c["date"].endswith("Z") and c["text"] and c["author"]
        page = (site / r["file"]).read_text("utf-8")
        assert page.startswith("<!DOCTYPE") and page.rstrip().endswith("</html>")


@pytest.mark.parametrize("engine", ENGINES)
def test_truth_text_is_visible_on_the_page(corpus: Path, engine: str) -> None:
    for r in truth(corpus, engine):
        text = visible_text(folder(corpus, engine) / r["file"])
        lines = r["post"].split("\n") + [line for c in r["comments"] for line in c["text"].split("\n")]
        missing = [line for line in lines if norm(line) not in text]
        assert not missing, f"{r['file']}: {missing[:3]}"
        for c in r["comments"]:
            assert norm(c["author"]) in text


@pytest.mark.parametrize("engine", ENGINES)
def test_comment_shapes(corpus: Path, engine: str) -> None:
    rows = truth(corpus, engine)
    counts = [len(r["comments"]) for r in rows]
    replies = [c for r in rows for c in r["comments"] if c["parent"] is not None]
    if engine == "static-disqus":  # Disqus: no comment in any page
        assert counts == [0] * PAGES
        assert all('<div id="disqus_thread"></div>' in (folder(corpus, engine) / r["file"]).read_text() for r in rows)
        return
    assert 0 in counts and min(n for n in counts if n) <= 2 and max(counts) > 4  # none, few and many
    assert bool(replies) == (engine in PARENTS)
    for r in rows:
        ids = [c["id"] for c in r["comments"]]
        assert len(set(ids)) == len(ids) and all(c["parent"] in ids for c in r["comments"] if c["parent"] is not None)
    if engine == "blogger-threaded":  # one reply level: a reply's parent is a top comment
        tops = {c["id"] for r in rows for c in r["comments"] if c["parent"] is None}
        assert all(c["parent"] in tops for c in replies)
    if engine == "drupal":  # replies of replies exist and are nested in the page
        by = {c["id"]: c for r in rows for c in r["comments"]}
        assert any(by[c["parent"]]["parent"] is not None for c in replies)
        assert any('<div class="indented">' in (folder(corpus, engine) / r["file"]).read_text() for r in rows)


def test_cli_writes_the_engine_folder(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[1] / "scripts" / "make_engine_corpus.py"
    out = subprocess.run(
        [sys.executable, str(script), str(tmp_path), "--seed", "3", "--pages", "5", "--engine", "typepad"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.startswith("typepad: 5 pages")
    assert (tmp_path / "typepad" / "typepad" / "site.json").is_file()
