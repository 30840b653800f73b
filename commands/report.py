"""`scrapy report [--site S] [--pages N] OUT_DIR`: the HTML report of what the store extracted.

scrapy report --site gen1 report/ -s BLOGS_DB=blogs.db

For each site, the newest snapshot of its newest articles is extracted again, offline, with the
site's latest stored profile (or as one set when the site has no profile yet), for its blocks,
and painted by extractor.report.build: post blocks dashed, comment blocks solid, boilerplate dimmed.
The comments shown and counted are the ones the store keeps for that snapshot: every block
holding a stored comment's text is painted as a comment. Pages are listed by their feed title.
The index shows the profile version and the comment-feed check worded exactly as `scrapy sites`
(store.query.sites). A page whose comments load by script (or were not read) has a note saying its
comment system and comments state.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from commands import StoreCommand, positive_int
from extractor import Page, SiteProfile, extract_site
from extractor.report.build import ReportPage, ReportSite, write_report
from store import StoreBackend, query
from store.commentsystems import NOT_HARVESTED, loads_by_script
from store.pages import gunzip_body

NOT_EXTRACTED = "not extracted in the store yet: comments as extracted now"
UNREADABLE = "stored comment records unreadable: comments as extracted now"


class Command(StoreCommand, ScrapyCommand):
    def syntax(self) -> str:
        return "[--site S] [--pages N] OUT_DIR"

    def short_desc(self) -> str:
        return "Write an HTML report painting post and comment blocks on stored pages"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--site", action="append", help="only this site (repeatable)")
        parser.add_argument("--pages", type=positive_int, default=30, help="newest articles per site (default 30)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one OUT_DIR", print_help=True)
        out = Path(args[0])
        with self.reported():
            if out.exists() and not out.is_dir():
                raise query.QueryError(f"OUT_DIR {out} exists and is not a folder")
            with self.open() as store:
                summary = {row["site"]: row for row in store.sites()}
                names = [store.check_site(name) for name in opts.site] if opts.site else list(summary)
                sites = [site_report(store, name, opts.pages, summary[name]) for name in names]
            try:
                index = write_report([s for s in sites if s.pages], out)
            except OSError as exc:
                raise query.QueryError(f"cannot write the report to {out}: {exc.strerror or exc}") from None
            print(f"report: {index} ({sum(len(s.pages) for s in sites)} pages, {len(sites)} sites)")


def site_report(store: StoreBackend, site: str, limit: int, summary: dict[str, Any] | None = None) -> ReportSite:
    """One site's newest pages, extracted with its latest profile (else as a set), with their stored comments.

    ``summary`` is the site's `store.query.sites` row (profile, comment-feed check).
    """
    rows = store.newest_pages(site, limit)
    pages = [Page(row["url"], gunzip_body(row["body"]), _headers(row["headers"])) for row in rows]
    prof = store.latest_profile(site)
    if prof is not None:
        profile = SiteProfile.from_json(prof["profile"])
        extractions = [profile.extract(page) for page in pages]
    else:
        extractions = extract_site(pages)
    report_pages = []
    for row, page, extraction in zip(rows, pages, extractions, strict=True):
        stored = _stored_texts(row["stored"]) if not row["stored_error"] else None
        by_script = loads_by_script(row["comment_system"])
        if by_script:  # the page's HTML holds none of its comments: nothing on it is painted as one
            stored = []
        label = row["url"] or f"snapshot {row['id']}"
        rp = ReportPage(label, page, extraction, title=row["title"] or None, stored_comments=stored)
        if by_script or (row["comments_state"] or "").startswith(NOT_HARVESTED):
            rp.notes.append(f"comments: {row['comment_system']}, {row['comments_state']}")
        if row["stored_error"]:
            rp.notes.append(f"the store could not extract it: {row['stored_error']}")
        elif stored is None:
            rp.notes.append(NOT_EXTRACTED if row["stored"] is None else UNREADABLE)
        report_pages.append(rp)
    summary = summary or {}
    return ReportSite(
        site,
        report_pages,
        profile_version=summary.get("profile") or (f"v{prof['version']}" if prof is not None else None),
        comment_feed_check=summary.get("feed_check"),
    )


def _stored_texts(raw: str | None) -> list[str] | None:
    """The texts of a snapshot's stored comment records (`extractions.comments`) in page order; None
    when the snapshot has no extraction or its records cannot be read."""
    try:
        records = json.loads(raw) if raw is not None else None
    except ValueError:
        return None
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        return None
    return [str(r.get("text") or "") for r in sorted(records, key=lambda r: r.get("position") or 0)]


def _headers(raw: Any) -> dict[str, Any]:
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
