"""Builds the optional compiled parts of the extractor; all metadata is in pyproject.toml.

- The passes written for C (``extractor/speedups.py`` says why these and chooses them):
  ``_csax.pyx`` (a page's blocks read while libxml2 parses, without a tree), with ``_cbuild.pyx``
  (how a block's record is built) and ``_cblock.pyx`` (the Block class), ``_cvectors.pyx``
  (block vectors), ``_cunits.pyx`` (tree passes) and ``_cmatch.pyx`` (matching searches).
- The modules listed in ``extractor/_compiled.py`` compiled from their unchanged Python sources
  (Cython with annotations ignored: the same semantics, less interpreter overhead). Each source's
  SHA-256 is recorded, so that an edited source runs instead of its stale build.

Without a C compiler every extension fails softly (``optional=True``) and the same code runs as
pure Python (several times slower, same results).
"""

import json
import os
import runpy
import sys
from pathlib import Path

import lxml
from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "extractor"
compiled = runpy.run_path(str(PACKAGE / "_compiled.py"))
modules = compiled["COMPILED"]

# written before the build reads the sources: the digests describe what is compiled
(PACKAGE / compiled["HASHES_FILE"]).write_text(
    json.dumps({name: compiled["source_digest"](compiled["source_path"](PACKAGE, name)) for name in modules}, indent=1)
    + "\n"
)

extensions = [
    Extension("extractor._cblock", ["extractor/_cblock.pyx"], optional=True),
    Extension("extractor._cbuild", ["extractor/_cbuild.pyx"], include_dirs=lxml.get_include(), optional=True),
    Extension("extractor._cvectors", ["extractor/_cvectors.pyx"], optional=True),
    Extension("extractor._cunits", ["extractor/_cunits.pyx"], optional=True),
    Extension("extractor._cmatch", ["extractor/_cmatch.pyx"], optional=True),
    # dlopen/dlsym find libxml2's parser in lxml's own shared object (libdl: glibc before 2.34)
    Extension(
        "extractor._csax",
        ["extractor/_csax.pyx"],
        include_dirs=lxml.get_include(),
        libraries=["dl"] if sys.platform.startswith("linux") else [],
        optional=True,
    ),
]
# a dotted name is a module of a sub-package: "comments.units" is extractor/comments/units.py
extensions += [
    Extension(f"extractor.{name}", [compiled["source_path"](Path("extractor"), name).as_posix()], optional=True)
    for name in modules
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": "3", "annotation_typing": False, "binding": True},
        quiet=True,
    ),
    options={"build_ext": {"parallel": os.cpu_count() or 1}},
)
