"""Smooth & Rifled's book: its moves and guns, a figure's VA and weapon range."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure
from arbitre.rules.smooth_and_rifled.book import GUNS, MOVES_CM, va_first, va_last, weapon_range_cm


def _figure(**attrs: Any) -> Figure:
    return Figure("f", "blue", 100.0, 100.0, attrs=attrs)


def test_the_moves_per_action_are_the_books() -> None:
    # §6.1: single infantry 12/8 cm, an infantry group 8/5, charging or in column 12/8,
    # cavalry 20/12, artillery 6/4 (16/10 on a road).
    assert MOVES_CM["infantry", "normal"] == (12.0, 8.0)
    assert MOVES_CM["infantry_group", "normal"] == (8.0, 5.0)
    assert MOVES_CM["infantry_group", "charge"] == MOVES_CM["infantry_group", "column"] == (12, 8)
    assert MOVES_CM["cavalry", "normal"] == (20.0, 12.0)
    assert (MOVES_CM["artillery", "normal"], MOVES_CM["artillery", "road"]) == ((6, 4), (16, 10))


def test_the_guns_are_the_books() -> None:
    # Artillerie: a light gun fires at 60 cm medium range, canister to 30 cm, its box
    # explodes over 20 cm, 3 to 6 gunners, 1d6 per gunner; a medium gun 90, 45, 30 cm,
    # 4 to 12 gunners, 1d6 for two, a quarter turn for 4 actions (2 for a light gun).
    light, medium = GUNS["light"], GUNS["medium"]
    assert (light.medium_range_cm, light.canister_cm, light.explosion_cm) == (60, 30, 20)
    assert (light.crew, light.gunners_per_die, light.turn_actions) == ((3, 6), 1, 2)
    assert (medium.medium_range_cm, medium.canister_cm, medium.explosion_cm) == (90, 45, 30)
    assert (medium.crew, medium.gunners_per_die, medium.turn_actions) == ((4, 12), 2, 4)
    assert (light.strip_factor, medium.strip_factor) == (1, 2)  # 4d6 cm, doubled if medium


@pytest.mark.parametrize("va", ["2/3/4", "2-3-4", " 2 / 3 / 4 ", [2, 3, 4], (2, 3, 4)])
def test_a_va_is_read_however_it_is_written(va: object) -> None:
    # The first number is the PA of a first action, the last a die's face.
    figure = _figure(va=va)
    assert (va_first(figure), va_last(figure)) == (2, 4)


def test_a_figure_without_a_va_has_neither_number() -> None:
    assert (va_first(_figure()), va_last(_figure(combat=4))) == (None, None)


@pytest.mark.parametrize(
    ("va", "first_refused", "last_refused"),
    [
        ("0/3/4", True, False),  # the first number is no PA
        ("2/3/7", False, True),  # 7 is no die's face
        ([2, 3, True], False, True),  # true is no number
        ("2/3/x", False, True),
        ("", True, True),
    ],
)
def test_a_va_out_of_bounds_is_refused_where_it_is_read(
    va: object, first_refused: bool, last_refused: bool
) -> None:
    figure = _figure(va=va)
    for read, refused in ((va_first, first_refused), (va_last, last_refused)):
        if refused:
            with pytest.raises(QuestionError, match="attrs.va must be like 1/2/2"):
                read(figure)
        else:
            assert read(figure) in (2, 4)


def test_a_weapon_s_range_is_its_medium_range_in_cm() -> None:
    assert weapon_range_cm(_figure()) is None  # unarmed
    assert weapon_range_cm(_figure(weapon={"medium_range_cm": 30, "reload": 2})) == 30.0
    # 1 cm and 3000 cm (3R = 90 m) are the bounds, both allowed.
    assert weapon_range_cm(_figure(weapon={"medium_range_cm": 1})) == 1.0
    assert weapon_range_cm(_figure(weapon={"medium_range_cm": 3000})) == 3000.0


@pytest.mark.parametrize(
    ("weapon", "says"),
    [
        ({"reload": 2}, "attrs.weapon needs medium_range_cm"),
        ("musket", "attrs.weapon needs medium_range_cm"),
        ({"medium_range_cm": True}, "got true"),
        ({"medium_range_cm": "30"}, "got '30'"),
        ({"medium_range_cm": 0.5}, "1 to 3000, got 0.5"),
    ],
)
def test_a_weapon_without_a_range_in_bounds_is_refused(weapon: object, says: str) -> None:
    with pytest.raises(QuestionError, match=says):
        weapon_range_cm(_figure(weapon=weapon))
