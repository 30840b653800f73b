"""Small sets: a site's pages extracted in fixed random sets of K pages (``evaluate --set-size K``).

Every site starts small: a new blog's first days are extracted from the few articles the crawl
has, and a page given alone (``extract page.html``) is a set of one. ``evaluate --single`` and
``--set-size K`` score the dev corpus under those conditions with the same scorer as full sets.

Each page is scored exactly once, so the predictions are one line per page and the reference
scorer gives the same numbers. The pages of a site are shuffled with a seed made of the site's
name and K (the same sets on every run and machine) and cut into sets of K; the pages left over
(fewer than K) are each extracted with K - 1 other pages of the site, whose extractions there are
not scored. A site with at most K pages is one set.

>>> [s.pages for s in page_sets(5, 2, "example.org")]
[[4, 0], [2, 3], [1, 4]]
>>> [s.scored for s in page_sets(5, 2, "example.org")]
[[4, 0], [2, 3], [1]]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from extractor.core.options import Options
from extractor.evaluation.scoring import SiteScore, macro
from extractor.separation.method import Page, PageExtraction, extract_site


@dataclass(frozen=True, slots=True)
class PageSet:
    """Page indices extracted together, and those of them whose extraction is scored."""

    pages: list[int]
    scored: list[int]


def page_sets(n_pages: int, size: int, seed: str) -> list[PageSet]:
    """The sets of ``size`` pages that cover ``n_pages`` pages once each (module docstring)."""
    if n_pages <= size:
        everything = list(range(n_pages))
        return [PageSet(everything, everything)] if n_pages else []
    order = list(range(n_pages))
    random.Random(f"{seed}/{size}").shuffle(order)
    full = n_pages - n_pages % size
    sets = [PageSet(order[i : i + size], order[i : i + size]) for i in range(0, full, size)]
    for page in order[full:]:
        # the first other pages of the shuffled order fill the left-over page's set
        others = [p for p in order if p != page][: size - 1]
        sets.append(PageSet([page, *others], [page]))
    return sets


def extract_in_sets(
    pages: Sequence[Page], size: int, options: Options, seed: str, known_comment_ids: Iterable[str] = ()
) -> list[PageExtraction]:
    """Each page's extraction within its set of ``size`` pages (``page_sets``), in page order."""
    known = frozenset(known_comment_ids)
    out: dict[int, PageExtraction] = {}
    for page_set in page_sets(len(pages), size, seed):
        results = extract_site([pages[i] for i in page_set.pages], options, known)
        for i, result in zip(page_set.pages, results, strict=True):
            if i in page_set.scored:
                out[i] = result
    return [out[i] for i in range(len(pages))]


def print_beside_full_sets(scores: Sequence[SiteScore], full: Sequence[SiteScore], set_size: int) -> None:
    """Macro post and comment F1 of the small sets beside whole sites, per source and over all."""
    label = "single page" if set_size == 1 else f"sets of {set_size}"
    print(f"\n{'macro F1':<12} | {label:^21} | {'full sets':^21} | {'difference':^21}")
    print(f"{'':<12} |" + f" {'post':>10} {'comments':>10} |" * 3)
    sources = sorted({s.source for s in scores})
    groups = [(src, [s for s in scores if s.source == src], [s for s in full if s.source == src]) for src in sources]
    for name, small_group, full_group in [*groups, ("ALL", list(scores), list(full))]:
        small, whole = macro(small_group), macro(full_group)
        pairs = [
            (small["post_f1"], small["com_f1"]),
            (whole["post_f1"], whole["com_f1"]),
            (_difference(small["post_f1"], whole["post_f1"]), _difference(small["com_f1"], whole["com_f1"])),
        ]
        print(f"{name:<12} |" + "".join(f" {_cell(post):>10} {_cell(com):>10} |" for post, com in pairs))


def _difference(small: float | None, whole: float | None) -> float | None:
    return None if small is None or whole is None else small - whole


def _cell(v: float | None) -> str:
    return f"{v:6.3f}" if v is not None else f"{'-':>6}"
