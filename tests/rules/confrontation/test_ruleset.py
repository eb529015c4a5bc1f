"""rules/confrontation/ruleset.py: the Confrontation ruleset's measures (edge to edge, in cm)
and its checks of a scene's attributes."""

from __future__ import annotations

import math
from typing import Any

import pytest

from arbitre.rules.errors import SceneError
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene
from tests.rules.confrontation.scenes import fig, scene_of


def test_distance_and_contact_are_edge_to_edge() -> None:
    # 25 mm and 40 mm bases, centres 100 mm apart: gap 100 - 12.5 - 20 = 67.5 mm = 6.75 cm.
    scene = scene_of(
        fig("a", "red", 100, 100),
        fig("b", "blue", 200, 100, base={"shape": "round", "diameter_mm": 40}),
        fig("c", "blue", 100, 126.5, sigma_mm=0.5),
    )
    distance = ask(scene, "distance", ["a", "b"]).to_json()
    assert distance["distance_mm"] == pytest.approx(67.5)
    assert distance["distance_units"] == pytest.approx(6.75)
    assert (distance["unit"], distance["mode"]) == ("cm", "edge")
    # a and c: gap 1.5 mm <= 2 mm: contact, margin 0.5 mm, sigma 0.5 -> not certain.
    contact = ask(scene, "contact", ["a", "c"]).to_json()
    assert contact["contact"] is True
    assert contact["gap_mm"] == pytest.approx(1.5)
    assert contact["margin_mm"] == pytest.approx(0.5)
    assert contact["certain"] is False
    tight = parse_scene(
        {
            "ruleset": "confrontation",
            "options": {"contact_tolerance_mm": 1},
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": [fig("a", "red", 100, 100), fig("c", "blue", 100, 126.5)],
        }
    )
    assert ask(tight, "contact", ["a", "c"]).to_json()["contact"] is False


def test_bad_attributes_are_scene_errors() -> None:
    with pytest.raises(SceneError, match=r"figures\[0\].attrs.mou_cm"):
        scene_of(fig("a", "red", 100, 100, attrs={"mou_cm": "fast"}))
    with pytest.raises(SceneError, match=r"figures\[0\].attrs.ini"):
        scene_of(fig("a", "red", 100, 100, attrs={"ini": 2.5}))


@pytest.mark.parametrize(
    ("attrs", "problem"),
    [
        # 100 m = 10,000 cm is the longest MOU; 1e300 overflowed the path finder.
        ({"mou_cm": 1e300}, r"mou_cm: figure 'a': expected a MOU of 1 to 10000 cm, got 1e\+300$"),
        ({"mou_cm": 10_001}, r"mou_cm: .* got 10001$"),
        # under 1 cm is no MOU: 1e-300 pursued "0 cm".
        ({"mou_cm": 1e-300}, r"mou_cm: .* got 1e-300$"),
        ({"mou_cm": 0.5}, r"mou_cm: .* got 0.5$"),
        ({"mou_cm": math.nan}, r"mou_cm: .* got nan$"),
        (
            {"ini": 10**300},
            r"ini: figure 'a': expected an INI, a whole number 0 to 100, got an int",
        ),
        ({"ini": -1}, r"ini: .* got -1$"),
    ],
)
def test_attributes_out_of_bounds_are_scene_errors(attrs: dict[str, Any], problem: str) -> None:
    with pytest.raises(SceneError, match=problem):
        scene_of(fig("a", "red", 100, 100, attrs=attrs))
