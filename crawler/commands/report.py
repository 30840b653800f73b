"""`scrapy report [--site S] [--pages N] OUT_DIR`: the HTML report of what the store extracted.

scrapy report --site gen1 report/ -s BLOGS_DB=blogs.db

For each site, the newest snapshot of its newest articles is extracted again, offline, with the
site's latest stored profile (or as one set when the site has no profile yet), and painted by
extractor.report: post blocks dashed, comment blocks solid, boilerplate dimmed; the index shows
the profile version and the agreement with the site's comment feeds.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawler.commands import StoreCommand
from extractor import Page, SiteProfile, extract_site
from extractor.report import ReportPage, ReportSite, write_report
from pipelines.feedcheck import site_agreement
from pipelines.store import Store, gunzip_body


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S] [--pages N] OUT_DIR"

    def short_desc(self) -> str:
        return "Write an HTML report painting post and comment blocks on stored pages"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--site", action="append", help="only this site (repeatable)")
        parser.add_argument("--pages", type=int, default=30, help="newest articles per site (default 30)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one OUT_DIR", print_help=True)
        with self.open() as store:
            names = opts.site or [row["name"] for row in store.db.query("SELECT name FROM sites ORDER BY name")]
            sites = [site_report(store, name, opts.pages) for name in names]
        index = write_report([s for s in sites if s.pages], Path(args[0]))
        print(f"report: {index} ({sum(len(s.pages) for s in sites)} pages, {len(sites)} sites)")


def site_report(store: Store, site: str, limit: int) -> ReportSite:
    """One site's newest pages, extracted with its latest profile (else as a set)."""
    rows = list(
        store.db.query(
            "SELECT s.id, s.url, s.headers, s.body FROM snapshots s JOIN ("
            "  SELECT article, MAX(fetched_at) AS newest FROM snapshots WHERE site = ? GROUP BY article"
            ") n ON n.article = s.article AND n.newest = s.fetched_at ORDER BY s.fetched_at DESC LIMIT ?",
            [site, limit],
        )
    )
    pages = [Page(row["url"], gunzip_body(row["body"]), _headers(row["headers"])) for row in rows]
    labels = [row["url"] or f"snapshot {row['id']}" for row in rows]
    prof = next(
        store.db.query("SELECT version, profile FROM profiles WHERE site = ? ORDER BY version DESC LIMIT 1", [site]),
        None,
    )
    if prof is not None:
        profile = SiteProfile.from_json(prof["profile"])
        extractions = [profile.extract(page) for page in pages]
    else:
        extractions = extract_site(pages)
    agreement = site_agreement(store.db, site)
    return ReportSite(
        site,
        [ReportPage(label, page, ex) for label, page, ex in zip(labels, pages, extractions, strict=True)],
        profile_version=f"v{prof['version']}" if prof is not None else None,
        comment_feed_agreement=agreement.f1 if agreement is not None else None,
    )


def _headers(raw: Any) -> dict[str, Any]:
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
