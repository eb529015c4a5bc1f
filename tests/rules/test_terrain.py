"""Terrain as the path finder sees it (arbitre.rules.terrain)."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from arbitre.rules import pathing
from arbitre.rules.model import Figure, Scene, Table, TerrainFeature, TerrainKind
from arbitre.rules.terrain import (
    HOUSE_RULE_COSTS,
    grown_by_base,
    straight_cost_mm,
    terrain_cost_notes,
    terrain_costs,
    terrain_regions,
)


def test_only_the_house_rule_makes_woods_and_difficult_ground_cost_double() -> None:
    assert terrain_costs("none") == {}
    assert terrain_costs("double") == {TerrainKind.WOOD: 2.0, TerrainKind.DIFFICULT: 2.0}
    assert terrain_costs("double") is HOUSE_RULE_COSTS
    assert terrain_cost_notes("none") == ()
    (note,) = terrain_cost_notes("double")
    assert note.startswith("house rule terrain_cost: woods and difficult ground cost double")


def test_a_scene_s_area_terrain_becomes_blocking_and_costly_regions() -> None:
    scene = Scene(
        "test",
        None,
        Table(600.0, 400.0),
        (Figure("a", "blue", 50, 50),),
        terrain=(
            TerrainFeature("rock", TerrainKind.IMPASSABLE, shapely.box(100, 100, 150, 150)),
            TerrainFeature("wood", TerrainKind.WOOD, shapely.box(200, 100, 300, 200)),
            TerrainFeature("mud", TerrainKind.DIFFICULT, shapely.box(400, 100, 450, 200)),
            TerrainFeature(
                "wall", TerrainKind.IMPASSABLE, shapely.LineString([(0, 300), (99, 300)])
            ),
        ),
    )
    blocking, costly = terrain_regions(scene, [TerrainKind.IMPASSABLE], {TerrainKind.WOOD: 3.0})
    # the wall is a line: left to the rule systems that cross obstacles; the mud is not costly
    assert [b.ident for b in blocking] == ["rock"]
    assert [(c.ident, c.factor) for c in costly] == [("wood", 3.0)]
    assert costly[0].polygon.equals(shapely.box(200, 100, 300, 200))


def test_costly_ground_grows_by_the_base_that_overlaps_it() -> None:
    # A base 40 wide and 20 deep, kept facing +x: its centre overlaps a 100 mm wood from
    # 20 mm left of it along x and 10 below along y -- the wood grown to 140 x 120.
    wood = pathing.CostlyRegion(shapely.box(0, 0, 100, 100), 3.0, "wood")
    corners = np.array([[20.0, 10.0], [-20.0, 10.0], [-20.0, -10.0], [20.0, -10.0]])
    (grown,) = grown_by_base([wood], corners)
    assert grown.polygon.bounds == (-20.0, -10.0, 120.0, 110.0)
    assert grown.polygon.area == pytest.approx(140 * 120)
    assert (grown.ident, grown.factor, grown.grown) == ("wood", 3.0, True)
    assert grown_by_base([], corners) == ()


def test_a_straight_move_pays_each_region_it_crosses() -> None:
    # From (0, 50) to (100, 50) across a wood (x 10-30, factor 2) and mud (x 60-70, factor
    # 3): 100 + (2 - 1) x 20 + (3 - 1) x 10 = 140. A base of radius 5 overlaps each 10 mm
    # longer: 100 + 30 + 2 x 20 = 170.
    wood = pathing.CostlyRegion(shapely.box(10, 0, 30, 100), 2.0, "wood")
    mud = pathing.CostlyRegion(shapely.box(60, 0, 70, 100), 3.0, "mud")
    field = pathing.Field(200.0, 100.0, costly=(wood, mud))
    start, goal = np.array([0.0, 50.0]), np.array([100.0, 50.0])
    assert straight_cost_mm(field, start, goal) == pytest.approx(140.0)
    assert straight_cost_mm(field, start, goal, radius_mm=5.0) == pytest.approx(170.0)
    # what blocks is not seen: a straight cost, not a path
    rock = pathing.BlockingPolygon(shapely.box(40, 0, 50, 100), "rock")
    walled = pathing.Field(200.0, 100.0, polygons=(rock,))
    assert straight_cost_mm(walled, start, goal) == pytest.approx(100.0)
