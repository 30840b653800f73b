"""Run a blog farm in the foreground: `python -m farm [--corpus] [--generated N] [--port-file F]`.

Prints one feeds.txt line per site (feed URL, then site name) and keeps serving until SIGINT or
SIGTERM. Generated blogs are backdated so that all their articles and comments are visible.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from pathlib import Path

from farm.server import BlogFarm


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m farm", description=__doc__.splitlines()[0])
    p.add_argument("--corpus", action="store_true", help="serve every WordPress corpus site")
    p.add_argument("--corpus-root", type=Path, default=None, help="corpus folder (default ../shared/corpus)")
    p.add_argument("--generated", type=int, default=0, metavar="N", help="serve N generated blogs gen1..genN")
    p.add_argument("--articles", type=int, default=20, help="articles per generated blog (default 20)")
    p.add_argument("--comments", type=int, nargs=2, default=(0, 5), metavar=("MIN", "MAX"))
    p.add_argument("--feed-items", type=int, default=None, help="items per feed (default: all)")
    p.add_argument("--lang", default="en", choices=("en", "ja"))
    p.add_argument("--encoding", default="utf-8", help="utf-8, shift_jis or euc-jp")
    p.add_argument("--feed-format", default="rss", choices=("rss", "atom"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--port-file", type=Path, default=None, help="also write the feed lines to this file")
    args = p.parse_args(argv)
    if not args.corpus and args.generated == 0:
        args.corpus = True  # something to serve by default
    return args


def _write_atomically(path: Path, text: str) -> None:
    # Readers poll for the file; the rename makes it appear complete.
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    with BlogFarm(corpus_root=args.corpus_root) as farm:
        if args.corpus:
            farm.serve_corpus()
        interval = 3600.0
        backdate = args.articles * interval + 2 * 86400  # every article and comment already visible
        for i in range(1, args.generated + 1):
            farm.add_generated_blog(
                f"gen{i}",
                articles=args.articles,
                start=farm.clock.now() - backdate,
                interval=interval,
                comments_per_article=tuple(args.comments),
                comment_delays=(600, 86400),
                lang=args.lang,
                encoding=args.encoding,
                feed_format=args.feed_format,
                seed=args.seed + i,
                feed_items=args.feed_items,
            )
        lines = "".join(line + "\n" for line in farm.feed_lines())
        if args.port_file is not None:
            _write_atomically(args.port_file, lines)
        sys.stdout.write(lines)
        sys.stdout.flush()
        done.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
