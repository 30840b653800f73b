"""Command line: ``python -m extractor extract|evaluate|report|warc``.

python -m extractor extract site/pages/*.html --out out.jsonl
python -m extractor extract --corpus ../shared/corpus --out out.jsonl
python -m extractor evaluate --corpus ../shared/corpus [--json OUT] [--preset paper] [--folds 2]
python -m extractor warc crawl.warc.gz --out out.jsonl
python -m extractor evaluate --corpus ../shared/corpus --single | --set-size K
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

from .core.options import PRESETS, Options
from .core.roles import COMMENT, POST
from .evaluation.corpus import CorpusSite, iter_corpus
from .evaluation.scoring import RecordCounts, SiteScore, macro, metrics, pooled, score_page, score_records
from .evaluation.set_sizes import extract_in_sets, print_beside_full_sets
from .separation.identifiers import DEFAULT_IDENTIFIER
from .separation.method import NO_COMMENTS, PAGE_EVIDENCE, Page, PageExtraction, extract_site
from .separation.profile import extract_and_learn


def _extract_files(paths: Sequence[Path], options: Options) -> list[PageExtraction]:
    """One site's saved pages, extracted as one set."""
    pages = [Page(None, p.read_bytes()) for p in paths]
    return extract_site(pages, options)


def parse_overrides(preset: str, settings: Sequence[str] | None) -> Options:
    """A preset with ``name=value`` overrides (``--set reextract=true --set tag_scale=1``)."""
    options = PRESETS[preset]
    changes: dict[str, object] = {}
    for item in settings or ():
        name, _, raw = item.partition("=")
        if not hasattr(options, name):
            raise SystemExit(f"unknown option {name!r}; options: {', '.join(Options.__dataclass_fields__)}")
        current = getattr(options, name)
        value: object
        if raw.lower() in ("none", "null"):
            value = None
        elif isinstance(current, bool):
            value = raw.lower() in ("1", "true", "yes", "on")
        elif isinstance(current, int | float) and not isinstance(current, bool):
            value = type(current)(raw)
        elif current is None:
            value = float(raw)
        else:
            value = raw
        changes[name] = value
    return options.but(**changes)


@dataclass(slots=True)
class _SiteResult:
    rows: list[dict[str, object]]
    comment_ids: set[str]  # identifiers that carried comments, where separation had its evidence
    post_ids: set[str]
    no_comments: bool  # the set yielded no comment at all


@dataclass(frozen=True, slots=True)
class Job:
    """One site to extract: as one set, as the crawl meets it, or in sets of ``set_size`` pages."""

    site: CorpusSite
    options: Options
    known: frozenset[str] = frozenset()
    as_crawl: bool = False
    set_size: int = 0  # 0: the whole site is one set


def _site_job(job: Job) -> _SiteResult:
    site, options, known = job.site, job.options, job.known
    files = site.page_files()
    pages = [Page(None, p.read_bytes()) for p in files]
    if job.as_crawl:
        results = as_crawl(pages, options)
    elif job.set_size:
        results = extract_in_sets(pages, job.set_size, options, site.site, known)
    else:
        results = extract_site(pages, options, known)
    rows = []
    for path, res in zip(files, results, strict=True):
        rel = path.relative_to(site.dir).as_posix()
        row: dict[str, object] = {"file": site.key(rel), "post": res.post, "comments": res.comments}
        row.update(res.decision())  # method and confidence, when the preset sets them
        row.update(res.post_metadata())
        if res.comment_records:
            row["comment_records"] = [r.as_json() for r in res.comment_records]
            row["comment_section"] = res.comment_section
        if res.error:
            row["error"] = res.error
        if res.warnings:
            row["warnings"] = res.warnings
        rows.append(row)
    warned = {w for r in results for w in r.warnings}
    fallback = any("no comment-free page" in w for w in warned)
    ids = set() if fallback else {b.identifier for r in results for b in r.blocks if b.role == COMMENT}
    ids.discard(DEFAULT_IDENTIFIER)
    posts = {b.identifier for r in results for b in r.blocks if b.role == POST}
    # a set whose comments only the pages' own markup showed tries other sites' identifiers first,
    # as the crawl does (it passes them at once)
    return _SiteResult(rows, ids, posts, NO_COMMENTS in warned or PAGE_EVIDENCE in warned)


def as_crawl(pages: Sequence[Page], options: Options) -> list[PageExtraction]:
    """As the crawl meets a site: the first half (in file order) as one set, then a
    profile learned from it extracts each later page on its own."""
    half = max(1, len(pages) // 2)
    first, profile = extract_and_learn(pages[:half], options)
    return first + [profile.extract(p) for p in pages[half:]]


def extract_corpus(
    root: Path,
    options: Options,
    sources: list[str] | None = None,
    sites: list[str] | None = None,
    jobs: int = 0,
    as_crawl: bool = False,
    set_size: int = 0,
) -> Iterator[tuple[CorpusSite, list[dict[str, object]]]]:
    """Extract every site of a corpus (one set per site), in parallel processes when jobs > 1.

    Sets that yield no comment at all are extracted again with the comment identifiers learned on
    the *other* sites (2013 §4.7; leave-one-out, so a site never learns from itself). With
    ``as_crawl``, each site is extracted as the crawl meets it (``as_crawl``); with
    ``set_size``, in fixed random sets of that many pages (``set_sizes.py``).
    """
    all_sites = list(iter_corpus(root, sources, sites))
    jobs = jobs or min(os.cpu_count() or 1, 4)
    first = _run_jobs([Job(s, options, as_crawl=as_crawl, set_size=set_size) for s in all_sites], jobs)
    again: list[tuple[int, Job]] = []
    if options.comment_fallback and not as_crawl:
        for i, result in enumerate(first):
            if result.no_comments:
                others = [r for j, r in enumerate(first) if j != i]
                known = learned_comment_ids([r.comment_ids for r in others], [r.post_ids for r in others])
                if known:
                    again.append((i, Job(all_sites[i], options, frozenset(known), set_size=set_size)))
    for i, result in zip([i for i, _ in again], _run_jobs([w for _, w in again], jobs), strict=True):
        first[i] = result
    for site, result in zip(all_sites, first, strict=True):
        yield site, result.rows


def learned_comment_ids(comment_ids: Sequence[set[str]], post_ids: Sequence[set[str]], sites: int = 2) -> set[str]:
    """Identifiers that carried comments on at least ``sites`` sites and the post on none (§4.7)."""
    seen = Counter(i for ids in comment_ids for i in ids)
    never_post = set().union(*post_ids) if post_ids else set()
    return {i for i, n in seen.items() if n >= sites and i not in never_post}


def _run_jobs(work: list[Job], jobs: int) -> list[_SiteResult]:
    if jobs > 1 and len(work) > 1:
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(_site_job, work, chunksize=1))
    return [_site_job(w) for w in work]


def _write_rows(rows: list[dict[str, object]], out: IO[str], records: bool = False) -> None:
    keys: tuple[str, ...] = ("file", "post", "comments", "comment_section")
    keys += ("comment_records",) if records else ()
    keys += ("method", "confidence")  # set only by presets with comment_evidence
    keys += ("published", "post_author")  # set only by presets with post_date_line / post_byline
    for row in rows:
        out.write(json.dumps({k: row[k] for k in keys if k in row}, ensure_ascii=False) + "\n")


def _open_out(path: str | None, stack: ExitStack) -> IO[str]:
    if not path or path == "-":
        return sys.stdout
    return stack.enter_context(open(path, "w", encoding="utf-8"))


def cmd_extract(a: argparse.Namespace) -> int:
    with ExitStack() as stack:
        out = _open_out(a.out, stack)
        if a.corpus:
            for _site, rows in extract_corpus(
                Path(a.corpus), parse_overrides(a.preset, a.set), a.source, a.site, a.jobs
            ):
                _write_rows(rows, out, a.records)
        else:
            if not a.files:
                print("extract: give FILE... (one site's pages) or --corpus ROOT", file=sys.stderr)
                return 2
            paths = [Path(f) for f in a.files]
            results = _extract_files(paths, parse_overrides(a.preset, a.set))
            for path, res in zip(paths, results, strict=True):
                if res.error:
                    print(f"extract: {path}: {res.error}", file=sys.stderr)
                row: dict[str, object] = {"file": str(path), "post": res.post, "comments": res.comments}
                row.update(res.decision())  # method and confidence, when the preset sets them
                row.update(res.post_metadata())
                if res.comment_records:  # the section as shown, for gold that keeps author and date lines in
                    row["comment_section"] = res.comment_section
                if a.records:
                    row["comment_records"] = [r.as_json() for r in res.comment_records]
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
            for w in sorted({w for r in results for w in r.warnings}):
                print(f"extract: warning: {w}", file=sys.stderr)
    return 0


def _fmt(v: float | None) -> str:
    return f"{v:6.3f}" if v is not None else f"{'-':>6}"


def score_corpus(
    a: argparse.Namespace, options: Options, set_size: int, preds_out: IO[str] | None = None
) -> tuple[list[SiteScore], dict[str, RecordCounts]]:
    """Every site of ``a.corpus`` extracted (in sets of ``set_size`` pages, 0: whole sites) and scored."""
    scores: list[SiteScore] = []
    records: dict[str, RecordCounts] = {}
    for site, rows in extract_corpus(Path(a.corpus), options, a.source, a.site, a.jobs, a.as_crawl, set_size):
        by_file = {str(r["file"]): r for r in rows}
        if preds_out:
            _write_rows(rows, preds_out, records=True)
        counts = None
        rec = RecordCounts()
        for t in site.truth:
            pred = by_file.get(site.key(str(t["file"])))
            pc = score_page(t, pred, site.comments_split)
            if counts is None:
                counts = pc
            else:
                counts.add(pc)
            raw = pred.get("comment_records") if pred else None
            rec.add(score_records(t, raw if isinstance(raw, list) else []))
        if counts is not None:
            scores.append(SiteScore(site.source, site.site, counts))
            records[site.site] = rec
    return scores, records


def cmd_evaluate(a: argparse.Namespace) -> int:
    if a.folds is not None and not 2 <= a.folds <= MAX_FOLDS:
        print(f"evaluate: --folds must be 2 to {MAX_FOLDS}, not {a.folds}", file=sys.stderr)
        return 2
    if a.set_size is not None and (a.set_size < 1 or a.as_crawl):
        print("evaluate: --set-size takes a number of pages >= 1, without --as-crawl", file=sys.stderr)
        return 2
    options = parse_overrides(a.preset, a.set)
    with ExitStack() as stack:
        preds_out = _open_out(a.predictions, stack) if a.predictions else None
        scores, records = score_corpus(a, options, a.set_size or 0, preds_out)
    if not scores:
        print(f"evaluate: no sites under {a.corpus}", file=sys.stderr)
        return 2
    if a.folds and not any(s.source == FOLD_SOURCE for s in scores):
        print(f"evaluate: --folds splits the {FOLD_SOURCE} sites, and {a.corpus} has none", file=sys.stderr)
        return 2
    report = build_report(scores)
    report["comment_records"] = {site: asdict(rc) for site, rc in records.items() if rc.authors or rc.dates}
    if a.folds:
        report["folds"] = build_folds(scores, a.folds)
    full: list[SiteScore] = []
    if a.set_size:
        report["set_size"] = a.set_size
        full, _ = score_corpus(a, options, 0)
        report["full_set"] = build_report(full)
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1), encoding="utf-8")
    print_report(report, scores, records, a.folds)
    if a.set_size:
        print_beside_full_sets(scores, full, a.set_size)
    return 0


# Cross-validation by site (``--folds``): the Dragnet sites split into fixed halves, so a rule chosen
# on one half is judged on the other. WordPress has four sites of two themes' families: too few to split.
FOLD_SOURCE = "dragnet"
MAX_FOLDS = 26  # folds are labelled A, B, C, ...


def fold_of(site: str, folds: int = 2) -> int:
    """The fold of a site: the first byte of the SHA-1 of its name, modulo ``folds``. Stable across
    runs, machines and corpus versions (a site never moves when sites are added or removed).

    >>> [fold_of(s) for s in ("blog.ted.com", "legalnomads.com")]
    [1, 0]
    """
    return hashlib.sha1(site.encode("utf-8")).digest()[0] % folds


def fold_label(index: int) -> str:
    return chr(ord("A") + index)


def split_folds(scores: Sequence[SiteScore], folds: int) -> list[list[SiteScore]]:
    """The ``FOLD_SOURCE`` sites of ``scores`` in ``folds`` groups (``fold_of``), in site order."""
    out: list[list[SiteScore]] = [[] for _ in range(folds)]
    for s in scores:
        if s.source == FOLD_SOURCE:
            out[fold_of(s.site, folds)].append(s)
    return out


def build_folds(scores: Sequence[SiteScore], folds: int) -> dict[str, object]:
    """Per fold: its sites, macro and micro (with the pooled page counts, as score.py's ``micro``)."""
    out: dict[str, object] = {}
    for i, group in enumerate(split_folds(scores, folds)):
        pooled_counts = pooled(group)
        out[fold_label(i)] = {
            "sites": [s.site for s in group],
            "macro": macro(group) if group else None,
            "micro": {**pooled_counts.values, **metrics(pooled_counts)} if group else None,
        }
    return out


def print_folds(scores: Sequence[SiteScore], folds: int) -> None:
    """Each fold's macro and micro, beside the other sources as the table above prints them."""
    groups = split_folds(scores, folds)
    print()
    print(f"{folds}-fold cross-validation by site: {FOLD_SOURCE} sites split by sha1(site name)[0] % {folds}")
    for i, group in enumerate(groups):
        print(f"fold {fold_label(i)} ({len(group)} {FOLD_SOURCE} sites): {', '.join(s.site for s in group) or 'none'}")
    print(_HEADER)
    named = [(f"fold {fold_label(i)}", group) for i, group in enumerate(groups)]
    others = sorted({s.source for s in scores} - {FOLD_SOURCE})
    for label, group in named + [(src, [s for s in scores if s.source == src]) for src in others]:
        print("-" * len(_HEADER))
        if not group:
            print(f"{label}: no {FOLD_SOURCE} site in this fold")
            continue
        n_c = sum(1 for s in group if s.counts["com_truth"])
        row(f"{label} MACRO ({len(group)} sites, {n_c} w/ cmts)", macro(group), None)
        row(f"{label} micro", metrics(pooled(group)), pooled(group).values)
    print("-" * len(_HEADER))
    for label, group in named:
        if group:
            m, total = macro(group), pooled(group)
            mi = metrics(total)
            print(
                f"{label.upper()}: macro post F1 {_fmt(m['post_f1']).strip()} comment F1 {_fmt(m['com_f1']).strip()}"
                f" | micro post F1 {_fmt(mi['post_f1']).strip()} comment F1 {_fmt(mi['com_f1']).strip()}"
                f" | 0c-fp {total['zero_fp']}/{total['zero_pages']} c-miss {total['cmt_missed']}/{total['cmt_pages']}"
                f" | {len(group)} sites"
            )


def print_records(records: dict[str, RecordCounts]) -> None:
    """Comment metadata where the truth has it: author exact, date correct (scoring.date_matches)."""
    rows = {site: rc for site, rc in records.items() if rc.authors or rc.dates}
    if not rows:
        return
    total = RecordCounts()
    for site, rc in rows.items():
        total.add(rc)
        print(
            f"records {site:<30} author exact {_share(rc.authors_exact, rc.authors)}"
            f"  date correct {_share(rc.dates_ok, rc.dates)}"
        )
    print(
        f"records {'ALL':<30} author exact {_share(total.authors_exact, total.authors)}"
        f"  date correct {_share(total.dates_ok, total.dates)}"
    )


def _share(k: int, n: int) -> str:
    return f"{k:>4}/{n:<4} {k / n:6.3f}" if n else f"{'-':>16}"


def _has_comment_free_page(s: SiteScore) -> bool:
    """The method's assumption (2013 §3.6) holds for this set: some page has no comments."""
    return s.counts["zero_pages"] > 0


def build_report(scores: list[SiteScore]) -> dict[str, object]:
    sources: dict[str, object] = {}
    for src in sorted({s.source for s in scores}):
        ss = [s for s in scores if s.source == src]
        free = [s for s in ss if _has_comment_free_page(s)]
        sources[src] = {
            "macro": macro(ss),
            "micro": metrics(pooled(ss)),
            "macro_with_comment_free_page": macro(free) if free else None,
        }
    return {
        "sites": [{"source": s.source, "site": s.site, **s.counts.values, **metrics(s.counts)} for s in scores],
        "sources": sources,
        "macro": macro(scores),
        "micro": metrics(pooled(scores)),
    }


_HEADER = (
    f"{'source/site':<40} {'pages':>5} | {'POST P':>6} {'R':>6} {'F1':>6} | {'CMT P':>6} {'R':>6} {'F1':>6}"
    f" | {'cnt=':>6} | {'0c-fp':>7} {'c-miss':>7}"
)


def row(name: str, m: dict[str, float | None], counts: dict[str, int] | None) -> None:
    """One line of the score table: a site or an aggregate (``counts`` None: no page counts)."""
    pages = f"{counts['pages']:>5}" if counts else f"{'':>5}"
    fp = (
        f"{counts['zero_fp']:>3}/{counts['zero_pages']:<3} {counts['cmt_missed']:>3}/{counts['cmt_pages']:<3}"
        if counts
        else f"{'':>7} {'':>7}"
    )
    print(
        f"{name[:40]:<40} {pages} | {_fmt(m['post_p'])} {_fmt(m['post_r'])} {_fmt(m['post_f1'])} |"
        f" {_fmt(m['com_p'])} {_fmt(m['com_r'])} {_fmt(m['com_f1'])} | {_fmt(m['count_exact_rate'])} | {fp}"
    )


def print_report(
    report: dict[str, object],
    scores: list[SiteScore],
    records: dict[str, RecordCounts] | None = None,
    folds: int | None = None,
) -> None:
    hdr = _HEADER
    print(hdr)
    for src in sorted({s.source for s in scores}):
        print("-" * len(hdr))
        ss = [s for s in scores if s.source == src]
        for s in ss:
            row(f"{src}/{s.site}", metrics(s.counts), s.counts.values)
        n_c = sum(1 for s in ss if s.counts["com_truth"])
        row(f"{src} MACRO ({len(ss)} sites, {n_c} w/ cmts)", macro(ss), None)
        free = [s for s in ss if _has_comment_free_page(s)]
        if len(free) < len(ss):
            row(f"{src} MACRO, sets w/ a 0-comment page ({len(free)})", macro(free), None)
        row(f"{src} micro", metrics(pooled(ss)), pooled(ss).values)
    print("-" * len(hdr))
    n_c = sum(1 for s in scores if s.counts["com_truth"])
    m = macro(scores)
    row(f"ALL MACRO ({len(scores)} sites, {n_c} w/ cmts)", m, None)
    mi = metrics(pooled(scores))
    row("ALL micro", mi, pooled(scores).values)
    print_records(records or {})
    if folds:
        print_folds(scores, folds)
    print(
        f"SUMMARY: macro post F1 {_fmt(m['post_f1']).strip()} comment F1 {_fmt(m['com_f1']).strip()}"
        f" | micro post F1 {_fmt(mi['post_f1']).strip()} comment F1 {_fmt(mi['com_f1']).strip()}"
        f" | count-exact {_fmt(mi['count_exact_rate']).strip()} | {len(scores)} sites {pooled(scores)['pages']} pages"
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m extractor", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("extract", "evaluate"):
        p = sub.add_parser(name)
        p.add_argument("--corpus", metavar="ROOT", help="corpus root in the shared/corpus format")
        p.add_argument("--preset", choices=sorted(PRESETS), default="default", help="options preset")
        p.add_argument("--source", action="append", help="only this corpus source (repeatable)")
        p.add_argument("--site", action="append", help="only this corpus site (repeatable)")
        p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override one option of the preset")
        p.add_argument("--jobs", type=int, default=0, help="worker processes (default: CPU count, max 4)")
    ex = sub.choices["extract"]
    ex.add_argument("files", nargs="*", metavar="FILE", help="one site's saved pages")
    ex.add_argument("--out", metavar="OUT.jsonl", help="output JSON Lines (default stdout)")
    ex.add_argument("--records", action="store_true", help="add comment_records (text, author, date, parent)")
    ev = sub.choices["evaluate"]
    ev.set_defaults(corpus=None)
    ev.add_argument("--json", metavar="OUT", help="write all numbers as JSON")
    ev.add_argument("--predictions", metavar="OUT.jsonl", help="also write the predictions scored")
    ev.add_argument(
        "--as-crawl",
        action="store_true",
        help="as the crawl meets a site: first half of each site as a set, the rest page by page with its profile",
    )
    # the flag's name until the method module stopped being called "pipeline"
    ev.add_argument("--pipeline", dest="deprecated_pipeline", action="store_true", help=argparse.SUPPRESS)
    size = ev.add_mutually_exclusive_group()
    size.add_argument(
        "--set-size",
        type=int,
        metavar="K",
        help="extract each site in fixed random (seeded) sets of K pages, scored beside whole sites",
    )
    size.add_argument("--single", dest="set_size", action="store_const", const=1, help="each page alone: --set-size 1")
    ev.add_argument(
        "--folds",
        type=int,
        metavar="N",
        help="also score the dragnet sites in N fixed folds by site (sha1 of the site name; 2: fold A / fold B):"
        " choose a rule on one fold, report it on the other",
    )
    rp = sub.add_parser("report", help="static HTML report: each page with post and comment blocks painted")
    rp.add_argument("files", nargs="*", metavar="FILE", help="one site's saved pages")
    rp.add_argument("--out", metavar="OUT_DIR", required=True, help="report folder (index.html + page views)")
    rp.add_argument("--corpus", metavar="ROOT", help="every site of a corpus, one set each")
    rp.add_argument("--source", action="append", help="only this corpus source (repeatable)")
    rp.add_argument("--site", action="append", help="only this corpus site (repeatable)")
    rp.add_argument("--preset", choices=sorted(PRESETS), default="default", help="options preset")
    rp.add_argument("--set", action="append", metavar="NAME=VALUE", help="override one option of the preset")
    wp = sub.add_parser("warc", help="posts and comments of the blogs in WARC/ARC files, by site")
    wp.add_argument("files", nargs="+", metavar="FILE", help="WARC or ARC files (.warc, .warc.gz, .arc.gz)")
    wp.add_argument("--out", metavar="OUT.jsonl", help="output JSON Lines (default stdout)")
    wp.add_argument("--batch-size", type=int, default=10, help="pages per set, as the crawl's BATCH_SIZE")
    a = ap.parse_args(argv)
    missing = [str(f) for f in getattr(a, "files", None) or [] if not Path(f).is_file()]
    if missing:
        ap.error(f"no such file: {', '.join(missing)}")
    if getattr(a, "corpus", None) and not Path(a.corpus).is_dir():
        ap.error(f"corpus root not found: {a.corpus}")
    if a.cmd == "report":
        from .report.build import cmd_report  # only this command needs the report modules

        return cmd_report(a, parse_overrides(a.preset, a.set))
    if a.cmd == "warc":
        from .archives.warccli import cmd_warc  # warcio only for this command

        return cmd_warc(a)
    if a.cmd == "evaluate":
        if not a.corpus:
            ap.error("evaluate needs --corpus ROOT")
        if a.deprecated_pipeline:
            print("evaluate: --pipeline is deprecated, use --as-crawl", file=sys.stderr)
            a.as_crawl = True
        return cmd_evaluate(a)
    return cmd_extract(a)
