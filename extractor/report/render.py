"""One page of the report: the page itself, made inert, with its blocks painted by role.

    >>> from extractor import Page, extract_site
    >>> pages = [Page(None, b"<body><div id=nav>Home</div><p>Post %d</p></body>" % i) for i in range(2)]
    >>> html = paint_page(pages[0], extract_site(pages)[0])
    >>> 'data-role="post"' in html and "<script" not in html
    True

Painting follows the 2013 paper's Fig. 6: post blocks dashed, comment blocks solid. Blocks are found
by the XPath the extraction recorded, in a fresh parse by the same parser (``blocks.parse_html``),
before anything is removed, so positions still match.

Safety: the page is reduced to inert markup. Elements that run code, load documents or change the
page's base are dropped; attributes are kept only from an allow-list (no ``on*``, no ``srcset``); link
targets must be http(s), mailto or a fragment; images lose their source (a data: placeholder); CSS
loses every ``url()``-like function and ``@import``. A strict Content-Security-Policy is the first
element of HEAD as a second line of defence.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Sequence
from urllib.parse import quote, urljoin

from lxml import etree

from extractor.core.blocks import parse_html
from extractor.core.decode import decode_html
from extractor.core.roles import BOILERPLATE, COMMENT, POST
from extractor.separation.method import MAX_PAGE_BYTES, BlockResult, Page, PageExtraction

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'"
# Unique outline colours, so a screenshot can be checked pixel by pixel.
POST_COLOUR = "#e6007e"
COMMENT_COLOUR = "#00a0e9"
PLACEHOLDER_IMG = "data:image/gif;base64,R0lGODlhAQABAIAAAMzMzAAAACH5BAAAAAAALAAAAAABAAEAAAICRAEAOw=="

# Dropped with their content: code, embedded documents, base/refresh/preload, raw-text elements
# that libxml2 and browsers parse differently, and SVG elements that can set or pull in URLs.
DROP_TAGS: tuple[str, ...] = (
    "script", "noscript", "template", "iframe", "frame", "frameset", "object", "applet",
    "base", "link", "meta", "portal", "fencedframe", "xmp", "noembed", "noframes", "plaintext", "listing",
    "animate", "animatemotion", "animatetransform", "set", "use", "foreignobject", "handler", "listener",
)  # fmt: skip
UNWRAP_TAGS: tuple[str, ...] = ("embed", "param")
SAFE_ATTRS: frozenset[str] = frozenset((
    "id", "class", "style", "title", "lang", "dir", "role", "hidden", "align", "valign", "width", "height",
    "border", "bgcolor", "color", "face", "size", "colspan", "rowspan", "headers", "scope", "cellpadding",
    "cellspacing", "nowrap", "start", "reversed", "type", "value", "datetime", "alt", "abbr", "span", "open",
    "label", "placeholder", "rows", "cols", "checked", "selected", "disabled", "readonly", "multiple", "for",
    "name", "maxlength", "media",
))  # fmt: skip
# Presentation-only SVG attributes (lower-cased by the parser; browsers restore their case).
SVG_ATTRS: frozenset[str] = frozenset((
    "viewbox", "d", "fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit",
    "fill-rule", "clip-rule", "points", "cx", "cy", "r", "rx", "ry", "x", "y", "x1", "y1", "x2", "y2", "transform",
    "opacity", "fill-opacity", "stroke-opacity", "preserveaspectratio", "xmlns", "version", "focusable",
))  # fmt: skip
_LINK_TAGS = frozenset(("a", "area"))
_SAFE_SCHEME = re.compile(r"^(?:https?|mailto):", re.I)
_CONTROL = re.compile(r"[\x00-\x20\x7f]+")
_CSS_COMMENT = re.compile(r"/\*.*?(?:\*/|$)", re.S)
_CSS_ESCAPE = re.compile(r"\\(?:[0-9a-fA-F]{1,6}\s?|.|$)", re.S)
_CSS_URL = re.compile(r"""url\s*\(\s*(?:"[^"]*"|'[^']*'|[^)]*)\s*\)""", re.I)
# Any function that can fetch (url, image-set, image, cross-fade, element, src, IE's expression) and
# old binding hooks become an unknown name: the browser drops the whole declaration.
_CSS_FETCH = re.compile(
    r"(?:url|image-set|-webkit-image-set|image|cross-fade|-webkit-cross-fade|element|-moz-element|src|expression)\s*\("
    r"|@import|-moz-binding|(?<![-\w])behavior\s*:",
    re.I,
)


def sanitize_css(css: str) -> str:
    """CSS that loads nothing: comments and escapes (which could spell ``url``) go first."""
    css = _CSS_ESCAPE.sub("", _CSS_COMMENT.sub("", css))
    css = _CSS_URL.sub("x-blocked()", css)  # the address goes too, not just the function
    css = _CSS_FETCH.sub("x-blocked(", css)
    # "<" never matters to CSS outside strings; in SVG a <style> is parsed as markup, so none may stay.
    return css.replace("<", "\\3c ")


def safe_link(value: str, base_url: str | None) -> str | None:
    """An http(s)/mailto/fragment link, or None. Browsers ignore tabs/newlines in URLs, so we do too."""
    url = _CONTROL.sub("", value)
    if url.startswith("#"):
        return url
    if base_url and not _SAFE_SCHEME.match(url) and ":" not in url.split("/", 1)[0]:
        url = urljoin(base_url, url)
    return url if _SAFE_SCHEME.match(url) else None


def _clean_attributes(el: etree._Element, base_url: str | None) -> None:
    tag = el.tag
    for name in list(el.attrib):
        value = str(el.attrib[name])
        low = str(name).lower()
        if low == "href" and tag in _LINK_TAGS:
            link = safe_link(value, base_url)
            if link is None:
                del el.attrib[name]
            else:
                el.attrib[name] = link
        elif low == "src" and tag == "img":
            el.attrib[name] = PLACEHOLDER_IMG
        elif low == "style":
            el.attrib[name] = sanitize_css(value)
        elif not (low in SAFE_ATTRS or low in SVG_ATTRS or low.startswith("aria-")):
            del el.attrib[name]


def sanitize(root: etree._Element, base_url: str | None = None) -> None:
    """Make a parsed page inert in place (see the module docstring)."""
    # libxml2 (HTML 4) takes the void EMBED/PARAM for containers of what follows: keep that content.
    etree.strip_tags(root, *UNWRAP_TAGS)
    etree.strip_elements(root, *DROP_TAGS, with_tail=False)
    # In SVG/MathML a browser parses <style> as markup, libxml2 as raw text: the two must not disagree.
    for foreign in [*root.iter("svg"), *root.iter("math")]:
        etree.strip_elements(foreign, "style", with_tail=False)
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        _clean_attributes(el, base_url)
        if el.tag == "style" and el.text:
            el.text = sanitize_css(el.text)


def _head(root: etree._Element) -> etree._Element:
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    return head


def add_meta(root: etree._Element) -> None:
    """The CSP first (it applies only to what follows it), then the charset of the written file."""
    head = _head(root)
    head.insert(0, etree.Element("meta", {"charset": "utf-8"}))
    head.insert(0, etree.Element("meta", {"http-equiv": "Content-Security-Policy", "content": CSP}))


# ":not(#xr-x#xr-x)" lifts the rules above any page rule with up to two ids, !important or not.
_B = ":not(#xr-x#xr-x)"
REPORT_CSS = f"""
.xr-block.xr-post{_B} {{ outline: 3px dashed {POST_COLOUR} !important; outline-offset: -3px !important;
  background-color: rgba(230, 0, 126, 0.07) !important; }}
.xr-block.xr-comment{_B} {{ outline: 3px solid {COMMENT_COLOUR} !important; outline-offset: -3px !important;
  background-color: rgba(0, 160, 233, 0.09) !important; }}
.xr-block.xr-boilerplate{_B} {{ opacity: 0.35 !important; }}
#xr-legend {{ position: fixed !important; top: 8px !important; right: 8px !important; z-index: 2147483647 !important;
  width: 260px !important; box-sizing: border-box !important; padding: 8px 10px !important; margin: 0 !important;
  background: #fff !important; color: #111 !important; border: 1px solid #888 !important; opacity: 1 !important;
  font: 13px/1.4 sans-serif !important; text-align: left !important; box-shadow: 0 2px 6px rgba(0,0,0,.3) !important; }}
#xr-legend * {{ font: inherit !important; color: inherit !important; margin: 0 !important; padding: 0 !important;
  background: none !important; border: 0 !important; float: none !important; position: static !important; }}
#xr-legend a {{ color: #0645ad !important; text-decoration: underline !important; }}
#xr-legend .xr-swatch {{ display: inline-block !important; width: 28px !important; height: 12px !important;
  margin-right: 6px !important; vertical-align: middle !important; }}
#xr-legend .xr-swatch-post {{ border: 3px dashed {POST_COLOUR} !important; }}
#xr-legend .xr-swatch-comment {{ border: 3px solid {COMMENT_COLOUR} !important; }}
#xr-legend .xr-swatch-boilerplate {{ border: 3px solid #999 !important; opacity: 0.35 !important; }}
#xr-legend .xr-meta {{ color: #555 !important; word-break: break-all !important; }}
"""


def _ancestors_of_content(located: list[tuple[etree._Element, str]]) -> set[etree._Element]:
    """Elements holding a post or comment block: dimming them would dim the content too (opacity inherits)."""
    holders: set[etree._Element] = set()
    for el, role in located:
        if role == BOILERPLATE:
            continue
        for anc in el.iterancestors():
            if anc in holders:
                break
            holders.add(anc)
    return holders


_BARE_STEP = re.compile(r"/([^/\[\]]+)(?=/|$)")


def indexed_path(xpath: str) -> str:
    """``/html/body/div`` -> ``/html[1]/body[1]/div[1]``: one spelling for lxml's short and full forms."""
    return _BARE_STEP.sub(r"/\1[1]", xpath)


def _indexed_paths(root: etree._Element) -> dict[str, etree._Element]:
    """Every element by its fully indexed path, in one pass (getpath per element is quadratic in siblings)."""
    paths: dict[etree._Element, str] = {}
    counts: dict[etree._Element, dict[str, int]] = {}
    for el in root.iter():
        tag = el.tag
        if not isinstance(tag, str):
            continue
        parent = el.getparent()
        if parent is None or parent not in paths:
            paths[el] = indexed_path(el.getroottree().getpath(el))
            continue
        seen = counts.setdefault(parent, {})
        n = seen[tag] = seen.get(tag, 0) + 1
        paths[el] = f"{paths[parent]}/{tag}[{n}]"
    return {path: el for el, path in paths.items()}


def locate_blocks(root: etree._Element, extraction: PageExtraction) -> tuple[list[tuple[etree._Element, int]], int]:
    """Each block's element in a fresh parse (by its recorded XPath) with the block's position in
    ``extraction.blocks``, and how many blocks were not found."""
    by_path = _indexed_paths(root)
    located = []
    for position, block in enumerate(extraction.blocks):
        el = by_path.get(indexed_path(block.xpath))
        if el is not None and el.tag == block.tag:
            located.append((el, position))
    return located, len(extraction.blocks) - len(located)


def paint_blocks(
    root: etree._Element,
    located: list[tuple[etree._Element, int]],
    blocks: Sequence[BlockResult],
    roles: Sequence[str],
) -> dict[str, int]:
    """Mark the located blocks still in the page with role, identifier, hover title and class.

    ``roles`` (one per block) are the roles painted; where one differs from the block's own
    classification (a comment's short line that repeats across pages is boilerplate at block
    level) the hover says so.
    """
    kept = [(el, blocks[i], roles[i]) for el, i in located if el.getroottree().getroot() is root]
    holders = _ancestors_of_content([(el, role) for el, _b, role in kept])
    counts = {POST: 0, COMMENT: 0, BOILERPLATE: 0}
    for el, block, role in kept:
        counts[role] = counts.get(role, 0) + 1
        el.set("data-role", role)
        el.set("data-ident", block.identifier)
        shown = role if role == block.role else f"{role} (block classified {block.role})"
        el.set("title", f"{shown} · {block.identifier} · {block.xpath}")
        kind = role if role != BOILERPLATE or el not in holders else "holder"
        el.set("class", " ".join([*(el.get("class") or "").split(), "xr-block", f"xr-{kind}"]))
    return counts


_PERCENT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _decode_run(match: re.Match[str]) -> str:
    run = match.group(0)
    try:
        text = bytes.fromhex(run.replace("%", "")).decode("utf-8")
    except UnicodeDecodeError:
        return run  # not UTF-8 (a Shift_JIS path, say): shown as it is
    # Only letters and the like are decoded: an escaped "/", "?", "#", space or an invisible
    # character (bidi controls) keeps its escape, so what is shown cannot mislead.
    return "".join(
        ch if ord(ch) > 0x7F and unicodedata.category(ch)[0] not in "CZ" else quote(ch, safe="") for ch in text
    )


def display_url(url: str) -> str:
    """A URL for reading: percent-escapes of UTF-8 text decoded (links keep the URL itself).

    >>> display_url("http://h/2024/%E6%97%A5%E8%A8%98-1/?q=a%2Fb")
    'http://h/2024/日記-1/?q=a%2Fb'
    """
    return _PERCENT_RUN.sub(_decode_run, url)


def _legend(
    site: str, title: str, label: str, back_href: str, counts: dict[str, int], missing: int, notes: list[str]
) -> str:
    rows = [
        f'<p><a href="{html.escape(back_href)}">← report index</a></p>',
        f"<p><b>{html.escape(site)}</b></p>" if site else "",
        f"<p>{html.escape(title)}</p>" if title else "",
        f'<p class="xr-meta">{html.escape(display_url(label))}</p>',
        f'<p><span class="xr-swatch xr-swatch-post"></span>post: {counts.get(POST, 0)} blocks</p>',
        f'<p><span class="xr-swatch xr-swatch-comment"></span>comment: {counts.get(COMMENT, 0)} blocks</p>',
        f'<p><span class="xr-swatch xr-swatch-boilerplate"></span>boilerplate: {counts.get(BOILERPLATE, 0)} blocks</p>',
        "<p>Hover a block for its identifier and XPath.</p>",
    ]
    if missing:
        rows.append(f"<p>{missing} blocks not found in the page</p>")
    rows += [f'<p class="xr-meta">{html.escape(n)}</p>' for n in notes]
    return '<div id="xr-legend">' + "".join(rows) + "</div>"


def _fragment(markup: str) -> etree._Element:
    """Our own markup as an element (parsed, so escaping is the serializer's job)."""
    doc = etree.fromstring(markup.encode("utf-8"), etree.HTMLParser(encoding="utf-8"))
    found = doc.find("body/*")
    assert found is not None
    return found


def _serialize(root: etree._Element) -> str:
    text = etree.tostring(root.getroottree(), method="html", encoding="unicode")
    return text if text.lstrip().lower().startswith("<!doctype") else "<!DOCTYPE html>\n" + text


def page_root(page: Page) -> etree._Element | None:
    """The page parsed as the extractor parses it (None: nothing parseable)."""
    return parse_html(decode_html((page.body or b"")[:MAX_PAGE_BYTES], page.headers).text)


def document_title(page: Page) -> str | None:
    """The page's own ``<title>``, whitespace collapsed (None when it has none)."""
    root = page_root(page)
    found = root.find(".//title") if root is not None else None
    text = " ".join(str(found.xpath("string()")).split()) if found is not None else ""
    return text or None


def paint_page(
    page: Page,
    extraction: PageExtraction,
    site: str = "",
    label: str = "",
    back_href: str = "index.html",
    *,
    roles: Sequence[str] | None = None,
    notes: Sequence[str] = (),
    title: str | None = None,
) -> str:
    """The report view of one page: inert, painted, with a fixed legend. Returns the HTML text.

    ``roles`` (one per block of the extraction) override the blocks' own roles; ``notes`` are
    shown in the legend after the extraction's warnings.
    """
    label = label or page.url or ""
    all_notes = [*dict.fromkeys([*extraction.warnings, *notes])]
    root = page_root(page) if extraction.error is None else None
    if root is None:
        return error_page(site, label, back_href, extraction.error or "no parseable HTML", all_notes)
    # Locate before sanitizing (removals shift positions), paint after (the allow-list drops data-*).
    located, missing = locate_blocks(root, extraction)
    sanitize(root, page.url)
    painted = list(roles) if roles is not None else [b.role for b in extraction.blocks]
    counts = paint_blocks(root, located, extraction.blocks, painted)
    add_meta(root)
    style = etree.SubElement(_head(root), "style")
    style.text = REPORT_CSS
    body_el = root.find("body")
    if body_el is None:
        body_el = etree.SubElement(root, "body")
    body_el.append(_fragment(_legend(site, title or "", label, back_href, counts, missing, all_notes)))
    return _serialize(root)


def error_page(site: str, label: str, back_href: str, error: str, notes: list[str]) -> str:
    """A page that could not be extracted: its error instead of the page."""
    items = "".join(f"<li>{html.escape(n)}</li>" for n in notes)
    return (
        f'<!DOCTYPE html>\n<html><head><meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f'<meta charset="utf-8"><title>{html.escape(label)}</title></head><body>'
        f'<p><a href="{html.escape(back_href)}">← report index</a></p><h1>{html.escape(site)}</h1>'
        f"<p>{html.escape(display_url(label))}</p><p><b>Not extracted:</b> {html.escape(error)}</p>"
        f"<ul>{items}</ul></body></html>"
    )
