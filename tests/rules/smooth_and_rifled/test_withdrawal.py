"""Smooth & Rifled's responses to a charge: withdrawal, escape and diving."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from tests.rules.smooth_and_rifled.scenes import LEADER_AND_MARKER, answer_json, sr_scene


def _skirmish_charge(**traits: bool) -> Any:
    # Skirmishers P (p0, p1 35 mm apart, loose order) 55 mm from the close-order group Q.
    return sr_scene(
        [
            {
                "id": "p0",
                "side": "blue",
                "unit": "pu",
                "group": "P",
                "x_mm": 200,
                "y_mm": 500,
                "attrs": {"leader": True, "skirmisher": True, "combat": 4, **traits},
            },
            {
                "id": "p1",
                "side": "blue",
                "unit": "pu",
                "x_mm": 260,
                "y_mm": 500,
                "attrs": {"skirmisher": True, "combat": 4, **traits},
            },
            {
                "id": "q0",
                "side": "red",
                "unit": "qu",
                "group": "Q",
                "x_mm": 215,
                "y_mm": 420,
                "attrs": {"leader": True, "combat": 4},
            },
            {
                "id": "q1",
                "side": "red",
                "unit": "qu",
                "x_mm": 245,
                "y_mm": 420,
                "attrs": {"combat": 4},
            },
        ]
    )


def test_skirmishers_are_never_told_to_close_order() -> None:
    # §3.2: skirmishers « ne peuvent passer en Ordre Serré »: charged, they escape; charging,
    # they never charge as a group. Neither answer suggests closing order.
    scene = _skirmish_charge()
    charged = answer_json(scene, "withdrawal", "P", "Q")
    charging = answer_json(scene, "charge", "P", "Q")
    assert charged["kind"] == "escape"
    assert charging["reasons"] == ["skirmishers_no_group_charge"]
    for answer in (charged, charging):
        assert not any("close order" in w for w in answer["warnings"]), answer["warnings"]


def test_skirmishers_hold_only_when_impetuous_ferocious_or_fanatic() -> None:
    with pytest.raises(QuestionError, match="they cannot hold, they escape"):
        ask(_skirmish_charge(), "withdrawal", ["P", "Q"], {"hold": True})
    for trait in ("impetuous", "ferocious", "fanatic"):
        held = answer_json(_skirmish_charge(**{trait: True}), "withdrawal", "P", "Q", hold=True)
        assert held["kind"] == "test"


@pytest.mark.parametrize(
    ("diver", "rider", "says"),
    [
        ("cavalry", "cavalry", "is not on foot"),
        ("infantry", "infantry", "is not cavalry"),
    ],
)
def test_only_a_foot_figure_dives_and_only_under_a_horseman(
    diver: str, rider: str, says: str
) -> None:
    scene = sr_scene(
        [
            {"id": "d", "side": "red", "x_mm": 300, "y_mm": 200, "type": diver},
            {"id": "r", "side": "blue", "x_mm": 300, "y_mm": 100, "type": rider},
        ]
    )
    with pytest.raises(QuestionError, match=says):
        ask(scene, "dive", ["d", "r"], {})


def test_a_withdrawal_die_is_refused_to_a_figure_that_takes_no_test() -> None:
    with pytest.raises(QuestionError, match="takes no morale test"):
        ask(sr_scene(LEADER_AND_MARKER), "withdrawal", ["L", "m"], {"test_die": 3})
