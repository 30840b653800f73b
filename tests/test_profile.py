"""Site profiles: learned from a set, they extract one new page of the site without a new set."""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path

import pytest
from garden_blog import COMMENTS, POSTS, blog_page

from extractor import DEFAULT, PAPER, Page, SiteProfile, extract_and_learn, extract_site, learn_profile
from extractor.core.tokens import tokenize
from extractor.evaluation.corpus import iter_corpus

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

NEW_POST = ("Compost bins", "A three-bay compost bin turns kitchen waste into soil.", "Turn it every fortnight.")


@pytest.fixture(scope="module")
def blog_profile():
    pages = [Page(None, blog_page(i, p, c)) for i, (p, c) in enumerate(zip(POSTS, COMMENTS, strict=True))]
    return learn_profile(pages)


# ---------------------------------------------------------------- one new page


def test_profile_extracts_a_new_page_without_comments(blog_profile):
    out = blog_profile.extract(Page("http://garden.test/new", blog_page(9, NEW_POST)))
    assert out.error is None
    assert out.url == "http://garden.test/new"
    assert out.post == "\n".join(NEW_POST)
    assert out.comments == []


def test_profile_extracts_a_new_page_with_comments(blog_profile):
    out = blog_profile.extract(Page(None, blog_page(9, NEW_POST, ["Do worms help?", "Yes, a lot."])))
    assert out.post == "\n".join(NEW_POST)
    assert out.comments == ["Reader 9-0", "Do worms help?", "Reader 9-1", "Yes, a lot."]


def test_profile_agrees_with_set_extraction_on_the_learned_pages(blog_profile):
    pages = [Page(None, blog_page(i, p, c)) for i, (p, c) in enumerate(zip(POSTS, COMMENTS, strict=True))]
    by_set = extract_site(pages)
    by_profile = [blog_profile.extract(p) for p in pages]
    assert [x.post for x in by_profile] == [x.post for x in by_set]
    assert [x.comments for x in by_profile] == [x.comments for x in by_set]


def test_profile_reports_bad_page_as_error(blog_profile):
    out = blog_profile.extract(Page(None, b""))
    assert out.error
    assert out.post == "" and out.comments == []


def test_profile_keeps_block_roles(blog_profile):
    out = blog_profile.extract(Page(None, blog_page(9, NEW_POST)))
    roles = {b.text: b.role for b in out.blocks if b.text}
    assert roles["Gardening Notes"] == "boilerplate"
    assert roles[NEW_POST[1]] == "post"


def test_profile_learned_from_paper_preset_keeps_its_options():
    pages = [Page(None, blog_page(i, p, c)) for i, (p, c) in enumerate(zip(POSTS, COMMENTS, strict=True))]
    profile = learn_profile(pages, PAPER)
    assert profile.options == PAPER
    assert SiteProfile.from_json(profile.to_json()).options == PAPER


# ---------------------------------------------------------------- JSON


def test_json_round_trip_is_stable(blog_profile):
    text = blog_profile.to_json()
    again = SiteProfile.from_json(text)
    assert again.to_json() == text
    json.loads(text)  # plain JSON


def test_json_round_trip_keeps_every_field(blog_profile):
    again = SiteProfile.from_json(blog_profile.to_json())
    assert again.options == blog_profile.options == DEFAULT
    assert again.eligible == blog_profile.eligible
    assert again.post_ids == blog_profile.post_ids
    assert again.metadata_ids == blog_profile.metadata_ids
    assert again.comment_ids == blog_profile.comment_ids
    assert again.boilerplate == blog_profile.boilerplate
    assert again.pages == blog_profile.pages == len(POSTS)


def test_json_round_trip_extracts_the_same(blog_profile):
    page = Page(None, blog_page(9, NEW_POST, ["Do worms help?"]))
    again = SiteProfile.from_json(blog_profile.to_json())
    a, b = blog_profile.extract(page), again.extract(page)
    assert (a.post, a.comments, a.blocks) == (b.post, b.comments, b.blocks)


def test_json_unknown_format_is_refused(blog_profile):
    data = json.loads(blog_profile.to_json())
    data["format"] = 999
    with pytest.raises(ValueError, match="format"):
        SiteProfile.from_json(json.dumps(data))


# ---------------------------------------------------------------- drift: template match share


def test_template_match_is_high_on_the_same_template(blog_profile):
    out = blog_profile.extract(Page(None, blog_page(9, NEW_POST)))
    assert 0.5 <= out.template_match <= 1.0


def test_template_match_falls_on_another_template(blog_profile):
    same = blog_profile.extract(Page(None, blog_page(9, NEW_POST))).template_match
    other = blog_profile.extract(
        Page(None, b"<html><body><table><tr><td class=x>News of the day</td></tr></table></body></html>")
    ).template_match
    assert other < same


# ---------------------------------------------------------------- held-out corpus pages

HELD_OUT = [
    ("wordpress/tt21", "28.html"),
    ("wordpress/cocoon", "28.html"),
    ("wordpress/tt16", "34.html"),
    ("dragnet/scotthyoung.com", "R926.html"),
    ("dragnet/poynter.org", "R589.html"),
]
HELD_OUT_IDS = [f"{site.split('/')[1]}/{name}" for site, name in HELD_OUT]


def f1(reference, candidate):
    ref, cand = Counter(tokenize(reference)), Counter(tokenize(candidate))
    if not ref and not cand:
        return 1.0
    overlap = (ref & cand).total()
    return 2 * overlap / (ref.total() + cand.total())


@functools.cache
def held_out(site, name):
    """(set extraction of the page, profile extraction of it with the profile learned without it)."""
    source, site_name = site.split("/")
    (found,) = list(iter_corpus(CORPUS, [source], [site_name]))
    files = found.page_files()
    pages = [Page(None, f.read_bytes()) for f in files]
    k = [f.name for f in files].index(name)
    by_set = extract_site(pages)[k]
    profile = learn_profile(pages[:k] + pages[k + 1 :])
    other = CORPUS / "wordpress" / ("cocoon" if site_name != "cocoon" else "tt21") / "pages" / "10.html"
    return by_set, profile.extract(pages[k]), profile.extract(Page(None, other.read_bytes()))


@pytest.mark.parametrize(("site", "name"), HELD_OUT, ids=HELD_OUT_IDS)
def test_held_out_post_matches_set_extraction(corpus_root, site, name):
    by_set, by_profile, _ = held_out(site, name)
    assert by_profile.error is None
    assert f1(by_set.post, by_profile.post) >= 0.95


@pytest.mark.parametrize(("site", "name"), HELD_OUT, ids=HELD_OUT_IDS)
def test_held_out_comments_match_set_extraction(corpus_root, site, name):
    by_set, by_profile, _ = held_out(site, name)
    assert f1("\n".join(by_set.comments), "\n".join(by_profile.comments)) >= 0.9


@pytest.mark.parametrize(("site", "name"), HELD_OUT, ids=HELD_OUT_IDS)
def test_held_out_template_match_beats_another_site(corpus_root, site, name):
    _, by_profile, other_site = held_out(site, name)
    assert by_profile.template_match >= 0.5
    assert other_site.template_match < by_profile.template_match


def test_profile_extraction_is_the_same_with_its_vector_cache_warm(blog_profile) -> None:
    # the profile shares vectors between pages, each with its fingerprint test: a second pass
    # (every vector and test shared) must give the same output, block roles included
    blog_pages = [Page(None, blog_page(i, p, c)) for i, (p, c) in enumerate(zip(POSTS, COMMENTS, strict=True))]
    blog_pages.append(Page(None, blog_page(9, NEW_POST, ["Do worms help?"])))
    first = [blog_profile.extract(p) for p in blog_pages]
    second = [blog_profile.extract(p) for p in blog_pages]
    fresh = SiteProfile.from_json(blog_profile.to_json())
    third = [fresh.extract(p) for p in blog_pages]
    assert [x.as_json() for x in first] == [x.as_json() for x in second]
    assert [x.as_json() for x in first] == [x.as_json() for x in third]
    assert fresh == blog_profile  # caches are not part of what a profile is


# ---------------------------------------------------------------- sets without a comment-free page


def _comment_f1(truth: list[dict], predicted: list[list[str]]) -> float:
    gold = Counter(t for row in truth for c in row["comments"] for t in tokenize(c["text"]))
    got = Counter(t for row in predicted for c in row for t in tokenize(c))
    shared = sum((gold & got).values())
    return 2 * shared / (sum(gold.values()) + sum(got.values()))


@pytest.mark.parametrize("site", ["everywhereist.com", "paulocoelhoblog.com"])
def test_profile_replays_the_fallback_of_a_set_where_every_page_has_comments(corpus_root: Path, site: str) -> None:
    # the set found its comments by repeated dated units (no comment-free page); the profile must
    # find them on the site's later pages the same way, not call every comment post
    d = corpus_root / "dragnet" / site
    rows = (json.loads(line) for line in (d / "truth.jsonl").read_text("utf-8").splitlines())
    truth = sorted(rows, key=lambda t: t["file"])
    half = len(truth) // 2
    profile = learn_profile([Page(None, (d / t["file"]).read_bytes()) for t in truth[:half]])
    assert profile.fallback is not None and profile.fallback.unit is not None
    rest = truth[half:]
    out = [profile.extract(Page(None, (d / t["file"]).read_bytes())) for t in rest]
    assert _comment_f1(rest, [x.comments for x in out]) >= 0.85
    again = SiteProfile.from_json(profile.to_json())
    assert again.fallback == profile.fallback


def test_profile_takes_a_body_under_an_identifier_the_set_never_saw_with_content(corpus_root: Path) -> None:
    # thecarconnection's later pages hold their article under an identifier that carried no
    # content on the learning pages; it starts before the page's comments, so it is the post
    d = corpus_root / "dragnet" / "thecarconnection.com"
    rows = (json.loads(line) for line in (d / "truth.jsonl").read_text("utf-8").splitlines())
    truth = sorted(rows, key=lambda t: t["file"])
    half = len(truth) // 2
    profile = learn_profile([Page(None, (d / t["file"]).read_bytes()) for t in truth[:half]])
    gold: Counter[str] = Counter()
    got: Counter[str] = Counter()
    for t in truth[half:]:
        gold.update(tokenize(t["post"]))
        got.update(tokenize(profile.extract(Page(None, (d / t["file"]).read_bytes())).post))
    shared = sum((gold & got).values())
    assert 2 * shared / (sum(gold.values()) + sum(got.values())) >= 0.9


def test_pipeline_mode_extracts_the_later_half_with_the_profile(corpus_root: Path) -> None:
    from extractor.cli import as_crawl

    d = corpus_root / "wordpress" / "tt21"
    pages = [Page(None, p.read_bytes()) for p in sorted((d / "pages").glob("*.html"))]
    out = as_crawl(pages, DEFAULT)
    half = len(pages) // 2
    assert len(out) == len(pages) and half > 0
    assert all(x.template_match is None for x in out[:half])  # the learning set
    assert all(x.template_match is not None and x.template_match > 0.5 for x in out[half:])


def _comment_free_profile(corpus_root: Path, site: str) -> tuple[SiteProfile, list[dict], Path]:
    d = corpus_root / "wordpress" / site
    truth = [json.loads(line) for line in (d / "truth.jsonl").read_text("utf-8").splitlines()]
    free = [t for t in truth if not t["comments"]]
    return learn_profile([Page(None, (d / t["file"]).read_bytes()) for t in free[:8]]), truth, d


@pytest.mark.parametrize("site", ["tt21", "tt16"])
def test_profile_from_comment_free_pages_splits_comments_of_a_refetch(corpus_root: Path, site: str) -> None:
    # the crawler's first fetch comes before readers comment: the profile has seen no comment, yet
    # the re-fetch's comments come out as records, with their authors
    profile, truth, d = _comment_free_profile(corpus_root, site)
    assert profile.comments is None
    pages = [t for t in truth if len(t["comments"]) >= 3][:4]
    for t in pages:
        out = profile.extract(Page(None, (d / t["file"]).read_bytes()))
        assert len(out.comment_records) == len(t["comments"]), t["file"]
        assert sorted(r.author or "" for r in out.comment_records) == sorted(c["author"] for c in t["comments"])
    later_free = [t for t in truth if not t["comments"]][8:]
    assert later_free and all(
        not profile.extract(Page(None, (d / t["file"]).read_bytes())).comments for t in later_free
    )


def test_profile_from_comment_free_pages_finds_a_lone_comment(corpus_root: Path) -> None:
    # one comment shows no repetition: its unit is the dated block holding all its comment blocks
    checked = 0
    for site in ("tt21", "tt16", "cocoon"):
        profile, truth, d = _comment_free_profile(corpus_root, site)
        for t in (t for t in truth if len(t["comments"]) == 1):
            out = profile.extract(Page(None, (d / t["file"]).read_bytes()))
            assert [r.author for r in out.comment_records] == [t["comments"][0]["author"]], t["file"]
            assert out.comments == [t["comments"][0]["text"]]
            checked += 1
    assert checked >= 2


def test_extract_and_learn_equals_extract_site_and_learn_profile(corpus_root: Path) -> None:
    # the batch job reads and classifies a set once for both; nothing may differ from the two calls
    d = corpus_root / "wordpress" / "tt21" / "pages"
    pages = [Page(None, f.read_bytes()) for f in sorted(d.glob("*.html"))[:8]]
    results, profile = extract_and_learn(pages)
    assert [r.as_json() for r in results] == [r.as_json() for r in extract_site(pages)]
    alone = json.loads(learn_profile(pages).to_json())
    both = json.loads(profile.to_json())
    alone["learned_at"] = both["learned_at"] = 0
    assert both == alone
