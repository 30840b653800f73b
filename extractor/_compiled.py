"""Which extractor modules are also built as C extensions, and the guard against stale builds.

setup.py compiles the modules in ``COMPILED`` with Cython, unchanged: no C types, annotations
ignored, so the compiled module runs exactly the Python semantics of its source (tests compare
their output on the corpus), with less interpreter overhead per block (classification and comment
records spend their time in per-block Python loops). A build is optional: without a compiler the
sources run.

An extension module shadows its ``.py`` in the import system, so after an edit the old build would
run silently. The build records each source's SHA-256 (``_compiled_sources.json``); a module whose
source no longer matches is imported from its ``.py`` instead, with a warning. Setting
``EXTRACTOR_SOURCE_MODULES=1`` imports every one from source (for debugging and for the
equivalence test).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

# Modules whose per-block loops show in a profile of extraction (bench/extract_speed.py). Compiling
# the 23 that were listed earned about 5 % of set extraction in all (CPU time, corpus sets); the
# ones that ran only per page or per comment (authors, comment_words, context, hygiene,
# lone_records, postmeta, replies, single_page) earned nothing measurable and cost
# install time, so they run as Python (docs/algorithm.md, "Compiled modules").
COMPILED: tuple[str, ...] = (
    "core.blocks",
    "core.dates",
    "comments.evidence",
    "comments.fallback",
    "separation.identifiers",
    "core.matching",
    "separation.method",
    "separation.profile",
    "comments.records",
    "separation.recurring",
    "separation.robust",
    "separation.separate",
    "comments.shapes",
    "separation.steps",
    "comments.units",
)
HASHES_FILE = "_compiled_sources.json"
SOURCE_ENV = "EXTRACTOR_SOURCE_MODULES"
_PACKAGE = "extractor"


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_path(directory: Path, name: str) -> Path:
    """The source of a module named below the package: ``comments.units`` -> ``comments/units.py``."""
    return directory.joinpath(*name.split(".")).with_suffix(".py")


def _built_names(directory: Path) -> set[str]:
    """Modules of ``directory`` and its sub-packages with an extension build beside their ``.py``,
    named below the package (``comments.units``)."""
    names = set()
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for path in directory.rglob(f"*{suffix}"):
            source = path.with_name(path.name[: -len(suffix)] + ".py")
            if source.exists():
                names.add(".".join(source.relative_to(directory).with_suffix("").parts))
    return names


def stale_modules(directory: Path) -> list[str]:
    """Modules in ``directory`` and its sub-packages whose build does not match their current source
    (a build of a module that is not in ``COMPILED``, left by another build, counts as stale too)."""
    try:
        recorded = json.loads((directory / HASHES_FILE).read_text())
    except (OSError, ValueError):
        recorded = {}
    stale = []
    for name in sorted(_built_names(directory)):
        if name not in COMPILED or recorded.get(name) != source_digest(source_path(directory, name)):
            stale.append(name)
    return stale


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the listed ``extractor`` modules as their ``.py`` files, ahead of their builds."""

    def __init__(self, directory: Path, names: Sequence[str]) -> None:
        self.sources = {f"{_PACKAGE}.{name}": source_path(directory, name) for name in names}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def prefer_fresh_sources(directory: Path | None = None) -> list[str]:
    """Make stale builds (or all of them, with ``EXTRACTOR_SOURCE_MODULES=1``) import from source.

    Returns the modules that will be imported from source. Called by ``extractor/__init__.py``
    before any of them is imported.
    """
    directory = directory or Path(__file__).resolve().parent
    if os.environ.get(SOURCE_ENV, "") not in ("", "0"):
        names = sorted(_built_names(directory))
    else:
        names = stale_modules(directory)
        if names:
            warnings.warn(
                f"extractor: the builds of {', '.join(names)} do not match their sources, which run "
                "instead (slower); rebuild with `pip install -e .`",
                RuntimeWarning,
                stacklevel=2,
            )
    if names and not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder(directory, names))
    return names
