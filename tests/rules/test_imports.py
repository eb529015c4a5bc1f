"""`arbitre.rules` is a pure core: it imports nothing from vision, calibration or api; a
question under one rule system imports no other."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from arbitre import rules
from arbitre.rules.registry import find_ruleset, ruleset_names

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
DISTANCE_SCENES = {
    "choc-base-6": [dict(f, reference=True) for f in _TWO],
    "smooth-and-rifled": [dict(f, type="infantry") for f in _TWO],
    "musg": _TWO,
    "mbt": [dict(f, type="infantry", base=_RECT) for f in _TWO],
    "confrontation": _TWO,
}


@pytest.mark.parametrize("ruleset", sorted(DISTANCE_SCENES))
def test_a_distance_imports_no_other_rule_system(ruleset: str) -> None:
    package = ruleset.replace("-", "_")
    scene = {
        "ruleset": ruleset,
        "table": {"width_mm": 600, "depth_mm": 400},
        "figures": DISTANCE_SCENES[ruleset],
    }
    script = (
        "import json, sys\n"
        "from arbitre.rules.questions import ask\n"
        "from arbitre.rules.scene import parse_scene\n"
        f"scene = parse_scene(json.loads({json.dumps(json.dumps(scene))}))\n"
        "print(ask(scene, 'distance', ['a', 'b']).to_json()['distance_mm'])\n"
        "print(' '.join(sorted({m.split('.')[2] for m in sys.modules"
        " if m.startswith('arbitre.rules.') and m.count('.') >= 2})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    # 200 mm centre to centre; less for the systems that measure base edge to base edge
    assert 0.0 < float(out[0]) <= 200.0, out
    systems = {"choc_base_6", "smooth_and_rifled", "musg", "mbt", "confrontation"}
    assert set(out[1].split()) & systems == {package}, out


# The modules whose questions a distance does not ask: named in the question table through
# a deferred module, they load when one of their questions is first asked.
DEFERRED = {
    "mbt": ("moves", "panic", "shooting", "victory"),
    "confrontation": ("combats", "pursuit"),
    "musg": ("dice", "fire", "mishaps", "morale", "moves", "reactions", "support"),
    "smooth-and-rifled": ("fire", "gun_moves", "moves", "opportunity", "scenario", "tables"),
}


@pytest.mark.parametrize("ruleset", sorted(DEFERRED))
def test_a_distance_leaves_the_other_questions_modules_unloaded(ruleset: str) -> None:
    package = f"arbitre.rules.{ruleset.replace('-', '_')}"
    scene = {
        "ruleset": ruleset,
        "table": {"width_mm": 600, "depth_mm": 400},
        "figures": DISTANCE_SCENES[ruleset],
    }
    script = (
        "import json, sys\n"
        "from arbitre.rules.questions import ask\n"
        "from arbitre.rules.registry import find_ruleset\n"
        "from arbitre.rules.scene import parse_scene\n"
        f"scene = parse_scene(json.loads({json.dumps(json.dumps(scene))}))\n"
        "ask(scene, 'distance', ['a', 'b'])\n"
        f"print(*(f'{package}.{{m}}' in sys.modules for m in {DEFERRED[ruleset]!r}))\n"
        "find_ruleset(scene.ruleset).questions()  # the table is made, still nothing loads\n"
        f"print(*(f'{package}.{{m}}' in sys.modules for m in {DEFERRED[ruleset]!r}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    unloaded = " ".join(["False"] * len(DEFERRED[ruleset]))
    assert out == [unloaded, unloaded]


def test_every_question_names_a_function_of_its_own_rule_system() -> None:
    """Each handler is a function object (go-to-definition and rename follow it), defined
    in its rule system's package or in the shared core."""
    for name in ruleset_names():
        ruleset = find_ruleset(name)
        package = type(ruleset).__module__.rsplit(".", 1)[0]
        for question in ruleset.questions().values():
            module = question.handler.__module__
            assert callable(question.handler), (name, question.name)
            assert module.startswith((package, "arbitre.rules.ruleset")), (name, module)
