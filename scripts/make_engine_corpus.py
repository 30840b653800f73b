#!/usr/bin/env python3
"""Write synthetic blogs of engines other than WordPress, in their default templates' markup (tests/engines).

    .venv/bin/python scripts/make_engine_corpus.py /tmp/enginecorpus [--seed 7] [--pages 20] [--engine NAME ...]
    .venv/bin/python -m extractor evaluate --corpus /tmp/enginecorpus

Writes OUT_ROOT/<source>/<engine>/site.json, truth.jsonl, pages/<post id>.html in the corpus format of
``../shared/corpus/README.md``, one site per engine: blogger-threaded, blogger-classic (source blogger),
movabletype, hatena-ja (hatena), drupal, typepad, static-disqus (static).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.engines import ENGINES, build_corpus  # noqa: E402
from tests.engines.write import summary  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write synthetic non-WordPress blog sites in the corpus format.")
    ap.add_argument("out_root", type=Path, help="corpus root; writes OUT_ROOT/<source>/<engine>/")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--pages", type=int, default=20, help="posts per site (default 20)")
    ap.add_argument("--engine", action="append", choices=ENGINES, help="only this engine (repeatable; default all)")
    args = ap.parse_args(argv)
    if args.pages < 1:
        ap.error("--pages must be at least 1")
    for folder in build_corpus(args.out_root, seed=args.seed, pages=args.pages, engines=args.engine):
        print(summary(folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
