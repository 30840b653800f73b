"""Deterministic filler text for generated blogs, in English or Japanese.

Everything is drawn from a `random.Random` the caller seeds, so the same seed gives the same
blog. Japanese words are all in JIS X 0208, so pages encode cleanly as Shift_JIS and EUC-JP.
"""

from __future__ import annotations

import random
import re
from urllib.parse import quote

_EN_TOPICS = [
    "the shed door",
    "a sourdough starter",
    "tomato seedlings",
    "the bike chain",
    "a leaky tap",
    "the allotment",
    "an old radio",
    "winter boots",
    "the kitchen shelves",
    "a canvas tent",
    "the garden pond",
    "a used camera",
    "the attic insulation",
    "a hand plane",
    "the night train",
    "a stubborn zip",
    "the coffee grinder",
    "a rain barrel",
    "the compost heap",
    "a wool jumper",
    "the hallway tiles",
    "a reading lamp",
    "the apple tree",
    "a cast iron pan",
    "the garage roof",
]
_EN_TITLES = [
    "Notes on {t}",
    "A week with {t}",
    "What I learned from {t}",
    "Fixing {t}, again",
    "Why {t} still matters",
    "Small wins with {t}",
    "A slow weekend and {t}",
    "Field report: {t}",
    "Second thoughts about {t}",
    "Everything went wrong with {t}",
]
_EN_NOUNS = [
    "screwdriver",
    "neighbour",
    "library book",
    "kettle",
    "spirit level",
    "notebook",
    "ladder",
    "hardware shop",
    "toolbox",
    "postcard",
    "workbench",
    "paint tin",
    "measuring tape",
    "thermos",
    "seed catalogue",
    "bicycle pump",
    "bread knife",
    "rucksack",
    "garden fork",
    "soldering iron",
]
_EN_ADJ = [
    "surprisingly easy",
    "harder than expected",
    "oddly satisfying",
    "a little messy",
    "worth it",
    "slower than planned",
    "cheaper than I feared",
    "quietly rewarding",
    "completely new to me",
]
_EN_SENTENCES = [
    "I finally found time for {t} this week.",
    "The {n} turned out to be {a}.",
    "My {n} was no help at all, so I improvised.",
    "A friend lent me a {n}, which changed everything.",
    "Working on {t} was {a}, and I would do it again.",
    "I had read plenty about {t}, but doing it is a different story.",
    "The first attempt failed because I forgot the {n}.",
    "By the afternoon the {n} was back where it belongs.",
    "If you try {t} yourself, keep a {n} nearby.",
    "It took three evenings, which felt {a}.",
    "The instructions said one thing and the {n} said another.",
    "Next time I will start earlier and bring the {n}.",
]
_EN_COMMENTS = [
    "Great write-up, thanks for sharing.",
    "I tried {t} last spring and it was {a} for me too.",
    "Did you need a {n} for that step, or can it be done without one?",
    "This made me smile. My own {n} is still in pieces.",
    "Thanks! I had exactly the same problem with {t}.",
    "How long did the whole thing take you?",
    "Lovely photos, and very useful notes about the {n}.",
    "I would add one tip: check the {n} before you start.",
]
_EN_PEOPLE = [
    "Alice Moreton",
    "Ben Carver",
    "Chloe Tan",
    "David Okafor",
    "Emma Lind",
    "Farid Haddad",
    "Grace Whitley",
    "Hugo Brandt",
    "Isla Fenwick",
    "Jonas Weber",
    "Kate Osei",
    "Liam Doyle",
    "Maya Patel",
    "Noah Brooks",
    "Olivia Stone",
    "Pete Marsh",
]
_EN_CATEGORIES = ["Home repair", "Garden", "Cooking", "Cycling", "Travel", "Making"]

_JA_TOPICS = [
    "ベランダ菜園",
    "朝の散歩",
    "古い自転車",
    "味噌作り",
    "図書館通い",
    "週末のパン作り",
    "川沿いの道",
    "新しい手帳",
    "梅干し",
    "コーヒー豆",
    "押し入れの整理",
    "山歩き",
    "夏休みの工作",
    "手作りの本棚",
    "近所の銭湯",
    "朝ごはん",
    "庭の柿の木",
    "鉄道の旅",
]
_JA_TITLES = [
    "{t}について",
    "{t}の記録",
    "はじめての{t}",
    "{t}を振り返って",
    "今週の{t}",
    "{t}で学んだこと",
    "のんびり{t}",
]
_JA_NOUNS = [
    "道具",
    "友人",
    "本",
    "やかん",
    "ノート",
    "はしご",
    "工具箱",
    "絵はがき",
    "作業台",
    "巻尺",
    "水筒",
    "種",
    "包丁",
    "リュック",
    "地図",
    "自転車",
]
_JA_ADJ = ["簡単", "大変", "意外", "静か", "にぎやか", "不思議", "快適"]  # all take でした
_JA_SENTENCES = [
    "今週はようやく{t}の時間が取れました。",
    "{n}を使ってみたら、思ったより{a}でした。",
    "先週から{t}を続けています。",
    "友人に{n}を借りたので、さっそく試しました。",
    "{t}は{a}でしたが、またやりたいと思います。",
    "本で読んだことはあっても、実際にやるのは別の話です。",
    "最初は{n}を忘れてしまい、うまくいきませんでした。",
    "夕方には{n}も元の場所に戻りました。",
    "次はもう少し早い時間から始めるつもりです。",
    "三日かかりましたが、それもいい経験でした。",
]
_JA_COMMENTS = [
    "いつも楽しく読んでいます。",
    "{t}、私もやってみたいです！",
    "{n}はどこで買いましたか？",
    "写真がとてもきれいですね。",
    "同じことで困っていたので助かりました。",
    "{t}は{a}ですよね。よく分かります。",
    "続きを楽しみにしています。",
]
_JA_PEOPLE = ["山田花子", "佐藤健", "田中美咲", "鈴木一郎", "高橋さくら", "伊藤誠", "渡辺由美", "中村大輔"]
_JA_CATEGORIES = ["暮らし", "料理", "旅行", "読書", "庭仕事"]


def _fill(rng: random.Random, template: str, topic: str, lang: str) -> str:
    nouns, adjs = (_JA_NOUNS, _JA_ADJ) if lang == "ja" else (_EN_NOUNS, _EN_ADJ)
    return template.format(t=topic, n=rng.choice(nouns), a=rng.choice(adjs))


def topic(rng: random.Random, lang: str) -> str:
    return rng.choice(_JA_TOPICS if lang == "ja" else _EN_TOPICS)


def title(rng: random.Random, lang: str, subject: str) -> str:
    text = rng.choice(_JA_TITLES if lang == "ja" else _EN_TITLES).format(t=subject)
    return text[0].upper() + text[1:]


def person(rng: random.Random, lang: str) -> str:
    return rng.choice(_JA_PEOPLE if lang == "ja" else _EN_PEOPLE)


def category(rng: random.Random, lang: str) -> str:
    return rng.choice(_JA_CATEGORIES if lang == "ja" else _EN_CATEGORIES)


def paragraphs(rng: random.Random, lang: str, subject: str) -> list[str]:
    """Three to six paragraphs of three to five sentences each."""
    pool = _JA_SENTENCES if lang == "ja" else _EN_SENTENCES
    joiner = "" if lang == "ja" else " "
    out = []
    for _ in range(rng.randint(3, 6)):
        sentences = [_fill(rng, rng.choice(pool), subject, lang) for _ in range(rng.randint(3, 5))]
        out.append(joiner.join(sentences))
    return out


def comment_text(rng: random.Random, lang: str, subject: str) -> str:
    pool = _JA_COMMENTS if lang == "ja" else _EN_COMMENTS
    joiner = "" if lang == "ja" else " "
    return joiner.join(_fill(rng, rng.choice(pool), subject, lang) for _ in range(rng.randint(1, 3)))


def slug(title_text: str, post_id: int) -> str:
    """A WordPress-style slug: ASCII words joined by dashes, other text percent-encoded (lower case)."""
    words = re.sub(r"[^\w\s-]", "", title_text.lower()).split()
    base = "-".join(words) or "post"
    encoded = quote(base, safe="-_").lower() if not base.isascii() else base
    return f"{encoded}-{post_id}"
