"""Very detailed obstacles and costly ground are simplified for path finding, never shrunk."""

from __future__ import annotations

import math
import time

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.rules import pathing
from arbitre.rules.pathing.outline import (
    MAX_FIELD_VERTICES,
    MAX_OBSTACLE_VERTICES,
    path_outline,
    vertex_budgets,
    vertex_count,
)
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene


def _ring(n: int, radius_mm: float, jag: float = 0.0) -> list[tuple[float, float]]:
    """``n`` vertices round (600, 450), every other one ``jag`` further out."""
    points = []
    for k in range(n):
        angle = 2 * math.pi * k / n
        r = radius_mm * (1 + (jag if k % 2 else 0.0))
        points.append((600 + r * math.cos(angle), 450 + r * math.sin(angle)))
    return points


def test_a_polygon_within_the_budget_is_kept_as_it_is() -> None:
    square = shapely.box(0, 0, 10, 10)
    assert path_outline(square) == (square, 0.0)


def test_a_detailed_polygon_is_replaced_by_an_outline_containing_it() -> None:
    rock = shapely.Polygon(_ring(2000, 150, jag=0.05))
    outline, tolerance_mm = path_outline(rock)
    assert vertex_count(rock) == 2000 and vertex_count(outline) <= MAX_OBSTACLE_VERTICES
    assert outline.covers(rock)
    # The jags are 7.5 mm deep: the outline may fill them, and stand out by at most
    # twice the tolerance (square corners cut at a mitre limit of 2).
    assert shapely.hausdorff_distance(outline, rock) <= 2 * tolerance_mm + 1e-6
    assert tolerance_mm < 20.0


def test_a_hole_only_shrinks() -> None:
    ring = shapely.Polygon(_ring(1000, 200), [_ring(1000, 100)[::-1]])
    outline, _ = path_outline(ring)
    assert outline.covers(ring) and vertex_count(outline) <= MAX_OBSTACLE_VERTICES


def test_a_tiny_budget_falls_back_to_a_box_at_worst() -> None:
    rock = shapely.Polygon(_ring(500, 150, jag=0.3))
    outline, _ = path_outline(rock, max_vertices=4)
    assert vertex_count(outline) <= 4 and outline.covers(rock)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(50, 200), min_size=130, max_size=400),
    st.integers(4, MAX_OBSTACLE_VERTICES),
)
def test_an_outline_always_covers_its_polygon(radii: list[float], budget: int) -> None:
    n = len(radii)
    points = [
        (600 + r * math.cos(2 * math.pi * k / n), 450 + r * math.sin(2 * math.pi * k / n))
        for k, r in enumerate(radii)
    ]
    polygon = shapely.Polygon(points)
    outline, _ = path_outline(polygon, budget)
    assert outline.is_valid and outline.covers(polygon)
    assert vertex_count(outline) <= budget


def test_the_field_budget_is_shared() -> None:
    assert vertex_budgets([]) == []
    assert sum(vertex_budgets([500] * 100)) <= MAX_FIELD_VERTICES
    assert min(vertex_budgets([5000] * 10_000)) >= 8


def test_a_move_round_a_rock_of_2000_vertices_is_quick_and_exact_to_a_millimetre() -> None:
    # A disc of radius 12.5 from (300, 450) to (900, 450) round a rock of radius 150 at
    # (600, 450) (its vertices on the circle): the centre goes round a circle of radius
    # R = 162.5 from d = 300 away on each side. Tangents sqrt(300² - 162.5²) = 252.18
    # each; the arc between the tangent points spans pi - 2 acos(162.5 / 300) = 1.1448
    # rad, 186.04 mm. Total 690.39 mm. It took over a minute with every vertex kept.
    rock = pathing.BlockingPolygon(shapely.Polygon(_ring(2000, 150)), "rock")
    field = pathing.Field(1200, 900, polygons=(rock,))
    started = time.perf_counter()
    path = pathing.shortest_path(field, np.array([300.0, 450]), np.array([900.0, 450]), 12.5)
    assert time.perf_counter() - started < 10.0
    assert path.found and abs(path.cost_mm - 690.39) < 0.5
    # The path never takes the base into the rock.
    line = shapely.LineString(path.points_mm)
    assert line.distance(rock.polygon) >= 12.5 - 1e-6


def test_a_wood_of_2000_vertices_is_paid_in_full() -> None:
    # Both ends deep inside a round wood of radius 300: the straight 200 mm cost double.
    wood = pathing.CostlyRegion(shapely.Polygon(_ring(2000, 300, jag=0.01)), 2.0, "wood")
    field = pathing.Field(1200, 900, costly=(wood,))
    started = time.perf_counter()
    path = pathing.shortest_path(field, np.array([500.0, 450]), np.array([700.0, 450]), 12.5)
    assert time.perf_counter() - started < 10.0
    assert path.found and abs(path.cost_mm - 400.0) < 1e-6


def test_the_issue_move_round_a_detailed_impassable_polygon() -> None:
    scene = parse_scene(
        {
            "ruleset": "cb6",
            "options": {"unit_mm": 100},
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": [
                {"id": "a", "side": "blue", "x_mm": 300, "y_mm": 450, "group": "A"}
                | {"reference": True, "base": {"shape": "round", "diameter_mm": 25}}
            ],
            "terrain": [{"id": "rock", "kind": "impassable", "polygon_mm": _ring(2000, 150, 0.05)}],
        }
    )
    started = time.perf_counter()
    answer = ask(scene, "move", ["A", "900", "450"]).to_json()
    assert time.perf_counter() - started < 10.0
    assert answer["legal"] is False and answer["reasons"] == ["over_allowance"]
    # Round the rock's outer vertices (radius 157.5) the way is at least 2 x sqrt(300² -
    # 170²) + arc = 2 x 247.18 + 170 x (pi - 2 acos(170 / 300)) = 494.37 + 204.83 = 699.2
    # mm (less a hair: the chords between those vertices); the outline fills the 7.5 mm
    # jags, so the way found is a little longer, never shorter.
    assert 699.0 <= answer["cost_mm"] <= 699.2 + 4 * 7.5
