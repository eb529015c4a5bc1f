"""Smooth & Rifled's support: Leaders' saves, rallying and the other support questions'
bad input."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene
from tests.rules.smooth_and_rifled.scenes import (
    LEADER_AND_MARKER,
    VOLLEY_SCENE,
    answer_json,
    sr_scene,
)


def test_halved_radii_at_15_mm() -> None:
    # §2.0: "En 15mm, vous pouvez diviser toutes les mesures par 2": the save's 5 cm is 25 mm.
    figures = [
        {"id": "L", "side": "blue", "x_mm": 100, "y_mm": 100, "attrs": {"leader": True}},
        {"id": "s", "side": "blue", "x_mm": 100, "y_mm": 155},  # 55 - 25 = 30 mm
    ]
    assert answer_json(sr_scene(figures), "save", "L")["substitute"] == "s"
    small = answer_json(sr_scene(figures, options={"scale": "15mm"}), "save", "L")
    assert (small["radius_mm"], small["substitute"]) == (25, None)


def test_a_threshold_within_the_uncertainty_is_too_close_to_call() -> None:
    # The hero is 199 mm from the shaken figure (rally radius 200): margin 1 mm; with
    # sigma 0.5 mm on each figure the gap's sigma is 0.707 mm and 1 < 2 x 0.707.
    figures = [
        {
            "id": "x",
            "side": "blue",
            "x_mm": 100,
            "y_mm": 100,
            "sigma_mm": 0.5,
            "attrs": {"shaken": True},
        },
        {
            "id": "h",
            "side": "blue",
            "x_mm": 100,
            "y_mm": 324,
            "sigma_mm": 0.5,
            "attrs": {"hero": True},
        },
    ]
    answer = ask(sr_scene(figures), "rally", ["x"], {})
    data = answer.to_json()
    assert (data["actions"], data["certain"]) == (1, False)
    assert data["margin_mm"] == pytest.approx(1.0, abs=0.01)
    assert answer.message.startswith("too close to call")


def test_save_of_the_volley_example_may_pass_to_c_already_hit() -> None:
    # §6.2.5: "Si B était un Leader ... et que sa Sauvegarde ait réussi, le joueur Rouge
    # pourrait « dévier » le tir sur C qui subirait les effets de 2 touches."
    # §6.2.8: on 4-6 the nearest figure within 5 cm takes the hit. B (260, 340) is
    # sqrt(40^2 + 50^2) - 25 = 39.03 mm from C (300, 290) and exactly as far from A (210, 380):
    # both are within 50 mm, equally near; the players choose, and C, already hit, may take it.
    document = {**VOLLEY_SCENE, "figures": [dict(f) for f in VOLLEY_SCENE["figures"]]}
    for figure in document["figures"]:
        if figure["id"] == "B":
            figure["attrs"] = {"leader": True}
    scene = parse_scene(document)
    answer = answer_json(scene, "save", "B", die=4)
    assert answer["tied"] == ["A", "C"]
    assert answer["substitute_gap_mm"] == pytest.approx(4100**0.5 - 25, abs=0.01)
    assert answer["hit"] in ("A", "C")
    assert any("the players choose" in w for w in answer["warnings"])
    assert answer_json(scene, "save", "B", die=3)["hit"] == "B"


@pytest.mark.parametrize(
    ("question", "args", "extras", "fragment"),
    [
        ("save", ["L"], {"die": 7}, r"a die shows 1 to 6, got 7 \(option die of save\)"),
        ("save", ["L"], {"die": "four"}, r"a die shows 1 to 6, got 'four' \(option die of save\)"),
        ("save", ["nobody"], {}, "unknown figure"),
        ("standard", ["L"], {}, "not a standard-bearer"),
        ("gun", ["L"], {}, "not a gun"),
        ("spot", ["L", "m"], {"die": 4}, "--with va=N"),
        ("spot", ["L", "m"], {"va": 2, "die": 1, "reroll": 5}, "only scouts re-roll"),
    ],
)
def test_bad_input_to_the_support_questions_is_a_question_error(
    question: str, args: list[str], extras: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(QuestionError, match=fragment):
        ask(sr_scene(LEADER_AND_MARKER), question, args, extras)
