"""A lone article of the dev corpus with the template pages the crawl adds (issue 28, part B).

    python bench/template_pages_corpus.py [--corpus ../shared/corpus]

Each page of each site is extracted in a set with (a) nothing else (a page alone), (b) the site's
home page where the corpus has one (WordPress `home.html`), (c) the home page and a previous
article (the page before it in the site's truth order, its extraction not scored), as the crawl's
provisional set holds a new site's article with its template pages (crawler/templatelinks.py), and
(d) the previous article alone (Dragnet sites have no home page). Printed per source: macro post
and comment F1 of the scored pages, the scorer of `evaluate`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from extractor import Page, extract_site
from extractor.evaluation.corpus import CorpusSite, iter_corpus
from extractor.evaluation.scoring import Counts, SiteScore, macro, score_page

VARIANTS = ("alone", "home", "home + previous article", "previous article")


def extract_with(site: CorpusSite, index: int, others: Sequence[Page]) -> dict[str, object]:
    truth = site.truth[index]
    page = Page(str(truth.get("url") or ""), (site.dir / str(truth["file"])).read_bytes())
    [result, *_] = extract_site([page, *others])
    return {"post": result.post, "comments": result.comments}


def site_scores(site: CorpusSite, variant: str) -> SiteScore | None:
    home_file = site.dir / "home.html"
    home = [Page(None, home_file.read_bytes())] if home_file.is_file() else []
    if "home" in variant and not home:
        return None
    counts = Counts()
    for i, truth in enumerate(site.truth):
        previous = site.truth[i - 1]  # the page before (the last for the first): another article
        others = list(home) if "home" in variant else []
        if "previous" in variant and len(site.truth) > 1:
            others.append(Page(str(previous.get("url") or ""), (site.dir / str(previous["file"])).read_bytes()))
        counts.add(score_page(truth, extract_with(site, i, others), site.comments_split))
    return SiteScore(site.source, site.site, counts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="../shared/corpus")
    args = parser.parse_args(argv)
    sites = list(iter_corpus(args.corpus))
    print(f"{'source':<10} {'set of one article +':<26} {'sites':>5} {'post F1':>8} {'comments F1':>12}")
    for source in sorted({s.source for s in sites}):
        for variant in VARIANTS:
            scores = [s for s in (site_scores(site, variant) for site in sites if site.source == source) if s]
            if scores:
                m = macro(scores)
                post, com = m["post_f1"] or 0.0, m["com_f1"] or 0.0
                print(f"{source:<10} {variant:<26} {len(scores):>5} {post:>8.4f} {com:>12.4f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
