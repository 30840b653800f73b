"""The blocks extraction reads (speedups.parse_blocks: compiled when built) are exactly the
pure-Python walk's, and the compiled vectors and text measures equal their Python forms. Where no
compiled form is built the comparisons would compare a form with itself: they skip, saying why, and
``test_the_compiled_forms_are_built_where_a_compiler_is`` fails if a compiler was there."""

from __future__ import annotations

import gc
import shutil
import sysconfig
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from extractor import speedups as S
from extractor.core import blocks as B
from extractor.core.decode import decode_html
from extractor.evaluation.corpus import iter_corpus

FIELDS = list(B.BLOCK_FIELDS)

needs_compiled = pytest.mark.skipif(not S.COMPILED, reason="compiled forms not built (no C compiler)")


def c_compiler() -> str | None:
    """The C compiler Python's extensions are built with, if it is installed here."""
    command = (sysconfig.get_config_var("CC") or "cc").split()
    return shutil.which(command[0]) if command else None


def test_the_compiled_forms_are_built_where_a_compiler_is() -> None:
    # `pip install -e .` builds them whenever it finds a compiler (setup.py's extensions are optional)
    if c_compiler() is None:
        pytest.skip("no C compiler here: the Python forms run")
    assert S.COMPILED, "extractor._csax, _cbuild, _cblock or _cvectors was not built (rerun `pip install -e .`)"


def _body(root: etree._Element) -> etree._Element:
    body = root.find("body")
    return root if body is None else body


def _both(text: str) -> tuple[list[B.Block], list[B.Block]]:
    root_py = B.parse_html(text)
    assert root_py is not None
    return S.parse_blocks(text), B._walk_python(_body(root_py))


def _assert_same(text: str) -> None:
    fast, slow = _both(text)
    assert len(fast) == len(slow)
    for a, b in zip(fast, slow, strict=True):
        for name in FIELDS:
            assert getattr(a, name) == getattr(b, name), (a.index, name)


@needs_compiled
def test_every_corpus_page_gives_the_same_blocks(corpus_root: Path) -> None:
    pages = [p for site in iter_corpus(corpus_root) for p in site.page_files()]
    assert len(pages) > 300
    for page in pages:
        _assert_same(decode_html(page.read_bytes(), None).text)


@needs_compiled
def test_edge_cases() -> None:
    for text in [
        "<p>only a paragraph, no body element</p>",
        "<body></body>",
        "<body>   \n\t </body>",
        "<body><div id>empty id</div><div class=''>x</div></body>",
        "<body><a href=x><div>linked block</div> tail</a></body>",
        "<body><span><p>block in an inline</p><p>second</p></span></body>",
        "<body><p>caf\u00e9 \u00a0 \u3000 日本語<img alt=' 写真 ' src=a.png title=t></p></body>",
        "<body><time datetime='2012-01-02'>Jan 2</time><p><time datetime=' '>x</time></p></body>",
        "<body><noscript><p>hidden</p></noscript><template><p>t</p></template>after</body>",
        "<body><p>a<!-- comment -->b<?pi x?>c</p></body>",
        "<body>" + "<div>" * 3000 + "deep" + "</div>" * 3000 + "</body>",
        # inline wrappers between blocks: paths step through them, numbered among same-name siblings
        "<body><span><p>1</p></span><i>x</i><span><p>2</p></span><b><span><i></i><div>x</div></span></b></body>",
        "<body><div><a><b><span><p>deep inline</p></span></b></a><a><p>next</p></a></div></body>",
        "<body>" + "<a class=card><div>card</div></a>" * 2000 + "</body>",
        # a block of many distinct tags (counted through a table past 32), each met twice
        "<body><p>" + "".join(f"<x-{i}>w</x-{i}>" for i in range(100)) * 2 + "</p></body>",
        "<body><p>" + "".join(f"<x-{i}>w</x-{i}>" for i in range(33)) + "<b>x</b><x-0></x-0></p></body>",
    ]:
        _assert_same(text)


@needs_compiled
def test_names_past_the_numbered_limit_keep_their_counts() -> None:
    # tag names are numbered process-wide up to a limit (a page of made-up names must not grow
    # the numbering without bound); blocks holding names past it keep a dict of counts
    text = "<body>" + "".join(f"<div><q-{i}>w</q-{i}><b>x</b></div>" for i in range(70_000)) + "</body>"
    _assert_same(text)
    fast, _ = _both(text)
    assert fast[1].tag_pairs is not None and fast[-1].tag_pairs is None
    assert fast[-1].tags == {"div": 1, "q-69999": 1, "b": 1}


TAGS = ["div", "p", "li", "ul", "td", "tr", "span", "a", "b", "br", "img", "script", "style", "time", "h2", "section"]
ATTRS = ["id", "class", "title", "alt", "src", "datetime", "href"]
WORDS = ["x", "Hello", "  ", "\n", "\u00a0", "a b", "日本", "Reply", "\t\n  \n", "&amp;", "&lt;b&gt;"]


@st.composite
def html_trees(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 4 if depth < 4 else 0))):
        if draw(st.booleans()):
            parts.append(draw(st.sampled_from(WORDS)))
            continue
        tag = draw(st.sampled_from(TAGS))
        attrs = "".join(
            f' {a}="{draw(st.sampled_from(WORDS))}"' for a in draw(st.lists(st.sampled_from(ATTRS), max_size=3))
        )
        inner = draw(html_trees(depth + 1))
        parts.append(f"<{tag}{attrs}>{inner}</{tag}>")
    return "".join(parts)


@needs_compiled
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(html_trees())
def test_random_trees_give_the_same_blocks(fragment: str) -> None:
    text = f"<html><body>{fragment}</body></html>"
    if B.parse_html(text) is None:
        return
    _assert_same(text)


@needs_compiled
@pytest.mark.parametrize("mode", ["binary", "count", "sqrt"])
def test_compiled_vectors_equal_block_vector(corpus_root: Path, mode: str) -> None:
    from extractor.core.features import block_vector
    from extractor.core.options import DEFAULT

    options = DEFAULT.but(tag_weight=mode, tag_scale=0.7)
    site = next(iter_corpus(corpus_root, ["dragnet"]))
    for page in site.page_files()[:3]:
        blocks = S.parse_blocks(decode_html(page.read_bytes(), None).text)
        fast = S.block_vectors(blocks, options, {})
        slow = [block_vector(b, options) for b in blocks]
        for a, b in zip(fast, slow, strict=True):
            assert (a.weights, a.norm, a.key) == (b.weights, b.norm, b.key)


@pytest.mark.parametrize(
    "fragment",
    [
        "<span><p>1</p></span><i>x</i><span><p>2</p></span><b><span><i></i><div>x</div></span></b>",
        "<div><a><b><span><p>deep inline</p></span></b></a><a><p>next</p></a></div><p>last</p>",
        "<ul><li>a</li><li>b</li></ul><table><tr><td>1</td><td>2</td></tr></table>",
        "<a class=card><div>1</div></a><a class=card><div>2</div></a><em><a><div>3</div></a></em>",
    ],
)
def test_xpaths_are_what_lxml_getpath_writes(fragment: str) -> None:
    root = B.parse_html(f"<html><body>{fragment}</body></html>")
    assert root is not None
    tree = root.getroottree()
    for block in B.blocks_of(root):
        (element,) = tree.xpath(block.xpath)
        assert element.tag == block.tag
        assert tree.getpath(element) == block.xpath


def test_corpus_xpaths_are_what_lxml_getpath_writes(corpus_root: Path) -> None:
    site = next(iter_corpus(corpus_root, ["dragnet"]))
    for page in site.page_files()[:3]:
        root = B.parse_html(decode_html(page.read_bytes(), None).text)
        assert root is not None
        tree = root.getroottree()
        for block in B.blocks_of(root):
            (element,) = tree.xpath(block.xpath)
            assert tree.getpath(element) == block.xpath


@pytest.mark.parametrize("mode", ["attribute", "tokens"])
def test_identifier_assignment_follows_the_papers_rule(corpus_root: Path, mode: str) -> None:
    from extractor.separation.identifiers import (
        DEFAULT_IDENTIFIER,
        assign_identifiers,
        once_identifiers,
        page_candidates,
    )

    for site in list(iter_corpus(corpus_root))[::5]:
        pages = [B.parse_blocks(decode_html(f.read_bytes(), None).text) for f in site.page_files()[:3]]
        cands = [page_candidates(blocks, mode) for blocks in pages]
        once = [once_identifiers(blocks, mode, c) for blocks, c in zip(pages, cands, strict=True)]
        for blocks, own, page_once in zip(pages, cands, once, strict=True):
            for eligible in (set(), set.intersection(*map(set, once)), set(page_once), {c for o in once for c in o}):
                assert once_identifiers(blocks, mode, own, among=eligible) == eligible & page_once
                expected: list[str] = []  # the paper's rule, spelled out
                for b, cs in zip(blocks, own, strict=True):
                    mine = next((c for c in cs if c in eligible), None)
                    if mine is None:
                        mine = expected[b.prev_sibling] if b.prev_sibling >= 0 else None
                    if mine is None:
                        mine = expected[b.parent] if b.parent >= 0 else DEFAULT_IDENTIFIER
                    expected.append(mine)
                assert assign_identifiers(blocks, eligible, mode) == expected
                assert assign_identifiers(blocks, eligible, mode, own) == expected


@needs_compiled
def test_compiled_blocks_are_left_out_of_cyclic_collection() -> None:
    # numbers, strings and dicts of them cannot form cycles: a set's hundred thousand blocks need
    # not be tracked (nor walked by each collection while they live)
    blocks = S.parse_blocks("<body><div id=a><p title=t>x<b>y</b></p></div></body>")
    assert blocks and not any(gc.is_tracked(b) for b in blocks)


@needs_compiled
def test_a_pickled_block_keeps_its_tags_in_another_process() -> None:
    # tag numbers are process-wide: a block pickled in one process must not depend on them in
    # another (both fresh here, whatever this process has numbered)
    import subprocess
    import sys

    dump = (
        "import pickle, sys\n"
        "from extractor import speedups as S\n"
        "block = S.parse_blocks('<body><p>x<b>y</b><i-x>z</i-x></p></body>')[1]\n"
        "assert block.tag_pairs is not None\n"
        "sys.stdout.buffer.write(pickle.dumps(block))\n"
    )
    load = (
        "import pickle, sys\n"
        "from extractor import speedups as S\n"
        "S.parse_blocks('<body><section><em>o</em><u>t</u></section></body>')  # other numbers first\n"
        "block = pickle.loads(sys.stdin.buffer.read())\n"
        "print(sorted(block.tags.items()), block.text)\n"
    )
    pickled = subprocess.run([sys.executable, "-c", dump], capture_output=True, check=True).stdout
    out = subprocess.run([sys.executable, "-c", load], input=pickled, capture_output=True, check=True)
    assert out.stdout.decode().strip() == "[('b', 1), ('i-x', 1), ('p', 1)] xyz"


# every code point str.split() takes for whitespace, newlines, cased letters ASCII and not (their
# lower-case forms differ in length or script), and other text
MEASURE_CHARS = [chr(c) for c in range(0x110000) if chr(c).isspace()] + list("aZq\n\n  ") + list("ÉİẞßΣǅ日😀")


@needs_compiled
@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=st.sampled_from(MEASURE_CHARS), max_size=40))
def test_compiled_text_measures_equal_finish(text: str) -> None:
    block = B.Block(0, "p", -1, -1)
    B._finish(block, text, {}, 0)
    from extractor import _cbuild  # type: ignore[attr-defined]

    got = _cbuild.measured(text)
    if not block.text:
        assert got is None
    else:
        assert got == (block.text, block.lines, block.text_chars)


@needs_compiled
def test_compiled_line_keys_lower_case_every_code_point_as_str_lower() -> None:
    # a line is its own key when every character is its own simple lower case; the rule must
    # agree with str.lower() (full case mapping, final sigma) on every code point
    from extractor import _cbuild  # type: ignore[attr-defined]

    chars = [chr(c) for c in range(0x110000) if not chr(c).isspace() and not 0xD800 <= c < 0xE000]
    for start in range(0, len(chars), 2000):
        # each code point on a line of its own (beside a letter that is its own lower case), then
        # beside an upper-case one, then within a run of its neighbours
        part = chars[start : start + 2000]
        text = "\n".join([*(ch + "b" for ch in part), *("A" + ch for ch in part[::5]), "".join(part)])
        block = B.Block(0, "p", -1, -1)
        B._finish(block, text, {}, 0)
        assert _cbuild.measured(text) == (block.text, block.lines, block.text_chars)


@needs_compiled
@given(st.text(alphabet=st.sampled_from(MEASURE_CHARS + list("\x00\x1c\x1f\x85\xa0\u3000é")), max_size=30))
def test_link_text_characters_counted_as_the_stripped_text(text: str) -> None:
    from extractor import _cbuild  # type: ignore[attr-defined]

    data = text.encode("utf-8", "surrogatepass")
    assert _cbuild.stripped_chars(data) == len(data.decode("utf-8", "replace").strip())
    assert _cbuild.stripped_chars(b"\xff " + data) == len((b"\xff " + data).decode("utf-8", "replace").strip())


@needs_compiled
def test_compiled_tree_passes_and_matching_equal_python(corpus_root: Path) -> None:
    from extractor import DEFAULT, Page, speedups
    from extractor.core import matching, treepasses
    from extractor.core.blocks import HEADINGS
    from extractor.core.roles import BOILERPLATE, COMMENT, POST
    from extractor.separation.method import classify, read_set

    checked = 0
    for site in list(iter_corpus(corpus_root))[::4]:
        parsed = [p for p in read_set([Page(None, f.read_bytes()) for f in site.page_files()[:4]], DEFAULT) if p.blocks]
        vectors = [p.vectors for p in parsed]
        assert speedups.unique_blocks(vectors) == matching.unique_blocks(vectors)
        index = matching.FingerprintIndex([v for page in vectors[1:] for v in page])
        assert speedups.unmatched(index, vectors[0], {}) == index.unmatched(vectors[0], {})
        for page, roles in zip(parsed, classify(parsed, DEFAULT).roles, strict=True):
            blocks = page.blocks
            assert speedups.children(blocks) == treepasses.children(blocks)
            for role, not_role, skip in [
                (None, None, frozenset()),
                (COMMENT, None, HEADINGS),
                (POST, BOILERPLATE, frozenset()),
            ]:
                flags = speedups.text_flags(blocks, roles, role, not_role, skip)
                assert flags == treepasses.text_flags(blocks, roles, role, not_role, skip)
                assert speedups.subtree_sums(flags, blocks) == treepasses.subtree_sums(flags, blocks)
            checked += 1
    assert checked > 10


def test_inside_small_ancestors_is_every_block_under_a_small_ancestor(corpus_root: Path) -> None:
    """The shortcut the story-box and recurring-line steps take equals the walk it replaced: every
    block whose subtree-of-an-ancestor (or its own) of at most ``limit`` blocks holds an asked block."""
    from extractor import DEFAULT, Page, speedups
    from extractor.comments.evidence import role_indices
    from extractor.core import treepasses
    from extractor.core.roles import COMMENT
    from extractor.separation.method import classify, read_set

    checked = 0
    for site in list(iter_corpus(corpus_root))[::3]:
        parsed = [p for p in read_set([Page(None, f.read_bytes()) for f in site.page_files()[:3]], DEFAULT) if p.blocks]
        for page, roles in zip(parsed, classify(parsed, DEFAULT).roles, strict=True):
            blocks = page.blocks
            sizes = speedups.subtree_sums([1] * len(blocks), blocks)
            asked = role_indices(roles, COMMENT) or [len(blocks) // 2]
            for limit in (1, 12, 40, len(blocks)):
                naive = set()
                for k in asked:
                    node = k
                    while node >= 0:
                        if sizes[node] <= limit:
                            naive.update(range(node, node + sizes[node]))
                        node = blocks[node].parent
                assert treepasses.inside_small_ancestors(blocks, asked, sizes, limit) == sorted(naive)
            checked += 1
    assert checked > 10


def test_block_results_read_as_the_list_they_stand_for() -> None:
    import pickle

    from extractor import Page, extract_site
    from extractor.separation.method import BlockResult

    page = extract_site([Page(None, b"<body><div id=nav>Home</div><p>Post one</p><p>Two</p></body>")])[0]
    made = list(page.blocks)
    assert len(page.blocks) == len(made) > 2 and all(isinstance(b, BlockResult) for b in made)
    assert page.blocks == made and page.blocks[-1] == made[-1] and page.blocks[1:] == made[1:]
    assert pickle.loads(pickle.dumps(page)).blocks == made  # a worker's result crosses processes
