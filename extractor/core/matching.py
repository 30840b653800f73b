"""Step 4-5: which blocks occur on only one page of a set (ExtractUniqueBlock 2009 §3.2.4-3.2.5).

    >>> from extractor.core.matching import Vector, unique_blocks
    >>> a, b = Vector({"x": 1.0}), Vector({"x": 1.0, "y": 0.1})
    >>> unique_blocks([[a], [b], [Vector({"z": 1.0})]])
    [[False], [False], [True]]

A block occurrence (page p, vector x) is *matched* when some block on another page q has cosine
similarity > threshold with x; unmatched blocks are content. With near-duplicate page detection
(§4.2), pages are grouped into clusters and a match counts only on a page of another cluster.

The result equals the all-pairs definition exactly (``unique_blocks_bruteforce``, used by the
property tests) at near-linear cost:

1. identical vectors are grouped by hash: a group seen on two clusters is matched outright;
2. the remaining distinct vectors are looked up in an inverted index with prefix filtering
   (Bayardo, Ma & Srikant 2007): features are ordered rarest first and a vector indexes only the
   shortest prefix whose remaining suffix norm is below the threshold, since two vectors sharing no
   indexed feature cannot reach the threshold;
3. every candidate pair is verified with the exact cosine; the search for a vector stops at its
   first qualifying match.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# Guards the prefix bound against rounding: indexing a little more never changes the result.
EPS = 1e-9


_MASK = (1 << 64) - 1
_MIX = 0x9E3779B97F4A7C15


def vector_key(weights: dict[str, float]) -> int:
    """An order-free 64-bit hash of a vector's features and weights: equal vectors share it.

    Unequal vectors may share it too, so grouping by key compares the weights as well
    (``DistinctVectors``). A frozenset of the items did both at once, but built a hash table and one
    tuple per feature for each of a set's ~50,000 text blocks. ``_cvectors.block_vectors`` computes
    the same value in C (tests/test_cvectors.py compares them).
    """
    h = len(weights)
    for f, w in weights.items():
        h += ((hash(f) & _MASK) * _MIX & _MASK) ^ (hash(w) & _MASK)
    return h & _MASK


class Vector:
    """A sparse non-negative feature vector with its norm and identity key (``vector_key``)."""

    __slots__ = ("key", "norm", "weights")

    def __init__(self, weights: dict[str, float]) -> None:
        self.weights = weights
        self.norm: float = math.hypot(*weights.values())
        self.key: int = vector_key(weights)

    def __repr__(self) -> str:
        return f"Vector({self.weights!r})"


def cosine(a: Vector, b: Vector) -> float:
    """Exact cosine similarity of two sparse vectors (0 when either is empty).

    The dot product is summed with ``math.fsum`` (correctly rounded, so independent of the order of
    terms): cosine(a, b) == cosine(b, a) to the last bit, which the "exceeds 0.9" test relies on.
    """
    a_norm, b_norm = a.norm, b.norm
    if not a_norm or not b_norm:
        return 0.0
    aw, bw = a.weights, b.weights
    if len(aw) > len(bw):
        aw, bw = bw, aw
    dot = math.fsum([w * bw[f] for f, w in aw.items() if f in bw])
    return dot / (a_norm * b_norm)


def similar(a: Vector, b: Vector, threshold: float) -> bool:
    return cosine(a, b) > threshold


def unique_blocks_bruteforce(
    pages: Sequence[Sequence[Vector]], threshold: float = 0.9, clusters: Sequence[int] | None = None
) -> list[list[bool]]:
    """The definition, all pairs: True where a block matches no block of another page (cluster)."""
    cl = list(clusters) if clusters is not None else list(range(len(pages)))
    out: list[list[bool]] = []
    for p, vectors in enumerate(pages):
        row: list[bool] = []
        for x in vectors:
            matched = any(similar(x, y, threshold) for q, others in enumerate(pages) if cl[q] != cl[p] for y in others)
            row.append(not matched)
        out.append(row)
    return out


@dataclass(slots=True, eq=False)
class _Distinct:
    vector: Vector
    pages: set[int]


class DistinctVectors:
    """Vectors numbered by identity of their weights (key first, then the weights compared).

    >>> d = DistinctVectors()
    >>> d.number(Vector({"a": 1.0})), d.number(Vector({"b": 1.0})), d.number(Vector({"a": 1.0}))
    (0, 1, 0)
    """

    __slots__ = ("by_key", "collided", "vectors")

    def __init__(self) -> None:
        self.vectors: list[Vector] = []
        self.by_key: dict[int, int] = {}
        self.collided: dict[int, list[int]] = {}  # further numbers of a key shared by unequal vectors

    def find(self, v: Vector) -> int | None:
        """The number of ``v``'s weights, None when they were not seen."""
        i = self.by_key.get(v.key)
        if i is None:
            return None
        if self.vectors[i] is v or self.vectors[i].weights == v.weights:
            return i
        return next((j for j in self.collided.get(v.key, ()) if self.vectors[j].weights == v.weights), None)

    def number(self, v: Vector) -> int:
        """The number of ``v``'s weights, a new one when they were not seen before."""
        i = self.find(v)
        if i is not None:
            return i
        i = len(self.vectors)
        if v.key in self.by_key:
            self.collided.setdefault(v.key, []).append(i)
        else:
            self.by_key[v.key] = i
        self.vectors.append(v)
        return i

    def __contains__(self, v: Vector) -> bool:
        return self.find(v) is not None


def _group(pages: Sequence[Sequence[Vector]]) -> tuple[list[_Distinct], list[list[int]]]:
    """Distinct vectors with the pages they occur on, and each occurrence's distinct index."""
    numbers = DistinctVectors()
    by_key, seen = numbers.by_key, numbers.vectors
    distinct: list[_Distinct] = []
    where: list[list[int]] = []
    for p, vectors in enumerate(pages):
        row = []
        for v in vectors:
            i = by_key.get(v.key)
            # the common cases inline (one call per block adds up): shared object, or a new key
            if i is None or (seen[i] is not v and seen[i].weights != v.weights):
                i = numbers.number(v)
                if i == len(distinct):
                    distinct.append(_Distinct(v, set()))
            distinct[i].pages.add(p)
            row.append(i)
        where.append(row)
    return distinct, where


def _prefixes(vectors: Sequence[Vector], threshold: float) -> list[list[str]]:
    """Per distinct vector, the features it must be indexed under (rarest first)."""
    df: dict[str, int] = {}
    for v in vectors:
        for f in v.weights:
            df[f] = df.get(f, 0) + 1
    # one global order (document frequency, ties in first-seen order: deterministic, and any
    # fixed order keeps the result exact) as integer ranks, so each vector's features sort with a
    # C-level key
    rank = {f: r for r, f in enumerate(sorted(df, key=df.__getitem__))}
    by_rank = rank.__getitem__
    out: list[list[str]] = []
    for v in vectors:
        if not v.norm:
            out.append([])
            continue
        weights = v.weights
        # suffix norm: drop features from the front while the rest can still reach the threshold
        rest = v.norm * v.norm
        bound = (threshold - EPS) * v.norm
        prefix = []
        for f in sorted(weights, key=by_rank) if len(weights) > 1 else weights:
            prefix.append(f)
            rest -= weights[f] ** 2
            if rest <= 0 or math.sqrt(max(rest, 0.0)) < bound:
                break
        out.append(prefix)
    return out


Grouping = tuple[list[_Distinct], list[list[int]]]


def group_vectors(pages: Sequence[Sequence[Vector]]) -> Grouping:
    """Identical vectors grouped once, to share between near-duplicate detection and matching."""
    return _group(pages)


def unique_blocks(
    pages: Sequence[Sequence[Vector]],
    threshold: float = 0.9,
    clusters: Sequence[int] | None = None,
    grouped: Grouping | None = None,
    search: Callable[[list[Vector], list[set[int]], list[int], float], list[bool]] | None = None,
) -> list[list[bool]]:
    """True where a block matches no block on a page of another cluster (fast, exact); `search` is
    ``matched_vectors`` or its compiled form (speedups.unique_blocks chooses)."""
    cl = list(clusters) if clusters is not None else list(range(len(pages)))
    distinct, where = grouped if grouped is not None else _group(pages)
    vectors, page_sets = [d.vector for d in distinct], [d.pages for d in distinct]
    matched = (search or matched_vectors)(vectors, page_sets, cl, threshold)
    # an empty vector has cosine 0 with everything, even with an identical empty vector
    return [[not distinct[i].vector.norm or not matched[i] for i in row] for row in where]


def matched_vectors(
    vectors: Sequence[Vector], page_sets: Sequence[set[int]], cl: Sequence[int], threshold: float
) -> list[bool]:
    """Per distinct vector (with the pages it occurs on): whether it occurs on two clusters or
    matches a vector that occurs on another cluster than its own."""
    # clusters reached by each distinct vector (itself and its verified neighbours)
    occurs: list[set[int]] = [{cl[p] for p in pages} for pages in page_sets]
    reach = [set(clusters) for clusters in occurs]
    open_ids = [i for i, r in enumerate(reach) if len(r) < 2 and vectors[i].norm]
    if open_ids:
        prefixes = _prefixes(vectors, threshold)
        index: dict[str, list[int]] = {}
        for i, prefix in enumerate(prefixes):
            for f in prefix:
                index.setdefault(f, []).append(i)
        for i in open_ids:
            if len(reach[i]) >= 2:
                continue
            x = vectors[i]
            seen = {i}
            for f in x.weights:
                for j in index.get(f, ()):
                    if j in seen:
                        continue
                    seen.add(j)
                    if reach[j] == reach[i]:  # (single: the search stops when it grows)
                        continue  # a neighbour confined to the same single cluster adds nothing
                    if similar(x, vectors[j], threshold):
                        reach[i] |= occurs[j]
                        reach[j] |= occurs[i]
                        if len(reach[i]) >= 2:
                            break
                if len(reach[i]) >= 2:
                    break
    return [len(r) >= 2 for r in reach]


def near_duplicate_clusters(
    pages: Sequence[Sequence[Vector]],
    text_chars: Sequence[Sequence[int]],
    share: float = 0.5,
    grouped: Grouping | None = None,
) -> list[int]:
    """Cluster ids per page: pages whose text blocks mostly coincide form one cluster (2009 §4.2).

    Only text-bearing blocks found on at most two pages count: boilerplate is on many pages and
    would join every pair. Two pages join when the text they share that way is at least ``share`` of
    the smaller page's such text (and at least 200 characters, so two short pages sharing a
    sentence stay apart).
    """
    if len(pages) < 3:
        # with two pages, "on at most two pages" holds for the shared template too: no third page
        # can tell a duplicated article from boilerplate, so two pages are never merged
        return list(range(len(pages)))
    distinct, where = grouped if grouped is not None else _group(pages)
    own = [0] * len(pages)
    shared: dict[tuple[int, int], int] = {}
    counted: set[tuple[int, int]] = set()
    for p, row in enumerate(where):
        for i, chars in zip(row, text_chars[p], strict=True):
            d = distinct[i]
            if not chars or len(d.pages) > 2 or (p, i) in counted:
                continue
            counted.add((p, i))
            own[p] += chars
            if len(d.pages) == 2:
                a, b = sorted(d.pages)
                if p == a:
                    shared[(a, b)] = shared.get((a, b), 0) + chars
    parent = list(range(len(pages)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for (a, b), chars in shared.items():
        if chars >= 200 and chars >= share * min(own[a], own[b]):
            parent[find(a)] = find(b)
    return [find(p) for p in range(len(pages))]


class FingerprintIndex:
    """Fixed vectors (a site profile's boilerplate) indexed once, queried one block at a time.

    >>> index = FingerprintIndex([Vector({"nav": 1.0})])
    >>> index.matches(Vector({"nav": 1.0, "x": 0.1})), index.matches(Vector({"post": 1.0}))
    (True, False)

    Same rule as ``unique_blocks``: a query matches when some indexed vector has cosine similarity
    above the threshold. The prefix bound holds for any feature order, so queries need no order.
    """

    def __init__(self, vectors: Sequence[Vector], threshold: float = 0.9) -> None:
        self.threshold = threshold
        self.vectors = [v for v in vectors if v.norm]
        self.keys = DistinctVectors()
        for v in self.vectors:
            self.keys.number(v)
        self.index: dict[str, list[int]] = {}
        for i, prefix in enumerate(_prefixes(self.vectors, threshold)):
            for f in prefix:
                self.index.setdefault(f, []).append(i)

    def unmatched(self, vectors: Sequence[Vector], tested: dict[Vector, bool]) -> list[bool]:
        """``not self.matches(v)`` for each of a page's vectors, memoised in ``tested`` by vector
        object (a profile's read cache hands repeated blocks one shared ``Vector``)."""
        out = []
        for v in vectors:
            hit = tested.get(v)
            if hit is None:
                hit = tested[v] = self.matches(v)
            out.append(not hit)
        return out

    def matches(self, x: Vector) -> bool:
        if not x.norm:
            return False
        if self.keys.find(x) is not None:  # an exact fingerprint: most of a page
            return True
        seen: set[int] = set()
        for f in x.weights:
            for j in self.index.get(f, ()):
                if j not in seen:
                    seen.add(j)
                    if similar(x, self.vectors[j], self.threshold):
                        return True
        return False
