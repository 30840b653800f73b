"""The crawl benches' comment check: stored comment rows against the comments the farm's pages showed.

`comment_tally` counts (stored, shown, stored twice, rows that are no comment, authors right) and
names every flagged item (`CommentTally.flagged`): a comment the farm showed and no row holds, a
row that is no comment the page showed, a second row of one comment, a comment stored with another
author; each with its article URL, the stored text and author beside the farm's, and the
extraction method that wrote the row. `explain` prints them, one line each.

What a page showed is what the farm served when the crawl fetched it (the clock time of the last
200 answer for that page, from the farm's request log): the farm's clock runs during a crawl and
comments keep arriving, so comments that appeared after the fetch are not "missing".
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from farm.generated import GeneratedArticle
from store.urls import normalize_url

MISSING = "missing"  # shown by the farm, in no row
NOT_A_COMMENT = "not a comment"  # a row the page did not show as a comment
TWICE = "stored twice"  # a further row of one shown comment
WRONG_AUTHOR = "wrong author"  # the right text, another author (or none)


def text_key(text: str | None) -> str:
    """A comment's words as compared here: NFKC, case and spacing left out."""
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


@dataclass(frozen=True)
class Flagged:
    """One comment or row the check counts against the crawl."""

    kind: str  # MISSING, NOT_A_COMMENT, TWICE or WRONG_AUTHOR
    article: str
    stored_text: str | None = None
    stored_author: str | None = None
    farm_text: str | None = None
    farm_author: str | None = None
    method: str = ""  # the extraction method that wrote the row ("" for a missing comment)

    def __str__(self) -> str:
        stored = f"stored {self.stored_text!r} by {self.stored_author!r} ({self.method or '?'})"
        farm = f"farm {self.farm_text!r} by {self.farm_author!r}"
        if self.kind == MISSING:
            return f"{self.kind}: {self.article}: {farm}"
        if self.kind == NOT_A_COMMENT:
            return f"{self.kind}: {self.article}: {stored}"
        return f"{self.kind}: {self.article}: {stored}; {farm}"


@dataclass(frozen=True)
class CommentTally:
    """Stored comments against the comments the farm's pages showed, matched per article by text."""

    stored: int
    shown: int
    twice: int  # rows of a shown comment beyond its first (one comment, several rows)
    not_shown: int  # rows that are no comment the page showed (an author line, a heading, a form label)
    authors_right: int  # shown comments stored with the author the page showed
    flagged: tuple[Flagged, ...] = field(default=(), compare=False)

    @property
    def missing(self) -> int:
        """Shown comments that no row holds."""
        return sum(1 for f in self.flagged if f.kind == MISSING)

    @property
    def ok(self) -> bool:
        """Comments stored = comments shown, each once, each with its author."""
        return self.stored == self.shown and not self.twice and not self.not_shown and self.authors_right == self.shown

    def __str__(self) -> str:
        return (
            f"{self.stored}/{self.shown} (twice {self.twice}, not shown {self.not_shown},"
            f" authors {self.authors_right}/{self.shown})"
        )


def comment_tally(
    stored: Iterable[Sequence[str | None]],
    published: Sequence[GeneratedArticle],
    shown_at: float | Mapping[str, float],
) -> CommentTally:
    """Compare stored comment rows (article URL, text, author[, extraction method]) with what the
    published articles showed: at the clock time `shown_at`, or per article URL at the time its page
    was served (`served_at`; an article missing from it counts at the latest of those times)."""
    latest = max(shown_at.values(), default=0.0) if isinstance(shown_at, Mapping) else shown_at
    shown: dict[tuple[str, str], list[tuple[str, str]]] = {}  # (url, text key) -> [(text, author)]
    for article in published:
        url = normalize_url(article.url)
        when = shown_at.get(url, latest) if isinstance(shown_at, Mapping) else shown_at
        for c in article.visible_comments(when):
            shown.setdefault((url, text_key(c.text)), []).append((c.text, c.author))
    rows: dict[tuple[str, str], list[tuple[str | None, str | None, str]]] = {}
    for row in stored:
        url, text, author = str(row[0]), row[1], row[2]
        method = str(row[3] or "") if len(row) > 3 else ""
        rows.setdefault((normalize_url(url), text_key(text)), []).append((text, author, method))
    flagged: list[Flagged] = []
    right = 0
    for key, found in rows.items():
        url = key[0]
        if key not in shown:
            flagged += [Flagged(NOT_A_COMMENT, url, t, a, method=m) for t, a, m in found]
            continue
        left = list(found)
        unmatched: list[tuple[str, str]] = []
        for farm_text, farm_author in shown[key]:  # each shown comment takes a row with its author first
            match = next((r for r in left if text_key(r[1]) == text_key(farm_author)), None)
            if match is None:
                unmatched.append((farm_text, farm_author))
            else:
                right += 1
                left.remove(match)
        for (t, a, m), (farm_text, farm_author) in zip(left, unmatched, strict=False):
            flagged.append(Flagged(WRONG_AUTHOR, url, t, a, farm_text, farm_author, m))
        farm_text, farm_author = shown[key][0]
        flagged += [Flagged(TWICE, url, t, a, farm_text, farm_author, m) for t, a, m in left[len(unmatched) :]]
        flagged += [Flagged(MISSING, url, farm_text=t, farm_author=a) for t, a in unmatched[len(left) :]]
    for key, want in shown.items():
        if key not in rows:
            flagged += [Flagged(MISSING, key[0], farm_text=t, farm_author=a) for t, a in want]
    return CommentTally(
        stored=sum(len(v) for v in rows.values()),
        shown=sum(len(v) for v in shown.values()),
        twice=sum(max(0, len(found) - len(shown[key])) for key, found in rows.items() if key in shown),
        not_shown=sum(len(found) for key, found in rows.items() if key not in shown),
        authors_right=right,
        flagged=tuple(sorted(flagged, key=lambda f: (f.kind, f.article))),
    )


def served_at(
    requests: Iterable[tuple[str, str, int, float]], pages: Mapping[tuple[str, str], str]
) -> dict[str, float]:
    """Article URL -> farm clock time of the last 200 answer for its page.

    `requests` are (site, decoded path, status, clock time) as in the farm's log; `pages` maps
    (site, decoded path) to the article's normalized URL."""
    served: dict[str, float] = {}
    for site, path, status, clock_time in requests:
        url = pages.get((site, path))
        if url is not None and status == 200:
            served[url] = max(served.get(url, 0.0), clock_time)
    return served


def explain(label: str, tally: CommentTally, limit: int = 100) -> list[str]:
    """One line per flagged comment or row of a run (at most `limit`, then how many more)."""
    lines = [f"  {label}: {item}" for item in tally.flagged[:limit]]
    if len(tally.flagged) > limit:
        lines.append(f"  {label}: ... and {len(tally.flagged) - limit} more flagged")
    return lines
