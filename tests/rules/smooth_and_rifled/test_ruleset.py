"""Smooth & Rifled's ruleset: its aliases, a scene's validation, contact and the example scene."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arbitre.rules.errors import QuestionError, SceneError
from arbitre.rules.questions import ask
from arbitre.rules.scene import load_scene, parse_scene
from tests.rules.smooth_and_rifled.scenes import PAIR, answer_json, sr_scene

EXAMPLES = Path(__file__).parents[3] / "examples"


def test_aliases_find_the_ruleset() -> None:
    for name in ("sr", "S&R", "smooth-and-rifled"):
        scene = parse_scene(
            {"ruleset": name, "table": {"width_mm": 100, "depth_mm": 100}, "figures": []}
        )
        assert scene.ruleset == "smooth-and-rifled"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"options": {"scale": "20mm"}}, "options.scale"),
        ({"options": {"sacle": "15mm"}}, "options.sacle"),
        (
            {"figures": [{"id": "a", "side": "b", "x_mm": 1, "y_mm": 1, "type": "TD"}]},
            "figures[0].type",
        ),
        (
            {
                "figures": [
                    {
                        "id": "a",
                        "side": "b",
                        "x_mm": 1,
                        "y_mm": 1,
                        "attrs": {"weapon": {"reload": 2}},
                    }
                ]
            },
            "figures[0].attrs.weapon",
        ),
        (
            {"figures": [{"id": "a", "side": "b", "x_mm": 1, "y_mm": 1, "attrs": {"combat": 9}}]},
            "figures[0].attrs.combat",
        ),
    ],
)
def test_bad_scenes_name_the_field(change: dict[str, Any], field: str) -> None:
    data = {"ruleset": "sr", "table": {"width_mm": 100, "depth_mm": 100}, "figures": []}
    with pytest.raises(SceneError) as error:
        parse_scene({**data, **change})
    assert error.value.field == field


@pytest.mark.parametrize(
    ("attrs", "field", "problem"),
    [
        # R from 1 cm to 30 m (3R = 90 m, within the largest table).
        (
            {"weapon": {"medium_range_cm": 1e300}},
            "weapon",
            "medium_range_cm must be a number of cm, 1 to 3000, got 1e+300",
        ),
        ({"weapon": {"medium_range_cm": 1e-300}}, "weapon", "got 1e-300"),
        ({"weapon": {"medium_range_cm": 3001}}, "weapon", "got 3001"),
        # the muzzle is a point within 1 km of the table's corner.
        ({"muzzle_mm": [1e300, 100]}, "muzzle_mm", "within 1,000,000 mm"),
        ({"muzzle_mm": [100, float("nan")]}, "muzzle_mm", "got [100, nan]"),
        ({"muzzle_mm": [100]}, "muzzle_mm", "expected [x, y]"),
        # the VA's last number is a die's face.
        ({"va": "1/2/9"}, "va", "its last number a die's face 1 to 6, got '1/2/9'"),
        ({"va": [1, 2, 10**300]}, "va", "got [1, 2, "),
        ({"va": 3}, "va", "got 3"),
    ],
)
def test_attributes_out_of_bounds_are_scene_errors(
    attrs: dict[str, Any], field: str, problem: str
) -> None:
    with pytest.raises(SceneError) as error:
        sr_scene([{"id": "g", "side": "b", "x_mm": 100, "y_mm": 100, "attrs": attrs}])
    assert error.value.field == f"figures[0].attrs.{field}"
    assert error.value.problem.startswith("figure 'g': ")
    assert problem in error.value.problem


def test_contact_allows_the_camera_tolerance() -> None:
    # Centres 26.5 mm apart: a gap of 1.5 mm <= 2 mm: contact, margin 0.5.
    scene = sr_scene(
        [
            {"id": "a", "side": "b", "x_mm": 100, "y_mm": 100},
            {"id": "c", "side": "r", "x_mm": 126.5, "y_mm": 100},
        ]
    )
    answer = answer_json(scene, "contact", "a", "c")
    assert answer["contact"] is True
    assert answer["gap_mm"] == pytest.approx(1.5, abs=1e-3)
    assert answer["margin_mm"] == pytest.approx(0.5, abs=1e-3)


def test_the_example_scene_answers_at_once() -> None:
    scene = load_scene(EXAMPLES / "smooth-and-rifled-skirmish.yaml")
    groups = answer_json(scene, "groups")["groups"]
    assert sorted(groups["line"]) == ["drum", "sgt", "u1", "u2", "u3"]
    assert answer_json(scene, "fire", "u3", "c1")["band"] == "long"
    assert "obstacle_crossing" in answer_json(scene, "move", "u1", 250, 420)["reasons"]


def test_a_question_about_an_unknown_figure_raises() -> None:
    with pytest.raises(QuestionError, match="unknown figure"):
        ask(sr_scene(PAIR), "distance", ["a", "ghost"])
