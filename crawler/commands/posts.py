"""`scrapy posts [--site S] [--since DATE] [--limit N] [--format table|jsonl|csv]`: extracted posts,
newest first; fields url, site, title, text, published, fetched_at."""

from __future__ import annotations

import argparse

from scrapy.commands import ScrapyCommand

from crawler.commands import StoreCommand, write_rows
from pipelines import query


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S] [--since DATE] [--limit N] [--format table|jsonl|csv]"

    def short_desc(self) -> str:
        return "List extracted posts (url, site, title, text, published, fetched_at)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--site", help="only this site (its name in feeds.txt)")
        parser.add_argument("--since", help="published (else fetched) on or after this ISO date, e.g. 2024-05-01")
        parser.add_argument("--limit", type=int, default=None, help="at most N posts")
        self.add_format(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        with self.open() as store:
            rows = query.posts(store.db, site=opts.site, since=opts.since, limit=opts.limit)
            write_rows(rows, query.POST_FIELDS, opts.format)
