"""The HTML report: an inert page copy, blocks painted by role, index figures, the CLI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from extractor import DEFAULT, Page, PageExtraction, extract_site
from extractor.cli import main
from extractor.core.blocks import parse_html
from extractor.core.roles import BOILERPLATE, COMMENT, POST
from extractor.report.build import (
    NOTE_NOT_FOUND,
    ROLES,
    ReportPage,
    ReportSite,
    comment_blocks,
    index_html,
    page_figures,
    page_file,
    site_figures,
    site_from_pages,
    sites_from_corpus,
    write_report,
)
from extractor.report.render import CSP, display_url, indexed_path, paint_page, safe_link, sanitize_css
from extractor.separation.method import BlockResult

HOSTILE = b"""<!DOCTYPE html><html><head>
<base href="http://evil.example/">
<meta http-equiv="refresh" content="0;url=http://evil.example/">
<meta charset="utf-8">
<link rel="stylesheet" href="http://evil.example/a.css"><link rel="preload" href="//evil.example/f.woff">
<link rel="dns-prefetch" href="//evil.example">
<script src="http://evil.example/a.js"></script><script>alert(1)</script>
<style>@import url(http://evil.example/b.css); body { background: URL("http://evil.example/bg.png") }
.x { background-image: u\\72l(http://evil.example/esc.png) } .y { behavior: url(x.htc) }</style>
</head><body onload="alert(2)">
<div id="post"><p>Post text <img src="http://evil.example/i.png" srcset="http://evil.example/i2.png 2x"
 onerror="alert(3)" alt="pic"> <a href="javascript:alert(4)">js</a> <a href="JaVa\tScRiPt:alert(5)">tab</a>
 <a href="data:text/html,<script>alert(6)</script>">data</a> <a href="http://ok.example/" target="_top"
 ping="http://evil.example/p">ok</a> <a href="#frag">frag</a></p>
<p style="background:url(http://evil.example/s.png);color:red" onclick="alert(7)">styled</p>
<iframe src="http://evil.example/frame"></iframe><object data="http://evil.example/o.swf"></object>
<embed src="http://evil.example/e.swf"><noscript><img src="http://evil.example/ns.png"></noscript>
<form action="http://evil.example/post"><input type="image" src="http://evil.example/b.png">
<button formaction="javascript:alert(8)">go</button></form>
<svg><a xlink:href="javascript:alert(9)"><text>svg link</text></a>
<animate attributeName="href" to="javascript:alert(10)"/>
<image href="http://evil.example/svg.png"/><style>x{}<img src=x onerror=alert(11)></style></svg>
<table background="http://evil.example/t.png"><tr><td>cell</td></tr></table>
<video poster="http://evil.example/v.png"><source src="http://evil.example/v.mp4"></video>
<math><mi xlink:href="javascript:alert(12)">m</mi></math>
</div><meta http-equiv="refresh" content="1"><base href="//evil.example/"></body></html>"""


def _hostile_view() -> str:
    pages = [Page("http://blog.example/a/", HOSTILE), Page(None, b"<body><div id=post><p>other</p></div></body>")]
    return paint_page(pages[0], extract_site(pages)[0], "hostile", "a.html")


def _tree(html_text: str) -> etree._Element:
    root = parse_html(html_text)
    assert root is not None
    return root


def test_sanitizer_removes_every_script_vector() -> None:
    view = _hostile_view()
    low = view.lower()
    for needle in ("<script", "javascript", "alert(", "<iframe", "<object", "<embed", "<base", "<link", "refresh"):
        assert needle not in low, needle
    assert "url(" not in low and "@import" not in low
    root = _tree(view)
    # An escaped "u\\72l(" loses its escape and stays as inert text in CSS; nowhere else may the host appear.
    for style in root.iter("style"):
        style.text = ""
    assert "evil.example" not in etree.tostring(root, encoding="unicode")
    for el in root.iter():
        for name, value in el.attrib.items():
            assert not name.lower().startswith("on"), (el.tag, name)
            assert name.lower() not in ("srcset", "action", "formaction", "ping", "target", "poster", "background")
            if name == "src":
                assert value.startswith("data:image/"), value
            if name == "href":
                assert re.match(r"(https?://|mailto:|#|\.\./index\.html|index\.html)", value), value
    assert {a.get("href") for a in root.iter("a")} >= {"http://ok.example/", "#frag"}
    for kept in ("Post text", "styled", "svg link", "cell", ">go<"):  # the content stays
        assert kept in view, kept


def test_csp_is_first_in_head_and_charset_utf8() -> None:
    root = _tree(_hostile_view())
    head = root.find("head")
    assert head is not None
    first, second = head[0], head[1]
    assert first.get("http-equiv") == "Content-Security-Policy" and first.get("content") == CSP
    assert "default-src 'none'" in CSP and "img-src data:" in CSP
    assert second.get("charset") == "utf-8"
    assert [m.get("http-equiv") for m in root.iter("meta")].count("Content-Security-Policy") == 1


@pytest.mark.parametrize(
    "css",
    [
        "a{background:url(http://x/y)}",
        "a{background:URL ( 'http://x/y' )}",
        "a{background:u\\72 l(http://x/y)}",
        "a{background:u\\000072l(http://x/y)}",
        "a{background:ur/**/l(http://x/y)}",
        "@import 'http://x/y.css';",
        "a{background:image-set('http://x/y' 1x)}",
        "a{background:-webkit-image-set(url(http://x/y) 1x)}",
        "@font-face{src:local(x),url(http://x/f.woff)}",
    ],
)
def test_css_cannot_fetch(css: str) -> None:
    clean = sanitize_css(css).lower()
    assert "url(" not in clean and "@import" not in clean and "image-set(" not in clean and "\\7" not in clean


def test_css_cannot_open_markup() -> None:
    assert "<" not in sanitize_css("x{}</style><img src=x onerror=alert(1)>")


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("javascript:alert(1)", None),
        (" java\nscript:alert(1)", None),
        ("vbscript:x", None),
        ("data:text/html,x", None),
        ("/relative/path", "http://blog.example/relative/path"),
        ("https://ok.example/", "https://ok.example/"),
        ("mailto:a@b.example", "mailto:a@b.example"),
        ("#c", "#c"),
    ],
)
def test_safe_link(href: str, expected: str | None) -> None:
    assert safe_link(href, "http://blog.example/a/") == expected


def test_indexed_path_spellings_agree() -> None:
    assert indexed_path("/html/body/div[2]/p") == indexed_path("/html[1]/body[1]/div[2]/p[1]")


# A small synthetic site: the same template, different posts; comments on two pages of three.
def _page(n: int, comments: list[str]) -> Page:
    cmts = "".join(f'<div class="comment"><p>{c}</p></div>' for c in comments)
    body = (
        f'<html><body><div id="nav"><a href="/">Home</a> <a href="/about">About</a></div>'
        f'<div id="post"><h1>Title {n}</h1><p>Post {n} first paragraph about topic {n * 7}.</p>'
        f"<p>Post {n} second paragraph, different words {n * 13}.</p></div>"
        f'<div id="comments">{cmts}</div><div id="footer">Copyright the author</div></body></html>'
    )
    return Page(f"http://blog.example/{n}/", body.encode())


SYNTH = [
    _page(1, ["First reader says hello", "Second reader disagrees strongly"]),
    _page(2, []),
    _page(3, ["A third reader asks a question"]),
]


@pytest.fixture(scope="module")
def synth() -> ReportSite:
    return site_from_pages("synthetic", [f"{i}.html" for i in (1, 2, 3)], SYNTH, DEFAULT)


def test_painted_blocks_carry_the_extraction_roles(synth: ReportSite) -> None:
    for rp in synth.pages:
        view = paint_page(rp.page, rp.extraction, synth.name, rp.label)
        root = _tree(view)
        by_path = {indexed_path(root.getroottree().getpath(el)): el for el in root.iter()}
        for block in rp.extraction.blocks:
            el = by_path[indexed_path(block.xpath)]
            assert el.get("data-role") == block.role
            assert el.get("data-ident") == block.identifier
            assert block.identifier in el.get("title", "") and block.xpath in el.get("title", "")
            assert f"xr-{block.role}" in el.get("class", "") or block.role == BOILERPLATE
        texts = {r: " ".join(el.xpath("string()") for el in root.xpath(f'//*[@data-role="{r}"]')) for r in ROLES}
        assert f"Post {SYNTH.index(rp.page) + 1} first paragraph" in texts[POST]
        for comment in rp.extraction.comments:
            assert comment in texts[COMMENT]
    first = synth.pages[0].extraction
    assert first.comments == ["First reader says hello", "Second reader disagrees strongly"]
    assert synth.pages[1].extraction.comments == []


def test_boilerplate_dimmed_but_not_content_holders(synth: ReportSite) -> None:
    rp = synth.pages[0]
    root = _tree(paint_page(rp.page, rp.extraction))
    nav = root.xpath('//*[@id="nav"]')[0]
    body = root.find("body")
    assert body is not None
    assert "xr-boilerplate" in nav.get("class") and body.get("data-role") == BOILERPLATE
    assert "xr-holder" in body.get("class")  # dimming the body would dim the post too (opacity inherits)
    legend = root.xpath('//*[@id="xr-legend"]')[0]
    assert "post: " in legend.xpath("string()") and legend.xpath(".//a/@href") == ["index.html"]


def test_index_figures_add_up(synth: ReportSite) -> None:
    check = "4 art., count 0.56, F1 0.98"  # store.query.sites' wording, shown as it is
    site = ReportSite(synth.name, synth.pages, profile_version="v7", comment_feed_check=check)
    total = site_figures(site)
    parts = [page_figures(p) for p in site.pages]
    assert total.pages == 3 == sum(p.pages for p in parts)
    assert total.total_blocks == sum(len(p.extraction.blocks) for p in site.pages)
    assert total.total_blocks == sum(total.blocks[r] for r in ROLES)
    assert total.comments == 3 == sum(len(p.extraction.comments) for p in site.pages)
    assert total.total_chars == sum(len(b.text) for p in site.pages for b in p.extraction.blocks)
    assert sum(total.block_share(r) for r in ROLES) == pytest.approx(1.0)
    assert sum(total.char_share(r) for r in ROLES) == pytest.approx(1.0)
    assert total.blocks[COMMENT] == sum(p.blocks[COMMENT] for p in parts) >= 3
    index = index_html([site])
    assert "v7" in index and f"<td>{check}</td>" in index and f">{total.total_blocks}<" in index
    assert "comment-feed check (articles, count exactness, token F1)" in index


def test_error_pages_are_counted_and_shown(tmp_path: Path) -> None:
    pages = [*SYNTH, Page("http://blog.example/empty/", b"")]
    site = site_from_pages("with-error", ["1", "2", "3", "empty"], pages, DEFAULT)
    figures = site_figures(site)
    assert figures.pages == 4 and figures.errors == 1 and figures.warnings["error: empty page"] == 1
    write_report([site], tmp_path)
    view = next(tmp_path.glob("*/0003-*.html")).read_text(encoding="utf-8")
    assert "Not extracted" in view and "empty page" in view and CSP in view


def test_no_comment_page_shares_are_zero_not_errors() -> None:
    empty = page_figures(PageExtraction(None))
    assert empty.total_blocks == 0 and empty.block_share(POST) == 0.0 and empty.char_share(COMMENT) == 0.0


def test_cli_report_files_writes_index_and_views(tmp_path: Path) -> None:
    files = []
    for n, page in enumerate(SYNTH, 1):
        path = tmp_path / "pages" / f"{n}.html"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(page.body)
        files.append(str(path))
    out = tmp_path / "report"
    assert main(["report", *files, "--out", str(out), "--preset", "paper"]) == 0
    views = sorted(out.glob("*/*.html"))
    assert (out / "index.html").is_file() and len(views) == 3
    index = (out / "index.html").read_text(encoding="utf-8")
    for view in views:
        assert view.relative_to(out).as_posix() in index
        text = view.read_text(encoding="utf-8")
        assert '<meta charset="utf-8">' in text and 'data-role="post"' in text and "../index.html" in text


def test_cli_report_needs_input(tmp_path: Path) -> None:
    assert main(["report", "--out", str(tmp_path)]) == 2
    with pytest.raises(SystemExit):
        main(["report", "x.html"])  # --out is required
    with pytest.raises(SystemExit) as missing:
        main(["report", str(tmp_path / "no-such.html"), "--out", str(tmp_path / "r")])
    assert missing.value.code == 2 and not (tmp_path / "r").exists()


def test_cli_report_corpus_site_non_ascii_stays_utf8(corpus_root: Path, tmp_path: Path) -> None:
    assert main(["report", "--corpus", str(corpus_root), "--site", "tt21", "--out", str(tmp_path)]) == 0
    views = list(tmp_path.glob("*/*.html"))
    assert len(views) == 30
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "wordpress/tt21" in index and "pages/22.html" in index
    text = next(v for v in views if v.name.endswith("-22.html")).read_text(encoding="utf-8")
    assert "€" in text or "’" in text  # decoded text written back as UTF-8
    assert text.count('data-role="comment"') >= 3


def test_report_page_api_accepts_store_rows() -> None:
    """The store builds ReportPage/ReportSite itself: headers and URL pass through to decoding and links."""
    body = "<html><body><p>caf\u00e9 <a href='/x'>x</a></p></body></html>".encode("latin-1")
    page = Page("http://blog.example/p/", body, {"Content-Type": "text/html; charset=iso-8859-1"})
    extraction = extract_site([page, Page(None, b"<body><p>other</p></body>")])[0]
    site = ReportSite("store", [ReportPage("http://blog.example/p/", page, extraction)], profile_version=3)
    view = paint_page(page, extraction, site.name, site.pages[0].label)
    assert "caf\u00e9" in view and 'href="http://blog.example/x"' in view


def test_every_comment_record_is_painted_as_a_comment(corpus_root: Path, tmp_path: Path) -> None:
    """Short comments repeated across pages ("Well done!") are boilerplate blocks, yet comments: painted so."""
    site = sites_from_corpus(corpus_root, DEFAULT, sites=["tt21"])[0]
    write_report([site], tmp_path)
    repainted = 0
    hover = []  # every page's blocks painted other than classified, boilerplate blocks among them
    for index, rp in enumerate(site.pages):
        root = _tree((tmp_path / page_file(0, site, index, rp)).read_text(encoding="utf-8"))
        hover += root.xpath('//*[contains(@title, "(block classified boilerplate)")]')
        painted = [" ".join(el.xpath("string()").split()) for el in root.xpath('//*[@data-role="comment"]')]
        for record in rp.extraction.comment_records:
            for line in filter(None, (" ".join(x.split()) for x in record.text.split("\n"))):
                assert any(line in p for p in painted), (rp.label, line)
        assert not rp.notes, rp.notes
        repainted += sum(1 for r, b in zip(rp.roles, rp.extraction.blocks, strict=True) if r != b.role)
        assert page_figures(rp).comments == len(rp.extraction.comment_records)
    assert repainted >= 3
    assert hover and all(el.get("data-role") == COMMENT for el in hover)


def test_comment_blocks_follow_page_order_and_say_what_is_missing() -> None:
    blocks = [
        BlockResult(i, "p", f"/html/body/p[{i + 1}]", "p", role, text)
        for i, (role, text) in enumerate(
            [
                (POST, "Thanks!"),  # a post line is never a comment's
                (COMMENT, "Ann says:"),
                (BOILERPLATE, "Thanks!"),
                (COMMENT, "Bob says:"),
                (BOILERPLATE, "Thanks!"),
                (COMMENT, "Great post."),
                (BOILERPLATE, "Reply"),
                (COMMENT, "Second paragraph"),
            ]
        )
    ]
    assert comment_blocks(blocks, ["Thanks!", "Thanks!"]) == ({2, 4}, 0)
    assert comment_blocks(blocks, ["Great post.\nSecond paragraph", "Thanks!"]) == ({5, 7, 2}, 0)
    assert comment_blocks(blocks, ["Thanks!", "Thanks!", "Thanks!", "Never written"]) == ({2, 4}, 2)
    page = ReportPage("p.html", Page(None, b"<p>x</p>"), PageExtraction(None, blocks=blocks), stored_comments=["Nope"])
    assert page.notes and page.notes[0].startswith(NOTE_NOT_FOUND) and "1 of 1" in page.notes[0]
    assert page_figures(page).comments == 1 and page_figures(page).warnings[NOTE_NOT_FOUND] == 1


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://h/2024/%E6%97%A5%E8%A8%98-1/", "http://h/2024/日記-1/"),
        ("http://h/%e3%81%82?q=%E3%81%84", "http://h/あ?q=い"),
        ("http://h/a%2Fb%20c%3F/", "http://h/a%2Fb%20c%3F/"),  # escaped ASCII keeps its escape
        ("http://h/%83%65%83%58%83%67/", "http://h/%83%65%83%58%83%67/"),  # Shift_JIS bytes: not UTF-8, kept
        ("http://h/%E2%80%AEevil/", "http://h/%E2%80%AEevil/"),  # a bidi override stays visible as an escape
        ("http://h/%E6%97", "http://h/%E6%97"),  # cut in the middle of a character
    ],
)
def test_display_url(url: str, shown: str) -> None:
    assert display_url(url) == shown


def test_index_lists_pages_by_title_and_readable_address(tmp_path: Path) -> None:
    url = "http://blog.example/2024/%E6%97%A5%E8%A8%98-1/"
    body = "<html><head><title>日記 その1 | のんびり日記</title></head><body><p>本文です。</p></body></html>"
    pages = [Page(url, body.encode()), Page(None, "<body><p>別の本文</p></body>".encode())]
    extraction = extract_site(pages)[0]
    titled = ReportPage(url, pages[0], extraction, title="日記 その1")
    untitled = ReportPage(url, pages[0], extraction)  # falls back to the page's own <title>
    plain = ReportPage("saved/page.html", Page(None, b"<p>no title</p>"), PageExtraction(None))
    index = _tree(index_html([ReportSite("ja", [titled, untitled, plain])]))
    cells = index.xpath('//td[@class="page"]')
    titles = [c.xpath("string((.//a)[1])") for c in cells]
    assert titles == ["日記 その1", "日記 その1 | のんびり日記", "saved/page.html"]
    assert cells[0].xpath("(.//a)[2]/@href") == [url]  # the link keeps the URL as fetched
    assert cells[0].xpath("string((.//a)[2])") == "http://blog.example/2024/日記-1/"
    assert len(cells[2].xpath(".//a")) == 1  # a file label is no link
    write_report([ReportSite("ja", [titled])], tmp_path)
    view = next(tmp_path.glob("*/*.html")).read_text(encoding="utf-8")
    assert "日記 その1" in view and "http://blog.example/2024/日記-1/" in view  # the legend too
