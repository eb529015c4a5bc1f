"""rules/choc_base_6/neutral_messages.py: the sentences of a neutral surface's refusals."""

from __future__ import annotations

import math

from arbitre.rules.answers import Reason, Unit
from arbitre.rules.choc_base_6.neutral_groups import Group
from arbitre.rules.choc_base_6.neutral_messages import fire_message, move_message

M = Unit("M", 100.0)
SHOOTER = Group("A", "blue", (), None, True)
TARGET = Group("T", "red", (), None, True)


def test_an_allowed_shot_says_the_distance_and_the_pi() -> None:
    # 250 mm = 2.50 M.
    assert fire_message(SHOOTER, TARGET, True, [], 250.0, M, [], 4) == (
        "A may shoot at T at 2.50 M, PI 4"
    )


def test_a_refused_shot_names_what_each_reason_is_about() -> None:
    # Out of range says the distance (410 mm = 4.10 M); a blocked line names the groups
    # across it; a missing reference names the groups without one.
    reasons = [Reason.OUT_OF_RANGE, Reason.LINE_BLOCKED, Reason.NO_REFERENCE]
    text = fire_message(SHOOTER, TARGET, False, reasons, 410.0, M, ["P", "Q"], 4, ["X"])
    assert text == (
        "A may not shoot at T: out of range (4.10 M); the line of fire crosses P, Q; "
        "no reference figure to measure from in X"
    )
    friend = fire_message(SHOOTER, TARGET, False, [Reason.TARGET_NOT_ENEMY], 100.0, M, [], 2)
    assert friend == "A may not shoot at T: the target is not an enemy"


def test_a_legal_move_says_its_cost_and_any_detour() -> None:
    # Straight: 150 mm = 1.50 M. 180 mm for a straight 150 mm goes round something; 0.04 mm
    # more than the straight line is still straight (under 0.05 mm).
    straight = move_message("A", True, [], 150.0, 2, 150.0, M, [], [])
    assert straight == "A may move there: 1.50 M, allowance 2 M"
    detour = move_message("A", True, [], 180.0, 2, 150.0, M, [], [])
    assert detour == "A may move there: 1.80 M (around the obstacles), allowance 2 M"
    assert "around" not in move_message("A", True, [], 150.04, 2, 150.0, M, [], [])


def test_a_refused_move_names_what_is_in_the_way() -> None:
    reasons = [Reason.DESTINATION_OCCUPIED, Reason.PATH_BLOCKED]
    text = move_message("A", False, reasons, math.inf, 2, 150.0, M, ["W"], ["B"])
    assert text == (
        "A may not move there: the destination overlaps B; "
        "the way is blocked by W (no path, allowance 2 M)"
    )
    # 250 mm = 2.50 M against an allowance of 2 M.
    far = move_message("A", False, [Reason.OVER_ALLOWANCE], 250.0, 2, 250.0, M, [], [])
    assert far == "A may not move there: too far (2.50 M, allowance 2 M)"
    nobody = move_message("A", False, [Reason.PATH_BLOCKED], math.inf, 2, 150.0, M, [], [])
    assert nobody == "A may not move there: the way is blocked (no path, allowance 2 M)"
