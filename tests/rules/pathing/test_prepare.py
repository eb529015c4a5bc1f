"""A field prepared once for its queries: obstacles reduced to discs, edges and corners,
costly regions merged into zones (arbitre.rules.pathing.prepare)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from arbitre.rules.pathing import BlockingPolygon, CostlyRegion, DiscHull, Field
from arbitre.rules.pathing.prepare import (
    prepare_field,
    remember_bounded,
    ring_point,
    zone_samples,
)


def test_a_field_is_prepared_once() -> None:
    field = Field(100.0, 100.0)
    assert prepare_field(field) is prepare_field(field)
    assert prepare_field(Field(100.0, 100.0)) is not prepare_field(field)  # by identity


def test_a_small_cache_drops_its_oldest_entries() -> None:
    store: dict[str, int] = {}
    for k, key in enumerate("abcd"):
        remember_bounded(store, key, k, 3)
    assert store == {"b": 1, "c": 2, "d": 3}


def test_obstacles_are_bounded_by_circles() -> None:
    # Hull of two discs of radius 5 at (10, 10) and (30, 10): centred at (20, 10), 10 + 5
    # to the far edge. The 40 x 30 box is bounded by half its diagonal, 25, round (70, 45).
    hull = DiscHull(np.array([[10.0, 10.0, 5.0], [30.0, 10.0, 5.0]]), "pair")
    box = BlockingPolygon(shapely.box(50, 30, 90, 60), "box")
    prep = prepare_field(Field(200.0, 100.0, hulls=(hull,), polygons=(box,)))
    np.testing.assert_allclose(prep.centres, [[20.0, 10.0], [70.0, 45.0]])
    np.testing.assert_allclose(prep.bounds, [15.0, 25.0])
    rock = prep.obstacle(1)
    assert rock.ident == "box" and rock.convex and len(rock.corners) == 4
    assert rock.solid is not None and rock.solid.area == pytest.approx(1200.0)
    pair = prep.obstacle(0)
    assert pair.ident == "pair" and pair.disc_r.tolist() == [5.0, 5.0]
    assert prep.obstacle(0) is pair  # prepared on demand, once


def test_costly_regions_nest_into_zones_by_factor() -> None:
    # A wood (2) and a marsh (3) inside it: the zone of factor >= 2 adds 1 per mm, the one
    # of factor >= 3 adds 1 more (3 - 2); each is grown by the mover's reach (5 mm).
    wood = CostlyRegion(shapely.box(0, 0, 100, 100), 2.0, "wood")
    marsh = CostlyRegion(shapely.box(40, 40, 60, 60), 3.0, "marsh")
    prep = prepare_field(Field(300.0, 300.0, costly=(wood, marsh)))
    low, high = prep.zones_for((0.0, 0.0, 300.0, 300.0), 5.0)
    assert (low.extra, high.extra) == (1.0, 1.0)
    assert low.closed.covers(shapely.box(-5, -5, 105, 105).buffer(-0.01))
    assert not high.inner.contains(shapely.Point(30, 50))
    assert prep.zones_for((200.0, 200.0, 300.0, 300.0), 5.0) == ()  # none near that box


def test_a_zone_boundary_is_sampled_and_walked_by_arc_length() -> None:
    # A 10 x 10 square (grown by 0: reach 0): its ring is 40 long; samples every 4 mm
    # cut each side in 3 (ceil(10 / 4)), 12 in all, 4 of them corners.
    square = CostlyRegion(shapely.box(0, 0, 10, 10), 2.0, "square")
    (zone,) = prepare_field(Field(50.0, 50.0, costly=(square,))).zones_for((0, 0, 50, 50), 0.0)
    points, rings, params, vertex = zone_samples(zone, 4.0)
    assert len(points) == 12 and vertex.sum() == 4 and set(rings.tolist()) == {0}
    assert params.max() < 40.0 and math.isclose(float(zone.lengths[0][-1]), 40.0)
    assert zone_samples(zone, 4.0)[0] is points  # kept
    start = np.array(ring_point(zone, 0, 0.0))
    # a quarter of the way round is the next corner; the whole way round wraps to the start
    corner = np.array(ring_point(zone, 0, 10.0))
    assert np.hypot(*(corner - start)) == pytest.approx(10.0)
    assert ring_point(zone, 0, 40.0 + 2.5) == pytest.approx(ring_point(zone, 0, 2.5))
