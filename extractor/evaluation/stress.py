"""Comment separation under the conditions of unseen sites, scored per fold.

    python -m extractor.evaluation.stress single|commented|commented-as-crawl|subsets [--corpus ROOT] [--source S]

``evaluate`` extracts each corpus site as one set, which the dev sites' comment-free pages make easy.
These modes take that help away, on the same pages and the same scorer (``scoring.py``), and print
the Dragnet folds of ``evaluate --folds 2`` (A, B) beside the other sources:

* ``single``: each page alone (a set of one: the single-page detector);
* ``commented``: each site's pages with comments, as one set (every page has comments: the comment fallback's
  fallbacks and the page's own evidence), sites with at least two such pages;
* ``commented-as-crawl``: the same pages as the crawl meets them (first half a set, the
  rest through its profile);
* ``subsets``: three shuffles of each site cut into sets of three pages (few pages to compare);
* ``container-per-page``: the id or class that carries most of the site's post text is made
  different on every page ("entry-content" becomes "entry-content-v3"), as on a site whose article
  container differs from page to page (a story page, a video page).

``--pages N`` gives the commented modes each site's first N commented pages only (a small site).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from multiprocessing import Pool

from extractor.cli import FOLD_SOURCE, as_crawl, fold_label, fold_of
from extractor.core.options import DEFAULT
from extractor.evaluation.corpus import CorpusSite, iter_corpus
from extractor.evaluation.scoring import Counts, SiteScore, macro, metrics, pooled, score_page
from extractor.separation.method import Page, PageExtraction, extract_site

MODES = ("single", "commented", "commented-as-crawl", "subsets", "container-per-page")
# the old name of commented-as-crawl, still accepted
OLD_MODES = {"commented-pipeline": "commented-as-crawl"}
SUBSET_PAGES = 3
SUBSET_SHUFFLES = 3


def _extract(
    mode: str, pages: list[Page], commented: list[int], seed: str, limit: int | None = None
) -> list[tuple[int, PageExtraction]]:
    """(page index, extraction) pairs of one site in one mode (a page may appear several times);
    ``limit``: the commented modes take only the site's first commented pages (a small site)."""
    if mode == "single":
        return [(i, extract_site([p], DEFAULT)[0]) for i, p in enumerate(pages)]
    if mode in ("commented", "commented-as-crawl"):
        commented = commented[:limit]
        if len(commented) < 2:
            return []
        chosen = [pages[i] for i in commented]
        out = as_crawl(chosen, DEFAULT) if mode == "commented-as-crawl" else extract_site(chosen, DEFAULT)
        return list(zip(commented, out, strict=True))
    if mode == "container-per-page":
        renamed = [Page(None, body) for body in containers_per_page([p.body for p in pages])]
        return list(enumerate(extract_site(renamed, DEFAULT)))
    rng = random.Random(seed)
    pairs: list[tuple[int, PageExtraction]] = []
    for _ in range(SUBSET_SHUFFLES):
        order = list(range(len(pages)))
        rng.shuffle(order)
        for start in range(0, len(order) - SUBSET_PAGES + 1, SUBSET_PAGES):
            chunk = order[start : start + SUBSET_PAGES]
            pairs.extend(zip(chunk, extract_site([pages[i] for i in chunk], DEFAULT), strict=True))
    return pairs


def containers_per_page(bodies: list[bytes]) -> list[bytes]:
    """The pages with the id or class that carries most of their post text (as the site's set
    extracts them) renamed on each page: ``value`` becomes ``value-v{page}``."""
    carried: Counter[str] = Counter()
    for result in extract_site([Page(None, b) for b in bodies], DEFAULT):
        for block in result.blocks:
            if block.role == "post" and block.identifier[:1] in "#.":
                carried[block.identifier] += len(block.text)
    if not carried:
        return bodies
    ident = carried.most_common(1)[0][0]
    attr = b"id" if ident[0] == "#" else b"class"
    value = ident[1:].encode()
    pattern = re.compile(rb"(\b" + attr + rb"\s*=\s*[\"']?)([^\"'>]*\b)" + re.escape(value) + rb"\b", re.I)
    return [pattern.sub(_renamer(value + b"-v" + str(i).encode()), body) for i, body in enumerate(bodies)]


def _renamer(new: bytes) -> Callable[[re.Match[bytes]], bytes]:
    return lambda m: m.group(1) + m.group(2) + new


def score_site(job: tuple[CorpusSite, str, int | None]) -> SiteScore:
    site, mode, limit = job
    files = site.page_files()
    by_file = {site.key(str(t["file"])): t for t in site.truth}
    truths = [by_file.get(site.key(p.relative_to(site.dir).as_posix()), {}) for p in files]
    pages = [Page(None, p.read_bytes()) for p in files]
    commented = [i for i, t in enumerate(truths) if t.get("comments") and not t.get("comments_unlabeled")]
    counts = Counts()
    for i, result in _extract(mode, pages, commented, site.site, limit):
        counts.add(score_page(truths[i], {"post": result.post, "comments": result.comments}, site.comments_split))
    return SiteScore(site.source, site.site, counts)


def summary(name: str, sites: Sequence[SiteScore]) -> str:
    m, c = macro(sites), pooled(sites)
    return (
        f"{name}: post macro {m['post_f1'] or 0:.4f} comments macro {m['com_f1'] or 0:.4f} "
        f"micro {metrics(c)['com_f1'] or 0:.4f} 0c-fp {c['zero_fp']}/{c['zero_pages']} "
        f"c-miss {c['cmt_missed']}/{c['cmt_pages']} ({len(sites)} sites)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m extractor.evaluation.stress", description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=[*MODES, *OLD_MODES])
    ap.add_argument("--corpus", default="../shared/corpus")
    ap.add_argument("--source", action="append", help="only this corpus source (repeatable)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--pages", type=int, help="commented modes: only each site's first N commented pages")
    a = ap.parse_args(argv)
    if a.mode in OLD_MODES:
        print(f"stress: {a.mode} is deprecated, use {OLD_MODES[a.mode]}", file=sys.stderr)
        a.mode = OLD_MODES[a.mode]
    sites = list(iter_corpus(a.corpus, a.source))
    with Pool(max(1, a.jobs)) as pool:
        scores = [s for s in pool.map(score_site, [(s, a.mode, a.pages) for s in sites]) if s.counts["pages"]]
    groups: dict[str, list[SiteScore]] = {}
    for s in scores:
        name = f"fold {fold_label(fold_of(s.site))}" if s.source == FOLD_SOURCE else s.source
        groups.setdefault(name, []).append(s)
    for name in sorted(groups):
        print(f"{a.mode} {summary(name, groups[name])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
