"""A comment keeps one row across the extractions of its article (issue 28): a provisional set that
missed its author and date, the first full batch that finds them, a profile extraction of the
re-fetch. A later extraction that finds what an earlier one missed updates the row, never adds one."""

from __future__ import annotations

from typing import Any

from test_store_schema import NOW, add_page

from extractor import PageExtraction
from extractor.comments.records import CommentRecord
from jobs.extraction import extraction_row
from store import open_store
from store.comments import Observation, comment_dicts, derive

URL = "http://h/2026/05/a-post/"
ANN = ("Great write-up, thanks! The jig in the second photo is what I needed.", "Ann Lee", "2026-05-01T10:00:00Z")
BOB = ("How did you cut the dovetails so cleanly? Mine always tear out.", "Bob Ray", "2026-05-01T11:30:00Z")
CAT = ("Tried it this weekend: it works with a plain saw too.", "Cat Ito", "2026-05-03T09:15:00Z")


def records(*comments: tuple[str, str | None, str | None]) -> list[CommentRecord]:
    return [CommentRecord(text=t, author=a, date=d, position=i) for i, (t, a, d) in enumerate(comments)]


def unsigned(comment: tuple[str, str, str]) -> tuple[str, None, None]:
    """The comment as a provisional set read it: its author line and date left out of the record."""
    return (comment[0], None, None)


def extract(store: Any, snapshot: int, method: str, version: int, found: list[CommentRecord]) -> None:
    """Write one extraction of a stored snapshot as the crawl's jobs write it (store.write_extractions)."""
    (snap,) = store.load_snapshots([snapshot])
    ext = PageExtraction(URL, post="The post.", comments=[r.text for r in found], comment_records=found)
    batch = 1 if method == "batch" else None
    with store.transaction():
        store.write_extractions([extraction_row(snap, ext, method, batch, version)])


def stored(store: Any) -> list[tuple[str, str | None, str | None, str | None]]:
    rows = store.db.query("SELECT text, author, date, gone_at FROM comments WHERE article = ? ORDER BY text", [URL])
    return [(r["text"], r["author"], r["date"], r["gone_at"]) for r in rows]


def test_provisional_then_batch_then_profile_keeps_one_row_per_comment_with_the_final_author(fresh_db: str) -> None:
    with open_store(fresh_db) as store:
        first = add_page(store, URL, b"<html><body><p>first fetch</p></body></html>")
        later = add_page(store, URL, b"<html><body><p>re-fetch</p></body></html>", kind="refetch", at=NOW + 86400)
        # Provisional: the site's first articles as a small set; the records miss authors and dates.
        extract(store, first, "provisional", 0, records(unsigned(ANN), unsigned(BOB)))
        extract(store, later, "provisional", 0, records(unsigned(ANN), unsigned(BOB), unsigned(CAT)))
        assert len(stored(store)) == 3
        # The first full batch re-extracts the first fetch with authors and dates; the re-fetch is
        # still provisional: its records are the same comments, not new ones.
        extract(store, first, "batch", 1, records(ANN, BOB))
        assert stored(store) == sorted([(*c, None) for c in (ANN, BOB)] + [(CAT[0], None, None, None)])
        # The profile extraction of the re-fetch finds every author.
        extract(store, later, "profile", 1, records(ANN, BOB, CAT))
        assert stored(store) == sorted((*c, None) for c in (ANN, BOB, CAT))
        count = store.db.execute("SELECT COUNT(*) FROM comments WHERE article = ?", [URL]).fetchone()[0]
        assert count == 3
        versions = store.db.execute("SELECT COUNT(*) FROM comment_versions WHERE article = ?", [URL]).fetchone()[0]
        assert versions == 0  # the texts never changed: nothing was an edit


def observation(snapshot: int, day: int, *comments: tuple[str, str | None, str | None]) -> Observation:
    return Observation(snapshot, f"2026-05-0{day}T12:00:00.000Z", True, comment_dicts(records(*comments)))


def test_an_author_found_once_stays_when_a_later_page_is_read_without_it() -> None:
    # The latest fetch was read provisionally (no author); the earlier one by a batch (authors).
    derived = derive(URL, "h", [observation(1, 1, ANN, BOB), observation(2, 4, unsigned(ANN), unsigned(BOB))])
    assert sorted((r["author"], r["date"], r["gone_at"]) for r in derived.rows.values()) == [
        (ANN[1], ANN[2], None),
        (BOB[1], BOB[2], None),
    ]


def test_an_author_line_taken_for_a_comment_does_not_shift_the_comments_identity() -> None:
    # A provisional set stored the author line as a record of its own before the comment (issue 28:
    # "Chloe Tan says:"); the batch reads the comment with its author: one row for the comment, and
    # the author line is marked gone, not kept as a comment beside it.
    says_ann, says_bob = ("Ann Lee says:", None, None), ("Bob Ray says:", None, None)
    noisy = observation(1, 1, says_ann, unsigned(ANN), says_bob, unsigned(BOB))
    derived = derive(URL, "h", [noisy, observation(2, 2, ANN, BOB)])
    current = sorted((r["text"], r["author"]) for r in derived.rows.values() if r["gone_at"] is None)
    assert current == sorted([(ANN[0], ANN[1]), (BOB[0], BOB[1])])
    assert len([r for r in derived.rows.values() if r["text"] in (ANN[0], BOB[0])]) == 2


def test_two_comments_with_different_authors_stay_two_rows() -> None:
    # Same words from two readers: an author on both sides that differs is two comments.
    same = ("Thanks!", "Ann Lee", None)
    other = ("Thanks!", "Bob Ray", None)
    derived = derive(URL, "h", [observation(1, 1, same), observation(2, 2, same, other)])
    assert sorted(r["author"] for r in derived.rows.values()) == ["Ann Lee", "Bob Ray"]


def test_the_pages_byline_is_stored_and_fills_the_posts_author_and_date_the_feed_lacks(fresh_db: str) -> None:
    """Issue 30, item 5: a byline is the post's metadata, kept in fields: `extractions.post_author`
    and `published`, and `posts.author` / `published` where the feed entry gives none."""
    from extractor import Page, extract_site

    nav = "<div id=nav><a href=/>Home</a> <a href=/about>About</a></div>"
    html = [
        (
            f"<html><body>{nav}<article><h1>Notes on topic {i}</h1><div class=meta>By Ann Lee, November {i + 3}, 2026</div>"
            f"<div class=entry-content><p>The whole afternoon went to topic {i}, and it taught me a great deal more"
            " about it than I had hoped for when I started in the morning.</p>"
            f"<p>A second paragraph on topic {i}: what went wrong, what went right.</p></div></article>"
            "<div id=foot><p>Copyright</p></div></body></html>"
        ).encode()
        for i in range(4)
    ]
    urls = [f"http://h/2026/11/post-{i}/" for i in range(4)]
    with open_store(fresh_db) as store:
        snaps = store.load_snapshots([add_page(store, url, body) for url, body in zip(urls, html, strict=True)])
        results = extract_site([Page(url, body) for url, body in zip(urls, html, strict=True)])
        with store.transaction():
            store.write_extractions([extraction_row(s, r, "batch", 1, 1) for s, r in zip(snaps, results, strict=True)])
        rows = store.db.query("SELECT article, post_author, published FROM extractions ORDER BY article")
        assert [(r["post_author"], r["published"]) for r in rows] == [
            ("Ann Lee", f"2026-11-0{i + 3}") for i in range(4)
        ]
        posts = {r["url"]: r for r in store.db.query("SELECT url, author, published FROM posts")}
        assert posts[urls[0]]["author"] == "Ann"  # the feed entry's author wins where there is one
        with store.transaction() as db:  # an entry without author or date (an archive's page has no entry)
            db.execute("UPDATE articles SET author = NULL, published = NULL WHERE url = ?", [urls[0]])
        store.refresh_article(urls[0])
        post = next(iter(store.db.query("SELECT author, published FROM posts WHERE url = ?", [urls[0]])))
        assert (post["author"], post["published"]) == ("Ann Lee", "2026-11-03")


def test_refresh_articles_writes_only_articles_whose_rows_changed_and_restores_them(fresh_db: str) -> None:
    """store.refresh_articles derives outside the write lock and writes only what changed, in both
    modes: re-deriving under the lock, or (sole_writer, a re-extraction) writing the changes found."""
    from store.comments import article_writes

    with open_store(fresh_db) as store:
        first = add_page(store, URL, b"<html><body><p>first fetch</p></body></html>")
        extract(store, first, "batch", 1, records(ANN, BOB))
        right = stored(store)
        assert len(right) == 2 and not article_writes(store.db, URL)  # derived: nothing to write
        sqlite = (
            store.db.dialect == "sqlite"
        )  # SQLite counts a connection's row changes; the rows are the check on both
        changes = store.db.conn.total_changes if sqlite else 0
        store.refresh_articles([URL])
        assert stored(store) == right and (store.db.conn.total_changes if sqlite else 0) == changes
        for sole_writer in (False, True):
            with store.transaction() as db:  # the derived rows lost (an older build's, a killed run's)
                db.execute("DELETE FROM comments WHERE article = ?", [URL])
                db.execute("DELETE FROM posts WHERE url = ?", [URL])
            assert article_writes(store.db, URL)
            store.refresh_articles([URL], sole_writer=sole_writer)
            assert stored(store) == right and not article_writes(store.db, URL)
            assert [r["text"] for r in store.db.query("SELECT text FROM posts WHERE url = ?", [URL])] == ["The post."]
