"""`rules` is a pure core: it imports nothing from vision, calibration or api."""

from __future__ import annotations

import ast
from pathlib import Path

import rules

FORBIDDEN = {"vision", "calibration", "api"}


def _imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_rules_imports_none_of_the_outer_packages() -> None:
    sources = sorted(Path(rules.__file__).parent.rglob("*.py"))
    assert len(sources) > 5
    offenders = {
        str(path.name): sorted(_imported_packages(path) & FORBIDDEN)
        for path in sources
        if _imported_packages(path) & FORBIDDEN
    }
    assert offenders == {}


def test_the_checker_sees_an_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import vision.detect\nfrom api import cli\nfrom . import x\n")
    assert _imported_packages(sample) == {"vision", "api"}
