"""The scene of one query and its tests of points (arbitre.rules.pathing.scene)."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.rules.pathing import BlockingPolygon, DiscHull, Field
from arbitre.rules.pathing.kernels import point_segment_dist2
from arbitre.rules.pathing.model import TOLERANCE_MM
from arbitre.rules.pathing.prepare import prepare_field
from arbitre.rules.pathing.query import blocking_levels, table_rect
from arbitre.rules.pathing.region import Region, RegionKind
from arbitre.rules.pathing.scene import QueryScene

SEEDS = settings(max_examples=30, deadline=None, derandomize=True)


def scene_of(seed: int) -> QueryScene:
    """The scene of a reachable area among random figures' hulls and walls."""
    rng = np.random.default_rng(seed)
    hulls = tuple(
        DiscHull(
            np.column_stack(
                [
                    rng.uniform(100.0, 1100.0) + rng.uniform(-30.0, 30.0, k),
                    rng.uniform(100.0, 800.0) + rng.uniform(-30.0, 30.0, k),
                    np.full(k, 12.5),
                ]
            ),
            f"h{index}",
        )
        for index, k in enumerate(rng.integers(1, 5, 12))
    )
    walls = tuple(
        BlockingPolygon(
            shapely.box(x, y, x + rng.uniform(10.0, 80.0), y + rng.uniform(10.0, 80.0)), f"w{k}"
        )
        for k, (x, y) in enumerate(rng.uniform([100.0, 100.0], [1000.0, 700.0], (5, 2)))
    )
    field = Field(1200.0, 900.0, hulls=hulls, polygons=walls)
    prep = prepare_field(field)
    start = (600.0, 450.0)
    rect = table_rect(prep, 12.5, start)
    assert rect is not None
    region = Region(RegionKind.DISC, *start, *start, 400.0)
    return QueryScene(
        prep, 12.5, start, None, blocking_levels(prep, 12.5, [start]), rect, region, 5.0
    )


@SEEDS
@given(st.integers(0, 10**6))
def test_free_points_are_clear_of_every_disc_and_edge(seed: int) -> None:
    scene = scene_of(seed)
    rng = np.random.default_rng(seed + 1)
    # Random points, and points right on the grown discs' rims where the answer turns.
    angles = rng.uniform(0.0, 2 * np.pi, len(scene.disc_rho))
    rims = scene.disc_xy + (scene.disc_rho - TOLERANCE_MM)[:, None] * np.column_stack(
        [np.cos(angles), np.sin(angles)]
    )
    points = np.vstack([rng.uniform([0.0, 0.0], [1200.0, 900.0], (3000, 2)), rims])
    x, y = points[:, 0], points[:, 1]
    xmin, ymin, xmax, ymax = scene.rect
    expected = (
        (x >= xmin - TOLERANCE_MM)
        & (x <= xmax + TOLERANCE_MM)
        & (y >= ymin - TOLERANCE_MM)
        & (y <= ymax + TOLERANCE_MM)
    )
    gap = np.hypot(x[:, None] - scene.disc_xy[None, :, 0], y[:, None] - scene.disc_xy[None, :, 1])
    expected &= np.all(gap >= scene.disc_rho[None, :] - TOLERANCE_MM, axis=1)
    e = scene.edges
    d2 = point_segment_dist2(
        x[:, None], y[:, None], e[None, :, 0], e[None, :, 1], e[None, :, 2], e[None, :, 3]
    )
    expected &= np.all(d2 >= (scene.radius - TOLERANCE_MM) ** 2, axis=1)
    inside = np.zeros(len(x), dtype=bool)
    for solid in scene.solids:
        inside |= shapely.contains_xy(solid, x, y)
    expected &= ~inside
    assert len(scene.disc_rho) and len(scene.edges)
    np.testing.assert_array_equal(scene.points_free(points), expected)
