"""`scrapy comments [--site S] [--article URL] [--since WHEN] [--limit N] [--format table|jsonl|csv]`:
extracted comments; fields url (of the article), site, text, author, date, position, first_seen, gone_at, source.

--article takes the URL as `scrapy posts` shows it or as a browser does (normalized like the
crawler's article keys); an unknown site or article is a one-line error (exit 2).
"""

from __future__ import annotations

import argparse

from scrapy.commands import ScrapyCommand

from commands import StoreCommand, positive_int, write_rows
from store import query


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S] [--article URL] [--since WHEN] [--limit N] [--format table|jsonl|csv]"

    def short_desc(self) -> str:
        return "List extracted comments (url, site, text, author, date, position, first_seen)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--site", help="only this site (its name in feeds.txt, as scrapy sites lists it)")
        parser.add_argument("--article", help="only the comments of this article URL")
        parser.add_argument("--since", help=f"first seen at or after this time (UTC unless given): {query.SINCE_FORMS}")
        parser.add_argument("--limit", type=positive_int, default=None, help="at most N comments")
        self.add_format(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        with self.reported(), self.open() as store:
            site = query.check_site(store.db, opts.site) if opts.site is not None else None
            article = query.find_article(store.db, opts.article) if opts.article is not None else None
            if article and site:
                owner = query.article_site(store.db, article)
                if owner != site:
                    raise query.QueryError(f"article {article} is on site {owner!r}, not {site!r}")
            since = query.parse_since(opts.since) if opts.since is not None else None
            rows = query.comments(store.db, site=site, article=article, limit=opts.limit, since=since)
            write_rows(rows, query.COMMENT_FIELDS, opts.format)
