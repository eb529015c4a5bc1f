"""Dice, initiative and pursuit arithmetic: combat dice of a split, initiative odds, pursuit."""

from __future__ import annotations

import math
from collections.abc import Sequence

from arbitre.rules.confrontation.book import NUMBERS
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure


def dice_of_split(split: Sequence[Sequence[str]]) -> dict[str, int]:
    """Combat dice of every figure of a split: 1 + the opponents in its combat.

    >>> dice_of_split([["garde", "clone1", "clone2", "guerrier"]])
    {'garde': 4, 'clone1': 2, 'clone2': 2, 'guerrier': 2}
    """
    dice: dict[str, int] = {}
    for centre, *opponents in split:
        dice[centre] = NUMBERS.dice_base + len(opponents)
        for other in opponents:
            dice[other] = NUMBERS.dice_base + 1
    return dice


def pursuit_distance_cm(mou_cm: float) -> int:
    """Half the MOU in cm, rounded up.

    >>> pursuit_distance_cm(10), pursuit_distance_cm(15), pursuit_distance_cm(12.5)
    (5, 8, 7)
    """
    return math.ceil(mou_cm * NUMBERS.pursuit_fraction - 1e-9)


def initiative_score(ini: int, camp_size: int) -> int:
    """Initiative before the die: the roller's INI + the other figures of its camp.

    >>> initiative_score(3, 3) + 2, initiative_score(3, 1) + 3  # the book: 7 against 6
    (7, 6)
    """
    return ini + camp_size - 1


def initiative_odds(score: int, other_score: int) -> dict[str, int]:
    """Out of the 36 pairs of dice: how many win, tie and lose for the first camp.

    >>> initiative_odds(0, 0)
    {'win': 15, 'tie': 6, 'lose': 15}
    """
    faces = range(1, NUMBERS.die_faces + 1)
    deltas = [score + x - other_score - y for x in faces for y in faces]
    return {
        "win": sum(d > 0 for d in deltas),
        "tie": sum(d == 0 for d in deltas),
        "lose": sum(d < 0 for d in deltas),
    }


def ini_of(figure: Figure) -> int:
    """A figure's INI (``attrs.ini``), which an initiative needs."""
    value = figure.attrs.get("ini")
    if value is None:
        raise QuestionError(f"figure {figure.id!r}: attrs.ini is needed for the initiative")
    return int(value)


def check_die(value: int) -> None:
    """Refuse a die that does not show 1 to 6 (a `QuestionError`)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise QuestionError(f"a die shows 1 to {NUMBERS.die_faces}, got {value!r}")
