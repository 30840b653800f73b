# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Blocks read while libxml2 parses, without building a tree (ExtractUniqueBlock 2009 §3.2.2-3.2.3).

``blocks.blocks_of`` reads blocks from the tree lxml built. Building that tree (a node per element, text
run and attribute) and freeing it cost more than half of lxml's parse time, and nothing needs the
tree once the blocks are read. This module gives libxml2's HTML parser (the very library lxml
runs, found through lxml's own shared object) SAX callbacks that build the blocks as the parser
reports elements and text: the parse is the same, only the tree is never made.

The blocks are exactly those of ``blocks.blocks_of`` (the Python walk) on ``blocks.parse_html``'s tree (tests/test_csax.py
compares them on every corpus page and on generated tag soup):

- the parser's events are the tree: libxml2 builds its tree from these same callbacks, node by node
  (a start adds a child to the open element, an end closes it), so the structure is identical;
- consecutive text events are one text node (the tree builder merges them; comments and processing
  instructions are dropped, as ``parse_html`` drops them), so link text is measured per merged run;
- the start is the root's first ``body`` child, as ``blocks_of`` finds it. A document without one
  (a frameset, only head elements) returns None, and the caller reads it from the tree instead;
- XPaths are written as lxml's ``getpath`` writes them: each element's position among its parent's
  element children of the same name, the position left out when it is the only one.

When libxml2's functions cannot be found (an lxml built without exported symbols), ``AVAILABLE`` is
False and the extractor reads every page from the tree.
"""

from libc.stdlib cimport free, realloc
from libc.string cimport memset, strlen

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

import lxml.etree


cdef extern from "<dlfcn.h>" nogil:
    void* dlopen(const char* filename, int flags)
    void* dlsym(void* handle, const char* symbol)
    int RTLD_NOW
    int RTLD_NOLOAD


cdef extern from "libxml/HTMLparser.h":
    ctypedef void (*startElementSAXFunc)(void* ctx, const tree.xmlChar* name, const tree.xmlChar** atts) noexcept
    ctypedef void (*endElementSAXFunc)(void* ctx, const tree.xmlChar* name) noexcept
    ctypedef void (*charactersSAXFunc)(void* ctx, const tree.xmlChar* ch, int len) noexcept
    ctypedef void (*cdataBlockSAXFunc)(void* ctx, const tree.xmlChar* value, int len) noexcept
    ctypedef void (*ignorableWhitespaceSAXFunc)(void* ctx, const tree.xmlChar* ch, int len) noexcept
    ctypedef struct xmlSAXHandler:
        startElementSAXFunc startElement
        endElementSAXFunc endElement
        charactersSAXFunc characters
        ignorableWhitespaceSAXFunc ignorableWhitespace
        cdataBlockSAXFunc cdataBlock
        unsigned int initialized
    ctypedef struct xmlParserCtxt
    int HTML_PARSE_RECOVER
    int HTML_PARSE_NONET
    int HTML_PARSE_COMPACT
    int HTML_PARSE_NOERROR
    int HTML_PARSE_NOWARNING
    int XML_PARSE_HUGE
    unsigned int XML_SAX2_MAGIC


ctypedef xmlParserCtxt* (*new_ctxt_f)(const xmlSAXHandler* sax, void* user) noexcept nogil
ctypedef tree.xmlDoc* (*read_memory_f)(
    xmlParserCtxt* ctxt, const char* buffer, int size, const char* url, const char* encoding, int options
) noexcept nogil
ctypedef void (*free_ctxt_f)(xmlParserCtxt* ctxt) noexcept nogil
ctypedef void (*free_doc_f)(tree.xmlDoc* doc) noexcept nogil
ctypedef void (*stop_f)(xmlParserCtxt* ctxt) noexcept nogil


cdef new_ctxt_f _new_ctxt = NULL
cdef read_memory_f _read_memory = NULL
cdef free_ctxt_f _free_ctxt = NULL
cdef free_doc_f _free_doc = NULL
cdef stop_f _stop = NULL


cdef bint _load():
    # the functions of the libxml2 that lxml runs (linked into lxml.etree, or a library it loaded)
    global _new_ctxt, _read_memory, _free_ctxt, _free_doc, _stop
    cdef bytes path = lxml.etree.__file__.encode()
    cdef void* lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD)
    if lib == NULL:
        return False
    _new_ctxt = <new_ctxt_f>dlsym(lib, "htmlNewSAXParserCtxt")
    _read_memory = <read_memory_f>dlsym(lib, "htmlCtxtReadMemory")
    _free_ctxt = <free_ctxt_f>dlsym(lib, "htmlFreeParserCtxt")
    _free_doc = <free_doc_f>dlsym(lib, "xmlFreeDoc")
    _stop = <stop_f>dlsym(lib, "xmlStopParser")
    return (
        _new_ctxt != NULL and _read_memory != NULL and _free_ctxt != NULL and _free_doc != NULL and _stop != NULL
    )


AVAILABLE = _load()


def _open_limit() -> int:
    # The most elements open at once in a tree lxml builds with parse_html's options: libxml2's
    # tree builder halts the parse beyond its depth limit (2048 with XML_PARSE_HUGE in libxml2
    # 2.x), and the SAX events alone never meet that check. Measured once, on nested divs, so
    # that the reader stops where the tree would in this libxml2 version.
    parser = lxml.etree.HTMLParser(remove_comments=True, remove_pis=True, no_network=True, huge_tree=True)
    root = lxml.etree.fromstring(b"<div>" * 20000, parser)
    depth = 1
    while len(root):
        root = root[-1]
        depth += 1
    return depth if depth < 20000 else 1 << 60


cdef Py_ssize_t _MAX_OPEN = _open_limit()

# parse_html's options (lxml's HTML defaults and huge_tree), with error reports off: nothing reads
# them, and lxml's collecting them costs time; the parse itself does not depend on reporting.
cdef int _OPTIONS = (
    HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_COMPACT | XML_PARSE_HUGE | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING
)

cdef enum:
    BEFORE = 0  # the start element has not begun
    INSIDE = 1
    DONE = 2
    RUN_NONE = 0
    RUN_TEXT = 1
    RUN_CDATA = 2


cdef class _Reader:
    """One page's reading state, handed to the callbacks as the parser's user data."""

    cdef _Tables tables
    cdef list tag_list
    cdef list blocks
    cdef dict texts
    cdef Level* levels
    cdef Py_ssize_t depth, cap, link_depth
    # every element: its parent's ordinal, tag number, kind and position among its parent's
    # element children of that name (for XPaths); the open elements as a stack of ordinals
    cdef Py_ssize_t* e_parent
    cdef Py_ssize_t* e_tid
    cdef Py_ssize_t* e_pos
    cdef int* e_kind
    cdef Py_ssize_t n_elems, e_cap
    cdef Py_ssize_t* stack
    cdef Py_ssize_t stack_n, stack_cap
    cdef Py_ssize_t* b_elem  # block index -> its element's ordinal
    cdef Py_ssize_t b_cap
    cdef int state
    cdef Py_ssize_t start_at  # stack height with the start element open
    cdef Py_ssize_t excluded_at  # stack height with an excluded element open (0: none)
    cdef int run  # the text run being read (RUN_*), merged as the tree merges text nodes
    cdef Py_ssize_t run_start
    cdef object error
    cdef bint stopped  # an error, or the tree's depth limit reached: no more events are read
    cdef xmlParserCtxt* ctxt

    def __cinit__(self, frozenset block_tags, frozenset excluded, dict texts):
        self.tables = _Tables(block_tags, excluded)
        self.tag_list = self.tables.tag_list
        self.blocks = []
        self.texts = texts
        self.depth = -1

    def __dealloc__(self):
        _free_levels(self.levels, self.cap)
        free(self.e_parent)
        free(self.e_tid)
        free(self.e_pos)
        free(self.e_kind)
        free(self.stack)
        free(self.b_elem)

    cdef int _grow_elements(self) except -1:
        cdef Py_ssize_t cap = self.e_cap * 2 if self.e_cap else 1024
        self.e_parent = <Py_ssize_t*>_grown(self.e_parent, cap * sizeof(Py_ssize_t))
        self.e_tid = <Py_ssize_t*>_grown(self.e_tid, cap * sizeof(Py_ssize_t))
        self.e_pos = <Py_ssize_t*>_grown(self.e_pos, cap * sizeof(Py_ssize_t))
        self.e_kind = <int*>_grown(self.e_kind, cap * sizeof(int))
        self.e_cap = cap
        return 0

    cdef int start(self, const tree.xmlChar* name, const tree.xmlChar** atts) except -1:
        cdef Slot* slot = self.tables.name(name)
        cdef Py_ssize_t tid = slot.value, e, parent
        cdef int kind = slot.kind
        cdef bint added
        if self.stack_n >= _MAX_OPEN:
            # libxml2's tree builder halts the parse here ("Excessive depth in document"): the tree
            # ends without this element and everything after it
            self.stopped = True
            _stop(self.ctxt)
            return 0
        if self.n_elems == self.e_cap:
            self._grow_elements()
        if self.stack_n == self.stack_cap:
            self.stack_cap = self.stack_cap * 2 if self.stack_cap else 256
            self.stack = <Py_ssize_t*>_grown(self.stack, self.stack_cap * sizeof(Py_ssize_t))
        parent = self.stack[self.stack_n - 1] if self.stack_n else -1
        e = self.n_elems
        self.n_elems += 1
        self.e_parent[e] = parent
        self.e_tid[e] = tid
        self.e_kind[e] = kind
        slot = self.tables.pairs.get(<size_t>(parent + 2) << 4, tid, &added)
        slot.value += 1
        self.e_pos[e] = slot.value
        self.stack[self.stack_n] = e
        self.stack_n += 1
        if self.state == BEFORE:
            # the start: the root's first body child (blocks_of: root.find("body"))
            if self.stack_n == 2 and self.stack[0] == 0 and <str>self.tag_list[tid] == "body":
                self.state = INSIDE
                self.start_at = self.stack_n
                self._open(e, tid, kind, atts, True)
            return 0
        if self.state != INSIDE or self.excluded_at:
            return 0
        self._flush()
        if kind & KIND_EXCLUDED:
            self.excluded_at = self.stack_n
            return 0
        return self._open(e, tid, kind, atts, False)

    cdef int _open(self, Py_ssize_t e, Py_ssize_t tid, int kind, const tree.xmlChar** atts, bint top) except -1:
        # the tree walk's start of an element, from the parser's attribute list
        cdef Py_ssize_t i, k
        cdef int akind
        cdef Level* lv
        cdef Block block
        cdef object block_id = None, block_class = None, label = None
        if top or (kind & KIND_BLOCK):
            if atts != NULL:
                k = 0
                while atts[k] != NULL:
                    akind = _attr_kind(<const char*>atts[k])
                    if akind == ATTR_ID and block_id is None:
                        block_id = _value(atts[k + 1])
                    elif akind == ATTR_CLASS and block_class is None:
                        block_class = _value(atts[k + 1])
                    elif akind == ATTR_LABEL:
                        label = _value(atts[k + 1]) if label is None else label + " " + _value(atts[k + 1])
                    k += 2
            i = len(self.blocks)
            if i == self.b_cap:
                self.b_cap = self.b_cap * 2 if self.b_cap else 256
                self.b_elem = <Py_ssize_t*>_grown(self.b_elem, self.b_cap * sizeof(Py_ssize_t))
            self.b_elem[i] = e
            if not top:
                lv = &self.levels[self.depth]
                _add(lv, "\n", 1)
                block = _new_block(i, <str>self.tag_list[tid], lv.index, lv.last_child, block_id, block_class)
                lv.last_child = i
            else:
                block = _new_block(i, <str>self.tag_list[tid], -1, -1, block_id, block_class)
            if label is not None:
                block.element_label = label
            self.blocks.append(block)
            self.depth += 1
            _push_level(&self.levels, &self.cap, self.depth, i)
        _count(&self.levels[self.depth], tid, self.tables.counts)
        if atts != NULL:
            k = 0
            while atts[k] != NULL:
                akind = _attr_kind(<const char*>atts[k])
                if akind == ATTR_VALUE or akind == ATTR_DATETIME:
                    _add_value(<Block>self.blocks[self.levels[self.depth].index], akind, _value(atts[k + 1]))
                k += 2
        if kind & KIND_LINK:
            self.link_depth += 1
        return 0

    cdef int end(self) except -1:
        cdef Py_ssize_t e, height = self.stack_n
        cdef int kind
        cdef Level* lv
        if height == 0:
            return 0
        e = self.stack[height - 1]
        self.stack_n = height - 1
        if self.state != INSIDE:
            return 0
        if self.excluded_at:
            if height == self.excluded_at:
                self.excluded_at = 0
            return 0
        self._flush()
        kind = self.e_kind[e]
        if (kind & KIND_LINK) and self.link_depth:
            self.link_depth -= 1
        if height == self.start_at or (kind & KIND_BLOCK):
            lv = &self.levels[self.depth]
            _close_level(lv, <Block>self.blocks[lv.index], self.tables, self.texts)
            self.depth -= 1
            if self.depth >= 0:
                _add(&self.levels[self.depth], "\n", 1)
        elif kind & KIND_BR:
            _add(&self.levels[self.depth], "\n", 1)
        if height == self.start_at:
            self.state = DONE
        return 0

    cdef int text(self, const tree.xmlChar* ch, int n, int run) except -1:
        cdef Level* lv
        if self.state != INSIDE or self.excluded_at:
            return 0
        if self.run != run:
            self._flush()
        lv = &self.levels[self.depth]
        if self.run == RUN_NONE:
            self.run = run
            self.run_start = lv.length
        _add(lv, <const char*>ch, n)
        return 0

    cdef int _flush(self) except -1:
        # the end of a text node: inside a link, its stripped characters are link text
        cdef Level* lv
        if self.run == RUN_NONE:
            return 0
        self.run = RUN_NONE
        if self.link_depth:
            lv = &self.levels[self.depth]
            lv.link_chars += _stripped_chars(lv.data + self.run_start, lv.length - self.run_start)
        return 0

    cdef int fail(self, object error) noexcept:
        if self.error is None:
            self.error = error
        self.stopped = True
        if self.ctxt != NULL:
            _stop(self.ctxt)
        return 0

    cdef str path(self, Py_ssize_t e):
        # lxml's getpath of element ``e``
        cdef list steps = []
        while e >= 0:
            steps.append(self.step(e))
            e = self.e_parent[e]
        steps.reverse()
        return "".join(steps)

    cdef str step(self, Py_ssize_t e):
        # "/name", or "/name[k]" when the parent has several element children of that name
        cdef bint added
        cdef Py_ssize_t tid = self.e_tid[e]
        cdef str name = <str>self.tag_list[tid]
        if self.tables.pairs.get(<size_t>(self.e_parent[e] + 2) << 4, tid, &added).value == 1:
            return "/" + name
        return f"/{name}[{self.e_pos[e]}]"

    cdef int set_xpaths(self) except -1:
        # as the tree walk's paths: a block's path extends its enclosing block's, through the inline
        # elements between them (each such element's path computed once)
        cdef dict known = {}
        cdef list steps
        cdef Py_ssize_t i, e, parent, up_elem, node
        cdef Block block, up
        cdef str base
        for i in range(len(self.blocks)):
            block = <Block>self.blocks[i]
            e = self.b_elem[i]
            if i == 0:
                block.xpath = self.path(e)
                continue
            up = <Block>self.blocks[block.parent]
            up_elem = self.b_elem[<Py_ssize_t>block.parent]
            parent = self.e_parent[e]
            if parent == up_elem:
                base = up.xpath
            else:
                base = known.get(parent)
                if base is None:
                    steps = []
                    node = parent
                    while node != up_elem:
                        steps.append(self.step(node))
                        node = self.e_parent[node]
                    steps.reverse()
                    base = known[parent] = up.xpath + "".join(steps)
            block.xpath = base + self.step(e)
        return 0


cdef void* _grown(void* p, size_t size) except NULL:
    cdef void* q = realloc(p, size)
    if q == NULL:
        raise MemoryError()
    return q


cdef str _value(const tree.xmlChar* value):
    # an attribute's value as lxml's .get() gives it ("" for a bare name)
    if value == NULL:
        return ""
    return _decode(<const char*>value, strlen(<const char*>value))


cdef void _on_start(void* ctx, const tree.xmlChar* name, const tree.xmlChar** atts) noexcept:
    cdef _Reader reader = <_Reader>ctx
    if reader.stopped:
        return
    try:
        reader.start(name, atts)
    except BaseException as exc:
        reader.fail(exc)


cdef void _on_end(void* ctx, const tree.xmlChar* name) noexcept:
    cdef _Reader reader = <_Reader>ctx
    if reader.stopped:
        return
    try:
        reader.end()
    except BaseException as exc:
        reader.fail(exc)


cdef inline void _text_event(void* ctx, const tree.xmlChar* ch, int n, int run) noexcept:
    cdef _Reader reader = <_Reader>ctx
    if reader.stopped:
        return
    try:
        reader.text(ch, n, run)
    except BaseException as exc:
        reader.fail(exc)


cdef void _on_text(void* ctx, const tree.xmlChar* ch, int n) noexcept:
    _text_event(ctx, ch, n, RUN_TEXT)


cdef void _on_cdata(void* ctx, const tree.xmlChar* ch, int n) noexcept:
    _text_event(ctx, ch, n, RUN_CDATA)


cdef int _parse(
    bytes data,
    startElementSAXFunc on_start,
    endElementSAXFunc on_end,
    charactersSAXFunc on_text,
    cdataBlockSAXFunc on_cdata,
    void* user,
    xmlParserCtxt** ctxt,
) except -1:
    # libxml2's HTML parse of a page with these callbacks; ``ctxt`` holds the parser context while
    # it runs (a callback may stop it), NULL again afterwards
    cdef xmlSAXHandler sax
    cdef tree.xmlDoc* doc
    if not AVAILABLE:
        raise RuntimeError("libxml2's parser functions were not found in lxml")
    if len(data) > 0x7FFFFFFF:
        raise ValueError("page too large for libxml2")
    memset(&sax, 0, sizeof(sax))
    sax.initialized = XML_SAX2_MAGIC
    sax.startElement = on_start
    sax.endElement = on_end
    sax.characters = on_text
    sax.ignorableWhitespace = on_text
    sax.cdataBlock = on_cdata
    ctxt[0] = _new_ctxt(&sax, user)
    if ctxt[0] == NULL:
        raise MemoryError()
    try:
        doc = _read_memory(ctxt[0], data, <int>len(data), NULL, "utf-8", _OPTIONS)
        if doc != NULL:
            _free_doc(doc)
    finally:
        _free_ctxt(ctxt[0])
        ctxt[0] = NULL
    return 0


def read(bytes data, frozenset block_tags, frozenset excluded, dict texts=None):
    """The blocks of a page (UTF-8 bytes) in preorder, as ``blocks.blocks_of`` gives them from
    ``blocks.parse_html``'s tree; None when the page has no body element to start from."""
    cdef _Reader reader = _Reader(block_tags, excluded, texts)
    _parse(data, _on_start, _on_end, _on_text, _on_cdata, <void*>reader, &reader.ctxt)
    if reader.error is not None:
        raise reader.error
    if reader.state == BEFORE:
        return None
    while reader.state == INSIDE and reader.stack_n:  # (the parser closes every element it opens)
        reader.end()
    reader.set_xpaths()
    return reader.blocks


cdef void _count_start(void* ctx, const tree.xmlChar* name, const tree.xmlChar** atts) noexcept:
    (<Py_ssize_t*>ctx)[0] += 1


cdef void _ignore_end(void* ctx, const tree.xmlChar* name) noexcept:
    pass


cdef void _ignore_text(void* ctx, const tree.xmlChar* ch, int n) noexcept:
    pass


def tokenize(bytes data) -> int:
    """libxml2's parse of a page (UTF-8 bytes) with callbacks that do nothing but count the
    elements started: the floor under ``read``, which bench/extract_speed.py prints beside it."""
    cdef xmlParserCtxt* ctxt = NULL
    cdef Py_ssize_t started = 0
    _parse(data, _count_start, _ignore_end, _ignore_text, _ignore_text, <void*>&started, &ctxt)
    return started
