"""The store's schema: tables, columns, indexes and full-text indexes, as data (store.sqlite applies it).

sorted(TABLES)  # ['articles', 'batch_members', 'batches', 'comment_feed_fetches', ...]

Columns are added to existing tables when missing, so older databases keep working after an
upgrade. See docs/schema.md for what each table holds.
"""

from __future__ import annotations

from typing import Any

# name -> (columns, pk, foreign keys, defaults). Columns are added to existing tables when
# missing, so older databases keep working after an upgrade.
TABLES: dict[str, tuple[dict[str, Any], str | tuple[str, ...], list[tuple[str, str, str]], dict[str, Any]]] = {
    "sites": (
        {
            "name": str,
            "home_url": str,
            "title": str,
            "added_at": str,
            # comment-feed check (store.commentfeeds), over the site's recently checked articles
            "comment_feed_articles": int,
            "comment_feed_exact": float,
            "comment_feed_f1": float,
            "comment_feed_checked_at": str,
            # a 429/503 Retry-After: nothing of the site is requested before this (crawler.politehandler)
            "throttled_until": str,
        },
        "name",
        [],
        {},
    ),
    "feeds": (
        {
            "url": str,  # as written in the feeds file (feed or home page)
            "site": str,
            "feed_url": str,  # the feed actually polled (discovered for a home page)
            "title": str,
            "etag": str,
            "last_modified": str,
            "added_at": str,
            "first_polled_at": str,
            "last_polled_at": str,
            "last_ok_at": str,
            "last_changed_at": str,  # last poll that returned the feed (not a 304)
            "next_check": str,
            "interval": float,  # current adaptive interval, seconds
            "failures": int,  # consecutive failures
            "last_status": int,
            "last_error": str,
            "muted_at": str,
            "mute_reason": str,
            "polls": int,
            "not_modified": int,
        },
        "url",
        [("site", "sites", "name")],
        {"failures": 0, "polls": 0, "not_modified": 0},
    ),
    "articles": (
        {
            "url": str,  # normalized link: the natural key
            "site": str,
            "feed": str,
            "entry_id": str,  # guid, else the normalized link
            "guid": str,
            "link": str,  # as found in the feed; what is requested
            "title": str,
            "author": str,
            "published": str,
            "comment_rss": str,
            "slash_comments": int,  # latest value seen in the feed
            "slash_seen_at": str,
            "discovered_at": str,
            "first_fetched_at": str,
            "last_fetched_at": str,
            "fetches": int,
            "refetches_skipped": int,
            "state": str,  # pending | active | done | failed | gone
            "next_fetch_at": str,
            "failures": int,
            "last_status": int,
            "last_error": str,
            "slash_at_fetch": int,  # slash:comments when the page was last fetched
            "comment_feed_sig": str,  # comment feed signature when the page was last fetched
            "comment_feed_etag": str,
            "comment_feed_last_modified": str,
            "comment_feed_entries": int,  # entries of the comment feed when last read (store.commentfeeds)
            "comment_feed_fetched_at": str,
            # where the comments live (extractor.comments.commentsystems): html, isso, disqus, ..., unknown-script
            "comment_system": str,
            "comments_state": str,  # harvested | none | not-harvested: <reason> (store.commentsystems)
        },
        "url",
        [("site", "sites", "name"), ("feed", "feeds", "url")],
        {"fetches": 0, "refetches_skipped": 0, "failures": 0, "state": "pending"},
    ),
    "snapshots": (
        {
            "id": int,
            "article": str,
            "site": str,
            "kind": str,  # first | refetch
            "url": str,  # final URL after redirects
            "request_url": str,
            "status": int,
            "headers": str,  # JSON object: name -> list of values
            "body": bytes,  # gzip
            "body_size": int,
            "body_sha256": str,
            "fetched_at": str,
        },
        "id",
        [("article", "articles", "url"), ("site", "sites", "name")],
        {},
    ),
    # Pages of a site's template beside its articles (its home page, then a previous article or an
    # archive page it links): the other pages of a new site's provisional set
    # (jobs.extraction.run_provisional), never posts. One row per URL, the latest fetch.
    "template_pages": (
        {
            "id": int,
            "site": str,
            "url": str,
            "status": int,
            "headers": str,  # JSON object: name -> list of values
            "body": bytes,  # gzip
            "body_size": int,
            "fetched_at": str,
            "kind": str,  # "home page", "previous article", "archive page" (crawler.templatelinks)
        },
        "id",
        [("site", "sites", "name")],
        {"kind": "home page"},
    ),
    "schema_migrations": (
        {
            "version": int,  # store.migrations.MIGRATIONS, applied in order, each once
            "name": str,
            "applied_at": str,
        },
        "version",
        [],
        {},
    ),
    "runs": (
        {
            "id": int,
            "started_at": str,
            "finished_at": str,
            "pid": int,
            "host": str,  # the machine the crawl ran on (several crawler workers may share a store)
            "feeds_file": str,
            "watch": int,
            "reason": str,
            "summary": str,
            "stats": str,  # JSON
        },
        "id",
        [],
        {},
    ),
    "site_leases": (
        {
            "site": str,  # sites.name: one crawler worker at a time fetches a site (store.leases)
            "owner": str,  # the worker holding it: "host pid N #token"
            "expires_at": str,  # the lease lapses then unless renewed; another worker may take it
            "claimed_at": str,  # when the current owner took it
            "claims": int,  # how many times the site was claimed (takeovers included)
            "released_by": str,  # the worker that last gave it back (its extraction may be queued still)
        },
        "site",
        [("site", "sites", "name")],
        {"claims": 0},
    ),
    # -- extraction (store.batches, jobs.extraction) ------------------------------------
    "batches": (
        {
            "id": int,
            "site": str,
            "state": str,  # open | full | done
            "size": int,  # BATCH_SIZE when opened
            "members": int,
            "opened_at": str,
            "filled_at": str,
            "done_at": str,
            "profile_version": int,  # the profile learned from it
        },
        "id",
        [("site", "sites", "name")],
        {"state": "open", "members": 0},
    ),
    "batch_members": (
        {"batch": int, "snapshot": int, "article": str, "site": str, "position": int},
        ("batch", "snapshot"),
        [("batch", "batches", "id"), ("snapshot", "snapshots", "id"), ("article", "articles", "url")],
        {},
    ),
    "profiles": (
        {
            "site": str,
            "version": int,  # 1, 2, ... per site
            "source": str,  # batch | drift
            "batch": int,
            "snapshots": str,  # JSON list of the snapshot ids it was learned from
            "pages": int,
            "learned_at": str,
            "profile": str,  # SiteProfile.to_json()
            "warnings": str,  # JSON list
        },
        ("site", "version"),
        [("site", "sites", "name"), ("batch", "batches", "id")],
        {},
    ),
    "extractions": (
        {
            "snapshot": int,
            "article": str,
            "site": str,
            "method": str,  # batch | profile
            "batch": int,
            "profile_version": int,
            "template_match": float,
            "post": str,
            "comments": str,  # JSON list of comment records, each with its fingerprint
            "comment_count": int,
            "encoding": str,
            "encoding_source": str,  # declared (BOM, HTTP header, <meta>) | guessed (extractor.core.decode)
            "error": str,
            "warnings": str,  # JSON list
            "decided_by": str,  # set | profile | every-page-has-comments fallback | single page
            "confidence": float,
            "comment_system": str,  # detected in the page (extractor.comments.commentsystems); NULL before it was
            # the post's byline on the page (extractor.comments.postmeta): its author and date (ISO 8601)
            "post_author": str,
            "published": str,
        },
        "snapshot",
        [("snapshot", "snapshots", "id"), ("article", "articles", "url"), ("site", "sites", "name")],
        {},
    ),
    "posts": (
        {
            "url": str,  # the article (articles.url)
            "site": str,
            "title": str,
            "author": str,
            "published": str,
            "text": str,
            "fetched_at": str,  # of the snapshot the text comes from
            "snapshot": int,
            "method": str,
            "decided_by": str,
            "confidence": float,
            "profile_version": int,
            "comments": int,  # comments on the page at that snapshot
            "comment_system": str,  # articles.comment_system and comments_state, for posts and export
            "comments_state": str,
        },
        "url",
        [("url", "articles", "url"), ("site", "sites", "name"), ("snapshot", "snapshots", "id")],
        {},
    ),
    "comments": (
        {
            "article": str,
            "fingerprint": str,
            "site": str,
            "text": str,
            "author": str,
            "date": str,  # ISO 8601 when the page's date parses
            "date_precision": str,  # day | minute | second
            "date_raw": str,
            "parent": str,  # fingerprint of the comment replied to
            "position": int,  # order on the page where last seen, from 0
            "first_seen": str,
            "last_seen": str,
            "gone_at": str,  # first fetch that no longer showed it
            "first_snapshot": int,
            "last_snapshot": int,
            "source": str,  # html | api:<system> (store.commentsystems)
        },
        ("article", "fingerprint"),
        [("article", "articles", "url"), ("site", "sites", "name")],
        {},
    ),
    "comment_versions": (
        {
            "article": str,
            "fingerprint": str,  # the comment (comments.fingerprint)
            "seen_from": str,  # first fetch showing this text
            "site": str,
            "text": str,  # an earlier text of the comment
            "seen_until": str,  # last fetch showing this text
            "first_snapshot": int,
            "last_snapshot": int,
        },
        ("article", "fingerprint", "seen_from"),
        [("article", "articles", "url"), ("site", "sites", "name")],
        {},
    ),
    "comment_feed_fetches": (
        {
            "id": int,
            "article": str,
            "site": str,
            "url": str,  # the comment feed as fetched (final URL)
            "headers": str,  # JSON object: name -> value
            "body": bytes,  # gzip
            "fetched_at": str,
            "entries": int,  # entries parsed into feed_comments (NULL: not processed yet)
            "processed_at": str,
            "attempts": int,  # processing attempts (jobs.extraction retries a failed one)
            "error": str,  # the latest processing failure
        },
        "id",
        [("article", "articles", "url"), ("site", "sites", "name")],
        {"attempts": 0},
    ),
    "feed_comments": (
        {
            "article": str,
            "guid": str,
            "site": str,
            "author": str,
            "date": str,
            "text": str,
            "link": str,
            "first_seen": str,
            "last_seen": str,  # the latest comment-feed fetch that listed it
        },
        ("article", "guid"),
        [("article", "articles", "url"), ("site", "sites", "name")],
        {},
    ),
    "comment_api_reads": (
        {
            "id": int,
            "article": str,
            "site": str,
            "system": str,  # the comment system read (isso)
            "url": str,  # the first endpoint request of the read
            "fetched_at": str,  # when its last response arrived
            "requests": int,  # endpoint requests made (pagination followed)
            "complete": int,  # 1: every page read; 0: budget hit or a request failed
            "error": str,  # why the read failed or stopped short
            "body": bytes,  # gzip JSON list of {url, status, body}: every response, raw
            "comments": str,  # JSON comment records parsed from it (NULL: not processed yet)
            "processed_at": str,
        },
        "id",
        [("article", "articles", "url"), ("site", "sites", "name")],
        {},
    ),
    # -- bulk re-extraction on Dask (store.reextractions): what a killed run resumes from --
    "reextractions": (
        {
            "scope": str,  # the run's filters as given: "all", "--site S", "--since 7d", ...
            "site": str,
            "started_at": str,  # start of the re-extraction run (kept when it is resumed)
            "since": str,  # the run's --since as ISO time (NULL: every page)
            "done_at": str,  # when the site's task finished (NULL: still to do)
            "pages": int,  # pages the task re-extracted
        },
        ("scope", "site"),
        [],
        {},
    ),
    # -- web archives imported (store.warcimports): a file imported once is skipped after --
    "warc_imports": (
        {
            "sha256": str,  # of the file's bytes: the same archive under another name is skipped too
            "path": str,  # as given when imported
            "size": int,
            "records": int,
            "pages": int,  # page captures stored
            "feeds": int,  # feed captures read (site feeds and comment feeds)
            "skipped": str,  # JSON object: reason -> damaged records skipped
            "imported_at": str,
        },
        "sha256",
        [],
        {},
    ),
}
INDEXES: list[tuple[str, list[str], bool]] = [
    ("articles", ["site", "entry_id"], True),
    ("articles", ["state", "next_fetch_at"], False),
    ("articles", ["feed"], False),
    ("snapshots", ["article", "fetched_at"], True),
    ("snapshots", ["site", "kind"], False),
    ("template_pages", ["site", "url"], True),
    ("feeds", ["site"], False),
    ("feeds", ["next_check"], False),  # due polls found without listing every feed (CrawlState.due_sites)
    ("batches", ["site", "state"], False),
    ("batch_members", ["snapshot"], True),
    ("batch_members", ["article"], True),  # never two snapshots of one article in batches
    ("extractions", ["article"], False),
    ("extractions", ["site", "profile_version"], False),
    ("posts", ["site", "published"], False),
    ("posts", ["published"], False),
    ("comments", ["site", "first_seen"], False),
    ("comments", ["first_seen"], False),
    ("feed_comments", ["site"], False),
    ("comment_feed_fetches", ["article", "fetched_at"], True),
    ("comment_feed_fetches", ["processed_at"], False),
    ("articles", ["site", "comment_feed_fetched_at"], False),
    ("site_leases", ["expires_at"], False),
    ("comment_api_reads", ["article", "fetched_at"], True),
]
# Full-text search: table -> indexed columns. Trigram tokenizer: substring search that works
# for Japanese as for English (needs SQLite >= 3.34; query terms of 3+ characters).
FTS: dict[str, list[str]] = {"posts": ["title", "text"], "comments": ["text", "author"]}
# Every table a store may hold (FTS5 keeps its index in four shadow tables per FTS table).
KNOWN = {*TABLES, *(f"{t}_fts{s}" for t in FTS for s in ("", "_data", "_idx", "_docsize", "_config"))}


def fts_sql(table: str, columns: list[str]) -> list[str]:
    """An external-content FTS5 table kept in sync by triggers, as `sqlite-utils enable-fts` makes it
    (so Datasette and sqlite-utils recognise it); written out because their helper commits."""
    cols = ", ".join(f"[{c}]" for c in columns)
    new = ", ".join(f"new.[{c}]" for c in columns)
    old = ", ".join(f"old.[{c}]" for c in columns)
    fts = f"[{table}_fts]"
    delete = f"INSERT INTO {fts} ({fts}, rowid, {cols}) VALUES('delete', old.rowid, {old});"
    insert = f"INSERT INTO {fts} (rowid, {cols}) VALUES (new.rowid, {new});"
    return [
        f"CREATE VIRTUAL TABLE {fts} USING FTS5 (\n    {cols},\n    tokenize='trigram',\n    content=[{table}]\n)",
        f"INSERT INTO {fts} (rowid, {cols}) SELECT rowid, {cols} FROM [{table}]",
        f"CREATE TRIGGER IF NOT EXISTS [{table}_ai] AFTER INSERT ON [{table}] BEGIN {insert} END",
        f"CREATE TRIGGER IF NOT EXISTS [{table}_ad] AFTER DELETE ON [{table}] BEGIN {delete} END",
        f"CREATE TRIGGER IF NOT EXISTS [{table}_au] AFTER UPDATE ON [{table}] BEGIN {delete} {insert} END",
    ]
