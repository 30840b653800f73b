"""Word lists and sentence templates of the synthetic theme blogs (English topics, Japanese camping and kitchen).

Templates take ``{n}``/``{n2}`` (nouns), ``{p}``/``{P}`` (places), ``{a}``/``{A}`` (activities), ``{num}``,
``{money}``, ``{person}``, ``{season}`` and, in the author's replies, ``{name}``; see ``model.Gen.fill``.
"""

from __future__ import annotations


def W(s: str) -> list[str]:
    """A "|"-separated list."""
    return s.split("|")


EN_TOPICS = {
    "bike": dict(
        n=W(
            "chain|rear derailleur|brake pads|saddle|inner tube|tyre levers|headset|track pump|bottom bracket|"
            "pannier rack|chain whip|torque wrench|mudguards|cassette"
        ),
        p=W("canal path|bike shop|garage|ridge road|café stop|hill climb|ring road|old railway line"),
        a=W(
            "truing a wheel|replacing the chain|fixing a puncture|indexing the gears|commuting in the rain|"
            "packing for a tour|bleeding the brakes|building a wheel"
        ),
        cats=W("Maintenance|Rides|Touring|Gear"),
        tags=W("commuting|repairs|winter|tools|routes"),
    ),
    "bread": dict(
        n=W(
            "sourdough starter|loaf tin|dough scraper|proving basket|rye flour|oven thermometer|stand mixer|"
            "baking stone|lame|bench knife|Dutch oven|cooling rack"
        ),
        p=W("kitchen|farmers’ market|allotment|bakery on the corner|village hall|mill shop"),
        a=W(
            "feeding the starter|shaping a batard|laminating croissant dough|baking rye bread|scoring loaves|"
            "making focaccia|milling flour at home"
        ),
        cats=W("Sourdough|Enriched Doughs|Equipment|Diary"),
        tags=W("rye|starter|weekend|flour"),
    ),
    "photo": dict(
        n=W(
            "tripod|prime lens|light meter|film camera|ND filter|camera bag|lens hood|cable release|"
            "darkroom timer|negative scanner|zoom lens|spare battery"
        ),
        p=W("harbour|old quarry|moor|lighthouse|station platform|market square|river bank"),
        a=W(
            "shooting at blue hour|developing film|scanning negatives|printing a zine|shooting portraits|"
            "walking with one lens|editing last month’s photos"
        ),
        cats=W("Film|Digital|Walks|Workflow"),
        tags=W("35mm|black and white|landscape|printing"),
    ),
    "garden": dict(
        n=W(
            "seed trays|compost bin|water butt|raised bed|pruning saw|cold frame|tomato plants|garden fork|"
            "runner beans|rhubarb crown|hosepipe|wheelbarrow"
        ),
        p=W("allotment|greenhouse|garden centre|back garden|potting shed|community orchard"),
        a=W(
            "dividing perennials|sowing broad beans|turning the compost|building a raised bed|"
            "pricking out seedlings|pruning the apple tree|mulching the borders"
        ),
        cats=W("Vegetables|Fruit|Jobs for the Month|Wildlife"),
        tags=W("organic|seeds|compost|frost"),
    ),
    "travel": dict(
        n=W(
            "rail pass|backpack|guidebook|phrasebook|packing cubes|travel adapter|night train|day pack|"
            "sleeper ticket|ferry ticket|water bottle|rain jacket"
        ),
        p=W("old town|central station|ferry terminal|hostel|harbour front|mountain village|night market"),
        a=W(
            "planning a rail trip|packing light|learning a few phrases|booking a sleeper cabin|"
            "travelling off season|island hopping|walking between villages"
        ),
        cats=W("Europe|Asia|Rail Travel|Tips"),
        tags=W("budget|trains|packing|slow travel"),
    ),
    "coffee": dict(
        n=W(
            "grinder|burr set|espresso machine|tamper|milk jug|portafilter|coffee scale|gooseneck kettle|AeroPress|"
            "pour-over cone|bag of beans|knock box"
        ),
        p=W("roastery|café on the corner|kitchen counter|market stall|coffee festival|office kitchen"),
        a=W(
            "dialling in a new bean|steaming milk|roasting at home|cleaning the group head|cupping three coffees|"
            "brewing pour-over|descaling the machine"
        ),
        cats=W("Espresso|Brewing|Gear|Roasting"),
        tags=W("beans|latte art|grinders|water"),
    ),
    "hiking": dict(
        n=W(
            "walking poles|boots|map case|head torch|rucksack|gaiters|compass|flask|waterproof trousers|first aid kit|"
            "bivvy bag|trail shoes"
        ),
        p=W("ridge|bothy|trailhead car park|summit cairn|reservoir|valley floor|youth hostel"),
        a=W(
            "navigating in fog|wild camping|planning a long-distance route|breaking in new boots|walking a ridge|"
            "packing for a day hike"
        ),
        cats=W("Day Walks|Multi-day|Kit|Planning"),
        tags=W("scotland|winter|navigation|hills"),
    ),
    "knit": dict(
        n=W(
            "circular needles|sock yarn|stitch markers|swatch|blocking mats|yarn swift|cable needle|ball winder|"
            "row counter|merino skein|darning needle|project bag"
        ),
        p=W("yarn shop|knitting group|sofa|wool festival|train|library café"),
        a=W(
            "knitting socks|blocking a shawl|learning colourwork|casting on a jumper|fixing a dropped stitch|"
            "spinning yarn|grafting a toe"
        ),
        cats=W("Patterns|Techniques|Yarn|Works in Progress"),
        tags=W("socks|colourwork|beginners|wool"),
    ),
    "birds": dict(
        n=W(
            "binoculars|field guide|bird feeder|nest box|spotting scope|telephoto lens|suet block|notebook|"
            "bird bath|sunflower hearts|trail camera|folding stool"
        ),
        p=W("nature reserve|estuary|back garden|woodland hide|marsh|coastal path|local park"),
        a=W(
            "counting garden birds|learning bird song|photographing waders|cleaning the feeders|"
            "watching the migration|putting up a nest box"
        ),
        cats=W("Garden Birds|Outings|Gear|Sightings"),
        tags=W("migration|feeders|waders|spring"),
    ),
}
EN_SENT = W(
    "I finally got round to {a} this weekend, and it went better than expected.|The {n} had been sitting in the {p} "
    "since spring, so it was about time.|{P} was quiet when I arrived, which suited me fine.|My {person} asked whether "
    "the {n} was really worth it, and I didn’t have a good answer.|It took {num} attempts before the {n} behaved the "
    "way I wanted.|Most of the morning went on the {n}; the {n2} took ten minutes.|I had read plenty about {a}, but "
    "doing it is another matter.|Halfway through, I realised I had left the {n} at the {p}.|If you’re just starting "
    "out, don’t skimp on the {n}.|A reader asked about the {n}, so here are a few notes.|The {n} cost about {money}, "
    "which felt like a lot at the time.|There’s something about the {p} early in the morning that slows everything "
    "down.|Next time I’ll start with the {n2} and leave the {n} for last.|None of this is clever, but it works for "
    "me.|I wrote the measurements on the back of an envelope and promptly lost it.|Honestly, the hardest part was "
    "getting started.|By the time I got back from the {p} it was already dark.|The {n} is not perfect, but it’s mine "
    "and I’m proud of it.|I keep a small notebook for {a}, and this week’s page is mostly question marks.|It rained "
    "for most of the afternoon, which made {a} more of an adventure than I’d planned.|My {person} lent me their {n2}, "
    "which saved the day.|Looking back, I should have checked the {n} first.|The whole job took {num} hours, not "
    "counting a detour to the {p}.|I’m still not sure whether the {n} or the {n2} made the bigger difference.|Some "
    "of you will say I’m overthinking the {n}, and you may be right.|It’s the kind of small job that keeps getting "
    "pushed back until it can’t be.|A bit of trial & error later, the {n2} finally fitted.|The man at the {p} called "
    "it “a classic beginner’s mistake”, which was fair."
)
EN_COMMENT = W(
    "Great write-up, thanks for sharing.|I had exactly the same trouble with the {n} last {season}.|Where did you get "
    "the {n}? I’ve been looking for one for ages.|Have you tried {a} with the {n2}? It made a big difference for "
    "me.|This is really helpful. Bookmarking it for the weekend.|I respectfully disagree about the {n} – in my "
    "experience the {n2} matters more.|We went to the {p} last month and it was packed, so you were lucky.|How long "
    "did the {n} take to arrive?|Love the photo of the {n}!|Funny, I spent Saturday {a} too. Mine didn’t go nearly as "
    "well.|Could you say a bit more about the {n2}? I never know how far to take it.|I’ve been {a} for years and still "
    "picked up something new here.|Ha, the bit about the envelope made me laugh. Been there.|My {person} swears by the "
    "{n2}, but I’ve never got on with it.|Thanks for being honest about what didn’t work – most blogs skip that "
    "part.|Looking forward to the next post.|Did you end up going back to the {p}?|One small tip: keep the {n} "
    "somewhere dry, it lasts much longer.|Mine took <20 minutes with the {n2}, for what it’s worth."
)
EN_SHORT = W("Thanks!|Nice work!|Love this.|Great post.|Brilliant, thank you!|Very useful.|So true!")
EN_AREPLY = W(
    "Thanks, {name}! I got the {n} from the {p}, it was on offer.|Glad it helped, {name}.|Good question – "
    "I’ll cover the {n2} properly in the next post.|Thanks {name}, that’s a good tip about the {n2}.|Ha, yes, "
    "I learned that one the hard way!"
)
EN_TITLE = W(
    "Notes on {a}|A weekend of {a}|Why I replaced the {n}|The {n}, three months on|{A}: what I learned|"
    "Back at the {p}|Small wins: the {n}|In praise of the humble {n}|{A}, again|What nobody tells you about "
    "the {n}|A rainy day at the {p}|The {n} & the {n2}"
)
EN_HEAD = W("What I used|The {n}|A few notes|What went wrong|Next time|Costs|The verdict|Getting started")
EN_LIST = W(
    "{num} hours of {a}|Buy a spare {n}|Ask my {person} about the {n2}|Budget around {money}|Check the {n} "
    "twice|Leave the {n2} at home"
)
EN_QUOTE = W(
    "Measure twice, cut once.|Slow is smooth, and smooth is fast.|Perfect is the enemy of done.|You learn "
    "more from the second attempt than the first."
)
EN_CAP = W("The {n} at the {p}.|Halfway there.|{P}, early on Sunday.|Not bad for a first try.")
EN_ALT = W("The {n} on the workbench|A view of the {p}|Close-up of the {n2}")
EN_NAMES = W(
    "Liam Carter|Priya Shah|Tom|Hannah Becker|Dan O'Brien|mkowalski|Grace Liu|Oskar|Ruth Adeyemi|Ben Thornton|"
    "Chloe|Ivan Petrov|sunnyside_sam|Megan Price|Joe Bailey|Aisha Rahman|Pete|Lucia Romano|Fergus|Nina Holm"
)
EN_PERSON = W("neighbour|sister|brother|dad|partner|flatmate|colleague|aunt")
EN_SEASON = W("spring|summer|autumn|winter|year")
JA = dict(
    n=W(
        "テント|タープ|焚き火台|ランタン|寝袋|ダッチオーブン|クーラーボックス|ガスバーナー|ペグ|ハンモック|アウトドアチェア|メスティン"
    ),
    p=W("湖畔のキャンプ場|河原|高原|道の駅|ホームセンター|山の麓|海沿いのオートキャンプ場|近所の公園"),
    a=W("焚き火|ソロキャンプ|燻製作り|朝ごはん作り|星空の撮影|テントの設営|薪割り"),
    cats=W("キャンプ|道具|料理|日記"),
    tags=W("ソロ|冬キャンプ|初心者|焚き火"),
)
JA_SENT = W(
    "先週末、{p}で{a}をしてきました。|{n}は思っていたよりも使いやすかったです。|{person}に勧められて、{n}を買ってみました。|"
    "朝から天気がよく、{p}はとても静かでした。|正直なところ、{n}の準備に{num}時間もかかってしまいました。|"
    "次回は{n2}も持っていこうと思います。|{a}は何度やっても新しい発見があります。|途中で{n}を忘れてきたことに気づき、少し焦りました。|"
    "{p}の近くに小さなお店があって、つい長居してしまいました。|値段は{money}くらいでしたが、十分に元は取れそうです。|"
    "写真ではうまく伝わらないのが残念です。|夕方になると急に冷え込んできたので、{n2}が大活躍でした。|"
    "{person}は「また行きたいね」と言っていました。|失敗もありましたが、全体としては大満足です。|"
    "初めての方には、まず{n}から揃えるのがおすすめです。|細かいことは、また別の記事で書こうと思います。"
)
JA_COMMENT = W(
    "いつも楽しく読ませていただいています。|{n}、私も気になっていました！|{p}、懐かしいです。昔よく行きました。|"
    "{a}、私もやってみたくなりました。|{n2}はどこで買われたのでしょうか？|参考になりました。|写真がとてもきれいですね。|"
    "うちも{n}で同じ失敗をしました（笑）|次の記事も楽しみにしています。|{person}と一緒に行ってみようと思います。"
)
JA_SHORT = W("ありがとうございます！|いいですね！|素敵です。|なるほど。")
JA_AREPLY = W("{name}さん、コメントありがとうございます！|{n2}は{p}の近くのお店で買いました。|ぜひ試してみてください。")
JA_TITLE = W("{p}で{a}|初めての{a}|{n}を買いました|{n}と{n2}の話|{season}の{a}|{a}の記録（{num}回目）")
JA_HEAD, JA_LIST = (
    W("準備したもの|当日の様子|よかった点|反省点|まとめ|持ち物リスト"),
    W("{n}|{n2}（予備）|飲み物 2リットル|{n}用の袋"),
)
JA_KITCHEN = dict(
    n=W(
        "土鍋|圧力鍋|ホットクック|保存容器|ぬか床|ホーロー鍋|三徳包丁|まな板|せいろ|梅酒用の瓶|計量スプーン|フードプロセッサー"
    ),
    p=W("近所のスーパー|道の駅|商店街の八百屋さん|実家の台所|朝市|ホームセンター|合羽橋の道具街"),
    a=W("作り置き|梅仕事|味噌作り|ぬか漬け|パン作り|お弁当作り|だし取り"),
    cats=W("作り置き|季節の手仕事|台所道具|日記"),
    tags=W("時短|保存食|お弁当|発酵"),
)
JA_TOPICS = {"camp": JA, "kitchen": JA_KITCHEN}
JA_QUOTE, JA_CAP = W("備えあれば憂いなし。|急がば回れ。|石の上にも三年。"), W("{p}にて|{n}の様子|朝の{p}")
JA_NAMES = W("キャンプ初心者|たけし|週末ソロ|Yuki|みー|佐々木|通りすがり|山好きの父|ひろみ|焚き火おじさん|Kenta|あおい")
JA_PERSON, JA_SEASON = W("友人|妻|夫|同僚|父|兄|娘|近所の方"), W("春|夏|秋|冬")


DAYS = W("Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday")
MONTHS = W("January|February|March|April|May|June|July|August|September|October|November|December")
