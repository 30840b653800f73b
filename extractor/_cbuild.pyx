# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""How a block's record is built, shared by the two readers that find blocks (ExtractUniqueBlock
2009 §3.2.2-3.2.3): the tree walk in C (``_cwalk``, removed: see speedups.py) and the streaming
reader (``_csax.read``, while libxml2 parses). Both call these functions, so the blocks they give
are built by one code: element names numbered through a C table, a block's tag counts kept as
(tag number, count) pairs, its text gathered in a C buffer and measured once (``_measured``, the
compiled ``blocks._finish``), its title/alt/src and datetime values, and the stack of open blocks.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.unicode cimport (
    PyUnicode_4BYTE_KIND,
    PyUnicode_DATA,
    PyUnicode_DecodeASCII,
    PyUnicode_DecodeUTF8,
    PyUnicode_FromKindAndData,
    PyUnicode_KIND,
    PyUnicode_READ,
    PyUnicode_Substring,
    Py_UNICODE_ISSPACE,
    Py_UNICODE_TOLOWER,
)
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memset, strcmp, strlen

from lxml.includes cimport tree

from extractor._cblock cimport Block, fill_block, tag_number


cdef inline size_t _mix(size_t a, size_t b) noexcept:
    cdef size_t h = (a >> 4) * <size_t>0x9E3779B97F4A7C15 + <size_t>b * <size_t>0xC2B2AE3D27D4EB4F
    return h ^ (h >> 29)


cdef class _Table:
    """An open-addressing table of (pointer, number) keys, freed with the object."""

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

    def __cinit__(self, frozenset block_tags, frozenset excluded):
        self.block_tags = block_tags
        self.excluded = excluded
        self.names = _Table()
        self.pairs = _Table()
        self.tag_list = []
        self.tag_ids = {}
        self.counts = _Table()

    def __dealloc__(self):
        free(self.places)
        free(self.numbers)

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
                if tid == self.numbers_cap:
                    self._grow_numbers()
                self.numbers[tid] = tag_number(tag)
            slot.value = tid
            slot.kind = (
                (KIND_BLOCK if tag in self.block_tags else 0)
                | (KIND_EXCLUDED if tag in self.excluded else 0)
                | (KIND_LINK if tag == "a" else 0)
                | (KIND_BR if tag == "br" else 0)
            )
        return slot

    cdef int _grow_numbers(self) except -1:
        cdef Py_ssize_t cap = self.numbers_cap * 2 if self.numbers_cap else 64
        cdef Py_ssize_t* p = <Py_ssize_t*>realloc(self.numbers, cap * sizeof(Py_ssize_t))
        if p == NULL:
            raise MemoryError()
        self.numbers, self.numbers_cap = p, cap
        return 0

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


cdef str _decode(const char* s, Py_ssize_t n):
    return PyUnicode_DecodeUTF8(s, n, "replace")


# how a kept line is lower-cased (_measured)
cdef enum:
    _ASCII = 0  # ASCII letters only
    _SIMPLE = 1  # each character through its simple lower case
    _FULL = 2  # by str.lower(): the line holds U+0130 or a capital sigma


cdef tuple _measured(str text):
    # blocks._finish, compiled: the lines of the block (whitespace runs collapsed, blank lines
    # dropped) joined, their lower-cased counts, and the characters of text; None when blank.
    # One pass over the code points (Py_UNICODE_ISSPACE is str.split()'s whitespace) instead of
    # a list and a string per raw line and per word. Kept lines are lower-cased here, character by
    # character through the simple lower case (Py_UNICODE_TOLOWER), which is str.lower()'s full
    # one for every code point but two: U+0130 (two characters) and the capital sigma (final or
    # not, by context). A line holding either is lower-cased by str.lower().
    cdef Py_UCS4* lowered
    cdef Py_ssize_t n = len(text), i = 0, out = 0, kept = 0, k, start
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef unsigned int c, high
    cdef bint word, space, special, changed
    cdef Py_UCS4* buf
    cdef Py_ssize_t* spans  # per kept line: start and end in ``buf``, and how it is lower-cased
    cdef char* low
    cdef dict lines = {}
    cdef str joined, key
    if n == 0:
        return None
    buf = <Py_UCS4*>malloc((n + 1) * sizeof(Py_UCS4))
    spans = <Py_ssize_t*>malloc((n // 2 + 2) * 3 * sizeof(Py_ssize_t))
    low = <char*>malloc(n + 1)
    lowered = <Py_UCS4*>malloc((n + 1) * sizeof(Py_UCS4))
    if buf == NULL or spans == NULL or low == NULL or lowered == NULL:
        free(buf)
        free(spans)
        free(low)
        free(lowered)
        raise MemoryError()
    try:
        while i <= n:
            word = space = False
            start = out
            high = 0
            special = False
            while i < n:
                c = <unsigned int>PyUnicode_READ(kind, data, i)
                i += 1
                if c == 10:
                    break
                if Py_UNICODE_ISSPACE(<Py_UCS4>c):
                    space = word
                    continue
                if not word:
                    if kept:
                        buf[out] = 10
                        out += 1
                    start = out
                    word = True
                elif space:
                    buf[out] = 32
                    out += 1
                    space = False
                buf[out] = <Py_UCS4>c
                out += 1
                high |= c
                if c == 0x130 or c == 0x3A3:
                    special = True
            else:
                i += 1  # the end of the text ends its last line
            if word:
                spans[3 * kept] = start
                spans[3 * kept + 1] = out
                spans[3 * kept + 2] = _ASCII if high < 128 else (_FULL if special else _SIMPLE)
                kept += 1
        if not kept:
            return None
        joined = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, out)
        for k in range(kept):
            if spans[3 * k + 2] == _ASCII:
                for i in range(spans[3 * k], spans[3 * k + 1]):
                    c = <unsigned int>buf[i]
                    low[i - spans[3 * k]] = <char>(c + 32 if 65 <= c <= 90 else c)
                key = PyUnicode_DecodeASCII(low, spans[3 * k + 1] - spans[3 * k], NULL)
            elif spans[3 * k + 2] == _SIMPLE:
                changed = False
                for i in range(spans[3 * k], spans[3 * k + 1]):
                    c = <unsigned int>buf[i]
                    if c < 128:
                        lowered[i] = <Py_UCS4>(c + 32 if 65 <= c <= 90 else c)
                    else:
                        lowered[i] = Py_UNICODE_TOLOWER(<Py_UCS4>c)
                    changed = changed or lowered[i] != c
                if changed:
                    key = PyUnicode_FromKindAndData(
                        PyUnicode_4BYTE_KIND, &lowered[spans[3 * k]], spans[3 * k + 1] - spans[3 * k]
                    )
                else:  # (CJK text: no case) the line is its own key
                    key = PyUnicode_Substring(joined, spans[3 * k], spans[3 * k + 1])
            else:
                key = PyUnicode_Substring(joined, spans[3 * k], spans[3 * k + 1]).lower()
            lines[key] = lines.get(key, 0) + 1
        return (joined, lines, out - kept + 1)
    finally:
        free(buf)
        free(spans)
        free(low)
        free(lowered)


cdef Py_ssize_t _stripped_chars(const char* s, Py_ssize_t n) except -1:
    # len(_decode(s, n).strip()): the characters of a text run without its surrounding whitespace
    # (link text), counted without a str when the run is ASCII, as most link texts are
    cdef Py_ssize_t i, start = 0, end = n
    for i in range(n):
        if <unsigned char>s[i] >= 128:
            return len(_decode(s, n).strip())
    while start < end and Py_UNICODE_ISSPACE(<Py_UCS4><unsigned char>s[start]):
        start += 1
    while end > start and Py_UNICODE_ISSPACE(<Py_UCS4><unsigned char>s[end - 1]):
        end -= 1
    return end - start


def stripped_chars(bytes data):
    """``_stripped_chars`` for tests."""
    return _stripped_chars(data, len(data))


def measured(str text):
    """``_measured`` for tests: (joined lines, lower-cased line counts, characters) or None."""
    return _measured(text)


cdef object _measure(Block block, const char* data, Py_ssize_t length, Py_ssize_t link_chars, dict texts):
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


# Past this many tags, a block finds a tag's pair through _Tables.counts instead of a scan.
cdef Py_ssize_t _SCAN_PAIRS = 32


cdef int _count(Level* lv, Py_ssize_t tid, _Table counts) except -1:
    # one more element of tag ``tid`` in the open block ``lv``
    cdef Py_ssize_t i, n = lv.npairs, cap
    cdef unsigned int* p
    cdef Slot* slot
    cdef bint added
    if n <= _SCAN_PAIRS:
        for i in range(n):
            if lv.pairs[2 * i] == tid:
                lv.pairs[2 * i + 1] += 1
                return 0
    else:
        slot = counts.get(<size_t>(lv.index + 1) << 4, tid, &added)
        if not added:
            lv.pairs[2 * slot.value + 1] += 1
            return 0
        slot.value = n
    if n == lv.pcap:
        cap = lv.pcap * 2 if lv.pcap else 8
        p = <unsigned int*>realloc(lv.pairs, cap * 2 * sizeof(unsigned int))
        if p == NULL:
            raise MemoryError()
        lv.pairs, lv.pcap = p, cap
    lv.pairs[2 * n] = <unsigned int>tid
    lv.pairs[2 * n + 1] = 1
    lv.npairs = n + 1
    if n == _SCAN_PAIRS:  # from now on looked up: index the pairs so far
        for i in range(n + 1):
            counts.get(<size_t>(lv.index + 1) << 4, lv.pairs[2 * i], &added).value = i
    return 0


cdef int _set_tags(Block block, Level* lv, _Tables tables) except -1:
    # the block's tag counts as (process-wide number, count) pairs; a dict when a name has no
    # number (more distinct names than _cblock numbers)
    cdef Py_ssize_t i, n = lv.npairs
    cdef bytes raw
    cdef unsigned int* out
    cdef dict tags
    cdef bint numbered = True
    for i in range(n):
        numbered = numbered and tables.numbers[lv.pairs[2 * i]] >= 0
    if not numbered:
        tags = {}
        for i in range(n):
            tags[tables.tag_list[lv.pairs[2 * i]]] = <Py_ssize_t>lv.pairs[2 * i + 1]
        block._tags = tags
        return 0
    raw = PyBytes_FromStringAndSize(NULL, n * 2 * sizeof(unsigned int))
    out = <unsigned int*>PyBytes_AS_STRING(raw)
    for i in range(n):
        out[2 * i] = <unsigned int>tables.numbers[lv.pairs[2 * i]]
        out[2 * i + 1] = lv.pairs[2 * i + 1]
    block.tag_pairs = raw
    return 0


cdef dict _EMPTY = {}
cdef tuple _MISSING = ()


cdef Block _new_block(Py_ssize_t index, str tag, Py_ssize_t parent, Py_ssize_t prev, object id_, object class_):
    # Block(index, tag, parent, prev_sibling, id, class) without __init__'s argument parsing; the
    # tag counts are set when the block ends (_set_tags). Most blocks have no text lines or
    # attribute values: they share one empty dict, never written to (the walk gives a block its
    # own attrs dict before adding to it).
    cdef Block block = Block.__new__(Block)
    fill_block(block, index, tag, parent, prev, id_, class_, "", "", 0, 0, None, _EMPTY, _EMPTY, ())
    return block


cdef int _attr_kind(const char* name) noexcept:
    # which of the attributes a block reads ``name`` is (ATTR_*), else 0; by the first letter, so
    # that the many others (href, rel, style, width, data-*) cost one comparison
    cdef char first = name[0]
    if first == b"i":
        if strcmp(name, "id") == 0:
            return ATTR_ID
        return ATTR_LABEL if strcmp(name, "itemprop") == 0 or strcmp(name, "itemtype") == 0 else 0
    if first == b"c":
        return ATTR_CLASS if strcmp(name, "class") == 0 else 0
    if first == b"t":
        return ATTR_VALUE if strcmp(name, "title") == 0 else 0
    if first == b"a":
        if strcmp(name, "alt") == 0:
            return ATTR_VALUE
        return ATTR_LABEL if strcmp(name, "aria-label") == 0 else 0
    if first == b"s":
        return ATTR_VALUE if strcmp(name, "src") == 0 else 0
    if first == b"d":
        return ATTR_DATETIME if strcmp(name, "datetime") == 0 else 0
    return 0


cdef int _add_value(Block block, int kind, str value) except -1:
    # a title/alt/src value counted in the block's attrs (its own dict made on the first one:
    # _new_block's is shared), or a datetime value; stripped, and nothing when blank
    cdef dict attrs
    value = value.strip()
    if not value:
        return 0
    if kind == ATTR_DATETIME:
        block.datetimes += (value,)
        return 0
    attrs = block.attrs
    if attrs is _EMPTY:
        attrs = block.attrs = {}
    attrs[value] = attrs.get(value, 0) + 1
    return 0


cdef int _push_level(Level** levels, Py_ssize_t* cap, Py_ssize_t depth, Py_ssize_t index) except -1:
    # level ``depth`` (the array grown as needed, new levels without buffers) opened for block ``index``
    cdef Py_ssize_t n
    cdef Level* grown
    cdef Level* lv
    if depth >= cap[0]:
        n = cap[0] * 2 if cap[0] else 64
        grown = <Level*>realloc(levels[0], n * sizeof(Level))
        if grown == NULL:
            raise MemoryError()
        memset(&grown[cap[0]], 0, (n - cap[0]) * sizeof(Level))
        levels[0], cap[0] = grown, n
    lv = &levels[0][depth]
    lv.length = 0
    lv.link_chars = 0
    lv.last_child = -1
    lv.index = index
    lv.npairs = 0
    return 0


cdef int _close_level(Level* lv, Block block, _Tables tables, dict texts) except -1:
    # the end of the open block: its tag counts and text measures
    _set_tags(block, lv, tables)
    if not _blank(lv.data, lv.length):
        _measure(block, lv.data, lv.length, lv.link_chars, texts)
    return 0


cdef void _free_levels(Level* levels, Py_ssize_t cap) noexcept:
    cdef Py_ssize_t n
    if levels != NULL:
        for n in range(cap):
            free(levels[n].data)
            free(levels[n].pairs)
        free(levels)


