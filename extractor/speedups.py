"""The one place that chooses each pass's form: compiled, or the Python form in its own module.

Two passes keep a form written for C, because each earns at least 10 % of set extraction time
(bench/extract_speed.py's workload, each switched to its Python form in turn, see docs/algorithm.md):

- reading a page's blocks while libxml2 parses (``_csax.pyx``, with the block record built in
  ``_cbuild.pyx`` and the ``Block`` class of ``_cblock.pyx``), against parsing a tree and walking it
  in Python (``blocks.parse_blocks``);
- block vectors (``_cvectors.pyx``), against ``features.block_vectors``.

Two more keep one because together they earn it: the tree passes the comment wing runs several
times per page (``_cunits.pyx``, against ``treepasses.py``) and the matching searches
(``_cmatch.pyx``, against ``matching.matched_vectors`` and ``FingerprintIndex.unmatched``): each
earns 3-10 %, together about 15 % of set extraction, more than the speed guard allows.

Every other pass has one form, the Python one. A build is optional: without a C compiler (or with
an lxml that hides libxml2's parser functions) the Python forms run, with the same results
(tests/test_compiled.py, tests/test_csax.py).

Modules take ``Block``, ``parse_blocks``, ``block_vectors``, the tree passes, ``unique_blocks`` and
``unmatched`` from here, so compiled blocks and Python blocks never meet in one run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .core import blocks, features, matching, treepasses
from .core.blocks import ATTR_PREFIX, BLOCK_TAGS, EXCLUDED, TAG_PREFIX, blocks_of, parse_html, reader_bytes
from .core.matching import FingerprintIndex, Grouping, Vector
from .core.options import Options

try:  # built by `pip install -e .` when a C compiler is present
    from . import _cblock, _cmatch, _csax, _cunits, _cvectors  # type: ignore[attr-defined]

    if not _csax.AVAILABLE:  # pragma: no cover - an lxml that hides libxml2's symbols
        raise ImportError("libxml2's parser functions are not exported by lxml")
except ImportError:
    _cblock = _cmatch = _csax = _cunits = _cvectors = None

COMPILED: bool = _csax is not None


def _parse_blocks_compiled(text: str, cache: dict[Any, Any] | None = None, utf8: bytes | None = None) -> list[Any]:
    """``blocks.parse_blocks``, read while libxml2 parses: the same blocks as from ``parse_html``'s
    tree, without building and freeing a tree. A page without a body element, which that reader does
    not start on, is read from the tree by the Python walk (into compiled blocks)."""
    data = reader_bytes(text, utf8)
    if not data or data.isspace():
        return []
    found = _csax.read(data, BLOCK_TAGS, EXCLUDED, cache)
    if found is not None:
        return found  # type: ignore[no-any-return]
    root = parse_html(text, data)
    return [] if root is None else blocks_of(root, _cblock.Block)


def _block_vectors_compiled(blocks: list[Any], options: Options, cache: dict[Any, Any]) -> list[Vector]:
    """``features.block_vectors``, compiled; it also shares the vectors of repeated text blocks
    through ``cache``."""
    return _cvectors.block_vectors(  # type: ignore[no-any-return]
        blocks, options.tag_weight, options.tag_scale, cache, Vector, features.math.hypot, TAG_PREFIX, ATTR_PREFIX
    )


def _compiled_blocks(blocks: Sequence[Any]) -> bool:
    # the compiled passes take a list of compiled blocks (a test may hand Python ones)
    return type(blocks) is list and (not blocks or type(blocks[0]) is _cblock.Block)


def _children_compiled(blocks: Sequence[Any]) -> list[list[int]]:
    if _compiled_blocks(blocks):
        return _cunits.children(blocks)  # type: ignore[no-any-return]
    return treepasses.children(blocks)


def _subtree_sums_compiled(values: list[int], blocks: Sequence[Any]) -> list[int]:
    if _compiled_blocks(blocks):
        return _cunits.subtree_sums(values, blocks)  # type: ignore[no-any-return]
    return treepasses.subtree_sums(values, blocks)


def _text_flags_compiled(
    blocks: Sequence[Any],
    roles: Sequence[str] | None = None,
    role: str | None = None,
    not_role: str | None = None,
    skip_tags: frozenset[str] = frozenset(),
) -> list[int]:
    if _compiled_blocks(blocks):
        return _cunits.text_flags(blocks, roles, role, not_role, skip_tags)  # type: ignore[no-any-return]
    return treepasses.text_flags(blocks, roles, role, not_role, skip_tags)


def _matched_vectors_compiled(
    vectors: Sequence[Vector], page_sets: Sequence[set[int]], cl: Sequence[int], threshold: float
) -> list[bool]:
    return _cmatch.matched_vectors(  # type: ignore[no-any-return]
        list(vectors), list(page_sets), list(cl), threshold, matching.EPS, matching.cosine
    )


def unique_blocks(
    pages: Sequence[Sequence[Vector]],
    threshold: float = 0.9,
    clusters: Sequence[int] | None = None,
    grouped: Grouping | None = None,
) -> list[list[bool]]:
    """``matching.unique_blocks`` with the search in its chosen form."""
    search = _matched_vectors_compiled if COMPILED else matching.matched_vectors
    return matching.unique_blocks(pages, threshold, clusters, grouped, search=search)


def unmatched(index: FingerprintIndex, vectors: Sequence[Vector], tested: dict[Vector, bool]) -> list[bool]:
    """``index.unmatched(vectors, tested)`` in its chosen form."""
    if not COMPILED:
        return index.unmatched(vectors, tested)
    keys = index.keys
    return _cmatch.unmatched(  # type: ignore[no-any-return]
        vectors, tested, keys.by_key, keys.collided, keys.vectors, index.index, index.vectors,
        index.threshold, matching.cosine,
    )  # fmt: skip


if TYPE_CHECKING or not COMPILED:
    Block = blocks.Block
    parse_blocks = blocks.parse_blocks
    block_vectors = features.block_vectors
    children = treepasses.children
    subtree_sums = treepasses.subtree_sums
    text_flags = treepasses.text_flags
else:
    # the same class compiled (same fields, defaults and properties): a set creates a hundred
    # thousand blocks, and the reader fills a C struct where the dataclass needs 14 attribute stores
    Block = _cblock.Block
    parse_blocks = _parse_blocks_compiled
    block_vectors = _block_vectors_compiled
    children = _children_compiled
    subtree_sums = _subtree_sums_compiled
    text_flags = _text_flags_compiled


def subtree_sizes(page: Sequence[Block]) -> list[int]:
    """Each block's subtree size, itself included (a subtree is contiguous in preorder)."""
    return subtree_sums([1] * len(page), page)


__all__ = [
    "COMPILED",
    "Block",
    "block_vectors",
    "children",
    "parse_blocks",
    "subtree_sizes",
    "subtree_sums",
    "text_flags",
    "unique_blocks",
    "unmatched",
]
