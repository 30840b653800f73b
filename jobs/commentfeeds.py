"""Comment feeds as a check on extracted comments: parse a stored comment feed into its entries.

entries = parse_comment_feed(body, "http://h/2024/05/a/feed/")   # [{"guid", "author", "date", "text", "link"}]

The spider yields a `CommentFeedItem` (crawler.items), persisted raw first (store.commentfeeds);
a job then parses it here and stores its entries (`process_comment_feed`). The storage and the
per-site agreement check are in store.commentfeeds.
"""

from __future__ import annotations

from extractor.comments.commentfeed import parse_comment_feed
from store import StoreBackend


def process_comment_feed(store: StoreBackend, fetch_id: int, now: float) -> tuple[str, int] | None:
    """Parse a stored comment feed into `feed_comments` and mark it processed (call in a transaction).

    Returns (site, entries), or None when it was processed already (running it twice is harmless).
    """
    row = store.comment_feed_fetch(fetch_id)
    if row is None:
        return None
    store.lock_sites([row["site"]])  # a batch job and the feed's own job may both get here
    row = store.comment_feed_fetch(fetch_id)  # again, under the lock: the other may have done it
    if row is None:
        return None
    entries = parse_comment_feed(row["body"], row["url"], row["headers"])
    fetched = row["fetched_at"] or now
    store.store_feed_comments(article=row["article"], site=row["site"], entries=entries, fetched_at=fetched)
    store.mark_comment_feed_processed(fetch_id, len(entries), now)
    return row["site"], len(entries)
