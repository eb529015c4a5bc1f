"""rules/confrontation/dice.py: combat dice, initiative and pursuit arithmetic."""

from __future__ import annotations

from arbitre.rules.confrontation import dice_of_split


def test_dice_of_a_split() -> None:
    assert dice_of_split([["a", "b"], ["c", "d", "e"]]) == {"a": 2, "b": 2, "c": 3, "d": 2, "e": 2}
