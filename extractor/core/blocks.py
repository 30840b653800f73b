"""Steps 2-3: a page as a list of blocks, each with its feature vector.

    >>> from extractor.core.blocks import parse_blocks
    >>> [b.tag for b in parse_blocks("<body><div><p>Hello <b>world</b></p></div></body>")]
    ['body', 'div', 'p']

ExtractUniqueBlock 2009 §3.2.2: every block-level element is a block holding its own content minus
nested block-level elements; BODY counts. §3.2.3: the vector counts the tag names in the block, its
text lines (stripped, lower-cased, blank lines dropped) and its title/alt/src attribute values.

The whole page is read in one iterative pass (``etree.iterwalk``), so 100,000 nested divs cost no
recursion and per-node Python work stays at a few attribute reads: block building dominated the
faithful implementation's run time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from lxml import etree

# The block-level elements (one place, with the reason).
# HTML 4.01 §7.5.3 lists the block-level elements of %block and %flow: P, H1-H6, UL, OL, DIR, MENU,
# PRE, DL, DIV, CENTER, NOSCRIPT, NOFRAMES, BLOCKQUOTE, FORM, ISINDEX, HR, TABLE, FIELDSET, ADDRESS;
# plus the elements the paper's examples treat as blocks because they start a new line box: BODY,
# LI, DD, DT, table rows and cells (TR, TD, TH, and the row groups THEAD/TBODY/TFOOT, CAPTION).
# HTML5 adds sectioning and grouping elements that blogs use as containers: ARTICLE, SECTION, NAV,
# ASIDE, HEADER, FOOTER, MAIN, FIGURE, FIGCAPTION, DETAILS, SUMMARY, HGROUP, DIALOG, SEARCH.
# NOSCRIPT is listed by HTML 4.01 but its content is excluded below, like SCRIPT/STYLE/TEMPLATE.
BLOCK_TAGS: frozenset[str] = frozenset(
    [
        "address",
        "blockquote",
        "body",
        "center",
        "dir",
        "div",
        "dl",
        "fieldset",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "isindex",
        "menu",
        "noframes",
        "ol",
        "p",
        "pre",
        "table",
        "ul",
        "li",
        "dd",
        "dt",
        "tr",
        "td",
        "th",
        "thead",
        "tbody",
        "tfoot",
        "caption",
        "article",
        "section",
        "nav",
        "aside",
        "header",
        "footer",
        "main",
        "figure",
        "figcaption",
        "details",
        "summary",
        "hgroup",
        "dialog",
        "search",
        "legend",
    ]
)
# Headings: a post title, a comment section's "N comments" heading.
HEADINGS: frozenset[str] = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
# Excluded with their content (§3.2.2 excludes SCRIPT and STYLE; the others hold no visible text).
EXCLUDED_TAGS: tuple[str, ...] = ("script", "style", "noscript", "template")
EXCLUDED: frozenset[str] = frozenset(EXCLUDED_TAGS)
# Attributes whose values are block features (§3.2.3).
FEATURE_ATTRS: frozenset[str] = frozenset(("title", "alt", "src"))

# Feature keys are strings in three namespaces that cannot collide with a text line (which never
# holds a newline): "\n<tag", "\n@value"; text lines are the bare lower-cased line.
TAG_PREFIX = "\n<"
ATTR_PREFIX = "\n@"


@dataclass(slots=True, eq=False)
class Block:
    """One block of one page, with its measures."""

    index: int  # preorder position in the page
    tag: str
    parent: int  # index of the enclosing block, -1 for the outermost
    prev_sibling: int  # index of the previous block with the same parent, -1 if none
    element_id: str | None = None
    element_class: str | None = None
    xpath: str = ""
    text: str = ""  # the block's own text, one line per line, blank lines dropped
    text_chars: int = 0
    link_chars: int = 0
    tags: dict[str, int] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    attrs: dict[str, int] = field(default_factory=dict)
    # <time datetime> values, for comment dates (a tuple: most blocks have none, and an empty
    # tuple is shared and invisible to the garbage collector).
    datetimes: tuple[str, ...] = ()
    # the element's aria-label, itemtype and itemprop values, space-joined (None without any): what
    # the page says a region is, read as comment-section vocabulary (evidence.py), never a feature
    element_label: str | None = None

    @property
    def link_density(self) -> float:
        return self.link_chars / self.text_chars if self.text_chars else 0.0

    @property
    def has_text(self) -> bool:
        return bool(self.text)


BLOCK_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Block))


def parse_html(text: str, utf8: bytes | None = None) -> etree._Element | None:
    """Parse text with lxml's HTML parser; None when nothing parseable remains.

    lxml parses UTF-8 bytes faster than a str: ``utf8``, when given, is ``text`` in UTF-8 (the
    fetched bytes themselves, for most pages); else the text is encoded once.
    """
    data = utf8 if utf8 is not None else text.encode("utf-8", "surrogatepass")
    if not data or data.isspace():
        return None
    # collect_ids=False: libxml2 need not index id attributes (nothing here looks them up; 6 % of
    # parse time)
    parser = etree.HTMLParser(
        remove_comments=True, remove_pis=True, no_network=True, huge_tree=True, encoding="utf-8", collect_ids=False
    )
    try:
        return etree.fromstring(data, parser)
    except (etree.ParserError, ValueError):
        return None


def _finish(block: Block, text: str, tags: dict[str, int], link_chars: int) -> None:
    """A block's measures from its own text (block boundaries and BRs as newlines) and tags."""
    block.tags = tags
    if not text or text.isspace():
        return
    kept = [line for line in (" ".join(raw.split()) for raw in text.split("\n")) if line]
    lines: dict[str, int] = {}
    for line in kept:
        low = line.lower()
        lines[low] = lines.get(low, 0) + 1
    block.lines = lines
    block.text = "\n".join(kept)
    block.text_chars = chars = len(block.text) - len(kept) + 1
    block.link_chars = min(link_chars, chars)


class _XPaths:
    """XPaths of block elements, numbered as the walk meets them in document order.

    lxml's ``getpath`` counts an element's preceding siblings (and ``len()`` walks the children),
    so 100,000 sibling blocks would cost O(n^2). Blocks are numbered here per parent and tag
    instead (every sibling with a block tag is itself a block, so the count is the XPath
    position), and the paths are written once the walk knows each parent's totals, in getpath's
    form: no position when the tag is alone among its siblings.
    """

    def __init__(self, getpath: Callable[[etree._Element], str]) -> None:
        self.getpath = getpath
        self.seen: list[tuple[etree._Element, etree._Element | None, str, int]] = []
        self.counts: dict[etree._Element, dict[str, int]] = {}

    def add(self, el: etree._Element, tag: str) -> None:
        parent = el.getparent()
        n = 0
        if parent is not None:
            counts = self.counts.get(parent)
            if counts is None:
                counts = self.counts[parent] = {}
            n = counts[tag] = counts.get(tag, 0) + 1
        self.seen.append((el, parent, tag, n))

    def paths(self) -> list[str]:
        """The XPath of every added element, in the order added."""
        known: dict[etree._Element, str] = {}
        sibs: dict[etree._Element, tuple[int, int]] = {}
        out: list[str] = []
        for el, parent, tag, n in self.seen:
            if parent is None or not out:  # the walk's start: its siblings were not counted (two bodies)
                path = self.getpath(el)
            else:
                base = known.get(parent)
                if base is None:
                    base = known[parent] = self._inline_path(parent, known, sibs)
                path = f"{base}/{tag}" if self.counts[parent][tag] == 1 else f"{base}/{tag}[{n}]"
            known[el] = path
            out.append(path)
        return out

    def _inline_path(
        self, el: etree._Element, known: dict[etree._Element, str], sibs: dict[etree._Element, tuple[int, int]]
    ) -> str:
        """The path of a non-block element: the nearest known ancestor's and a step per element
        between (getpath counts each element's preceding siblings: quadratic for 50,000 inline
        wrappers side by side; here each parent's children are counted once)."""
        steps = []
        node: etree._Element | None = el
        while node is not None and node not in known:
            parent = node.getparent()
            if parent is None:
                return self.getpath(el)
            if node not in sibs:
                counts: dict[str, int] = {}
                order = []
                for child in parent:
                    if isinstance(child.tag, str):
                        counts[child.tag] = counts.get(child.tag, 0) + 1
                        order.append((child, counts[child.tag]))
                for child, k in order:
                    sibs[child] = (k, counts[child.tag])
            k, total = sibs[node]
            steps.append(f"/{node.tag}" if total == 1 else f"/{node.tag}[{k}]")
            node = parent
        if node is None:
            return self.getpath(el)
        return known[node] + "".join(reversed(steps))


def blocks_of(root: etree._Element, block_class: type[Block] = Block) -> list[Block]:
    """All blocks of a parsed page in preorder; the body (or the root) is always block 0.

    ``block_class`` is the class of blocks made (the compiled one where the other blocks of the run
    are compiled, speedups.py).
    """
    body = root.find("body")
    if body is None:
        body = root
    return _walk_python(body, block_class)


def _counts(tags: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for tag in tags:
        counts[tag] = counts.get(tag, 0) + 1
    return counts


def _walk_python(body: etree._Element, block_class: type[Block] = Block) -> list[Block]:
    """The reference walk (pure Python; modifies the tree: BR tails gain a newline).

    Excluded elements (SCRIPT, STYLE, NOSCRIPT, TEMPLATE) are skipped with their content; their
    tails stay in place, as separate text pieces (as the compiled reader reads them).
    """
    for br in body.iter("br"):  # a line break ends a text line (§3.2.3 splits on lines)
        br.tail = "\n" + br.tail if br.tail else "\n"
    xpaths = _XPaths(body.getroottree().getpath)
    block_tags = BLOCK_TAGS
    blocks: list[Block] = []
    owner: dict[etree._Element, Block] = {}
    # The walk does the least per element: tag name, text, tail, anchor depth. Attribute values
    # (rare) are gathered afterwards in bulk (_attach_attributes).
    stack: list[tuple[Block, list[str], list[str], int, int]] = []
    block: Block | None = None
    parts: list[str] = []
    tags: list[str] = []
    link_chars = 0
    link_depth = 0
    last_child = -1  # latest child block of the current block
    walker = etree.iterwalk(body, events=("start", "end"))
    for event, el in walker:
        tag = el.tag
        if event == "start":
            if type(tag) is not str:  # comments and PIs are removed by the parser
                continue
            if tag in EXCLUDED and block is not None:
                walker.skip_subtree()
                continue
            if block is None or tag in block_tags:
                parent = block.index if block is not None else -1
                new = block_class(len(blocks), tag, parent, last_child, el.get("id"), el.get("class"))
                if el.attrib:
                    new.element_label = _label(el)
                xpaths.add(el, tag)
                owner[el] = new
                if block is not None:
                    parts.append("\n")
                    stack.append((block, parts, tags, link_chars, len(blocks)))
                blocks.append(new)
                block, parts, tags, link_chars, last_child = new, [], [], 0, -1
            tags.append(tag)
            if tag == "a":
                link_depth += 1
            text = el.text
            if text:
                parts.append(text)
                if link_depth:
                    link_chars += len(text.strip())
            continue
        if tag == "a" and link_depth:
            link_depth -= 1
        if el is body:
            break
        if tag in block_tags:
            assert block is not None
            _finish(block, "".join(parts), _counts(tags), link_chars)
            block, parts, tags, link_chars, last_child = stack.pop()
            parts.append("\n")
        tail = el.tail
        if tail:
            parts.append(tail)
            if link_depth:
                link_chars += len(tail.strip())
    if block is not None:
        _finish(block, "".join(parts), _counts(tags), link_chars)
    while stack:  # only when the walk stopped early
        b, p, t, lc, _ = stack.pop()
        _finish(b, "".join(p), _counts(t), lc)
    for block, path in zip(blocks, xpaths.paths(), strict=True):
        block.xpath = path
    _attach_attributes(body, owner)
    return blocks


_FEATURE_ATTR_XPATH = etree.XPath(
    "(.//@title|.//@alt|.//@src|.//@datetime)"
    "[not(ancestor::script or ancestor::style or ancestor::noscript or ancestor::template)]"
    "|self::*/@title|self::*/@alt|self::*/@src|self::*/@datetime"
)


LABEL_ATTRS: tuple[str, ...] = ("aria-label", "itemtype", "itemprop")


def _label(el: etree._Element) -> str | None:
    """The element's ``LABEL_ATTRS`` values in attribute order, space-joined (None without any)."""
    values = [str(v) for k, v in el.attrib.items() if k in LABEL_ATTRS]
    return " ".join(values) if values else None


def _owner_of(el: etree._Element | None, owner: dict[etree._Element, Block]) -> Block | None:
    node: etree._Element | None = el
    while node is not None:
        block = owner.get(node)
        if block is not None:
            return block
        node = node.getparent()
    return None


def _attach_attributes(body: etree._Element, owner: dict[etree._Element, Block]) -> None:
    """title/alt/src values (§3.2.3) counted on the block that holds their element.

    ``datetime`` values (of ``<time>``) are kept apart: they are not features, but date comments.
    """
    found: Any = _FEATURE_ATTR_XPATH(body)
    for attr in found:
        value = str(attr).strip()
        if value:
            block = _owner_of(attr.getparent(), owner)
            if block is None:
                continue
            if attr.attrname == "datetime":
                block.datetimes += (value,)
            else:
                block.attrs[value] = block.attrs.get(value, 0) + 1


def reader_bytes(text: str, utf8: bytes | None = None) -> bytes:
    """The UTF-8 bytes the streaming reader parses: the page's own when they are exactly ``text``."""
    return utf8 if utf8 is not None else text.encode("utf-8", "surrogatepass")


def parse_blocks(text: str, cache: dict[Any, Any] | None = None, utf8: bytes | None = None) -> list[Block]:
    """Decoded HTML text to blocks (empty list when the page has no parseable content); ``utf8``
    as for ``parse_html``.

    The Python form: parse a tree and walk it. ``speedups.parse_blocks`` is the form extraction
    uses (compiled when built; ``cache``, a set's or a profile's, lets its pages share the measures
    of the block texts they repeat).
    """
    root = parse_html(text, utf8)
    return [] if root is None else blocks_of(root)
