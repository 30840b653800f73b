# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled forms of the matching searches (matching.py): a set's search for blocks that occur on
another page (``matched_vectors``, step 4-5) and a profile's test of a page's blocks against its
fingerprints (``unmatched``). Each gives exactly its Python form's result (tests/test_matching.py,
tests/test_compiled.py).
"""

from cpython.dict cimport PyDict_Next
from cpython.object cimport PyObject
from libc.math cimport sqrt
from libc.stdlib cimport calloc, free, malloc


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


def unmatched(
    list vectors, dict tested, dict by_key, dict collided, list numbered, dict index, list indexed,
    double threshold, object cosine,
):
    """``matching.FingerprintIndex.unmatched``, compiled: per vector, whether it matches no
    fingerprint (exact weights through the numbering, else an indexed candidate above the
    threshold), memoised in ``tested``."""
    cdef list out = []
    for v in vectors:
        hit = tested.get(v)
        if hit is None:
            hit = tested[v] = _fingerprinted(v, by_key, collided, numbered, index, indexed, threshold, cosine)
        out.append(not hit)
    return out


cdef bint _fingerprinted(
    object x, dict by_key, dict collided, list numbered, dict index, list indexed, double threshold, object cosine
) except -1:
    # FingerprintIndex.matches
    cdef dict weights = x.weights
    cdef set seen
    if not x.norm:
        return False
    i = by_key.get(x.key)
    if i is not None:
        y = numbered[i]
        if y is x or y.weights == weights:
            return True
        for j in collided.get(x.key, ()):
            if numbered[j].weights == weights:
                return True
    seen = set()
    for f in weights:
        candidates = index.get(f)
        if candidates is None:
            continue
        for j in <list>candidates:
            if j not in seen:
                seen.add(j)
                if cosine(x, indexed[j]) > threshold:
                    return True
    return False
