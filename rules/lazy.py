"""Names imported when first used: a rule system's questions, the answer types of its
verdicts, cost a command nothing until it asks for them."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
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
