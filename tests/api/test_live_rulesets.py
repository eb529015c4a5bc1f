"""A live table under each rule system: those without groups (M.U.S.G., Confrontation)
serve a state with their unit and no problem (the state asked every rule system for its
groups, and those two refused the question)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arbitre.api.live.demo import DemoSource, demo_config
from arbitre.api.live.table import LiveTable


@pytest.mark.parametrize(
    ("ruleset", "unit"), [("musg", "pas"), ("confrontation", "cm"), ("choc-base-6", "M")]
)
def test_the_state_of_every_rule_system_has_its_unit_and_no_problem(
    ruleset: str, unit: str
) -> None:
    options = demo_config().options if ruleset == "choc-base-6" else {}
    live = LiveTable(
        replace(demo_config(), ruleset=ruleset, options=options), DemoSource(move_every_s=1e9)
    )
    for _ in range(5):
        assert live.step()
    state = live.recent_state()
    assert state["problem"] is None
    assert state["unit"] == unit
    assert bool(state["groups"]) == (ruleset == "choc-base-6")
