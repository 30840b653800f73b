"""Extraction cost as ratios of instruction counts to lxml parsing, which machine load does not move.

    python bench/extract_instructions.py [--corpus ../shared/corpus]

Needs valgrind. Each measurement is a fresh interpreter under ``valgrind --tool=callgrind`` (so
every memo starts cold) running one workload over the whole corpus; the instructions of an
interpreter that only loads the corpus are subtracted from each. Prints:
1. set extraction of every corpus site / lxml.html parsing of the same pages (the CPU-time
   target of issue 3 is 2.5);
2. single-page profile extraction of the later half of each site of 4+ pages, with a profile
   learned from the first half and the date memos then cleared / parsing of those pages (target
   1.5); the learning (with the profile's fingerprint index, built once in a profile's life as
   extract_speed.py builds it before timing) is measured on its own and subtracted.

Slow (about five minutes: valgrind runs Python some fifty times slower), and exact to a few
parts in a thousand from run to run, where CPU-time ratios drift by 10-15 % on a shared machine.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKLOADS = ("none", "parse", "parse_later", "set", "learn", "learn_and_extract")


def run_workload(name: str, corpus: Path) -> None:
    """The workload itself (run inside valgrind by ``count``)."""
    sys.path.insert(0, str(ROOT))
    import lxml.html

    from extractor import Page, extract_site, learn_profile
    from extractor.core.dates import clear_memos
    from extractor.evaluation.corpus import iter_corpus

    sets = [[Page(None, f.read_bytes()) for f in s.page_files()] for s in iter_corpus(corpus)]
    halves = [(s[: len(s) // 2], s[len(s) // 2 :]) for s in sets if len(s) >= 4]
    if name == "parse":
        for pages in sets:
            for p in pages:
                lxml.html.document_fromstring(p.body)
    elif name == "parse_later":
        for _, later in halves:
            for p in later:
                lxml.html.document_fromstring(p.body)
    elif name == "set":
        for pages in sets:
            extract_site(pages)
    elif name in ("learn", "learn_and_extract"):
        for first, later in halves:
            profile = learn_profile(first)
            profile.index()  # built once in a profile's life, not per page (as extract_speed.py)
            if name == "learn_and_extract":
                clear_memos()  # cold, as extract_speed.py times it: no dates read while learning
                for p in later:
                    profile.extract(p)
    print(f"{name}: {len(sets)} sets, {sum(map(len, sets))} pages")


def count(name: str, corpus: Path) -> int:
    """Instructions of one workload in a fresh interpreter under callgrind."""
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--workload",
        name,
        "--corpus",
        str(corpus),
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from valgrind for {name}:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--workload", choices=WORKLOADS, help=argparse.SUPPRESS)
    a = ap.parse_args()
    corpus = Path(a.corpus)
    if a.workload:
        run_workload(a.workload, corpus)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt install valgrind)", file=sys.stderr)
        return 2
    counts = {}
    for name in WORKLOADS:
        counts[name] = count(name, corpus)
        print(f"  {name:18s} {counts[name] / 1e9:7.3f} G instructions", flush=True)
    base = counts["none"]
    parse, later = counts["parse"] - base, counts["parse_later"] - base
    extract = counts["learn_and_extract"] - counts["learn"]
    print(f"set extraction / lxml parse      = {(counts['set'] - base) / parse:5.2f}  (instructions)")
    print(f"profile extraction / lxml parse  = {extract / later:5.2f}  (instructions, later halves)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
