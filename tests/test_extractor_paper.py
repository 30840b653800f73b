"""The papers' worked examples as unit tests.

ExtractUniqueBlock (Yoshida & Yamamoto 2009): Fig. 2 block decomposition, §3.2.3 features,
§3.2.4-3.2.5 matching. Post/comment separation (Yoshida, Inui & Yamamoto 2013): Fig. 3/4 block
identifiers, Fig. 5 separation. The HTML is built here to have exactly the figures' shape.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from extractor import DEFAULT, PAPER, Page, extract_site
from extractor.core.blocks import BLOCK_TAGS, parse_blocks, parse_html
from extractor.core.features import block_vector
from extractor.core.matching import Vector, cosine, similar, unique_blocks, unique_blocks_bruteforce
from extractor.core.options import Options
from extractor.core.roles import BOILERPLATE, COMMENT, POST
from extractor.separation.identifiers import (
    DEFAULT_IDENTIFIER,
    assign_identifiers,
    candidates,
    eligible_identifiers,
)
from extractor.separation.separate import post_identifiers_every_page, reextract, separate_roles

# ---------------------------------------------------------------- 2009 Fig. 2: five blocks

FIG2 = """<html><head><title>Fig 2</title><style>p { color: red }</style></head>
<body>
Intro <b>bold</b> words
<div id="header" class="top bar"><img src="logo.png" alt="Logo"> Site <a href="/" title="Home">Home</a></div>
<table><tr><td>Cell <span>one</span><br>Line  TWO<br> <br></td></tr></table>
<script>var hidden = "script text";</script><style>.x { }</style>
After
</body></html>"""


@pytest.fixture(scope="module")
def fig2():
    return parse_blocks(FIG2)


def test_fig2_five_blocks_in_preorder(fig2):
    assert [b.tag for b in fig2] == ["body", "div", "table", "tr", "td"]
    assert [b.index for b in fig2] == [0, 1, 2, 3, 4]


def test_fig2_body_counts_as_a_block_and_is_the_root(fig2):
    assert fig2[0].tag == "body"
    assert fig2[0].parent == -1


def test_fig2_parents_and_previous_siblings(fig2):
    assert [b.parent for b in fig2] == [-1, 0, 0, 2, 3]
    assert [b.prev_sibling for b in fig2] == [-1, -1, 1, -1, -1]


def test_fig2_texts_exclude_nested_blocks_and_scripts(fig2):
    # inline B/A/SPAN belong to the enclosing block; the nested DIV/TABLE text is not BODY's
    assert [b.text for b in fig2] == ["Intro bold words\nAfter", "Site Home", "", "", "Cell one\nLine TWO"]
    assert all("hidden" not in b.text and "color" not in b.text for b in fig2)


def test_fig2_tag_counts(fig2):
    assert fig2[0].tags == {"body": 1, "b": 1}
    assert fig2[1].tags == {"div": 1, "img": 1, "a": 1}
    assert fig2[2].tags == {"table": 1}
    assert fig2[4].tags == {"td": 1, "span": 1, "br": 3}
    assert all("script" not in b.tags and "style" not in b.tags for b in fig2)


def test_fig2_text_lines_lowercased_stripped_blank_dropped(fig2):
    assert fig2[0].lines == {"intro bold words": 1, "after": 1}
    assert fig2[4].lines == {"cell one": 1, "line two": 1}
    assert fig2[2].lines == {}


def test_fig2_title_alt_src_features(fig2):
    assert fig2[1].attrs == {"logo.png": 1, "Logo": 1, "Home": 1}
    assert fig2[4].attrs == {}


def test_fig2_id_and_class_recorded(fig2):
    assert (fig2[1].element_id, fig2[1].element_class) == ("header", "top bar")


def test_fig2_paper_vector_counts_tags_lines_and_attributes(fig2):
    v = block_vector(fig2[4], PAPER)
    assert v.weights == {"\n<td": 1.0, "\n<span": 1.0, "\n<br": 3.0, "cell one": 1.0, "line two": 1.0}
    v = block_vector(fig2[1], PAPER)
    assert v.weights == {
        "\n<div": 1.0,
        "\n<img": 1.0,
        "\n<a": 1.0,
        "site home": 1.0,
        "\n@logo.png": 1.0,
        "\n@Logo": 1.0,
        "\n@Home": 1.0,
    }


def test_repeated_text_line_is_counted():
    (_, p) = parse_blocks("<body><p>Yes<br>yes<br>YES<br>no</p></body>")
    assert p.lines == {"yes": 3, "no": 1}


def test_noscript_template_and_comments_are_excluded():
    blocks = parse_blocks("<body><p>kept<noscript>ns</noscript><template>tp</template><!-- hidden --></p></body>")
    assert [b.text for b in blocks] == ["", "kept"]


@pytest.mark.parametrize("tag", ["article", "section", "nav", "aside", "header", "footer", "li", "dd", "td"])
def test_html5_and_list_elements_are_blocks(tag):
    assert tag in BLOCK_TAGS


@pytest.mark.parametrize("tag", ["span", "a", "b", "em", "img", "br", "strong"])
def test_inline_elements_are_not_blocks(tag):
    assert tag not in BLOCK_TAGS


# ---------------------------------------------------------------- XPaths of blocks

TAGS = ["div", "p", "span", "ul", "li", "a", "table", "tr", "td", "section", "b", "br", "h2", "script"]


def _html(tree):
    if isinstance(tree, str):
        return tree
    tag, children = tree
    if tag == "br":
        return "<br>"
    return f"<{tag}>{''.join(_html(c) for c in children)}</{tag}>"


html_trees = st.recursive(
    st.sampled_from(["x", "Some words", " ", "y\nz"]),
    lambda inner: st.tuples(st.sampled_from(TAGS), st.lists(inner, max_size=5)),
    max_leaves=40,
)


def _assert_xpaths_resolve(text):
    blocks = parse_blocks(text)
    root = parse_html(text)
    for b in blocks:
        found = root.xpath(b.xpath)
        assert [e.tag for e in found] == [b.tag], b.xpath


@settings(max_examples=200, deadline=None)
@given(st.lists(html_trees, max_size=6))
def test_block_xpaths_resolve_to_their_element(trees):
    _assert_xpaths_resolve("<html><body>" + "".join(_html(t) for t in trees) + "</body></html>")


def test_block_xpaths_resolve_on_corpus_pages(corpus_root):
    from extractor.core.decode import decode_html

    pages = sorted(corpus_root.glob("*/*/pages"))
    assert len(pages) > 30
    for folder in pages:
        first = min(folder.glob("*.html"))
        _assert_xpaths_resolve(decode_html(first.read_bytes()).text)


# ------------------------------------------------------ 2009 §3.2.4-3.2.5: matching rule


def test_cosine_exactly_at_threshold_is_not_a_match():
    # (0,3,9)·(3,0,9) / (|a||b|) = 81/90 = 0.9 exactly: "exceeds 0.9" is strict
    a, b = Vector({"y": 3.0, "z": 9.0}), Vector({"x": 3.0, "z": 9.0})
    assert cosine(a, b) == 0.9
    assert not similar(a, b, 0.9)
    assert unique_blocks([[a], [b]], 0.9) == [[True], [True]]
    assert unique_blocks_bruteforce([[a], [b]], 0.9) == [[True], [True]]


def test_cosine_just_above_threshold_is_a_match():
    a, b = Vector({"y": 3.0, "z": 9.0}), Vector({"x": 2.9, "z": 9.0})
    assert cosine(a, b) > 0.9
    assert unique_blocks([[a], [b]], 0.9) == [[False], [False]]


def _set(*bodies):
    return [Page(None, f"<html><body>{b}</body></html>".encode()) for b in bodies]


def _roles(result):
    return [(b.text, b.role) for b in result.blocks if b.text]


IDENTICAL = ("<p>Same footer text</p><div>Only here</div>", "<p>Same footer text</p>")


def test_identical_blocks_on_two_pages_are_boilerplate():
    out = extract_site(_set(*IDENTICAL), PAPER.but(reextract=False))
    assert dict(_roles(out[0]))["Same footer text"] == BOILERPLATE
    assert dict(_roles(out[1]))["Same footer text"] == BOILERPLATE
    assert dict(_roles(out[0]))["Only here"] != BOILERPLATE


def test_reextraction_is_keyed_on_identifier_and_tag():
    # 2013 §4.6 as written: a P sharing (identifier, tag) with a content P comes back as content
    pages = _set("<p>Same footer text</p><p>Only here</p>", "<p>Same footer text</p>")
    out = extract_site(pages, PAPER)
    assert dict(_roles(out[0]))["Same footer text"] != BOILERPLATE
    out = extract_site(pages, PAPER.but(reextract=False))
    assert dict(_roles(out[0]))["Same footer text"] == BOILERPLATE


def test_block_repeated_twice_on_one_page_only_is_content():
    vec = Vector({"\n<p": 1.0, "repeated twice": 1.0})
    other = Vector({"\n<p": 1.0, "elsewhere": 1.0})
    assert unique_blocks([[vec, vec], [other]]) == [[True, True], [True]]
    out = extract_site(_set("<p>Repeated twice</p><p>Repeated twice</p>", "<p>Elsewhere</p>"), PAPER)
    roles = [role for text, role in _roles(out[0]) if text == "Repeated twice"]
    assert len(roles) == 2
    assert BOILERPLATE not in roles


# ---------------------------------------------------------------- 2013 Fig. 3/4: identifiers

# Page 1 and page 2 of Fig. 3: div#A holds div.B then a comment div.c1; page 2 has two c1 comments.
FIG3_PAGE1 = '<body><div id="A"><div class="B"><p>post one</p></div><div class="c1"><p>comment</p></div></div></body>'
FIG3_PAGE2 = (
    '<body><div id="A"><div class="B"><p>post two</p></div>'
    '<div class="c1"><p>first</p></div><div class="c1"><p>second</p></div></div></body>'
)


@pytest.fixture(scope="module")
def fig3():
    return [parse_blocks(FIG3_PAGE1), parse_blocks(FIG3_PAGE2)]


def test_fig3_c1_ineligible_because_twice_on_page_2(fig3):
    assert eligible_identifiers(fig3, "attribute") == {"#A", ".B"}


def test_fig3_identifier_eligible_only_if_on_every_page(fig3):
    third = parse_blocks('<body><div id="A"><p>no B here</p></div></body>')
    assert eligible_identifiers([*fig3, third], "attribute") == {"#A"}


def test_fig3_eligible_when_once_on_every_page():
    pages = [parse_blocks(FIG3_PAGE1), parse_blocks(FIG3_PAGE1.replace("post one", "post three"))]
    assert eligible_identifiers(pages, "attribute") == {"#A", ".B", ".c1"}


def test_fig4_sibling_beats_parent_giving_a_b_b(fig3):
    eligible = eligible_identifiers(fig3, "attribute")
    blocks = fig3[0]
    assert [b.tag for b in blocks] == ["body", "div", "div", "p", "div", "p"]
    idents = assign_identifiers(blocks, eligible, "attribute")
    # div#A, div.B, div.c1: the comment inherits B from its previous sibling, not A from its parent
    assert [idents[1], idents[2], idents[4]] == ["#A", ".B", ".B"]
    assert idents == [DEFAULT_IDENTIFIER, "#A", ".B", ".B", ".B", ".B"]


def test_fig4_page2_comments_all_inherit_from_the_first_sibling(fig3):
    eligible = eligible_identifiers(fig3, "attribute")
    idents = assign_identifiers(fig3[1], eligible, "attribute")
    assert idents == [DEFAULT_IDENTIFIER, "#A", ".B", ".B", ".B", ".B", ".B", ".B"]


def test_first_child_without_identifier_inherits_from_parent():
    blocks = parse_blocks('<body><div id="A"><p>x</p></div></body>')
    assert assign_identifiers(blocks, {"#A"}, "attribute") == [DEFAULT_IDENTIFIER, "#A", "#A"]


def test_no_eligible_identifier_gives_default_everywhere():
    blocks = parse_blocks("<body><div><p>x</p></div><p>y</p></body>")
    assert set(assign_identifiers(blocks, set(), "attribute")) == {DEFAULT_IDENTIFIER}


def test_id_is_tried_before_class():
    (_, div) = parse_blocks('<body><div id="main" class="post"></div></body>')
    assert list(candidates(div, "attribute")) == ["#main", ".post"]
    assert assign_identifiers([div], {"#main", ".post"}, "attribute") == ["#main"]
    assert assign_identifiers([div], {".post"}, "attribute") == [".post"]


def test_class_mode_attribute_takes_the_whole_value():
    (_, div) = parse_blocks('<body><div class="  entry   post-7 "></div></body>')
    assert list(candidates(div, "attribute")) == [".entry post-7"]


def test_class_mode_tokens_tries_each_token_once():
    (_, div) = parse_blocks('<body><div class="entry post-7 entry"></div></body>')
    assert list(candidates(div, "tokens")) == [".entry", ".post-7"]


def test_class_mode_tokens_finds_stable_token_beside_per_post_token():
    pages = [parse_blocks(f'<body><div class="hentry post-{i}"><p>t</p></div></body>') for i in (1, 2)]
    assert eligible_identifiers(pages, "attribute") == set()
    assert eligible_identifiers(pages, "tokens") == {".hentry"}
    assert assign_identifiers(pages[0], {".hentry"}, "tokens") == [DEFAULT_IDENTIFIER, ".hentry", ".hentry"]


def test_token_twice_on_one_page_is_ineligible_in_token_mode():
    pages = [
        parse_blocks('<body><div class="a b"></div><div class="b"></div></body>'),
        parse_blocks('<body><div class="a b"></div></body>'),
    ]
    assert eligible_identifiers(pages, "tokens") == {".a"}


# ---------------------------------------------------------------- 2013 Fig. 5: separation


def test_fig5_post_identifier_carries_content_on_every_page():
    content = [[True, True, False], [True, False, False], [True, True, False]]
    idents = [["#post", "#cmt", "#nav"], ["#post", "#cmt", "#nav"], ["#post", "#cmt", "#nav"]]
    assert post_identifiers_every_page(content, idents) == {"#post"}
    assert separate_roles(content, idents) == [
        [POST, COMMENT, BOILERPLATE],
        [POST, BOILERPLATE, BOILERPLATE],
        [POST, COMMENT, BOILERPLATE],
    ]


def test_fig5_no_identifier_on_every_page_makes_everything_comment():
    content = [[True, False], [False, True]]
    idents = [["#a", "#b"], ["#a", "#b"]]
    assert separate_roles(content, idents) == [[COMMENT, BOILERPLATE], [BOILERPLATE, COMMENT]]


def test_reextraction_pulls_back_same_identifier_and_tag():
    pages = [parse_blocks("<body><p>a</p><p>b</p><div>c</div></body>")]
    content = [[False, True, False, False]]
    idents = [["#x", "#x", "#x", "#x"]]
    # the other P with the same identifier becomes content; the DIV and BODY do not
    assert reextract(pages, content, idents) == [[False, True, True, False]]


def _blog_page(n, post, comments):
    comment_html = "".join(
        f'<div class="comment"><p class="who">{who}</p><p>{text}</p></div>' for who, text in comments
    )
    return f"""<html><head><title>Post {n}</title></head><body>
<div id="header"><h1>Gardening Notes</h1><p>A blog about small gardens</p></div>
<ul id="nav"><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul>
<div id="main">
 <div id="post"><h2>{post[0]}</h2><p>{post[1]}</p><p>{post[2]}</p></div>
 <div id="comments"><h3>Comments</h3>{comment_html}</div>
</div>
<div id="sidebar"><h3>Archives</h3><ul><li>March</li><li>April</li></ul></div>
<div id="footer"><p>Copyright Gardening Notes</p></div>
</body></html>""".encode()


BLOG = [
    (
        ("Tomatoes in pots", "Cherry tomatoes grow well in deep pots.", "Water them every morning."),
        [("Alice", "Mine split after rain, any advice?"), ("Bob", "Try mulching the soil.")],
    ),
    (
        ("Winter beans", "Broad beans survive a mild winter outside.", "Sow them in late October."),
        [("Carol", "Do they need a fleece cover?")],
    ),
    (
        ("Herb spiral", "A herb spiral packs many plants into one bed.", "Thyme goes on the dry top."),
        [],
    ),
]


@pytest.fixture(scope="module")
def blog_pages():
    return [Page(f"http://blog.test/{i}", _blog_page(i, post, coms)) for i, (post, coms) in enumerate(BLOG)]


@pytest.mark.parametrize("options", [PAPER, DEFAULT], ids=["paper", "default"])
def test_fig5_synthetic_blog_posts_exact(blog_pages, options):
    out = extract_site(blog_pages, options)
    assert [x.post for x in out] == ["\n".join(post) for post, _ in BLOG]


def test_fig5_synthetic_blog_comments_exact(blog_pages):
    out = extract_site(blog_pages, PAPER)
    assert [x.comments for x in out] == [[t for who, text in coms for t in (who, text)] for _, coms in BLOG]


def test_default_splits_comments_into_records_with_authors(blog_pages):
    out = extract_site(blog_pages, DEFAULT)
    assert [x.comments for x in out] == [[text for _, text in coms] for _, coms in BLOG]
    assert [[r.author for r in x.comment_records] for x in out] == [[who for who, _ in coms] for _, coms in BLOG]


def test_fig5_synthetic_blog_boilerplate_roles(blog_pages):
    out = extract_site(blog_pages, PAPER)
    roles = dict(_roles(out[2]))
    for text in ("Gardening Notes", "Home", "About", "Archives", "Comments", "Copyright Gardening Notes"):
        assert roles[text] == BOILERPLATE, text
    assert all(x.error is None for x in out)


def test_fig5_block_results_carry_identifier_and_xpath(blog_pages):
    out = extract_site(blog_pages, PAPER)
    by_text = {b.text: b for b in out[0].blocks}
    assert by_text["Tomatoes in pots"].identifier == "#post"
    root = etree.fromstring(blog_pages[0].body, etree.HTMLParser())
    (h2,) = root.xpath(by_text["Tomatoes in pots"].xpath)
    assert (h2.tag, h2.text) == ("h2", "Tomatoes in pots")
    assert by_text["Alice"].identifier == "#comments"
    assert by_text["Alice"].role == COMMENT


# ---------------------------------------------------------------- presets


def test_paper_preset_is_the_published_method():
    assert Options() == PAPER
    assert PAPER.similarity_threshold == 0.9
    assert PAPER.tag_weight == "count"
    assert PAPER.class_mode == "attribute"
    assert PAPER.reextract is True
    assert PAPER.near_duplicate_pages is False
    assert PAPER.max_link_density is None
    assert PAPER.robust_post_identifiers is False


def test_default_differs_from_paper_only_in_documented_options():
    changed = {f.name for f in dataclasses.fields(Options) if getattr(PAPER, f.name) != getattr(DEFAULT, f.name)}
    assert changed, "DEFAULT should deviate from the paper somewhere"
    assert PAPER.but(**{name: getattr(DEFAULT, name) for name in changed}) == DEFAULT
    assert DEFAULT.similarity_threshold == PAPER.similarity_threshold
    assert DEFAULT.tag_weight != "count"


def test_but_changes_only_the_named_fields():
    opts = DEFAULT.but(reextract=True, tag_weight="count")
    assert opts.reextract is True and opts.tag_weight == "count"
    assert opts.but(reextract=DEFAULT.reextract, tag_weight=DEFAULT.tag_weight) == DEFAULT
    assert DEFAULT.reextract is False  # frozen: the original is unchanged


def test_options_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT.similarity_threshold = 0.5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("mode", "expected"), [("count", 3.0), ("binary", 1.0), ("sqrt", 3**0.5)], ids=["count", "binary", "sqrt"]
)
def test_tag_weight_modes(mode, expected):
    (_, p) = parse_blocks("<body><p>a<br>b<br>c<br></p></body>")
    v = block_vector(p, PAPER.but(tag_weight=mode, tag_scale=2.0))
    assert v.weights["\n<br"] == pytest.approx(2.0 * expected)
    assert v.weights["a"] == 1.0  # text lines are never scaled
