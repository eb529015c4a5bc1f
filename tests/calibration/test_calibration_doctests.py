"""The doctests of the calibration modules (the package is outside pytest's testpaths)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["camera", "board", "table", "units", "intrinsics", "pose", "locate"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"calibration.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
