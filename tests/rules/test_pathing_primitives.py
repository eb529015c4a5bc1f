"""Tests of the pruned geometric tests the path search is built on: each must find what
testing every pair would."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.rules.pathing import BlockingPolygon, DiscHull, Field
from arbitre.rules.pathing.kernels import box_pairs, point_segment_dist2
from arbitre.rules.pathing.model import TOLERANCE_MM
from arbitre.rules.pathing.prepare import prepare_field
from arbitre.rules.pathing.query import blocking_levels, grown_block, table_rect
from arbitre.rules.pathing.region import Region, RegionKind
from arbitre.rules.pathing.scene import QueryScene

SEEDS = settings(max_examples=30, deadline=None, derandomize=True)


def random_boxes(rng: np.random.Generator, count: int, size: float) -> list[np.ndarray]:
    """``count`` boxes on a 1200 x 900 table, up to about ``size`` mm across (some flat)."""
    x = rng.uniform(0.0, 1200.0, count)
    y = rng.uniform(0.0, 900.0, count)
    width = rng.exponential(size, count) * (rng.random(count) > 0.2)
    depth = rng.exponential(size, count)
    return [x, y, x + width, y + depth]


@SEEDS
@given(st.integers(0, 10**6), st.integers(0, 60), st.integers(0, 40))
def test_box_pairs_are_every_overlapping_pair_in_order(seed: int, n: int, m: int) -> None:
    rng = np.random.default_rng(seed)
    a = random_boxes(rng, n, 80.0)
    b = random_boxes(rng, m, 30.0)
    expected = [
        (i, j)
        for i in range(n)
        for j in range(m)
        if a[0][i] <= b[2][j] and a[2][i] >= b[0][j] and a[1][i] <= b[3][j] and a[3][i] >= b[1][j]
    ]
    i, j = box_pairs(*a, *b)
    assert list(zip(i.tolist(), j.tolist(), strict=True)) == expected
    assert i.dtype == np.intp and j.dtype == np.intp


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


@SEEDS
@given(st.integers(0, 10**6), st.floats(0.0, 40.0))
def test_a_band_round_a_line_holds_the_points_within_its_width(seed: int, width: float) -> None:
    rng = np.random.default_rng(seed)
    line = np.cumsum(rng.uniform(-60.0, 60.0, (int(rng.integers(2, 30)), 2)), axis=0) + 600.0
    band = Region(RegionKind.BAND, 0.0, 0.0, 0.0, 0.0, width, line)
    # Random points, and points about the band's width off the line's vertices.
    beside = line + rng.normal(0.0, width, (len(line), 2))
    points = np.vstack([rng.uniform(300.0, 900.0, (2000, 2)), beside])
    pad = rng.uniform(0.0, 20.0, len(points))
    d2 = point_segment_dist2(
        points[:, :1],
        points[:, 1:],
        line[None, :-1, 0],
        line[None, :-1, 1],
        line[None, 1:, 0],
        line[None, 1:, 1],
    ).min(axis=1)
    expected = d2 <= (width + pad + 1e-6) ** 2
    np.testing.assert_array_equal(band.near(points[:, 0], points[:, 1], pad), expected)
    np.testing.assert_array_equal(
        band.near(points[:, 0], points[:, 1], 0.0), d2 <= (width + 1e-6) ** 2
    )


@SEEDS
@given(st.integers(0, 10**6), st.sampled_from([5e-4, 0.01, 0.05, 0.5]))
def test_obstacles_drawn_large_hold_the_exact_shape_within_the_slack(
    seed: int, slack: float
) -> None:
    # A polygon grown by a base's radius, drawn as a polygon: it must hold the exact
    # grown shape (GEOS rounds a corner's arc to whole steps, up to 1.5 of the asked
    # size) and reach no more than ``slack`` beyond it.
    rng = np.random.default_rng(seed)
    corners = rng.uniform(0.0, 100.0, (int(rng.integers(3, 9)), 2))
    rock = shapely.convex_hull(shapely.multipoints(corners)).buffer(0)
    if rock.area < 1.0:
        return
    radius = float(rng.uniform(1.0, 40.0))
    field = Field(200.0, 200.0, polygons=(BlockingPolygon(rock, "rock"),))
    block = grown_block(prepare_field(field).obstacle(0), radius, slack)
    assert block is not None
    exact = rock.buffer(radius, quad_segs=512)
    assert exact.buffer(-1e-5).difference(block).area == 0.0
    assert block.hausdorff_distance(exact) <= slack + 1e-4
