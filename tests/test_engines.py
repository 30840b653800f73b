"""Generality: blog engines other than WordPress (synthetic sites, tests/engines).

Blogger (threaded, and the classic ``dl`` whose ``dt`` author line precedes each ``dd`` text), Movable
Type, Hatena Blog (Japanese), Drupal (replies in a ``div.indented`` after their parent, not inside it),
Typepad (author and date after the text) and a static site whose comments are a Disqus embed (no
comment in the HTML). The thresholds are the issues' WordPress targets, with each known shortfall named.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from site_scores import refetch_scores, set_scores

from tests.engines import ENGINES, build_corpus

# Known shortfalls, each with its reason:
# - movabletype prints a reply's byline as "Name replied to comment from Other", in one line with the name;
#   it is cut when the set shows the first name alone too (authors.cut_bylines).
AUTHOR_SHARE = {"movabletype": 0.6}
# Drupal's comment subjects repeat across pages ("Thanks!") and are boilerplate by the 2009 rule; its
# visually hidden "In reply to" line is in the HTML.
COMMENT_F1 = {"drupal": 0.85}
SEEDS = (3, 11)


@pytest.fixture(scope="module")
def engine_roots(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    roots = {}
    for seed in SEEDS:
        roots[seed] = tmp_path_factory.mktemp(f"engines-{seed}")
        build_corpus(roots[seed], seed=seed, pages=12)
    return roots


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("engine", ENGINES)
def test_engine_meets_the_targets(engine_roots: dict[int, Path], engine: str, seed: int) -> None:
    (folder,) = [d for d in engine_roots[seed].glob(f"*/{engine}") if d.is_dir()]
    counts, records = set_scores(folder)
    post_f1 = counts.post_prf()[2]
    assert post_f1 >= 0.93, f"post F1 {post_f1:.3f}"
    assert (counts.count_exact_rate() or 0) >= 0.95, f"count exact {counts.count_exact_rate()}"
    if not counts["com_truth"]:  # the static site: nothing may be called a comment
        assert counts["com_pred"] == 0
        return
    comment_f1 = counts.comment_prf()[2]
    assert comment_f1 is not None and comment_f1 >= COMMENT_F1.get(engine, 0.95), f"comment F1 {comment_f1}"
    share = AUTHOR_SHARE.get(engine, 0.95)
    assert records.authors > 0 and records.dates > 0, "no comment authors or dates to score"
    assert records.authors_exact >= share * records.authors, f"authors {records.authors_exact}/{records.authors}"
    assert records.dates_ok >= 0.9 * records.dates, f"dates {records.dates_ok}/{records.dates}"


# Re-fetches through a profile learned on comment-free pages only (the crawler's first fetches).
# Drupal: the comment section's identifier carries per-page text on comment-free pages, so the
# profile takes it for the post's, and a page with a single comment shows no repeated dated unit.
REFETCH_COMMENT_F1 = {"drupal": 0.6}
REFETCH_AUTHOR_SHARE = {"movabletype": 0.6, "drupal": 0.6}


@pytest.mark.parametrize("engine", [e for e in ENGINES if e != "static-disqus"])
def test_engine_refetch_with_a_profile_learned_before_comments(engine_roots: dict[int, Path], engine: str) -> None:
    (folder,) = [d for d in engine_roots[SEEDS[0]].glob(f"*/{engine}") if d.is_dir()]
    counts, records = refetch_scores(folder)
    comment_f1 = counts.comment_prf()[2]
    assert comment_f1 is not None and comment_f1 >= REFETCH_COMMENT_F1.get(engine, 0.9), f"comment F1 {comment_f1}"
    share = REFETCH_AUTHOR_SHARE.get(engine, 0.9)
    assert records.authors > 0 and records.dates > 0, "no comment authors or dates to score"
    assert records.authors_exact >= share * records.authors, f"authors {records.authors_exact}/{records.authors}"
