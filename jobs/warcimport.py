"""Web archives into the store (`scrapy import-warc FILES…`): every capture persisted first, then
extracted by site set exactly as the crawl extracts its pages.

plan, report = import_archives(store, ["a.warc.gz", "b.warc"], batch_size=10, progress=print)

which is: plan_import (pass 1: files indexed, sites recognised), store_file for each file (pass 2:
pages stored, file recorded), extract_imported (the crawl's extraction jobs) over sites_to_extract.

1. Index (extractor.archives.warc, pass 1): each file's page and feed captures by offset, no body kept;
   a file imported before (`warc_imports`, by SHA-256 of its bytes) is left out. Sites and
   articles are recognised over all files together (extractor.archives.warcsites.group_sites), since a site's
   feed may sit in another file than its pages; an article stored before keeps its site.
2. Store, file by file: each page as a snapshot of its article (`fetched_at` = capture time; the
   article's oldest capture is its `first` fetch, later ones `refetch`), each comment feed that
   an entry announced (wfw:commentRss) as a `comment_feed_fetches` row, as the crawl stores them;
   then the file is recorded. Bodies are read again one at a time: memory holds one page.
3. Extract, site by site, with the crawl's jobs (jobs.extraction): comment feeds parsed, first
   fetches batched by publication order (store.batches), each full batch extracted as one set
   and its profile learned, the other pages with the newest profile, a site without a full
   batch provisionally. Other sites' comment identifiers count as of the import's start.
   A site with pages never extracted (an import stopped after step 2) is extracted too, so
   running a stopped import again completes it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from crawler.templatelinks import HOME
from extractor.archives.feedlinks import FeedEntryLink
from extractor.archives.records import ReadTally
from extractor.archives.warc import ArchiveIndex, Capture, CaptureReader, PageCapture, RecordRef
from extractor.archives.warcsites import comment_feed_keys, feed_entries, group_sites, template_pages
from jobs import extraction
from jobs.reextract import prepare
from store import StoreBackend
from store.clock import to_iso
from store.pages import PageRecord, StoredBody, stored_body
from store.urls import normalize_url
from store.warcimports import ArchivedArticle

_WRITE_CHUNK = 50  # captures per write transaction


@dataclass(frozen=True)
class ArchiveFile:
    path: str
    sha256: str
    size: int


@dataclass(frozen=True)
class ArchivedPage:
    ref: RecordRef
    url: str
    captured_at: float
    kind: str  # first | refetch
    article: ArchivedArticle


@dataclass(frozen=True)
class ArchivedTemplatePage:
    ref: RecordRef
    url: str
    captured_at: float
    site: str
    kind: str = HOME  # crawler.templatelinks: home page, previous article, archive page


@dataclass(frozen=True)
class ArchivedCommentFeed:
    ref: RecordRef
    url: str
    captured_at: float
    article: ArchivedArticle


@dataclass
class ImportPlan:
    """What pass 1 found, per file: plain values, shipped to Dask workers as they are."""

    files: list[ArchiveFile] = field(default_factory=list)
    already: list[str] = field(default_factory=list)  # files imported before, skipped
    pages: dict[str, list[ArchivedPage]] = field(default_factory=dict)  # path -> its pages
    comment_feeds: dict[str, list[ArchivedCommentFeed]] = field(default_factory=dict)
    template_pages: dict[str, list[ArchivedTemplatePage]] = field(default_factory=dict)
    tallies: dict[str, ReadTally] = field(default_factory=dict)
    sites: list[str] = field(default_factory=list)

    @property
    def tally(self) -> ReadTally:
        total = ReadTally()
        for tally in self.tallies.values():
            total.merge(tally)
        return total


@dataclass
class ImportReport:
    files: int = 0
    pages: int = 0  # snapshots stored
    comment_feeds: int = 0
    extracted: int = 0  # pages extracted
    sites: int = 0


def file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _sha256_here(paths: list[str]) -> list[str]:
    return [file_sha256(path) for path in paths]


def archive_files(
    store: StoreBackend, paths: list[str], digests: Callable[[list[str]], list[str]] | None = None
) -> tuple[list[ArchiveFile], list[str]]:
    """(files to import, files imported before): a file named twice, or whose bytes are in the store,
    once. `digests`: the files' SHA-256 (file_sha256 of each, here by default; a cluster's workers)."""
    found: dict[str, ArchiveFile] = {}
    absolute = [os.path.abspath(path) for path in paths]
    for path, digest in zip(absolute, (digests or _sha256_here)(absolute), strict=True):
        found.setdefault(digest, ArchiveFile(path, digest, Path(path).stat().st_size))
    done = store.imported_files(list(found))
    return [f for d, f in found.items() if d not in done], [f.path for d, f in found.items() if d in done]


def _iso(value: str | float | None) -> str | None:
    if value is None or value == "":
        return None
    return to_iso(value) if isinstance(value, float) else str(value)


class ArticleUrls:
    """articles.url of captured pages: as the export's note says, else the URL normalized as the
    crawl does; each URL normalized once (an article's captures, and the lookups, repeat it)."""

    def __init__(self, index: ArchiveIndex) -> None:
        self.notes = index.notes
        self.normalized: dict[str, str] = {}

    def __call__(self, page: PageCapture) -> str:
        raw = self.notes.get(page.record_id, {}).get("article") or page.url
        if raw not in self.normalized:
            self.normalized[raw] = normalize_url(raw)
        return self.normalized[raw]


def _article(page: PageCapture, url: str, note: dict[str, str], entry: FeedEntryLink | None) -> ArchivedArticle:
    """What the note (our export) or else the feed entry listing the page says of its article."""
    return ArchivedArticle(
        site=page.site,
        url=url,
        link=entry.link if entry else page.url,
        feed_url=note.get("via-feed") or (entry.feed_url if entry else None),
        title=note.get("entry-title") or (entry.title if entry else None),
        author=entry.author if entry else None,
        published=_iso(note.get("entry-published") or (entry.published if entry else None)),
        guid=note.get("entry-guid") or (entry.guid if entry else None),
        comment_rss=entry.comment_rss if entry else None,
    )


def plan_from_index(
    index: ArchiveIndex, files: list[ArchiveFile], stored: dict[str, str], article_url: ArticleUrls
) -> ImportPlan:
    """Sites, articles and kinds of every capture the index holds; `stored`: article -> site in the store."""
    plan = ImportPlan(files=list(files), pages={f.path: [] for f in files}, comment_feeds={f.path: [] for f in files})
    entries = feed_entries(index)
    articles: dict[str, ArchivedArticle] = {}
    oldest: dict[str, PageCapture] = {}
    captures = [page for pages in group_sites(index).values() for page in pages]
    for page in captures:
        url = article_url(page)
        if url not in articles:
            article = _article(page, url, index.notes.get(page.record_id, {}), entries.get(page.key))
            # An article stored before keeps its site.
            articles[url] = dataclasses.replace(article, site=stored.get(url) or article.site)
        if url not in oldest or page.captured_at < oldest[url].captured_at:
            oldest[url] = page
    for page in captures:
        note = index.notes.get(page.record_id, {})
        url = article_url(page)
        # An article stored before (an earlier import, a crawl) has its first fetch already.
        kind = note.get("kind") or ("first" if oldest[url] is page and url not in stored else "refetch")
        plan.pages[page.ref.path].append(ArchivedPage(page.ref, page.url, page.captured_at, kind, articles[url]))
    for page in template_pages(index):
        template_kind = index.notes.get(page.record_id, {}).get("template-kind") or HOME
        found = ArchivedTemplatePage(page.ref, page.url, page.captured_at, page.site, template_kind)
        plan.template_pages.setdefault(page.ref.path, []).append(found)
    announced = comment_feed_keys(index)
    for feed in index.feeds:
        note = index.notes.get(feed.record_id, {})
        of = articles.get(normalize_url(note.get("article") or announced.get(feed.key, "")))
        if of is not None and (note.get("kind") == "comment-feed" or feed.key in announced):
            plan.comment_feeds[feed.ref.path].append(ArchivedCommentFeed(feed.ref, feed.url, feed.captured_at, of))
    for pages in plan.pages.values():
        pages.sort(key=lambda p: (p.ref.offset, p.captured_at))
    plan.sites = sorted({a.site for a in articles.values()})
    return plan


def plan_import(store: StoreBackend, paths: list[str], progress: Callable[[str], None] | None = None) -> ImportPlan:
    """Pass 1 in this process: index the files not imported before, recognise sites and articles."""
    files, already = archive_files(store, paths)
    index = ArchiveIndex()
    tallies: dict[str, ReadTally] = {}
    for number, archive in enumerate(files, 1):
        tallies[archive.path] = index.add_file(archive.path)
        if progress is not None:
            progress(_read_line(number, len(files), archive.path, index.tally))
    return finish_plan(store, index, files, already, tallies)


def finish_plan(
    store: StoreBackend,
    index: ArchiveIndex,
    files: list[ArchiveFile],
    already: list[str],
    tallies: dict[str, ReadTally],
) -> ImportPlan:
    """The plan of an index built here or gathered from workers."""
    for path, skipped in index.resolve_revisits().items():  # a revisit's response may be in another file
        tallies[path].skipped["revisit without its original"] += skipped
    article_url = ArticleUrls(index)
    stored = store.archived_article_sites(article_url(p) for p in index.pages)
    plan = plan_from_index(index, files, stored, article_url)
    plan.already, plan.tallies = already, tallies
    return plan


def sites_to_extract(store: StoreBackend, plan: ImportPlan) -> list[str]:
    """The plan's sites, and those an import stopped before extracting (its files are skipped now)."""
    return sorted(set(plan.sites) | store.unextracted_sites())


def _read_line(number: int, total: int, path: str, tally: ReadTally) -> str:
    return (
        f"read {number}/{total} files ({Path(path).name}): {tally.records} records,"
        f" {tally.pages} pages, {tally.feeds} feeds so far"
    )


@dataclass
class _FeedItem:
    """A comment feed in the shape store.commentfeeds.save_comment_feed takes."""

    site: str
    article_url: str
    url: str
    body: bytes
    headers: dict[str, str]
    fetched_at: float


def store_file(store: StoreBackend, plan: ImportPlan, archive: ArchiveFile) -> ImportReport:
    """Pass 2 for one file: its pages and comment feeds committed, then the file recorded as imported
    (what was stored is the report's). Running it again stores nothing twice."""
    pages = plan.pages.get(archive.path, [])
    feeds = plan.comment_feeds.get(archive.path, [])
    now = time.time()
    with CaptureReader() as reader:
        _store_pages(store, reader, pages, now)
        _store_template_pages(store, reader, plan.template_pages.get(archive.path, []))
        with store.transaction():  # the feeds and the file's record: one step
            _store_feeds(store, reader, feeds, now)
            record_file(store, plan, archive, now)
    return ImportReport(files=1, pages=len(pages), comment_feeds=len(feeds))


def site_plans(plan: ImportPlan) -> dict[str, ImportPlan]:
    """The plan split by site, each part with every file (a site's pages may sit in many files): what
    one site's task stores (store_site). Files keep their order, and pages theirs within a file."""
    parts: dict[str, ImportPlan] = {}

    def part(site: str) -> ImportPlan:
        if site not in parts:
            parts[site] = ImportPlan(files=plan.files, sites=[site])
        return parts[site]

    for path, pages in plan.pages.items():
        for page in pages:
            part(page.article.site).pages.setdefault(path, []).append(page)
    for path, templates in plan.template_pages.items():
        for template in templates:
            part(template.site).template_pages.setdefault(path, []).append(template)
    for path, feeds in plan.comment_feeds.items():
        for feed in feeds:
            part(feed.article.site).comment_feeds.setdefault(path, []).append(feed)
    return parts


def store_site(store: StoreBackend, plan: ImportPlan) -> ImportReport:
    """Pass 2 for one site's part of the plan (site_plans), file by file as store_file stores them, so
    that the site's rows come in the single-process import's order; files are not recorded here
    (record_file, once every site is stored). Running it again stores nothing twice."""
    report = ImportReport(sites=1)
    now = time.time()
    with CaptureReader() as reader:
        for archive in plan.files:
            pages = plan.pages.get(archive.path, [])
            feeds = plan.comment_feeds.get(archive.path, [])
            _store_pages(store, reader, pages, now)
            _store_template_pages(store, reader, plan.template_pages.get(archive.path, []))
            if feeds:
                _store_feeds(store, reader, feeds, now)
            report.pages += len(pages)
            report.comment_feeds += len(feeds)
    return report


def _store_template_pages(store: StoreBackend, reader: CaptureReader, pages: list[ArchivedTemplatePage]) -> None:
    for page in pages:
        capture = reader.read(page.ref, page.url, page.captured_at)  # read before the write lock is taken
        with store.transaction():
            store.add_archived_site(page.site, time.time())  # its articles may be in a later file
            store.save_template_page(
                site=page.site,
                url=capture.url,
                status=capture.status,
                headers=capture.headers,
                body=capture.body,
                fetched_at=page.captured_at,
                kind=page.kind,
            )


def _store_pages(store: StoreBackend, reader: CaptureReader, pages: list[ArchivedPage], now: float) -> None:
    for start in range(0, len(pages), _WRITE_CHUNK):
        chunk = pages[start : start + _WRITE_CHUNK]
        # Read, compressed and hashed before the write lock is taken: other workers write meanwhile.
        records = [_page_record(page, reader.read(page.ref, page.url, page.captured_at)) for page in chunk]
        with store.transaction():
            for page, (record, body) in zip(chunk, records, strict=True):
                store.add_archived_article(page.article, now)
                store.save_page(record, offsets=(), body=body)


def _page_record(page: ArchivedPage, capture: Capture) -> tuple[PageRecord, StoredBody]:
    """The snapshot of a captured page, and its body as the store keeps it."""
    record = PageRecord(
        site=page.article.site,
        kind=page.kind,
        url=capture.url,
        request_url=capture.url,
        status=capture.status,
        headers=capture.headers,
        body=capture.body,
        fetched_at=page.captured_at,
        article_url=page.article.url,
    )
    return record, stored_body(capture.body)


def _store_feeds(store: StoreBackend, reader: CaptureReader, feeds: list[ArchivedCommentFeed], now: float) -> None:
    with store.transaction():
        for feed in feeds:
            capture = reader.read(feed.ref, feed.url, feed.captured_at)
            store.add_archived_article(feed.article, now)
            flat = {k.lower(): v[0] for k, v in capture.headers.items() if v}
            item = _FeedItem(feed.article.site, feed.article.url, capture.url, capture.body, flat, feed.captured_at)
            store.save_comment_feed(item)


def record_file(store: StoreBackend, plan: ImportPlan, archive: ArchiveFile, now: float) -> None:
    """The file recorded as imported (once everything of it is stored): a later import skips it."""
    tally = plan.tallies.get(archive.path, ReadTally())
    if not tally.records:
        return  # nothing readable: not recorded, so that the file is read again when given again
    counts = {"records": tally.records, "pages": len(plan.pages.get(archive.path, [])), "feeds": tally.feeds}
    store.record_import(
        sha256=archive.sha256, path=archive.path, size=archive.size, counts=counts, skipped=tally.skipped, now=now
    )


def prepare_extraction(store: StoreBackend, cfg: extraction.JobConfig) -> None:
    """Before the sites' extraction: comment feeds parsed (evidence), first fetches batched."""
    try:
        prepare(store, cfg)
    finally:
        extraction.close_stores()
    store.assign_unbatched(cfg.batch_size, time.time())


def prepare_site(store: StoreBackend, cfg: extraction.JobConfig, site: str) -> None:
    """prepare_extraction for one site whose pages are all stored (a Dask import's site task)."""
    prepare(store, cfg, site)
    store.assign_unbatched(cfg.batch_size, time.time(), site=site)


def extract_site(store: StoreBackend, cfg: extraction.JobConfig, site: str) -> int:
    """One site's pages extracted as the crawl does at its end; returns the pages extracted."""
    pages = 0
    for batch in store.full_batches(site):
        pages += extraction.run_batch(cfg, batch).pages
    pages += extraction.run_pending(cfg, site).pages
    pages += extraction.run_provisional(cfg, site).pages
    return pages


def extract_imported(
    store: StoreBackend, cfg: extraction.JobConfig, sites: list[str], progress: Callable[[str], None] | None = None
) -> int:
    """Step 3 in this process; returns the pages extracted."""
    prepare_extraction(store, cfg)
    total = 0
    try:
        for number, site in enumerate(sites, 1):
            total += extract_site(store, cfg, site)
            if progress is not None:
                progress(f"extracted {number}/{len(sites)} sites ({site}): {total} pages so far")
    finally:
        extraction.close_stores()
    return total


def import_archives(
    store: StoreBackend, paths: list[str], *, batch_size: int = 10, progress: Callable[[str], None] | None = None
) -> tuple[ImportPlan, ImportReport]:
    """The whole import in this process (see the module docstring)."""
    cfg = extraction.JobConfig(store.location, batch_size=max(2, batch_size), known_before=to_iso(time.time()))
    plan = plan_import(store, paths, progress)
    report = ImportReport(files=len(plan.files), sites=len(plan.sites))
    for number, archive in enumerate(plan.files, 1):
        stored = store_file(store, plan, archive)
        report.pages += stored.pages
        report.comment_feeds += stored.comment_feeds
        if progress is not None:
            progress(f"stored {number}/{len(plan.files)} files ({Path(archive.path).name}): {report.pages} pages")
    sites = sites_to_extract(store, plan)
    report.sites = len(sites)
    report.extracted = extract_imported(store, cfg, sites, progress)
    return plan, report
