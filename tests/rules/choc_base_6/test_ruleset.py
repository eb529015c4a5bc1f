"""rules/choc_base_6/ruleset.py: the Choc Base 6 ruleset, its scene checks and each scene
handed to its surface."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.answers import Unit
from arbitre.rules.choc_base_6 import ChocBase6
from arbitre.rules.errors import SceneError
from arbitre.rules.questions import ask
from tests.rules.choc_base_6.scenes import fig, grid_scene, neutral_scene, td_figure

CB6 = ChocBase6()


def test_a_neutral_scene_measures_in_m_and_lays_no_grid() -> None:
    # unit_mm 100: 1 M = 100 mm; A and B 300 mm apart: 3 M, reference to reference.
    scene = neutral_scene(td_figure("a", "blue", 100, 100), td_figure("b", "red", 400, 100))
    assert CB6.unit(scene) == Unit("M", 100.0)
    assert CB6.grid(scene) is None
    distance = ask(scene, "distance", ["a", "b"]).to_json()
    assert (distance["distance_units"], distance["unit"], distance["mode"]) == (3, "M", "reference")


@pytest.mark.parametrize(("surface", "unit"), [("square", "C"), ("hex", "H")])
def test_a_grid_scene_is_handed_to_the_grid(surface: str, unit: str) -> None:
    # Two figures 100 mm apart along x: two cells of 50 mm on either grid.
    scene = grid_scene(surface, fig("a", "blue", (300, 300)), fig("b", "red", (400, 300)))
    assert CB6.unit(scene) == Unit(unit, 50.0)
    laid = CB6.grid(scene)
    assert laid is not None
    assert (laid["kind"], laid["cell_mm"], laid["rotation_deg"], laid["pointy"]) == (
        surface,
        50.0,
        0.0,
        True,
    )
    distance = ask(scene, "distance", ["a", "b"]).to_json()
    assert (distance["distance_units"], distance["unit"], distance["mode"]) == (2, unit, "cells")


@pytest.mark.parametrize(
    ("more", "field", "problem"),
    [
        ({"type": "archer"}, "figures[0].type", "CB6 figures are 'TD' or 'CR', got 'archer'"),
        ({"attrs": {"pa_bonus": 11}}, "figures[0].attrs.pa_bonus", "from -10 to 10, got 11"),
        # a flag is no number, though Python counts True as 1; shown as the scene spells it
        ({"attrs": {"pi_bonus": True}}, "figures[0].attrs.pi_bonus", "from -10 to 10, got true"),
        ({"attrs": {"pi_bonus": 1.5}}, "figures[0].attrs.pi_bonus", "from -10 to 10, got 1.5"),
        ({"attrs": {"sniper": "no"}}, "figures[0].attrs.sniper", "expected true or false"),
    ],
)
def test_bad_figures_are_scene_errors(more: dict[str, Any], field: str, problem: str) -> None:
    figure = {"id": "a", "side": "blue", "x_mm": 100, "y_mm": 100, **more}
    with pytest.raises(SceneError) as caught:
        neutral_scene(figure)
    assert f": {field}: " in str(caught.value) and problem in str(caught.value)


def test_a_group_mixing_sides_is_refused_on_the_neutral_surface() -> None:
    with pytest.raises(SceneError, match="group 'A' mixes sides blue, red"):
        neutral_scene(
            td_figure("a", "blue", 100, 100, group="A"),
            td_figure("b", "red", 130, 100, group="A"),
        )
