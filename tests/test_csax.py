"""Blocks read while libxml2 parses (extractor/_csax.pyx) are exactly the blocks of the Python tree
walk on ``parse_html``'s tree: on every corpus page, on edge cases, and on generated tag soup (unclosed and
misnested tags, stray end tags, comments, entities, head elements in the body)."""

from __future__ import annotations

from pathlib import Path

import lxml.etree
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extractor import speedups as S
from extractor.core import blocks as B
from extractor.core.decode import decode_html
from extractor.evaluation.corpus import iter_corpus

FIELDS = list(B.BLOCK_FIELDS)

needs_csax = pytest.mark.skipif(S._csax is None, reason="streaming reader not built (no C compiler)")


def test_streaming_reader_is_built_where_a_compiler_is() -> None:
    from test_cwalk import c_compiler

    if c_compiler() is None:
        pytest.skip("no C compiler here: pages are read from lxml's tree")
    assert S._csax is not None, "extractor._csax was not built, or libxml2's functions were not found"


def _from_tree(data: bytes) -> list[B.Block] | None:
    root = B.parse_html(data.decode("utf-8", "replace"), data)  # (the text is unused: data given)
    if root is None:
        return []
    if root.find("body") is None:
        return None
    return B.blocks_of(root)


def _assert_same(data: bytes) -> None:
    streamed = S._csax.read(data, B.BLOCK_TAGS, B.EXCLUDED, None)
    tree = _from_tree(data)
    if streamed is None or tree is None:
        # no body to start on (or nothing parseable): parse_blocks reads such a page from the tree
        assert streamed is None and not tree
        return
    assert len(streamed) == len(tree)
    for a, b in zip(streamed, tree, strict=True):
        for name in FIELDS:
            assert getattr(a, name) == getattr(b, name), (a.index, name, getattr(a, name), getattr(b, name))


@needs_csax
def test_every_corpus_page_gives_the_tree_walks_blocks(corpus_root: Path) -> None:
    pages = [p for site in iter_corpus(corpus_root) for p in site.page_files()]
    assert len(pages) > 300
    for page in pages:
        decoded = decode_html(page.read_bytes(), None)
        data = decoded.utf8 if decoded.utf8 is not None else decoded.text.encode("utf-8", "surrogatepass")
        _assert_same(data)


EDGE_CASES = [
    "<p>only a paragraph, no body element</p>",
    "<body></body>",
    "<body>   \n\t </body>",
    "<body><div id>empty id</div><div class=''>x</div><div id=a id=b class=c class=d>dup</div></body>",
    "<body><a href=x><div>linked block</div> tail</a><a> spaced \u00a0link </a></body>",
    "<body><a>one<!-- c -->two</a><a>&amp;<b>x</b> &lt; </a></body>",
    "<body><p>caf\u00e9 \u00a0 \u3000 日本語<img alt=' 写真 ' src=a.png title=t><img alt></p></body>",
    "<body><time datetime='2012-01-02'>Jan 2</time><p><time datetime=' '>x</time></p></body>",
    "<body><noscript><p>hidden</p></noscript><template><p>t</p></template>after<script>x<p></script></body>",
    "<body><p>a<!-- comment -->b<?pi x?>c<![CDATA[d]]>e</p><textarea>t<p>u</textarea></body>",
    "<body>" + "<div>" * 3000 + "deep" + "</div>" * 3000 + "</body>",
    "<body><span><p>1</p></span><i>x</i><span><p>2</p></span><b><span><i></i><div>x</div></span></b></body>",
    "<body>" + "<a class=card><div>card</div></a>" * 500 + "</body>",
    "<body><p>" + "".join(f"<x-{i}>w</x-{i}>" for i in range(100)) * 2 + "</p></body>",
    # implied and misnested structure: the parser's repairs are the tree's
    "<p>one<p>two<div>three</p>four<li>five<li>six</div><td>seven</table>eight",
    "<table><p>in table</p><tr><td>a<td>b</tr>text<tr>c</table>",
    "<body><b><p>bold</b> para</p></i></span></div></body><p>after body</p></html><p>after html</p>",
    "<html><head><title>T</title></head><body class=x><title>in body</title><meta name=a></body></html>",
    "<body>a</body><body class=second>b</body>",
    "<ul><li>a<ul><li>b</ul><li>c</ul><dl><dt>t<dd>d<dt>u</dl>",
    "<body><br>a<br/>b</br>c<p>d<br>e</p></body>",
    "<title>only head</title>",
    "<html><frameset><frame src=a></frameset></html>",
    "<html><head></head></html>",
    "text only, no tags at all",
    "<body>\x00nul<p>\x01ctrl</p></body>",
    '<body><div id=a"b class=\'x\' title=>1</div><p title="a&#0;b" alt=&amp;>2</p><img src=/a?c&d=1&amp;e></body>',
    "<body><p id=x/><p/ class=y>z</p><div <p>q</div><p title='unterminated>r</p></body>",
]


@needs_csax
@pytest.mark.parametrize("text", EDGE_CASES, ids=range(len(EDGE_CASES)))
def test_edge_cases(text: str) -> None:
    _assert_same(text.encode("utf-8"))


@needs_csax
def test_invalid_utf8_is_read_as_the_tree_reads_it() -> None:
    _assert_same(b"<body><p>ok \xff\xfe bad \xc3 cut</p><p>\xed\xa0\x80 surrogate</p></body>")


SOUP_TAGS = [
    "div", "p", "li", "ul", "td", "tr", "table", "span", "a", "b", "i", "br", "img", "script", "style",
    "time", "h2", "section", "body", "head", "html", "title", "noscript", "dt", "dd", "form", "option",
]  # fmt: skip
SOUP_ATTRS = ["id", "class", "title", "alt", "src", "datetime", "href"]
SOUP_TEXT = [
    "x", "Hello", "  ", "\n", "\u00a0", "a b", "日本", "Reply", "\t\n  \n", "&amp;", "&lt;b&gt;", "&nbsp;", "<",
    "&#0;", "&#x80;", "&#xD800;", "&bogus;", "&amp", "\x00", "a'b", "<a", "</ p>", "<>", "</>",
]  # fmt: skip


@st.composite
def tag_soup(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 30))):
        kind = draw(st.sampled_from(["start", "start", "end", "text", "text", "comment"]))
        if kind == "text":
            parts.append(draw(st.sampled_from(SOUP_TEXT)))
        elif kind == "comment":
            parts.append(draw(st.sampled_from(["<!-- c -->", "<?pi?>", "<![CDATA[z]]>", "<!doctype html>"])))
        elif kind == "end":
            parts.append(f"</{draw(st.sampled_from(SOUP_TAGS))}>")
        else:
            tag = draw(st.sampled_from(SOUP_TAGS))
            attrs = "".join(
                f' {a}="{draw(st.sampled_from(SOUP_TEXT))}"'
                for a in draw(st.lists(st.sampled_from(SOUP_ATTRS), max_size=3))
            )
            parts.append(f"<{tag}{attrs}>")
    return "".join(parts)


@needs_csax
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tag_soup())
def test_tag_soup_gives_the_tree_walks_blocks(soup: str) -> None:
    _assert_same(soup.encode("utf-8"))


@needs_csax
def test_a_page_without_a_body_is_read_from_the_tree() -> None:
    text = "<html><frameset><frame src=a title=frame></frameset></html>"
    assert S._csax.read(text.encode(), B.BLOCK_TAGS, B.EXCLUDED, None) is None
    blocks = S.parse_blocks(text)
    assert [b.tag for b in blocks] == ["html"] and blocks[0].attrs == {"a": 1, "frame": 1}


@needs_csax
def test_shared_text_measures_are_shared_across_pages() -> None:
    cache: dict[object, object] = {}
    page = b"<body><div>menu</div><p>post one</p></body>"
    first = S._csax.read(page, B.BLOCK_TAGS, B.EXCLUDED, cache)
    second = S._csax.read(page.replace(b"one", b"two"), B.BLOCK_TAGS, B.EXCLUDED, cache)
    assert first[1].lines is second[1].lines  # "menu": measured once
    assert first[2].text == "post one" and second[2].text == "post two"


class _RaisingName:
    """Hashes as "div" and fails when compared: an error raised inside a parser callback."""

    def __hash__(self) -> int:
        return hash("div")

    def __eq__(self, other: object) -> bool:
        raise ValueError("comparison failed")


@needs_csax
def test_an_error_in_a_callback_stops_the_parse_and_is_raised() -> None:
    page = b"<body><p>a</p><div>x</div>" + b"<p>more</p>" * 1000 + b"</body>"
    with pytest.raises(ValueError, match="comparison failed"):
        S._csax.read(page, frozenset({_RaisingName()}), B.EXCLUDED, None)
    assert len(S._csax.read(page, B.BLOCK_TAGS, B.EXCLUDED, None)) == 1003  # nothing left behind


@needs_csax
@pytest.mark.parametrize(
    "text", [*EDGE_CASES[:6], "<p>x", "<table><td>a<td>b</table>", "<div><p>a<div>b</div></div>"], ids=range(9)
)
def test_the_tokenizer_floor_parses_the_same_elements_as_the_tree(text: str) -> None:
    # bench/extract_speed.py prints libxml2's parse with idle callbacks as the floor under reading:
    # it must parse the same document, so it meets every element of parse_html's tree
    data = text.encode()
    root = B.parse_html(text, data)
    expected = 0 if root is None else sum(1 for _ in root.iter(lxml.etree.Element))
    assert S._csax.tokenize(data) == expected


@needs_csax
def test_the_tokenizer_floor_counts_every_corpus_pages_elements(corpus_root: Path) -> None:
    site = next(iter_corpus(corpus_root))
    for page in site.page_files():
        data = page.read_bytes()
        root = B.parse_html(data.decode("utf-8", "replace"), data)
        assert S._csax.tokenize(data) == sum(1 for _ in root.iter(lxml.etree.Element)) > 100
