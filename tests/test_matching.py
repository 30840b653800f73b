"""The fast matcher equals the all-pairs definition; near-duplicate pages (2009 §4.2)."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extractor import DEFAULT, PAPER, Page, extract_site
from extractor.core import matching
from extractor.core.blocks import parse_blocks
from extractor.core.features import block_vector
from extractor.core.matching import (
    DistinctVectors,
    FingerprintIndex,
    Vector,
    cosine,
    near_duplicate_clusters,
    unique_blocks,
    unique_blocks_bruteforce,
    vector_key,
)

# A small vocabulary and few weights make exact duplicates and near matches frequent.
VOCAB = ["\n<p", "\n<div", "\n<a", "home", "about", "post", "reply", "x", "y", "z"]
WEIGHTS = [0.5, 1.0, 1.0, 2.0, 3.0, 1.5, math.sqrt(2.0), math.sqrt(3.0) * 0.5, 0.7]

weights_st = st.dictionaries(st.sampled_from(VOCAB), st.sampled_from(WEIGHTS), max_size=5)


@st.composite
def block_sets(draw, with_clusters=None):
    """Pages of vectors drawn partly from a shared pool (exact duplicates) and partly fresh."""
    pool = draw(st.lists(weights_st, min_size=1, max_size=6))
    vector_st = st.one_of(st.sampled_from(pool), weights_st)
    pages = draw(st.lists(st.lists(vector_st, max_size=6), max_size=6))
    threshold = draw(st.floats(0.5, 0.99))
    if with_clusters is None:
        with_clusters = draw(st.booleans())
    clusters = None
    if with_clusters and pages:
        clusters = draw(st.lists(st.integers(0, 3), min_size=len(pages), max_size=len(pages)))
    # a fresh Vector per occurrence: equal weights must be grouped by value, not identity
    return [[Vector(dict(w)) for w in page] for page in pages], threshold, clusters


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(block_sets(with_clusters=False))
def test_fast_equals_bruteforce(case):
    pages, threshold, _ = case
    assert unique_blocks(pages, threshold) == unique_blocks_bruteforce(pages, threshold)


@SETTINGS
@given(block_sets(with_clusters=True))
def test_fast_equals_bruteforce_with_clusters(case):
    pages, threshold, clusters = case
    assert unique_blocks(pages, threshold, clusters) == unique_blocks_bruteforce(pages, threshold, clusters)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(weights_st, max_size=30), min_size=2, max_size=12), st.floats(0.5, 0.99))
def test_fast_equals_bruteforce_on_larger_sets(pages, threshold):
    vectors = [[Vector(w) for w in page] for page in pages]
    assert unique_blocks(vectors, threshold) == unique_blocks_bruteforce(vectors, threshold)


# Weights whose products and sums are exact in binary floating point (what "count" and "binary"
# tag weights give): a threshold equal to an attained cosine is then a true tie.
exact_weights_st = st.dictionaries(st.sampled_from(VOCAB), st.sampled_from([0.5, 1.0, 1.5, 2.0, 3.0]), max_size=5)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(exact_weights_st, max_size=5), min_size=2, max_size=5), st.data())
def test_fast_equals_bruteforce_at_ties(pages, data):
    vectors = [[Vector(w) for w in page] for page in pages]
    flat = [v for page in vectors for v in page]
    attained = sorted({c for a in flat for b in flat if 0.5 <= (c := cosine(a, b)) < 0.999})
    threshold = data.draw(st.sampled_from(attained)) if attained else 0.9
    assert unique_blocks(vectors, threshold) == unique_blocks_bruteforce(vectors, threshold)


@settings(max_examples=100, deadline=None)
@given(st.lists(weights_st, min_size=1, max_size=8), st.floats(0.5, 0.99))
def test_all_pages_in_one_cluster_makes_everything_content(page, threshold):
    pages = [[Vector(w) for w in page], [Vector(w) for w in page]]
    assert unique_blocks(pages, threshold, [7, 7]) == [[True] * len(page)] * 2


def test_empty_inputs():
    assert unique_blocks([]) == []
    assert unique_blocks([[], []]) == [[], []]
    assert unique_blocks([[Vector({})], [Vector({})]]) == [[True], [True]]
    assert unique_blocks_bruteforce([[Vector({})], [Vector({})]]) == [[True], [True]]


def test_empty_vector_is_content_even_beside_its_twin():
    # cosine with an empty vector is 0, so empty blocks never match (and never count as boilerplate)
    assert cosine(Vector({}), Vector({})) == 0.0
    assert unique_blocks([[Vector({}), Vector({"a": 1.0})], [Vector({}), Vector({"a": 1.0})]]) == [
        [True, False],
        [True, False],
    ]


def test_single_page_everything_is_content():
    page = [Vector({"a": 1.0}), Vector({"a": 1.0})]
    assert unique_blocks([page]) == [[True, True]]


def test_cosine_is_symmetric_and_bounded():
    a, b = Vector({"a": 1.0, "b": 2.0}), Vector({"b": 1.0, "c": 5.0})
    assert cosine(a, b) == cosine(b, a)
    assert 0.0 <= cosine(a, b) <= 1.0
    assert math.isclose(cosine(a, a), 1.0)


# ---------------------------------------------------------------- near-duplicate pages

ARTICLES = [
    (
        "Why we moved the bakery",
        "After eleven years on Mill Street we finally moved the bakery to the old station building. "
        "The ovens took three days to install and the first loaves burned, but the new kitchen has "
        "twice the space and a window onto the platform where the morning trains stop.",
        "Regulars asked whether the sourdough would taste the same. It does: the starter travelled "
        "with us in a cool box on the back seat, wrapped in a blanket like a sleeping cat.",
    ),
    (
        "A week without sugar",
        "I tried to cook for a whole week without adding sugar to anything, which turned out to be "
        "harder than expected because it hides in bread, sauces, pickles and most breakfast cereals "
        "sold in the corner shop near our flat.",
        "By Thursday the fruit tasted sweeter and the coffee more bitter. I did not miss biscuits "
        "as much as I feared, but I missed ketchup every single evening of the experiment.",
    ),
    (
        "Repairing a cast iron pan",
        "The pan came from a flea market covered in rust and old grease. Steel wool, vinegar and "
        "an afternoon of scrubbing brought it back to bare metal, ready for the first seasoning "
        "with a thin layer of flaxseed oil in a very hot oven.",
        "Six coats later it is black, smooth and almost non-stick. Eggs still stick sometimes, which "
        "the forums say is my fault for not preheating the pan long enough before cooking.",
    ),
]


def _article_page(title, p1, p2):
    return f"""<html><body>
<div id="top"><h1>The Kitchen Diary</h1><ul id="menu"><li><a href="/">Home</a></li>
<li><a href="/recipes">Recipes</a></li></ul></div>
<div id="content"><h2>{title}</h2><p>{p1}</p><p>{p2}</p></div>
<div id="foot"><p>All rights reserved by the Kitchen Diary</p></div>
</body></html>""".encode()


def _pages():
    pages = [Page(f"http://diary.test/{i}", _article_page(*art)) for i, art in enumerate(ARTICLES)]
    # the first article again under another URL (a category or print view of the same post)
    pages.append(Page("http://diary.test/print/0", _article_page(*ARTICLES[0])))
    return pages


def _clusters(pages, options=DEFAULT):
    blocks = [parse_blocks(p.body.decode()) for p in pages]
    vectors = [[block_vector(b, options) for b in bl] for bl in blocks]
    chars = [[b.text_chars for b in bl] for bl in blocks]
    return near_duplicate_clusters(vectors, chars, options.near_duplicate_share)


def test_same_article_under_two_urls_is_clustered():
    clusters = _clusters(_pages())
    assert clusters[0] == clusters[3]


def test_different_articles_are_not_clustered():
    clusters = _clusters(_pages())
    assert len({clusters[0], clusters[1], clusters[2]}) == 3


def test_short_shared_text_does_not_join_pages():
    # two pages sharing one short sentence (under 200 characters) stay apart
    pages = [Page(None, _article_page("One", "Shared short sentence.", f"Own text {i} " * 30)) for i in range(3)]
    clusters = _clusters(pages)
    assert len(set(clusters)) == 3


def test_two_pages_of_one_template_are_not_near_duplicates():
    # with two pages the shared menu and footer are "on at most two pages" too: without a third
    # page nothing tells a duplicated article from the template, so the pair is never merged
    sidebar = "".join(f"<li>Archive entry number {k} of the Kitchen Diary, with its long title</li>" for k in range(8))
    pages = [
        Page(None, _article_page(*art).replace(b"</body>", f"<ul>{sidebar}</ul></body>".encode()))
        for art in ARTICLES[:2]
    ]
    assert _clusters(pages) == [0, 1]
    out = extract_site(pages)
    assert len(out) == len(pages) >= 2
    for page, (title, p1, p2) in zip(out, ARTICLES[:2], strict=False):
        assert page.post == f"{title}\n{p1}\n{p2}"
        assert not any("near-duplicate" in w for w in page.warnings)


def test_near_duplicate_pages_keep_their_post_with_default():
    out = extract_site(_pages(), DEFAULT)
    title, p1, p2 = ARTICLES[0]
    for page in (out[0], out[3]):
        assert page.post == f"{title}\n{p1}\n{p2}"


def test_near_duplicate_pages_lose_their_post_with_paper():
    out = extract_site(_pages(), PAPER)
    title, p1, _ = ARTICLES[0]
    for page in (out[0], out[3]):
        assert p1 not in page.post
        assert title not in page.post


def test_paper_with_near_duplicate_detection_keeps_the_post():
    out = extract_site(_pages(), PAPER.but(near_duplicate_pages=True))
    assert ARTICLES[0][1] in out[0].post
    assert ARTICLES[0][1] in out[3].post


def test_cosine_is_exactly_symmetric_at_a_tie():
    r2 = math.sqrt(2.0)
    a = Vector({"\n<p": 0.5, "\n<div": 0.5, "home": 0.5, "about": 0.5, "\n<a": r2})
    b = Vector({"\n<p": 0.5, "\n<div": r2, "\n<a": 0.5, "home": 0.5, "post": 0.5})
    threshold = cosine(a, b)
    assert cosine(b, a) == threshold
    assert unique_blocks([[a], [b]], threshold) == unique_blocks_bruteforce([[a], [b]], threshold)


def test_vector_key_ignores_feature_order_and_int_or_float_weights():
    assert vector_key({"a": 1.0, "b": 2}) == vector_key({"b": 2.0, "a": 1})
    assert vector_key({"a": 1.0}) != vector_key({"a": 2.0})


def _collide(*vectors: Vector) -> list[Vector]:
    for v in vectors:
        v.key = 42  # unequal vectors sharing a key, as a 64-bit hash allows
    return list(vectors)


def test_unequal_vectors_with_one_key_stay_distinct():
    a, b, a2 = _collide(Vector({"nav": 1.0}), Vector({"post": 1.0}), Vector({"nav": 1.0}))
    numbers = DistinctVectors()
    assert [numbers.number(v) for v in (a, b, a2)] == [0, 1, 0]
    assert b in numbers and Vector({"other": 1.0}) not in numbers
    # matching: "nav" is on both pages, "post" only on the second
    assert unique_blocks([[a], [b, a2]]) == [[False], [True, False]]
    index = FingerprintIndex([a])
    assert index.matches(a2) and not index.matches(b)


@SETTINGS
@given(block_sets(with_clusters=True))
def test_python_search_equals_bruteforce_with_clusters(case):
    # unique_blocks runs the compiled search where it is built: the pure-Python one is checked here
    pages, threshold, clusters = case
    cl = list(clusters) if clusters is not None else list(range(len(pages)))
    distinct, where = matching._group(pages)
    matched = matching.matched_vectors([d.vector for d in distinct], [d.pages for d in distinct], cl, threshold)
    fast = [[not distinct[i].vector.norm or not matched[i] for i in row] for row in where]
    assert fast == unique_blocks_bruteforce(pages, threshold, clusters)


@SETTINGS
@given(block_sets(with_clusters=False))
def test_fingerprint_index_equals_bruteforce(case):
    # a profile's test: the first page's vectors are the fingerprints, the other pages query them
    # (compiled where built, and in Python), repeated vectors answered from the memo
    pages, threshold, _ = case
    if not pages:
        return
    fingerprints, queries = pages[0], [v for page in pages[1:] for v in page]
    queries += queries[: len(queries) // 2]  # the same objects again: memo hits
    index = FingerprintIndex(fingerprints, threshold)
    expected = [not any(cosine(v, f) > threshold for f in fingerprints) for v in queries]
    assert [not index.matches(v) for v in queries] == expected
    assert index.unmatched(queries, {}) == expected


def test_fingerprint_index_memo_answers_repeated_vectors():
    nav, post = Vector({"nav": 1.0}), Vector({"post": 1.0})
    index = FingerprintIndex([Vector({"nav": 1.0})])
    tested: dict[Vector, bool] = {}
    assert index.unmatched([nav, post, nav], tested) == [False, True, False]
    assert tested == {nav: True, post: False}
    tested[post] = True  # a memoised answer is not searched again
    assert index.unmatched([post], tested) == [False]
