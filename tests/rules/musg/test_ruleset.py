"""M.U.S.G. scene checks: the figures' attributes are checked when the scene loads."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import SceneError
from tests.rules.musg.scenes import duel, musg_scene


@pytest.mark.parametrize(
    ("attrs", "field", "problem"),
    [
        # 1 pas = 25 mm here: 100 m is 4,000 pas; 1e300 overflowed the path finder.
        ({"move_pas": 1e300}, "move_pas", "expected 1 to 4000 pas (at most 100 m), got 1e+300"),
        ({"move_pas": 4001}, "move_pas", "got 4001"),
        # under 1 pas is no move.
        ({"move_pas": 1e-300}, "move_pas", "got 1e-300"),
        ({"move_pas": 0.9}, "move_pas", "got 0.9"),
        ({"move_pas": float("inf")}, "move_pas", "got inf"),
        # a weapon's range: at least 1 mm (0.04 pas), at most 100 m.
        ({"weapon": {"kind": "bow", "range_pas": 1e300}}, "weapon.range_pas", "got 1e+300"),
        (
            {"weapon": {"kind": "gun", "short_pas": 0.01, "medium_pas": 1, "long_pas": 2}},
            "weapon.short_pas",
            "expected 0.04 to 4000 pas (at most 100 m), got 0.01",
        ),
        ({"resistance": 10**300}, "resistance", "a whole number 1 to 12, got an integer of"),
        ({"resistance": 0}, "resistance", "got 0"),
        ({"resistance": 3, "armour": 13}, "armour", "a whole number 0 to 12, got 13"),
        ({"resistance": 3, "armour": 1.5}, "armour", "got 1.5"),
    ],
)
def test_attributes_out_of_bounds_are_scene_errors(
    attrs: dict[str, Any], field: str, problem: str
) -> None:
    with pytest.raises(SceneError) as error:
        musg_scene([{"id": "x", "side": "a", "x_mm": 1, "y_mm": 1, "attrs": attrs}])
    assert error.value.field == f"figures[0].attrs.{field}"
    assert error.value.problem.startswith("figure 'x': ")
    assert problem in error.value.problem


def test_rank_and_weapon_are_checked_when_the_scene_loads() -> None:
    with pytest.raises(SceneError, match=r"figures\[0\]\.attrs\.rank"):
        musg_scene([{"id": "x", "side": "a", "x_mm": 1, "y_mm": 1, "attrs": {"rank": "boss"}}])
    with pytest.raises(SceneError, match=r"figures\[0\]\.attrs\.weapon\.long_pas"):
        musg_scene(
            [
                {
                    "id": "x",
                    "side": "a",
                    "x_mm": 1,
                    "y_mm": 1,
                    "attrs": {"weapon": {"short_pas": 1, "medium_pas": 2}},
                }
            ]
        )


def test_weapon_strength_and_powder_are_checked_when_the_scene_loads() -> None:
    bad = {"kind": "musket", "range_pas": 18, "strength": 0}
    with pytest.raises(SceneError, match="strength"):
        musg_scene([{"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "attrs": {"weapon": bad}}])
    bad = {"kind": "musket", "range_pas": 18, "black_powder": "yes"}
    with pytest.raises(SceneError, match="black_powder"):
        musg_scene([{"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "attrs": {"weapon": bad}}])


@pytest.mark.parametrize("command", [-1, 21, 7.5, True, "eight"])
def test_a_command_is_a_whole_number_0_to_20(command: Any) -> None:
    with pytest.raises(SceneError, match=r"command: figure 'a': expected a whole number 0 to 20"):
        duel({"command": command}, {})
