"""Step 3: a block's feature vector (ExtractUniqueBlock 2009 §3.2.3).

>>> from extractor.blocks import parse_blocks
>>> from extractor.options import PAPER
>>> block_vector(parse_blocks("<p>Hi<br>there</p>")[1], PAPER).weights
{'\\n<p': 1.0, '\\n<br': 1.0, 'hi': 1.0, 'there': 1.0}
"""

from __future__ import annotations

import math

from .blocks import ATTR_PREFIX, TAG_PREFIX, Block
from .matching import Vector
from .options import Options


def block_vector(block: Block, options: Options) -> Vector:
    """Tag counts, text-line counts and title/alt/src value counts, weighted as ``options`` says."""
    weights: dict[str, float] = {}
    scale = options.tag_scale
    mode = options.tag_weight
    for tag, n in block.tags.items():
        if mode == "count":
            w = float(n)
        elif mode == "binary":
            w = 1.0
        else:
            w = math.sqrt(n)
        weights[TAG_PREFIX + tag] = w * scale
    for line, n in block.lines.items():
        weights[line] = float(n)
    for value, n in block.attrs.items():
        weights[ATTR_PREFIX + value] = weights.get(ATTR_PREFIX + value, 0.0) + float(n)
    return Vector(weights)
