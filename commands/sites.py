"""`scrapy sites [--format table|jsonl|csv]`: per site articles, pages, the mean page size as fetched
and as stored (`page_kb`, KiB: "87.4 -> 16.2", gzip), posts, comments, batch fill, profile version
and age, comment-feed agreement and the last error. Each feed's state (failing, muted and why, next
poll): `scrapy feeds`."""

from __future__ import annotations

import argparse

from scrapy.commands import ScrapyCommand

from commands import StoreCommand, write_rows
from store import query


class Command(StoreCommand, ScrapyCommand):
    def short_desc(self) -> str:
        return "Per site: articles, pages, page size, posts, comments, batch, profile, comment-feed check, last error"

    def long_desc(self) -> str:
        return (
            self.short_desc()
            + ". The state of each feed (ok, failing, muted and why, failures, next poll): scrapy feeds."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        self.add_format(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        with self.reported(), self.open() as store:
            write_rows(store.sites(), query.SITE_FIELDS, opts.format, wide="last_error")
