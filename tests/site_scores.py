"""Scoring a synthetic site folder (corpus format) as set extraction and as re-fetches through a profile.

counts, records = set_scores(folder)          # extract_site on every page
counts, records = refetch_scores(folder)      # profile from the comment-free pages, then each other page
"""

from __future__ import annotations

import json
from pathlib import Path

from extractor import Page, extract_site, learn_profile
from extractor.evaluation.scoring import Counts, RecordCounts, score_page, score_records


def _truth(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "truth.jsonl").read_text("utf-8").splitlines()]


def set_scores(folder: Path) -> tuple[Counts, RecordCounts]:
    """Token counts and record counts of the whole folder extracted as one set."""
    truth = _truth(folder)
    out = extract_site([Page(t["url"], (folder / t["file"]).read_bytes()) for t in truth])
    counts, records = Counts(), RecordCounts()
    for t, x in zip(truth, out, strict=True):
        counts.add(score_page(t, x.as_json(), split=True))
        records.add(score_records(t, [r.as_json() for r in x.comment_records]))
    return counts, records


def refetch_scores(folder: Path) -> tuple[Counts, RecordCounts]:
    """The crawler's case: a profile learned on the comment-free pages only (fetched before readers
    commented) extracts each page with comments alone."""
    truth = _truth(folder)
    profile = learn_profile([Page(t["url"], (folder / t["file"]).read_bytes()) for t in truth if not t["comments"]])
    counts, records = Counts(), RecordCounts()
    for t in (t for t in truth if t["comments"]):
        x = profile.extract(Page(t["url"], (folder / t["file"]).read_bytes()))
        counts.add(score_page(t, x.as_json(), split=True))
        records.add(score_records(t, [r.as_json() for r in x.comment_records]))
    return counts, records
