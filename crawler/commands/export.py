"""`scrapy export [--site S] --format jsonl OUT`: every post with its comments, one JSON object per line."""

from __future__ import annotations

import argparse
from pathlib import Path

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawler.commands import StoreCommand
from pipelines import query


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S] --format jsonl OUT"

    def short_desc(self) -> str:
        return "Export posts with their comments as JSON Lines"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--site", help="only this site")
        parser.add_argument("--format", choices=("jsonl",), default="jsonl")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one output file, e.g. scrapy export --format jsonl posts.jsonl")
        with self.open() as store:
            n_posts, n_comments = query.export_jsonl(store.db, Path(args[0]), site=opts.site)
        print(f"wrote {n_posts} posts and {n_comments} comments to {args[0]}")
