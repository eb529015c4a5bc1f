"""rules/choc_base_6/activation.py: turn order (§3) and regrouping (§4.2).

The golden scenes cb6-regroup, cb6-turn-order and cb6-grid-regroup hold the worked answers;
these tests hold the refusals and the tie-breaks.
"""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from tests.rules.choc_base_6.scenes import neutral_scene, td_figure


def test_turn_order_tie_for_first_waits_for_the_dice() -> None:
    scene = neutral_scene(td_figure("a", "blue", 100, 100), td_figure("b", "red", 500, 500))
    open_tie = ask(scene, "turn-order", []).to_json()
    assert (open_tie["first"], open_tie["ties"]) == (None, [["blue", "red"]])
    assert "--with dice=blue:N,red:N" in ask(scene, "turn-order", []).message
    # The higher roll plays first; equal rolls stay tied ("roll 1D6 again").
    assert ask(scene, "turn-order", [], {"dice": {"red": 6, "blue": 3}}).to_json()["first"] == "red"
    again = ask(scene, "turn-order", [], {"dice": "blue:4,red:4"})
    assert again.to_json()["first"] is None and "again" in again.message


@pytest.mark.parametrize("dice", [{"blue": 1}, {"red": 2}, "blue:6"])
def test_a_tie_with_a_die_missing_stays_open(dice: Any) -> None:
    # blue and red have one group each. One die alone decides nothing: the side without
    # a die might still roll higher (blue 1 could lose or tie, red 2 could lose, tie or
    # win), so the tie is the whole pair, nobody is first, and the missing die is asked for.
    scene = neutral_scene(td_figure("a", "blue", 100, 100), td_figure("b", "red", 500, 500))
    answer = ask(scene, "turn-order", [], {"dice": dice})
    data = answer.to_json()
    assert (data["first"], data["ties"]) == (None, [["blue", "red"]])
    assert data["order"] == ["blue", "red"]
    missing = "red" if "blue" in str(dice) else "blue"
    assert f"no die for {missing}, so the tie stays open" in answer.message
    assert "plays first" not in answer.message


def test_a_missing_die_leaves_open_only_its_own_tie() -> None:
    # blue 2 groups, red 1, green 1: blue plays first (most groups); red and green tie
    # for second, and green's die alone leaves them tied.
    scene = neutral_scene(
        td_figure("a", "blue", 100, 100),
        td_figure("a2", "blue", 100, 500),
        td_figure("b", "red", 500, 500),
        td_figure("c", "green", 900, 500),
    )
    data = ask(scene, "turn-order", [], {"dice": "green:6"}).to_json()
    assert (data["first"], data["ties"]) == ("blue", [["green", "red"]])


@pytest.mark.parametrize(
    ("dice", "problem"),
    [
        ("blue:7,red:1", r"^a die per side, each 1 to 6.*, got 'blue:7,red:1' \(option dice of"),
        ("green:3", "unknown side 'green'"),
        ("blue=3", r"blue:3,red:5\), got 'blue=3' \(option dice of turn-order\)$"),
        ("blue:three", r"got 'blue:three' \(option dice"),
        (5, r"got 5 \(option dice"),
        ({"blue": 3.0}, r"got \{'blue': 3.0\} \(option dice"),
    ],
)
def test_bad_dice_are_question_errors(dice: Any, problem: str) -> None:
    scene = neutral_scene(td_figure("a", "blue", 100, 100), td_figure("b", "red", 500, 500))
    with pytest.raises(QuestionError, match=problem):
        ask(scene, "turn-order", [], {"dice": dice})


def test_regroup_refuses_bad_input() -> None:
    scene = neutral_scene(
        td_figure("a", "blue", 100, 100, reference=True, group="A"),
        td_figure("b", "blue", 140, 100, reference=True, group="B"),
    )
    with pytest.raises(QuestionError, match="same group"):
        ask(scene, "regroup", ["A", "A"])
    with pytest.raises(QuestionError, match="manager must be blue, got 'red'"):
        ask(scene, "regroup", ["A", "B"], {"manager": "red"})
    with pytest.raises(QuestionError, match="unknown figure or group 'Z'"):
        ask(scene, "regroup", ["A", "Z"])
