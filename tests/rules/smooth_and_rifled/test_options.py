"""Smooth & Rifled's own question options (melee rolls) and figure flags, checked
strictly."""

from __future__ import annotations

import re
from typing import Any

import pytest

from arbitre.rules.errors import SceneError
from arbitre.rules.questions import ask
from tests.rules.small_scenes import figure_data, refusal, scene_of

SR = scene_of(
    "sr",
    figure_data("a", "blue", 300, 300, attrs={"combat": 4}),
    figure_data("b", "red", 300, 320, attrs={"combat": 3}),
)


@pytest.mark.parametrize(("given", "missing"), [("rolls_a", "rolls_b"), ("rolls_b", "rolls_a")])
def test_sr_melee_needs_both_sides_rolls(given: str, missing: str) -> None:
    message = refusal(SR, "melee", ["a", "b"], {given: [3, 4, 5]})
    assert message == f"{given} was given without {missing}: give both sides' dice, or neither"


def test_sr_melee_counts_both_sides_rolls() -> None:
    # a (C 4) and b (C 3) roll 3d6 each: a hits on b's C, 3+; b hits on a's C, 4+.
    # a: 3, 4, 1 -> 2 hits; b: 4, 4, 6 -> 3 hits; b beats a. Text "3,4,1" reads as a list.
    answer = ask(SR, "melee", ["a", "b"], {"rolls_a": "3,4,1", "rolls_b": [4, 4, 6]}).to_json()
    assert (answer["attacker_hits"], answer["defender_hits"]) == (2, 3)
    assert answer["outcome"] == ["b beats a"]
    message = refusal(SR, "melee", ["a", "b"], {"rolls_a": [3, 4, 7], "rolls_b": [1, 1, 1]})
    assert message.startswith("dice show 1 to 6") and "(option rolls_a of melee)" in message


@pytest.mark.parametrize(
    ("attrs", "field"),
    [
        ({"leader": "no"}, "attrs.leader"),  # led a group
        ({"leader": None}, "attrs.leader"),  # null is no answer (as MBT and CB6 say)
        ({"sniper": "false", "weapon": {"medium_range_cm": 30}}, "attrs.sniper"),  # 3d6
        ({"sniper": 1}, "attrs.sniper"),
        ({"weapon": {"medium_range_cm": 30, "rifled": 2}}, "attrs.weapon.rifled"),
        ({"weapon": {"medium_range_cm": 30, "reload": -3}}, "attrs.weapon.reload"),
    ],
)
def test_smooth_and_rifled_flags_are_true_or_false(attrs: dict[str, Any], field: str) -> None:
    with pytest.raises(SceneError, match=re.escape(f"figures[0].{field}: figure 'a': expected")):
        scene_of("sr", figure_data("a", "blue", 300, 300, attrs=attrs))
