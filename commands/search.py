"""`scrapy search QUERY [--in posts|comments] [--site S ...] [--limit N] [--format ...]`: full-text search.

Words and "quoted phrases" (case-insensitive substrings, English and Japanese alike), AND
(implicit), OR, NOT, ( ), and a trailing * (store.searchquery); FTS5 trigram ranked
best first, a substring scan for items under 3 characters. A query that cannot be read, or
an empty one, is a one-line error (exit 2). When --limit cuts the hits, stderr says how many
there are ("20 of 38 hits, --limit to see more").
"""

from __future__ import annotations

import argparse

from scrapy.commands import ScrapyCommand

from commands import StoreCommand, add_sites, positive_int, say_how_many, write_rows


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "QUERY [--in posts|comments] [--site S ...] [--limit N] [--format table|jsonl|csv]"

    def short_desc(self) -> str:
        return 'Full-text search in posts or comments (words, "phrases", AND/OR/NOT, prefix*)'

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--in", dest="where", choices=("posts", "comments"), default="posts")
        add_sites(parser)
        parser.add_argument("--limit", type=positive_int, default=20, help="at most N hits (default 20)")
        self.add_format(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        with self.reported(), self.open() as store:
            sites = [store.check_site(site) for site in opts.site]
            text = " ".join(args)
            hits = store.search(text, opts.where, opts.limit, site=sites)
            fields = (
                ["url", "site", "title", "published", "snippet"]
                if opts.where == "posts"
                else ["url", "site", "author", "date", "snippet"]
            )
            write_rows(hits, fields, opts.format, wide="snippet")
            if len(hits) == opts.limit:
                say_how_many(len(hits), store.count_search(text, opts.where, site=sites), "hits")
