"""Builds the optional compiled block walk (extractor/_cwalk.pyx); all metadata is in pyproject.toml.

Without a C compiler the build of the extension fails softly (``optional=True``) and the
extractor uses the same walk in pure Python (several times slower, same blocks).
"""

import lxml
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("extractor._cwalk", ["extractor/_cwalk.pyx"], include_dirs=lxml.get_include(), optional=True)],
        compiler_directives={"language_level": "3"},
        quiet=True,
    )
)
