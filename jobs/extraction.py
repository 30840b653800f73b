"""Extraction jobs: what runs off the reactor, in a worker thread or process, with its own connection.

run_batch(JobConfig("blogs.db"), batch_id=3)       # extract_site on a full batch, learn the next profile
run_pages(JobConfig("blogs.db"), "gen1", [41, 42])  # extract snapshots with the site's newest profile
run_feed(JobConfig("blogs.db"), fetch_id=5)         # store a persisted comment feed's entries

Jobs are plain module-level functions of picklable arguments that read the snapshots from the
store themselves (so no page body crosses a process boundary) and write their results in short
`BEGIN IMMEDIATE` transactions: `extractions` rows, then the derived `posts`/`comments` rows of
the articles concerned (store.comments), and for a batch its profile and `done` state, all
in one transaction. A job killed half-way leaves nothing half-written; running a job twice
writes the same rows.

Which extraction of a snapshot wins does not depend on timing: a batch extraction (`extract_site`
on the whole set) replaces a profile extraction, and a newer profile version replaces an older
one, never the other way round (`force=True` is `scrapy reextract`). Nor does what a batch
learns: its members are fixed by a stable key (store.batches), a site's batches run in order
(pipelines.extract), and other sites' comment identifiers are taken as of the run's start
(`JobConfig.known_before`).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from crawler.templatelinks import PREVIOUS_ARTICLE
from extractor import Page, PageExtraction, SiteProfile, extract_and_learn, learn_profile
from extractor.comments.commentsystems import detect_comment_system
from jobs.commentfeeds import process_comment_feed
from store import StoreBackend, open_store
from store.clock import to_iso
from store.comments import comment_dicts
from store.pages import gunzip_body


@dataclass(frozen=True)
class JobConfig:
    """What every job needs: plain values, picklable."""

    db_path: str
    batch_size: int = 10
    drift_threshold: float = 0.5  # template_match below this: the template drifted, re-learn
    # Comment identifiers of other sites come from profiles learned before this time (the run's
    # start), so that a batch does not learn differently when another site's batch finished first.
    known_before: str | None = None


@dataclass
class JobReport:
    """What a job did, for the pipeline's stats and log (messages are (level, text) pairs)."""

    kind: str
    site: str
    pages: int = 0
    profile_version: int | None = None
    drifts: int = 0
    errors: int = 0
    seconds: float = 0.0
    messages: list[tuple[str, str]] = field(default_factory=list)


TEMPLATE_PAGES = 3  # template pages at most in a provisional set (the crawl fetches the home page)
_local = threading.local()
_profiles: dict[tuple[str, str, int], tuple[SiteProfile, set[int]]] = {}


def _store(cfg: JobConfig) -> StoreBackend:
    """This thread's connection to the store (one per worker thread or process)."""
    stores: dict[str, StoreBackend] = _local.__dict__.setdefault("stores", {})
    if cfg.db_path not in stores:
        stores[cfg.db_path] = open_store(cfg.db_path)
    return stores[cfg.db_path]


def close_stores() -> None:
    """Close this thread's connections (thread mode calls it when the pool shuts down)."""
    for store in _local.__dict__.pop("stores", {}).values():
        store.close()


def _latest_profile(cfg: JobConfig, store: StoreBackend, site: str) -> tuple[int, SiteProfile, set[int]] | None:
    """The site's newest profile (version, profile, snapshots learned from), parsed once per worker."""
    head = store.latest_profile_version(site)
    if head is None:
        return None
    key = (cfg.db_path, site, head)
    if key not in _profiles:
        if len(_profiles) > 64:
            _profiles.clear()
        row = store.profile(site, head)
        assert row is not None
        _profiles[key] = (SiteProfile.from_json(row["profile"]), set(json.loads(row["snapshots"] or "[]")))
    profile, learned_from = _profiles[key]
    return head, profile, learned_from


def page_of(row: dict[str, Any], feed_comments: Sequence[str] = ()) -> Page:
    """The extractor's Page for a snapshot row (body gunzipped), with its article's feed comments."""
    return Page(row["url"], gunzip_body(row["body"]), row["headers"], feed_comments=tuple(feed_comments))


def pages_of(store: StoreBackend, snaps: Sequence[dict[str, Any]]) -> list[Page]:
    """Pages of snapshot rows, each with the comments its article's comment feed listed by then
    (the extractor's evidence where no page of a set is comment-free)."""
    feeds = store.feed_comment_texts(snaps)
    return [page_of(s, feeds.get(int(s["id"]), ())) for s in snaps]


def extraction_row(
    snap: dict[str, Any],
    ext: PageExtraction,
    method: str,
    batch: int | None,
    version: int | None,
    comment_system: str | None = None,
) -> list[Any]:
    """An `extractions` row (values in column order) for one snapshot's extraction (`comment_system`:
    comment_system_of(snap) when found already)."""
    comments = comment_dicts(ext.comment_records, ext.comments) if ext.error is None else []
    match = round(ext.template_match, 4) if ext.template_match is not None else None
    return [
        snap["id"],
        snap["article"],
        snap["site"],
        method,
        batch,
        version,
        match,
        ext.post if ext.error is None else None,
        json.dumps(comments, ensure_ascii=False),
        len(comments),
        ext.encoding,
        ext.error,
        json.dumps(ext.warnings, ensure_ascii=False),
        ext.method,
        ext.confidence,
        ext.encoding_source,
        comment_system or comment_system_of(snap),
        ext.post_author,
        ext.published,
    ]


def comment_system_of(snap: dict[str, Any]) -> str:
    """Where the page's comments live (comments extracted from a page whose comments load by script
    are not kept): found once per snapshot, then read back (a re-extraction does not parse it again)."""
    known = snap.get("known_comment_system")
    if known:
        return str(known)
    return detect_comment_system(gunzip_body(snap["body"]), snap["url"] or snap["article"]).name


def write_extractions(store: StoreBackend, rows: Sequence[list[Any]], force: bool = False) -> None:
    """Upsert extraction rows and re-derive their articles' posts and comments (inside a transaction)."""
    store.write_extractions(rows, force)


def inherit_layout(profile: SiteProfile, previous: SiteProfile | None) -> SiteProfile:
    """Give `profile` the previous version's comment layout when it learned none itself."""
    if profile.comments is None and previous is not None and previous.comments is not None:
        profile.comments = previous.comments
    return profile


def fill_records(pages: Sequence[Page], results: Sequence[PageExtraction], profile: SiteProfile) -> None:
    """Comments the set's extraction could not split into records (few comments in the set) are
    split with the site's profile, so that they keep the same fingerprints on the re-fetches."""
    if profile.comments is None:
        return
    for page, result in zip(pages, results, strict=True):
        if result.error is None and result.comments and not result.comment_records:
            alt = profile.extract(page)
            if alt.comment_records:
                result.comments, result.comment_records = alt.comments, alt.comment_records


def save_profile(
    store: StoreBackend, site: str, profile: SiteProfile, *, source: str, batch: int | None, snapshots: Sequence[int]
) -> int:
    """Store the site's next profile version (inside a transaction); returns the version.

    A profile learned from comment-free pages (first fetches usually are) cannot know how the
    site's comments look: it inherits the comment layout of the version before it.
    """
    version = store.next_profile_version(site)
    before = store.profile(site, version - 1)
    if before is not None:
        inherit_layout(profile, SiteProfile.from_json(before["profile"]))
    store.add_profile(
        {
            "site": site,
            "version": version,
            "source": source,
            "batch": batch,
            "snapshots": json.dumps(list(snapshots)),
            "pages": profile.pages,
            "learned_at": to_iso(time.time()),
            "profile": profile.to_json(),
            "warnings": json.dumps(profile.warnings, ensure_ascii=False),
        }
    )
    return version


def run_batch(cfg: JobConfig, batch_id: int) -> JobReport:
    """Extract a full batch as one set, learn the site's next profile from it, mark it done."""
    started = time.monotonic()
    store = _store(cfg)
    batch = store.batch(batch_id)
    report = JobReport("batch", batch["site"] if batch else "")
    if batch is None or batch["state"] != "full":
        return report
    # The members' comment feeds are evidence: store their entries first if their job has not run.
    waiting = store.batch_unprocessed_feeds(batch_id)
    if waiting:
        with store.transaction():
            for fetch_id in waiting:
                process_comment_feed(store, fetch_id, time.time())
    snaps = store.load_snapshots(store.batch_snapshots(batch_id))
    pages = pages_of(store, snaps)
    previous = _latest_profile(cfg, store, report.site)
    # identifiers that held comments on the store's other sites (2013 §4.7), for a set without a
    # comment-free page
    known = store.known_comment_identifiers(report.site, before=cfg.known_before)
    results, learned = extract_and_learn(pages, known_comment_ids=known)
    profile = inherit_layout(learned, previous[1] if previous else None)
    fill_records(pages, results, profile)
    # Found before the write transaction (each page parsed again): other workers write meanwhile.
    systems = [comment_system_of(s) for s in snaps]
    with store.transaction():
        store.lock_sites([report.site])  # the check below and the writes are one step for the site
        if (store.batch(batch_id) or {}).get("state") != "full":
            return report  # another worker finished it meanwhile
        version = save_profile(
            store, report.site, profile, source="batch", batch=batch_id, snapshots=[s["id"] for s in snaps]
        )
        rows = [
            extraction_row(s, r, "batch", batch_id, version, system)
            for s, r, system in zip(snaps, results, systems, strict=True)
        ]
        write_extractions(store, rows)
        store.finish_batch(batch_id, version, time.time())
    report.pages, report.profile_version = len(snaps), version
    report.errors = sum(1 for r in results if r.error)
    report.seconds = time.monotonic() - started
    return report


def run_pending(cfg: JobConfig, site: str) -> JobReport:
    """Extract every snapshot of `site` that was stored before the site had a profile."""
    return run_pages(cfg, site, _store(cfg).pending_snapshots(site))


def run_provisional(cfg: JobConfig, site: str) -> JobReport:
    """Extract the pages of a site that has no profile yet (its first batch is not full): the first
    fetches of its articles as one set (a page alone when it has one), each re-fetch with that set's
    profile. Stored as method 'provisional', profile version 0, each page with a warning: the first
    batch's extraction, or a profile's, replaces them. Small blogs get posts and comments at once."""
    started = time.monotonic()
    store = _store(cfg)
    report = JobReport("provisional", site)
    if _latest_profile(cfg, store, site) is not None:
        return report  # a batch finished meanwhile: its profile extracts the pages
    first: dict[str, int] = {}
    later: list[int] = []
    for snapshot, article in store.site_snapshots(site):
        if article in first or len(first) >= cfg.batch_size:
            later.append(snapshot)
        else:
            first[article] = snapshot
    if not first:
        return report
    snaps = store.load_snapshots(list(first.values()))
    pages = pages_of(store, snaps)
    # The site's home page beside its articles: a set of one article is still a set (template pages
    # show which blocks are the site's); their own extractions are not kept.
    stored = set_templates(store.template_pages(site, TEMPLATE_PAGES), len(pages))
    templates = [Page(t["url"], t["body"], t["headers"]) for t in stored]
    known = store.known_comment_identifiers(site, before=cfg.known_before)
    results, profile = extract_and_learn([*pages, *templates], known_comment_ids=known)
    results = results[: len(pages)]
    fill_records(pages, results, profile)
    made_of = set_made_of(len(pages), [t["kind"] for t in stored])
    note = (
        f"provisional: {made_of}, the articles the site has so far;"
        f" its first full batch of {cfg.batch_size} replaces this"
    )
    rows = [extraction_row(s, _noted(r, note), "provisional", None, 0) for s, r in zip(snaps, results, strict=True)]
    for start in range(0, len(later), 20):
        chunk = store.load_snapshots(later[start : start + 20])
        for snap, page in zip(chunk, pages_of(store, chunk), strict=True):
            rows.append(extraction_row(snap, _noted(profile.extract(page), note), "provisional", None, 0))
    with store.transaction():
        store.lock_sites([site])
        if _latest_profile(cfg, store, site) is None:
            write_extractions(store, rows)
            report.pages = len(rows)
    report.errors = sum(1 for r in results if r.error)
    report.seconds = time.monotonic() - started
    return report


def set_templates(stored: Sequence[dict[str, Any]], articles: int) -> list[dict[str, Any]]:
    """The template pages a provisional set of `articles` articles holds: those of the articles' own
    kind (a previous article) when there are any; else the listing pages (home, archive), but only
    beside two or more articles.

    A listing shows the articles' own text, which then reads as the template's: beside a lone
    article of the dev corpus's WordPress sites, post F1 was 0.999 alone (the single-page steps),
    0.820 with the home page, 0.996 with a previous article (bench/template_pages_corpus.py). Beside
    several articles a listing is the set's comment-free page, which the separation needs when every
    article already has comments: without it the farm's sets of 2 and 5 articles lost 3-4 comments
    in 1,000 blogs and kept two author lines as comments (bench/farm_sets.py)."""
    same_kind = [t for t in stored if t["kind"] == PREVIOUS_ARTICLE]
    if same_kind:
        return same_kind
    return list(stored) if articles >= 2 else []


def set_made_of(articles: int, template_kinds: Sequence[str] = ()) -> str:
    """What a provisional set was made of, its template pages by kind (crawler.templatelinks):
    set_made_of(1, ["home page", "previous article"])
    == "set of 1 article + 2 template pages (home page, previous article)"."""
    made = f"set of {articles} article{'s' if articles != 1 else ''}"
    if not template_kinds:
        return made
    count = len(template_kinds)
    return made + f" + {count} template page{'s' if count != 1 else ''} ({', '.join(template_kinds)})"


def _noted(ext: PageExtraction, note: str) -> PageExtraction:
    ext.warnings.append(note)
    return ext


def run_pages(cfg: JobConfig, site: str, snapshot_ids: Sequence[int]) -> JobReport:
    """Extract single snapshots with the site's newest profile; re-learn when the template drifted."""
    started = time.monotonic()
    store = _store(cfg)
    report = JobReport("profile", site)
    latest = _latest_profile(cfg, store, site) if snapshot_ids else None
    if latest is None:
        return report
    version, profile, learned_from = latest
    done = store.extraction_states(snapshot_ids)
    todo = [
        i
        for i in snapshot_ids
        if i not in done or (done[i]["method"] != "batch" and (done[i]["profile_version"] or 0) < version)
    ]
    first_version = version
    for start in range(0, len(todo), 20):  # 20 pages per read and per write transaction
        rows: list[list[Any]] = []
        snaps = store.load_snapshots(todo[start : start + 20])
        for snap, page in zip(snaps, pages_of(store, snaps), strict=True):
            ext = profile.extract(page)
            match = ext.template_match
            if (
                ext.error is None
                and match is not None
                and match < cfg.drift_threshold
                and snap["id"] not in learned_from
            ):
                relearned = _relearn(cfg, store, snap, page, profile, match, report)
                if relearned is not None:
                    version, profile, ext, learned_from = relearned
            rows.append(extraction_row(snap, ext, "profile", None, version))
            report.errors += ext.error is not None
        if rows:
            with store.transaction():
                store.lock_sites([site])
                write_extractions(store, rows)
        report.pages += len(rows)
    if version > first_version:
        # Pages the old template's profile read poorly get the new profile too.
        poor = store.poorly_matched(site, version, cfg.drift_threshold)
        for start in range(0, len(poor), 20):
            snaps = store.load_snapshots(poor[start : start + 20])
            pages = pages_of(store, snaps)
            rows = [
                extraction_row(s, profile.extract(page), "profile", None, version)
                for s, page in zip(snaps, pages, strict=True)
            ]
            with store.transaction():
                store.lock_sites([site])
                write_extractions(store, rows)
            report.pages += len(rows)
    report.profile_version = version
    report.seconds = time.monotonic() - started
    return report


def _relearn(
    cfg: JobConfig,
    store: StoreBackend,
    snap: dict[str, Any],
    page: Page,
    old: SiteProfile,
    match: float,
    report: JobReport,
) -> tuple[int, SiteProfile, PageExtraction, set[int]] | None:
    """Learn a profile from this page and the site's newest fresh pages; keep it if the page fits it better."""
    report.drifts += 1
    ids = [snap["id"], *store.newest_fresh_snapshots(snap["site"], cfg.batch_size - 1, snap["id"], snap["article"])]
    if len(ids) < 2:
        return None
    pages = [page, *pages_of(store, store.load_snapshots(ids[1:]))]
    new = learn_profile(pages, old.options, store.known_comment_identifiers(snap["site"], before=cfg.known_before))
    ext = new.extract(page)
    if ext.error is not None or (ext.template_match or 0.0) <= match:
        report.messages.append(
            ("info", f"Site {snap['site']}: {snap['url']} matches {match:.2f} of its profile; re-learning did not help")
        )
        return None
    with store.transaction():
        store.lock_sites([snap["site"]])  # the next version number is read, then written
        version = save_profile(store, snap["site"], new, source="drift", batch=None, snapshots=ids)
    report.messages.append(
        (
            "warning",
            f"Site {snap['site']}: template drift at {snap['url']} (matched {match:.2f} of the profile);"
            f" learned profile v{version} from {len(ids)} newest pages (match now {ext.template_match:.2f})",
        )
    )
    return version, new, ext, set(ids)


def run_feed(cfg: JobConfig, fetch_id: int) -> JobReport:
    """Store the entries of a persisted comment feed (the check on its article's extracted comments)."""
    store = _store(cfg)
    with store.transaction():
        done = process_comment_feed(store, fetch_id, time.time())
    site, entries = done if done is not None else ("", 0)
    return JobReport("feed", site, pages=entries)
