"""`scrapy posts [--site S ...] [--since WHEN] [--limit N] [--format table|jsonl|csv]`: extracted posts,
newest first; fields url, site, title, author, text, published, fetched_at, comment_system, comments_state.

An unknown site or an unreadable --since is a one-line error (exit 2), not an empty list. When
--limit cuts the list, stderr says how many there are ("3 of 28 posts, --limit to see more").
"""

from __future__ import annotations

import argparse

from scrapy.commands import ScrapyCommand

from commands import StoreCommand, add_sites, positive_int, say_how_many, write_rows
from store import query


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S ...] [--since WHEN] [--limit N] [--format table|jsonl|csv]"

    def short_desc(self) -> str:
        return "List extracted posts (url, site, title, author, text, published, fetched_at, comment system and state)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        add_sites(parser)
        parser.add_argument(
            "--since", help=f"published (else fetched) at or after this time (UTC unless given): {query.SINCE_FORMS}"
        )
        parser.add_argument("--limit", type=positive_int, default=None, help="at most N posts")
        self.add_format(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        with self.reported(), self.open() as store:
            sites = [store.check_site(site) for site in opts.site]
            since = query.parse_since(opts.since) if opts.since is not None else None
            rows = store.posts(site=sites, since=since, limit=opts.limit)
            shown = write_rows(rows, query.POST_FIELDS, opts.format)
            if opts.limit and shown == opts.limit:
                say_how_many(shown, store.count_posts(site=sites, since=since), "posts")
