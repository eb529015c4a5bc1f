"""The hostile clients of ``arbitre bench serve``: what each flood sends."""

from __future__ import annotations

import json

import yaml
from shapely.geometry import Polygon

from arbitre.api.bench.flood import FLOODS, Flood, big_scene, comb, costly_question
from arbitre.rules.scene import MAX_SCENE_BYTES, parse_scene


def test_the_big_scene_is_a_thousand_figures_on_the_table() -> None:
    data = big_scene()
    assert len(data) < MAX_SCENE_BYTES  # read, not refused for its size
    scene = parse_scene(yaml.safe_load(data), source="big")
    # 34 to a row, 50 mm apart from x = 40; 30 rows 40 mm apart from y = 40: the last
    # column at 40 + 50 * 33 = 1690 mm, the last row at 40 + 40 * 29 = 1200 mm (the
    # table's far edge), on the 1800 x 1200 mm table.
    assert len(scene.figures) == 1000
    assert max(f.x_mm for f in scene.figures) == 1690.0
    assert max(f.y_mm for f in scene.figures) == 1200.0
    assert {f.side for f in scene.figures} == {"red", "blue"}


def test_a_comb_has_twenty_teeth_on_a_back_1000_mm_deep() -> None:
    # Teeth 20 mm wide from y = 1000 to 5000, every 50 mm from x = 100; the back from
    # x = 100 to 1070 (the last tooth's right side) and y = 0 to 1000:
    # 970 * 1000 + 20 * (20 * 4000) = 970,000 + 1,600,000 mm2.
    wood = Polygon(comb(5000.0, 0.0))
    assert wood.is_valid
    assert wood.bounds == (100.0, 0.0, 1070.0, 5000.0)
    assert wood.area == 2_570_000.0
    assert sum(y == 5000.0 for _, y in comb(5000.0, 0.0)) == 40  # two corners a tooth


def test_the_costly_question_is_a_reach_in_a_comb_2_km_long() -> None:
    body = json.loads(costly_question())
    assert (body["question"], body["args"]) == ("reach", ["a"])
    scene = parse_scene(body["scene"], source="costly")
    (wood,) = scene.terrain
    assert wood.kind.value == "wood"
    given = body["scene"]["terrain"][0]["polygon_mm"]
    # from y = -999,000 to 999,000 mm: 1,998 m
    assert Polygon(given).bounds[1::2] == (-999_000.0, 999_000.0)
    assert [f.id for f in scene.figures] == ["a"]


def test_each_flood_is_named_by_its_endpoint() -> None:
    assert Flood("state").name == "/api/state"
    assert Flood("ask").name == "/api/ask (a reach in a comb-shaped wood 2 km long)"
    burst = FLOODS[-1]
    assert (burst.endpoint, burst.clients, burst.once) == ("ask", 100, True)
    assert all(flood.clients == 4 and not flood.once for flood in FLOODS[:-1])
