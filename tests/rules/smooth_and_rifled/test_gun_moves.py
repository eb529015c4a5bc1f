"""Smooth & Rifled: a gun moved and turned by its crew (Règles avancées, Artillerie)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from arbitre.rules.smooth_and_rifled.gun_moves import turn_deg
from tests.rules.smooth_and_rifled.scenes import answer_json, sr_scene


def _light_gun(gunner_y: float, **options: Any) -> Any:
    """A light gun g at (300, 300) on a 40 mm square facing +y (its back edge at y 280) and
    one gunner c on a 25 mm round base at (300, gunner_y)."""
    return sr_scene(
        [
            {
                "id": "g",
                "side": "blue",
                "type": "artillery",
                "x_mm": 300,
                "y_mm": 300,
                "facing_deg": 90,
                "base": {"shape": "square", "side_mm": 40},
                "attrs": {"gun": "light"},
            },
            {"id": "c", "side": "blue", "x_mm": 300, "y_mm": gunner_y, "attrs": {"crew_of": "g"}},
        ],
        options=options,
    )


def test_a_gun_without_a_gunner_within_3_cm_does_not_move() -> None:
    # « Les artilleurs doivent être placés à 3cm ou moins de leur pièce »: c's base is
    # 280 - 217.5 - 12.5 = 50 mm from the gun's: no die, the gun stays. A turn alone is not
    # a move of the gun.
    scene = _light_gun(217.5)
    moved = answer_json(scene, "gunmove", "g", 300, 330)
    assert (moved["legal"], moved["reasons"], moved["dice"]) == (False, ["crew_too_far"], 0)
    turned = answer_json(scene, "gunmove", "g", 300, 300, facing_deg=0)
    assert (turned["legal"], turned["turn_actions"]) == (True, 2)


def test_one_gunner_moves_a_light_gun_1d6_cm() -> None:
    # c is 20 mm from the gun: 1d6 cm. 3 cm needs a 3+, 4/6; 7 cm is more than a die shows.
    scene = _light_gun(247.5)
    near = answer_json(scene, "gunmove", "g", 300, 330)
    assert (near["dice"], near["needed"], near["gunner_actions"]) == (1, 3, 1)
    assert near["probability"] == pytest.approx(4 / 6, abs=1e-3)
    far = answer_json(scene, "gunmove", "g", 300, 370)
    assert (far["legal"], far["reasons"], far["needed"]) == (False, ["over_allowance"], 7)


def test_at_15_mm_a_gun_s_die_is_half_a_cm_per_pip() -> None:
    # Every distance is halved at 15 mm: 30 mm is 6 pips of 5 mm, a 6 on 1d6 (1/6). The
    # gunner stands 10 mm from the gun, within the crew's 3 cm halved (15 mm).
    small = answer_json(_light_gun(257.5, scale="15mm"), "gunmove", "g", 300, 330)
    assert (small["dice"], small["needed"]) == (1, 6)
    assert small["probability"] == pytest.approx(1 / 6, abs=1e-3)


def test_the_dice_given_must_be_the_gun_s_dice() -> None:
    scene = _light_gun(247.5)
    with pytest.raises(QuestionError, match="roll 1 dice for g's move, got 2"):
        ask(scene, "gunmove", ["g", "300", "330"], {"rolls": [3, 4]})
    with pytest.raises(QuestionError, match="'c' is not a gun"):
        ask(scene, "gunmove", ["c", "300", "330"], {})


@pytest.mark.parametrize(
    ("facing", "end", "turn"),
    [(90.0, 90.0, 0.0), (90.0, 0.0, 90.0), (0.0, 270.0, 90.0), (350.0, 10.0, 20.0), (0, 180, 180)],
)
def test_a_turn_is_the_smaller_angle_either_way(facing: float, end: float, turn: float) -> None:
    assert turn_deg(facing, end) == pytest.approx(turn)
    assert turn_deg(end, facing) == pytest.approx(turn)
