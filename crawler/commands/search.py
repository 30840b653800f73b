"""`scrapy search QUERY [--in posts|comments] [--limit N] [--format ...]`: full-text search (FTS5,
trigram: English words and Japanese phrases alike; terms under 3 characters fall back to LIKE)."""

from __future__ import annotations

import argparse

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawler.commands import StoreCommand, write_rows
from pipelines import query


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "QUERY [--in posts|comments] [--limit N] [--format table|jsonl|csv]"

    def short_desc(self) -> str:
        return "Full-text search in posts or comments"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--in", dest="where", choices=("posts", "comments"), default="posts")
        parser.add_argument("--limit", type=int, default=20, help="at most N hits (default 20)")
        self.add_format(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args:
            raise UsageError("give a query, e.g. scrapy search 'shooting board'")
        with self.open() as store:
            hits = query.search(store.db, " ".join(args), opts.where, opts.limit)
            fields = (
                ["url", "site", "title", "published", "snippet"]
                if opts.where == "posts"
                else ["url", "site", "author", "date", "snippet"]
            )
            write_rows(hits, fields, opts.format, wide="snippet")
