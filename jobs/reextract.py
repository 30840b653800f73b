"""Rebuild every post and comment from the stored snapshots, without the network (`scrapy reextract`).

reextract(Store("blogs.db"), site="gen1")   # e.g. after an extractor upgrade

The crawl's decisions are stored, so they are replayed rather than re-taken: each profile
version is learned again from the snapshots it was learned from (`profiles.snapshots`), each
done batch is extracted again as one set, and each other snapshot again with the profile
version that extracted it. With the same extractor the result is the same rows (idempotent);
after an upgrade it is what the crawl would have stored with the new extractor. Full batches,
pages never extracted and comment feeds never parsed (a crawl was killed) are completed as the
next crawl would. What one site reads of the others (their comment identifiers) is taken at the
start, so the sites' order does not matter: jobs.reextract_dask runs them in parallel, one Dask
task each, with the same result. `since` re-extracts only what holds pages fetched since then.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from extractor import DEFAULT, SiteProfile, extract_site, learn_profile
from jobs import extraction
from store import StoreBackend
from store.clock import to_iso

logger = logging.getLogger(__name__)

_CHUNK = 20  # snapshots per transaction: short writes, bounded memory


@dataclass
class ReextractReport:
    sites: int = 0
    profiles: int = 0
    batches: int = 0
    pages: int = 0


def _relearn_profiles(store: StoreBackend, site: str, known: frozenset[str]) -> dict[int, SiteProfile]:
    learned: dict[int, SiteProfile] = {}
    for row in store.profiles_of(site):
        ids = json.loads(row["snapshots"] or "[]")
        snaps = store.load_snapshots(ids)
        old = SiteProfile.from_json(row["profile"]) if row["profile"] else None
        profile = learn_profile(extraction.pages_of(store, snaps), old.options if old else DEFAULT, known)
        profile.learned_at = old.learned_at if old else profile.learned_at  # same JSON when nothing changed
        extraction.inherit_layout(profile, learned.get(int(row["version"]) - 1))
        learned[int(row["version"])] = profile
        store.update_profile(
            site,
            row["version"],
            profile=profile.to_json(),
            pages=profile.pages,
            warnings=json.dumps(profile.warnings, ensure_ascii=False),
        )
    return learned


def reextract_site(
    store: StoreBackend,
    cfg: extraction.JobConfig,
    site: str,
    report: ReextractReport,
    *,
    known: frozenset[str] | None = None,
    since: str | None = None,
) -> None:
    """Re-extract one site. `known`: the other sites' comment identifiers as of the run's start
    (so that sites give the same result in any order, or in parallel); `since` (ISO time): only
    the done batches holding a page fetched then or later (each still as one set) and such pages.
    The caller is the site's only writer meanwhile (`scrapy reextract` holds the crawl lock, and
    gives each site to one task): its posts and comments are derived outside the write lock."""
    if known is None:
        known = store.known_comment_identifiers(site)
    recent = store.snapshots_since(site, since) if since else None
    profiles = _relearn_profiles(store, site, known)
    report.profiles += len(profiles)
    touched: dict[str, None] = {}  # articles whose extractions were written, in order
    for batch in store.done_batches(site):
        members = store.batch_snapshots(batch["id"])
        if recent is not None and recent.isdisjoint(members):
            continue
        snaps = store.load_snapshots(members)
        pages = extraction.pages_of(store, snaps)
        results = extract_site(pages, known_comment_ids=known)
        if batch["profile_version"] in profiles:
            extraction.fill_records(pages, results, profiles[batch["profile_version"]])
        rows = [
            extraction.extraction_row(s, r, "batch", batch["id"], batch["profile_version"])
            for s, r in zip(snaps, results, strict=True)
        ]
        with store.transaction():
            store.write_extractions(rows, force=True, derive=False)
        touched.update(dict.fromkeys(row[1] for row in rows))
        report.batches += 1
        report.pages += len(rows)
    others = [
        (snapshot, int(v))
        for snapshot, v in store.profile_extractions(site)
        if v in profiles and (recent is None or snapshot in recent)
    ]
    for start in range(0, len(others), _CHUNK):
        chunk = others[start : start + _CHUNK]
        version = dict(chunk)
        snaps = store.load_snapshots([i for i, _v in chunk])
        rows = [
            extraction.extraction_row(s, profiles[version[s["id"]]].extract(page), "profile", None, version[s["id"]])
            for s, page in zip(snaps, extraction.pages_of(store, snaps), strict=True)
        ]
        with store.transaction():
            store.write_extractions(rows, force=True, derive=False)
        touched.update(dict.fromkeys(row[1] for row in rows))
        report.pages += len(rows)
    # Each article's post and comments derived once, from all its new extractions (a first fetch and
    # its re-fetches are written apart): half the work under the store's write lock, which parallel
    # workers share on SQLite. A run killed before this is redone by its resumption (the site is not done).
    articles = list(touched)
    for start in range(0, len(articles), _CHUNK):
        store.refresh_articles(articles[start : start + _CHUNK], sole_writer=True)  # the site is this task's
    # What a killed crawl left undone, as the next crawl would do it.
    for batch_id in store.full_batches(site):
        report.pages += extraction.run_batch(cfg, batch_id).pages
        report.batches += 1
    report.pages += extraction.run_pending(cfg, site).pages
    report.pages += extraction.run_provisional(cfg, site).pages  # a site whose first batch never filled


def prepare(store: StoreBackend, cfg: extraction.JobConfig, site: str | None = None) -> None:
    """What every site's re-extraction needs first: comment feeds a crawl stored but did not parse
    (killed, or BLOGS_EXTRACT_ENABLED off) are evidence. Of `site` only, when given."""
    for fetch_id in store.unprocessed_comment_feeds(max_attempts=1 << 30, site=site):
        extraction.run_feed(cfg, fetch_id)


def reextract(
    store: StoreBackend,
    site: str | None = None,
    batch_size: int = 10,
    progress: Callable[[str, ReextractReport], None] | None = None,
    since: str | None = None,
) -> ReextractReport:
    """Re-extract one site (or all) from its snapshots; see the module docstring. `since` (ISO
    time, store.query.parse_since): only pages fetched then or later, see `reextract_site`."""
    report = ReextractReport()
    # Other sites' identifiers and profiles as of the start, as the crawl takes them (JobConfig):
    # the sites' results then do not depend on their order, so jobs.reextract_dask gives the same.
    cfg = extraction.JobConfig(store.location, batch_size=batch_size, known_before=to_iso(time.time()))
    prepare(store, cfg)
    names = [site] if site else store.snapshot_sites()
    if since:
        fetched = store.page_counts(since)
        names = [n for n in names if n in fetched]
    known = store.known_comment_identifiers_by_site(names)
    for name in names:
        reextract_site(store, cfg, name, report, known=known[name], since=since)
        report.sites += 1
        if progress is not None:
            progress(name, report)
    return report
