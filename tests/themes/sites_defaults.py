"""Site settings of the blogs in the older and newer WordPress default themes (merged into ``model.SITES``).

Same keys as ``model.SITES``: lang, topic (a key of ``words.EN_TOPICS``), tz (fixed UTC offset), perma
(permalink structure), name, start (date of the first post), tagline, authors (display name, login).
"""

from __future__ import annotations

from typing import Any

DEFAULT_SITES: dict[str, dict[str, Any]] = {
    "twentyten": dict(
        lang="en",
        topic="bread",
        tz=-6,
        perma="date",
        name="The Rye Diaries",
        start=(2024, 3, 4),
        tagline="Baking bread in a small kitchen",
        authors=[("Nora Lindqvist", "nora")],
    ),
    "twentyeleven": dict(
        lang="en",
        topic="travel",
        tz=1,
        perma="name",
        name="Platform Nine",
        start=(2025, 6, 2),
        tagline="Trains, ferries and the odd bus",
        authors=[("Felix Brandt", "felix")],
    ),
    "twentytwelve": dict(
        lang="en",
        topic="coffee",
        tz=0,
        perma="date",
        name="Second Crack",
        start=(2025, 2, 17),
        tagline="Roasting and brewing at home",
        authors=[("Tessa Moreno", "tessa"), ("Owen Clarke", "owen")],
    ),
    "twentythirteen": dict(
        lang="en",
        topic="hiking",
        tz=-5,
        perma="month",
        name="Cairn by Cairn",
        start=(2025, 8, 9),
        tagline="Hill walking notes",
        authors=[("Rhona Baird", "rhona")],
    ),
    "twentyfifteen": dict(
        lang="en",
        topic="photo",
        tz=10,
        perma="plain",
        name="Grain & Fog",
        start=(2024, 11, 21),
        tagline="Film photography from the coast",
        authors=[("Mei Lin Ho", "meilin"), ("Patrick Shaw", "pshaw")],
    ),
    "twentytwentythree": dict(
        lang="en",
        topic="knit",
        tz=-3,
        perma="name",
        name="Loose Ends",
        start=(2026, 2, 1),
        tagline="A knitting notebook",
        authors=[("Carmen Duarte", "carmen")],
    ),
}
