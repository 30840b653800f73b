"""Step 1, bytes to text: BOM, HTTP header, <meta>, detection for undeclared pages."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from extractor.core.decode import decode_html, header_value

SHARED = Path(__file__).resolve().parents[2] / "shared"

# Realistic paragraphs of a few hundred characters: detection needs them.
JA = (
    "今日は駅前の新しいカフェに行きました。コーヒーがとても美味しくて、店員さんも親切でした。"
    "また来週も行きたいと思います。天気が良かったので、帰りに公園を散歩しました。"
    "桜が満開で、たくさんの人がお花見を楽しんでいました。写真もたくさん撮りました。"
)
ZH = (
    "今天我们去了北京的一家新餐厅。菜很好吃，服务员也很热情。我们点了烤鸭和饺子，还有一些蔬菜。"
    "饭后我们在公园里散步，天气非常好，很多人在放风筝。下次我们还想再来这里吃饭。"
)
EN = (
    "It’s been a long week — and I’m finally home. We visited the “old town” café on Tuesday, "
    "where the naïve waiter served us crème brûlée and a résumé of the day’s specials. The price "
    "was €12 … not bad at all! Next time I’ll bring my friends; they’ll love the façade and the "
    "señor who plays guitar on the terrace every evening."
)
ES = (
    "El niño comió una manzana en el jardín mientras su abuela leía el periódico. ¿Qué harás "
    "mañana? preguntó la señora. ¡Iré a la montaña con mis amigos! respondió el niño con alegría. "
    "La mañana siguiente, después del desayuno, salieron hacia el norte en autobús."
)
DE = (
    "Gestern war ich mit meiner Großmutter im Café am Marktplatz. Sie erzählte von ihrer Jugend in "
    "München, von den Straßen, die damals noch nicht gepflastert waren, und von ihrem Vater, der "
    "jeden Morgen früh aufstand, um Bäcker zu werden. Über die Jahre hat sich vieles geändert, aber "
    "die Käsekuchen schmecken immer noch genauso gut wie früher. Schöne Grüße an alle Leser!"
)
FR = (
    "Le café était très agréable. Nous avons mangé des crêpes et bu du thé à la française. "
    "L’été dernier, à Noël, nous étions à Besançon. Çà et là, des élèves préparaient leur rentrée; "
    "« déjà » disaient-ils, et même les garçons étaient très contents de revoir leurs camarades."
)


def page(text, head=""):
    return (
        f"<!DOCTYPE html><html><head>{head}<title>Blog</title></head>"
        f"<body><div class=post><h1>A post</h1><p>{text}</p><p>{text}</p></div></body></html>"
    )


def meta(charset):
    return f'<meta charset="{charset}">'


# ---------------------------------------------------------------- UTF-8 and BOM


def test_utf8_without_declaration():
    d = decode_html(page(EN + JA).encode("utf-8"))
    assert EN in d.text and JA in d.text
    assert d.encoding == "utf-8"


def test_utf8_with_bom_drops_the_bom():
    d = decode_html(b"\xef\xbb\xbf" + page(JA).encode("utf-8"))
    assert d.text.startswith("<!DOCTYPE")
    assert JA in d.text
    assert d.source == "bom"


def test_bom_wins_over_a_contradicting_meta():
    d = decode_html(b"\xef\xbb\xbf" + page(JA, meta("shift_jis")).encode("utf-8"))
    assert JA in d.text
    assert d.source == "bom"


def test_utf16_bom():
    d = decode_html(page(JA).encode("utf-16"))
    assert JA in d.text
    assert d.source == "bom"


def test_bom_wins_over_a_latin1_header():
    d = decode_html(b"\xef\xbb\xbf" + page(FR).encode("utf-8"), {"Content-Type": "text/html; charset=iso-8859-1"})
    assert FR in d.text
    assert not d.text.startswith("\ufeff")


# ---------------------------------------------------------------- declarations


def test_meta_charset():
    d = decode_html(page(JA, meta("euc-jp")).encode("euc-jp"))
    assert JA in d.text
    assert d.source == "meta"


def test_meta_http_equiv_charset():
    head = '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'
    d = decode_html(page(JA, head).encode("shift_jis"))
    assert JA in d.text
    assert d.source == "meta"


def test_header_charset_wins_over_meta():
    data = page(JA, meta("euc-jp")).encode("shift_jis")
    d = decode_html(data, {"Content-Type": "text/html; charset=Shift_JIS"})
    assert JA in d.text
    assert d.source == "header"


def test_header_without_charset_falls_back_to_meta():
    d = decode_html(page(JA, meta("euc-jp")).encode("euc-jp"), {"Content-Type": "text/html"})
    assert JA in d.text
    assert d.source == "meta"


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "text/html; charset=Shift_JIS"},
        {"content-type": "text/html; charset=Shift_JIS"},
        {b"Content-Type": b"text/html; charset=Shift_JIS"},
        {b"Content-Type": [b"text/html; charset=Shift_JIS"]},
        {"Content-Type": ["text/html; charset=Shift_JIS", "text/html; charset=utf-8"]},
    ],
    ids=["str", "lowercase-name", "bytes", "scrapy-bytes-list", "str-list-first-wins"],
)
def test_header_forms(headers):
    d = decode_html(page(JA, meta("euc-jp")).encode("shift_jis"), headers)
    assert JA in d.text
    assert d.source == "header"


@pytest.mark.parametrize("headers", [None, {}, {"Content-Type": []}, {"X-Other": "charset=euc-jp"}])
def test_missing_header_values(headers):
    d = decode_html(page(JA, meta("shift_jis")).encode("shift_jis"), headers)
    assert JA in d.text


def test_header_value_lookup():
    assert header_value({b"CONTENT-TYPE": [b"a", b"b"]}, "content-type") == "a"
    assert header_value({"Content-Type": None}, "content-type") is None
    assert header_value(None, "content-type") is None


# ---------------------------------------------------------------- undeclared pages


@pytest.mark.parametrize(
    ("encoding", "text"),
    [("shift_jis", JA), ("euc-jp", JA), ("gb2312", ZH)],
    ids=["shift_jis", "euc-jp", "gb2312"],
)
def test_undeclared_cjk_is_detected(encoding, text):
    d = decode_html(page(text).encode(encoding))
    assert text in d.text
    assert d.source == "detected"


@pytest.mark.parametrize("text", [EN, ES, DE], ids=["en", "es", "de"])
def test_undeclared_windows_1252_is_detected(text):
    d = decode_html(page(text).encode("cp1252"))
    assert text in d.text


def test_undeclared_windows_1252_french_is_detected():
    d = decode_html(page(FR).encode("cp1252"))
    assert FR in d.text


def test_undeclared_ascii_page():
    d = decode_html(page("Plain ASCII words only.").encode("ascii"))
    assert "Plain ASCII words only." in d.text


# ---------------------------------------------------------------- mislabelled pages


def test_utf8_mislabelled_latin1_in_header():
    d = decode_html(page(FR).encode("utf-8"), {"Content-Type": "text/html; charset=iso-8859-1"})
    assert FR in d.text
    assert d.encoding == "utf-8"


def test_utf8_mislabelled_latin1_in_meta():
    d = decode_html(page(FR, meta("iso-8859-1")).encode("utf-8"))
    assert FR in d.text


def test_real_latin1_page_declared_latin1_stays_latin1():
    d = decode_html(page(FR, meta("iso-8859-1")).encode("latin-1", "replace"))
    assert "très agréable" in d.text


def test_declared_cp1252_smart_quotes():
    d = decode_html(page(EN, meta("windows-1252")).encode("cp1252"))
    assert EN in d.text


def test_utf8_page_with_one_stray_cp1252_byte():
    # like freshome.com/R757: declared UTF-8, one 0x92 (cp1252 apostrophe) in an image name
    data = page(FR, meta("utf-8")).encode("utf-8").replace(b"agr", b"agr\x92", 1)
    d = decode_html(data)
    assert d.encoding == "utf-8"
    assert d.text.count("\ufffd") == 1
    assert "Nous avons mangé des crêpes" in d.text


def test_undecodable_bytes_never_raise():
    d = decode_html(page("x", meta("shift_jis")).encode() + bytes(range(128, 256)))
    assert isinstance(d.text, str)


def test_unknown_declared_charset_does_not_raise():
    d = decode_html(page(EN, meta("x-no-such-charset")).encode("utf-8"))
    assert "long week" in d.text


# ---------------------------------------------------------------- the corpus


def _reference_corpus_module():
    path = SHARED / "eval" / "corpus.py"
    if not path.is_file():
        pytest.fail(f"reference corpus reader missing: {path}", pytrace=False)
    spec = importlib.util.spec_from_file_location("shared_eval_corpus", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_corpus_page_decodes_like_the_reference_reader(corpus_root):
    reference = _reference_corpus_module()
    files = sorted(corpus_root.glob("*/*/pages/*.html"))
    assert len(files) > 300
    differ = [f.name for f in files if decode_html(f.read_bytes()).text != reference.decode_html(f.read_bytes())]
    assert differ == []


def test_freshome_stray_byte_page(corpus_root):
    data = (corpus_root / "dragnet" / "freshome.com" / "pages" / "R757.html").read_bytes()
    d = decode_html(data)
    assert d.encoding == "utf-8"
    assert d.text.count("\ufffd") == 1


# ---------------------------------------------------------------- bytes handed to the parser


@pytest.mark.parametrize(
    ("data", "headers"),
    [
        (page(FR).encode("utf-8"), None),  # undeclared
        (page(FR, meta("utf-8")).encode("utf-8"), None),
        (page(FR).encode("utf-8"), {"Content-Type": "text/html; charset=UTF-8"}),
        (page(FR).encode("utf-8"), {"Content-Type": "text/html; charset=iso-8859-1"}),  # mislabelled
    ],
    ids=["undeclared", "meta", "header", "latin1-label"],
)
def test_valid_utf8_pages_hand_their_own_bytes_to_the_parser(data, headers):
    d = decode_html(data, headers)
    assert d.utf8 is data
    assert d.text.encode("utf-8") == data


@pytest.mark.parametrize(
    "data",
    [
        page(JA).encode("shift_jis"),
        page(FR, meta("iso-8859-1")).encode("latin-1", "replace"),
        page(FR, meta("utf-8")).encode("utf-8").replace(b"agr", b"agr\x92", 1),  # a stray byte
        b"\xef\xbb\xbf" + page(FR).encode("utf-8"),  # the BOM is not text
    ],
    ids=["shift_jis", "latin1", "stray-byte", "bom"],
)
def test_other_pages_are_re_encoded_for_the_parser(data):
    assert decode_html(data).utf8 is None
