"""Smooth & Rifled's artillery templates: canister reaching a base's edge."""

from __future__ import annotations

import math

import pytest

from arbitre.rules.scene import parse_scene
from tests.rules.smooth_and_rifled.scenes import answer_json, square, sr_scene


@pytest.mark.parametrize("scale", ["28mm", "15mm"])
def test_a_base_touching_the_canister_cone_is_hit_at_either_scale(scale: str) -> None:
    # §6.6: canister hits every figure within 30 cm (15 cm at 15 mm) in a 90 deg cone from
    # the muzzle (600, 170), facing +y. The target's square (700..720, 250..270) touches the
    # cone's edge at its corner (700, 270): 100 mm right and 100 mm up from the muzzle, on
    # the 45 deg line, 141.4 mm away: within either radius. Hit both times (it was missed
    # at 15 mm, the edge drawn a hair the other side of the corner).
    scene = parse_scene(
        {
            "ruleset": "smooth-and-rifled",
            "options": {"scale": scale},
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": [
                {
                    **square("g", "union", 600, 150, 90, type="artillery"),
                    "base": {"shape": "square", "side_mm": 40},
                    "attrs": {"gun": "light", "muzzle_mm": [600, 170]},
                },
                square("t2", "csa", 710, 260, 90, type="infantry"),
            ],
        }
    )
    assert answer_json(scene, "canister", "g")["hit"] == ["t2"]


def test_a_base_touching_the_canister_s_reach_is_hit() -> None:
    # A 25 mm round base whose edge just touches the 30 cm reach of a light gun's
    # canister (its centre 312.5 mm from the muzzle, at 77.3 deg, inside the cone's 45-135):
    # touching is enough. The reach, drawn as chords inside the arc, missed it by 0.01 mm.
    angle = math.radians(77.3)
    x, y = 600 + 312.5 * math.cos(angle), 170 + 312.5 * math.sin(angle)
    scene = sr_scene(
        [
            {
                **square("g", "union", 600, 150, 90, type="artillery"),
                "base": {"shape": "square", "side_mm": 40},
                "attrs": {"gun": "light", "muzzle_mm": [600, 170]},
            },
            {"id": "t", "side": "csa", "x_mm": x, "y_mm": y, "type": "infantry"},
        ]
    )
    assert answer_json(scene, "canister", "g")["hit"] == ["t"]
