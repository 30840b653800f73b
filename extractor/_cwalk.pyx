# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled form of ``blocks.blocks_of`` (ExtractUniqueBlock 2009 §3.2.2-3.2.3).

The pure-Python walk spends most of its time in per-element Python work (two iterwalk events,
text and tail reads, tag lists), several times lxml's own parse time. This module walks the
libxml2 tree lxml built directly, through lxml's public C API (``lxml.includes.etreepublic``):
element names, text nodes and attributes are read from the C structures, each block's text is
gathered in a C buffer and decoded once. It produces exactly the blocks ``blocks._walk_python``
produces (tests/test_cwalk.py checks every corpus page and random trees), without modifying the
tree: SCRIPT/STYLE/NOSCRIPT/TEMPLATE subtrees are skipped instead of stripped, and a BR adds its
line break to the text instead of to its tail.
"""

from libc.string cimport strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree

from extractor._cblock cimport Block
from extractor._cbuild cimport (
    ATTR_CLASS,
    ATTR_DATETIME,
    ATTR_ID,
    ATTR_LABEL,
    ATTR_VALUE,
    KIND_BLOCK,
    KIND_BR,
    KIND_EXCLUDED,
    KIND_LINK,
    Level,
    Place,
    Slot,
    _add,
    _add_value,
    _attr_kind,
    _close_level,
    _count,
    _decode,
    _free_levels,
    _new_block,
    _push_level,
    _stripped_chars,
    _Tables,
)

cetree.import_lxml__etree()


cdef str _attr_value(tree.xmlAttr* attr):
    # An attribute's value is the concatenation of its text children (lxml's .get()).
    cdef tree.xmlNode* c = attr.children
    if c == NULL:
        return ""
    if c.next == NULL and c.content != NULL:
        return _decode(<const char*>c.content, strlen(<const char*>c.content))
    parts = []
    while c != NULL:
        if c.content != NULL:
            parts.append(_decode(<const char*>c.content, strlen(<const char*>c.content)))
        c = c.next
    return "".join(parts)


cdef inline bint _is_text(tree.xmlNode* n) noexcept:
    return n.type == tree.XML_TEXT_NODE or n.type == tree.XML_CDATA_SECTION_NODE



def walk(
    cetree._Element start,
    frozenset block_tags,
    frozenset excluded,
    object getpath,
    dict texts=None,
):
    """Blocks of the subtree at ``start`` in preorder (``start`` is always block 0).

    Each block is measured as ``blocks._finish`` measures it;
    ``getpath`` (the tree's) gives the XPath of ``start`` and of
    non-block parents of blocks.
    """
    cdef tree.xmlNode* top = start._c_node
    cdef tree.xmlNode* node = top
    cdef tree.xmlNode* nxt
    cdef tree.xmlAttr* attr
    cdef Level* levels = NULL
    cdef Level* lv
    cdef Py_ssize_t depth = -1, cap = 0, link_depth = 0, n, i, tid
    cdef bint descend
    cdef int kind, akind
    cdef Slot* slot
    cdef _Tables tables = _Tables(block_tags, excluded)
    cdef list tag_list = tables.tag_list
    cdef list blocks = []
    cdef str tag
    cdef Block block
    cdef object block_id, block_class, label
    try:
        while True:
            # start of ``node`` (an element)
            descend = False
            slot = tables.name(node.name)
            tid = slot.value
            kind = slot.kind
            tag = <str>tag_list[tid]
            if not (kind & KIND_EXCLUDED) or node is top:
                if depth < 0 or (kind & KIND_BLOCK):
                    block_id = block_class = label = None
                    attr = node.properties
                    while attr != NULL:
                        akind = _attr_kind(<const char*>attr.name)
                        if akind == ATTR_ID and block_id is None:
                            block_id = _attr_value(attr)
                        elif akind == ATTR_CLASS and block_class is None:
                            block_class = _attr_value(attr)
                        elif akind == ATTR_LABEL:
                            label = _attr_value(attr) if label is None else label + " " + _attr_value(attr)
                        attr = attr.next
                    i = len(blocks)
                    if depth >= 0:
                        lv = &levels[depth]
                        _add(lv, "\n", 1)
                        block = _new_block(i, tag, lv.index, lv.last_child, block_id, block_class)
                        lv.last_child = i
                        tables.place(<size_t>node, <size_t>node.parent, tid)
                    else:
                        block = _new_block(i, tag, -1, -1, block_id, block_class)
                        tables.place(<size_t>node, 0, tid)
                    if label is not None:
                        block.element_label = label
                    blocks.append(block)
                    depth += 1
                    _push_level(&levels, &cap, depth, i)
                _count(&levels[depth], tid, tables.counts)
                if node.properties != NULL:
                    attr = node.properties
                    while attr != NULL:
                        akind = _attr_kind(<const char*>attr.name)
                        if akind == ATTR_VALUE or akind == ATTR_DATETIME:
                            _add_value(<Block>blocks[levels[depth].index], akind, _attr_value(attr))
                        attr = attr.next
                if kind & KIND_LINK:
                    link_depth += 1
                descend = node.children != NULL
            if descend:
                nxt = node.children
            else:
                nxt = NULL
            # Text children are consumed here; descend to the first element child, or end ``node``.
            while True:
                while nxt != NULL and nxt.type != tree.XML_ELEMENT_NODE:
                    if _is_text(nxt) and nxt.content != NULL:
                        lv = &levels[depth]
                        n = strlen(<const char*>nxt.content)
                        _add(lv, <const char*>nxt.content, n)
                        if link_depth:
                            lv.link_chars += _stripped_chars(<const char*>nxt.content, n)
                    nxt = nxt.next
                if nxt != NULL:
                    break
                # end of ``node``
                kind = tables.name(node.name).kind
                if not (kind & KIND_EXCLUDED) or node is top:
                    if (kind & KIND_LINK) and link_depth:
                        link_depth -= 1
                    if node is top or (kind & KIND_BLOCK):
                        lv = &levels[depth]
                        _close_level(lv, <Block>blocks[lv.index], tables, texts)
                        depth -= 1
                        if depth >= 0:
                            _add(&levels[depth], "\n", 1)
                    elif kind & KIND_BR:
                        _add(&levels[depth], "\n", 1)
                if node is top:
                    _set_xpaths(start, blocks, tables, getpath)
                    return blocks
                nxt = node.next
                node = node.parent
            node = nxt
    finally:
        _free_levels(levels, cap)


cdef _set_xpaths(cetree._Element start, list blocks, _Tables tables, object getpath):
    # Blocks were numbered per parent element and tag during the walk (every same-tag sibling of a
    # block is a block), so no sibling is counted twice; the position is left out when the tag is
    # alone among its siblings, as lxml's getpath writes it. A block's parent element is usually
    # its enclosing block's element; other parents (inline wrappers) extend that block's path.
    cdef dict known = {}  # inline parent element -> its path
    cdef dict sibs = {}  # element -> (position, count) among its parent's same-name elements
    cdef Py_ssize_t i, up
    cdef Place* place
    cdef Block block
    cdef str base, path
    for i in range(len(blocks)):
        block = <Block>blocks[i]
        place = &tables.places[i]
        if place.parent == 0:
            path = getpath(start)
        else:
            up = block.parent
            if tables.places[up].own == place.parent:
                base = (<Block>blocks[up]).xpath
            else:
                base = known.get(place.parent)
                if base is None:
                    base = _inline_path(
                        <tree.xmlNode*>place.parent, tables.places[up].own, (<Block>blocks[up]).xpath, sibs, tables
                    )
                    known[place.parent] = base
            if tables.siblings(place.parent, place.tag_id) == 1:
                path = base + "/" + block.tag
            else:
                path = f"{base}/{block.tag}[{place.position}]"
        block.xpath = path


cdef str _inline_path(tree.xmlNode* node, size_t block_element, str block_path, dict sibs, _Tables tables):
    # The path of a non-block element: its enclosing block's path and a step per element between.
    # lxml's getpath counts each element's preceding siblings, so 50,000 wrappers side by side
    # cost 50,000^2 steps; here each parent's children are counted once (``sibs``).
    cdef list steps = []
    while <size_t>node != block_element:
        steps.append(_step(node, sibs, tables))
        node = node.parent
    steps.reverse()
    return block_path + "".join(steps)


cdef str _step(tree.xmlNode* node, dict sibs, _Tables tables):
    # "/name", or "/name[k]" when the parent has several element children of that name
    cdef tree.xmlNode* c
    cdef dict counts
    cdef list order
    cdef Py_ssize_t tid
    hit = sibs.get(<size_t>node)
    if hit is None:
        counts = {}
        order = []
        c = node.parent.children
        while c != NULL:
            if c.type == tree.XML_ELEMENT_NODE:
                tid = tables.name(c.name).value
                counts[tid] = counts.get(tid, 0) + 1
                order.append((<size_t>c, tid, counts[tid]))
            c = c.next
        for ptr, tid, n in order:
            sibs[ptr] = (n, counts[tid])
        hit = sibs[<size_t>node]
    name = tables.tag_list[tables.name(node.name).value]
    return f"/{name}" if hit[1] == 1 else f"/{name}[{hit[0]}]"

