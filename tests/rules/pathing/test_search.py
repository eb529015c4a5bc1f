"""Tests of exact shortest paths (arbitre.rules.pathing.search)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.rules import pathing
from arbitre.rules.pathing import BlockingPolygon, CostlyRegion, DiscHull, Field, shortest_path
from tests.rules.pathing.brute_force import (
    BRUTE,
    RADIUS,
    Box,
    Grid,
    assert_real,
    endpoints,
    fields,
    segment_costs,
)
from tests.rules.pathing.fields import (
    DEEP_WOOD,
    R_MOVER,
    TABLE,
    disc,
    free_points,
    random_field,
    single_disc_length,
)

# ------------------------------------------------------------------ hand-worked cases


def test_empty_table_is_a_straight_line() -> None:
    # (100, 100) -> (400, 500): a 300-400-500 triangle.
    path = shortest_path(Field(*TABLE), (100.0, 100.0), (400.0, 500.0), R_MOVER)
    assert path.found
    assert path.cost_mm == pytest.approx(500.0, abs=1e-9)
    assert path.length_mm == pytest.approx(500.0, abs=1e-9)
    assert path.blocked_by == ()
    np.testing.assert_allclose(path.points_mm, [[100.0, 100.0], [400.0, 500.0]])


def test_single_disc_in_the_way() -> None:
    # Disc R = 20 at (600, 450); grown radius rho = 20 + 12.5 = 32.5.
    # Start and goal 150 mm left and right of it: d = 150 on both sides, pi apart,
    # so length = 2 sqrt(150^2 - 32.5^2) + 32.5 (pi - 2 acos(32.5 / 150)).
    field = Field(*TABLE, hulls=(disc(600.0, 450.0, 20.0, "rock"),))
    expected = 2 * math.sqrt(150**2 - 32.5**2) + 32.5 * (math.pi - 2 * math.acos(32.5 / 150))
    assert expected == pytest.approx(single_disc_length(150, 150, 32.5, math.pi))
    path = shortest_path(field, (450.0, 450.0), (750.0, 450.0), R_MOVER)
    assert path.found
    assert path.length_mm == pytest.approx(expected, rel=1e-6)
    assert path.cost_mm == pytest.approx(expected, rel=1e-6)
    assert path.blocked_by == ("rock",)
    centre_gap = np.hypot(path.points_mm[:, 0] - 600.0, path.points_mm[:, 1] - 450.0)
    assert centre_gap.min() >= 32.5 - 1e-6
    # the sampled polyline is a little shorter than the true path (chords of arcs)
    polyline = float(np.sum(np.hypot(*np.diff(path.points_mm, axis=0).T)))
    assert expected - 0.05 < polyline <= expected + 1e-9


def test_group_hull_is_wrapped_as_a_whole() -> None:
    # Two discs R = 12.5 at (600, 430) and (600, 470): the hull grown by 12.5 is a
    # stadium of radius 25 around the segment x = 600, y in [430, 470].
    # From (500, 450) to (700, 450) the path goes round one end, say the top: it
    # touches only the upper circle (centre (600, 470), radius 25). From that centre
    # start and goal are d = |(100, 20)| away, 20 mm below and 100 mm to each side,
    # so measured round the top they are 2 pi - 2 atan(100 / 20) apart.
    # (The tangents clear the straight sides: they touch at y ~ 492 > 470.)
    field = Field(*TABLE, hulls=(DiscHull(np.array([[600, 430, 12.5], [600, 470, 12.5]]), "g"),))
    d = math.hypot(100.0, 20.0)
    apart = 2 * math.pi - 2 * math.atan2(100.0, 20.0)
    expected = single_disc_length(d, d, 25.0, apart)
    path = shortest_path(field, (500.0, 450.0), (700.0, 450.0), R_MOVER)
    assert path.cost_mm == pytest.approx(expected, rel=1e-6)
    assert path.blocked_by == ("g",)


def test_wall_is_rounded_at_its_corners() -> None:
    # Wall x in [590, 610], y in [200, 700]; start (400, 450), goal (800, 450):
    # symmetric, so going over the top or under the bottom costs the same.
    # Over the top: tangent from the start to the circle of radius r around the
    # corner (590, 700), the 20 mm top edge at y = 712.5, then the mirror image.
    # d = |(190, 250)|, tangent t = sqrt(d^2 - r^2); the tangent leaves at angle
    # atan2(250, 190) + asin(r / d), which is what the path turns on each corner.
    wall = BlockingPolygon(shapely.box(590.0, 200.0, 610.0, 700.0), "wall")
    d = math.hypot(190.0, 250.0)
    turn = math.atan2(250.0, 190.0) + math.asin(R_MOVER / d)
    expected = 2 * math.sqrt(d * d - R_MOVER**2) + 20.0 + 2 * R_MOVER * turn
    path = shortest_path(Field(*TABLE, polygons=(wall,)), (400.0, 450.0), (800.0, 450.0), R_MOVER)
    assert path.found
    assert path.cost_mm == pytest.approx(expected, rel=1e-6)
    assert path.blocked_by == ("wall",)
    # never closer to the wall than the mover's radius
    gap = shapely.distance(wall.polygon, shapely.points(path.points_mm))
    assert gap.min() >= R_MOVER - 1e-6


def test_costly_strip_crossed_straight() -> None:
    # Mud x in [500, 560] over the whole depth; (400, 450) -> (700, 450). The base (radius
    # 12.5) is in the mud from x = 487.5 to 572.5: 215 mm outside at cost 1 and 85 mm in
    # it at cost 2 -> 385.
    mud = CostlyRegion(shapely.box(500.0, 0.0, 560.0, 900.0), 2.0, "mud")
    path = shortest_path(Field(*TABLE, costly=(mud,)), (400.0, 450.0), (700.0, 450.0), R_MOVER)
    assert path.cost_mm == pytest.approx(215.0 + 2 * 85.0, abs=1e-6)
    assert path.length_mm == pytest.approx(300.0, abs=1e-6)
    assert path.blocked_by == ()


def test_detour_around_a_costly_square() -> None:
    # Square x in [480, 520], y in [430, 470], factor 2; (400, 450) -> (600, 450). A base
    # of radius 12.5 is in it within x 467.5-532.5, y 417.5-482.5 (square corners).
    # Straight across: 200 + 65 extra = 265. Skirting it over the top corners
    # (467.5, 482.5) and (532.5, 482.5), along its edge (an edge with room beside it
    # costs 1): 2 * |(67.5, 32.5)| + 65 = 2 sqrt(5612.5) + 65 = 214.83.
    square = CostlyRegion(shapely.box(480.0, 430.0, 520.0, 470.0), 2.0, "wood")
    expected = 2 * math.sqrt(67.5**2 + 32.5**2) + 65.0
    path = shortest_path(Field(*TABLE, costly=(square,)), (400.0, 450.0), (600.0, 450.0), R_MOVER)
    assert expected < 265.0
    assert path.cost_mm == pytest.approx(expected, abs=1e-6)
    assert path.length_mm == pytest.approx(expected, abs=1e-6)


def test_enclosed_goal_and_goal_off_the_table() -> None:
    # A ring wall (outer radius 100, inner 80) around (600, 450); the goal inside is
    # free (80 - 12.5 > 0) but closed in.
    ring = shapely.Point(600, 450).buffer(100.0).difference(shapely.Point(600, 450).buffer(80.0))
    field = Field(*TABLE, polygons=(BlockingPolygon(ring, "ring"),))
    enclosed = shortest_path(field, (100.0, 100.0), (600.0, 450.0), R_MOVER)
    assert not enclosed.found
    assert math.isinf(enclosed.cost_mm)
    assert enclosed.blocked_by == ("ring",)
    assert shortest_path(field, (100.0, 100.0), (1300.0, 450.0), R_MOVER).found is False
    # the whole base must stay on the table: a centre 5 mm from the edge is off
    assert shortest_path(field, (100.0, 100.0), (5.0, 450.0), R_MOVER).found is False
    assert shortest_path(field, (-40.0, 100.0), (300.0, 300.0), R_MOVER).found is False
    # inside the ring one can move around
    inside = shortest_path(field, (600.0, 450.0), (640.0, 450.0), R_MOVER)
    assert inside.found and inside.cost_mm == pytest.approx(40.0)


def test_start_overlapping_an_obstacle_can_leave() -> None:
    # Figure R = 12.5 at (600, 450); the mover (r = 12.5) starts at (620, 450),
    # 20 mm from it: the bases overlap by 5 mm. Moving away is straight.
    field = Field(*TABLE, hulls=(disc(600.0, 450.0, 12.5, "friend"),))
    away = shortest_path(field, (620.0, 450.0), (800.0, 450.0), R_MOVER)
    assert away.found
    assert away.cost_mm == pytest.approx(180.0)
    # Going to the far side, the figure blocks only with its own base (radius 12.5):
    # d_start = 20, d_goal = 40, pi apart, rho = 12.5.
    across = shortest_path(field, (620.0, 450.0), (560.0, 450.0), R_MOVER)
    assert across.cost_mm == pytest.approx(single_disc_length(20.0, 40.0, 12.5, math.pi), rel=1e-6)
    # a start whose centre is inside the obstacle ignores it
    inside = shortest_path(field, (605.0, 450.0), (700.0, 450.0), R_MOVER)
    assert inside.cost_mm == pytest.approx(95.0)


def test_goal_overlapping_an_obstacle_is_reached() -> None:
    # The goal (780, 450) is 20 mm from a figure R = 12.5 at (800, 450): the bases
    # would overlap by 5 mm, so the figure blocks only with its own base and the
    # straight line of 380 mm from (400, 450) is free.
    field = Field(*TABLE, hulls=(disc(800.0, 450.0, 12.5, "enemy"),))
    path = shortest_path(field, (400.0, 450.0), (780.0, 450.0), R_MOVER)
    assert path.found
    assert path.cost_mm == pytest.approx(380.0)
    assert path.blocked_by == ()
    assert pathing.Terrain is Field


def test_max_cost_still_gives_the_true_cost() -> None:
    # Same disc as test_single_disc_in_the_way, with an allowance of 100 mm only.
    field = Field(*TABLE, hulls=(disc(600.0, 450.0, 20.0, "rock"),))
    expected = 2 * math.sqrt(150**2 - 32.5**2) + 32.5 * (math.pi - 2 * math.acos(32.5 / 150))
    path = shortest_path(field, (450.0, 450.0), (750.0, 450.0), R_MOVER, max_cost_mm=100.0)
    assert path.found
    assert path.cost_mm == pytest.approx(expected, rel=1e-6)
    generous = shortest_path(field, (450.0, 450.0), (750.0, 450.0), R_MOVER, max_cost_mm=1e4)
    assert generous.cost_mm == pytest.approx(expected, rel=1e-9)


# ------------------------------------------------------------------ in a wood


@pytest.mark.parametrize("limit", [None, 120.0])
def test_a_move_deep_inside_a_wood_pays_the_wood(limit: float | None) -> None:
    # 50 mm straight, 70 mm from every edge of the wood: 2 x 50 = 100 mm, whether or
    # not the search is bounded (a bounded search sees no edge of the wood at all).
    path = shortest_path(DEEP_WOOD, (450, 1120), (500, 1120), R_MOVER, max_cost_mm=limit)
    assert path.cost_mm == pytest.approx(100.0)


@pytest.mark.parametrize("limit", [None, 150.0])
def test_a_move_near_one_edge_of_a_wood_pays_the_wood(limit: float | None) -> None:
    # 100 mm along y = 1170, 20 mm below the wood's top edge. The centre cannot leave
    # by the top (the table edge keeps it below 1200 - 12.5 = 1187.5, still in the
    # wood) and the bottom edge is 120 mm away (240 mm to get there): 2 x 100 = 200.
    path = shortest_path(DEEP_WOOD, (400, 1170), (500, 1170), R_MOVER, max_cost_mm=limit)
    assert path.cost_mm == pytest.approx(200.0)


def test_a_move_two_centimetres_inside_a_wood_s_edge_pays_the_wood() -> None:
    # 100 mm along y = 1070, 20 mm inside the wood's bottom edge (y 1050), with open
    # ground below it. The base (12.5) is 32.5 mm deep in the grown wood: stepping out
    # and back at the best angle would cost 100 + 2 sqrt(3) x 32.5 = 212.6 > 2 x 100.
    path = shortest_path(DEEP_WOOD, (400, 1070), (500, 1070), R_MOVER)
    assert path.cost_mm == pytest.approx(200.0)
    # Just outside the edge (centre at y 1048, base 10.5 mm into the grown wood) a way
    # out pays: 4 |(10.5, a)| + 100 - 2a, least at a = 10.5 / sqrt(3): 136.37.
    outside = shortest_path(DEEP_WOOD, (400, 1048), (500, 1048), R_MOVER)
    assert outside.cost_mm == pytest.approx(100 + 2 * math.sqrt(3) * 10.5, abs=1e-3)


# ------------------------------------------------------------------ properties


FAST = settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


@FAST
@given(st.integers(0, 10**6), st.booleans())
def test_cost_at_least_length_at_least_straight(seed: int, costly: bool) -> None:
    field = random_field(seed, costly)
    rng = np.random.default_rng(seed + 1)
    pts = free_points(field, rng, 2)
    if len(pts) < 2:
        return
    path = shortest_path(field, pts[0], pts[1], R_MOVER)
    if not path.found:
        return
    straight = float(np.hypot(*(pts[1] - pts[0])))
    assert path.length_mm >= straight - 1e-9
    assert path.cost_mm >= path.length_mm - 1e-9
    np.testing.assert_allclose(path.points_mm[0], pts[0])
    np.testing.assert_allclose(path.points_mm[-1], pts[1])
    if not path.blocked_by and not costly:
        assert path.cost_mm == pytest.approx(straight)


@FAST
@given(st.integers(0, 10**6))
def test_cost_is_symmetric_without_costly_regions(seed: int) -> None:
    field = random_field(seed, False)
    pts = free_points(field, np.random.default_rng(seed + 2), 2)
    if len(pts) < 2:
        return
    there = shortest_path(field, pts[0], pts[1], R_MOVER)
    back = shortest_path(field, pts[1], pts[0], R_MOVER)
    assert there.found == back.found
    if there.found:
        assert there.cost_mm == pytest.approx(back.cost_mm, rel=1e-6)


# ------------------------------------------------------------------ against a brute-force grid


@BRUTE
@given(st.data(), fields(), st.booleans())
def test_shortest_path_matches_the_grid(
    data: st.DataObject, drawn: tuple[Field, list[Box]], bounded: bool
) -> None:
    # The strict grid's paths are real: the exact path costs no more. And the exact
    # path is itself real, costing what it says: it cannot cost less than the optimum.
    field, boxes = drawn
    grid = Grid(field, boxes)
    start = endpoints(data.draw, grid, boxes)
    goal = endpoints(data.draw, grid, boxes)
    on_grid = grid.costs_from(*start)[grid.node(*goal)]
    limit = 1.1 * on_grid if bounded and math.isfinite(on_grid) else None
    path = shortest_path(field, start, goal, RADIUS, max_cost_mm=limit)
    if math.isfinite(on_grid):
        assert path.found, (start, goal, on_grid)
        assert path.cost_mm <= on_grid + 1e-6, (start, goal, on_grid)
    if path.found:
        assert_real(field, boxes, path)


@pytest.mark.parametrize(
    ("start", "goal", "expected"),
    [
        # Segments clipped by hand against the box (100, 50)-(200, 150), factor 2:
        ((50.0, 100.0), (250.0, 100.0), 300.0),  # 100 of 200 inside: 200 + 100
        ((150.0, 100.0), (160.0, 100.0), 20.0),  # wholly inside
        ((100.0, 40.0), (100.0, 160.0), 220.0),  # along the left edge, 100 of 120 on it
        ((50.0, 100.0), (90.0, 100.0), 40.0),  # outside
    ],
)
def test_the_brute_force_clips_segments_exactly(
    start: tuple[float, float], goal: tuple[float, float], expected: float
) -> None:
    cost = segment_costs(np.array([start]), np.array([goal]), [(100, 50, 200, 150, 2.0)])
    assert cost[0] == pytest.approx(expected)
