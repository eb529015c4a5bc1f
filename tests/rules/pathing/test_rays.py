"""Groups of rays and the rings they outline (arbitre.rules.pathing.rays)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from arbitre.rules.pathing import BlockingPolygon, Field
from arbitre.rules.pathing.model import TOLERANCE_MM
from arbitre.rules.pathing.rays import Rays
from tests.rules.pathing.fields import R_MOVER, TABLE, query_scene

# A square block x 500-600, y 400-500 on the 1200 x 900 table.
SQUARE = shapely.box(500.0, 400.0, 600.0, 500.0)
BLOCK = Field(*TABLE, polygons=(BlockingPolygon(SQUARE, "b"),))


def add_fan(
    rays: Rays, kind: int, base: tuple[float, float], angles: np.ndarray, budget: float
) -> int:
    """A fan of rays from ``base`` at ``angles`` (radians), each with ``budget``."""
    count = len(angles)
    directions = np.column_stack([np.cos(angles), np.sin(angles)])
    origins = np.tile(base, (count, 1))
    return rays.add(kind, np.array(base), angles, origins, directions, np.full(count, budget))


def test_a_closed_fan_in_the_open_outlines_a_regular_polygon() -> None:
    # Eight rays of 100 mm from (600, 450), 45 degrees apart, meet nothing: the ring is
    # their ends, a regular octagon of circumradius 100, area 2 sqrt(2) 100^2 = 28284.27.
    # Nothing falls between neighbours, so no ray is added.
    rays = Rays()
    group = add_fan(rays, 0, (600.0, 450.0), np.radians(np.arange(0, 360, 45)), 100.0)
    (ring,) = rays.polygons(query_scene(Field(*TABLE), (600.0, 450.0)))
    assert len(ring) == 8
    np.testing.assert_allclose(ring[[0, 2]], [[700.0, 450.0], [600.0, 550.0]], atol=1e-9)
    assert shapely.Polygon(ring).area == pytest.approx(2.0 * math.sqrt(2.0) * 100.0**2)
    lengths, owners = rays.group_rays(group)
    assert list(lengths) == [100.0] * 8 and list(owners) == [-1] * 8


def test_a_half_fan_ring_starts_at_its_base() -> None:
    # A quarter fan of five rays of 100 mm, 0 to 90 degrees: the ring is the base, then
    # the ends from (700, 450) round to (600, 550).
    rays = Rays()
    add_fan(rays, 1, (600.0, 450.0), np.radians([0.0, 22.5, 45.0, 67.5, 90.0]), 100.0)
    (ring,) = rays.polygons(query_scene(Field(*TABLE), (600.0, 450.0)))
    assert len(ring) == 6
    np.testing.assert_allclose(ring[[0, 1, -1]], [[600, 450], [700, 450], [600, 550]], atol=1e-9)


def test_a_fan_stops_at_a_block_and_its_ring_keeps_out_of_it() -> None:
    # Eight rays of 300 mm from (300, 450). The one at 0 degrees stops at the grown
    # block's face x = 500 - 12.5 = 487.5 (187.5 mm, obstacle 0); the one at 180 at the
    # table edge x = 12.5 (287.5 mm, no obstacle); the others run their 300 mm.
    # Rays are added halfway where the block falls between neighbours, and the ring
    # goes round the block: its first vertex is the hit, and no vertex lies in the
    # grown block.
    rays = Rays()
    group = add_fan(rays, 0, (300.0, 450.0), np.radians(np.arange(0, 360, 45)), 300.0)
    (ring,) = rays.polygons(query_scene(BLOCK, (300.0, 450.0)))
    lengths, owners = rays.group_rays(group)
    expected = [187.5, 300.0, 300.0, 300.0, 287.5, 300.0, 300.0, 300.0]
    np.testing.assert_allclose(lengths, expected, atol=10 * TOLERANCE_MM)
    assert list(owners) == [0, -1, -1, -1, -1, -1, -1, -1]
    assert len(rays.gid) > 8
    np.testing.assert_allclose(ring[0], [487.5, 450.0], atol=10 * TOLERANCE_MM)
    gap = shapely.distance(SQUARE, shapely.points(ring))
    assert gap.min() >= R_MOVER - 10 * TOLERANCE_MM
    assert not shapely.Polygon(ring).contains(shapely.Point(550.0, 450.0))
