"""The data of a synthetic theme blog: site settings, Comment / Post / Site, the text generator and build_site().

Times are UTC datetimes; ``Site`` turns them into the blog's local time and date formats.  ``tx`` and ``eh`` are
the two escapings the pages use (wptexturize'd content text, esc_html / esc_attr), ``slugify`` makes URL slugs.
"""

from __future__ import annotations

import html
import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from .sites_defaults import DEFAULT_SITES
from .words import (
    EN_ALT,
    EN_AREPLY,
    EN_CAP,
    EN_COMMENT,
    EN_HEAD,
    EN_LIST,
    EN_NAMES,
    EN_PERSON,
    EN_QUOTE,
    EN_SEASON,
    EN_SENT,
    EN_SHORT,
    EN_TITLE,
    EN_TOPICS,
    JA_AREPLY,
    JA_CAP,
    JA_COMMENT,
    JA_HEAD,
    JA_LIST,
    JA_NAMES,
    JA_PERSON,
    JA_QUOTE,
    JA_SEASON,
    JA_SENT,
    JA_SHORT,
    JA_TITLE,
    JA_TOPICS,
    MONTHS,
)

SITES: dict[
    str, dict[str, Any]
] = {  # tz: fixed UTC offset of the blog (WordPress "UTC+N" setting); perma: permalink structure; host: URL
    "twentytwenty": dict(
        lang="en",
        topic="bike",
        tz=0,
        perma="date",
        name="Spoke & Chain",
        start=(2026, 2, 3),
        tagline="Notes from a home bike workshop",
        authors=[("Daniel Marsh", "dmarsh")],
    ),
    "twentynineteen": dict(
        lang="en",
        topic="bread",
        tz=-5,
        perma="date",
        name="Crumb and Crust",
        start=(2026, 1, 9),
        tagline="A home baker’s diary",
        authors=[("Ellen Farrow", "ellen")],
    ),
    "twentyseventeen": dict(
        lang="en",
        topic="photo",
        tz=1,
        perma="date",
        name="Northern Light Notes",
        start=(2025, 9, 14),
        tagline="Film, walks and the odd print",
        authors=[("Ross Whitaker", "ross"), ("Isla Munro", "isla")],
    ),
    "classic-xhtml": dict(
        lang="en",
        topic="garden",
        tz=0,
        perma="plain",
        name="The Potting Shed",
        start=(2013, 3, 2),
        tagline="Just another WordPress weblog",
        authors=[("Margaret", "admin")],
    ),
    "astra-like": dict(
        lang="en",
        topic="travel",
        tz=10,
        perma="name",
        name="Wander & Pack",
        start=(2026, 4, 20),
        tagline="Slow travel by train and ferry",
        authors=[("Sophie Tan", "sophie")],
    ),
    "lightning-ja": dict(
        lang="ja",
        topic="camp",
        tz=9,
        perma="archives",
        name="週末キャンプ日和",
        start=(2026, 3, 7),
        tagline="ゆるく続けるキャンプの記録",
        authors=[("田中 健一", "tanaka")],
    ),
    "generatepress": dict(
        lang="en",
        topic="coffee",
        tz=-8,
        perma="name",
        name="Bean & Burr",
        start=(2025, 10, 6),
        tagline="Home espresso, one shot at a time",
        authors=[("Marcus Lee", "marcus")],
    ),
    "oceanwp": dict(
        lang="en",
        topic="hiking",
        tz=2,
        perma="date",
        name="Trail Mix Diaries",
        start=(2026, 5, 1),
        tagline="Weekend walks and longer hikes",
        authors=[("Jenna Cole", "jenna"), ("Sam Okafor", "sam")],
    ),
    "twentytwentyfour": dict(
        lang="en",
        topic="knit",
        tz=1,
        perma="name",
        name="Purl Street",
        start=(2026, 1, 15),
        tagline="Knitting, yarn and a lot of patience",
        authors=[("Aoife Byrne", "aoife")],
    ),
    "kadence": dict(
        lang="en",
        topic="birds",
        tz=12,
        perma="month",
        name="The Feeder Log",
        start=(2025, 11, 28),
        tagline="Birdwatching from the kitchen window and beyond",
        authors=[("Graham Pike", "graham")],
    ),
    "swell-ja": dict(
        lang="ja",
        topic="kitchen",
        tz=9,
        perma="id",
        name="てまひま台所日記",
        host="temahima-daidokoro",
        start=(2026, 2, 10),
        tagline="作り置きと季節の手仕事のメモ",
        authors=[("山本 さくら", "sakura")],
    ),
}
SITES.update(DEFAULT_SITES)  # twentyten … twentyfifteen, twentytwentythree


ENT = {"’": "&#8217;", "‘": "&#8216;", "“": "&#8220;", "”": "&#8221;", "–": "&#8211;", "—": "&#8212;"}


def tx(s: str) -> str:
    """Content text as wptexturize / convert_chars print it."""
    s = s.replace("&", "&#038;").replace("<", "&lt;").replace(">", "&gt;")
    return "".join(ENT.get(ch, ch) for ch in s)


def eh(s: str) -> str:
    """esc_html / esc_attr."""
    return html.escape(s).replace("&#x27;", "&#039;")


def slugify(s: str) -> str:
    """sanitize_title() for ASCII text; "" for Japanese."""
    return re.sub(r"[^a-z0-9]+", "-", s.lower().replace("’", "").replace("'", "")).strip("-")


@dataclass
class Comment:
    """One reader comment (or the post author's reply); ``paras`` are the paragraphs of its text."""

    id: int
    author: str
    url: str
    date: datetime
    parent: int | None
    depth: int
    paras: list[str]
    mine: bool  # written by the post's author (logged in)


@dataclass
class Post:
    """One post; ``blocks`` is its body (see ``Gen.blocks``), ``comments`` in date order."""

    id: int
    title: str
    url: str
    author: str
    login: str
    date: datetime
    cats: list[str]
    tags: list[str]
    blocks: list[tuple]
    comments: list[Comment] = field(default_factory=list)


class Site:
    """A blog: its settings (``cfg``, an entry of ``SITES`` plus cats and tags), base URL and posts, oldest first."""

    def __init__(self, theme: str, cfg: dict, base: str) -> None:
        self.theme, self.cfg, self.base, self.ja = theme, cfg, base, cfg["lang"] == "ja"
        self.name = cfg["name"]
        self.posts: list[Post] = []

    def local(self, dt: datetime) -> datetime:
        return dt + timedelta(hours=self.cfg["tz"])

    def iso(self, dt: datetime) -> str:  # get_comment_time('c') / get_the_date('c')
        tz = self.cfg["tz"]
        return self.local(dt).strftime("%Y-%m-%dT%H:%M:%S") + ("+" if tz >= 0 else "-") + f"{abs(tz):02d}:00"

    def fdate(self, dt: datetime) -> str:  # date_format: "F j, Y" / "Y年n月j日"
        d = self.local(dt)
        return f"{d.year}年{d.month}月{d.day}日" if self.ja else f"{MONTHS[d.month - 1]} {d.day}, {d.year}"

    def ftime(self, dt: datetime) -> str:  # time_format: "g:i a" / "g:i A"
        d = self.local(dt)
        ap = ("AM" if d.hour < 12 else "PM") if self.ja else ("am" if d.hour < 12 else "pm")
        return f"{d.hour % 12 or 12}:{d.minute:02d} {ap}"

    def stamp(self, dt: datetime) -> str:  # '%1$s at %2$s' / '%1$s %2$s'
        return f"{self.fdate(dt)} {self.ftime(dt)}" if self.ja else f"{self.fdate(dt)} at {self.ftime(dt)}"

    def cat_url(self, cat: str) -> str:
        i = self.cfg["cats"].index(cat) + 3
        plain = self.cfg["perma"] == "plain"
        return f"{self.base}?cat={i}" if plain else f"{self.base}category/{slugify(cat) or f'cat-{i}'}/"

    def tag_url(self, tag: str) -> str:
        t = slugify(tag) or str(self.cfg["tags"].index(tag) + 9)
        return f"{self.base}?tag={t}" if self.cfg["perma"] == "plain" else f"{self.base}tag/{t}/"

    def month_url(self, y: int, m: int) -> str:
        return f"{self.base}?m={y}{m:02d}" if self.cfg["perma"] == "plain" else f"{self.base}{y}/{m:02d}/"


class Gen:
    """Random text of one blog: titles, post bodies and comments from the word lists."""

    def __init__(self, rng: random.Random, cfg: dict) -> None:
        self.r, self.ja = rng, cfg["lang"] == "ja"
        self.t = (JA_TOPICS if self.ja else EN_TOPICS)[cfg["topic"]]

    def fill(self, tpl: str, **kw: str) -> tuple[str, list[str]]:
        r, t = self.r, self.t
        n, n2 = r.sample(t["n"], 2)
        p, a = r.choice(t["p"]), r.choice(t["a"])
        money = f"{r.randint(2, 30) * 500}円" if self.ja else r.choice("£$€") + str(r.randint(3, 60) * 5)
        d = dict(
            n=n,
            n2=n2,
            p=p,
            P=p[0].upper() + p[1:],
            a=a,
            A=a[0].upper() + a[1:],
            num=str(r.randint(2, 9)),
            person=r.choice(JA_PERSON if self.ja else EN_PERSON),
            money=money,
            season=r.choice(JA_SEASON if self.ja else EN_SEASON),
        )
        s = tpl.format(**{**d, **kw})
        return s[0].upper() + s[1:], [n, n2, p]

    def para(self, pool: list[str], lo: int, hi: int, **kw: str) -> tuple[str, list[str]]:
        parts = [self.fill(tpl, **kw) for tpl in self.r.sample(pool, self.r.randint(lo, hi))]
        return ("" if self.ja else " ").join(p[0] for p in parts), [w for p in parts for w in p[1]]

    def pick(self, en: list[str], ja: list[str]) -> str:
        return self.fill(self.r.choice(ja if self.ja else en))[0]

    def blocks(self) -> list[tuple]:
        """("p", text, marked word, tag) / ("h2", t) / ("ul", items) / ("img", alt, caption, n) / ("quote", t)."""
        r = self.r
        out: list[tuple] = []
        for j in range(r.randint(3, 12)):
            text, words = self.para(JA_SENT if self.ja else EN_SENT, 2, 5)
            mark = next((w for w in words if w in text and r.random() < 0.25), None)
            out.append(("p", text, mark, r.choice(["a", "strong", "em"])))
            x = r.random()
            if j == 0 or x > 0.45:
                continue
            if x < 0.14:
                out.append(("h2", self.pick(EN_HEAD, JA_HEAD)))
            elif x < 0.24:
                out.append(("ul", [self.pick(EN_LIST, JA_LIST) for _ in range(r.randint(2, 5))]))
            elif x < 0.36:
                cap = self.pick(EN_CAP, JA_CAP) if r.random() < 0.7 else None
                out.append(("img", self.pick(EN_ALT, JA_CAP), cap, r.randint(40, 400)))
            else:
                out.append(("quote", self.pick(EN_QUOTE, JA_QUOTE)))
        return out

    def comment(self, reply_to: str | None, mine: bool) -> list[str]:
        r, first = self.r, (reply_to or "").split(" ")[0]
        if mine:
            return [self.para(JA_AREPLY if self.ja else EN_AREPLY, 1, 2, name=first)[0]]
        if r.random() < 0.18:
            return [r.choice(JA_SHORT if self.ja else EN_SHORT)]
        paras = [
            self.para(JA_COMMENT if self.ja else EN_COMMENT, 1, 3)[0]
            for _ in range(1 if r.random() < 0.7 else r.choice([2, 2, 3]))
        ]
        if reply_to and r.random() < 0.3:
            paras[0] = (f"{first}さん、" if self.ja else f"@{first} ") + paras[0]
        return paras


def block_lines(b: tuple) -> list[str]:
    """The truth lines of a body block (a list's items, an image's caption, else its text)."""
    return b[1] if b[0] == "ul" else ([b[2]] if b[2] else []) if b[0] == "img" else [b[1]]


def build_site(theme: str, seed: int, npages: int) -> Site:
    """The blog of ``theme``: ``npages`` posts, about half of them with threaded comments (same seed, same blog)."""
    cfg = dict(SITES[theme])  # a copy: cats and tags are added below
    rng = random.Random(f"{seed}:{theme}")
    g = Gen(rng, cfg)
    cfg["cats"], cfg["tags"] = g.t["cats"], g.t["tags"]
    host = cfg.get("host") or slugify(cfg["name"]) or "shumatsu-camp"
    site = Site(theme, cfg, f"https://{host}.example.com/")
    names = JA_NAMES if site.ja else EN_NAMES
    urls = {
        n: f"https://{slugify(n) or f'blog{i}'}.example.net/" if rng.random() < 0.3 else "" for i, n in enumerate(names)
    }
    free = {0, 1, npages - 1} if npages > 3 else set()  # the oldest two and the newest post stay comment-free
    rest = [i for i in range(npages) if i not in free]
    with_c = set(rng.sample(rest, min(len(rest), npages // 2)))
    year, month, day = cfg["start"]
    t = datetime(year, month, day, 8, tzinfo=UTC)
    pid, cid, titles = rng.randint(4, 9), rng.randint(2, 6), set()
    for i in range(npages):
        t += timedelta(days=rng.randint(2, 9), minutes=rng.randint(-300, 300), seconds=rng.randint(0, 59))
        pid += rng.choice([1, 1, 2, 3])
        title = g.pick(EN_TITLE, JA_TITLE)
        while title in titles:
            title = g.pick(EN_TITLE, JA_TITLE)
        titles.add(title)
        author, login = rng.choice(cfg["authors"])
        d = site.local(t)
        url = {
            "date": f"{site.base}{d.year}/{d.month:02d}/{d.day:02d}/{slugify(title)}/",
            "name": f"{site.base}{slugify(title)}/",
            "plain": f"{site.base}?p={pid}",
            "archives": f"{site.base}archives/{pid}",
            "month": f"{site.base}{d.year}/{d.month:02d}/{slugify(title)}/",
            "id": f"{site.base}{pid}/",
        }[cfg["perma"]]
        cats = rng.sample(cfg["cats"], 1 if rng.random() < 0.8 else 2)
        post = Post(pid, title, url, author, login, t, cats, rng.sample(cfg["tags"], rng.randint(0, 3)), g.blocks())
        ct = t
        for _ in range(rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) if i in with_c else 0):
            ct += timedelta(minutes=rng.randint(8, 1500), seconds=rng.randint(0, 59))
            parent = (
                rng.choice([c for c in post.comments if c.depth < 3]) if post.comments and rng.random() < 0.45 else None
            )
            mine = bool(parent and not parent.mine and rng.random() < 0.3)
            who = author if mine else rng.choice([n for n in names if not parent or n != parent.author])
            post.comments.append(
                Comment(
                    cid,
                    who,
                    site.base if mine else urls[who],
                    ct,
                    parent.id if parent else None,
                    parent.depth + 1 if parent else 1,
                    g.comment(parent.author if parent else None, mine),
                    mine,
                )
            )
            cid += 1
        site.posts.append(post)
    return site
