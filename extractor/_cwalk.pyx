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

from cpython.dict cimport PyDict_Next
from cpython.object cimport PyObject
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.math cimport sqrt
from libc.string cimport memcpy, strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree

cetree.import_lxml__etree()


cdef struct Level:
    # One open block: its text buffer (UTF-8), link characters, latest child block.
    char* data
    Py_ssize_t length
    Py_ssize_t cap
    Py_ssize_t link_chars
    Py_ssize_t last_child
    Py_ssize_t index


# Element names: libxml2 gives each a name pointer (interned per document). A small open-addressing
# table maps the pointer to the tag's number (one per distinct name string) and what the walk needs
# to know about it, instead of a dict lookup, a Python int and set lookups per element.
cdef enum:
    KIND_BLOCK = 1
    KIND_EXCLUDED = 2
    KIND_LINK = 4
    KIND_BR = 8


cdef struct Slot:
    # one key of a _Table: (a, b), with a != 0; its value and flags
    size_t a
    Py_ssize_t b
    Py_ssize_t value
    int kind


cdef struct Place:
    # per block: its element, its parent element (0 for the start), its tag's number and its
    # position among the parent's block children of that tag
    size_t own
    size_t parent
    Py_ssize_t tag_id
    Py_ssize_t position


cdef inline size_t _mix(size_t a, size_t b) noexcept:
    cdef size_t h = (a >> 4) * <size_t>0x9E3779B97F4A7C15 + <size_t>b * <size_t>0xC2B2AE3D27D4EB4F
    return h ^ (h >> 29)


cdef class _Table:
    """An open-addressing table of (pointer, number) keys, freed with the object."""

    cdef Slot* slots
    cdef Py_ssize_t cap, used

    def __dealloc__(self):
        free(self.slots)

    cdef int _rehash(self, Py_ssize_t cap) except -1:
        cdef Slot* fresh = <Slot*>calloc(cap, sizeof(Slot))
        cdef Py_ssize_t i, j
        if fresh == NULL:
            raise MemoryError()
        for i in range(self.cap):
            if self.slots[i].a:
                j = _mix(self.slots[i].a, self.slots[i].b) & (cap - 1)
                while fresh[j].a:
                    j = (j + 1) & (cap - 1)
                fresh[j] = self.slots[i]
        free(self.slots)
        self.slots, self.cap = fresh, cap
        return 0

    cdef Slot* get(self, size_t a, Py_ssize_t b, bint* added) except NULL:
        # the key's slot, added (value 0, kind 0) when new; valid until the next get
        cdef Py_ssize_t j
        if (self.used + 1) * 2 > self.cap:
            self._rehash(self.cap * 2 if self.cap else 256)
        j = _mix(a, b) & (self.cap - 1)
        while self.slots[j].a:
            if self.slots[j].a == a and self.slots[j].b == b:
                added[0] = False
                return &self.slots[j]
            j = (j + 1) & (self.cap - 1)
        self.slots[j].a = a
        self.slots[j].b = b
        self.slots[j].value = 0
        self.slots[j].kind = 0
        self.used += 1
        added[0] = True
        return &self.slots[j]


cdef class _Tables:
    """The walk's C-side records: element names (keyed by libxml2's interned name pointer: the
    tag's number and flags), block counts per (parent element, tag), and each block's place."""

    cdef _Table names
    cdef _Table pairs
    cdef Place* places
    cdef Py_ssize_t places_cap, places_used
    cdef list tag_list  # number -> tag str
    cdef dict tag_ids  # tag str -> number
    cdef frozenset block_tags, excluded

    def __cinit__(self, frozenset block_tags, frozenset excluded):
        self.block_tags = block_tags
        self.excluded = excluded
        self.names = _Table()
        self.pairs = _Table()
        self.tag_list = []
        self.tag_ids = {}

    def __dealloc__(self):
        free(self.places)

    cdef Slot* name(self, const tree.xmlChar* ptr) except NULL:
        cdef bint added
        cdef Slot* slot = self.names.get(<size_t>ptr, 0, &added)
        cdef str tag
        if added:
            tag = _decode(<const char*>ptr, strlen(<const char*>ptr))
            tid = self.tag_ids.get(tag)
            if tid is None:
                tid = self.tag_ids[tag] = len(self.tag_list)
                self.tag_list.append(tag)
            slot.value = tid
            slot.kind = (
                (KIND_BLOCK if tag in self.block_tags else 0)
                | (KIND_EXCLUDED if tag in self.excluded else 0)
                | (KIND_LINK if tag == "a" else 0)
                | (KIND_BR if tag == "br" else 0)
            )
        return slot

    cdef Py_ssize_t siblings(self, size_t parent, Py_ssize_t tag_id) except -1:
        # how many block children of this tag the parent element has
        cdef bint added
        return self.pairs.get(parent, tag_id, &added).value

    cdef int place(self, size_t own, size_t parent, Py_ssize_t tag_id) except -1:
        # records a block; with a parent, counts it among the parent's block children of its tag
        cdef Py_ssize_t cap
        cdef Place* p
        cdef Slot* pair
        cdef bint added
        if self.places_used == self.places_cap:
            cap = self.places_cap * 2 if self.places_cap else 512
            p = <Place*>realloc(self.places, cap * sizeof(Place))
            if p == NULL:
                raise MemoryError()
            self.places, self.places_cap = p, cap
        p = &self.places[self.places_used]
        p.own = own
        p.parent = parent
        p.tag_id = tag_id
        p.position = 0
        self.places_used += 1
        if parent:
            pair = self.pairs.get(parent, tag_id, &added)
            pair.value += 1
            p.position = pair.value
        return 0


cdef int _grow(Level* lv, Py_ssize_t extra) except -1:
    cdef Py_ssize_t cap = lv.cap * 2 if lv.cap else 256
    cdef char* p
    while cap < lv.length + extra:
        cap *= 2
    p = <char*>realloc(lv.data, cap)
    if p == NULL:
        raise MemoryError()
    lv.data = p
    lv.cap = cap
    return 0


cdef inline int _add(Level* lv, const char* s, Py_ssize_t n) except -1:
    if lv.length + n > lv.cap:
        _grow(lv, n)
    memcpy(lv.data + lv.length, s, n)
    lv.length += n
    return 0


cdef str _decode(const char* s, Py_ssize_t n):
    return PyUnicode_DecodeUTF8(s, n, "replace")


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


cdef inline bint _blank(const char* s, Py_ssize_t n) noexcept:
    # ASCII whitespace only: most layout wrappers hold nothing else, and need no decoding.
    cdef Py_ssize_t i
    cdef char c
    for i in range(n):
        c = s[i]
        if c != 32 and c != 10 and c != 9 and c != 13 and c != 12 and c != 11:
            return False
    return True


cdef tuple _measured(str text):
    # blocks._finish, compiled: the lines of the block (whitespace runs collapsed, blank lines
    # dropped) joined, their lower-cased counts, and the characters of text; None when blank.
    cdef list kept = []
    cdef dict lines = {}
    cdef str raw, line, low, joined
    if text.isspace():
        return None
    for raw in text.split("\n"):
        line = " ".join(raw.split())
        if line:
            kept.append(line)
            low = line.lower()
            lines[low] = lines.get(low, 0) + 1
    joined = "\n".join(kept)
    return (joined, lines, len(joined) - len(kept) + 1)


cdef _measure(Block block, const char* data, Py_ssize_t length, Py_ssize_t link_chars, dict texts):
    # A site's pages repeat most of their text blocks (menus, footers, sidebars: about 60 % of a
    # set's text blocks): ``texts`` maps a block's raw UTF-8 text to its measures, shared by the
    # blocks that repeat it (their ``text`` and ``lines`` are never modified).
    cdef tuple m
    cdef bytes raw
    cdef Py_ssize_t chars
    if texts is None:
        m = _measured(_decode(data, length))
    else:
        raw = data[:length]
        m = texts.get(raw, _MISSING)
        if m is _MISSING:
            m = texts[raw] = _measured(_decode(data, length))
    if m is None:
        return
    block.text = m[0]
    block.lines = m[1]
    chars = m[2]
    block.text_chars = chars
    block.link_chars = link_chars if link_chars < chars else chars


cdef class Block:
    """One block of one page, with its measures (``blocks.Block``, compiled: a walk creates a
    hundred thousand of them per set, and a C struct is filled without attribute lookups)."""

    cdef public object index  # preorder position in the page
    cdef public str tag
    cdef public object parent  # index of the enclosing block, -1 for the outermost
    cdef public object prev_sibling  # index of the previous block with the same parent, -1 if none
    cdef public object element_id
    cdef public object element_class
    cdef public str xpath
    cdef public str text  # the block's own text, one line per line, blank lines dropped
    cdef public object text_chars
    cdef public object link_chars
    cdef public dict tags
    cdef public dict lines
    cdef public dict attrs
    cdef public tuple datetimes  # <time datetime> values, for comment dates

    def __init__(
        self, index, tag, parent, prev_sibling, element_id=None, element_class=None, xpath="", text="",
        text_chars=0, link_chars=0, tags=None, lines=None, attrs=None, datetimes=(),
    ):
        _fill(
            self, index, tag, parent, prev_sibling, element_id, element_class, xpath, text, text_chars, link_chars,
            {} if tags is None else tags, {} if lines is None else lines, {} if attrs is None else attrs, datetimes,
        )

    @property
    def link_density(self):
        return self.link_chars / self.text_chars if self.text_chars else 0.0

    @property
    def has_text(self):
        return bool(self.text)

    def __repr__(self):
        return (
            f"Block(index={self.index!r}, tag={self.tag!r}, parent={self.parent!r}, "
            f"prev_sibling={self.prev_sibling!r}, element_id={self.element_id!r}, "
            f"element_class={self.element_class!r}, xpath={self.xpath!r}, text={self.text!r})"
        )


cdef dict _EMPTY = {}
cdef tuple _MISSING = ()


cdef inline int _fill(
    Block block, object index, str tag, object parent, object prev, object id_, object class_, str xpath, str text,
    object text_chars, object link_chars, dict tags, dict lines, dict attrs, tuple datetimes,
) except -1:
    block.index = index
    block.tag = tag
    block.parent = parent
    block.prev_sibling = prev
    block.element_id = id_
    block.element_class = class_
    block.xpath = xpath
    block.text = text
    block.text_chars = text_chars
    block.link_chars = link_chars
    block.tags = tags
    block.lines = lines
    block.attrs = attrs
    block.datetimes = datetimes
    return 0


cdef Block _new_block(
    Py_ssize_t index, str tag, Py_ssize_t parent, Py_ssize_t prev, object id_, object class_, dict tags
):
    # Block(index, tag, parent, prev_sibling, id, class) without __init__'s argument parsing; the
    # tags dict is filled in as the walk meets the block's elements. Most blocks have no text
    # lines or attribute values: they share one empty dict, never written to (the walk gives a
    # block its own attrs dict before adding to it).
    cdef Block block = Block.__new__(Block)
    _fill(block, index, tag, parent, prev, id_, class_, "", "", 0, 0, tags, _EMPTY, _EMPTY, ())
    return block


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
    cdef const char* name
    cdef bint descend
    cdef int kind
    cdef Slot* slot
    cdef _Tables tables = _Tables(block_tags, excluded)
    cdef list tag_list = tables.tag_list
    cdef list blocks = []
    cdef list tag_stack = []  # per open block: its tags dict
    cdef dict tags
    cdef dict attrs
    cdef str tag, value
    cdef Block block
    cdef object block_id, block_class
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
                    block_id = block_class = None
                    attr = node.properties
                    while attr != NULL:
                        name = <const char*>attr.name
                        if block_id is None and strcmp(name, "id") == 0:
                            block_id = _attr_value(attr)
                        elif block_class is None and strcmp(name, "class") == 0:
                            block_class = _attr_value(attr)
                        attr = attr.next
                    i = len(blocks)
                    tags = {}
                    if depth >= 0:
                        lv = &levels[depth]
                        _add(lv, "\n", 1)
                        block = _new_block(i, tag, lv.index, lv.last_child, block_id, block_class, tags)
                        lv.last_child = i
                        tables.place(<size_t>node, <size_t>node.parent, tid)
                    else:
                        block = _new_block(i, tag, -1, -1, block_id, block_class, tags)
                        tables.place(<size_t>node, 0, tid)
                    blocks.append(block)
                    depth += 1
                    if depth >= cap:
                        cap = cap * 2 if cap else 64
                        levels = <Level*>realloc(levels, cap * sizeof(Level))
                        if levels == NULL:
                            raise MemoryError()
                        for n in range(depth, cap):
                            levels[n].data = NULL
                            levels[n].cap = 0
                    lv = &levels[depth]
                    lv.length = 0
                    lv.link_chars = 0
                    lv.last_child = -1
                    lv.index = i
                    tag_stack.append(tags)
                else:
                    tags = tag_stack[depth]
                tags[tag] = tags.get(tag, 0) + 1
                if node.properties != NULL:
                    attr = node.properties
                    while attr != NULL:
                        name = <const char*>attr.name
                        if (
                            strcmp(name, "title") == 0
                            or strcmp(name, "alt") == 0
                            or strcmp(name, "src") == 0
                            or strcmp(name, "datetime") == 0
                        ):
                            value = _attr_value(attr).strip()
                            if value:
                                block = blocks[levels[depth].index]
                                if strcmp(name, "datetime") == 0:
                                    block.datetimes += (value,)
                                else:
                                    attrs = block.attrs
                                    if attrs is _EMPTY:
                                        attrs = block.attrs = {}
                                    attrs[value] = attrs.get(value, 0) + 1
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
                            lv.link_chars += len(_decode(<const char*>nxt.content, n).strip())
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
                        block = blocks[lv.index]
                        tag_stack.pop()
                        if not _blank(lv.data, lv.length):
                            _measure(block, lv.data, lv.length, lv.link_chars, texts)
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
        if levels != NULL:
            for n in range(cap):
                free(levels[n].data)
            free(levels)


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


cdef object _vector_key(dict weights):
    # matching.vector_key in C: the same order-free sum, modulo 2**64
    cdef unsigned long long h = <unsigned long long>len(weights)
    cdef unsigned long long hk, hv
    for f, w in weights.items():
        hk = <unsigned long long>hash(f)
        hv = <unsigned long long>hash(w)
        h += (hk * <unsigned long long>0x9E3779B97F4A7C15) ^ hv
    return h


cdef object _block_key(dict tags, str text, dict attrs):
    # a hash of what a block's vector depends on (tag counts in order, text, attribute values),
    # without building tuples of the items; equal blocks share it, and a shared key is confirmed
    # by comparing the three (block_vectors)
    cdef unsigned long long h = <unsigned long long>len(tags) * <unsigned long long>0x9E3779B97F4A7C15
    cdef Py_ssize_t pos = 0
    cdef PyObject* k
    cdef PyObject* v
    while PyDict_Next(tags, &pos, &k, &v):
        h = (h ^ <unsigned long long>hash(<object>k)) * <unsigned long long>0x100000001B3
        h = (h ^ <unsigned long long>hash(<object>v)) * <unsigned long long>0x100000001B3
    if text:
        h ^= <unsigned long long>hash(text) * <unsigned long long>0xC2B2AE3D27D4EB4F
    if attrs:
        pos = 0
        while PyDict_Next(attrs, &pos, &k, &v):
            h += (<unsigned long long>hash(<object>k) * <unsigned long long>0x165667B19E3779F9) ^ <unsigned long long>hash(<object>v)
    return h


def block_vectors(list blocks, str mode, double scale, dict cache, object vector_cls, object hypot, str tag_prefix, str attr_prefix):
    """``features.block_vector`` for every block of a page, compiled (same weights, norm and key).

    ``cache`` shares the vectors of repeated blocks within a set (most of a page's blocks repeat
    on the set's other pages): keyed by a hash of the block's tag counts, text and attribute
    values (a vector depends on nothing else: the lines are the text's), confirmed by comparing
    them.
    """
    cdef list out = []
    cdef dict tags, lines, attrs, weights
    cdef dict tag_keys = {}
    cdef Py_ssize_t n
    cdef int kind = 0 if mode == "binary" else (1 if mode == "count" else 2)
    cdef Block block
    cdef tuple entry
    for block in blocks:
        tags = block.tags
        lines = block.lines
        attrs = block.attrs
        cache_key = _block_key(tags, block.text, attrs)
        entry = cache.get(cache_key)
        if entry is not None and entry[1] == block.text and entry[0] == tags and entry[2] == attrs:
            out.append(entry[3])
            continue
        weights = {}
        for t, count in tags.items():
            key = tag_keys.get(t)
            if key is None:
                key = tag_keys[t] = tag_prefix + t
            n = count
            if kind == 0:
                weights[key] = scale
            elif kind == 1:
                weights[key] = n * scale
            else:
                weights[key] = sqrt(<double>n) * scale
        if lines:
            weights.update(lines)
        if attrs:
            for value, count in attrs.items():
                key = attr_prefix + value
                weights[key] = weights.get(key, 0) + count
        vector = vector_cls.__new__(vector_cls)
        vector.weights = weights
        vector.norm = hypot(*weights.values())
        vector.key = _vector_key(weights)
        if entry is None:  # (another block under the same hash keeps its entry)
            cache[cache_key] = (tags, block.text, attrs, vector)
        out.append(vector)
    return out


cdef class BlockResult:
    """``pipeline.BlockResult``, compiled: a page reports every block (a set, a hundred thousand)."""

    cdef public object index
    cdef public str tag
    cdef public str xpath
    cdef public str identifier
    cdef public str role  # "post", "comment" or "boilerplate"
    cdef public str text

    def __init__(self, index, tag, xpath, identifier, role, text):
        self.index = index
        self.tag = tag
        self.xpath = xpath
        self.identifier = identifier
        self.role = role
        self.text = text

    def _fields(self):
        return (self.index, self.tag, self.xpath, self.identifier, self.role, self.text)

    def __eq__(self, other):
        if not isinstance(other, BlockResult):
            return NotImplemented
        return self._fields() == (<BlockResult>other)._fields()

    __hash__ = None

    def __repr__(self):
        return "BlockResult(index=%r, tag=%r, xpath=%r, identifier=%r, role=%r, text=%r)" % self._fields()


def page_blocks(list blocks, list roles, list idents, str post, str comment):
    """``pipeline.page_output``'s loop: every block's result, the post's lines, the comment texts."""
    cdef list results = []
    cdef list post_lines = []
    cdef list comments = []
    cdef Block b
    cdef BlockResult r
    cdef str role
    cdef Py_ssize_t i, n = len(blocks)
    if len(roles) != n or len(idents) != n:
        raise ValueError("blocks, roles and identifiers differ in length")
    for i in range(n):
        b = <Block>blocks[i]
        role = <str>roles[i]
        r = BlockResult.__new__(BlockResult)
        r.index = b.index
        r.tag = b.tag
        r.xpath = b.xpath
        r.identifier = <str>idents[i]
        r.role = role
        r.text = b.text
        results.append(r)
        if b.text:
            if role == post:
                post_lines.append(b.text)
            elif role == comment:
                comments.append(b.text)
    return results, post_lines, comments


def subtree_sums(list values, list blocks):
    """``units.subtree_sums``: each block's value plus its descendants' (preorder, children first
    when reversed)."""
    cdef Py_ssize_t n = len(blocks), i, p
    cdef long long* acc
    cdef Block b
    if len(values) != n:
        raise ValueError("one value per block")
    if n == 0:
        return []
    acc = <long long*>malloc(n * sizeof(long long))
    if acc == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            acc[i] = values[i]
        for i in range(n - 1, -1, -1):
            b = <Block>blocks[i]
            p = b.parent
            if p >= 0 and acc[i]:
                acc[p] += acc[i]
        return [acc[i] for i in range(n)]
    finally:
        free(acc)


cdef extern from "stdlib.h":
    void qsort(void* base, size_t nmemb, size_t size, int (*compar)(const void*, const void*) noexcept nogil) nogil


cdef struct RankedWeight:
    Py_ssize_t rank
    double weight


cdef int _by_rank(const void* a, const void* b) noexcept nogil:
    cdef Py_ssize_t ra = (<const RankedWeight*>a).rank, rb = (<const RankedWeight*>b).rank
    return -1 if ra < rb else (1 if ra > rb else 0)


def matched_vectors(list vectors, list page_sets, list clusters, double threshold, double eps, object cosine):
    """``matching.unique_blocks`` after grouping, compiled: for each distinct vector, whether it
    occurs on two clusters of pages or has cosine above ``threshold`` with a vector that occurs
    on another cluster than its own.

    The same search as the Python form: features ranked by document frequency (ties in first-seen
    order), each vector indexed under the shortest prefix whose suffix norm is below
    ``(threshold - eps) * norm``, every single-cluster vector probing with all of its features,
    candidates verified with ``cosine``, a search stopped at its first match on another cluster.
    """
    cdef Py_ssize_t n = len(vectors), i, j, k, r, f_count, total, start, end
    cdef Py_ssize_t* first = NULL  # per vector: a cluster it reaches
    cdef char* multi = NULL  # per vector: it reaches two clusters or more
    cdef Py_ssize_t* occ_first = NULL  # per vector: a cluster it occurs on
    cdef char* occ_multi = NULL
    cdef Py_ssize_t* stamp = NULL
    cdef Py_ssize_t* prefix_start = NULL  # CSR of each vector's prefix ranks
    cdef Py_ssize_t* prefix_ranks = NULL
    cdef Py_ssize_t* post_start = NULL  # CSR of each rank's vectors (postings)
    cdef Py_ssize_t* postings = NULL
    cdef Py_ssize_t* fill = NULL
    cdef RankedWeight* buf = NULL
    cdef Py_ssize_t buf_cap = 0
    cdef double norm, rest, bound
    cdef bint any_open = False
    cdef dict weights, df, rank
    cdef Py_ssize_t pos
    cdef PyObject* key
    cdef PyObject* value
    try:
        first = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
        occ_first = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
        multi = <char*>calloc(n + 1, 1)
        occ_multi = <char*>calloc(n + 1, 1)
        if first == NULL or occ_first == NULL or multi == NULL or occ_multi == NULL:
            raise MemoryError()
        for i in range(n):
            first[i] = -1
            for p in page_sets[i]:
                c = <Py_ssize_t>clusters[p]
                if first[i] < 0:
                    first[i] = c
                elif c != first[i]:
                    multi[i] = 1
            occ_first[i] = first[i]
            occ_multi[i] = multi[i]
            if not multi[i] and vectors[i].norm:
                any_open = True
        if any_open:
            df = {}
            for v in vectors:
                weights = v.weights
                pos = 0
                while PyDict_Next(weights, &pos, &key, &value):
                    df[<object>key] = df.get(<object>key, 0) + 1
            rank = {f: r for r, f in enumerate(sorted(df, key=df.__getitem__))}
            f_count = len(rank)
            # each vector's prefix (rarest features first, until the rest cannot reach the threshold)
            total = 0
            for v in vectors:
                total += len((<dict>v.weights))
            prefix_start = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
            prefix_ranks = <Py_ssize_t*>malloc((total + 1) * sizeof(Py_ssize_t))
            post_start = <Py_ssize_t*>calloc(f_count + 1, sizeof(Py_ssize_t))
            if prefix_start == NULL or prefix_ranks == NULL or post_start == NULL:
                raise MemoryError()
            k = 0
            for i in range(n):
                prefix_start[i] = k
                v = vectors[i]
                norm = v.norm
                if not norm:
                    continue
                weights = v.weights
                if len(weights) > buf_cap:
                    buf_cap = len(weights) * 2
                    free(buf)
                    buf = <RankedWeight*>malloc(buf_cap * sizeof(RankedWeight))
                    if buf == NULL:
                        raise MemoryError()
                j = 0
                pos = 0
                while PyDict_Next(weights, &pos, &key, &value):
                    buf[j].rank = <Py_ssize_t>rank[<object>key]
                    buf[j].weight = <double>(<object>value)
                    j += 1
                if j > 1:
                    qsort(buf, j, sizeof(RankedWeight), _by_rank)
                rest = norm * norm
                bound = (threshold - eps) * norm
                for r in range(j):
                    prefix_ranks[k] = buf[r].rank
                    post_start[buf[r].rank + 1] += 1
                    k += 1
                    rest -= buf[r].weight * buf[r].weight
                    if rest <= 0 or sqrt(rest if rest > 0.0 else 0.0) < bound:
                        break
            prefix_start[n] = k
            for r in range(f_count):
                post_start[r + 1] += post_start[r]
            postings = <Py_ssize_t*>malloc((k + 1) * sizeof(Py_ssize_t))
            fill = <Py_ssize_t*>malloc((f_count + 1) * sizeof(Py_ssize_t))
            stamp = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
            if postings == NULL or fill == NULL or stamp == NULL:
                raise MemoryError()
            for r in range(f_count):
                fill[r] = post_start[r]
            for i in range(n):  # postings in increasing vector order
                for k in range(prefix_start[i], prefix_start[i + 1]):
                    r = prefix_ranks[k]
                    postings[fill[r]] = i
                    fill[r] += 1
            for i in range(n):
                stamp[i] = -1
            for i in range(n):
                if multi[i] or not vectors[i].norm:
                    continue
                x = vectors[i]
                stamp[i] = i
                weights = x.weights
                pos = 0
                while not multi[i] and PyDict_Next(weights, &pos, &key, &value):
                    r = <Py_ssize_t>rank[<object>key]
                    start, end = post_start[r], post_start[r + 1]
                    for k in range(start, end):
                        j = postings[k]
                        if stamp[j] == i:
                            continue
                        stamp[j] = i
                        if not multi[j] and first[j] == first[i]:
                            continue  # a neighbour confined to the same single cluster adds nothing
                        if cosine(x, vectors[j]) > threshold:
                            if occ_multi[j] or occ_first[j] != first[i]:
                                multi[i] = 1
                            if not multi[j] and first[j] != occ_first[i]:
                                multi[j] = 1
                            if multi[i]:
                                break
        return [bool(multi[i]) for i in range(n)]
    finally:
        free(first)
        free(occ_first)
        free(multi)
        free(occ_multi)
        free(stamp)
        free(prefix_start)
        free(prefix_ranks)
        free(post_start)
        free(postings)
        free(fill)
        free(buf)


def dated_flags(list blocks, Py_ssize_t max_chars, object is_dated):
    """``units.dated_flags``: 1 for a block with a ``datetime`` value or a short line (at most
    ``max_chars`` characters) that ``is_dated``, else 0."""
    cdef list out = []
    cdef Block b
    cdef Py_ssize_t n
    for b in blocks:
        if b.datetimes:
            out.append(1)
            continue
        n = len(b.text)
        out.append(1 if 0 < n <= max_chars and is_dated(b.text) else 0)
    return out


def page_candidates(list blocks, str class_mode, dict memo, object compute):
    """``identifiers.page_candidates``: each block's identifiers, () for blocks with neither id nor
    class, else the memo's entry for (id, class, mode), or ``compute(block, mode)`` (which fills
    the memo)."""
    cdef list out = []
    cdef Block b
    cdef tuple empty = ()
    for b in blocks:
        if b.element_id is None and b.element_class is None:
            out.append(empty)
            continue
        hit = memo.get((b.element_id, b.element_class, class_mode))
        out.append(hit if hit is not None else compute(b, class_mode))
    return out
