"""Comment dates printed as a day alone: ``date`` is the ISO day ("2026-11-11"), ``date_precision`` "day".

On real markup: OceanWP prints a comment's date without a time (``<span class="comment-date">``, no
``<time datetime>``), before the text; Hatena Blog prints it after the text. Their day-only forms
in other locales ("2026年11月11日", "11/11/2026") are read the same way.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from extractor import Page, extract_site
from extractor.evaluation.scoring import _align, date_matches
from tests.engines.write import build_corpus as build_engines
from tests.themes import build_corpus as build_themes
from tests.themes.localize import localize_site

ISO_DAY = re.compile(r"\d{4}-\d\d-\d\d")


def dated_records(folder: Path) -> list[tuple[dict, dict]]:
    """(truth comment, its record) for every truth comment with a date, the site extracted as one set."""
    truth = [json.loads(line) for line in (folder / "truth.jsonl").read_text("utf-8").splitlines()]
    results = extract_site([Page(t["url"], (folder / t["file"]).read_bytes()) for t in truth])
    pairs = []
    for t, result in zip(truth, results, strict=True):
        records = [r.as_json() for r in result.comment_records]
        for comment, i in zip(t["comments"], _align(t["comments"], records), strict=True):
            if comment.get("date"):
                pairs.append((comment, records[i] if i is not None else {}))
    return pairs


def assert_days(pairs: list[tuple[dict, dict]]) -> None:
    assert len(pairs) >= 20
    for comment, record in pairs:
        assert record.get("date_precision") == "day", record
        assert ISO_DAY.fullmatch(record["date"]), record
        assert date_matches(comment["date"], record["date"]), (comment["date"], record["date"])
        assert record["text"] == comment["text"]  # the date line is not part of the text


@pytest.mark.parametrize(
    "lang", [None, "zh", "en-us-numeric"], ids=["November 11, 2026", "2026年11月11日", "11/11/2026"]
)
def test_a_theme_printing_the_day_alone_gives_iso_days(tmp_path: Path, lang: str | None) -> None:
    (folder,) = build_themes(tmp_path, seed=3, pages=12, themes=["oceanwp"])
    if lang:
        localize_site(folder, lang)
    page = next((folder / "pages").glob("*.html")).read_text("utf-8")
    assert "<time" not in page.split('class="comment-list"')[-1][:3000]  # no machine date to fall back on
    assert_days(dated_records(folder))


def test_a_day_printed_after_the_comment_text_is_read(tmp_path: Path) -> None:
    # Hatena Blog: name, text, then the date line; here printed without its time and without the
    # <time datetime> value, as a blog showing dates alone does
    (folder,) = build_engines(tmp_path, seed=3, pages=12, engines=["hatena-ja"])
    for path in (folder / "pages").glob("*.html"):
        html = path.read_text("utf-8")
        html = re.sub(r'\s(?:datetime|title)="\d{4}-[^"]*"', "", html)
        html = re.sub(r"(\d{4}/\d\d/\d\d) \d\d:\d\d", r"\1", html)
        path.write_text(html, "utf-8")
    html = next((folder / "pages").glob("*.html")).read_text("utf-8")
    assert re.search(r"comment-content.*?</div>\s*<p class=\"comment-metadata\">", html, re.S)  # date after text
    assert_days(dated_records(folder))
