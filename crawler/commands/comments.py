"""`scrapy comments [--site S] [--article URL] [--limit N] [--format table|jsonl|csv]`: extracted
comments; fields url (of the article), site, text, author, date, position, first_seen, gone_at."""

from __future__ import annotations

import argparse

from scrapy.commands import ScrapyCommand

from crawler.commands import StoreCommand, write_rows
from pipelines import query


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S] [--article URL] [--limit N] [--format table|jsonl|csv]"

    def short_desc(self) -> str:
        return "List extracted comments (url, site, text, author, date, position, first_seen)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--site", help="only this site (its name in feeds.txt)")
        parser.add_argument("--article", help="only the comments of this article URL")
        parser.add_argument("--limit", type=int, default=None, help="at most N comments")
        self.add_format(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        with self.open() as store:
            rows = query.comments(store.db, site=opts.site, article=opts.article, limit=opts.limit)
            write_rows(rows, query.COMMENT_FIELDS, opts.format)
