"""The compiled loops under rays and segments, on cases worked out by hand."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.rules.pathing import kernels
from arbitre.rules.pathing.kernels import (
    box_pairs,
    crossings,
    first_hits,
    point_segment_dist2,
    segment_segment_dist,
    segments_meet,
)


def rays(*rows: tuple[float, float, float, float]) -> tuple[np.ndarray, ...]:
    """Origins and unit directions ``(x, y, ux, uy)`` as four columns."""
    table = np.array(rows, dtype=np.float64)
    return tuple(table[:, k] for k in range(4))


def test_a_ray_stops_where_it_enters_a_disc_and_faces_its_normal() -> None:
    # Along +x from the origin towards a disc of radius 2 at (10, 0): it enters at
    # x = 10 - 2 = 8, where the outward normal is (-1, 0).
    hit, piece, normal = first_hits(
        *rays((0.0, 0.0, 1.0, 0.0)),
        np.array([100.0]),
        np.array([[10.0, 0.0]]),
        np.array([2.0]),
        np.zeros((0, 4)),
        1.0,
    )
    assert hit.tolist() == [8.0] and piece.tolist() == [0]
    np.testing.assert_allclose(normal, [[-1.0, 0.0]])


def test_a_ray_meets_the_nearest_piece_and_the_first_of_equals() -> None:
    discs = np.array([[30.0, 0.0], [10.0, 0.0], [10.0, 0.0], [0.0, 0.0]])
    radii = np.array([2.0, 2.0, 2.0, 0.0])  # two the same; one of radius 0, left out
    hit, piece, _ = first_hits(
        *rays((0.0, 0.0, 1.0, 0.0), (10.0, 1.0, 0.0, 1.0), (0.0, 5.0, 1.0, 0.0)),
        np.array([100.0, 100.0, 100.0]),
        discs,
        radii,
        np.zeros((0, 4)),
        1.0,
    )
    # the first ray meets the disc at x = 10 before the one at x = 30, and of the two
    # at x = 10 the first; the second starts inside a disc: 0; the third passes by
    assert hit.tolist() == [8.0, 0.0, math.inf]
    assert piece.tolist() == [1, 1, -1]


def test_a_ray_meets_a_grown_edge_on_its_side_or_its_round_end() -> None:
    # The edge x = 20, -5 <= y <= 5, grown by 1: along y = 0 the ray meets its side at
    # x = 19 (normal (-1, 0)); along y = 5.5 it meets the end's disc round (20, 5) at
    # x = 20 - sqrt(1 - 0.5**2), normal (x - 20, 0.5) / 1.
    edge = np.array([[20.0, -5.0, 20.0, 5.0]])
    hit, piece, normal = first_hits(
        *rays((0.0, 0.0, 1.0, 0.0), (0.0, 5.5, 1.0, 0.0), (0.0, 7.0, 1.0, 0.0)),
        np.array([100.0, 100.0, 100.0]),
        np.array([[50.0, 50.0]]),
        np.array([1.0]),
        edge,
        1.0,
    )
    end = 20.0 - math.sqrt(0.75)
    np.testing.assert_allclose(hit, [19.0, end, math.inf])
    assert piece.tolist() == [1, 1, -1]  # one disc, so the edge is piece 1
    np.testing.assert_allclose(normal[:2], [[-1.0, 0.0], [end - 20.0, 0.5]])


def test_a_ray_too_short_for_a_piece_does_not_meet_it() -> None:
    hit, piece, _ = first_hits(
        *rays((0.0, 0.0, 1.0, 0.0)),
        np.array([5.0]),  # its box ends at x = 5, the disc's starts at x = 8
        np.array([[10.0, 0.0]]),
        np.array([2.0]),
        np.zeros((0, 4)),
        1.0,
    )
    assert hit.tolist() == [math.inf] and piece.tolist() == [-1]


def test_segments_are_cut_in_order_where_they_cross_edges() -> None:
    # (0, 0) -> (10, 0) crosses x = 7 and x = 3 (listed in that order) at t = 0.7 and
    # 0.3; an edge ending on it at x = 5 cuts it too; one through its start, and one
    # along it, do not.
    edges = np.array(
        [
            [7.0, -1.0, 7.0, 1.0],
            [3.0, -1.0, 3.0, 1.0],
            [5.0, 0.0, 5.0, 3.0],
            [0.0, -1.0, 0.0, 1.0],
            [2.0, 0.0, 8.0, 0.0],
        ]
    )
    rows, begins, ends = crossings(
        np.array([0.0, 0.0]), np.array([0.0, 4.0]), np.array([10.0, 10.0]), np.zeros(2), edges
    )
    assert rows.tolist() == [0, 0, 0, 0, 1]  # the second, along y = 4, crosses nothing
    np.testing.assert_allclose(begins, [0.0, 0.3, 0.5, 0.7, 0.0])
    np.testing.assert_allclose(ends, [0.3, 0.5, 0.7, 1.0, 1.0])


def test_distances_between_points_segments_and_their_ends() -> None:
    # (0, 3) is 3 above the middle of (-1, 0)-(1, 0); (4, 4) is nearest the end (1, 0):
    # 3**2 + 4**2; a segment of no length is its point.
    d2 = point_segment_dist2(
        np.array([0.0, 4.0, 3.0]),
        np.array([3.0, 4.0, 4.0]),
        np.array([-1.0, -1.0, 0.0]),
        0.0,
        np.array([1.0, 1.0, 0.0]),
        0.0,
    )
    assert d2.tolist() == [9.0, 25.0, 25.0]
    # broadcast: three points against two segments
    grid = point_segment_dist2(
        np.array([[0.0], [1.0], [2.0]]), 0.0, 0.0, np.array([1.0, 2.0]), 0.0, 5.0
    )
    assert grid.shape == (3, 2) and grid[2].tolist() == [5.0, 8.0]
    # crossing segments are 0 apart; parallel ones 2 apart; end to end, 5 (3-4-5)
    d = segment_segment_dist(
        np.array([0.0, 0.0, 0.0]),
        np.array([-1.0, 0.0, 0.0]),
        np.array([0.0, 4.0, 1.0]),
        np.array([1.0, 0.0, 0.0]),
        np.array([-1.0, 0.0, 4.0]),
        np.array([0.0, 2.0, 4.0]),
        np.array([1.0, 4.0, 9.0]),
        np.array([0.0, 2.0, 4.0]),
    )
    assert d.tolist() == [0.0, 2.0, 5.0]


def test_segments_meet_discs_and_edges_closer_than_their_radius_less_the_tolerance() -> None:
    # (0, 2) -> (10, 2) passes 2 from the disc's centre (5, 0): it meets a disc of
    # radius 2.5 (2 < 2.5 - 0.001), touches one of radius 2.001 (not meeting) and passes
    # an edge 3 below it (y = -1) with radius 3.0: 3 is not less than 2.999.
    segment = (np.array([0.0]), np.array([2.0]), np.array([10.0]), np.array([2.0]))
    disc = np.array([[5.0, 0.0]])
    no_edges = np.zeros((0, 4))
    assert segments_meet(*segment, disc, np.array([2.5]), no_edges, 0.0, 1e-3).tolist() == [True]
    assert segments_meet(*segment, disc, np.array([2.001]), no_edges, 0.0, 1e-3).tolist() == [False]
    edge = np.array([[0.0, -1.0, 10.0, -1.0]])
    no_discs = np.zeros((0, 2))
    assert segments_meet(*segment, no_discs, np.zeros(0), edge, 3.0, 1e-3).tolist() == [False]
    assert segments_meet(*segment, no_discs, np.zeros(0), edge, 3.01, 1e-3).tolist() == [True]


def test_loops_compile_without_a_cache_where_none_can_be_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = numba.njit
    asked: list[bool] = []

    def njit(**options: object) -> object:
        asked.append(bool(options.get("cache")))
        if options.get("cache"):
            raise RuntimeError("cannot cache function: no locator available")
        return real(**options)

    monkeypatch.setattr(numba, "njit", njit)

    def twice(x: float) -> float:
        return 2.0 * x

    assert kernels.compiled(twice)(1.5) == 3.0
    assert asked == [True, False]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_interpolation_is_numpys_to_the_bit(seed: int) -> None:
    # Knots with repeats, values with a jump, and x on knots, between them, outside and NaN.
    rng = np.random.default_rng(seed)
    count = int(rng.choice([1, 2, 12]))  # one knot, two, or twelve with repeats
    knots = np.sort(rng.choice(rng.uniform(0.0, 6.3, 8), count))
    values = np.cumsum(rng.uniform(0.0, 3.0, count))
    xs = np.concatenate([knots, rng.uniform(-1.0, 7.5, 30), [np.nan]])
    expected = np.interp(xs, knots, values)
    got = np.array([kernels.interp(float(x), knots, values) for x in xs])
    np.testing.assert_array_equal(got, expected)


def test_a_segment_crossing_many_edges_has_all_its_pieces() -> None:
    # (0, 0) -> (100, 0) across 99 edges x = 1 ... 99 (more pieces than the first room
    # made for them): 100 pieces of 0.01 each, in order.
    edges = np.array([[x, -1.0, x, 1.0] for x in range(99, 0, -1)], dtype=float)
    rows, begins, ends = crossings(np.zeros(1), np.zeros(1), np.array([100.0]), np.zeros(1), edges)
    assert rows.tolist() == [0] * 100
    np.testing.assert_allclose(begins, np.arange(100) / 100)
    np.testing.assert_allclose(ends, np.arange(1, 101) / 100)


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
