"""Free arcs, cost around circles and boundary-obstacle meetings
(arbitre.rules.pathing.arcs)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from arbitre.rules.pathing import CostlyRegion, Field
from arbitre.rules.pathing.arcs import circle_weights, cliff_points, free_runs
from tests.rules.pathing.fields import TABLE, disc, query_scene

# A rock R = 20 at (600, 450) on the 1200 x 900 table; grown by the mover (12.5): rho 32.5.
ROCK = Field(*TABLE, hulls=(disc(600.0, 450.0, 20.0, "rock"),))

# Difficult ground (factor 2) over the right half of the table, taken as it is (grown=True).
RIGHT_HALF = CostlyRegion(shapely.box(600.0, 0.0, 1200.0, 900.0), 2.0, "wood", grown=True)


def runs_of(
    field: Field, xy: list[tuple[float, float]], rho: list[float]
) -> tuple[np.ndarray, ...]:
    """`free_runs` of circles with no tangent marks, on the scene of a query from (300, 450)."""
    scene = query_scene(field, (300.0, 450.0))
    return free_runs(scene, np.array(xy), np.array(rho), [np.zeros(0)] * len(rho))


def test_a_circle_beside_a_grown_disc_is_free_but_for_the_arc_inside_it() -> None:
    # A circle of radius 32.5 centred 50 mm right of the rock's grown circle (same radius).
    # The two circles cross where the law of cosines gives, on ours, a half angle
    # acos((32.5^2 + 50^2 - 32.5^2) / (2 * 32.5 * 50)) = acos(50 / 65) = acos(10 / 13)
    # either side of the direction of the rock (pi). The free run starts where the
    # blocked span ends, pi + acos(10/13), and runs round the rest, 2 pi - 2 acos(10/13).
    start, length, count, full = runs_of(ROCK, [(650.0, 450.0)], [32.5])
    half = math.acos(10.0 / 13.0)
    assert count[0] == 1 and not full[0]
    assert start[0, 0] == pytest.approx(math.pi + half, abs=1e-9)
    assert length[0, 0] == pytest.approx(2.0 * math.pi - 2.0 * half, abs=1e-9)


def test_the_table_edge_cuts_a_circle_that_crosses_it() -> None:
    # The centre stays 12.5 mm (the mover's radius) inside the table: x >= 12.5. A circle
    # of radius 32.5 centred at x = 30 crosses that line 17.5 mm to its left, at the
    # angles +-a with cos a = (12.5 - 30) / 32.5. The free run goes the right way round,
    # from -a (2 pi - a) to +a: 2 a long.
    start, length, count, full = runs_of(ROCK, [(30.0, 450.0)], [32.5])
    a = math.acos(-17.5 / 32.5)
    assert count[0] == 1 and not full[0]
    assert start[0, 0] == pytest.approx(2.0 * math.pi - a, abs=1e-9)
    assert length[0, 0] == pytest.approx(2.0 * a, abs=1e-9)


def test_a_circle_in_the_open_is_free_all_round_and_one_inside_an_obstacle_nowhere() -> None:
    # (100, 100) radius 10 meets nothing: one run, (0, 2 pi). A circle of radius 5 at the
    # rock's centre lies inside its grown circle (rho 32.5): no free run at all.
    start, length, count, full = runs_of(ROCK, [(100.0, 100.0), (600.0, 450.0)], [10.0, 5.0])
    assert list(count) == [1, 0]
    assert list(full) == [True, False]
    assert (start[0, 0], length[0, 0]) == (0.0, pytest.approx(2.0 * math.pi))


def test_the_cost_around_a_circle_halfway_into_costly_ground() -> None:
    # The zone's edge x = 600 runs through the centre of a circle at (600, 450): the
    # left half (angles pi/2 to 3 pi/2) costs 1 per mm, the right half 2. Breakpoints
    # at pi/2 and 3 pi/2; the cumulative weighted angle is 0, 1 * pi, then + 2 * pi =
    # 3 pi at 5 pi/2 (the last piece wraps past 2 pi). Circles wholly outside or wholly
    # inside the zone cost a constant 1 and 2.
    scene = query_scene(Field(*TABLE, costly=(RIGHT_HALF,)), (300.0, 450.0))
    xy = np.array([[600.0, 450.0], [300.0, 300.0], [800.0, 300.0]])
    const, knots, cumulative = circle_weights(scene, xy, np.full(3, 10.0))
    assert math.isnan(const[0])
    assert list(const[1:]) == [1.0, 2.0]
    np.testing.assert_allclose(knots[0], [math.pi / 2, 3 * math.pi / 2, 5 * math.pi / 2])
    np.testing.assert_allclose(cumulative[0], [0.0, math.pi, 3 * math.pi])
    assert len(knots[1]) == len(knots[2]) == 0


def test_circle_weights_are_one_without_costly_ground() -> None:
    scene = query_scene(ROCK, (300.0, 450.0))
    const, _, _ = circle_weights(scene, np.array([[600.0, 450.0]]), np.array([32.5]))
    assert list(const) == [1.0]


def test_a_zone_edge_through_a_grown_disc_gives_two_cliff_points() -> None:
    # The zone's edge x = 600 crosses the rock's grown circle (centre (600, 450), rho 32.5)
    # at (600, 450 +- 32.5). The zone's ring runs (1200, 0) -> (1200, 900) -> (600, 900)
    # -> (600, 0): that edge starts 900 + 600 = 1500 mm along the ring, so the points lie
    # 1500 + (900 - 482.5) = 1917.5 and 1500 + (900 - 417.5) = 1982.5 mm along it.
    # The last column marks a meeting with an obstacle (2).
    scene = query_scene(Field(*TABLE, hulls=ROCK.hulls, costly=(RIGHT_HALF,)), (300.0, 450.0))
    points, info = cliff_points(scene, np.array([[600.0, 450.0]]), np.array([32.5]))
    order = np.argsort(points[:, 1])
    np.testing.assert_allclose(points[order], [[600.0, 417.5], [600.0, 482.5]])
    np.testing.assert_allclose(info[order], [[0.0, 0.0, 1982.5, 2.0], [0.0, 0.0, 1917.5, 2.0]])


def test_no_cliff_points_without_costly_ground() -> None:
    scene = query_scene(ROCK, (300.0, 450.0))
    points, info = cliff_points(scene, np.array([[600.0, 450.0]]), np.array([32.5]))
    assert points.shape == (0, 2) and info.shape == (0, 4)
