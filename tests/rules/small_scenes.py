"""Small scenes built from plain data, and the one-line refusal of a question, shared by
the tests of options, scenes and questions."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene


def figure_data(ident: str, side: str, x: float, y: float, **fields: Any) -> dict[str, Any]:
    return {"id": ident, "side": side, "x_mm": x, "y_mm": y, **fields}


def scene_of(ruleset: str, *figures: dict[str, Any], **options: Any) -> Any:
    return parse_scene(
        {
            "ruleset": ruleset,
            "options": options,
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": list(figures),
        }
    )


CB6 = scene_of(
    "cb6",
    figure_data("a1", "blue", 300, 300, group="A", reference=True, type="TD"),
    figure_data("b1", "red", 500, 300, group="B", reference=True),
)


def refusal(scene: Any, question: str, args: list[str], extras: dict[str, Any]) -> str:
    with pytest.raises(QuestionError) as caught:
        ask(scene, question, args, extras)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300
    return message
