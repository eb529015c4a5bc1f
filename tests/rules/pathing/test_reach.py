"""Tests of reachable areas (arbitre.rules.pathing.reach)."""

from __future__ import annotations

import math
import multiprocessing

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.rules.pathing import CostlyRegion, Field, reachable_area, shortest_path
from tests.rules.pathing.brute_force import (
    BRUTE,
    LENIENT,
    RADIUS,
    SLOPE,
    STEP,
    Box,
    Grid,
    assert_real,
    endpoints,
    fields,
)
from tests.rules.pathing.fields import (
    DEEP_WOOD,
    R_MOVER,
    TABLE,
    disc,
    free_points,
    grown_obstacles,
    random_field,
    single_disc_length,
)

# ------------------------------------------------------------------ hand-worked cases


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


def test_reachable_area_is_empty_off_the_table_or_without_budget() -> None:
    assert reachable_area(Field(*TABLE), (-50.0, 100.0), R_MOVER, 100.0).is_empty
    assert reachable_area(Field(*TABLE), (100.0, 100.0), R_MOVER, 0.0).is_empty


# ------------------------------------------------------------------ properties


AREAS = settings(
    max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


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


# ------------------------------------------------------------------ against a brute-force grid


@BRUTE
@given(st.data(), fields())
def test_reachable_area_matches_the_grid(
    data: st.DataObject, drawn: tuple[Field, list[Box]]
) -> None:
    field, boxes = drawn
    grid, loose = Grid(field, boxes), Grid(field, boxes, LENIENT)
    start = endpoints(data.draw, grid, boxes)
    budget = data.draw(st.floats(20.0, 150.0))
    area = reachable_area(field, start, RADIUS, budget)
    costs = grid.costs_from(*start)
    # Every node the strict grid reaches within the budget is in the area, up to the
    # outline's documented error (0.2 mm or 0.5 % of the allowance) ...
    cheap = grid.xy[costs <= budget]
    error = max(0.2, 0.005 * budget)
    inside = shapely.intersects_xy(area.buffer(error), cheap[:, 0], cheap[:, 1])
    assert inside.all(), cheap[~inside][:5]
    # ... and a node well inside the area that the lenient grid cannot reach within the
    # budget (its direction error aside) has an exact path within it: a grid cannot
    # follow a path through a sliver thinner than its step, the exact search can.
    least = loose.costs_from(*start) / SLOPE - 3.0 * STEP
    doubtful = loose.xy[
        (least > budget)
        & shapely.intersects_xy(area.buffer(-error), loose.xy[:, 0], loose.xy[:, 1])
    ]
    for x, y in doubtful[:20]:
        path = shortest_path(field, start, (x, y), RADIUS)
        assert path.found and path.cost_mm <= budget + error, ((x, y), path.cost_mm)
        assert_real(field, boxes, path)
