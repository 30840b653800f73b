"""``extractor.evaluation.scoring`` and ``python -m extractor evaluate`` agree with the reference scorer.

The reference is ``../shared/eval/score.py`` (stdlib only), imported by path. Its absence is an error.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractor.evaluation import scoring

SHARED = Path(__file__).resolve().parents[2] / "shared"
MAIN = Path(__file__).resolve().parents[1]
SUB_CORPUS = {
    "wordpress": ["tt21", "cocoon"],
    "dragnet": ["blog.ted.com", "poynter.org", "scotthyoung.com"],
}
SITES = [f"{src}/{site}" for src, sites in SUB_CORPUS.items() for site in sites]
TOL = 1e-9


@functools.cache
def reference():
    """../shared/eval/score.py as a module (it puts its folder on sys.path for its corpus.py)."""
    path = SHARED / "eval" / "score.py"
    if not path.is_file():
        pytest.fail(f"reference scorer missing: {path}", pytrace=False)
    spec = importlib.util.spec_from_file_location("shared_eval_score", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def ref():
    return reference()


# ---------------------------------------------------------------- tokens

TRICKY = [
    "",
    "Don't STOP—日本語",
    "Don't STOP—日本語テキスト、ＯＫ? Ｗｉｆｉ ①",
    "naïve café résumé",
    "nai\u0308ve cafe\u0301",  # combining marks
    "Straße STRASSE ß ẞ",  # casefold
    "ﬁne ﬂour",  # ligatures (NFKC)
    "々〆〇 ー ｶﾀｶﾅ ﾊﾟﾝ",  # iteration marks, prolonged sound, half-width kana
    "中文，標點。한국어 텍스트",  # Hangul is not split per character
    "x²+y³=z¹⁰ ½ Ⅻ ⑩",  # superscripts, fractions, roman numerals
    "e-mail: foo.bar@example.com http://a.b/c?d=1",
    "tab\tnew\nline\r\nnbsp\u00a0zero\u200bwidth",
    "emoji 😀👍🏽 family 👨‍👩‍👧",
    "Ελληνικά ΣΊΣΥΦΟΣ русский ТЕКСТ",
    "עברית ערבית عربي ١٢٣",
    "हिन्दी देवनागरी",  # Mc/Mn marks inside runs
    "𠮷野家 𩸽",  # CJK extension B
    "123,456.78 3.14 -5",
]


@pytest.mark.parametrize("text", TRICKY, ids=[f"tricky{i}" for i in range(len(TRICKY))])
def test_tokenize_equals_reference(ref, text):
    assert scoring.tokenize(text) == ref.tokenize(text)


def test_tokenize_documented_example():
    assert scoring.tokenize("Don't STOP—日本語") == ["don", "t", "stop", "日", "本", "語"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_tokenize_equals_reference_on_random_text(text):
    assert scoring.tokenize(text) == reference().tokenize(text)


# ---------------------------------------------------------------- page scores

TRUTH = {
    "post": "Hello, world!\nIt's a small post.",
    "comments": [{"text": "Thanks!"}, {"text": "You're welcome. Thanks!"}],
}
PREDS = {
    "exact": {"post": "Hello, world!\nIt's a small post.", "comments": ["Thanks!", "You're welcome. Thanks!"]},
    "merged": {"post": "Hello world", "comments": ["Thanks! You're welcome. Thanks!"]},
    "string-comments": {"post": "small post", "comments": "Thanks! Thanks!"},
    "dict-items": {"post": {"text": "a small post"}, "comments": [{"text": "welcome"}, ""]},
    "empty": {"post": "", "comments": []},
    "missing": None,
    "extra": {"post": "Hello hello world world", "comments": ["spam", "Thanks!", "ham"]},
    # unsplit gold is scored on the section as shown; split gold always on the comments
    "section": {
        "post": "Hello, world!",
        "comments": ["Thanks!", "You're welcome."],
        "comment_section": "Jane says:\nThanks!\nMarch 2, 2012 at 9:14 am\nYou're welcome. Thanks!",
    },
}
TRUTHS = {
    "with-comments": TRUTH,
    "no-comments": {"post": "Quiet day", "comments": []},
    "unlabeled": {"post": "Blog post body", "comments": [], "comments_unlabeled": True},
}


@pytest.mark.parametrize("split", [True, False], ids=["split", "joined"])
@pytest.mark.parametrize("truth", sorted(TRUTHS))
@pytest.mark.parametrize("pred", sorted(PREDS))
def test_score_page_counts_equal_reference(ref, pred, truth, split):
    ours = scoring.score_page(TRUTHS[truth], PREDS[pred], split).values
    theirs = ref.score_page(TRUTHS[truth], PREDS[pred], split)
    assert ours == {k: theirs[k] for k in scoring.COUNT_FIELDS}


def test_metrics_equal_reference_on_summed_counts(ref):
    rows = [scoring.score_page(TRUTH, p, True) for p in PREDS.values()]
    total = scoring.Counts()
    for r in rows:
        total.add(r)
    theirs = ref.metrics(ref._sum([ref.score_page(TRUTH, p, True) for p in PREDS.values()]))
    ours = scoring.metrics(total)
    for key, value in ours.items():
        assert value == pytest.approx(theirs[key], abs=TOL), key


# ---------------------------------------------------------------- evaluate == score.py


@pytest.fixture(scope="module")
def sub_corpus(corpus_root, tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    for src, sites in SUB_CORPUS.items():
        (root / src).mkdir()
        for site in sites:
            target = corpus_root / src / site
            assert target.is_dir(), target
            (root / src / site).symlink_to(target, target_is_directory=True)
    return root


@pytest.fixture(scope="module")
def both_reports(sub_corpus, ref, tmp_path_factory):
    out = tmp_path_factory.mktemp("eval")
    pred, ours_json, theirs_json = out / "pred.jsonl", out / "ours.json", out / "theirs.json"
    evaluate = ["evaluate", "--corpus", str(sub_corpus), "--json", str(ours_json), "--predictions", str(pred)]
    run = subprocess.run(
        [sys.executable, "-m", "extractor", *evaluate, "--jobs", "2"],
        cwd=MAIN,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    score = subprocess.run(
        [sys.executable, str(SHARED / "eval" / "score.py"), str(sub_corpus), str(pred), "--json", str(theirs_json)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert score.returncode == 0, score.stderr
    return json.loads(ours_json.read_text()), json.loads(theirs_json.read_text()), run.stdout, score.stdout, pred


@pytest.fixture(scope="module")
def predictions(both_reports):
    rows = [json.loads(line) for line in both_reports[4].read_text(encoding="utf-8").splitlines()]
    return {row["file"]: row for row in rows}


METRIC_KEYS = ["post_p", "post_r", "post_f1", "com_p", "com_r", "com_f1", "count_exact_rate"]


def assert_same_metrics(ours, theirs):
    for key in METRIC_KEYS:
        if theirs[key] is None:
            assert ours[key] is None, key
        else:
            assert ours[key] == pytest.approx(theirs[key], abs=TOL), key


def test_predictions_cover_every_page(both_reports):
    _, theirs, *_ = both_reports
    assert theirs["missing_predictions"] == 0
    assert theirs["unmatched_predictions"] == []
    assert sorted(f"{s['source']}/{s['site']}" for s in theirs["sites"]) == sorted(SITES)


@pytest.mark.parametrize("site", SITES)
def test_site_scores_equal_reference(both_reports, site):
    ours, theirs, *_ = both_reports
    (o,) = [s for s in ours["sites"] if f"{s['source']}/{s['site']}" == site]
    (t,) = [s for s in theirs["sites"] if f"{s['source']}/{s['site']}" == site]
    assert_same_metrics(o, t)
    for key in scoring.COUNT_FIELDS:
        assert o[key] == t[key], key


@pytest.mark.parametrize("source", sorted(SUB_CORPUS))
@pytest.mark.parametrize("kind", ["macro", "micro"])
def test_source_scores_equal_reference(both_reports, source, kind):
    ours, theirs, *_ = both_reports
    assert_same_metrics(ours["sources"][source][kind], theirs["sources"][source][kind])


@pytest.mark.parametrize("kind", ["macro", "micro"])
def test_overall_scores_equal_reference(both_reports, kind):
    ours, theirs, *_ = both_reports
    assert_same_metrics(ours[kind], theirs[kind])


def test_summary_lines_agree(both_reports):
    _, _, our_stdout, their_stdout, _ = both_reports
    ours = our_stdout.strip().splitlines()[-1]
    theirs = their_stdout.strip().splitlines()[-1]
    assert ours.startswith("SUMMARY")
    assert ours.split(":", 1)[1].strip() == theirs.split(":", 1)[1].strip()


def test_unsplit_gold_is_scored_on_the_comment_section_as_shown(both_reports, predictions, ref, corpus_root):
    # Dragnet pages with comments carry the section as shown (author and date lines in), and the
    # Dragnet comment counts of evaluate and score.py are those of the section, not of the comments
    ours, theirs, *_ = both_reports
    shown = {f: p for f, p in predictions.items() if f.startswith("dragnet/") and p.get("comments")}
    assert shown and all(p["comment_section"] for p in shown.values())
    assert any(
        len(scoring.tokenize(p["comment_section"])) > len(scoring.tokenize(" ".join(p["comments"])))
        for p in shown.values()
    )
    truths = {
        f"dragnet/{site}/{t['file']}": t
        for site in SUB_CORPUS["dragnet"]
        for t in map(
            json.loads, (corpus_root / "dragnet" / site / "truth.jsonl").read_text(encoding="utf-8").splitlines()
        )
    }
    section_pred = sum(ref.score_page(truths[f], p, False)["com_pred"] for f, p in predictions.items() if f in truths)
    for report in (ours, theirs):
        assert sum(s["com_pred"] for s in report["sites"] if s["source"] == "dragnet") == section_pred
    comments_only = {f: {**p, "comment_section": None} for f, p in predictions.items() if f in truths}
    words_only = sum(ref.score_page(truths[f], p, False)["com_pred"] for f, p in comments_only.items())
    assert words_only < section_pred


def test_a_printed_day_matches_an_instant_on_that_day_in_some_zone() -> None:
    date_matches = scoring.date_matches
    # 21:16 UTC on 2 January is 3 January from UTC+3 on: a theme printing "January 3, 2026" is right
    assert date_matches("2026-01-02T21:16:21Z", "2026-01-03")
    assert date_matches("2026-01-03T23:59:00Z", "2026-01-03")
    assert date_matches("2026-01-04T11:00:00Z", "2026-01-03")  # UTC-12 is still on the 3rd
    assert not date_matches("2026-01-04T13:00:00Z", "2026-01-03")
    assert not date_matches("2026-01-02T09:00:00Z", "2026-01-03")
    # midnight printed with its time ("12:00 am") is that minute, not the whole day
    assert date_matches("2026-01-02T15:00:00Z", "2026-01-03T00:00:00")  # UTC+9
    assert not date_matches("2026-01-03T23:59:00Z", "2026-01-03T00:00:00")
    # with a time: the same instant up to a whole-hour zone shift
    assert date_matches("2026-01-02T21:16:21Z", "2026-01-03T06:16:00")
    assert not date_matches("2026-01-02T21:16:21Z", "2026-01-03T06:46:00")
