"""The old name of ``extractor.method``, kept only while the build's list of compiled modules
(``_compiled.py``) still names it; import from ``extractor.method``."""

from .method import *  # noqa: F403
