"""A figure moved exactly its allowance is within it, in every direction, under every rule
system that moves figures: the goal written as a tool writes it (a float's shortest
decimals), its cost a few 1e-14 mm over the allowance on paper's equal.

Before, Choc Base 6 refused 114 of the 360 directions (`over_allowance`, "cost 200.00,
allowance 200.00") and Smooth & Rifled 81 of those its backwards limit left, while M.U.S.G.
and MBT, comparing with their own slack, refused none.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene

START = (600.0, 450.0)


def _lone(ruleset: str) -> Any:
    """A figure alone on an empty 1200 x 900 table, facing +y (90 degrees)."""
    figure: dict[str, Any] = {"id": "a", "side": "blue", "x_mm": START[0], "y_mm": START[1]}
    document: dict[str, Any] = {
        "ruleset": ruleset,
        "table": {"width_mm": 1200, "depth_mm": 900},
        "figures": [figure],
    }
    if ruleset == "choc-base-6":
        document["options"] = {"unit_mm": 100}
        figure |= {"type": "CR", "attrs": {"alone": True}}
    elif ruleset == "smooth-and-rifled":
        figure["type"] = "infantry"
    elif ruleset == "musg":
        figure["attrs"] = {"move_pas": 2}
    else:
        figure |= {"type": "infantry", "base": {"shape": "rect", "width_mm": 40, "depth_mm": 20}}
    return parse_scene(document)


@pytest.mark.parametrize(
    ("ruleset", "allowance_mm"),
    [
        ("choc-base-6", 200.0),  # a lone CR: 2 PA of 1 M, 100 mm here
        ("smooth-and-rifled", 120.0),  # infantry's first move, 12 cm at 28 mm scale
        ("musg", 50.8),  # move_pas 2 of 25.4 mm
        ("mbt", 75.0),  # infantry, 3 graduations of 25 mm
    ],
)
def test_a_move_of_exactly_the_allowance_is_legal_in_every_direction(
    ruleset: str, allowance_mm: float
) -> None:
    scene = _lone(ruleset)
    refused = []
    for degrees in range(360):
        angle = math.radians(degrees)
        x = START[0] + allowance_mm * math.cos(angle)
        y = START[1] + allowance_mm * math.sin(angle)
        answer = ask(scene, "move", ["a", repr(x), repr(y)]).to_json()
        assert answer["allowance_mm"] == pytest.approx(allowance_mm, abs=1e-9)
        if not answer["legal"]:
            refused.append((degrees, answer["reasons"]))
    if ruleset == "smooth-and-rifled":
        # §6.1: at most 3 cm backwards keeping the facing. Facing +y, the move goes
        # 120 x -sin(angle) mm backwards: past 30 mm where sin(angle) < -0.25, that is
        # from 194.48 to 345.52 degrees: 195..345, 151 directions, refused for that alone.
        assert [degrees for degrees, _ in refused] == list(range(195, 346))
        assert {tuple(reasons) for _, reasons in refused} == {("backwards_too_far",)}
    else:
        assert refused == []
