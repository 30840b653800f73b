# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled forms of per-block passes after the walk: vectors (features.py), page output
(pipeline.py), subtree sums, text flags and child lists (units.py), identifier
candidates and assignment (identifiers.py). Each gives exactly its Python form's result
(tests/test_cwalk.py, tests/test_compiled.py). The matching searches are in ``_cmatch.pyx``.
"""

cimport cython

from cpython.dict cimport PyDict_Next
from cpython.object cimport PyObject
from libc.math cimport sqrt
from libc.stdlib cimport free, malloc

from extractor._cblock cimport Block, tag_name


cdef object _vector_key(dict weights):
    # matching.vector_key in C: the same order-free sum, modulo 2**64
    cdef unsigned long long h = <unsigned long long>len(weights)
    cdef unsigned long long hk, hv
    for f, w in weights.items():
        hk = <unsigned long long>hash(f)
        hv = <unsigned long long>hash(w)
        h += (hk * <unsigned long long>0x9E3779B97F4A7C15) ^ hv
    return h


cdef object _block_key(dict tags, bytes pairs, str text, dict attrs):
    # a hash of what a block's vector depends on (tag counts in order, as a dict or as the walk's
    # pairs, text, attribute values), without building tuples of the items; equal blocks share
    # it, and a shared key is confirmed by comparing the three (block_vectors)
    cdef unsigned long long h
    cdef Py_ssize_t pos = 0
    cdef PyObject* k
    cdef PyObject* v
    if pairs is not None:
        h = <unsigned long long>hash(pairs) * <unsigned long long>0x9E3779B97F4A7C15
    else:
        h = <unsigned long long>len(tags) * <unsigned long long>0x9E3779B97F4A7C15
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


cdef inline object _tag_weight(Py_ssize_t n, int kind, double scale):
    if kind == 0:
        return scale
    if kind == 1:
        return n * scale
    return sqrt(<double>n) * scale


def block_vectors(list blocks, str mode, double scale, dict cache, object vector_cls, object hypot, str tag_prefix, str attr_prefix):
    """``features.block_vector`` for every block of a page, compiled (same weights, norm and key).

    ``cache`` shares the vectors of repeated blocks within a set (most of a page's blocks repeat
    on the set's other pages): keyed by a hash of the block's tag counts, text and attribute
    values (a vector depends on nothing else: the lines are the text's), confirmed by comparing
    them. Blocks from the compiled walk hold their tag counts as (tag number, count) pairs
    (``Block.tag_pairs``), read here without a dict.
    """
    cdef list out = []
    cdef dict tags, lines, attrs, weights
    cdef dict tag_keys = {}
    cdef dict number_keys = {}
    cdef bytes pairs
    cdef const unsigned int* p
    cdef Py_ssize_t n, i
    cdef int kind = 0 if mode == "binary" else (1 if mode == "count" else 2)
    cdef Block block
    cdef tuple entry
    for block in blocks:
        pairs = block.tag_pairs
        tags = None if pairs is not None else block.tags
        lines = block.lines
        attrs = block.attrs
        cache_key = _block_key(tags, pairs, block.text, attrs)
        entry = cache.get(cache_key)
        if (
            entry is not None
            and entry[1] == block.text
            and (entry[0] == pairs if pairs is not None else entry[0] == tags)
            and entry[2] == attrs
        ):
            out.append(entry[3])
            continue
        weights = {}
        if pairs is not None:
            p = <const unsigned int*><const char*>pairs
            for i in range(len(pairs) // (2 * sizeof(unsigned int))):
                key = number_keys.get(p[2 * i])
                if key is None:
                    key = number_keys[p[2 * i]] = tag_prefix + tag_name(p[2 * i])
                weights[key] = _tag_weight(p[2 * i + 1], kind, scale)
        else:
            for t, count in tags.items():
                key = tag_keys.get(t)
                if key is None:
                    key = tag_keys[t] = tag_prefix + t
                weights[key] = _tag_weight(count, kind, scale)
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
            cache[cache_key] = (pairs if pairs is not None else tags, block.text, attrs, vector)
        out.append(vector)
    return out


# Untracked by the cyclic collector, as Block: numbers and strings only.
@cython.no_gc
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


def assign_identifiers(list blocks, list cands, object eligible, str default):
    """``identifiers.assign_identifiers``: own eligible identifier, else the previous sibling's,
    else the parent's, else ``default``, in preorder."""
    cdef list out = []
    cdef Block b
    cdef Py_ssize_t i
    if len(cands) != len(blocks):
        raise ValueError("one candidate tuple per block")
    for i in range(len(blocks)):
        b = blocks[i]  # (type-checked)
        own = None
        for c in cands[i]:
            if c in eligible:
                own = c
                break
        if own is not None:
            out.append(own)
        elif b.prev_sibling >= 0:
            out.append(out[b.prev_sibling])
        elif b.parent >= 0:
            out.append(out[b.parent])
        else:
            out.append(default)
    return out


def children(list blocks):
    """``units.children``: each block's child blocks, by index."""
    cdef list kids = [[] for _ in range(len(blocks))]
    cdef Block b
    cdef Py_ssize_t up
    for b in blocks:
        up = b.parent
        if up >= 0:
            (<list>kids[up]).append(b.index)
    return kids


def text_flags(list blocks, object roles, object role, object not_role, frozenset skip_tags):
    """``units.text_flags``: 1 for each block with text (of ``role``, of any role but ``not_role``,
    and not a tag in ``skip_tags``), else 0."""
    cdef Py_ssize_t i, n = len(blocks)
    cdef list out = [0] * n
    cdef Block b
    if roles is not None and len(roles) != n:
        raise ValueError("one role per block")
    for i in range(n):
        b = <Block>blocks[i]
        if not b.text:
            continue
        if roles is not None:
            r = roles[i]
            if (role is not None and r != role) or (not_role is not None and r == not_role):
                continue
        if skip_tags and b.tag in skip_tags:
            continue
        out[i] = 1
    return out
