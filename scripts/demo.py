"""The whole pipeline on this machine, offline: a local blog farm, two real crawl runs, the query commands.

    python scripts/demo.py [--db demo.db] [--articles 12] [--corpus-root ../shared/corpus]   (`make demo`)

1. Starts a blog farm on 127.0.0.1 (farm/): the four WordPress sites of ../shared/corpus
   (English and Japanese) when that folder is there, and two generated blogs whose readers keep
   commenting.
2. Runs `scrapy crawl blogs` against it (a subprocess, a temporary feeds file, `-s BLOGS_DB=...`):
   every page is stored, batched per site, extracted, and a profile is learned per site.
3. Moves the farm's clock three hours on (new comments arrive) and crawls again: the due
   re-fetches read the comment feeds and the pages, and the new comments are added to the store.
4. Prints what `scrapy sites`, `scrapy posts`, `scrapy comments` and `scrapy search` show, then the
   exact commands that query the kept store (paste them in the project folder).

The store is kept: `demo.db` in the project folder by default (a demo store left there by an earlier
demo is replaced); `--db PATH` must name a file that does not exist yet. Nothing leaves 127.0.0.1.
The crawls write into `PATH.partial`, renamed to PATH once both are done: Ctrl-C stops the demo in
one line (exit 130) and leaves no store, partial or whole.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from farm import BlogFarm  # noqa: E402
from farm.corpus import DEFAULT_CORPUS_ROOT  # noqa: E402

HOUR = 3600.0
DEFAULT_DB = ROOT / "demo.db"
REFETCH = "BLOGS_REFETCH_AFTER=1h,2h,6h"


# Seconds a crawl gets to stop by itself after Ctrl-C (it received the SIGINT too) before it is killed.
STOP_GRACE = 30


class Interrupted(Exception):
    """Ctrl-C, or a crawl that stopped because of one: the demo's story would be wrong from here."""


def _finish(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """The child's (stdout, stderr) once it exits; on Ctrl-C wait for it to stop, then Interrupted."""
    try:
        return proc.communicate(timeout=300)
    except KeyboardInterrupt:
        # The terminal sent SIGINT to the whole process group: the child is already shutting down.
        try:
            proc.wait(timeout=STOP_GRACE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        raise Interrupted from None


def scrapy(*args: str, db: Path, offset: float = 0.0, quiet: bool = False) -> str:
    """Run a scrapy command of the project; returns its stdout (its log is shown only on failure)."""
    cmd = [sys.executable, "-m", "scrapy", *args, "-s", f"BLOGS_DB={db}", "-s", f"BLOGS_CLOCK_OFFSET={offset:.3f}"]
    # The demo's farm is on 127.0.0.1: a private address the crawl refuses by default.
    cmd += ["-s", "BLOGS_CONTACT=mailto:demo@example.invalid", "-s", "BLOGS_ALLOW_PRIVATE_ADDRESSES=True"]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), "COLUMNS": "140"}
    with subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as running:
        stdout, stderr = _finish(running)
    proc = subprocess.CompletedProcess(cmd, running.returncode, stdout, stderr)
    # A crawl stopped by a SIGINT that reached it alone (not this script) ends cleanly but early.
    if "Received SIGINT" in proc.stderr or proc.returncode in (-signal.SIGINT, 130):
        raise Interrupted
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f"scrapy {args[0]} failed with exit code {proc.returncode}")
    if not quiet:
        for line in re.findall(r"Run summary: (.*)", proc.stderr):
            print(f"  run summary: {line}")
        for line in re.findall(r"\] WARNING: (.*)", proc.stderr):
            if "BLOGS_CONTACT" not in line and "Run summary" not in line:
                print(f"  warning: {line}")
    return proc.stdout


def show(title: str, text: str) -> None:
    print(f"\n== {title}\n{text.rstrip()}")


def store_path(given: Path | None) -> Path:
    """Where the demo keeps its store: a fresh file (an earlier demo's default store is replaced)."""
    if given is None:
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(f"{DEFAULT_DB}{suffix}").unlink(missing_ok=True)
        return DEFAULT_DB
    db = given.resolve()
    if db.exists():
        raise SystemExit(f"demo: {given} exists; give a new file with --db (the demo never writes into a store)")
    return db


def _store_files(db: Path) -> list[Path]:
    return [Path(f"{db}{suffix}") for suffix in ("", "-wal", "-shm", ".lock")]


def discard(db: Path) -> None:
    for path in _store_files(db):
        path.unlink(missing_ok=True)


def keep(building: Path, db: Path) -> None:
    """Move the finished store (and its write-ahead log, if any) to `db`."""
    for source, target in zip(_store_files(building)[:3], _store_files(db)[:3], strict=True):
        if source.exists():
            source.replace(target)
    Path(f"{building}.lock").unlink(missing_ok=True)


def query_commands(db: Path, article: str | None) -> list[str]:
    """Commands that query the kept store, as a user pastes them in the project folder."""
    shown = db.relative_to(ROOT) if db.is_relative_to(ROOT) else db
    opt = f"-s BLOGS_DB={shlex.quote(str(shown))}"
    scrapy_bin = os.path.relpath(Path(sys.executable).parent / "scrapy", ROOT)
    commands = [
        f"{scrapy_bin} sites {opt}",
        f"{scrapy_bin} posts --site nikki {opt}",
        f"{scrapy_bin} comments --site notebook --format jsonl {opt}",
        f"{scrapy_bin} search ベランダ {opt}",
    ]
    if article:
        commands.insert(2, f"{scrapy_bin} comments --article {shlex.quote(article)} {opt}")
    sqlite_utils = Path(sys.executable).parent / "sqlite-utils"
    if sqlite_utils.exists():
        commands.append(f"{os.path.relpath(sqlite_utils, ROOT)} tables {shlex.quote(str(shown))} --counts")
    return commands


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", type=Path, default=None, help="keep the store in this new file (default: demo.db)")
    p.add_argument("--articles", type=int, default=12, help="articles per generated blog (default 12)")
    p.add_argument("--corpus-root", type=Path, default=DEFAULT_CORPUS_ROOT, help="WordPress corpus to replay")
    args = p.parse_args(argv)
    db = store_path(args.db)
    building = db.with_name(db.name + ".partial")
    discard(building)  # a demo killed outright (kill -9) may have left one
    try:
        return demo(args, db, building)
    except (Interrupted, KeyboardInterrupt):
        discard(building)
        if not db.exists():
            print("\ndemo: interrupted (Ctrl-C); no store was kept", file=sys.stderr)
        else:
            print(f"\ndemo: interrupted (Ctrl-C); the store {db} is complete and kept", file=sys.stderr)
        return 130


def demo(args: argparse.Namespace, db: Path, building: Path) -> int:
    """The demo's story (see the module docstring): the crawls into `building`, then `db` queried."""
    with tempfile.TemporaryDirectory(prefix="blogs-demo-") as tmp, BlogFarm(args.corpus_root) as farm:
        t0 = time.time()
        farm.clock.set(t0)
        if (args.corpus_root / "wordpress").is_dir():
            corpus = farm.serve_corpus()
        else:
            corpus = {}
            print(f"demo: no WordPress corpus at {args.corpus_root}; serving the two generated blogs only")
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
        scrapy("crawl", "blogs", "-a", f"feeds={feeds}", "-s", REFETCH, db=building)
        farm.clock.advance(3 * HOUR)
        offset = farm.clock.now() - time.time()
        print("\n== crawl 2, three hours later: due re-fetches read comment feeds and pages, new comments are added")
        scrapy("crawl", "blogs", "-a", f"feeds={feeds}", "-s", REFETCH, db=building, offset=offset)
    keep(building, db)

    show("scrapy sites", scrapy("sites", db=db, quiet=True))
    show("scrapy posts --limit 6", scrapy("posts", "--limit", "6", db=db, quiet=True))
    show(
        "scrapy comments --site notebook --limit 10",
        scrapy("comments", "--site", "notebook", "--limit", "10", db=db, quiet=True),
    )
    if corpus:
        show(
            "scrapy comments --site cocoon --limit 5",
            scrapy("comments", "--site", "cocoon", "--limit", "5", db=db, quiet=True),
        )
        show('scrapy search "shooting board"', scrapy("search", "shooting board", db=db, quiet=True))
    show('scrapy search "ベランダ" (Japanese)', scrapy("search", "ベランダ", db=db, quiet=True))
    newest = scrapy("posts", "--site", "notebook", "--limit", "1", "--format", "jsonl", db=db, quiet=True)
    article = json.loads(newest)["url"] if newest.strip() else None
    print(f"\nThe store is kept in {db}. Query it from {ROOT}:")
    for command in query_commands(db, article):
        print(f"  {command}")
    print("More: docs/schema.md (tables), `datasette` on the same file.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
