"""M.U.S.G. book: a weapon's profile (``attrs.weapon``) and its range bands."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.musg import BANDS, cover_roll_needed, parse_weapon
from arbitre.rules.musg.book import positive_number


def test_range_pas_makes_three_equal_bands() -> None:
    # A weapon given by its range alone: thirds of it, 24 pas -> 8 / 16 / 24 pas.
    weapon = parse_weapon({"kind": "bow", "range_pas": 24, "strength": 3}, "weapon")
    assert weapon.limits_pas == (8.0, 16.0, 24.0)
    assert (weapon.kind, weapon.strength, weapon.black_powder) == ("bow", 3, False)
    assert parse_weapon({"range_pas": 12}, "weapon").kind == "firearm"


@pytest.mark.parametrize(
    ("distance_pas", "band"),
    [(0.0, "short"), (4.0, "short"), (4.5, "medium"), (8.0, "medium"), (12.0, "long")]
    + [(12.5, None)],
)
def test_a_band_reaches_its_limit(distance_pas: float, band: str | None) -> None:
    # A machine pistol: short to 4 pas, medium to 8, long to 12; a band holds its limit.
    weapon = parse_weapon({"short_pas": 4, "medium_pas": 8, "long_pas": 12}, "w")
    assert weapon.band(distance_pas) == band


def test_the_cover_roll_grows_with_the_band() -> None:
    # Jet de couvert: 3+ at short range, 4+ at medium, 5+ at long.
    assert {band: cover_roll_needed(band) for band in BANDS} == {
        "short": 3,
        "medium": 4,
        "long": 5,
    }


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("bow", r"^weapon: expected a mapping, got 'bow'"),
        ({"kind": 3, "range_pas": 12}, r"^weapon\.kind: expected a name"),
        ({"range_pas": 12, "reach_pas": 2}, r"^weapon\.reach_pas: unknown key"),
        ({"range_pas": 12, "long_pas": 12}, r"not both \(long_pas with range_pas\)"),
        ({"short_pas": 4, "medium_pas": 8}, r"^weapon\.long_pas: missing"),
        ({"short_pas": 8, "medium_pas": 4, "long_pas": 12}, r"must grow short <= medium"),
        ({"range_pas": 0}, r"^weapon\.range_pas: expected a positive number, got 0"),
        ({"range_pas": 12, "strength": True}, r"^weapon\.strength: expected a whole number"),
        ({"range_pas": 12, "artillery": 1}, r"^weapon\.artillery: expected true or false"),
    ],
)
def test_a_bad_weapon_says_which_key(raw: Any, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        parse_weapon(raw, "weapon")


@pytest.mark.parametrize(
    ("value", "says"),
    [(True, "a positive number"), (-1, "a positive number"), (float("inf"), "a finite number")],
)
def test_positive_number_refuses_what_is_not_a_length(value: Any, says: str) -> None:
    with pytest.raises(ValueError, match=f"^x: expected {says}"):
        positive_number(value, "x")
    assert positive_number(3, "x") == 3.0
