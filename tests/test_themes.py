"""Generality: WordPress themes that are not in the dev corpus (synthetic sites, tests/themes).

Each theme's comment markup follows the real theme's walker (twentytwenty nests replies in the
parent's ``div`` with no list, classic XHTML themes put paragraphs straight into the unit, Astra
wraps everything twice, Lightning prints Japanese labels). The extractor never saw these pages
while it was written; the thresholds are the issues' WordPress targets.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from site_scores import refetch_scores, set_scores

from tests.themes import THEMES, build_corpus
from tests.themes.localize import LANGUAGES, localize_site, relative_dates

# Known shortfalls, each with its reason: twentytwelve prints an inline "Post author" badge after the
# post author's name in their own comments ("Owen Clarke Post author"); block text alone cannot tell
# it from a surname, so those comments' authors are wrong (about 1 comment in 10).
AUTHOR_SHARE = {"twentytwelve": 0.8}

# Re-fetches through a profile that has seen no comment learn from one page alone.
REFETCH_AUTHOR_SHARE: dict[str, float] = {}

# Two small sets per theme: which comments are "odd" or "even", and which pages have comments,
# change with the seed, and small sets are where chance regularities mislead.
SEEDS = (3, 11)


@pytest.fixture(scope="module")
def theme_roots(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    roots = {}
    for seed in SEEDS:
        roots[seed] = tmp_path_factory.mktemp(f"themes-{seed}")
        build_corpus(roots[seed], seed=seed, pages=12)
    return roots


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("theme", THEMES)
def test_theme_meets_the_wordpress_targets(theme_roots: dict[int, Path], theme: str, seed: int) -> None:
    counts, records = set_scores(theme_roots[seed] / "wordpress" / theme)
    post_f1 = counts.post_prf()[2]
    comment_f1 = counts.comment_prf()[2]
    assert post_f1 >= 0.93, f"post F1 {post_f1:.3f}"
    assert comment_f1 is not None and comment_f1 >= 0.95, f"comment F1 {comment_f1}"
    assert (counts.count_exact_rate() or 0) >= 0.95, f"count exact {counts.count_exact_rate()}"
    share = AUTHOR_SHARE.get(theme, 0.95)
    assert records.authors > 0 and records.dates > 0, "no comment authors or dates to score"
    assert records.authors_exact >= share * records.authors, f"authors {records.authors_exact}/{records.authors}"
    assert records.dates_ok >= 0.9 * records.dates, f"dates {records.dates_ok}/{records.dates}"


@pytest.mark.parametrize("theme", THEMES)
def test_theme_refetch_with_a_profile_learned_before_comments(theme_roots: dict[int, Path], theme: str) -> None:
    # the crawler fetches articles before readers comment: a profile learned on comment-free pages
    # only must still split a later re-fetch's comments into records
    counts, records = refetch_scores(theme_roots[SEEDS[0]] / "wordpress" / theme)
    comment_f1 = counts.comment_prf()[2]
    assert comment_f1 is not None and comment_f1 >= 0.9, f"comment F1 {comment_f1}"
    share = REFETCH_AUTHOR_SHARE.get(theme, 0.8)
    assert records.authors > 0 and records.dates > 0, "no comment authors or dates to score"
    assert records.authors_exact >= share * records.authors, f"authors {records.authors_exact}/{records.authors}"


# Themes that print comment dates as text only (no <time datetime>), one that glues the "says:" label to
# the name (twentytwenty), and one that prints name and date on one line (OceanWP).
LOCALIZED_THEMES = ("classic-xhtml", "twentyten", "twentytwenty", "oceanwp", "astra-like")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_themes_in_other_languages(tmp_path: Path, lang: str) -> None:
    # dates and labels as WordPress prints them in other languages: comment separation, authors and
    # dates must hold as in English
    for folder in build_corpus(tmp_path, seed=SEEDS[0], pages=12, themes=LOCALIZED_THEMES):
        localize_site(folder, lang)
        counts, records = set_scores(folder)
        comment_f1 = counts.comment_prf()[2]
        assert comment_f1 is not None and comment_f1 >= 0.95, f"{folder.name}: comment F1 {comment_f1}"
        assert records.authors > 0 and records.dates > 0, "no comment authors or dates to score"
        assert records.authors_exact >= 0.95 * records.authors, (
            f"{folder.name}: authors {records.authors_exact}/{records.authors}"
        )
        assert records.dates_ok >= 0.9 * records.dates, f"{folder.name}: dates {records.dates_ok}/{records.dates}"


def test_themes_with_relative_comment_dates(tmp_path: Path) -> None:
    # "3 days ago" and no <time datetime>: the date lines still mark the comment units and end the
    # names before them, in a set and through a profile learned on comment-free pages
    for folder in build_corpus(tmp_path, seed=SEEDS[0], pages=12, themes=LOCALIZED_THEMES):
        for page in (folder / "pages").glob("*.html"):
            page.write_text(relative_dates(page.read_text("utf-8")), "utf-8")
        counts, records = set_scores(folder)
        assert (counts.comment_prf()[2] or 0) >= 0.95, f"{folder.name}: comment F1 {counts.comment_prf()[2]}"
        assert (counts.count_exact_rate() or 0) >= 0.95, f"{folder.name}: count exact {counts.count_exact_rate()}"
        assert records.authors > 0 and records.dates > 0, "no comment authors or dates to score"
        assert records.authors_exact >= 0.95 * records.authors, f"{folder.name}: authors {records.authors_exact}"
        counts, _ = refetch_scores(folder)
        assert (counts.comment_prf()[2] or 0) >= 0.9, f"{folder.name}: re-fetch comment F1 {counts.comment_prf()[2]}"
