"""MBT elephants in panic: where the elephant goes by its die (``panic``)."""

from __future__ import annotations

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from tests.rules.mbt.scenes import base, mbt_scene


def test_bad_options_of_panic_are_question_errors() -> None:
    scene = mbt_scene(
        base("G1", "blue", 300, 300, 90, "infantry"),
        base("E", "red", 600, 300, 90, "infantry", elephant=True),
    )
    with pytest.raises(QuestionError, match="not an elephant"):
        ask(scene, "panic", ["G1"])
    with pytest.raises(QuestionError, match="die"):
        ask(scene, "panic", ["E"], {"die": 7})
    with pytest.raises(QuestionError, match="direction"):
        ask(scene, "panic", ["E"], {"direction": "up"})
    with pytest.raises(QuestionError, match="not both"):
        ask(scene, "panic", ["E"], {"die": 2, "direction": "left"})


@pytest.mark.parametrize(
    ("die", "to"),
    [
        (1, [600, 340]),
        (2, [560, 300]),
        (3, [640, 300]),
        (4, [600, 260]),
        (5, [600, 260]),
        (6, [600, 260]),
    ],
)
def test_panic_directions_by_the_die(die: int, to: list[float]) -> None:
    # "1 droit devant, 2 sur sa gauche, 3 sur sa droite, 4, 5 ou 6 en arrière": the
    # elephant at (600, 300) faces 90 (+y), its left is -x; a 40 x 40 base goes 40 mm.
    scene = mbt_scene(
        {
            **base("E", "red", 600, 300, 90, "infantry", elephant=True),
            "base": {"shape": "rect", "width_mm": 40, "depth_mm": 40},
        },
    )
    run = ask(scene, "panic", ["E"], {"die": die}).to_json()["runs"][0]
    assert run["to_mm"] == pytest.approx(to)


def test_panic_distance_move_goes_the_elephants_allowance() -> None:
    # panic_distance: move -> a light infantry elephant goes 3 graduations = 75 mm.
    scene = mbt_scene(
        {
            **base("E", "red", 600, 300, 90, "infantry", elephant=True),
            "base": {"shape": "rect", "width_mm": 40, "depth_mm": 40},
        },
        options={"panic_distance": "move"},
    )
    run = ask(scene, "panic", ["E"], {"direction": "back"}).to_json()["runs"][0]
    assert run["moved_mm"] == pytest.approx(75.0) and run["to_mm"] == pytest.approx([600, 225])
