"""The live table makes its rules scene again only when the figures moved, and then
reads again only the figures that moved.

The demo table's figures stand still (their walks switched off): frame after frame,
their averaged positions stay within a twentieth of a millimetre (the step the live
scene places them to), so the state and the questions reuse one scene, and with it the
rules' per-scene caches. A figure that walks gives a new scene.
"""

from __future__ import annotations

import pytest

from arbitre.api.demo import DemoSource, demo_setup
from arbitre.api.live import POSITION_STEP_MM, LiveTable, TableConfig
from arbitre.rules import scene as scene_module


@pytest.fixture
def table() -> tuple[LiveTable, DemoSource]:
    setup = demo_setup()
    source = DemoSource(move_every_s=1e9)
    live = LiveTable(
        TableConfig(setup.camera, setup.table, setup.roster, options={"unit_mm": 100}), source
    )
    for _ in range(20):  # let the averages settle
        assert live.step()
    return live, source


def test_a_still_table_is_parsed_once(
    table: tuple[LiveTable, DemoSource], monkeypatch: pytest.MonkeyPatch
) -> None:
    live, _source = table
    parsed = []
    real_parse = scene_module.parse_scene
    monkeypatch.setattr(
        scene_module, "parse_scene", lambda *a, **k: parsed.append(1) or real_parse(*a, **k)
    )
    first = live.scene()
    live.state()
    live.ask("distance", ["alpins", "verts"])
    assert live.scene() is first
    assert len(parsed) == 1
    # Positions are on the step: x = k * 0.05 mm.
    for figure in live.scene_document()["figures"]:
        steps = figure["x_mm"] / POSITION_STEP_MM
        assert abs(steps - round(steps)) < 1e-6


def test_a_figure_that_walks_makes_a_new_scene_of_the_others(
    table: tuple[LiveTable, DemoSource],
) -> None:
    live, source = table
    first = live.scene()
    assert first is not None
    source.move_every_s = 0.0  # the next frame: one figure walks a few centimetres
    assert live.step()
    source.move_every_s = 1e9
    for _ in range(40):  # the tracker follows it and settles
        assert live.step()
    second = live.scene()
    assert second is not first
    moved = [
        f.id
        for f, g in zip(first.figures, second.figures, strict=True)
        if abs(f.x_mm - g.x_mm) + abs(f.y_mm - g.y_mm) > 10
    ]
    assert len(moved) == 1
    # The others were not read again: they are the same figures, with the same outlines.
    kept = [g for f, g in zip(first.figures, second.figures, strict=True) if f is g]
    assert len(kept) == len(first.figures) - 1
