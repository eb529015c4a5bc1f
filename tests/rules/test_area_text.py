"""Every rule system states a reachable area in cm² the same way (1 cm² = 100 mm²)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitre.rules.answers import ReachAnswer, area_text
from arbitre.rules.questions import ask
from arbitre.rules.scene import load_scene

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("area_mm2", "text"),
    [
        (403_457.0, "4035 cm²"),  # 403 457 / 100 = 4034.57
        (9_999.0, "100.0 cm²"),  # 99.99 rounds up to the tenth below 100
        (1_256.6, "12.6 cm²"),  # a disc of 20 mm: pi * 400 = 1256.6 mm²
        (0.0, "0.0 cm²"),
    ],
)
def test_area_text(area_mm2: float, text: str) -> None:
    assert area_text(area_mm2) == text


@pytest.mark.parametrize(
    ("scene", "mover"),
    [
        ("cb6-skirmish.yaml", "cavalier"),
        ("smooth-and-rifled-skirmish.yaml", "u1"),
        ("mbt-battle.yaml", "cavaliers"),
        ("musg-skirmish.yaml", "orc-chief"),
    ],
)
def test_each_rule_system_says_its_reach_area_with_area_text(scene: str, mover: str) -> None:
    answer = ask(load_scene(EXAMPLES / scene), "reach", [mover])
    assert isinstance(answer, ReachAnswer)
    assert answer.area_mm2 > 1_000.0
    assert f" {area_text(answer.area_mm2)} " in answer.message
