"""A static HTML report: per-site figures and every page with its post and comment blocks painted.

    python -m extractor report site/pages/*.html --out report/
    python -m extractor report --corpus ../shared/corpus --site tt21 --out report/

``write_report(sites, out_dir)`` is the API (the store's report passes its pages, extractions,
profile version and comment-feed agreement); the page views come from ``report_render.paint_page``.
Pure: no Scrapy, no SQLite. Every written file is UTF-8, inert and loads nothing.
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .corpus import iter_corpus
from .options import Options
from .pipeline import Page, PageExtraction, extract_site
from .report_render import CSP, paint_page
from .separate import BOILERPLATE, COMMENT, POST

ROLES: tuple[str, ...] = (POST, COMMENT, BOILERPLATE)


@dataclass(slots=True)
class ReportPage:
    """One page of a site: a label (file or URL), the page as fetched and its extraction."""

    label: str
    page: Page
    extraction: PageExtraction


@dataclass(slots=True)
class ReportSite:
    """One site's set; the optional figures come from the store when it has them."""

    name: str
    pages: list[ReportPage]
    profile_version: str | int | None = None
    comment_feed_agreement: float | str | None = None  # a share in [0, 1], or the store's own wording


@dataclass(slots=True)
class Figures:
    """Counts over pages: blocks and text characters per role, comments, errors, warnings."""

    pages: int = 0
    errors: int = 0
    comments: int = 0
    blocks: Counter[str] = field(default_factory=Counter)
    chars: Counter[str] = field(default_factory=Counter)
    warnings: Counter[str] = field(default_factory=Counter)  # warning -> pages carrying it

    @property
    def total_blocks(self) -> int:
        return sum(self.blocks[r] for r in ROLES)

    @property
    def total_chars(self) -> int:
        return sum(self.chars[r] for r in ROLES)

    def block_share(self, role: str) -> float:
        return self.blocks[role] / self.total_blocks if self.total_blocks else 0.0

    def char_share(self, role: str) -> float:
        return self.chars[role] / self.total_chars if self.total_chars else 0.0

    def add(self, other: Figures) -> None:
        self.pages += other.pages
        self.errors += other.errors
        self.comments += other.comments
        self.blocks.update(other.blocks)
        self.chars.update(other.chars)
        self.warnings.update(other.warnings)


def page_figures(extraction: PageExtraction) -> Figures:
    figures = Figures(pages=1, errors=int(extraction.error is not None), comments=len(extraction.comments))
    for block in extraction.blocks:
        figures.blocks[block.role] += 1
        figures.chars[block.role] += len(block.text)
    figures.warnings.update(dict.fromkeys(extraction.warnings, 1))
    if extraction.error:
        figures.warnings[f"error: {extraction.error}"] += 1
    return figures


def site_figures(site: ReportSite) -> Figures:
    total = Figures()
    for page in site.pages:
        total.add(page_figures(page.extraction))
    return total


def slug(name: str) -> str:
    """A file-system-safe name (site folders, page files)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "x"


def page_file(site_index: int, site: ReportSite, page_index: int, page: ReportPage) -> str:
    """Where a page view is written, relative to the report root."""
    stem = slug(Path(page.label).stem or page.label)[:60]
    return f"{site_index:03d}-{slug(site.name)[:60]}/{page_index:04d}-{stem}.html"


def _pct(share: float) -> str:
    return f"{100 * share:.1f}%"


def _agreement(value: float | str | None) -> str:
    if value is None:
        return "–"
    return _pct(value) if isinstance(value, float | int) else str(value)


INDEX_CSS = """
body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #111; }
table { border-collapse: collapse; margin: .5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
.post { color: #e6007e; } .comment { color: #00a0e9; } .warn { color: #a60; }
"""

_SUMMARY_HEAD = (
    "<tr><th>site</th><th>pages</th><th>errors</th><th>blocks</th><th>post blocks</th><th>comment blocks</th>"
    "<th>boilerplate blocks</th><th>post text</th><th>comment text</th><th>boilerplate text</th><th>comments</th>"
    "<th>profile</th><th>comment-feed agreement</th></tr>"
)


def _summary_row(site: ReportSite, figures: Figures, anchor: str) -> str:
    cells = [f'<a href="#{anchor}">{html.escape(site.name)}</a>', str(figures.pages), str(figures.errors)]
    cells.append(str(figures.total_blocks))
    cells += [f"{figures.blocks[r]} ({_pct(figures.block_share(r))})" for r in ROLES]
    cells += [_pct(figures.char_share(r)) for r in ROLES]
    cells += [str(figures.comments), html.escape(str(site.profile_version or "–"))]
    cells.append(html.escape(_agreement(site.comment_feed_agreement)))
    return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def _site_section(site_index: int, site: ReportSite, figures: Figures, anchor: str) -> str:
    parts = [f'<h2 id="{anchor}">{html.escape(site.name)}</h2>']
    if figures.warnings:
        items = "".join(f"<li>{html.escape(w)} ({n} pages)</li>" for w, n in sorted(figures.warnings.items()))
        parts.append(f'<ul class="warn">{items}</ul>')
    rows = [
        "<tr><th>page</th><th>blocks</th><th>post</th><th>comment</th><th>boilerplate</th><th>comments</th>"
        "<th>note</th></tr>"
    ]
    for page_index, page in enumerate(site.pages):
        pf = page_figures(page.extraction)
        href = html.escape(page_file(site_index, site, page_index, page))
        note = page.extraction.error or ""
        rows.append(
            f'<tr><td><a href="{href}">{html.escape(page.label)}</a></td><td>{pf.total_blocks}</td>'
            f'<td class="post">{pf.blocks[POST]}</td><td class="comment">{pf.blocks[COMMENT]}</td>'
            f"<td>{pf.blocks[BOILERPLATE]}</td><td>{pf.comments}</td><td>{html.escape(note)}</td></tr>"
        )
    parts.append("<table>" + "".join(rows) + "</table>")
    return "".join(parts)


def index_html(sites: Sequence[ReportSite]) -> str:
    """The report's front page: one summary row per site, then each site's pages."""
    figures = [site_figures(s) for s in sites]
    anchors = [f"site-{i}" for i in range(len(sites))]
    summary = "".join(_summary_row(s, f, a) for s, f, a in zip(sites, figures, anchors, strict=True))
    sections = "".join(
        _site_section(i, s, f, a) for i, (s, f, a) in enumerate(zip(sites, figures, anchors, strict=True))
    )
    return (
        f'<!DOCTYPE html>\n<html><head><meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f'<meta charset="utf-8"><title>Extraction report</title><style>{INDEX_CSS}</style></head><body>'
        "<h1>Extraction report</h1><p>Shares of blocks and of text characters per role. In the page views "
        '<span class="post">post blocks are dashed</span>, <span class="comment">comment blocks solid</span>, '
        "boilerplate dimmed.</p>"
        f"<table>{_SUMMARY_HEAD}{summary}</table>{sections}</body></html>"
    )


def write_report(sites: Sequence[ReportSite], out_dir: Path) -> Path:
    """Write index.html and one view per page under out_dir; returns the index path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for site_index, site in enumerate(sites):
        for page_index, page in enumerate(site.pages):
            rel = page_file(site_index, site, page_index, page)
            target = out_dir / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            view = paint_page(page.page, page.extraction, site.name, page.label, back_href="../index.html")
            target.write_text(view, encoding="utf-8")
    index = out_dir / "index.html"
    index.write_text(index_html(sites), encoding="utf-8")
    return index


def site_from_pages(name: str, labels: Sequence[str], pages: Sequence[Page], options: Options) -> ReportSite:
    """Extract one set and wrap it for the report."""
    results = extract_site(pages, options)
    return ReportSite(name, [ReportPage(lb, p, x) for lb, p, x in zip(labels, pages, results, strict=True)])


def site_from_files(paths: Sequence[Path], options: Options) -> ReportSite:
    parents = {p.parent for p in paths}
    name = str(parents.pop()) if len(parents) == 1 else "pages"
    return site_from_pages(name, [str(p) for p in paths], [Page(None, p.read_bytes()) for p in paths], options)


def sites_from_corpus(
    root: Path, options: Options, sources: list[str] | None = None, sites: list[str] | None = None
) -> list[ReportSite]:
    """Every corpus site as one set; pages carry their truth URL when the corpus has one."""
    out = []
    for site in iter_corpus(root, sources, sites):
        urls = {str(t["file"]): t.get("url") for t in site.truth}
        files = site.page_files()
        labels = [f.relative_to(site.dir).as_posix() for f in files]
        pages = [
            Page(str(urls[lb]) if urls.get(lb) else None, f.read_bytes()) for lb, f in zip(labels, files, strict=True)
        ]
        out.append(site_from_pages(f"{site.source}/{site.site}", labels, pages, options))
    return out


def cmd_report(a: argparse.Namespace, options: Options) -> int:
    """``python -m extractor report``: FILE... (one site) or --corpus ROOT (every site a set)."""
    if a.corpus:
        sites = sites_from_corpus(Path(a.corpus), options, a.source, a.site)
    elif a.files:
        sites = [site_from_files([Path(f) for f in a.files], options)]
    else:
        print("report: give FILE... (one site's pages) or --corpus ROOT", file=sys.stderr)
        return 2
    if not sites:
        print(f"report: no sites under {a.corpus}", file=sys.stderr)
        return 2
    index = write_report(sites, Path(a.out))
    pages = sum(len(s.pages) for s in sites)
    print(f"report: {len(sites)} sites, {pages} pages -> {index}", file=sys.stderr)
    return 0
