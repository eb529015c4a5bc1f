"""The tangent visibility graph and its best-first search (arbitre.rules.pathing.graph)."""

from __future__ import annotations

import math

import pytest

from arbitre.rules.pathing import Field
from arbitre.rules.pathing.graph import SearchGraph, best_first
from tests.rules.pathing.fields import TABLE, disc, query_scene, single_disc_length

# A rock R = 20 at (600, 450), grown by the mover (12.5) to a circle of radius 32.5.
ROCK = Field(*TABLE, hulls=(disc(600.0, 450.0, 20.0, "rock"),))

# From (450, 450), 150 mm from the centre, a tangent to that circle is
# sqrt(150^2 - 32.5^2) = 146.437 mm long and touches it acos(32.5 / 150) from the
# direction of the start (pi): at x = 600 - 32.5 * 32.5 / 150 = 592.958,
# y = 450 -+ 32.5 * sin(acos(32.5 / 150)) = 450 -+ 31.728.
TANGENT = math.sqrt(150.0**2 - 32.5**2)
TOUCH_DY = 32.5 * math.sin(math.acos(32.5 / 150.0))


def test_a_node_is_made_once_per_key() -> None:
    graph = SearchGraph(query_scene(ROCK, (450.0, 450.0)))
    first = graph.node(("p", 0), 450.0, 450.0, -1, 0, 0.0, 0, 0.0, 0)
    other = graph.node(("p", 1), 750.0, 450.0, -1, 0, 0.0, 0, 0.0, 1)
    again = graph.node(("p", 0), 1.0, 2.0, -1, 0, 0.0, 0, 0.0, 0)
    assert (first, other, again) == (0, 1, 0)
    assert graph.x == [450.0, 750.0]  # the second call for key ("p", 0) changed nothing
    # a new node is not reached yet: no cost, no parent, not done
    assert graph.g == [math.inf, math.inf] and graph.parent == [-1, -1]
    assert graph.done == [False, False]


def test_a_star_goes_round_the_rock_through_a_tangent_node() -> None:
    # Start (450, 450), goal (750, 450), the rock midway. Both tangent points from the
    # start are reached at the tangent's length; the goal costs two tangents and the
    # arc between them (single_disc_length) and hangs from one of them, which hangs
    # from the start. Every node's cost is no less than its parent's.
    goal = (750.0, 450.0)
    graph = best_first(query_scene(ROCK, (450.0, 450.0), goal), goal, math.inf)
    target = graph.ids[("p", 1)]
    assert graph.done[target]
    assert graph.g[target] == pytest.approx(single_disc_length(150, 150, 32.5, math.pi))
    via = graph.parent[target]
    assert graph.circle[via] == 0 and graph.parent[via] == graph.ids[("p", 0)]
    assert graph.g[via] == pytest.approx(TANGENT)
    touches = sorted(
        (graph.x[n], graph.y[n], graph.wind[n]) for n in range(len(graph.x)) if graph.circle[n] == 0
    )
    assert touches == [
        (pytest.approx(600.0 - 32.5**2 / 150.0), pytest.approx(450.0 - TOUCH_DY), 1),
        (pytest.approx(600.0 - 32.5**2 / 150.0), pytest.approx(450.0 + TOUCH_DY), -1),
    ]
    for node, parent in enumerate(graph.parent):
        if parent >= 0:
            assert graph.g[node] >= graph.g[parent]


@pytest.mark.parametrize(("bound", "reached"), [(100.0, [0.0]), (200.0, [0.0, TANGENT, TANGENT])])
def test_dijkstra_stops_at_its_bound(bound: float, reached: list[float]) -> None:
    # No goal: the search spreads from (450, 450) up to the bound. The rock's grown
    # circle is 150 - 32.5 = 117.5 mm away: beyond a bound of 100 nothing but the start
    # is reached; within 200 both tangent nodes are, at 146.437 mm.
    graph = best_first(query_scene(ROCK, (450.0, 450.0)), None, bound)
    assert sorted(graph.g) == [pytest.approx(g) for g in reached]
    assert all(graph.done)
