"""`scrapy feeds [--site S ...] [--state ok|new|failing|muted] [--format table|jsonl|csv]`: per feed its
site, URL, state (new / ok / failing / muted and why), consecutive failures, last and next poll,
poll interval, entries of the last week, articles, last error (store.feedstates).

A muted feed is polled again after `scrapy crawl blogs -a unmute=URL|SITE|all`.
"""

from __future__ import annotations

import argparse

from scrapy.commands import ScrapyCommand

from commands import StoreCommand, add_sites, write_rows
from store.feedstates import FEED_FIELDS

STATES = ("new", "ok", "failing", "muted")


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S ...] [--state new|ok|failing|muted] [--format table|jsonl|csv]"

    def short_desc(self) -> str:
        return "Per feed: site, state (ok, failing, muted and why), failures, last/next poll, interval, articles"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        add_sites(parser)
        parser.add_argument("--state", choices=STATES, help="only feeds in this state")
        self.add_format(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        with self.reported(), self.open() as store:
            sites = [store.check_site(site) for site in opts.site]
            rows = [row for row in store.feed_states(sites) if opts.state in (None, row["state"])]
            write_rows(rows, FEED_FIELDS, opts.format, wide="last_error")
