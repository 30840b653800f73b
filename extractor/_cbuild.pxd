# How a block's record is built (_cbuild.pyx): the C-side records and helpers that the tree walk
# (formerly _cwalk.pyx) and the streaming reader (_csax.pyx) share, so that both build blocks with one code.

from libc.stdlib cimport realloc
from libc.string cimport memcpy

from lxml.includes cimport tree

from extractor._cblock cimport Block


cdef struct Level:
    # One open block: its text buffer (UTF-8), link characters, latest child block, and its tag
    # counts as (tag number, count) pairs in first-seen order (a dict per block, updated per
    # element, cost more than the rest of the block's record).
    char* data
    Py_ssize_t length
    Py_ssize_t cap
    Py_ssize_t link_chars
    Py_ssize_t last_child
    Py_ssize_t index
    unsigned int* pairs
    Py_ssize_t npairs
    Py_ssize_t pcap


# Element names: libxml2 gives each a name pointer (interned per document). A small open-addressing
# table maps the pointer to the tag's number (one per distinct name string) and what the walk needs
# to know about it, instead of a dict lookup, a Python int and set lookups per element.
cdef enum:
    KIND_BLOCK = 1
    KIND_EXCLUDED = 2
    KIND_LINK = 4
    KIND_BR = 8


# The attributes a block reads (_attr_kind): its identifiers, and the values its vector counts.
cdef enum:
    ATTR_ID = 1
    ATTR_CLASS = 2
    ATTR_VALUE = 3  # title, alt, src
    ATTR_DATETIME = 4
    ATTR_LABEL = 5  # aria-label, itemtype, itemprop


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


cdef class _Table:
    cdef Slot* slots
    cdef Py_ssize_t cap, used
    cdef int _rehash(self, Py_ssize_t cap) except -1
    cdef Slot* get(self, size_t a, Py_ssize_t b, bint* added) except NULL


cdef class _Tables:
    cdef _Table names
    cdef _Table pairs
    cdef Place* places
    cdef Py_ssize_t places_cap, places_used
    cdef list tag_list  # number -> tag str
    cdef dict tag_ids  # tag str -> number
    cdef Py_ssize_t* numbers  # number -> process-wide number (_cblock.tag_number; -1 past its limit)
    cdef Py_ssize_t numbers_cap
    cdef _Table counts  # (block, tag number) -> position in the block's pairs, for blocks of many tags
    cdef frozenset block_tags, excluded
    cdef Slot* name(self, const tree.xmlChar* ptr) except NULL
    cdef int _grow_numbers(self) except -1
    cdef Py_ssize_t siblings(self, size_t parent, Py_ssize_t tag_id) except -1
    cdef int place(self, size_t own, size_t parent, Py_ssize_t tag_id) except -1


cdef inline int _grow(Level* lv, Py_ssize_t extra) except -1:
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


cdef inline bint _blank(const char* s, Py_ssize_t n) noexcept:
    # ASCII whitespace only: most layout wrappers hold nothing else, and need no decoding.
    cdef Py_ssize_t i
    cdef char c
    for i in range(n):
        c = s[i]
        if c != 32 and c != 10 and c != 9 and c != 13 and c != 12 and c != 11:
            return False
    return True


cdef str _decode(const char* s, Py_ssize_t n)
cdef Py_ssize_t _stripped_chars(const char* s, Py_ssize_t n) except -1
cdef object _measure(Block block, const char* data, Py_ssize_t length, Py_ssize_t link_chars, dict texts)
cdef int _count(Level* lv, Py_ssize_t tid, _Table counts) except -1
cdef int _set_tags(Block block, Level* lv, _Tables tables) except -1
cdef int _attr_kind(const char* name) noexcept
cdef int _add_value(Block block, int kind, str value) except -1
cdef int _push_level(Level** levels, Py_ssize_t* cap, Py_ssize_t depth, Py_ssize_t index) except -1
cdef int _close_level(Level* lv, Block block, _Tables tables, dict texts) except -1
cdef void _free_levels(Level* levels, Py_ssize_t cap) noexcept
cdef Block _new_block(Py_ssize_t index, str tag, Py_ssize_t parent, Py_ssize_t prev, object id_, object class_)
