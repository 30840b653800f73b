# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled forms of the tree passes over a page's blocks (``treepasses.py``, chosen in
speedups.py): subtree sums, child lists and text flags, each exactly its Python form's result
(tests/test_cwalk.py). They run several times per page in the comment wing: together with the
matching searches (``_cmatch.pyx``) they keep set extraction about 15 % faster (docs/algorithm.md).
"""

from libc.stdlib cimport free, malloc

from extractor._cblock cimport Block


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
            b = blocks[i]
            p = b.parent
            if p >= 0 and acc[i]:
                acc[p] += acc[i]
        return [acc[i] for i in range(n)]
    finally:
        free(acc)


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
        b = blocks[i]
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
