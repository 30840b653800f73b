"""The whole pipeline on this machine, offline: a local blog farm, two real crawl runs, the query commands.

    python scripts/demo.py [--db demo.db] [--articles 12]      (`make demo`)

1. Starts a blog farm on 127.0.0.1 (farm/): the four WordPress sites of ../shared/corpus
   (English and Japanese) and two generated blogs whose readers keep commenting.
2. Runs `scrapy crawl blogs` against it (a subprocess, a temporary feeds file, `-s BLOGS_DB=...`):
   every page is stored, batched per site, extracted, and a profile is learned per site.
3. Moves the farm's clock three hours on (new comments arrive) and crawls again: the due
   re-fetches read the comment feeds and the pages, and the new comments are added to the store.
4. Prints what `scrapy sites`, `scrapy posts`, `scrapy comments` and `scrapy search` show.

Without --db the store is a temporary file, removed at the end. Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from farm import BlogFarm  # noqa: E402

HOUR = 3600.0


def scrapy(*args: str, db: Path, offset: float = 0.0, quiet: bool = False) -> str:
    """Run a scrapy command of the project; returns its stdout (its log is shown only on failure)."""
    cmd = [sys.executable, "-m", "scrapy", *args, "-s", f"BLOGS_DB={db}", "-s", f"BLOGS_CLOCK_OFFSET={offset:.3f}"]
    cmd += ["-s", "BLOGS_CONTACT=mailto:demo@example.invalid"]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), "COLUMNS": "140"}
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f"scrapy {args[0]} failed with exit code {proc.returncode}")
    if not quiet:
        summary = re.findall(r"Run summary: (.*)", proc.stderr)
        for line in summary:
            print(f"  run summary: {line}")
        for line in re.findall(r"\] WARNING: (.*)", proc.stderr):
            if "BLOGS_CONTACT" not in line:
                print(f"  warning: {line}")
    return proc.stdout


def show(title: str, text: str) -> None:
    print(f"\n== {title}\n{text.rstrip()}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path, default=None, help="keep the store in this file (default: a temporary one)")
    p.add_argument("--articles", type=int, default=12, help="articles per generated blog (default 12)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="blogs-demo-") as tmp, BlogFarm() as farm:
        db = args.db.resolve() if args.db else Path(tmp) / "demo.db"
        t0 = time.time()
        farm.clock.set(t0)
        corpus = farm.serve_corpus()
        # Articles appear every 20 minutes up to now; readers comment from 10 minutes to 5 hours later.
        start = t0 - (args.articles - 1) * 20 * 60
        for name, lang, seed in (("notebook", "en", 7), ("nikki", "ja", 8)):
            farm.add_generated_blog(
                name,
                articles=args.articles,
                start=start,
                interval=20 * 60,
                comments_per_article=(1, 5),
                comment_delays=(600, 5 * HOUR),
                lang=lang,
                seed=seed,
            )
        feeds = Path(tmp) / "feeds.txt"
        feeds.write_text("".join(line + "\n" for line in farm.feed_lines()), encoding="utf-8")
        print(f"Blog farm on 127.0.0.1: {len(corpus)} WordPress corpus sites and 2 generated blogs")
        print(f"Store: {db}")

        print("\n== crawl 1: every article is fetched, stored, batched per site and extracted")
        scrapy("crawl", "blogs", "-a", f"feeds={feeds}", "-s", "REFETCH_AFTER=1h,2h,6h", db=db)
        farm.clock.advance(3 * HOUR)
        offset = farm.clock.now() - time.time()
        print("\n== crawl 2, three hours later: due re-fetches read comment feeds and pages, new comments are added")
        scrapy("crawl", "blogs", "-a", f"feeds={feeds}", "-s", "REFETCH_AFTER=1h,2h,6h", db=db, offset=offset)

        show("scrapy sites", scrapy("sites", db=db, quiet=True))
        show("scrapy posts --limit 6", scrapy("posts", "--limit", "6", db=db, quiet=True))
        show(
            "scrapy comments --site notebook --limit 10",
            scrapy("comments", "--site", "notebook", "--limit", "10", db=db, quiet=True),
        )
        show(
            "scrapy comments --site cocoon --limit 5",
            scrapy("comments", "--site", "cocoon", "--limit", "5", db=db, quiet=True),
        )
        show('scrapy search "shooting board"', scrapy("search", "shooting board", db=db, quiet=True))
        show('scrapy search "ベランダ" (Japanese)', scrapy("search", "ベランダ", db=db, quiet=True))
        print(
            f"\nMore: scrapy posts --format jsonl -s BLOGS_DB={db} | head; sqlite-utils tables {db} --counts;"
            " datasette (see docs/schema.md)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
