"""The examples in the docstrings of `vision` run as written."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from vision import detect, simulate


@pytest.mark.parametrize("module", [detect, simulate], ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
