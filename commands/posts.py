"""`scrapy posts [--site S] [--since WHEN] [--limit N] [--format table|jsonl|csv]`: extracted posts,
newest first; fields url, site, title, text, published, fetched_at, comment_system, comments_state.

An unknown site or an unreadable --since is a one-line error (exit 2), not an empty list.
"""

from __future__ import annotations

import argparse

from scrapy.commands import ScrapyCommand

from commands import StoreCommand, positive_int, write_rows
from store import query


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S] [--since WHEN] [--limit N] [--format table|jsonl|csv]"

    def short_desc(self) -> str:
        return "List extracted posts (url, site, title, text, published, fetched_at, comment_system, comments_state)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--site", help="only this site (its name in feeds.txt, as scrapy sites lists it)")
        parser.add_argument(
            "--since", help=f"published (else fetched) at or after this time (UTC unless given): {query.SINCE_FORMS}"
        )
        parser.add_argument("--limit", type=positive_int, default=None, help="at most N posts")
        self.add_format(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        with self.reported(), self.open() as store:
            site = query.check_site(store.db, opts.site) if opts.site is not None else None
            since = query.parse_since(opts.since) if opts.since is not None else None
            rows = query.posts(store.db, site=site, since=since, limit=opts.limit)
            write_rows(rows, query.POST_FIELDS, opts.format)
