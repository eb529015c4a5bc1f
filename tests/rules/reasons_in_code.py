"""The reason codes a module of the rules gives, read from its code.

``Reason.X`` is read from the module's syntax tree, so that a comment, a docstring or a
string naming a reason is not counted as the code giving it.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterable
from pathlib import Path

from arbitre.rules.answers import Reason


def reasons_named(sources: Iterable[Path], calling: Collection[str] = ()) -> set[Reason]:
    """The `Reason` members named as ``Reason.X`` in the code of ``sources``; only in the
    functions that call one of ``calling`` (by its bare name) when it is given."""
    named: set[Reason] = set()
    for source in sources:
        tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
        roots: list[ast.AST] = [tree]
        if calling:
            roots = [
                node
                for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                and any(
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Name)
                    and call.func.id in calling
                    for call in ast.walk(node)
                )
            ]
        named |= {
            Reason[node.attr]
            for root in roots
            for node in ast.walk(root)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "Reason"
        }
    return named
