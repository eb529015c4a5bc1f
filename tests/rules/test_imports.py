"""`arbitre.rules` is a pure core: it imports nothing from vision, calibration or api; and a
rule system imports the module of a question only when it is asked."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

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


# A distance asks for none of a rule system's other questions: each is imported when asked.
_TWO = [
    {"id": "a", "side": "blue", "x_mm": 100.0, "y_mm": 100.0},
    {"id": "b", "side": "red", "x_mm": 300.0, "y_mm": 100.0},
]
_RECT = {"shape": "rect", "width_mm": 40.0, "depth_mm": 20.0}
DISTANCE_NEEDS = {
    "smooth-and-rifled": (
        [dict(f, type="infantry") for f in _TWO],
        {"bases", "book", "groups", "ruleset"},
    ),
    "musg": (_TWO, {"bases", "book", "ruleset"}),
    "mbt": ([dict(f, type="infantry", base=_RECT) for f in _TWO], {"book", "plates", "ruleset"}),
    "confrontation": (_TWO, {"book", "contacts", "ruleset"}),
}


@pytest.mark.parametrize("ruleset", sorted(DISTANCE_NEEDS))
def test_a_distance_imports_only_the_modules_measures_need(ruleset: str) -> None:
    figures, needed = DISTANCE_NEEDS[ruleset]
    package = f"arbitre.rules.{ruleset.replace('-', '_')}"
    scene = {"ruleset": ruleset, "table": {"width_mm": 600, "depth_mm": 400}, "figures": figures}
    script = (
        "import json, sys\n"
        "from arbitre.rules.questions import ask\n"
        "from arbitre.rules.scene import parse_scene\n"
        f"scene = parse_scene(json.loads({json.dumps(json.dumps(scene))}))\n"
        "print(ask(scene, 'distance', ['a', 'b']).to_json()['distance_mm'])\n"
        f"print(' '.join(sorted(m.removeprefix('{package}.') for m in sys.modules"
        f" if m.startswith('{package}.'))))\n"
        "print(*(f'arbitre.rules.{m}' in sys.modules for m in ('pathing', 'answer_kinds')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert float(out[0]) > 0.0, out
    assert set(out[1].split()) == needed, out
    assert out[2] == "False False", out  # the path finder and fire's answers wait their turn


def test_a_question_named_by_reference_imports_its_module_when_asked() -> None:
    script = (
        "import sys\n"
        "from arbitre.rules.registry import find_ruleset\n"
        "question = find_ruleset('sr').questions()['fire']\n"
        "print('arbitre.rules.smooth_and_rifled.fire' in sys.modules)\n"
        "print(question.handler.__module__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "arbitre.rules.smooth_and_rifled.fire"]
