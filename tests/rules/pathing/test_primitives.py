"""The plane geometry under the search: angles, tangents between circles, circles meeting
segments (arbitre.rules.pathing.primitives)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.rules.pathing.primitives import (
    circle_segment_angles,
    cross2,
    empty_points,
    polar_angle,
    tangent_segments,
)


def one(*values: float) -> tuple[np.ndarray, ...]:
    return tuple(np.array([v]) for v in values)


def test_cross_products_and_angles_in_a_whole_turn() -> None:
    # (1, 0) x (0, 1) = 1; the other way round -1.
    assert cross2(*one(1.0, 0.0, 0.0, 1.0)).tolist() == [1.0]
    assert cross2(*one(0.0, 1.0, 1.0, 0.0)).tolist() == [-1.0]
    angles = polar_angle(np.array([1.0, 0.0, -1.0, 0.0]), np.array([0.0, 1.0, 0.0, -1.0]))
    np.testing.assert_allclose(angles, [0.0, math.pi / 2, math.pi, 3 * math.pi / 2])
    assert empty_points().shape == (0, 2) and empty_points().dtype == np.float64


def test_a_tangent_from_a_point_to_a_circle() -> None:
    # From the origin to a circle of radius 3 round (5, 0), counter-clockwise round it:
    # the tangent is 4 long (3-4-5) and touches at (5 - 9/5, -12/5) = (3.2, -2.4), the
    # foot below the axis (going counter-clockwise round the circle from there).
    t1x, t1y, t2x, t2y, ok = tangent_segments(0.0, 0.0, 0.0, 0.0, *one(5.0, 0.0, 3.0, 1.0))
    assert ok.tolist() == [True]
    assert (t1x[0], t1y[0]) == (0.0, 0.0)
    assert (t2x[0], t2y[0]) == pytest.approx((3.2, -2.4))
    # clockwise, its mirror image above the axis
    _, _, cx, cy, _ = tangent_segments(0.0, 0.0, 0.0, 0.0, *one(5.0, 0.0, 3.0, -1.0))
    assert (cx[0], cy[0]) == pytest.approx((3.2, 2.4))


def test_outer_tangents_between_equal_circles_are_parallel() -> None:
    # Two circles of radius 2 at (0, 0) and (10, 0), both counter-clockwise: the tangent
    # runs along y = -2 from (0, -2) to (10, -2).
    t1x, t1y, t2x, t2y, ok = tangent_segments(0.0, 0.0, 2.0, 1.0, *one(10.0, 0.0, 2.0, 1.0))
    assert ok.tolist() == [True]
    np.testing.assert_allclose([t1x[0], t1y[0], t2x[0], t2y[0]], [0.0, -2.0, 10.0, -2.0])


def test_no_tangent_from_inside_a_circle_or_between_a_point_and_itself() -> None:
    *_, inside = tangent_segments(0.0, 0.0, 0.0, 0.0, *one(1.0, 0.0, 3.0, 1.0))
    *_, itself = tangent_segments(4.0, 4.0, 0.0, 0.0, *one(4.0, 4.0, 0.0, 0.0))
    assert inside.tolist() == [False] and itself.tolist() == [False]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.floats(-50, 50),
    st.floats(-50, 50),
    st.floats(0, 10),
    st.sampled_from([-1.0, 0.0, 1.0]),
    st.floats(-50, 50),
    st.floats(-50, 50),
    st.floats(0, 10),
    st.sampled_from([-1.0, 1.0]),
)
def test_a_tangent_touches_both_circles_square_on(
    ox: float, oy: float, rho: float, wind: float, tx: float, ty: float, trho: float, twind: float
) -> None:
    # Each end lies on its circle and the segment is square to the radius there.
    rho = 0.0 if wind == 0.0 else rho
    t1x, t1y, t2x, t2y, ok = tangent_segments(ox, oy, rho, wind, *one(tx, ty, trho, twind))
    if not ok[0] or math.hypot(t2x[0] - t1x[0], t2y[0] - t1y[0]) < 1e-6:
        return
    assert math.hypot(t1x[0] - ox, t1y[0] - oy) == pytest.approx(rho, abs=1e-6)
    assert math.hypot(t2x[0] - tx, t2y[0] - ty) == pytest.approx(trho, abs=1e-6)
    dx, dy = t2x[0] - t1x[0], t2y[0] - t1y[0]
    assert abs(dx * (t2x[0] - tx) + dy * (t2y[0] - ty)) <= 1e-6 * (1 + trho) * math.hypot(dx, dy)
    assert abs(dx * (t1x[0] - ox) + dy * (t1y[0] - oy)) <= 1e-6 * (1 + rho) * math.hypot(dx, dy)


def test_where_circles_meet_segments() -> None:
    # The unit circle and three segments: y = 0 from -2 to 2 crosses it at angles pi and 0;
    # y = 1 from -1 to 1 touches it at the top (pi / 2); y = 0 from 2 to 3 misses it.
    index, angles = circle_segment_angles(
        np.zeros(3),
        np.zeros(3),
        np.ones(3),
        np.array([-2.0, -1.0, 2.0]),
        np.array([0.0, 1.0, 0.0]),
        np.array([2.0, 1.0, 3.0]),
        np.array([0.0, 1.0, 0.0]),
    )
    found = sorted(zip(index.tolist(), angles.tolist(), strict=True))
    assert [k for k, _ in found] == [0, 0, 1, 1]  # the touch is met twice, at one angle
    assert [a for _, a in found] == pytest.approx([0.0, math.pi, math.pi / 2, math.pi / 2])
