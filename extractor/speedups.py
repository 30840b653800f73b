"""The one place that chooses each pass's form: compiled, or the Python form in its own module.

Two passes keep a form written for C, because each earns at least 10 % of set extraction time
(bench/extract_speed.py's workload, each switched to its Python form in turn, see docs/algorithm.md):

- reading a page's blocks while libxml2 parses (``_csax.pyx``, with the block record built in
  ``_cbuild.pyx`` and the ``Block`` class of ``_cblock.pyx``), against parsing a tree and walking it
  in Python (``blocks.parse_blocks``);
- block vectors (``_cvectors.pyx``), against ``features.block_vectors``.

Every other pass has one form, the Python one. A build is optional: without a C compiler (or with
an lxml that hides libxml2's parser functions) the Python forms run, with the same results
(tests/test_compiled.py, tests/test_csax.py).

Modules take ``Block``, ``parse_blocks`` and ``block_vectors`` from here, so compiled blocks and
Python blocks never meet in one run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import blocks, features
from .blocks import ATTR_PREFIX, BLOCK_TAGS, EXCLUDED, TAG_PREFIX, blocks_of, parse_html, reader_bytes
from .matching import Vector
from .options import Options

try:  # built by `pip install -e .` when a C compiler is present
    from . import _cblock, _csax, _cvectors  # type: ignore[attr-defined]

    if not _csax.AVAILABLE:  # pragma: no cover - an lxml that hides libxml2's symbols
        raise ImportError("libxml2's parser functions are not exported by lxml")
except ImportError:
    _cblock = _csax = _cvectors = None

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


if TYPE_CHECKING or not COMPILED:
    Block = blocks.Block
    parse_blocks = blocks.parse_blocks
    block_vectors = features.block_vectors
else:
    # the same class compiled (same fields, defaults and properties): a set creates a hundred
    # thousand blocks, and the reader fills a C struct where the dataclass needs 14 attribute stores
    Block = _cblock.Block
    parse_blocks = _parse_blocks_compiled
    block_vectors = _block_vectors_compiled

__all__ = ["COMPILED", "Block", "block_vectors", "parse_blocks"]
