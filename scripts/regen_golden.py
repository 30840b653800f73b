#!/usr/bin/env python3
"""Regenerate the golden expected outputs of ``tests/test_golden.py`` (fundus-style golden tests).

Layout: ``tests/golden/<name>/site.json`` names the corpus site (``{"corpus": "wordpress/tt21"}``,
relative to the corpus root) and ``tests/golden/<name>/expected.jsonl`` holds, one JSON line per
page of that site, the DEFAULT preset's output: ``{"file": "pages/32.html", "post": str,
"comments": [str, ...]}``. The pages themselves stay in ``../shared/corpus``; nothing is copied.

Usage (from the project root)::

    .venv/bin/python scripts/regen_golden.py                      # every golden site
    .venv/bin/python scripts/regen_golden.py tt21 cocoon          # some of them
    .venv/bin/python scripts/regen_golden.py --add wordpress/tt16 # a new golden site
    .venv/bin/python scripts/regen_golden.py --check              # exit 1 if any file would change

Run it after an intended change of the extractor's output, read ``git diff tests/golden`` page by
page (every changed line is a changed extraction), and commit the new expected files with the
change that caused them. An unintended diff is a regression: fix the code instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"

sys.path.insert(0, str(ROOT))

from extractor import DEFAULT, Page, extract_site  # noqa: E402
from extractor.evaluation.corpus import iter_corpus  # noqa: E402


def golden_sites() -> list[str]:
    """Names of the golden folders (each has a site.json)."""
    return sorted(p.parent.name for p in GOLDEN.glob("*/site.json"))


def corpus_site_of(name: str) -> str:
    return str(json.loads((GOLDEN / name / "site.json").read_text(encoding="utf-8"))["corpus"])


def extract_rows(corpus: Path, corpus_site: str) -> list[dict[str, object]]:
    """The DEFAULT extraction of one corpus site, its pages as one set (as ``evaluate`` does)."""
    source, site = corpus_site.split("/", 1)
    (found,) = list(iter_corpus(corpus, [source], [site]))
    files = found.page_files()
    results = extract_site([Page(None, f.read_bytes()) for f in files], DEFAULT)
    return [
        {"file": f.relative_to(found.dir).as_posix(), "post": r.post, "comments": r.comments}
        for f, r in zip(files, results, strict=True)
    ]


def render(rows: list[dict[str, object]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def read_expected(name: str) -> list[dict[str, object]]:
    path = GOLDEN / name / "expected.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="golden folder names (default: all)")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="corpus root (default ../shared/corpus)")
    ap.add_argument("--add", metavar="SOURCE/SITE", action="append", default=[], help="add a corpus site")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file would change")
    a = ap.parse_args(argv)
    for corpus_site in a.add:
        name = corpus_site.split("/", 1)[1]
        (GOLDEN / name).mkdir(parents=True, exist_ok=True)
        (GOLDEN / name / "site.json").write_text(json.dumps({"corpus": corpus_site}) + "\n", encoding="utf-8")
        a.names.append(name)
    names = a.names or golden_sites()
    unknown = [n for n in names if not (GOLDEN / n / "site.json").is_file()]
    if unknown:
        ap.error(f"no golden folder with site.json: {', '.join(unknown)}")
    stale = 0
    for name in names:
        text = render(extract_rows(a.corpus, corpus_site_of(name)))
        path = GOLDEN / name / "expected.jsonl"
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        if old == text:
            print(f"{name}: unchanged")
            continue
        stale += 1
        if a.check:
            print(f"{name}: would change")
            continue
        path.write_text(text, encoding="utf-8")
        print(f"{name}: written ({text.count(chr(10))} pages)")
    return 1 if a.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
