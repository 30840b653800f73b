"""Writing the engine corpus: per engine a folder with site.json, truth.jsonl and pages/<post id>.html.

The format is that of the shared evaluation corpus (``../shared/corpus/README.md``) and of ``tests.themes.write``:
truth holds the post (title + one line per block) and every comment as its own item (text without author, date
or reply links; author, UTC date, parent, id).  Sites go to ``ROOT/<engine source>/<engine>/``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from tests.themes.model import Post
from tests.themes.write import summary as summary
from tests.themes.write import truth_row as theme_truth_row

from .base import Engine, make_site
from .pages_blogger import adapt_classic, adapt_threaded, page_classic, page_threaded
from .pages_drupal import adapt_drupal, page_drupal
from .pages_hatena import adapt_hatena, page_hatena
from .pages_mt import adapt_mt, page_mt
from .pages_static import adapt_static, page_static
from .pages_typepad import adapt_typepad, page_typepad, typepad_id

REGISTRY: dict[str, Engine] = {
    e.name: e
    for e in [
        Engine(
            "blogger-threaded",
            "blogger",
            "synthetic Blogger 2012 Simple, threaded comments",
            adapt_threaded,
            page_threaded,
        ),
        Engine("blogger-classic", "blogger", "synthetic Blogger Minima, classic comments", adapt_classic, page_classic),
        Engine("movabletype", "movabletype", "synthetic Movable Type 4.3 default templates", adapt_mt, page_mt),
        Engine("hatena-ja", "hatena", "synthetic Hatena Blog", adapt_hatena, page_hatena),
        Engine("drupal", "drupal", "synthetic Drupal 9 Bartik/Classy", adapt_drupal, page_drupal),
        Engine("typepad", "typepad", "synthetic Typepad", adapt_typepad, page_typepad, typepad_id),
        Engine("static-disqus", "static", "synthetic Hugo Mainroad with Disqus", adapt_static, page_static),
    ]
}
ENGINES: tuple[str, ...] = tuple(REGISTRY)
FEEDS = {
    "blogger": "feeds/posts/default",
    "movabletype": "atom.xml",
    "hatena": "feed",
    "drupal": "rss.xml",
    "typepad": "atom.xml",
    "static": "index.xml",
}


def truth_row(engine: Engine, post: Post) -> dict:
    """The truth.jsonl object of one post (``tests.themes.write.truth_row`` with the engine's comment ids)."""
    row = theme_truth_row(post)
    if engine.truth_id:
        tid = engine.truth_id
        for c in row["comments"]:
            c["id"] = tid(c["id"])
            c["parent"] = None if c["parent"] is None else tid(c["parent"])
    return row


def write_site(out: Path, engine: Engine, seed: int, pages: int) -> None:
    """Build and write one engine's blog into ``out`` (old pages removed first); newest post first."""
    site = make_site(engine.name, seed, pages)
    engine.adapt(site)
    (out / "pages").mkdir(parents=True, exist_ok=True)
    for old in (out / "pages").glob("*.html"):
        old.unlink()
    rows = []
    for post in reversed(site.posts):
        (out / "pages" / f"{post.id}.html").write_text(engine.render(site, post), encoding="utf-8")
        rows.append(truth_row(engine, post))
    (out / "truth.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    meta = {
        "site": engine.name,
        "source": engine.label,
        "lang": site.cfg["lang"],
        "pages": len(rows),
        "pages_with_comments": sum(1 for r in rows if r["comments"]),
        "comments_split": True,
        "url": site.base,
        "feed_url": site.base + FEEDS[engine.source],
    }
    (out / "site.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", "utf-8")


def build_corpus(root: Path, seed: int = 7, pages: int = 20, engines: Sequence[str] | None = None) -> list[Path]:
    """Write the sites of ``engines`` (default: all of ENGINES) to ``root/<source>/<engine>/``; returns the folders.

    ``pages`` is the number of posts per site; the same seed gives byte-identical files.
    """
    names = list(ENGINES if engines is None else engines)
    unknown = [e for e in names if e not in REGISTRY]
    if unknown:
        raise ValueError(f"unknown engine(s) {', '.join(unknown)}; known: {', '.join(ENGINES)}")
    folders = []
    for name in names:
        engine = REGISTRY[name]
        out = Path(root) / engine.source / engine.name
        write_site(out, engine, seed, pages)
        folders.append(out)
    return folders
