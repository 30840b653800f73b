"""Bytes per stored page: raw against the store's gzip, and the alternatives that were measured.

    python bench/page_compression.py [--corpus ../shared/corpus]

Reads every .html page of the corpus, compresses each one alone as the store does (one blob per
snapshot), and prints KiB per page and the ratio for: gzip level 6 (what the store writes:
store.pages.gzip_body), zlib level 9, and zstd levels 3 and 19 when the `zstandard` package is
installed (it is not a dependency). One run, one machine; times are per page.

Measured on 2026-11-26 on the dev corpus (392 pages, 87.4 KiB raw per page):

    codec      KiB/page  ratio  ms/page
    gzip-6         16.2   5.39     1.50   <- the store
    zlib-9         16.1   5.42     2.61
    zstd-3         16.8   5.19     0.28
    zstd-19        14.7   5.94    38.05

zstd would save 9% at level 19 for 25 times the CPU, or nothing at level 3: the store keeps gzip,
which the standard library reads and any SQL client's user can gunzip.
"""

from __future__ import annotations

import argparse
import gzip
import time
import zlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def codecs() -> dict[str, Callable[[bytes], bytes]]:
    found: dict[str, Callable[[bytes], bytes]] = {
        "gzip-6": lambda b: gzip.compress(b, compresslevel=6, mtime=0),
        "zlib-9": lambda b: zlib.compress(b, 9),
    }
    try:
        import zstandard
    except ImportError:
        return found
    found["zstd-3"] = zstandard.ZstdCompressor(level=3).compress
    found["zstd-19"] = zstandard.ZstdCompressor(level=19).compress
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = parser.parse_args()
    pages = [p.read_bytes() for p in sorted(args.corpus.rglob("*.html"))]
    if not pages:
        raise SystemExit(f"page_compression: no .html pages under {args.corpus}")
    raw = sum(map(len, pages))
    print(f"{len(pages)} pages, {raw / len(pages) / 1024:.1f} KiB raw per page")
    print(f"{'codec':<10} {'KiB/page':>8} {'ratio':>6} {'ms/page':>8}")
    for name, compress in codecs().items():
        started = time.perf_counter()
        stored = sum(len(compress(page)) for page in pages)
        ms = (time.perf_counter() - started) / len(pages) * 1000
        mark = "   <- the store" if name == "gzip-6" else ""
        print(f"{name:<10} {stored / len(pages) / 1024:>8.1f} {raw / stored:>6.2f} {ms:>8.2f}{mark}")
    if "zstd-3" not in codecs():
        print("zstd: not measured (pip install zstandard to compare)")


if __name__ == "__main__":
    main()
