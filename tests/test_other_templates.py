"""A site whose article container differs from page to page (issue 30, item 2): the pages where the
main post identifier carries nothing are a second template's, and find their own post identifiers
(robust.other_template_posts). Real markup: washingtonpost.com's dev pages come in two templates;
with the article container's class made different on every page (``stress container-per-page``),
the second template's articles had no post identifier left."""

from __future__ import annotations

from pathlib import Path

from extractor import DEFAULT, Options, Page, extract_site, learn_profile
from extractor.evaluation.corpus import iter_corpus
from extractor.evaluation.scoring import Counts, metrics, score_page
from extractor.evaluation.stress import containers_per_page


def _renamed_site(corpus_root: Path) -> tuple[list[Page], list[dict[str, object]], bool]:
    site = next(iter_corpus(corpus_root, ["dragnet"], ["washingtonpost.com"]))
    files = site.page_files()
    by_file = {site.key(str(t["file"])): t for t in site.truth}
    truths = [by_file[site.key(p.relative_to(site.dir).as_posix())] for p in files]
    bodies = [p.read_bytes() for p in files]
    renamed = containers_per_page(bodies)
    assert sum(a != b for a, b in zip(bodies, renamed, strict=True)) == len(bodies)  # every page's container
    return [Page(None, b) for b in renamed], truths, site.comments_split


def _post_f1(pages: list[Page], truths: list[dict[str, object]], split: bool, options: Options) -> float:
    counts = Counts()
    for truth, result in zip(truths, extract_site(pages, options), strict=True):
        counts.add(score_page(truth, {"post": result.post, "comments": result.comments}, split))
    return metrics(counts)["post_f1"] or 0.0


def test_a_second_templates_article_keeps_its_post(corpus_root: Path) -> None:
    pages, truths, split = _renamed_site(corpus_root)
    assert _post_f1(pages, truths, split, DEFAULT) >= 0.95
    assert _post_f1(pages, truths, split, DEFAULT.but(other_template_posts=False)) < 0.7
    out = extract_site(pages)
    assert all(p.post for p in out) and not any(p.comments for p in out)  # the site's pages have none
    assert any("carries the post on" in w for w in out[0].warnings)


def test_a_profile_keeps_both_templates_containers(corpus_root: Path) -> None:
    pages, _, _ = _renamed_site(corpus_root)
    profile = learn_profile(pages[:8])
    assert all(profile.extract(p).post for p in pages[8:])
