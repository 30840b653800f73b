"""Writing the theme corpus: per theme a folder with site.json, truth.jsonl and pages/<post id>.html.

The format is that of the shared evaluation corpus (``../shared/corpus/README.md``, source ``wordpress``):
truth holds the post (title + one line per block) and every comment as its own item, with author, UTC date,
parent and id.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from .extra import EXTRA_PAGES  # the eight extra themes; importing it also merges EXTRA_SITES into model.SITES
from .model import Post, Site, block_lines, build_site
from .pages_block_defaults import page_twentytwentythree
from .pages_classic_defaults import page_twentyeleven, page_twentyten, page_twentytwelve
from .pages_html5_defaults import page_twentyfifteen, page_twentythirteen
from .pages_more import page_generatepress, page_kadence
from .pages_oceanwp import page_oceanwp
from .pages_other import page_astra_like, page_classic_xhtml, page_lightning_ja
from .pages_tt4_swell import page_swell_ja, page_twentytwentyfour
from .pages_twenty import page_twentynineteen, page_twentyseventeen, page_twentytwenty

PAGES: dict[str, Callable[[Site, Post], str]] = {
    "twentytwenty": page_twentytwenty,
    "twentynineteen": page_twentynineteen,
    "twentyseventeen": page_twentyseventeen,
    "classic-xhtml": page_classic_xhtml,
    "astra-like": page_astra_like,
    "lightning-ja": page_lightning_ja,
    "generatepress": page_generatepress,
    "oceanwp": page_oceanwp,
    "twentytwentyfour": page_twentytwentyfour,
    "kadence": page_kadence,
    "swell-ja": page_swell_ja,
    "twentyten": page_twentyten,
    "twentyeleven": page_twentyeleven,
    "twentytwelve": page_twentytwelve,
    "twentythirteen": page_twentythirteen,
    "twentyfifteen": page_twentyfifteen,
    "twentytwentythree": page_twentytwentythree,
    **EXTRA_PAGES,
}
THEMES: tuple[str, ...] = tuple(PAGES)


def utc(dt: datetime) -> str:
    """A UTC datetime as the corpus writes dates (ISO-8601 with Z)."""
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def truth_row(post: Post) -> dict:
    """The truth.jsonl object of one post."""
    return {
        "file": f"pages/{post.id}.html",
        "url": post.url,
        "post": "\n".join([post.title] + [x for b in post.blocks for x in block_lines(b)]),
        "comments": [
            {"text": "\n".join(c.paras), "author": c.author, "date": utc(c.date), "parent": c.parent, "id": c.id}
            for c in post.comments
        ],
        "title": post.title,
        "author": post.author,
        "date": utc(post.date),
    }


def write_site(out: Path, site: Site, render: Callable[[Site, Post], str]) -> None:
    """Write one site into ``out`` (old pages are removed first); pages and truth newest first, like the dev corpus."""
    (out / "pages").mkdir(parents=True, exist_ok=True)
    for old in (out / "pages").glob("*.html"):
        old.unlink()
    rows = []
    for post in reversed(site.posts):
        (out / "pages" / f"{post.id}.html").write_text(render(site, post), encoding="utf-8")
        rows.append(truth_row(post))
    (out / "truth.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    meta = {
        "site": site.theme,
        "source": f"synthetic WordPress {site.theme}",
        "lang": site.cfg["lang"],
        "pages": len(rows),
        "pages_with_comments": sum(1 for r in rows if r["comments"]),
        "comments_split": True,
        "url": site.base,
        "feed_url": site.base + ("?feed=rss2" if site.cfg["perma"] == "plain" else "feed/"),
    }
    (out / "site.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", "utf-8")


def build_corpus(root: Path, seed: int = 7, pages: int = 20, themes: Sequence[str] | None = None) -> list[Path]:
    """Write the sites of ``themes`` (default: all of THEMES) to ``root/wordpress/<theme>/``; returns the folders.

    ``pages`` is the number of posts per site; the same seed gives byte-identical files.
    """
    names = list(THEMES if themes is None else themes)
    unknown = [t for t in names if t not in PAGES]
    if unknown:
        raise ValueError(f"unknown theme(s) {', '.join(unknown)}; known: {', '.join(THEMES)}")
    folders = []
    for theme in names:
        out = Path(root) / "wordpress" / theme
        write_site(out, build_site(theme, seed, pages), PAGES[theme])
        folders.append(out)
    return folders


def summary(folder: Path) -> str:
    """One line on a written site: pages, pages with comments, comments."""
    meta = json.loads((folder / "site.json").read_text("utf-8"))
    rows = [json.loads(line) for line in (folder / "truth.jsonl").read_text("utf-8").splitlines()]
    return (
        f"{meta['site']}: {meta['pages']} pages, {meta['pages_with_comments']} with comments, "
        f"{sum(len(r['comments']) for r in rows)} comments"
    )
