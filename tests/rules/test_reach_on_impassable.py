"""Where a figure may go and whether it may go there agree on impassable ground, also
for a figure that stands on it (measured inside a rock, or over a wall's end)."""

from __future__ import annotations

from typing import Any

import pytest
import shapely

from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene

TABLE = {"width_mm": 1200, "depth_mm": 900}
ROCK = [[250, 250], [450, 250], [450, 450], [250, 450]]
RULESETS: dict[str, dict[str, Any]] = {
    "choc-base-6": {"options": {"unit_mm": 100}, "figure": {"attrs": {"alone": True}}},
    "smooth-and-rifled": {"options": {}, "figure": {}},
    "musg": {"options": {}, "figure": {"attrs": {"move_pas": 6}}},
}


def _scene(ruleset: str, x: float, y: float, rock: list[list[float]]) -> Any:
    spec = RULESETS[ruleset]
    figure = {"id": "a", "side": "blue", "x_mm": x, "y_mm": y, **spec["figure"]}
    return parse_scene(
        {
            "ruleset": ruleset,
            "options": spec["options"],
            "table": TABLE,
            "figures": [figure],
            "terrain": [{"id": "rock", "kind": "impassable", "polygon_mm": rock}],
        }
    )


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_a_figure_inside_impassable_ground_may_go_nowhere(ruleset: str) -> None:
    # The whole table is rock: every move is refused, so no area may be offered either.
    table = [[0, 0], [1200, 0], [1200, 900], [0, 900]]
    scene = _scene(ruleset, 300.0, 300.0, table)
    reach = ask(scene, "reach", ["a"]).to_json()
    assert reach["area_mm2"] == 0.0 and reach["polygons_mm"] == []
    move = ask(scene, "move", ["a", "350", "300"]).to_json()
    assert move["legal"] is False and "impassable" in move["reasons"]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_a_figure_standing_in_a_rock_s_corner_is_offered_only_where_it_may_stop(
    ruleset: str,
) -> None:
    # The figure's centre is 5 mm inside the rock's corner: it may walk out, and the area
    # offered holds no centre whose base would overlap the rock (move refuses those).
    scene = _scene(ruleset, 255.0, 255.0, ROCK)
    reach = ask(scene, "reach", ["a"]).to_json()
    area = shapely.MultiPolygon([shapely.Polygon(p) for p in reach["polygons_mm"]])
    assert reach["area_mm2"] > 0.0
    rock = shapely.Polygon(ROCK)
    assert area.intersection(rock).area == pytest.approx(0.0, abs=1.0)
    # goals in the area are never refused for the rock (S&R may still refuse a step
    # backwards for the figure's facing: another rule)
    for goal in ((200.0, 200.0), (230.0, 300.0), (300.0, 230.0)):
        assert area.contains(shapely.Point(goal).buffer(0.5)), goal
        move = ask(scene, "move", ["a", str(goal[0]), str(goal[1])]).to_json()
        assert "impassable" not in move["reasons"], (goal, move["reasons"])
    # goals beside the rock whose base would overlap it: refused, and outside the area
    for goal in ((245.0, 300.0), (300.0, 245.0)):
        assert not area.contains(shapely.Point(goal)), goal
        move = ask(scene, "move", ["a", str(goal[0]), str(goal[1])]).to_json()
        assert "impassable" in move["reasons"], (goal, move["reasons"])
    # a goal on the rock: refused, and outside the area
    assert not area.contains(shapely.Point(350.0, 350.0))
    assert ask(scene, "move", ["a", "350", "350"]).to_json()["legal"] is False


def test_with_nowhere_to_go_the_answer_says_so() -> None:
    table = [[0, 0], [1200, 0], [1200, 900], [0, 900]]
    message = ask(_scene("choc-base-6", 300.0, 300.0, table), "reach", ["a"]).message
    assert message == "a may not move anywhere within 2 M: no place it could reach is free"
