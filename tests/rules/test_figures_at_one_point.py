"""Figures standing at one point (a marker read twice, a pile of casualties): every
question of every rule system answers or refuses in one line, with no stray warning."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from arbitre.rules.errors import RulesError
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset
from arbitre.rules.scene import parse_scene

CASES: dict[str, tuple[list[dict[str, Any]], dict[str, Any] | None]] = {
    "choc-base-6": (
        [
            {
                "id": "a",
                "side": "blue",
                "x_mm": 300,
                "y_mm": 300,
                "group": "A",
                "reference": True,
                "type": "TD",
            },
            {"id": "a2", "side": "blue", "x_mm": 300, "y_mm": 300, "group": "A", "type": "TD"},
            {
                "id": "b",
                "side": "red",
                "x_mm": 300,
                "y_mm": 300,
                "group": "B",
                "reference": True,
                "type": "TD",
            },
            {"id": "c", "side": "red", "x_mm": 300, "y_mm": 300, "group": "B", "type": "TD"},
        ],
        {"unit_mm": 100},
    ),
    "smooth-and-rifled": (
        [
            {
                "id": "a",
                "side": "u",
                "x_mm": 300,
                "y_mm": 300,
                "type": "infantry",
                "unit": "U",
                "attrs": {"weapon": {"medium_range_cm": 30}},
            },
            {"id": "b", "side": "r", "x_mm": 300, "y_mm": 300, "type": "infantry", "unit": "R"},
            {"id": "c", "side": "r", "x_mm": 300, "y_mm": 300, "type": "infantry", "unit": "R"},
        ],
        None,
    ),
    "musg": (
        [
            {
                "id": "a",
                "side": "u",
                "x_mm": 300,
                "y_mm": 300,
                "attrs": {"move_pas": 6, "weapon": {"kind": "bow", "range_pas": 20, "strength": 3}},
            },
            {"id": "b", "side": "r", "x_mm": 300, "y_mm": 300, "attrs": {"move_pas": 6}},
            {"id": "c", "side": "r", "x_mm": 300, "y_mm": 300, "attrs": {"move_pas": 6}},
        ],
        None,
    ),
    "mbt": (
        [
            {
                "id": "a",
                "side": "u",
                "x_mm": 300,
                "y_mm": 300,
                "type": "infantry",
                "base": {"shape": "rect", "width_mm": 40, "depth_mm": 20},
                "attrs": {"archer": True},
            },
            {
                "id": "b",
                "side": "r",
                "x_mm": 300,
                "y_mm": 300,
                "type": "infantry",
                "base": {"shape": "rect", "width_mm": 40, "depth_mm": 20},
            },
            {
                "id": "c",
                "side": "r",
                "x_mm": 300,
                "y_mm": 300,
                "type": "infantry",
                "base": {"shape": "rect", "width_mm": 40, "depth_mm": 20},
            },
        ],
        None,
    ),
    "confrontation": (
        [
            {"id": "a", "side": "u", "x_mm": 300, "y_mm": 300, "attrs": {"ini": 3, "mou_cm": 10}},
            {"id": "b", "side": "r", "x_mm": 300, "y_mm": 300, "attrs": {"ini": 3, "mou_cm": 10}},
            {"id": "c", "side": "r", "x_mm": 300, "y_mm": 300, "attrs": {"ini": 3, "mou_cm": 10}},
        ],
        None,
    ),
}


@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_figures_at_one_point_raise_no_warning(ruleset: str) -> None:
    figures, options = CASES[ruleset]
    document: dict[str, Any] = {
        "ruleset": ruleset,
        "table": {"width_mm": 1200, "depth_mm": 900},
        "figures": figures,
    }
    if options:
        document["options"] = options
    scene = parse_scene(document)
    asked = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a NumPy RuntimeWarning would fail here
        for question in sorted(find_ruleset(ruleset).questions()):
            for args in (["a", "b"], ["a"], [], ["a", "350", "300"]):
                try:
                    ask(scene, question, args)
                    asked += 1
                except RulesError as error:
                    assert "\n" not in str(error).strip()
    assert asked > 0
