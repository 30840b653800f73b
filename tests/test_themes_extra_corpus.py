"""Sanity of the eight extra synthetic theme blogs (tests/themes/extra.py): files, determinism, truth vs page text.

No extraction here: these tests only check that the generated corpus is what the truth says it is.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.themes.extra import EXTRA_PAGES, EXTRA_SITES, EXTRA_THEMES
from tests.themes.model import SITES, build_site
from tests.themes.write import PAGES, write_site

SEEDS = (3, 11)


class _Text(HTMLParser):
    """The visible text of a page: everything outside <head>, <script> and <style>, whitespace collapsed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("head", "script", "style"):
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("head", "script", "style"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def visible(html: str) -> str:
    p = _Text()
    p.feed(html)
    return " ".join("".join(p.parts).split())


def norm(s: str) -> str:
    return " ".join(s.split())


def write(root: Path, theme: str, seed: int, pages: int = 12) -> Path:
    out = root / "wordpress" / theme
    write_site(out, build_site(theme, seed, pages), EXTRA_PAGES[theme])
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    roots = {}
    for seed in SEEDS:
        roots[seed] = tmp_path_factory.mktemp(f"extra-{seed}")
        for theme in EXTRA_THEMES:
            write(roots[seed], theme, seed)
    return roots


def rows(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "truth.jsonl").read_text("utf-8").splitlines()]


def test_registration() -> None:
    assert len(EXTRA_THEMES) == 8
    assert set(EXTRA_PAGES) == set(EXTRA_SITES)
    assert set(EXTRA_PAGES) <= set(PAGES)  # registered in write.PAGES, so build_corpus and the theme tests use them
    assert len(PAGES) == 17 + len(EXTRA_PAGES)  # new themes, not the existing ones under new names
    for theme, cfg in EXTRA_SITES.items():
        assert SITES[theme] is cfg


@pytest.mark.parametrize("theme", EXTRA_THEMES)
def test_same_seed_same_bytes(tmp_path: Path, corpus: dict[int, Path], theme: str) -> None:
    again = write(tmp_path, theme, SEEDS[0])
    first = corpus[SEEDS[0]] / "wordpress" / theme
    names = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for name in names:
        assert (first / name).read_bytes() == (again / name).read_bytes(), name


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("theme", EXTRA_THEMES)
def test_truth_text_is_on_the_page(corpus: dict[int, Path], theme: str, seed: int) -> None:
    folder = corpus[seed] / "wordpress" / theme
    meta = json.loads((folder / "site.json").read_text("utf-8"))
    assert meta["site"] == theme and meta["pages"] == 12 and meta["comments_split"] is True
    assert meta["lang"] == EXTRA_SITES[theme]["lang"]
    for row in rows(folder):
        html = (folder / row["file"]).read_text("utf-8")
        text = visible(html)
        for line in row["post"].split("\n"):
            assert norm(line) in text, f"{row['file']}: post line {line!r}"
        ids = {c["id"] for c in row["comments"]}
        for c in row["comments"]:
            assert c["parent"] is None or c["parent"] in ids
            assert f"comment-{c['id']}" in html
            assert c["author"] and c["date"].endswith("Z")
            for para in c["text"].split("\n"):
                assert norm(para) in text, f"{row['file']}: comment {c['id']} {para!r}"


@pytest.mark.parametrize("theme", EXTRA_THEMES)
def test_pages_with_and_without_comments_and_nested_replies(corpus: dict[int, Path], theme: str) -> None:
    all_rows = [r for seed in SEEDS for r in rows(corpus[seed] / "wordpress" / theme)]
    assert any(not r["comments"] for r in all_rows)
    assert any(r["comments"] for r in all_rows)
    assert any(c["parent"] is not None for r in all_rows for c in r["comments"])  # every one of these themes nests
