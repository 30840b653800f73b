"""`scrapy export [--site S] [--format jsonl] OUT|-`: every post with its comments, one JSON object
per line, into the file OUT (replaced whole when done) or standard output for `-`.

An OUT whose folder is missing, or that is a folder, is a one-line error (exit 2) and nothing is written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from commands import StoreCommand
from jobs.warcwriter import export_warc_file
from store import query


def output_path(arg: str) -> Path | None:
    """The file to write, None for `-` (standard output); QueryError when it cannot be a file."""
    if arg == "-":
        return None
    path = Path(arg).expanduser()
    if path.is_dir():
        raise query.QueryError(f"{arg} is a folder: give a file name, e.g. {path / 'posts.jsonl'}")
    if not path.parent.is_dir():
        raise query.QueryError(f"no folder {path.parent} for {arg}: create it first, or give - for standard output")
    return path


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S] [--format jsonl] OUT|-  or  [--site S] --warc OUT.warc.gz"

    def short_desc(self) -> str:
        return "Export posts with their comments as JSON Lines (to a file, or - for standard output)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--site", help="only this site")
        parser.add_argument("--format", choices=("jsonl",), default="jsonl")
        parser.add_argument(
            "--warc", metavar="OUT.warc.gz", help="write the stored raw pages as a WARC 1.1 file instead"
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if opts.warc is not None:
            self._warc(args, opts)
            return
        if len(args) != 1:
            raise UsageError("give one output file or -, e.g. scrapy export --format jsonl posts.jsonl")
        with self.reported():
            path = output_path(args[0])
            with self.open() as store:
                site = store.check_site(opts.site) if opts.site is not None else None
                try:
                    n_posts, n_comments = store.export_jsonl(path or sys.stdout, site=site)
                except OSError as exc:
                    if isinstance(exc, BrokenPipeError):
                        raise
                    raise query.QueryError(f"cannot write {args[0]}: {exc.strerror or exc}") from None
            # The data owns standard output when it goes there; the summary then goes to stderr.
            summary = f"wrote {n_posts} posts and {n_comments} comments to {args[0] if path else 'standard output'}"
            print(summary, file=sys.stdout if path else sys.stderr)

    def _warc(self, args: list[str], opts: argparse.Namespace) -> None:
        if args:
            raise UsageError("--warc takes the output file: scrapy export --warc OUT.warc.gz")
        with self.reported():
            path = output_path(opts.warc)
            if path is None:
                raise query.QueryError("--warc needs a file name, not -")
            with self.open() as store:
                site = store.check_site(opts.site) if opts.site is not None else None
                try:
                    written = export_warc_file(store, path, site)
                except OSError as exc:
                    raise query.QueryError(f"cannot write {opts.warc}: {exc.strerror or exc}") from None
            templates = f", {written.template_pages} template pages" if written.template_pages else ""
            print(
                f"wrote {written.pages} pages and {written.comment_feeds} comment feeds{templates}"
                f" to {opts.warc} (WARC 1.1)"
            )
