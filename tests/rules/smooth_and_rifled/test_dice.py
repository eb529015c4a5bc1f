"""Smooth & Rifled's dice arithmetic."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from arbitre.rules.smooth_and_rifled.dice import (
    COVER_REROLL,
    at_least,
    contest,
    has_triple,
    hits_pmf,
    triple_chance,
    volley_dice,
    volley_distribution,
)


def test_volley_dice_of_four_shooters() -> None:
    # §6.2.5: "1 Groupe de 4 tireurs jette 5d6, 2 pour le premier et 1 chacun pour les 3".
    assert volley_dice(4) == 5
    # §6.2.2: those who aim "gagne 1d6 supplémentaire si elles appartiennent à un Groupe";
    # §6.4: "le Groupe n'obtient qu'1d6 supplémentaire" (one for the group, not each);
    # the reference sheet: "Bouger -1d6".
    assert volley_dice(4, aimed=True) == 6
    assert volley_dice(4, moved=True) == 4
    assert volley_dice(4, aimed=True, moved=True) == 5


def _throws(dice: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(1, 7), repeat=dice))


@pytest.mark.parametrize(("dice", "threshold"), [(2, 7), (3, 10), (3, 13), (4, 13), (2, 13)])
def test_at_least_counts_the_throws_that_reach_the_score(dice: int, threshold: int) -> None:
    # 3d6 reach 10 in 108 throws of 216: one half; 2d6 never reach 13.
    throws = _throws(dice)
    reaching = sum(1 for throw in throws if sum(throw) >= threshold)
    assert at_least(dice, threshold) == Fraction(reaching, len(throws))


def test_a_re_rolled_face_is_rolled_once_more() -> None:
    # Cover re-rolls the 5s and 6s (§6.2.3): on one die, 5+ is 1/3 x 1/3 = 1/9.
    assert at_least(1, 5, COVER_REROLL) == Fraction(1, 9)
    # 12 on 2d6, each 6 re-rolled once: a die ends on a 6 only by showing two 6s in a
    # row, 1/36; both dice, 1/36 x 1/36.
    assert at_least(2, 12, {6}) == Fraction(1, 36 * 36)


@pytest.mark.parametrize("dice", [3, 4, 5])
def test_a_triple_is_three_dice_of_one_face_five_or_six(dice: int) -> None:
    # §6.2.5 « un triple 5 ou 6 »: counted over every throw, both readings.
    throws = _throws(dice)
    for same_face in (True, False):
        showing = sum(1 for throw in throws if has_triple(throw, same_face=same_face))
        assert triple_chance(dice, same_face=same_face) == Fraction(showing, len(throws))


def test_a_volley_s_hits_are_the_whole_multiples_of_the_score() -> None:
    # 3d6 at 7+: 7-13 one hit, 14-18 two. Counted over the 216 throws.
    throws = _throws(3)
    expected: dict[int, Fraction] = {}
    for throw in throws:
        hits = sum(throw) // 7
        expected[hits] = expected.get(hits, Fraction(0)) + Fraction(1, len(throws))
    assert volley_distribution(3, 7) == expected
    assert sum(volley_distribution(3, 7).values()) == 1


def test_a_melee_contest_covers_every_outcome_once() -> None:
    # Three dice hitting on 4+ against two hitting on 5+: win, tie and loss add up to 1,
    # and a contest against nothing at all is always won when a hit is sure.
    first, second = hits_pmf(3, 4), hits_pmf(2, 5)
    odds = contest(first, second)
    assert sum(odds.values()) == 1
    assert contest({1: Fraction(1)}, {0: Fraction(1)})["win"] == 1
