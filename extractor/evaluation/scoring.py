"""Token precision/recall/F1 of post and comments, as ``shared/corpus/README.md`` ("Scoring") defines.

Per page, token bags are compared (overlap = sum of min counts); a site pools its pages (micro),
MACRO averages sites (comments over sites with comment truth), micro pools all pages. The project's
tests check that these numbers equal the reference scorer's on the same predictions.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from extractor.core.tokens import tokenize

COUNT_FIELDS = [
    "post_tp",
    "post_truth",
    "post_pred",
    "com_tp",
    "com_truth",
    "com_pred",
    "pages",
    "found",
    "cmt_pages",
    "cmt_missed",
    "zero_pages",
    "zero_fp",
    "count_pages",
    "count_exact",
    "unlabeled",
]


@dataclass(slots=True)
class Counts:
    """Summed token counts of some pages; P/R/F1 derive from them."""

    values: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNT_FIELDS, 0))

    def add(self, other: Counts) -> None:
        for k, v in other.values.items():
            self.values[k] += v

    def __getitem__(self, key: str) -> int:
        return self.values[key]

    def post_prf(self) -> tuple[float, float, float]:
        v = self.values
        p = v["post_tp"] / v["post_pred"] if v["post_pred"] else (1.0 if not v["post_truth"] else 0.0)
        r = v["post_tp"] / v["post_truth"] if v["post_truth"] else (1.0 if not v["post_pred"] else 0.0)
        return p, r, f1(p, r) or 0.0

    def comment_prf(self) -> tuple[float | None, float | None, float | None]:
        v = self.values
        if v["com_truth"]:
            p = v["com_tp"] / v["com_pred"] if v["com_pred"] else 0.0
            r = v["com_tp"] / v["com_truth"]
            return p, r, f1(p, r)
        return (0.0 if v["com_pred"] else None), None, None

    def count_exact_rate(self) -> float | None:
        v = self.values
        return v["count_exact"] / v["count_pages"] if v["count_pages"] else None


def f1(p: float | None, r: float | None) -> float | None:
    if p is None or r is None:
        return None
    return 2 * p * r / (p + r) if p + r else 0.0


def _bag(texts: Iterable[str]) -> Counter[str]:
    return Counter(tokenize("\n".join(texts)))


def score_page(truth: Mapping[str, object], pred: Mapping[str, object] | None, split: bool) -> Counts:
    """One page's counts (README "Scoring", steps 2, 5 and 6)."""
    truth_comments = [str(c.get("text", "")) if isinstance(c, dict) else str(c) for c in _list(truth.get("comments"))]
    pred_comments: list[str] = []
    if pred is not None:
        raw = pred.get("comments")
        items = [raw] if isinstance(raw, str) else _list(raw)
        pred_comments = [_text(c) for c in items]
        section = pred.get("comment_section")
        if not split and isinstance(section, str):  # unsplit gold: the section as shown (README step 2)
            pred_comments = [section]
    unlabeled = bool(truth.get("comments_unlabeled"))
    if unlabeled:
        pred_comments = []
    t_post = _bag([str(truth.get("post") or "")])
    p_post = _bag([_text(pred.get("post")) if pred is not None else ""])
    t_com, p_com = _bag(truth_comments), _bag(pred_comments)
    has_c = bool(truth_comments)
    n_pred = sum(1 for c in pred_comments if tokenize(c))
    counts = Counts()
    counts.values.update(
        post_tp=(t_post & p_post).total(),
        post_truth=t_post.total(),
        post_pred=p_post.total(),
        com_tp=(t_com & p_com).total(),
        com_truth=t_com.total(),
        com_pred=p_com.total(),
        pages=1,
        found=int(pred is not None),
        cmt_pages=int(has_c),
        cmt_missed=int(has_c and not p_com),
        zero_pages=int(not has_c and not unlabeled),
        zero_fp=int(not has_c and bool(p_com)),
        count_pages=int(split and not unlabeled),
        count_exact=int(split and not unlabeled and n_pred == len(truth_comments)),
        unlabeled=int(unlabeled),
    )
    return counts


def _list(x: object) -> list[object]:
    return list(x) if isinstance(x, list | tuple) else []


def _text(x: object) -> str:
    if x is None:
        return ""
    if isinstance(x, dict):
        return str(x.get("text", ""))
    return x if isinstance(x, str) else str(x)


@dataclass(slots=True)
class SiteScore:
    source: str
    site: str
    counts: Counts


def metrics(c: Counts) -> dict[str, float | None]:
    pp, pr, pf = c.post_prf()
    cp, cr, cf = c.comment_prf()
    return {
        "post_p": pp,
        "post_r": pr,
        "post_f1": pf,
        "com_p": cp,
        "com_r": cr,
        "com_f1": cf,
        "count_exact_rate": c.count_exact_rate(),
    }


def macro(sites: Sequence[SiteScore]) -> dict[str, float | None]:
    """Mean of site values; comment values over sites with comment truth only."""
    out: dict[str, float | None] = {}
    rows = [(metrics(s.counts), s.counts) for s in sites]
    for k in ("post_p", "post_r", "post_f1", "com_p", "com_r", "com_f1", "count_exact_rate"):
        vals = [m[k] for m, c in rows if m[k] is not None and (not k.startswith("com_") or c["com_truth"])]
        out[k] = sum(v for v in vals if v is not None) / len(vals) if vals else None
    return out


def pooled(sites: Sequence[SiteScore]) -> Counts:
    total = Counts()
    for s in sites:
        total.add(s.counts)
    return total


# ---------------------------------------------------------------- comment records
def _norm_name(text: str | None) -> str:
    return " ".join(unicodedata.normalize("NFKC", text or "").split()).casefold()


def _align(truth: Sequence[Mapping[str, object]], pred: Sequence[Mapping[str, object]]) -> list[int | None]:
    """For every truth comment, the index of its predicted record (or None).

    Each truth comment takes the unused record with the highest token Dice overlap (at least one
    shared token), so a short comment is not taken by a longer one that quotes it; equal scores
    (the same words twice on a page) go to the earliest unused record: truth order need not be
    page order.
    """
    bags = [Counter(tokenize(_text(p.get("text")))) for p in pred]
    sizes = [b.total() for b in bags]
    used: set[int] = set()
    out: list[int | None] = []
    for t in truth:
        tb = Counter(tokenize(str(t.get("text") or "")))
        size = tb.total()
        best, best_score = None, 0.0
        for i, pb in enumerate(bags):
            if i not in used:
                shared = (tb & pb).total()
                score = 2 * shared / (size + sizes[i]) if shared else 0.0
                if score > best_score:
                    best, best_score = i, score
        if best is not None:
            used.add(best)
        out.append(best)
    return out


def date_matches(truth: str | None, pred: str | None) -> bool:
    """Same instant up to a whole-hour time-zone shift (pages print local time), to the minute.

    A date without a time ("2026-11-11", a day printed alone) matches when the truth instant falls
    on that calendar day in some zone from UTC-12 to UTC+14: from 14 h before the day's start to
    12 h after its end. A time of midnight is a time.
    """
    from datetime import datetime

    if not truth or not pred:
        return False
    try:
        t = datetime.fromisoformat(truth.replace("Z", "+00:00")).replace(tzinfo=None)
        p = datetime.fromisoformat(pred.replace("Z", "+00:00")).replace(tzinfo=None)
    except ValueError:
        return False
    if "T" not in pred.strip():
        return -14 * 3600 <= (t - p).total_seconds() < 36 * 3600  # a day alone
    delta = abs((p - t).total_seconds())
    if delta > 14 * 3600 + 60:
        return False
    return min(delta % 3600, 3600 - delta % 3600) < 60


@dataclass(slots=True)
class RecordCounts:
    """Per-comment metadata agreement, over truth comments that carry the field."""

    authors: int = 0
    authors_exact: int = 0
    dates: int = 0
    dates_ok: int = 0

    def add(self, other: RecordCounts) -> None:
        self.authors += other.authors
        self.authors_exact += other.authors_exact
        self.dates += other.dates
        self.dates_ok += other.dates_ok


def score_records(truth: Mapping[str, object], records: Sequence[Mapping[str, object]]) -> RecordCounts:
    comments = [c for c in _list(truth.get("comments")) if isinstance(c, dict)]
    counts = RecordCounts()
    if truth.get("comments_unlabeled"):
        return counts
    for t, i in zip(comments, _align(comments, records), strict=True):
        pred = records[i] if i is not None else {}
        if t.get("author"):
            counts.authors += 1
            counts.authors_exact += _norm_name(str(t["author"])) == _norm_name(_text(pred.get("author")))
        if t.get("date"):
            counts.dates += 1
            counts.dates_ok += date_matches(str(t["date"]), _text(pred.get("date")) or None)
    return counts
