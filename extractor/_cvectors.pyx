# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Block vectors compiled (``features.block_vectors``'s compiled form, chosen in speedups.py): the
same weights, norm and key (tests/test_cvectors.py, tests/test_compiled.py)."""


from cpython.dict cimport PyDict_Next
from cpython.object cimport PyObject
from libc.math cimport sqrt

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
