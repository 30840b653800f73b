"""Shared pieces of the engine blogs: site settings, building a site with ``tests.themes.model``, reshaping it.

``make_site`` reuses the themes' generator (``model.build_site``: posts, threaded comments, authors, dates, the
seeded word lists) with the settings of ``ENGINE_SITES``; each engine then reshapes the generated blog the way
its software stores it (``limit_depth``: how deep replies can nest, ``renumber``: the engine's ids and URLs).
``esc`` / ``attr`` are the escapings of text and attribute values, ``body`` renders a post's blocks with an
engine's markup, ``Engine`` describes one engine for ``write``.
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any
from unittest.mock import patch

from tests.themes import model
from tests.themes.markup import neighbours
from tests.themes.model import Comment, Post, Site, slugify

__all__ = [
    "ENGINE_SITES",
    "Engine",
    "attr",
    "body",
    "clock",
    "crawl_time",
    "esc",
    "hex_id",
    "iso",
    "limit_depth",
    "long_id",
    "make_site",
    "mark",
    "months",
    "neighbours",
    "newest",
    "related",
    "renumber",
    "slug",
]

ENGINE_SITES: dict[str, dict[str, Any]] = {  # the keys of ``model.SITES``; host: the blog's host name
    "blogger-threaded": dict(
        lang="en",
        topic="garden",
        tz=-8,
        perma="name",
        name="Muddy Boots on Plot 14",
        host="muddybootsplot14.blogspot.com",
        start=(2012, 2, 6),
        tagline="Growing vegetables on a windy allotment",
        authors=[("Jean Holloway", "jean")],
    ),
    "blogger-classic": dict(
        lang="en",
        topic="bread",
        tz=-5,
        perma="name",
        name="The Crumb Diaries",
        host="thecrumbdiaries.blogspot.com",
        start=(2011, 10, 3),
        tagline="Bread, mostly. Sometimes cake.",
        authors=[("Martha Quinn", "martha")],
    ),
    "movabletype": dict(
        lang="en",
        topic="photo",
        tz=-5,
        perma="name",
        name="Silver Halide Days",
        host="www.silverhalidedays.net",
        start=(2010, 4, 12),
        tagline="Film cameras, darkrooms and long walks",
        authors=[("Colin Ashby", "colin"), ("Beth Ashby", "beth")],
    ),
    "hatena-ja": dict(
        lang="ja",
        topic="kitchen",
        tz=9,
        perma="id",
        name="ゆる台所メモ",
        host="yuru-daidokoro.hatenablog.com",
        start=(2016, 5, 9),
        tagline="作り置きと季節の手仕事を気ままに記録しています",
        authors=[("manami_s", "manami_s")],
    ),
    "drupal": dict(
        lang="en",
        topic="hiking",
        tz=1,
        perma="name",
        name="Fell and Fog",
        host="www.fellandfog.org",
        start=(2019, 3, 4),
        tagline="Hill walking in all weathers",
        authors=[("alasdair", "alasdair")],
    ),
    "typepad": dict(
        lang="en",
        topic="knit",
        tz=-5,
        perma="name",
        name="Two Needles and a Teapot",
        host="twoneedles.typepad.com",
        start=(2011, 1, 17),
        tagline="Knitting through the seasons",
        authors=[("Harriet Vane", "harriet")],
    ),
    "static-disqus": dict(
        lang="en",
        topic="coffee",
        tz=0,
        perma="name",
        name="Pour Over Notes",
        host="pourovernotes.example.org",
        start=(2021, 6, 1),
        tagline="Slow coffee, written down",
        authors=[("Sam Ito", "samito")],
    ),
}


@dataclass(frozen=True)
class Engine:
    """One blog engine: corpus source folder, site.json ``source`` label, reshaping and page rendering.

    ``adapt`` turns the generated blog into the engine's (ids, URLs, comment threading); ``render`` returns the
    whole HTML page of a post; ``truth_id`` maps a comment id to the id the truth gives (default: the same).
    """

    name: str
    source: str
    label: str
    adapt: Callable[[Site], None]
    render: Callable[[Site, Post], str]
    truth_id: Callable[[int], int | str] | None = None


def esc(s: str) -> str:
    """Text as the engine prints it: &, <, > escaped, quotes left alone."""
    return html.escape(s, quote=False)


def attr(s: str) -> str:
    """An attribute value (double or single quoted)."""
    return html.escape(s, quote=True)


def make_site(engine: str, seed: int, npages: int) -> Site:
    """The generated blog of ``engine`` (``model.build_site`` with ``ENGINE_SITES[engine]``), base URL set."""
    cfg = ENGINE_SITES[engine]
    with patch.dict(model.SITES, {engine: cfg}):
        site = model.build_site(engine, seed, npages)
    site.base = f"https://{cfg['host']}/"
    return site


def long_id(*parts: object, digits: int = 19) -> int:
    """A stable large id (Blogger, Hatena) made from ``parts``."""
    h = int(hashlib.sha1(":".join(map(str, parts)).encode()).hexdigest(), 16)
    return 10 ** (digits - 1) + h % (9 * 10 ** (digits - 1))


def hex_id(*parts: object) -> str:
    """A Typepad-style asset id ("6a00d83451c45669e2" + 16 hex digits)."""
    return "6a00d83451c45669e2" + hashlib.sha1(":".join(map(str, parts)).encode()).hexdigest()[:16]


def limit_depth(comments: list[Comment], depth: int) -> list[Comment]:
    """Comments re-threaded so that none is deeper than ``depth``: deeper replies go to the nearest allowed
    ancestor (``depth`` 1: a flat list without parents, 2: Blogger's one reply level)."""
    new: dict[int, Comment] = {}
    for c in comments:  # date order: a parent always comes before its replies
        parent = c.parent
        while parent is not None and new[parent].depth >= depth:
            parent = new[parent].parent
        new[c.id] = replace(c, parent=parent, depth=new[parent].depth + 1 if parent is not None else 1)
    return list(new.values())


def renumber(post: Post, pid: int, url: str, cid: Callable[[int], int]) -> Post:
    """The post with the engine's post id, URL and comment ids (parents follow)."""
    cs = [replace(c, id=cid(c.id), parent=None if c.parent is None else cid(c.parent)) for c in post.comments]
    return replace(post, id=pid, url=url, comments=cs)


def slug(title: str, limit: int = 40) -> str:
    """A URL slug of an English title, cut at a word boundary after ``limit`` characters (Blogger, Typepad)."""
    s = slugify(title)
    if len(s) <= limit:
        return s
    return s[:limit].rsplit("-", 1)[0]


def mark(b: tuple, link: str = "https://example.org/notes/") -> str:
    """A paragraph block's text with its marked word in <a>, <strong> or <em>."""
    s = esc(b[1])
    if b[2]:
        w = esc(b[2])
        tag = f'<a href="{link}{slugify(b[2]) or "x"}">' if b[3] == "a" else f"<{b[3]}>"
        s = s.replace(w, f"{tag}{w}</{b[3]}>", 1)
    return s


def body(
    post: Post,
    img: Callable[[tuple], str],
    p: Callable[[str], str] = lambda s: f"<p>{s}</p>",
    h2: Callable[[str], str] = lambda s: f"<h2>{s}</h2>",
    quote: Callable[[str], str] = lambda s: f"<blockquote><p>{s}</p></blockquote>",
    sep: str = "\n",
) -> str:
    """The post's blocks in an engine's markup; ``img(block)`` renders an image block (alt, caption, number)."""
    out = []
    for b in post.blocks:
        if b[0] == "p":
            out.append(p(mark(b)))
        elif b[0] == "h2":
            out.append(h2(esc(b[1])))
        elif b[0] == "ul":
            out.append("<ul>\n" + "\n".join(f"<li>{esc(x)}</li>" for x in b[1]) + "\n</ul>")
        elif b[0] == "quote":
            out.append(quote(esc(b[1])))
        else:
            out.append(img(b))
    return sep.join(out)


def iso(site: Site, dt: datetime, colon: bool = True) -> str:
    """Local time with its UTC offset: 2012-03-03T16:20:00-08:00."""
    tz = site.cfg["tz"]
    off = f"{'+' if tz >= 0 else '-'}{abs(tz):02d}{':' if colon else ''}00"
    return site.local(dt).strftime("%Y-%m-%dT%H:%M:%S") + off


def clock(d: datetime, pad: bool = False) -> str:
    """12-hour time: 4:20 PM (``pad``: 04:20 PM)."""
    h = d.hour % 12 or 12
    return (
        f"{h:02d}:{d.minute:02d} {'AM' if d.hour < 12 else 'PM'}"
        if pad
        else f"{h}:{d.minute:02d} " + ("AM" if d.hour < 12 else "PM")
    )


def months(site: Site) -> list[tuple[int, int, list[Post]]]:
    """(year, month, posts newest first) of every month with posts, newest month first."""
    by: dict[tuple[int, int], list[Post]] = {}
    for p in sorted(site.posts, key=lambda p: p.date, reverse=True):
        d = site.local(p.date)
        by.setdefault((d.year, d.month), []).append(p)
    return [(y, m, ps) for (y, m), ps in sorted(by.items(), reverse=True)]


def newest(site: Site, n: int) -> list[Post]:
    """The ``n`` newest posts."""
    return sorted(site.posts, key=lambda p: p.date, reverse=True)[:n]


def related(site: Site, post: Post, n: int = 3) -> list[Post]:
    """Up to ``n`` other posts sharing most tags and categories with ``post`` (newest first among equals)."""
    keys = set(post.tags) | {"c:" + c for c in post.cats}

    def score(p: Post) -> tuple[int, datetime]:
        return len(keys & (set(p.tags) | {"c:" + c for c in p.cats})), p.date

    others = sorted((p for p in site.posts if p is not post), key=score, reverse=True)
    return [p for p in others if score(p)[0]][:n]


def crawl_time(site: Site) -> datetime:
    """When the blog was fetched: three weeks after its newest post or comment."""
    last = max([p.date for p in site.posts] + [c.date for p in site.posts for c in p.comments])
    return last + timedelta(days=21)
