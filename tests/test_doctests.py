"""The runnable examples in the extractor's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import extractor

MODULES = sorted(
    m.name for m in pkgutil.iter_modules(extractor.__path__, "extractor.") if m.name.split(".")[-1] not in ("__main__",)
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
