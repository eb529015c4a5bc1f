"""Scenes and helpers shared by the Smooth & Rifled tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene

GOLDEN = Path(__file__).parents[1] / "golden"


def sr_scene(figures: list[dict[str, Any]], **extra: Any) -> Any:
    """A Smooth & Rifled scene on a 1200 x 900 mm table (``extra``: more top-level keys)."""
    return parse_scene(
        {
            "ruleset": "smooth-and-rifled",
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": figures,
            **extra,
        }
    )


def answer_json(scene: Any, question: str, *args: object, **extras: Any) -> dict[str, Any]:
    """The JSON of the answer to ``question`` with its arguments and options."""
    return ask(scene, question, [str(a) for a in args], extras).to_json()


def golden_scene(name: str, **options: Any) -> Any:
    """The scene of ``tests/rules/golden/smooth-and-rifled-<name>.yaml``, with more options."""
    path = GOLDEN / f"smooth-and-rifled-{name}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))["scene"]
    data["options"] = {**data.get("options", {}), **options}
    return parse_scene(data)


def square(ident: str, side: str, x: float, y: float, facing: float, **more: Any) -> dict[str, Any]:
    """A figure on a 20 mm square base."""
    base = {"shape": "square", "side_mm": 20}
    return {
        "id": ident,
        "side": side,
        "x_mm": x,
        "y_mm": y,
        "facing_deg": facing,
        "base": base,
        **more,
    }


# a and its enemy e, their 25 mm bases 1 mm apart: the scene of the tests of bad questions.
PAIR = [
    {"id": "a", "side": "b", "x_mm": 100, "y_mm": 100},
    {"id": "e", "side": "r", "x_mm": 126, "y_mm": 100},
]

# A Leader and an ambush marker: the scene of the tests of questions' bad input.
LEADER_AND_MARKER = [
    {"id": "L", "side": "blue", "x_mm": 100, "y_mm": 100, "attrs": {"leader": True}},
    {"id": "m", "side": "red", "x_mm": 100, "y_mm": 300, "attrs": {"ambush": True}},
]

# The volley example of §6.2.5: Blue (muskets 20/2) fires at Red in loose order, target C.
# Shooters b1 and b2 are more than 20 cm from C (long range); the five others (b3-b7) are
# within 20 cm and fire first. A house hides G from b3-b7; b1 and b2 could see it.
VOLLEY_SCENE = {
    "ruleset": "smooth-and-rifled",
    "table": {"width_mm": 1200, "depth_mm": 900},
    "figures": [
        *(
            {
                "id": f"b{k}",
                "side": "blue",
                "unit": "blue",
                "x_mm": x,
                "y_mm": 100,
                "facing_deg": 90,
                "attrs": {"leader": k == 4, "weapon": {"medium_range_cm": 20, "reload": 2}},
            }
            for k, x in ((1, 100), (2, 130), (3, 180), (4, 210), (5, 240), (6, 270), (7, 300))
        ),
        {"id": "C", "side": "red", "unit": "red", "x_mm": 300, "y_mm": 290},
        {"id": "B", "side": "red", "unit": "red", "x_mm": 260, "y_mm": 340},
        {"id": "A", "side": "red", "unit": "red", "x_mm": 210, "y_mm": 380},
        {"id": "G", "side": "red", "unit": "red", "x_mm": 115, "y_mm": 400},
    ],
    "terrain": [
        {
            "id": "house",
            "kind": "building",
            "polygon_mm": [[124, 320], [180, 320], [180, 360], [124, 360]],
        },
    ],
}
