"""Sets where every page has comments (issue 6): the fallback finds them without a comment-free page."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from extractor import DEFAULT, Page, extract_site, learn_profile
from extractor.evaluation.corpus import iter_corpus
from extractor.evaluation.scoring import Counts, metrics, score_page
from jobs.commentfeeds import parse_comment_feed


def _pages_with_comments(corpus_root: Path, site: str, n: int) -> tuple[list[dict], list[Page]]:
    d = corpus_root / "wordpress" / site
    truth = [json.loads(line) for line in (d / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    chosen = [t for t in truth if t["comments"]][:n]
    return chosen, [Page(t["url"], (d / t["file"]).read_bytes()) for t in chosen]


@pytest.mark.parametrize("site", ["tt21", "tt22", "tt16", "cocoon"])
def test_wordpress_set_where_every_page_has_comments_splits_them(corpus_root, site):
    truth, pages = _pages_with_comments(corpus_root, site, 8)
    out = extract_site(pages)
    for t, x in zip(truth, out, strict=True):
        assert len(x.comment_records) == len(t["comments"]), t["file"]
        assert sorted(r.author or "" for r in x.comment_records) == sorted(c["author"] for c in t["comments"])


def test_tt22_needs_the_dated_unit_fallback(corpus_root):
    truth, pages = _pages_with_comments(corpus_root, "tt22", 8)
    assert any("repeated dated units" in w for w in extract_site(pages)[0].warnings)
    bare = extract_site(pages, DEFAULT.but(comment_fallback=False))
    assert sum(len(x.comment_records) for x in bare) < sum(len(t["comments"]) for t in truth)


def test_dragnet_sets_where_every_page_has_comments_reach_the_target(corpus_root):
    """Issue 6: comment F1 >= 0.80 on the corpus sets where every page has comments."""
    f1s = {}
    for site in iter_corpus(corpus_root, ["dragnet"]):
        if site.meta.get("pages_with_comments") != site.meta.get("pages"):
            continue
        files = site.page_files()
        out = extract_site([Page(None, p.read_bytes()) for p in files])
        by_file = {p.relative_to(site.dir).as_posix(): x for p, x in zip(files, out, strict=True)}
        counts = Counts()
        for t in site.truth:
            x = by_file[t["file"]]
            counts.add(score_page(t, {"post": x.post, "comments": x.comments}, site.comments_split))
        f1s[site.site] = metrics(counts)["com_f1"]
    assert len(f1s) >= 3
    assert sum(f1s.values()) / len(f1s) >= 0.80, f1s


def test_the_fallback_does_not_depend_on_the_string_hash_seed(corpus_root: Path) -> None:
    # freerangelibrarian's dated-unit vote had a tie that a set's iteration order broke: hash seeds
    # 1 and 2 gave different posts and comments.
    site = corpus_root / "dragnet" / "freerangelibrarian.com" / "pages"
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from extractor import Page, extract_site\n"
        f"files = sorted(Path({str(site)!r}).glob('*.html'))\n"
        "out = extract_site([Page(None, f.read_bytes()) for f in files])\n"
        "print(json.dumps([(x.post, x.comments) for x in out]))\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    ]
    assert runs[0] and runs[0] == runs[1]


def test_alternating_classes_do_not_split_the_vote() -> None:
    # one page's top-level comments are all "odd alt", another's "even": the kind is li.comment
    from extractor.comments.fallback import _vote
    from extractor.comments.units import UnitSignature

    page_a = [(UnitSignature("li", frozenset({"comment", "odd", "alt", "depth-1"})), [3, 9])]
    page_b = [(UnitSignature("li", frozenset({"comment", "even", "depth-1"})), [4, 8, 12])]
    page_c = [
        (UnitSignature("li", frozenset({"comment", "depth-1"})), [5, 7]),
        (UnitSignature("p", frozenset()), [6, 7]),
    ]
    signature, votes = _vote([page_a, page_b, page_c])
    assert signature == UnitSignature("li", frozenset({"comment"})) and votes == 3


# Comment dates as some sites print them: not at all, or relative ("a while ago"); <time> values gone.
_DATES = re.compile(
    r"\sdatetime=\"[^\"]*\"|(January|February|March|April|May|June|July|August|September|October|November|December)"
    r" \d{1,2}, \d{4}( at \d{1,2}:\d{2} ?(am|pm))?|\d{4}年\d{1,2}月\d{1,2}日( \d{1,2}:\d{2})?"
)


def _undated(corpus_root: Path, site: str, feeds: bool, n: int = 8) -> tuple[list[dict], list[Page]]:
    """A set of the site's pages with comments, their comment dates removed; with ``feeds`` each page
    carries its comment feed's texts (the corpus's comment-feeds/<name>.xml, parsed as the crawler does)."""
    d = corpus_root / "wordpress" / site
    truth = [json.loads(line) for line in (d / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    chosen = [t for t in truth if t["comments"]][:n]
    pages = []
    for t in chosen:
        html = _DATES.sub(
            lambda m: "" if m.group(0).startswith(" ") else "a while ago", (d / t["file"]).read_text("utf-8")
        )
        feed = d / "comment-feeds" / (Path(t["file"]).stem + ".xml")
        texts = [e["text"] for e in parse_comment_feed(feed.read_bytes(), t["url"])] if feeds else []
        pages.append(Page(t["url"], html.encode(), feed_comments=texts))
    return chosen, pages


def _comment_f1(truth: list[dict], out: list) -> float:
    counts = Counts()
    for t, x in zip(truth, out, strict=True):
        counts.add(score_page(t, x.as_json(), split=True))
    return counts.comment_prf()[2] or 0.0


@pytest.mark.parametrize("site", ["tt16", "tt22", "cocoon"])
def test_comment_feeds_find_undated_comments_without_a_comment_free_page(corpus_root: Path, site: str) -> None:
    truth, bare = _undated(corpus_root, site, feeds=False)
    # no dates, no comment-free page, and without the page's own evidence (issue 20): taken as post
    assert _comment_f1(truth, extract_site(bare, NO_PAGE_EVIDENCE)) < 0.5
    truth, pages = _undated(corpus_root, site, feeds=True)
    out = extract_site(pages)
    assert any("comments found by comment feeds" in w for w in out[0].warnings)
    assert _comment_f1(truth, out) >= 0.95
    # the profile learned from that set replays it on later pages, which come without feeds
    profile = learn_profile(pages[:5])
    later = [profile.extract(Page(p.url, p.body)) for p in pages[5:]]
    assert _comment_f1(truth[5:], later) >= 0.95


# Issue 20's page evidence finds these undated comments by their markup alone (vocabulary and
# numbered units, "comment-12"); the feed tests turn it off to test the feeds alone.
NO_PAGE_EVIDENCE = DEFAULT.but(comment_evidence=False)


@pytest.mark.parametrize("site", ["tt16", "tt22", "cocoon"])
def test_undated_comments_without_a_comment_free_page_are_found_by_the_pages_own_markup(
    corpus_root: Path, site: str
) -> None:
    truth, bare = _undated(corpus_root, site, feeds=False)
    out = extract_site(bare)
    assert len(out) == len(bare) > 0 and all(x.method == "every-page-has-comments fallback" for x in out)
    assert _comment_f1(truth, out) >= 0.95


def test_feed_identifiers_need_most_of_the_identifier_text(corpus_root: Path) -> None:
    # a feed quoting one line of the post does not turn the post's identifier into comments
    truth, pages = _undated(corpus_root, "tt16", feeds=False)
    quoted = [Page(p.url, p.body, feed_comments=[t["post"].splitlines()[1]]) for p, t in zip(pages, truth, strict=True)]
    out = extract_site(quoted)
    assert not any("comment feeds" in w for w in out[0].warnings)


def test_a_profile_uses_a_pages_comment_feed_when_it_finds_no_comments(corpus_root: Path) -> None:
    # learned from undated comment pages without feeds, the profile took the comments for post; a
    # re-fetch that comes with its comment feed shows where they are
    _, bare = _undated(corpus_root, "tt16", feeds=False)
    truth, pages = _undated(corpus_root, "tt16", feeds=True)
    profile = learn_profile(bare[:5], NO_PAGE_EVIDENCE)
    blind = [profile.extract(Page(p.url, p.body)) for p in pages[5:]]
    assert _comment_f1(truth[5:], blind) < 0.5
    assert _comment_f1(truth[5:], [profile.extract(p) for p in pages[5:]]) >= 0.95


def test_a_profile_reads_comment_feeds_only_when_a_set_would(corpus_root: Path) -> None:
    # comment_fallback off (as in the paper preset): neither a set nor a profile reads the feeds
    no_fallback = NO_PAGE_EVIDENCE.but(comment_fallback=False)
    _, bare = _undated(corpus_root, "tt16", feeds=False)
    truth, pages = _undated(corpus_root, "tt16", feeds=True)
    assert not any("comment feeds" in w for w in extract_site(pages, no_fallback)[0].warnings)
    profile = learn_profile(bare[:5], no_fallback)
    with_feeds = [profile.extract(p) for p in pages[5:]]
    assert [x.as_json() for x in with_feeds] == [profile.extract(Page(p.url, p.body)).as_json() for p in pages[5:]]
    assert _comment_f1(truth[5:], with_feeds) < 0.5


def test_date_lines_answer_as_the_page_wide_flags_testing_only_what_is_asked(monkeypatch) -> None:
    import extractor.comments.units as U
    from extractor.core.blocks import parse_blocks

    blocks = parse_blocks(
        "<body><nav><li>May 3, 2012</li></nav><ol><li><p>Ann</p><p>June 9, 2026 at 6:12 am</p></li>"
        "<li><p>Bo</p><div><p>July 1, 2026</p></div></li></ol><p>3 days ago</p></body>"
    )
    every = U.subtree_sums(U.dated_flags(blocks), blocks)
    assert sum(U.dated_flags(blocks)) == 4
    assert [U.DateLines(blocks).holds(k) for k in range(len(blocks))] == [n > 0 for n in every]
    tested: list[str] = []
    real = U.is_dated
    monkeypatch.setattr(U, "is_dated", lambda text: tested.append(text) or real(text))
    lines = U.DateLines(blocks)
    items = [b.index for b in blocks if b.tag == "li" and blocks[b.parent].tag == "ol"]
    # the first item's subtree only, up to its date line; asked again, nothing is tested again
    assert lines.holds(items[0]) and lines.holds(items[0])
    assert tested == ["Ann", "June 9, 2026 at 6:12 am"]
    assert lines.holds(items[1]) and tested[2:] == ["Bo", "July 1, 2026"]


def test_date_lines_equal_the_page_wide_flags_on_corpus_pages(corpus_root) -> None:
    from extractor.comments.units import DateLines, dated_flags, subtree_sums
    from extractor.core.blocks import parse_blocks

    site = next(iter_corpus(corpus_root, ["wordpress"], ["tt21"]))
    for path in site.page_files()[:6]:
        blocks = parse_blocks(path.read_bytes().decode("utf-8"))
        every = subtree_sums(dated_flags(blocks), blocks)
        lines = DateLines(blocks)
        # asked in reverse preorder: inner subtrees are answered first, then reused
        assert [lines.holds(k) for k in reversed(range(len(blocks)))] == [n > 0 for n in reversed(every)]
        assert [lines.count(k) for k in range(len(blocks))] == every


@given(st.lists(st.booleans(), max_size=12), st.sampled_from([0.25, 0.5, 0.6, 0.8, 1.0]))
def test_share_holds_is_the_share_test_stopping_early(flags, share) -> None:
    from extractor.comments.units import share_holds

    asked: list[int] = []
    test = lambda k: asked.append(k) or flags[k]  # noqa: E731
    members = list(range(len(flags)))
    assert share_holds(members, test, share) == (sum(flags) >= share * len(flags))
    assert asked == members[: len(asked)]  # in order, each once
    hits = sum(flags[k] for k in asked)
    if len(asked) < len(flags):  # stopped early: the verdict was already sealed
        assert hits >= share * len(flags) or hits + len(flags) - len(asked) < share * len(flags)
