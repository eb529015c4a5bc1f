"""M.U.S.G. reactions: the 1d3-pas moves under fire and under a charge (``under_fire``,
``under_charge``), the walk away of a failed « Envie de charger » (``urge_to_charge``)."""

from __future__ import annotations

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from tests.rules.musg.scenes import musg_scene, walkers


def test_bad_options_of_the_reactions_are_question_errors() -> None:
    scene = walkers()
    with pytest.raises(QuestionError, match="1d3"):
        ask(scene, "under_fire", ["a", "b"], {"die": 4})
    with pytest.raises(QuestionError, match="same figure"):
        ask(scene, "under_charge", ["a", "a"])


def test_under_fire_without_a_die_answers_each_face() -> None:
    # No cover near: each face sends the figure back, away from the shooter, that many pas.
    scene = musg_scene(
        [
            {"id": "t", "side": "x", "x_mm": 500, "y_mm": 500},
            {"id": "s", "side": "y", "x_mm": 500, "y_mm": 300},
        ]
    )
    moves = ask(scene, "under_fire", ["t", "s"]).to_json()["moves"]
    assert [m["die"] for m in moves] == [1, 2, 3]
    assert [m["destination_mm"] for m in moves] == [[500, 525], [500, 550], [500, 575]]


def test_a_figure_not_daring_to_charge_walks_away_from_its_target() -> None:
    # "doit transformer sa charge en un déplacement à l'opposé du personnage qu'il désirait
    # charger": t (500, 500), move 2 pas = 50 mm, away from s (500, 300): (500, 550).
    scene = musg_scene(
        [
            {"id": "t", "side": "x", "x_mm": 500, "y_mm": 500, "attrs": {"move_pas": 2}},
            {"id": "s", "side": "y", "x_mm": 500, "y_mm": 300},
        ]
    )
    answer = ask(scene, "urge_to_charge", ["t", "s"]).to_json()
    assert (answer["destination_mm"], answer["action_points"]) == ([500, 550], 1)
    with pytest.raises(QuestionError, match="move_pas"):
        ask(scene, "urge_to_charge", ["s", "t"])
    with pytest.raises(QuestionError, match="same figure"):
        ask(scene, "urge_to_charge", ["t", "t"])
