"""Tests of exact shortest paths and reachable areas (arbitre.rules.pathing)."""

from __future__ import annotations

import math
import multiprocessing

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar

from arbitre.rules import pathing
from arbitre.rules.pathing import (
    BlockingPolygon,
    CostlyRegion,
    DiscHull,
    Field,
    reachable_area,
    shortest_path,
)

R_MOVER = 12.5
TABLE = (1200.0, 900.0)


def disc(x: float, y: float, radius: float, ident: str) -> DiscHull:
    return DiscHull(np.array([[x, y, radius]]), ident)


# ------------------------------------------------------------------ hand-worked cases


def test_empty_table_is_a_straight_line() -> None:
    # (100, 100) -> (400, 500): a 300-400-500 triangle.
    path = shortest_path(Field(*TABLE), (100.0, 100.0), (400.0, 500.0), R_MOVER)
    assert path.found
    assert path.cost_mm == pytest.approx(500.0, abs=1e-9)
    assert path.length_mm == pytest.approx(500.0, abs=1e-9)
    assert path.blocked_by == ()
    np.testing.assert_allclose(path.points_mm, [[100.0, 100.0], [400.0, 500.0]])


def single_disc_length(d_start: float, d_goal: float, rho: float, apart: float) -> float:
    """Two tangents and the arc between them around a disc of radius rho.

    Start and goal are d_start, d_goal from the centre and ``apart`` radians apart
    as seen from it. Tangent k has length sqrt(d_k^2 - rho^2) and touches the
    circle acos(rho / d_k) away from the direction of its point; the arc is what is
    left of ``apart``: rho * (apart - acos(rho/d_start) - acos(rho/d_goal)).
    """
    tangents = math.sqrt(d_start**2 - rho**2) + math.sqrt(d_goal**2 - rho**2)
    turn = apart - math.acos(rho / d_start) - math.acos(rho / d_goal)
    return tangents + rho * turn


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


def test_refraction_matches_brute_force() -> None:
    # Difficult ground x >= 500; from (300, 200) outside to (700, 600) inside. A base of
    # radius 10 is in it from x = 490: the path crosses x = 490 at some y,
    # cost(y) = |(190, y - 200)| + 2 |(210, 600 - y)|.
    # Brute force: scan y on a fine grid, then polish the best cell.
    ground = CostlyRegion(shapely.box(500.0, 0.0, 1200.0, 900.0), 2.0, "ground")

    def cost(y: float) -> float:
        return math.hypot(190.0, y - 200.0) + 2.0 * math.hypot(210.0, 600.0 - y)

    grid = np.linspace(200.0, 600.0, 40001)
    values = np.hypot(190.0, grid - 200.0) + 2.0 * np.hypot(210.0, 600.0 - grid)
    best = float(grid[np.argmin(values)])
    fine = minimize_scalar(
        cost, bounds=(best - 0.02, best + 0.02), method="bounded", options={"xatol": 1e-9}
    )
    expected = float(fine.fun)
    assert expected < math.hypot(400.0, 400.0) * 1.5  # bending pays off
    path = shortest_path(Field(*TABLE, costly=(ground,)), (300.0, 200.0), (700.0, 600.0), 10.0)
    assert path.cost_mm == pytest.approx(expected, abs=1e-3)
    crossing = path.points_mm[np.argmin(np.abs(path.points_mm[:, 0] - 490.0))]
    assert crossing[0] == pytest.approx(490.0, abs=1e-9)
    assert crossing[1] == pytest.approx(float(fine.x), abs=0.05)


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


@pytest.mark.parametrize(
    "call",
    [
        lambda f: shortest_path(f, (0.0, 0.0), (1.0, 1.0), -1.0),
        lambda f: shortest_path(f, (math.nan, 0.0), (1.0, 1.0), 1.0),
        lambda f: shortest_path(f, (0.0, 0.0), (math.inf, 1.0), 1.0),
        lambda f: shortest_path(f, (0.0, 0.0, 0.0), (1.0, 1.0), 1.0),
        lambda f: shortest_path(f, (0.0, 0.0), (1.0, 1.0), 1.0, max_cost_mm=-5.0),
        lambda f: reachable_area(f, (0.0, 0.0), 1.0, math.nan),
        lambda f: reachable_area(f, (0.0, 0.0), math.nan, 10.0),
        lambda f: DiscHull(np.array([[0.0, 0.0]]), "bad"),
        lambda f: DiscHull(np.array([[0.0, 0.0, -1.0]]), "bad"),
        lambda f: CostlyRegion(shapely.box(0, 0, 1, 1), 0.5, "bad"),
        lambda f: BlockingPolygon(shapely.Polygon(), "bad"),
        lambda f: Field(-1.0, 10.0),
    ],
)
def test_malformed_input_is_refused(call: object) -> None:
    with pytest.raises(ValueError):
        call(Field(100.0, 100.0))  # type: ignore[operator]


# ------------------------------------------------------------------ reachable areas


# A wood of factor 2 at the top of a 1200 x 1200 table: x 300-600, y 1050-1190.
DEEP_WOOD = Field(
    1200.0, 1200.0, costly=(CostlyRegion(shapely.box(300, 1050, 600, 1190), 2.0, "wood"),)
)


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


def test_an_arc_round_a_figure_pays_the_wood_it_runs_through() -> None:
    # A wood of factor 3 over x 40..60, y 30..55 (grown by the base's 5 mm: x >= 35); a
    # disc of 14.5 at (25, 50) (grown: 19.5), which the start (40, 37.5) touches. Any way
    # to (25, 30) runs at least 5 mm inside the grown wood (x from 40 to 35, 15 mm of
    # budget) and then 10 mm more (to x = 25): 25 > 20, so (25, 30) is out of reach --
    # also going round the disc, whose arc from the start runs in the wood (the wood's
    # far edge, where the circle leaves it, lies outside the reach's search box).
    field = Field(
        300.0,
        200.0,
        hulls=(disc(25.0, 50.0, 14.5, "figure"),),
        costly=(CostlyRegion(shapely.box(40, 30, 60, 55), 3.0, "wood"),),
    )
    area = reachable_area(field, (40.0, 37.5), 5.0, 20.0)
    assert not shapely.intersects_xy(area, 25.0, 30.0)
    assert shortest_path(field, (40.0, 37.5), (25.0, 30.0), 5.0).cost_mm > 25.0


def test_reachable_area_deep_inside_a_wood() -> None:
    # 40 mm of allowance at factor 2 is a disc of 20 mm: pi * 20^2 = 1256.6 mm^2
    # (the polygon inscribed in the disc is a little smaller).
    area = reachable_area(DEEP_WOOD, (450, 1120), R_MOVER, 40.0)
    assert area.area == pytest.approx(math.pi * 20.0**2, rel=2e-3)
    assert area.bounds[3] == pytest.approx(1140.0, abs=0.05)


def test_reachable_area_on_an_empty_table_is_a_disc() -> None:
    area = reachable_area(Field(*TABLE), (600.0, 450.0), R_MOVER, 200.0)
    assert area.area == pytest.approx(math.pi * 200.0**2, rel=1e-3)
    angles = np.linspace(0.0, 2 * math.pi, 90, endpoint=False)
    ring = np.column_stack([np.cos(angles), np.sin(angles)])
    assert shapely.contains_xy(area, *(np.array([600.0, 450.0]) + 199.5 * ring).T).all()
    assert not shapely.intersects_xy(area, *(np.array([600.0, 450.0]) + 200.5 * ring).T).any()


def test_reachable_area_behind_a_disc_and_in_mud() -> None:
    # Disc R = 20 at (600, 450) (rho = 32.5) and the start 100 mm to its left.
    # Straight behind it, at distance e from the centre, the geodesic distance is
    # sqrt(100^2 - rho^2) + sqrt(e^2 - rho^2) + rho (pi - acos(rho/100) - acos(rho/e)).
    field = Field(*TABLE, hulls=(disc(600.0, 450.0, 20.0, "rock"),))
    area = reachable_area(field, (500.0, 450.0), R_MOVER, 200.0)
    for e in np.linspace(40.0, 90.0, 11):
        geodesic = single_disc_length(100.0, e, 32.5, math.pi)
        inside = bool(shapely.contains_xy(area, 600.0 + e, 450.0))
        if geodesic <= 199.5:
            assert inside, e
        if geodesic >= 200.5:
            assert not inside, e
    # Mud x in [500, 560] with the start 100 mm left of it: the base (radius 12.5) is in
    # the mud from x = 487.5, so straight right the budget of 200 runs out at
    # 487.5 + (200 - 87.5) / 2 = 543.75.
    mud = CostlyRegion(shapely.box(500.0, 0.0, 560.0, 900.0), 2.0, "mud")
    muddy = reachable_area(Field(*TABLE, costly=(mud,)), (400.0, 450.0), R_MOVER, 200.0)
    assert shapely.contains_xy(muddy, 543.25, 450.0)
    assert not shapely.contains_xy(muddy, 544.25, 450.0)


def test_a_bend_slid_along_a_wood_stays_on_the_table() -> None:
    # The wood's left edge, grown by the base's radius, runs down to x = 14.5 and its
    # line goes on off the table (x < 12.5, where the base hangs over the edge). The
    # cheapest path skirts the wood down that line; its bend must stop at the edge.
    wood = CostlyRegion(
        shapely.Polygon([(27, 371), (37, 428), (87, 442), (124, 420), (75, 379)]), 2.0, "wood"
    )
    field = Field(*TABLE, costly=(wood,))
    start, goal = (61.74, 458.45), (12.56, 285.76)
    path = shortest_path(field, start, goal, R_MOVER)
    assert path.found
    assert path.points_mm[:, 0].min() >= R_MOVER - 1e-6
    # The reachable area agrees with the path to within its error (1 mm at this budget).
    assert shapely.contains_xy(reachable_area(field, start, R_MOVER, path.cost_mm + 1.5), *goal)
    assert not shapely.contains_xy(reachable_area(field, start, R_MOVER, path.cost_mm - 0.5), *goal)


def test_reachable_area_is_empty_off_the_table_or_without_budget() -> None:
    assert reachable_area(Field(*TABLE), (-50.0, 100.0), R_MOVER, 100.0).is_empty
    assert reachable_area(Field(*TABLE), (100.0, 100.0), R_MOVER, 0.0).is_empty


# ------------------------------------------------------------------ properties


def random_field(seed: int, costly: bool) -> Field:
    """A 600 x 400 table with figures, a group, a rock and (optionally) mud."""
    rng = np.random.default_rng(seed)
    hulls = [
        disc(*rng.uniform([60, 60], [540, 340]), rng.uniform(8, 20), f"f{k}")
        for k in range(int(rng.integers(2, 6)))
    ]
    base = rng.uniform([80, 80], [520, 320])
    group = np.column_stack([base + rng.uniform(-30, 30, (3, 2)), np.full(3, 12.5)])
    hulls.append(DiscHull(group, "group"))
    polygons = []
    for k in range(int(rng.integers(0, 3))):
        centre = rng.uniform([80, 80], [520, 320])
        points = centre + rng.uniform(-35, 35, (6, 2))
        polygons.append(BlockingPolygon(shapely.MultiPoint(points).convex_hull, f"rock{k}"))
    regions = []
    if costly:
        for k in range(int(rng.integers(1, 3))):
            centre = rng.uniform([80, 80], [520, 320])
            points = centre + rng.uniform(-60, 60, (7, 2))
            regions.append(CostlyRegion(shapely.MultiPoint(points).convex_hull, 2.0, f"mud{k}"))
    return Field(600.0, 400.0, tuple(hulls), tuple(polygons), tuple(regions))


def grown_obstacles(field: Field, grow: float) -> list[shapely.Geometry]:
    """Obstacles grown by ``grow`` (polygons inside the exact shapes)."""
    shapes = []
    for hull in field.hulls:
        circles = [shapely.Point(x, y).buffer(r + grow, quad_segs=32) for x, y, r in hull.discs]
        shapes.append(shapely.union_all(circles).convex_hull)
    for blocking in field.polygons:
        shapes.append(blocking.polygon.buffer(grow, quad_segs=32))
    return shapes


def free_points(field: Field, rng: np.random.Generator, count: int) -> np.ndarray:
    """Random centres at least 0.01 mm clear of every grown obstacle and edge."""
    blocked = shapely.union_all(grown_obstacles(field, R_MOVER + 0.01))
    pts = rng.uniform(
        [R_MOVER + 0.01] * 2,
        [field.width_mm - R_MOVER - 0.01, field.depth_mm - R_MOVER - 0.01],
        (count * 4, 2),
    )
    pts = pts[~shapely.intersects_xy(blocked, pts[:, 0], pts[:, 1])]
    return pts[:count]


FAST = settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
AREAS = settings(
    max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
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


@AREAS
@given(st.integers(0, 10**6), st.booleans())
def test_reachable_area_holds_every_cheap_goal(seed: int, costly: bool) -> None:
    field = random_field(seed, costly)
    rng = np.random.default_rng(seed + 3)
    pts = free_points(field, rng, 9)
    if len(pts) < 2:
        return
    start, goals = pts[0], pts[1:]
    budget = 150.0
    area = reachable_area(field, start, R_MOVER, budget)
    for goal in goals:
        path = shortest_path(field, start, goal, R_MOVER, max_cost_mm=budget)
        if path.found and path.cost_mm <= budget - 1.0:
            assert shapely.distance(area, shapely.Point(goal)) < 1e-9, (goal, path.cost_mm)
        if shapely.contains_xy(area, *goal):
            assert path.found and path.cost_mm <= budget + 1.0, (goal, path.cost_mm)


@AREAS
@given(st.integers(0, 10**6), st.booleans())
def test_reachable_area_stays_out_of_obstacles(seed: int, costly: bool) -> None:
    field = random_field(seed, costly)
    pts = free_points(field, np.random.default_rng(seed + 4), 1)
    if len(pts) < 1:
        return
    area = reachable_area(field, pts[0], R_MOVER, 200.0)
    assert area.geom_type in ("Polygon", "MultiPolygon")
    for shape in grown_obstacles(field, R_MOVER - 1e-3):
        assert area.intersection(shape).area < 1e-9
    table = shapely.box(R_MOVER, R_MOVER, field.width_mm - R_MOVER, field.depth_mm - R_MOVER)
    assert area.difference(table.buffer(1e-9)).area < 1e-9


def _reach_in_child(queue: multiprocessing.Queue[float]) -> None:
    # 30 discs and a wood: the area is joined from over a hundred outlines, in halves.
    hulls = tuple(
        disc(250.0 + 90.0 * (k % 6), 200.0 + 90.0 * (k // 6), 15.0, f"d{k}") for k in range(30)
    )
    wood = CostlyRegion(shapely.box(560.0, 150.0, 700.0, 300.0), 2.0, "wood")
    field = Field(*TABLE, hulls=hulls, costly=(wood,))
    queue.put(reachable_area(field, (480.0, 420.0), R_MOVER, 250.0).area)


def test_a_forked_process_draws_reachable_areas_too() -> None:
    # The union of outlines runs partly in a helper thread; a process forked after the
    # parent used it has no such thread and must make its own, not wait for ever.
    queue: multiprocessing.Queue[float] = multiprocessing.Queue()
    _reach_in_child(queue)  # the parent's helper thread is running now
    expected = queue.get(timeout=30)
    child = multiprocessing.get_context("fork").Process(target=_reach_in_child, args=(queue,))
    child.start()
    child.join(timeout=60)
    if child.is_alive():  # waiting for a thread it does not have
        child.kill()
        child.join()
    assert child.exitcode == 0
    assert queue.get(timeout=5) == pytest.approx(expected)


def test_obstacles_drawn_for_one_allowance_serve_the_allowances_near_it() -> None:
    # The free space an area is cut to draws obstacles to a fraction of the area's error,
    # which grows with the allowance (a fortieth of 0.5 % of it); rounded down to a power
    # of two, 1/64 mm from 200 to 255 mm of allowance, they share one drawing of each
    # obstacle instead of drawing them all again.
    from arbitre.rules.pathing import query

    field = Field(
        *TABLE, hulls=tuple(disc(200.0 + 80.0 * k, 450.0, 20.0, f"r{k}") for k in range(8))
    )
    query._BLOCKS.clear()
    for budget in (200.0, 210.0, 225.0, 240.0, 249.0):
        reachable_area(field, (500.0, 300.0), R_MOVER, budget)
    drawn = [obstacle.ident for obstacle, _, _ in query._BLOCKS]
    assert len(drawn) >= 4 and len(drawn) == len(set(drawn)), drawn  # each drawn once
