"""The examples in the docstrings of every arbitre module run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

PARTS = ("arbitre.rules", "arbitre.vision", "arbitre.calibration", "arbitre.api")


TOP = ("arbitre.files", "arbitre.names")  # the modules below the four parts


def _modules_with_examples() -> list[str]:
    names = [
        name
        for name in TOP
        if ">>> " in Path(importlib.util.find_spec(name).origin or "").read_text(encoding="utf-8")
    ]
    for part in PARTS:
        package = importlib.import_module(part)
        for info in pkgutil.walk_packages(package.__path__, f"{part}."):
            spec = importlib.util.find_spec(info.name)
            origin = spec.origin if spec is not None else None
            if origin and ">>> " in Path(origin).read_text(encoding="utf-8"):
                names.append(info.name)
    return sorted(names)


MODULES = _modules_with_examples()


def test_the_modules_with_examples_are_found() -> None:
    assert {"arbitre.rules.registry", "arbitre.vision.detect", "arbitre.calibration.camera"} <= set(
        MODULES
    )


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in doctest.DocTestFinder().find(module):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0
