"""A live Choc Base 6 table whose reference marker is hidden keeps answering.

The rule book removes a figure with no PJ left (§2.2), the reference figure too, and a
camera may not see a head marker; groups are made by proximity (ANNEXE 2), so the live
state lists every group and only questions measured from the missing reference refuse.
"""

from __future__ import annotations

from dataclasses import replace

from arbitre.api.live.demo import DemoSource, demo_setup
from arbitre.api.live.table import LiveTable, TableConfig
from arbitre.calibration.table import Roster, RosterFigure


def _hidden_reference_table() -> LiveTable:
    # The demo's "Chef alpin" (marker 10) and "Sergent" (12) become two members of group
    # alpins, whose reference figure carries marker 99, which the demo table never shows.
    setup = demo_setup()
    figures = [
        replace(f, group="alpins", reference=False) if f.marker in (10, 12) else f
        for f in setup.roster.figures
    ]
    lieutenant = RosterFigure(
        marker=99,
        name="Lieutenant",
        id="Lieutenant",
        side="blancs",
        group="alpins",
        reference=True,
        type="TD",
    )
    roster = Roster((*figures, lieutenant))
    live = LiveTable(
        TableConfig(setup.camera, setup.table, roster, options={"unit_mm": 100}),
        DemoSource(move_every_s=1e9),
    )
    assert live.step()
    return live


def test_a_hidden_reference_marker_leaves_the_table_answering() -> None:
    live = _hidden_reference_table()
    state = live.state()
    assert state["problem"] is None
    assert sorted(state["groups"]["alpins"]) == ["Chef alpin", "Sergent"]
    assert any("alpins" in w and "no reference figure" in w for w in state["group_warnings"])
    # Other groups answer as before.
    answer, _about = live.ask("fire", ["eclaireurs", "tireurs"])
    assert answer.to_json()["reasons"] != ["no_reference"]
    # The group without its reference refuses what is measured from it, with the code.
    refused, _about = live.ask("fire", ["alpins", "verts"])
    assert refused.to_json()["allowed"] is False
    assert "no_reference" in refused.to_json()["reasons"]
