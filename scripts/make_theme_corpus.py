#!/usr/bin/env python3
"""Write synthetic WordPress blogs in the markup of themes that are not in the dev corpus (tests/themes).

    .venv/bin/python scripts/make_theme_corpus.py /tmp/themecorpus [--seed 7] [--pages 20] [--theme NAME ...]
    python3 ../shared/eval/score.py /tmp/themecorpus PRED.jsonl

Writes OUT_ROOT/wordpress/<theme>/site.json, truth.jsonl, pages/<post id>.html in the corpus format of
``../shared/corpus/README.md``, one site per theme: twentytwenty, twentynineteen, twentyseventeen,
classic-xhtml, astra-like, lightning-ja, generatepress, oceanwp, twentytwentyfour, kadence, swell-ja, twentyten,
twentyeleven, twentytwelve, twentythirteen, twentyfifteen, twentytwentythree, and (tests/themes/extra.py) neve,
blocksy, divi-like, storefront, hello-elementor, sango-ja, jin-ja, affinger-ja.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.themes import THEMES, build_corpus  # noqa: E402
from tests.themes.write import summary  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write synthetic WordPress theme sites in the corpus format.")
    ap.add_argument("out_root", type=Path, help="corpus root; writes OUT_ROOT/wordpress/<theme>/")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--pages", type=int, default=20, help="posts per site (default 20)")
    ap.add_argument("--theme", action="append", choices=THEMES, help="only this theme (repeatable; default all)")
    args = ap.parse_args(argv)
    for folder in build_corpus(args.out_root, seed=args.seed, pages=args.pages, themes=args.theme):
        print(summary(folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
