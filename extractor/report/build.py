"""A static HTML report: per-site figures and every page with its post and comment blocks painted.

    python -m extractor report site/pages/*.html --out report/
    python -m extractor report --corpus ../shared/corpus --site tt21 --out report/

``write_report(sites, out_dir)`` is the API (the store's report passes its pages, extractions, feed
titles, stored comments, profile version and comment-feed check); the page views come from
``report_render.paint_page``. Blocks are painted by role, except that every block holding a comment's
text is a comment (``comment_blocks``): the view shows exactly the comments the figures count.
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

from extractor.core.options import Options
from extractor.core.roles import BOILERPLATE, COMMENT, POST
from extractor.evaluation.corpus import iter_corpus
from extractor.report.render import CSP, display_url, document_title, paint_page, safe_link
from extractor.separation.method import BlockResult, Page, PageExtraction, extract_site

ROLES: tuple[str, ...] = (POST, COMMENT, BOILERPLATE)


@dataclass(slots=True)
class ReportPage:
    """One page of a site: a label (file or URL), the page as fetched and its extraction.

    ``title`` is what the index lists the page by (default: the page's own ``<title>``).
    ``stored_comments``: the comment texts the store keeps for this page, when the report is the
    store's; they are the page's comments in the figures and the view (else the extraction's).
    ``roles`` (one per block) are the roles painted: the block's own, except that every block
    holding a comment's text is a comment (see ``comment_blocks``); ``notes`` say where the view
    and the comments disagree.
    """

    label: str
    page: Page
    extraction: PageExtraction
    title: str | None = None
    stored_comments: list[str] | None = None
    roles: list[str] = field(init=False)
    notes: list[str] = field(init=False)

    def __post_init__(self) -> None:
        blocks = self.extraction.blocks
        texts = self.comment_texts
        found, missing = comment_blocks(blocks, texts)
        self.roles = [COMMENT if i in found else b.role for i, b in enumerate(blocks)]
        self.notes = []
        if missing:
            self.notes.append(f"{NOTE_NOT_FOUND}: {missing} of {len(texts)}")
        found_now = len(self.extraction.comments)
        if self.stored_comments is not None and found_now != len(self.stored_comments) and not self.extraction.error:
            self.notes.append(f"{NOTE_STORE_DIFFERS}: the store keeps {len(self.stored_comments)}, now {found_now}")

    @property
    def comment_texts(self) -> list[str]:
        """The page's comments: the store's, else the extraction's records (else its comment texts)."""
        if self.stored_comments is not None:
            return self.stored_comments
        records = self.extraction.comment_records
        return [r.text for r in records] if records else list(self.extraction.comments)


@dataclass(slots=True)
class ReportSite:
    """One site's set; the optional figures come from the store when it has them."""

    name: str
    pages: list[ReportPage]
    profile_version: str | int | None = None
    # The comment-feed check exactly as `scrapy sites` words it (store.query.sites), e.g.
    # "12 art., count 0.56, F1 0.98": articles checked, count exactness, token F1.
    comment_feed_check: str | None = None


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


NOTE_NOT_FOUND = "comments whose text is not in the page's blocks"
NOTE_STORE_DIFFERS = "comments found extracting the page again differ from the store's"


def _norm(text: str) -> str:
    return " ".join(text.split())


def _spell(candidates: list[tuple[int, str]], target: str, start: int, taken: set[int]) -> list[int] | None:
    """Candidates from ``start`` on whose texts, in order, make up ``target`` (a few others may sit between)."""
    for k in range(start, len(candidates)):
        i, text = candidates[k]
        if i in taken or not (target == text or target.startswith(text + " ")):
            continue
        picked, rest, j, gap = [k], target[len(text) :].lstrip(), k + 1, 0
        while rest and j < len(candidates) and gap <= MAX_GAP:
            i2, text2 = candidates[j]
            if i2 not in taken and (rest == text2 or rest.startswith(text2 + " ")):
                picked.append(j)
                rest, gap = rest[len(text2) :].lstrip(), 0
            else:
                gap += 1
            j += 1
        if not rest:
            return picked
    return None


MAX_GAP = 4  # other blocks (an edit link, a quote's credit) allowed between two lines of one comment


def comment_blocks(blocks: Sequence[BlockResult], texts: Sequence[str]) -> tuple[set[int], int]:
    """Positions of the blocks holding the comments' text, and how many comments were not found.

    >>> from extractor.separation.method import BlockResult
    >>> blocks = [BlockResult(i, "p", f"/p[{i}]", "p", r, t) for i, (r, t) in enumerate(
    ...     [("post", "Thanks!"), ("comment", "Ann says:"), ("boilerplate", "Thanks!"), ("comment", "Bob")])]
    >>> comment_blocks(blocks, ["Thanks!", "Nobody wrote this"])
    ({2}, 1)

    A comment record's text is its text blocks joined by newlines (``records.build_records``),
    never post blocks; so each comment is matched to a run of non-post blocks, in page order,
    whose texts spell it, looked for from where the previous comment ended, else from the top.
    A short comment repeated across pages ("Thanks!") is boilerplate at block level yet a comment.
    """
    candidates = [(i, _norm(b.text)) for i, b in enumerate(blocks) if b.role != POST and b.text.strip()]
    taken: set[int] = set()
    cursor = missing = 0
    for text in texts:
        target = _norm(text)
        if not target:
            continue
        run = _spell(candidates, target, cursor, taken) or _spell(candidates, target, 0, taken)
        if run is None:
            missing += 1
            continue
        taken.update(candidates[k][0] for k in run)
        cursor = run[-1] + 1
    return taken, missing


def page_figures(page: ReportPage | PageExtraction) -> Figures:
    """One page's figures, by the roles painted (a ReportPage) or the blocks' own roles."""
    if isinstance(page, ReportPage):
        extraction, roles, comments, notes = page.extraction, page.roles, len(page.comment_texts), page.notes
    else:
        extraction, notes = page, []
        roles, comments = [b.role for b in page.blocks], len(page.comments)
    figures = Figures(pages=1, errors=int(extraction.error is not None), comments=comments)
    for block, role in zip(extraction.blocks, roles, strict=True):
        figures.blocks[role] += 1
        figures.chars[role] += len(block.text)
    figures.warnings.update(dict.fromkeys(extraction.warnings, 1))
    figures.warnings.update(dict.fromkeys((n.split(":", 1)[0] for n in notes), 1))
    if extraction.error:
        figures.warnings[f"error: {extraction.error}"] += 1
    return figures


def site_figures(site: ReportSite) -> Figures:
    total = Figures()
    for page in site.pages:
        total.add(page_figures(page))
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


INDEX_CSS = """
body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #111; }
table { border-collapse: collapse; margin: .5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
th { white-space: normal; max-width: 14em; vertical-align: bottom; }
td.page { white-space: normal; min-width: 20em; max-width: 48em; overflow-wrap: anywhere; }
td.page .url, td.page .url a { color: #555; font-size: 12px; }
.post { color: #e6007e; } .comment { color: #00a0e9; } .warn { color: #a60; }
"""

FEED_CHECK_HEAD = "comment-feed check (articles, count exactness, token F1)"
_SUMMARY_HEAD = (
    "<tr><th>site</th><th>pages</th><th>errors</th><th>blocks</th><th>post blocks</th><th>comment blocks</th>"
    "<th>boilerplate blocks</th><th>post text</th><th>comment text</th><th>boilerplate text</th><th>comments</th>"
    f"<th>profile</th><th>{FEED_CHECK_HEAD}</th></tr>"
)


def _summary_row(site: ReportSite, figures: Figures, anchor: str) -> str:
    cells = [f'<a href="#{anchor}">{html.escape(site.name)}</a>', str(figures.pages), str(figures.errors)]
    cells.append(str(figures.total_blocks))
    cells += [f"{figures.blocks[r]} ({_pct(figures.block_share(r))})" for r in ROLES]
    cells += [_pct(figures.char_share(r)) for r in ROLES]
    cells += [str(figures.comments), html.escape(str(site.profile_version or "–"))]
    cells.append(html.escape(site.comment_feed_check or "–"))
    return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def page_cell(href: str, page: ReportPage) -> str:
    """The index's page cell: the title linking to the view, then the address (decoded for reading;
    an http(s) address links to the page itself)."""
    title = page.title or document_title(page.page) or display_url(page.label)
    cell = f'<a href="{html.escape(href)}">{html.escape(title)}</a>'
    shown = html.escape(display_url(page.label))
    link = safe_link(page.label, None) if page.label.lower().startswith(("http:", "https:")) else None
    address = f'<a href="{html.escape(link)}">{shown}</a>' if link else shown
    return f'<td class="page">{cell}<br><span class="url">{address}</span></td>'


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
        pf = page_figures(page)
        href = page_file(site_index, site, page_index, page)
        note = "; ".join([*([page.extraction.error] if page.extraction.error else []), *page.notes])
        rows.append(
            f"<tr>{page_cell(href, page)}<td>{pf.total_blocks}</td>"
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
        "boilerplate dimmed; a block holding a comment&#8217;s text is a comment.</p>"
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
            view = paint_page(
                page.page,
                page.extraction,
                site.name,
                page.label,
                back_href="../index.html",
                roles=page.roles,
                notes=page.notes,
                title=page.title,
            )
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
