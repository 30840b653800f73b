"""Eight more theme blogs: Neve, Blocksy, Divi, Storefront, Hello Elementor, and the Japanese SANGO, JIN, AFFINGER.

``EXTRA_PAGES`` maps each theme to its page function (``pages_more2``, ``pages_more3``, ``pages_ja2``,
``pages_ja3``); ``EXTRA_SITES`` holds their blogs' settings, with the keys of ``model.SITES`` (lang, topic, tz,
perma, name, start, tagline, authors, and host for the Japanese names).  Importing this module merges
``EXTRA_SITES`` into ``model.SITES`` (without replacing an existing entry), the way ``sites_defaults`` adds the
default themes' settings, so ``model.build_site`` and ``write.write_site`` work for these themes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .model import SITES, Post, Site
from .pages_ja2 import page_jin_ja, page_sango_ja
from .pages_ja3 import page_affinger_ja
from .pages_more2 import page_blocksy, page_neve
from .pages_more3 import page_divi_like, page_hello_elementor, page_storefront

EXTRA_SITES: dict[str, dict[str, Any]] = {
    "neve": dict(
        lang="en",
        topic="garden",
        tz=-7,
        perma="date",
        name="Bramble & Bloom",
        start=(2025, 7, 12),
        tagline="Notes from a small allotment",
        authors=[("Harriet Vale", "harriet")],
    ),
    "blocksy": dict(
        lang="en",
        topic="bike",
        tz=1,
        perma="name",
        name="Cadence Notes",
        start=(2026, 3, 1),
        tagline="Gravel, tarmac and the workshop in between",
        authors=[("Tomas Berg", "tomas"), ("Lena Ek", "lena")],
    ),
    "divi-like": dict(
        lang="en",
        topic="coffee",
        tz=-5,
        perma="date",
        name="Pour Over Post",
        start=(2024, 9, 3),
        tagline="Slow coffee, written down",
        authors=[("Rafael Ortiz", "rafa")],
    ),
    "storefront": dict(
        lang="en",
        topic="knit",
        tz=0,
        perma="name",
        name="Skein & Needle",
        start=(2025, 4, 8),
        tagline="Patterns, yarn and the shop journal",
        authors=[("Molly Hughes", "molly")],
    ),
    "hello-elementor": dict(
        lang="en",
        topic="travel",
        tz=2,
        perma="month",
        name="Slow Road Journal",
        start=(2026, 1, 20),
        tagline="Overland, one timetable at a time",
        authors=[("Ana Petrovic", "ana")],
    ),
    "sango-ja": dict(
        lang="ja",
        topic="camp",
        tz=9,
        perma="archives",
        name="ゆるっと野営ノート",
        host="yurutto-yaei",
        start=(2025, 10, 4),
        tagline="道具と焚き火とときどきごはん",
        authors=[("佐藤 美咲", "misaki")],
    ),
    "jin-ja": dict(
        lang="ja",
        topic="kitchen",
        tz=9,
        perma="id",
        name="まいにち台所ごはん",
        host="mainichi-daidokoro",
        start=(2026, 1, 8),
        tagline="作り置きと季節の保存食",
        authors=[("鈴木 陽子", "yoko")],
    ),
    "affinger-ja": dict(
        lang="ja",
        topic="camp",
        tz=9,
        perma="plain",
        name="ソロキャンプ道具箱",
        host="solo-dougubako",
        start=(2025, 12, 1),
        tagline="ひとり時間を楽しむキャンプ道具のレビュー",
        authors=[("高橋 翔", "sho")],
    ),
}

EXTRA_PAGES: dict[str, Callable[[Site, Post], str]] = {
    "neve": page_neve,
    "blocksy": page_blocksy,
    "divi-like": page_divi_like,
    "storefront": page_storefront,
    "hello-elementor": page_hello_elementor,
    "sango-ja": page_sango_ja,
    "jin-ja": page_jin_ja,
    "affinger-ja": page_affinger_ja,
}
EXTRA_THEMES: tuple[str, ...] = tuple(EXTRA_PAGES)

for _theme, _cfg in EXTRA_SITES.items():
    SITES.setdefault(_theme, _cfg)
