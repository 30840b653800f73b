"""The runnable examples in the extractor's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import extractor

# sub-packages included (core, comments, separation, evaluation, report, archives)
MODULES = sorted(
    m.name for m in pkgutil.walk_packages(extractor.__path__, "extractor.") if m.name.split(".")[-1] != "__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
