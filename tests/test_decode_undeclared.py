"""Pages that declare no charset (no BOM, no header parameter, no <meta>): decoded by evidence, in every
legacy encoding the crawler meets, short and long texts; a detector's guess never overrules a clean
CJK decode, a site's pages come out in one encoding, and the guess is reported as a guess."""

from __future__ import annotations

from pathlib import Path

import pytest

from extractor import Page, extract_site, learn_profile
from extractor.core.charsets import guess_cjk, script_mix
from extractor.core.decode import decode_html

JA_SHORT = "文字コードの宣言がない記事。"
JA = (
    "今日は駅前の新しいカフェに行きました。コーヒーがとても美味しくて、店員さんも親切でした。"
    "また来週も行きたいと思います。天気が良かったので、帰りに公園を散歩しました。"
)
ZH_SHORT = "没有声明字符编码的网页。"
ZH = (
    "今天我们去了北京的一家新餐厅。菜很好吃，服务员也很热情。我们点了烤鸭和饺子，还有一些蔬菜。"
    "饭后我们在公园里散步，天气非常好，很多人在放风筝。"
)
HANT_SHORT = "沒有宣告字元編碼的網頁。"
HANT = (
    "今天我們去了台北的一家新餐廳。菜很好吃，服務員也很熱情。我們點了牛肉麵和小籠包，還有一些青菜。"
    "飯後我們在公園裡散步，天氣非常好，很多人在放風箏。"
)
KO_SHORT = "문자 인코딩 선언이 없는 글입니다."
KO = (
    "오늘은 역 앞에 새로 생긴 카페에 갔습니다. 커피가 정말 맛있었고 직원들도 친절했습니다. "
    "다음 주에도 또 가고 싶어요. 날씨가 좋아서 돌아오는 길에 공원을 산책했습니다."
)
RU_SHORT = "Страница без объявления кодировки."
RU = (
    "Вчера мы ходили в новое кафе у вокзала. Кофе был очень вкусным, а официанты вежливыми. "
    "На следующей неделе хочу снова туда сходить. Погода была хорошая, и мы гуляли в парке."
)
TH_SHORT = "หน้าเว็บที่ไม่มีการประกาศการเข้ารหัส"
TH = "วันนี้ไปร้านกาแฟใหม่หน้าสถานีรถไฟ กาแฟอร่อยมากและพนักงานก็ใจดี สัปดาห์หน้าอยากไปอีก อากาศดีจึงเดินเล่นในสวนสาธารณะตอนกลับบ้าน"
FR_SHORT = "Crème brûlée à Noël, déjà."
FR = (
    "Le café était très agréable. Nous avons mangé des crêpes et bu du thé à la française. "
    "L’été dernier, à Noël, nous étions à Besançon; « déjà » disaient-ils."
)
DE_SHORT = "Schöne Grüße aus München."
PL = "Zażółć gęślą jaźń. Wczoraj byliśmy w kawiarni przy dworcu i piliśmy bardzo dobrą kawę z ciastkiem."

# (the encoding the page is written in, the text, the encodings it may be read in: aliases of one
# another for these characters, e.g. EUC-KR's text is CP949's)
CASES = [
    ("euc_jp", JA_SHORT, {"euc_jp"}),
    ("euc_jp", JA, {"euc_jp"}),
    ("shift_jis", JA_SHORT, {"cp932", "shift_jis"}),
    ("shift_jis", JA, {"cp932", "shift_jis"}),
    ("cp932", JA, {"cp932"}),
    ("iso2022_jp", JA_SHORT, {"iso2022_jp"}),
    ("iso2022_jp", JA, {"iso2022_jp"}),
    ("gb2312", ZH_SHORT, {"gb18030"}),
    ("gb2312", ZH, {"gb18030"}),
    ("gbk", ZH, {"gb18030"}),
    ("gb18030", ZH_SHORT, {"gb18030"}),
    ("big5", HANT_SHORT, {"big5"}),
    ("big5", HANT, {"big5"}),
    ("euc_kr", KO_SHORT, {"cp949", "euc_kr"}),
    ("euc_kr", KO, {"cp949", "euc_kr"}),
    ("cp1251", RU_SHORT, {"cp1251"}),
    ("cp1251", RU, {"cp1251"}),
    ("koi8_r", RU_SHORT, {"koi8_r"}),
    ("koi8_r", RU, {"koi8_r"}),
    ("cp874", TH_SHORT, {"cp874", "tis_620", "iso8859_11"}),
    ("cp874", TH, {"cp874", "tis_620", "iso8859_11"}),
    ("cp1252", FR_SHORT, {"cp1252"}),
    ("cp1252", FR, {"cp1252"}),
    ("cp1252", DE_SHORT, {"cp1252"}),
    ("cp1250", PL, {"cp1250", "iso8859_2"}),
]


def undeclared(text: str, encoding: str, repeat: int = 1, lang: str = "") -> bytes:
    html_lang = f' lang="{lang}"' if lang else ""
    paragraphs = "".join(f"<p>{text}</p>" for _ in range(repeat))
    page = f"<!DOCTYPE html><html{html_lang}><head><title>Blog</title></head><body>{paragraphs}</body></html>"
    return page.encode(encoding)


@pytest.mark.parametrize("repeat", [1, 5], ids=["once", "five-times"])
@pytest.mark.parametrize(("encoding", "text", "read_as"), CASES, ids=[f"{e}-{len(t)}" for e, t, _ in CASES])
def test_undeclared_page_is_read_in_its_own_encoding(encoding: str, text: str, read_as: set[str], repeat: int) -> None:
    decoded = decode_html(undeclared(text, encoding, repeat), {"Content-Type": "text/html"})
    assert text in decoded.text
    assert decoded.encoding in read_as
    assert decoded.encoding_source == "guessed"


def test_the_reported_bug_euc_jp_is_not_thai() -> None:
    # charset-normalizer 3.5.3 ranks cp874 first for these bytes; the strict EUC-JP decode is clean Japanese
    data = undeclared(JA_SHORT * 3, "euc_jp")
    decoded = decode_html(data)
    assert decoded.encoding == "euc_jp"
    assert JA_SHORT * 3 in decoded.text


def test_declared_pages_say_so() -> None:
    data = undeclared(JA, "euc_jp")
    assert decode_html(data, {"Content-Type": "text/html; charset=EUC-JP"}).encoding_source == "declared"
    meta = data.replace(b"<head>", b'<head><meta charset="euc-jp">')
    assert decode_html(meta).encoding_source == "declared"
    assert decode_html(b"\xef\xbb\xbf<p>x</p>").encoding_source == "declared"
    assert decode_html(undeclared("plain", "ascii")).encoding_source == "guessed"


def test_the_page_language_settles_kanji_without_kana() -> None:
    # the same ideographs are valid (and common) in EUC-JP and in GB2312: kanji alone cannot tell
    text = "東京都知事選挙結果速報"
    assert decode_html(undeclared(text, "euc_jp", lang="ja")).encoding == "euc_jp"
    assert text in decode_html(undeclared(text, "euc_jp", lang="ja")).text
    assert decode_html(undeclared("北京天气预报", "gb2312", lang="zh")).encoding == "gb18030"


def test_the_sites_encoding_wins_when_it_fits() -> None:
    data = undeclared("東京都知事選挙結果速報", "euc_jp")
    assert guess_cjk(data, prefer="euc_jp") == "euc_jp"
    decoded = decode_html(data, prefer="euc_jp")
    assert decoded.encoding == "euc_jp" and "東京都知事選挙結果速報" in decoded.text
    # a preferred encoding that cannot decode the bytes is not forced on them
    assert decode_html(undeclared(KO, "euc_kr"), prefer="euc_jp").encoding == "cp949"


def test_a_sites_pages_come_out_in_one_encoding() -> None:
    ambiguous = undeclared("東京都知事選挙結果速報", "euc_jp")  # alone it reads as GB2312 hanzi
    assert decode_html(ambiguous).encoding == "gb18030"
    pages = [Page(f"http://blog.example/{i}", undeclared(f"{JA} {i}", "euc_jp")) for i in range(3)]
    pages.append(Page("http://blog.example/3", ambiguous))
    results = extract_site(pages)
    assert {r.encoding for r in results} == {"euc_jp"}
    assert {r.encoding_source for r in results} == {"guessed"}
    assert "東京都知事選挙結果速報" in results[-1].post
    profile = learn_profile(pages[:3])
    assert profile.encoding == "euc_jp"
    later = profile.extract(Page("http://blog.example/4", ambiguous))
    assert later.encoding == "euc_jp" and "東京都知事選挙結果速報" in later.post


def test_a_site_profile_keeps_its_encoding_through_json() -> None:
    pages = [Page(f"http://blog.example/{i}", undeclared(f"{JA} {i}", "euc_jp")) for i in range(3)]
    profile = learn_profile(pages)
    assert type(profile).from_json(profile.to_json()).encoding == "euc_jp"


def test_latin_text_is_never_read_as_scattered_ideographs() -> None:
    # "crème" is a valid GB18030 byte pair inside a word; the decode is not plausible CJK
    data = undeclared("La crème et la bière étaient très bonnes.", "cp1252")
    assert guess_cjk(data) is None
    assert decode_html(data).encoding == "cp1252"


def test_script_mix_counts_what_real_text_holds() -> None:
    mix = script_mix(JA)
    assert mix.kana > 0 and mix.han > 0 and mix.odd == 0 and mix.rare_han == 0
    assert mix.cleanness() == 1.0 and mix.fits("ja") == 1.0 and mix.fits("zh") == 0.0
    korean = script_mix(KO)
    assert korean.fits("ko") == 1.0 and korean.fits("ja") == 0.0


def test_bounded_dependency_versions_are_declared() -> None:
    # the stored text of undeclared pages depends on these: a new major release must be a decision
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    for requirement in ('"charset-normalizer>=', '"w3lib>=', '"lxml>='):
        line = next(line for line in pyproject.splitlines() if line.strip().startswith(requirement))
        assert ",<" in line, line
