"""rules/confrontation/dice.py: combat dice, initiative and pursuit arithmetic."""

from __future__ import annotations

import pytest

from arbitre.rules.confrontation import (
    dice_of_split,
    initiative_odds,
    initiative_score,
    pursuit_distance_cm,
)
from arbitre.rules.confrontation.dice import check_die, ini_of
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure


def test_dice_of_a_split() -> None:
    assert dice_of_split([["a", "b"], ["c", "d", "e"]]) == {"a": 2, "b": 2, "c": 3, "d": 2, "e": 2}


def test_an_initiative_adds_the_other_figures_of_the_camp() -> None:
    # The roller's INI, + 1 for each other figure of its camp: INI 3 alone is 3, INI 3
    # with two more is 5, INI 0 with five more is 5.
    assert [initiative_score(3, 1), initiative_score(3, 3), initiative_score(0, 6)] == [3, 5, 5]


@pytest.mark.parametrize(
    ("score", "other", "odds"),
    [
        # Level: of the 36 pairs of dice 6 tie (a double), 15 are higher, 15 lower.
        (4, 4, {"win": 15, "tie": 6, "lose": 15}),
        # One ahead: the first camp wins when its die is at least the other's
        # (21 pairs), ties when it is one lower (5 pairs), loses otherwise (10).
        (5, 4, {"win": 21, "tie": 5, "lose": 10}),
        # Five ahead: only a 1 against a 6 ties (9 + 1 = 4 + 6); nothing loses.
        (9, 4, {"win": 35, "tie": 1, "lose": 0}),
        # Six ahead: the dice differ by 5 at most, so every pair wins.
        (10, 4, {"win": 36, "tie": 0, "lose": 0}),
    ],
)
def test_initiative_odds_count_the_36_pairs(score: int, other: int, odds: dict[str, int]) -> None:
    assert initiative_odds(score, other) == odds
    # From the other camp's side, wins and losses swap.
    assert initiative_odds(other, score) == {
        "win": odds["lose"],
        "tie": odds["tie"],
        "lose": odds["win"],
    }


def test_a_pursuit_is_half_the_mou_rounded_up_to_the_cm() -> None:
    # 9 / 2 = 4.5 -> 5; 8 / 2 = 4 stays 4; 1 / 2 = 0.5 -> 1; 2 / 2 = 1.
    assert [pursuit_distance_cm(m) for m in (9, 8, 1, 2)] == [5, 4, 1, 1]


def test_an_initiative_needs_the_figure_s_ini() -> None:
    assert ini_of(Figure("a", "red", 0, 0, attrs={"ini": 4})) == 4
    with pytest.raises(QuestionError, match="figure 'b': attrs.ini is needed"):
        ini_of(Figure("b", "red", 0, 0))


@pytest.mark.parametrize("die", [0, 7, True, 3.0])
def test_a_die_shows_one_to_six(die: int) -> None:
    with pytest.raises(QuestionError, match="a die shows 1 to 6, got"):
        check_die(die)
    for good in range(1, 7):
        check_die(good)  # no error
