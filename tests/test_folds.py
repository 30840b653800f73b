"""``python -m extractor evaluate --folds 2``: Dragnet sites in two fixed halves, scored apart."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

MAIN = Path(__file__).resolve().parents[1]
SHARED = MAIN.parent / "shared"
# small sites, both folds holding sites with and without comment truth
DRAGNET = [
    "eater.com",
    "geeksaresexy.net",
    "legalnomads.com",
    "personalbrandingblog.com",
    "scotthyoung.com",
    "webdesignfromscratch.com",
]
TOL = 1e-9


def run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *map(str, args)], cwd=MAIN, capture_output=True, text=True, timeout=300, check=False
    )


def parity_fold(site: str) -> str:
    """The fold as the brief defines it, computed here independently: sha1's first byte parity."""
    return "AB"[hashlib.sha1(site.encode()).digest()[0] % 2]


@pytest.fixture(scope="module")
def corpus(corpus_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("folds")
    for source, sites in (("dragnet", DRAGNET), ("wordpress", ["tt22"])):
        (root / source).mkdir()
        for site in sites:
            (root / source / site).symlink_to(corpus_root / source / site, target_is_directory=True)
    return root


@pytest.fixture(scope="module")
def evaluated(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path, list[str]]:
    out = tmp_path_factory.mktemp("folds-out")
    report, preds = out / "report.json", out / "preds.jsonl"
    done = run(
        "-m", "extractor", "evaluate", "--corpus", corpus, "--folds", "2", "--jobs", "2",
        "--json", report, "--predictions", preds,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(report.read_text()), preds, done.stdout.splitlines()


def test_the_halves_are_the_sha1_parity_of_the_site_names(evaluated: tuple[dict, Path, list[str]]) -> None:
    report, _, lines = evaluated
    folds = report["folds"]
    assert set(folds) == {"A", "B"}
    for label in "AB":
        assert folds[label]["sites"] == sorted(s for s in DRAGNET if parity_fold(s) == label)
        assert any(line.startswith(f"fold {label} (") and folds[label]["sites"][0] in line for line in lines)
    assert folds["A"]["sites"] and folds["B"]["sites"]


@pytest.mark.parametrize("label", ["A", "B"])
def test_each_fold_scores_as_the_reference_scorer_on_its_sites(
    evaluated: tuple[dict, Path, list[str]], corpus: Path, tmp_path: Path, label: str
) -> None:
    report, preds, _ = evaluated
    fold = report["folds"][label]
    theirs_json = tmp_path / "theirs.json"
    sites = [arg for site in fold["sites"] for arg in ("--site", site)]
    done = run(SHARED / "eval" / "score.py", corpus, preds, "--source", "dragnet", *sites, "--json", theirs_json)
    assert done.returncode == 0, done.stderr
    theirs = json.loads(theirs_json.read_text())
    assert sorted(s["site"] for s in theirs["sites"]) == fold["sites"]
    for kind in ("macro", "micro"):
        for key in ("post_p", "post_r", "post_f1", "com_p", "com_r", "com_f1"):
            if theirs[kind][key] is None:
                assert fold[kind][key] is None, (kind, key)
            else:
                assert fold[kind][key] == pytest.approx(theirs[kind][key], abs=TOL), (kind, key)
    for key in ("pages", "zero_fp", "zero_pages", "cmt_missed", "cmt_pages", "com_tp", "post_tp"):
        assert fold["micro"][key] == theirs["micro"][key], key


def test_the_folds_are_printed_beside_wordpress_and_the_summary_stays_last(
    evaluated: tuple[dict, Path, list[str]],
) -> None:
    report, _, lines = evaluated
    start = next(i for i, line in enumerate(lines) if line.startswith("2-fold cross-validation"))
    section = lines[start:]
    for label in "AB":
        n = len(report["folds"][label]["sites"])
        macro_line = next(line for line in section if line.startswith(f"fold {label} MACRO"))
        assert macro_line.startswith(f"fold {label} MACRO ({n} sites")
        f1 = report["folds"][label]["macro"]["post_f1"]
        assert f"{f1:6.3f}" in macro_line
        micro_line = next(line for line in section if line.startswith(f"fold {label} micro"))
        micro = report["folds"][label]["micro"]
        assert micro_line.rstrip().endswith(
            f"{micro['zero_fp']:>3}/{micro['zero_pages']:<3} {micro['cmt_missed']:>3}/{micro['cmt_pages']:<3}".rstrip()
        )
    assert any(line.startswith("wordpress MACRO (1 sites") for line in section)
    assert lines[-1].startswith("SUMMARY")


def test_folds_is_in_the_help() -> None:
    done = run("-m", "extractor", "evaluate", "--help")
    assert done.returncode == 0
    assert "--folds" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--folds", "1"], "--folds must be 2 to"), (["--folds", "two"], "invalid int")],
    ids=["one-fold", "not-a-number"],
)
def test_bad_fold_counts_exit_2(corpus: Path, args: list[str], message: str) -> None:
    done = run("-m", "extractor", "evaluate", "--corpus", corpus, *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_folds_without_dragnet_sites_exit_2(corpus: Path) -> None:
    done = run("-m", "extractor", "evaluate", "--corpus", corpus, "--source", "wordpress", "--folds", "2")
    assert done.returncode == 2
    assert "has none" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_empty_fold_says_so(corpus: Path) -> None:
    site = next(s for s in DRAGNET if parity_fold(s) == "B")
    done = run("-m", "extractor", "evaluate", "--corpus", corpus, "--source", "dragnet", "--site", site, "--folds", "2")
    assert done.returncode == 0, done.stderr
    assert "fold A: no dragnet site in this fold" in done.stdout
    assert any(line.startswith("FOLD B:") for line in done.stdout.splitlines())
