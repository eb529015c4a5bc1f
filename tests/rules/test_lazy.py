"""Names imported when first used (arbitre.rules.lazy)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arbitre.rules import answer_kinds, answers
from arbitre.rules.lazy import Deferred, deferred_module, exported_lazily, imported
from arbitre.rules.links import Links


def test_a_reference_names_a_module_and_a_name() -> None:
    assert imported("arbitre.rules.links:Links") is Links
    for bad in ("arbitre.rules.links", "arbitre.rules.links:", ""):
        with pytest.raises(ValueError, match="a reference is module:name"):
            imported(bad)
    with pytest.raises(AttributeError):
        imported("arbitre.rules.links:Chains")


def test_a_package_exports_the_names_of_its_modules_and_no_others() -> None:
    getter = exported_lazily("arbitre.rules", {"links": ["Links"]})
    assert getter("Links") is Links
    with pytest.raises(AttributeError, match="module 'arbitre.rules' has no attribute 'Chains'"):
        getter("Chains")


def test_answers_give_the_answer_kinds_as_their_own() -> None:
    assert answers.MoveAnswer is answer_kinds.MoveAnswer
    assert answers.ReachAnswer is answer_kinds.ReachAnswer
    with pytest.raises(AttributeError):
        answers.NoSuchAnswer  # noqa: B018


@pytest.fixture
def probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A module of our own on the path, never imported yet."""
    name = "arbitre_lazy_probe"
    (tmp_path / f"{name}.py").write_text("def double(x):\n    return 2 * x\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    yield name
    sys.modules.pop(name, None)


def test_a_deferred_module_loads_when_a_function_is_called(probe: str) -> None:
    module = deferred_module(probe)
    double = module.double
    assert isinstance(double, Deferred) and repr(double) == f"<deferred {probe}:double>"
    assert probe not in sys.modules  # naming the function imports nothing
    assert double(21) == 42
    assert probe in sys.modules
    assert double.resolve() is sys.modules[probe].double


def test_a_deferred_module_has_no_special_names(probe: str) -> None:
    # Python's machinery asks modules for __wrapped__, __path__...: none is a function.
    module = deferred_module(probe)
    assert not hasattr(module, "__wrapped__")
    assert probe not in sys.modules
    with pytest.raises(AttributeError):
        module.missing()  # a name the real module lacks fails when called
