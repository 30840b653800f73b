"""Step 3: a block's feature vector (ExtractUniqueBlock 2009 §3.2.3).

>>> from extractor.core.blocks import parse_blocks
>>> from extractor.core.options import PAPER
>>> block_vector(parse_blocks("<p>Hi<br>there</p>")[1], PAPER).weights
{'\\n<p': 1.0, '\\n<br': 1.0, 'hi': 1, 'there': 1}
"""

from __future__ import annotations

import math
from typing import Any

from .blocks import ATTR_PREFIX, TAG_PREFIX, Block
from .matching import Vector
from .options import Options

_TAG_KEYS: dict[str, str] = {}


def _tag_key(tag: str) -> str:
    key = _TAG_KEYS.get(tag)
    if key is None:
        key = _TAG_KEYS[tag] = TAG_PREFIX + tag
    return key


def block_vectors(blocks: list[Block], options: Options, cache: dict[Any, Any]) -> list[Vector]:
    """``block_vector`` for every block of a page (the Python form; speedups.block_vectors is the
    one extraction uses)."""
    return [block_vector(b, options, cache) for b in blocks]


def block_vector(block: Block, options: Options, cache: dict[Any, Any] | None = None) -> Vector:
    """Tag counts, text-line counts and title/alt/src value counts, weighted as ``options`` says.

    Blocks with neither text nor attribute values (layout wrappers, most of a page) have vectors
    determined by their tags alone; ``cache`` shares those between the blocks and pages of a set.
    """
    tags = block.tags
    bare = not block.lines and not block.attrs
    if bare and cache is not None:
        cache_key = tuple(tags.items())  # tags keep first-seen order; another order only misses
        hit = cache.get(cache_key)
        if hit is not None:
            return hit
    scale = options.tag_scale
    mode = options.tag_weight
    if mode == "binary":
        weights: dict[str, float] = {_tag_key(t): scale for t in tags}
    elif mode == "count":
        weights = {_tag_key(t): n * scale for t, n in tags.items()}
    else:
        weights = {_tag_key(t): math.sqrt(n) * scale for t, n in tags.items()}
    if block.lines:
        weights.update(block.lines)  # type: ignore[arg-type]  # int counts are fine as weights
    if block.attrs:
        for value, n in block.attrs.items():
            key = ATTR_PREFIX + value
            weights[key] = weights.get(key, 0) + n
    vector = Vector(weights)
    if bare and cache is not None:
        cache[cache_key] = vector
    return vector
