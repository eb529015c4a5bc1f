"""M.U.S.G. command tests: when each is due and what it rolls (``tests``)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import QuestionError, SceneError
from arbitre.rules.questions import ask
from tests.rules.musg.scenes import duel


def _test(answer: Any, code: str) -> dict[str, Any]:
    (found,) = [t for t in answer.to_json()["tests"] if t["test"] == code]
    return found


def test_under_fire_rolls_1d6_as_the_book_says_or_2d6_as_the_players_agree() -> None:
    # « Subir un tir »: "Il lance 1d6 et si le score est inférieur ou égal à son
    # commandement"; the other tests, and the end-of-turn test, roll 2d6.
    pistol = {"weapon": {"kind": "pistol", "range_pas": 12, "strength": 4}}
    for dice, options in ((1, {}), (2, {"under_fire_dice": 2})):
        answer = ask(duel({"command": 7}, pistol, **options), "tests", ["a", "b"])
        assert _test(answer, "under_fire") == {
            "test": "under_fire",
            "book": "Subir un tir",
            "due": True,  # a has no ranged weapon
            "dice": dice,
            "threshold": 7,
            "strength": 4,
            "own_strength": None,
            "armed": False,
        }
    with pytest.raises(SceneError, match="under_fire_dice"):
        duel({}, pistol, under_fire_dice=3)


def test_under_fire_without_strengths_is_unsettled_and_says_what_to_give() -> None:
    rifle = {"weapon": {"kind": "rifle", "range_pas": 24}}
    answer = ask(duel(rifle, rifle), "tests", ["a", "b"])
    assert _test(answer, "under_fire")["due"] is None
    assert any("weapon.strength" in w for w in answer.to_json()["warnings"])
    # The shooter's strength alone does not settle it; a shooter with no weapon shoots
    # at no one.
    strong = {"weapon": {"kind": "rifle", "range_pas": 24, "strength": 6}}
    assert _test(ask(duel(rifle, strong), "tests", ["a", "b"]), "under_fire")["due"] is None
    assert _test(ask(duel(rifle, {}), "tests", ["a", "b"]), "under_fire")["due"] is False


@pytest.mark.parametrize(
    ("rank", "other_rank", "due"),
    [
        ("extra", "henchman", True),
        ("henchman", "subchief", True),
        ("subchief", "chief", True),
        ("henchman", "henchman", False),
        ("chief", "subchief", False),
        ("chief", None, False),  # no one outranks a chief
        (None, "extra", False),  # an extra outranks no one
        (None, "chief", None),
        ("extra", None, None),
    ],
)
def test_the_rank_tests_are_due_against_a_better_rank(
    rank: str | None, other_rank: str | None, due: bool | None
) -> None:
    first = {} if rank is None else {"rank": rank}
    second = {} if other_rank is None else {"rank": other_rank}
    answer = ask(duel(first, second), "tests", ["a", "b"])
    assert [_test(answer, c)["due"] for c in ("under_charge", "urge_to_charge", "spotting")] == [
        due
    ] * 3


def test_tests_ask_two_figures() -> None:
    with pytest.raises(QuestionError, match="same figure"):
        ask(duel({}, {}), "tests", ["a", "a"])
