"""Golden tests: the DEFAULT preset's output on a few corpus sites, page by page, and score floors.

``tests/golden/<name>/expected.jsonl`` is the expected output per page; the pages stay in
``../shared/corpus``. After an intended change of the output, regenerate with
``.venv/bin/python scripts/regen_golden.py`` and review ``git diff tests/golden`` (see the script).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from extractor import Page, extract_site
from extractor.evaluation.corpus import iter_corpus

MAIN = Path(__file__).resolve().parents[1]
REGEN_HINT = "intended? run .venv/bin/python scripts/regen_golden.py and review git diff tests/golden"


def _load_regen():
    spec = importlib.util.spec_from_file_location("regen_golden", MAIN / "scripts" / "regen_golden.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


regen = _load_regen()
NAMES = regen.golden_sites()
EXPECTED = {name: {row["file"]: row for row in regen.read_expected(name)} for name in NAMES}
PAGES = [(name, file) for name in NAMES for file in EXPECTED[name]]
PAGE_IDS = [f"{name}/{Path(file).name}" for name, file in PAGES]


@functools.cache
def actual(name):
    """The DEFAULT extraction of a golden site's set, by file (computed once per site)."""
    corpus = MAIN.parent / "shared" / "corpus"
    if not corpus.is_dir():
        pytest.fail(f"evaluation corpus missing: {corpus}", pytrace=False)
    return {row["file"]: row for row in regen.extract_rows(corpus, regen.corpus_site_of(name))}


def test_golden_sites_present():
    assert {"tt21", "cocoon", "blog.ted.com", "poynter.org", "scotthyoung.com"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_golden_covers_every_page(name):
    assert sorted(actual(name)) == sorted(EXPECTED[name])


@pytest.mark.parametrize(("name", "file"), PAGES, ids=PAGE_IDS)
def test_golden_post(name, file):
    assert actual(name)[file]["post"] == EXPECTED[name][file]["post"], REGEN_HINT


@pytest.mark.parametrize(("name", "file"), PAGES, ids=PAGE_IDS)
def test_golden_comments(name, file):
    assert actual(name)[file]["comments"] == EXPECTED[name][file]["comments"], REGEN_HINT


# ---------------------------------------------------------------- dev-corpus score floors

# About 0.02 under the DEFAULT preset's scores measured with
# `.venv/bin/python -m extractor evaluate --corpus ../shared/corpus` when these floors were last set
# (ALL macro post 0.902 / comments 0.671, micro 0.871 / 0.814; WordPress 0.992 / 0.999, count-exact
# 0.992; Dragnet macro 0.891 / 0.570, micro 0.843 / 0.801; Dragnet sets with a comment-free page
# 0.943). Raise them as results improve. Comment floors raised when unsplit gold (Dragnet) began to be
# scored on `comment_section` (ALL macro comments 0.975, micro 0.994; Dragnet 0.966 / 0.994).
FLOORS = {
    "ALL-macro-post_f1": 0.88,
    "ALL-macro-com_f1": 0.9,
    "ALL-micro-post_f1": 0.85,
    "ALL-micro-com_f1": 0.95,
    "wordpress-macro-post_f1": 0.97,
    "wordpress-macro-com_f1": 0.975,
    "wordpress-micro-post_f1": 0.97,
    "wordpress-micro-com_f1": 0.975,
    "wordpress-micro-count_exact_rate": 0.97,
    "dragnet-macro-post_f1": 0.87,
    "dragnet-macro-com_f1": 0.9,
    "dragnet-micro-post_f1": 0.82,
    "dragnet-micro-com_f1": 0.95,
    "dragnet-macro_with_comment_free_page-post_f1": 0.92,
}


@pytest.fixture(scope="module")
def dev_report(corpus_root, tmp_path_factory):
    """`python -m extractor evaluate --corpus ../shared/corpus --json OUT` (the DEFAULT preset)."""
    out = tmp_path_factory.mktemp("dev") / "report.json"
    run = subprocess.run(
        [sys.executable, "-m", "extractor", "evaluate", "--corpus", str(corpus_root), "--json", str(out)],
        cwd=MAIN,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("key", sorted(FLOORS))
def test_dev_corpus_score_floor(dev_report, key):
    scope, kind, metric = key.split("-")
    numbers = dev_report[kind] if scope == "ALL" else dev_report["sources"][scope][kind]
    assert numbers[metric] >= FLOORS[key]


def test_tt21_minus_one_page_keeps_category_lines_out_of_comments(corpus_root):
    (site,) = list(iter_corpus(corpus_root, ["wordpress"], ["tt21"]))
    kept = [(f, t) for f, t in zip(site.page_files(), site.truth, strict=True) if f.name != "34.html"]
    out = extract_site([Page(None, f.read_bytes()) for f, _ in kept])
    false_comments = [c for x, (_, t) in zip(out, kept, strict=True) if not t["comments"] for c in x.comments]
    assert false_comments == []
