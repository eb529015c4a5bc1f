"""M.U.S.G. friends and foes nearby: leaving a melee (``leave``), allies and leaders
(``support``)."""

from __future__ import annotations

from typing import Any

from arbitre.rules.questions import ask
from tests.rules.musg.scenes import inch_paces_scene, musg_scene


def test_a_friend_exactly_1_pas_away_in_inch_paces_cancels_an_enemy() -> None:
    # A chief touching three enemies with a friend exactly 1 pas (25.4 mm) from him:
    # "chaque allié présent à moins d'1 pas ... « annule » un ennemi", 3 - 1 = 2 PA to leave.
    leave = ask(inch_paces_scene(), "leave", ["ch"]).to_json()
    assert leave["engaged_with"] == ["e1", "e2", "e3"] and leave["friends_near"] == ["f1"]
    assert leave["action_points"] == 2


def _crowd() -> Any:
    """1 pas = 25 mm, 25 mm round bases, distances edge to edge (centre distance - 25).

    k (blue, no rank, move 4) at (300, 300); a (blue) at (380, 300): 80 - 25 = 55 mm;
    b (blue) at (410, 300): 85 mm; c (blue chief) at (300, 420): 95 mm; g (blue) at
    (300, 460): 135 mm from k, 15 mm from c; e (red) at (200, 300): 75 mm from k.
    """
    return musg_scene(
        [
            {"id": "k", "side": "blue", "x_mm": 300, "y_mm": 300, "attrs": {"move_pas": 4}},
            {"id": "a", "side": "blue", "x_mm": 380, "y_mm": 300},
            {"id": "b", "side": "blue", "x_mm": 410, "y_mm": 300},
            {"id": "c", "side": "blue", "x_mm": 300, "y_mm": 420, "attrs": {"rank": "chief"}},
            {"id": "g", "side": "blue", "x_mm": 300, "y_mm": 460},
            {"id": "e", "side": "red", "x_mm": 200, "y_mm": 300},
        ]
    )


def test_a_figure_out_of_contact_has_no_melee_to_leave() -> None:
    # e is 75 mm from k, far beyond the 2 mm contact tolerance: nothing to leave, 0 PA.
    answer = ask(_crowd(), "leave", ["k"]).to_json()
    assert answer["allowed"] is False and answer["reasons"] == ["not_in_contact"]
    assert answer["engaged_with"] == [] and answer["action_points"] == 0
    assert answer["move_units"] == 0


def test_allies_within_3_pas_and_leaders_within_4_pas() -> None:
    # "+1 à son commandement par allié présent à moins de 3 pas" (75 mm): a (55 mm) is an
    # ally of k, b (85 mm) is not, nor is e (an enemy). A higher rank within 4 pas
    # (100 mm) is a leader: c, the chief, 95 mm away; k itself has no rank.
    answer = ask(_crowd(), "support", ["k"]).to_json()
    assert answer["allies"] == ["a"] and answer["cd_bonus"] == 1
    assert answer["leaders"] == ["c"] and answer["chief_near"] is True
    assert answer["attention_chef"] == []  # k is no chief
    assert (answer["support_mm"], answer["leader_mm"]) == (75, 100)


def test_a_friend_within_1_pas_of_a_chief_may_take_a_shot_meant_for_him() -> None:
    # c is a chief: g, 15 mm away (within 1 pas, 25 mm), is its ally and its "attention
    # chef"; k (95 mm) and a (hypot(80, 120) - 25 = 119.2 mm) are beyond 3 pas. No rank
    # is above a chief's: no leader.
    answer = ask(_crowd(), "support", ["c"]).to_json()
    assert answer["allies"] == ["g"] and answer["attention_chef"] == ["g"]
    assert answer["leaders"] == [] and answer["chief_near"] is False
