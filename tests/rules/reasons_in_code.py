"""The reason codes a module of the rules gives, read from its code.

``Reason.X`` is read from the module's syntax tree, so that a comment, a docstring or a
string naming a reason is not counted as the code giving it.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterable
from pathlib import Path

from arbitre.rules.answers import Reason

_Function = ast.FunctionDef | ast.AsyncFunctionDef


def _named(root: ast.AST) -> set[Reason]:
    return {
        Reason[node.attr]
        for node in ast.walk(root)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Reason"
    }


def _called(root: ast.AST) -> set[str]:
    return {
        node.func.id
        for node in ast.walk(root)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


def reasons_named(
    sources: Iterable[Path], calling: Collection[str] = (), shared: Iterable[Path] = ()
) -> set[Reason]:
    """The `Reason` members named as ``Reason.X`` in the code of ``sources``; when
    ``calling`` is given, only in the functions named there and those that call one of
    them (by its bare name). The top-level functions of ``shared`` that this code calls
    add the reasons they name (a verdict shared by every rule system)."""
    helpers = {
        node.name: node
        for path in shared
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, _Function)
    }
    named: set[Reason] = set()
    for source in sources:
        tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
        roots: list[ast.AST] = [tree]
        if calling:
            roots = [
                node
                for node in ast.walk(tree)
                if isinstance(node, _Function)
                and (node.name in calling or _called(node) & set(calling))
            ]
        for root in roots:
            named |= _named(root)
            for name in _called(root) & set(helpers):
                named |= _named(helpers[name])
    return named
