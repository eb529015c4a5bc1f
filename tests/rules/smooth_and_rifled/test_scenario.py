"""Smooth & Rifled's scenarios: objectives and deployment."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from tests.rules.smooth_and_rifled.scenes import LEADER_AND_MARKER, answer_json, sr_scene


def test_fifteen_mm_uses_the_books_own_numbers_where_it_gives_them() -> None:
    # Scenario 1: "aucune figurine ennemie à moins de 25cm (15cm en 15mm)" — not 12.5 cm.
    # An enemy whose base is 140 mm from the objective: near in 15 mm (< 150), not at 28 mm
    # (< 250 too). At 200 mm: near at 28 mm only.
    def objective(scale: str, enemy_y: float) -> dict[str, Any]:
        figures = [
            {"id": "f", "side": "blue", "x_mm": 600, "y_mm": 462.5},
            {"id": "e", "side": "red", "x_mm": 600, "y_mm": enemy_y},
        ]
        scene = sr_scene(figures, options={"scale": scale})
        return answer_json(scene, "objective", "blue", 600, 450, turn=3)

    # f touches the point (gap 0); e at y = 450 + 200 + 12.5 is 200 mm from it.
    assert objective("15mm", 662.5)["held"] is True
    assert objective("15mm", 662.5)["enemy_radius_mm"] == 150
    assert objective("28mm", 662.5)["reasons"] == ["enemy_near"]
    assert objective("15mm", 602.5)["reasons"] == ["enemy_near"]  # 140 mm < 150
    # Annexe I: scouts deploy to "40cm (25cm en 15mm)"; others to 30 cm, halved to 15 cm.
    figures = [
        {"id": "s", "side": "blue", "x_mm": 600, "y_mm": 230, "attrs": {"scout": True}},
        {"id": "p", "side": "blue", "x_mm": 500, "y_mm": 130},
    ]
    small = answer_json(
        sr_scene(figures, options={"scale": "15mm"}), "deployment", "blue", edge="y0"
    )
    # s reaches y 242.5 <= 250; p reaches 142.5 <= 150.
    assert (small["scout_zone_mm"], small["zone_mm"], small["legal"]) == (250, 150, True)
    assert small["margin_mm"] == pytest.approx(7.5)


@pytest.mark.parametrize(
    ("question", "args", "extras", "fragment"),
    [
        ("deployment", ["blue"], {}, "deployment needs the side's edge"),
        (
            "deployment",
            ["blue"],
            {"edge": "north"},
            r"one of x0, x_max, y0, y_max, got 'north' \(option edge",
        ),
        ("deployment", ["purple"], {"edge": "y0"}, "no figure of side 'purple'"),
        ("objective", ["blue", "600", "x"], {}, "Y must be a number"),
        (
            "objective",
            ["blue", "600", "450"],
            {"turn": 0},
            r"a turn's number, a whole number 1 to 1000, got 0 \(option turn",
        ),
    ],
)
def test_bad_input_to_the_scenario_questions_is_a_question_error(
    question: str, args: list[str], extras: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(QuestionError, match=fragment):
        ask(sr_scene(LEADER_AND_MARKER), question, args, extras)
