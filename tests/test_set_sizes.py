"""``evaluate --single`` and ``--set-size K``: a site's pages in fixed random sets of K (issue 28)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from extractor.evaluation.set_sizes import page_sets

MAIN = Path(__file__).resolve().parents[1]
SHARED = MAIN.parent / "shared"


@pytest.mark.parametrize(("n_pages", "size"), [(1, 1), (7, 1), (7, 2), (7, 3), (10, 5), (4, 5), (23, 3)])
def test_every_page_is_scored_once_in_a_set_of_k_pages(n_pages: int, size: int) -> None:
    sets = page_sets(n_pages, size, "site.example")
    scored = sorted(i for s in sets for i in s.scored)
    assert scored == list(range(n_pages))
    for s in sets:
        assert len(s.pages) == min(size, n_pages)
        assert len(set(s.pages)) == len(s.pages)
        assert set(s.scored) <= set(s.pages)


def test_the_sets_are_fixed_by_site_and_size() -> None:
    first = [s.pages for s in page_sets(12, 3, "a.example")]
    assert first == [s.pages for s in page_sets(12, 3, "a.example")]
    assert first != [s.pages for s in page_sets(12, 3, "b.example")]
    assert first != [s.pages for s in page_sets(12, 2, "a.example")[:4]]


def run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *map(str, args)], cwd=MAIN, capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def corpus(corpus_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sizes")
    for source, site in (("wordpress", "tt21"), ("dragnet", "scotthyoung.com")):
        (root / source).mkdir()
        (root / source / site).symlink_to(corpus_root / source / site, target_is_directory=True)
    return root


@pytest.mark.parametrize("mode", [["--single"], ["--set-size", "3"]], ids=["single", "sets-of-3"])
def test_small_sets_score_as_the_reference_scorer_beside_full_sets(
    corpus: Path, tmp_path: Path, mode: list[str]
) -> None:
    report, preds = tmp_path / "report.json", tmp_path / "preds.jsonl"
    done = run(
        "-m", "extractor", "evaluate", "--corpus", corpus, *mode, "--jobs", "2",
        "--json", report, "--predictions", preds,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ours = json.loads(report.read_text())
    files = [json.loads(line)["file"] for line in preds.read_text().splitlines()]
    assert len(files) == len(set(files)) == 30 + 6  # tt21 and scotthyoung pages, one line each
    scored = run(SHARED / "eval" / "score.py", corpus, preds, "--json", tmp_path / "ref.json")
    assert scored.returncode == 0, scored.stderr
    ref = json.loads((tmp_path / "ref.json").read_text())
    for key in ("post_f1", "com_f1"):
        assert ours["macro"][key] == pytest.approx(ref["macro"][key], abs=1e-12)
    assert ours["set_size"] == (1 if mode == ["--single"] else 3)
    assert ours["full_set"]["macro"]["post_f1"] > 0.9
    lines = done.stdout.splitlines()
    label = "single" if mode == ["--single"] else "sets of 3"
    assert any(label in line and "full sets" in line for line in lines)
    assert any(line.startswith("ALL ") for line in lines)


def test_set_size_below_one_is_refused(corpus: Path) -> None:
    done = run("-m", "extractor", "evaluate", "--corpus", corpus, "--set-size", "0")
    assert done.returncode == 2
    assert "--set-size" in done.stderr and "Traceback" not in done.stderr
