"""Comment feeds as a check on extracted comments: parse a stored comment feed into its entries.

entries = parse_comment_feed(body, "http://h/2024/05/a/feed/")   # [{"guid", "author", "date", "text", "link"}]

The spider yields a `CommentFeedItem` (crawler.items), persisted raw first (store.commentfeeds);
a job then parses it here and stores its entries (`process_comment_feed`). The storage and the
per-site agreement check are in store.commentfeeds.
"""

from __future__ import annotations

from extractor.commentfeed import parse_comment_feed
from store.commentfeeds import comment_feed_fetch, mark_comment_feed_processed, store_feed_comments
from store.sql import Database


def process_comment_feed(db: Database, fetch_id: int, now: float) -> tuple[str, int] | None:
    """Parse a stored comment feed into `feed_comments` and mark it processed (call in a transaction).

    Returns (site, entries), or None when it was processed already (running it twice is harmless).
    """
    row = comment_feed_fetch(db, fetch_id)
    if row is None:
        return None
    db.lock_sites([row["site"]])  # a batch job and the feed's own job may both get here
    row = comment_feed_fetch(db, fetch_id)  # again, under the lock: the other may have done it
    if row is None:
        return None
    entries = parse_comment_feed(row["body"], row["url"], row["headers"])
    fetched = row["fetched_at"] or now
    store_feed_comments(db, article=row["article"], site=row["site"], entries=entries, fetched_at=fetched)
    mark_comment_feed_processed(db, fetch_id, len(entries), now)
    return row["site"], len(entries)
