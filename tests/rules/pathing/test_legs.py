"""Routes read back from the search tree, cut into legs (arbitre.rules.pathing.legs)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arbitre.rules.pathing import Field
from arbitre.rules.pathing.graph import best_first
from arbitre.rules.pathing.legs import (
    Leg,
    Stop,
    legs_from_search,
    legs_polyline,
    route_stops,
    split_legs,
    taut_leg,
)
from tests.rules.pathing.fields import TABLE, disc, query_scene, single_disc_length

# A rock R = 20 at (600, 450), grown by the mover (12.5) to a circle of radius 32.5;
# start and goal 150 mm either side of it.
ROCK = Field(*TABLE, hulls=(disc(600.0, 450.0, 20.0, "rock"),))
START, GOAL = (450.0, 450.0), (750.0, 450.0)
# Two tangents sqrt(150^2 - 32.5^2) and the arc of pi - 2 acos(32.5 / 150) between them.
AROUND = single_disc_length(150, 150, 32.5, math.pi)
TURN = math.pi - 2.0 * math.acos(32.5 / 150.0)


def point(x: float, y: float, index: int) -> Stop:
    return Stop(-1, 0, x, y, index)


def wrap(circle: int, wind: int) -> Stop:
    return Stop(circle, wind, 0.0, 0.0, -1)


def test_legs_run_between_point_stops_with_the_circles_between_them() -> None:
    stops = [point(0, 0, 0), wrap(3, 1), wrap(5, -1), point(1, 1, 7), point(2, 2, 8)]
    assert split_legs(stops) == [(0, [stops[1], stops[2]], 3), (3, [], 4)]


def test_a_taut_leg_on_an_empty_table_is_the_straight_line() -> None:
    # (100, 100) -> (400, 500): a 300-400-500 triangle, one straight piece.
    scene = query_scene(Field(*TABLE), (100.0, 100.0), (400.0, 500.0))
    leg = taut_leg(scene, (100.0, 100.0), [], (400.0, 500.0))
    assert leg is not None
    assert (leg.cost, leg.length) == (pytest.approx(500.0), pytest.approx(500.0))
    assert leg.pieces == ((0.0, 100.0, 100.0, 400.0, 500.0),)


@pytest.mark.parametrize(("wind", "side"), [(1, -1.0), (-1, 1.0)])
def test_a_taut_leg_wraps_the_rock_either_way(wind: int, side: float) -> None:
    # Counter-clockwise (wind 1) from left to right goes below the rock, clockwise above;
    # by symmetry both are AROUND long: tangent, arc of TURN radians, tangent.
    scene = query_scene(ROCK, START, GOAL)
    leg = taut_leg(scene, START, [wrap(0, wind)], GOAL)
    assert leg is not None
    assert leg.length == pytest.approx(AROUND) and leg.cost == pytest.approx(AROUND)
    first, arc, last = leg.pieces
    assert arc[0] == 1.0 and arc[1:3] == (0.0, float(wind))
    assert arc[4] == pytest.approx(TURN)
    assert np.sign(first[4] - 450.0) == side and np.sign(last[2] - 450.0) == side


def test_a_taut_leg_through_the_rock_is_refused() -> None:
    scene = query_scene(ROCK, START, GOAL)
    assert taut_leg(scene, START, [], GOAL) is None


def test_the_route_and_its_legs_read_back_from_the_search() -> None:
    # The search goes start -> a tangent point on the rock -> goal; read back, that is
    # three stops (a point, the circle, a point), one leg, AROUND long and costing as much.
    scene = query_scene(ROCK, START, GOAL)
    graph = best_first(scene, GOAL, math.inf)
    target = graph.ids[("p", 1)]
    stops = route_stops(graph, target)
    assert [(s.circle, s.point) for s in stops] == [(-1, 0), (0, -1), (-1, 1)]
    assert (stops[0].x, stops[0].y, stops[-1].x, stops[-1].y) == (*START, *GOAL)
    (leg,) = legs_from_search(scene, graph, target)
    assert leg.cost == pytest.approx(AROUND) and leg.length == pytest.approx(AROUND)
    assert [piece[0] for piece in leg.pieces] == [0.0, 1.0, 0.0]
    assert leg.pieces[1][4] == pytest.approx(TURN)


def test_a_polyline_samples_arcs_every_two_degrees() -> None:
    # A straight piece (450, 450) -> (600, 417.5), then a quarter turn counter-clockwise
    # round the rock's circle from -pi/2 (600, 417.5) to 0 (632.5, 450): 90 / 2 = 45
    # steps, 46 points on the circle, the first shared with the straight piece.
    scene = query_scene(ROCK, START, GOAL)
    leg = Leg(
        0.0, 0.0, ((0.0, 450.0, 450.0, 600.0, 417.5), (1.0, 0.0, 1.0, -math.pi / 2, math.pi / 2))
    )
    line = legs_polyline(scene, [leg])
    assert len(line) == 1 + 46
    np.testing.assert_allclose(line[0], START)
    np.testing.assert_allclose(line[[1, -1]], [[600.0, 417.5], [632.5, 450.0]], atol=1e-9)
    np.testing.assert_allclose(np.hypot(line[1:, 0] - 600.0, line[1:, 1] - 450.0), 32.5)
