"""Smooth & Rifled's opportunity fire."""

from __future__ import annotations

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from tests.rules.smooth_and_rifled.scenes import answer_json, golden_scene, sr_scene


def test_only_a_shooter_that_kept_an_order_to_aim_re_rolls_the_opportunity_test() -> None:
    scene = golden_scene("opportunity")
    with pytest.raises(QuestionError, match="only a shooter that kept an order to aim"):
        ask(scene, "opportunity", ["s", "t"], {"die": 2, "reroll": 5})
    unknown = sr_scene(
        [
            {
                "id": "s",
                "side": "blue",
                "x_mm": 300,
                "y_mm": 100,
                "facing_deg": 90,
                "attrs": {"weapon": {"medium_range_cm": 30}},
            },
            {"id": "t", "side": "red", "x_mm": 300, "y_mm": 300},
        ]
    )
    with pytest.raises(QuestionError, match="va=N"):
        ask(unknown, "opportunity", ["s", "t"], {"die": 2})
    # With va given, the test is known; the PA it costs is not (no attrs.va).
    answer = answer_json(unknown, "opportunity", "s", "t", va=4)
    assert answer["test_probability"] == pytest.approx(2 / 6, abs=1e-3)
    assert answer["action_points"] is None
