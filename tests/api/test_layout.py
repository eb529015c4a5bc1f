"""The parts of `api` depend one way: the HTTP app and the command line use the live
runtime (`api/live/`), which serves them both and imports neither."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from arbitre.api import live

OUTER = ("arbitre.api.routes", "arbitre.api.main", "arbitre.api.cli", "arbitre.api.bench")


def imported_modules(path: Path) -> set[str]:
    """The absolute modules a source file imports, at any depth of its code."""
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


@pytest.mark.parametrize(
    "path", sorted(Path(live.__file__).parent.glob("*.py")), ids=lambda path: path.name
)
def test_the_live_runtime_imports_neither_the_http_app_nor_the_command_line(path: Path) -> None:
    outer = {m for m in imported_modules(path) if m.startswith(OUTER)}
    assert outer == set()


def test_the_check_sees_an_import_of_the_routes(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from arbitre.api.routes.errors import refusal\n")
    assert any(m.startswith(OUTER) for m in imported_modules(sample))
