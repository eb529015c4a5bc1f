"""`arbitre.rules` is a pure core: it imports nothing from vision, calibration or api."""

from __future__ import annotations

import ast
from pathlib import Path

from arbitre import rules

FORBIDDEN = {"vision", "calibration", "api"}


def _part(module: str) -> str:
    """The part of arbitre a module belongs to (``arbitre.api.cli`` -> ``api``)."""
    top, _, rest = module.partition(".")
    return rest.split(".")[0] if top == "arbitre" and rest else top


def _imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(_part(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "arbitre":
                names.update(alias.name for alias in node.names)
            else:
                names.add(_part(node.module))
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
    sample.write_text(
        "import arbitre.vision.detect\nfrom arbitre.api import cli\n"
        "from arbitre import calibration\nfrom . import x\n"
    )
    assert _imported_packages(sample) == {"vision", "api", "calibration"}
