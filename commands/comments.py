"""`scrapy comments [--site S ...] [--article URL] [--since WHEN] [--limit N] [--format table|jsonl|csv]`:
extracted comments; fields url (of the article), site, fingerprint (the comment's key), parent (the
fingerprint of the comment it replies to), text, author, date, position, first_seen, gone_at, source
(html, comment-feed, api:<system>, rendered).

--article takes the URL as `scrapy posts` shows it or as a browser does (normalized like the
crawler's article keys); an unknown site or article is a one-line error (exit 2). When --limit
cuts the list, stderr says how many there are.
"""

from __future__ import annotations

import argparse

from scrapy.commands import ScrapyCommand

from commands import StoreCommand, add_sites, positive_int, say_how_many, write_rows
from store import query


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S ...] [--article URL] [--since WHEN] [--limit N] [--format table|jsonl|csv]"

    def short_desc(self) -> str:
        return "List extracted comments (url, site, fingerprint, parent, text, author, date, position, first_seen)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        add_sites(parser)
        parser.add_argument("--article", help="only the comments of this article URL")
        parser.add_argument("--since", help=f"first seen at or after this time (UTC unless given): {query.SINCE_FORMS}")
        parser.add_argument("--limit", type=positive_int, default=None, help="at most N comments")
        self.add_format(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        with self.reported(), self.open() as store:
            sites = [store.check_site(site) for site in opts.site]
            article = store.find_article(opts.article) if opts.article is not None else None
            if article and sites:
                owner = store.article_site(article)
                if owner not in sites:
                    wanted = sites[0] if len(sites) == 1 else sites
                    raise query.QueryError(f"article {article} is on site {owner!r}, not {wanted!r}")
            since = query.parse_since(opts.since) if opts.since is not None else None
            rows = store.comments(site=sites, article=article, limit=opts.limit, since=since)
            shown = write_rows(rows, query.COMMENT_FIELDS, opts.format)
            if opts.limit and shown == opts.limit:
                total = store.count_comments(site=sites, article=article, since=since)
                say_how_many(shown, total, "comments")
