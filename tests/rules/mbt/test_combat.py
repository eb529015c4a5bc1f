"""MBT combat: combat points, outcomes, recoils and elephants (``combat``)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.mbt import NUMBERS, base_figures, combat_points, outcome
from arbitre.rules.model import Figure
from arbitre.rules.questions import ask
from tests.rules.mbt.scenes import base, mbt_scene


def test_combat_points_of_the_book() -> None:
    # "un point de force par figurine sur la plaquette, cinq points pour un éléphant"
    elephant = Figure("e", "a", 0, 0, type="infantry", attrs={"elephant": True})
    assert sum(combat_points(elephant).values()) == 5
    # "Les plaquettes lourdes ajoutent un point ... Le général possède un point
    # supplémentaire (cumulable avec le type lourd)."
    general = Figure(
        "g", "a", 0, 0, type="cavalry", attrs={"heavy": True, "general": True, "figures": 3}
    )
    assert combat_points(general) == {"figures": 3, "heavy": 1, "general": 1}
    # Each friend touching the same enemy adds one; an infantry base aligned behind, one.
    assert combat_points(general, supports=2, rear_support=True)["support"] == 2
    assert base_figures(Figure("i", "a", 0, 0, type="infantry", attrs={"figures": 6})) == 6


@pytest.mark.parametrize(
    ("total_a", "total_b", "expected"),
    [
        (6, 6, ("tie", 0)),  # "en cas d'égalité, rien ne se passe"
        (8, 4, ("eliminated", 2)),  # "au moins le double": 8 >= 2 x 4
        (7, 4, ("recoil", 2)),  # 7 < 8: "recule de la profondeur de son socle"
        (5, 10, ("eliminated", 1)),
        (5, 9, ("recoil", 1)),
    ],
)
def test_combat_outcomes(total_a: int, total_b: int, expected: tuple[str, int]) -> None:
    assert outcome(total_a, total_b) == expected


def _elephant_fight(**extras: Any) -> dict[str, Any]:
    # A heavy infantry base (4 figures + 1) against an elephant (1 + 4) face to face.
    scene = mbt_scene(
        base("inf", "blue", 200, 200, 90, "infantry", heavy=True),
        base("ele", "red", 200, 220, 270, "infantry", elephant=True),
    )
    return ask(scene, "combat", ["inf", "ele"], extras).to_json()


def test_an_elephant_that_recoils_panics() -> None:
    # 6 + 5 = 11 against 3 + 5 = 8: 11 < 16, the elephant must recoil: it panics.
    answer = _elephant_fight(die_a=6, die_b=3)
    assert (answer["score_a"], answer["score_b"]) == (5, 5)
    assert (answer["total_a"], answer["total_b"], answer["outcome"]) == (11, 8, "recoil")
    assert answer["panic"] is True and answer["panic_direction"] is None
    # "1 droit devant, 2 sur sa gauche, 3 sur sa droite, 4, 5 ou 6 en arrière"
    directions = [
        _elephant_fight(die_a=6, die_b=3, die_panic=die)["panic_direction"] for die in range(1, 7)
    ]
    assert directions == ["ahead", "left", "right", "back", "back", "back"]
    assert NUMBERS.panic[4] == "back"


def test_recoil_into_an_enemy_front_eliminates() -> None:
    # B (red) loses against A and recoils 20 mm to +y: y 230..250. C (blue) faces it from
    # (200, 260) facing 270, its front at y = 250: B would touch an enemy front.
    scene = mbt_scene(
        base("A", "blue", 200, 200, 90, "infantry"),
        base("B", "red", 200, 220, 270, "infantry"),
        base("C", "blue", 200, 260, 270, "infantry"),
    )
    answer = ask(scene, "combat", ["A", "B"], {"die_a": 5, "die_b": 3}).to_json()
    # A: 3 + 5 = 8; B: 3 + 3 = 6; 8 < 12 -> recoil, blocked by C's front -> eliminated.
    assert (answer["total_a"], answer["total_b"]) == (8, 6)
    assert answer["recoil_blocked_by"] == ["C"]
    assert answer["outcome"] == "eliminated"


def test_a_base_of_100_figures_fights_with_them() -> None:
    # 100 figures on the base, infantry, not heavy: 100 points before the die.
    scene = mbt_scene(base("x", "a", 100, 100, 90, "infantry", figures=100))
    assert base_figures(scene.figures[0]) == 100
