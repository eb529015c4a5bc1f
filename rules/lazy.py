"""Names imported when first used: a rule system's questions, the answer types of its
verdicts, cost a command nothing until it asks for them."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any


def imported(reference: str) -> Any:
    """The object a reference ``package.module:name`` names, its module imported if need be.

    >>> imported("arbitre.rules.answers:Unit").__name__
    'Unit'
    """
    module, colon, name = reference.partition(":")
    if not colon or not name:
        raise ValueError(f"a reference is module:name, got {reference!r}")
    return getattr(importlib.import_module(module), name)


def exported_lazily(package: str, exports: Mapping[str, Sequence[str]]) -> Callable[[str], Any]:
    """A package's ``__getattr__`` (PEP 562) for the names it re-exports from its modules
    (``exports``: module -> names), each module imported when one of its names is first
    used: importing a rule system's package costs only what its questions need."""
    where = {
        name: f"{package}.{module}:{name}" for module, names in exports.items() for name in names
    }

    def __getattr__(name: str) -> Any:
        reference = where.get(name)
        if reference is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return imported(reference)

    return __getattr__


class Deferred:
    """A function of a module not yet imported: `deferred_module`'s attributes. The
    module is imported (by Python's own import, so by one thread at a time) when the
    function is first called or `resolve`d."""

    __slots__ = ("module", "name", "_function")

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        self._function: Any = None

    def resolve(self) -> Any:
        """The function itself, its module imported if need be (once: then kept)."""
        if self._function is None:
            self._function = getattr(importlib.import_module(self.module), self.name)
        return self._function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<deferred {self.module}:{self.name}>"


class DeferredModule(ModuleType):
    """A module named before it is imported: each attribute asked of it is a `Deferred`
    function of the real module, which loads only when one is called.

    A rule system's question table names its handlers through these (``fire.fire_answer``
    with ``fire = deferred_module(...)``, and the real module imported under
    ``TYPE_CHECKING`` for the tools): a type checker, "go to definition" and rename follow
    the name, and a command that asks a distance does not load the fire tables.

    >>> answers = deferred_module("arbitre.rules.answers")
    >>> answers.warning_lines
    <deferred arbitre.rules.answers:warning_lines>
    >>> answers.warning_lines(["too far"])
    '\\nwarning: too far'
    """

    def __getattr__(self, name: str) -> Deferred:
        if name.startswith("__"):
            raise AttributeError(name)
        return Deferred(self.__name__, name)


def deferred_module(name: str) -> ModuleType:
    """A `DeferredModule` standing for the module ``name`` until its functions are used."""
    return DeferredModule(name)
