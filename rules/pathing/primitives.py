"""Vectorised plane geometry the search is built on.

Angles, tangents between circles and where circles meet segments. Coordinates are
table mm; arrays of pairs are given elementwise and broadcast. (Distances between
points and segments, overlapping boxes and where segments cross edges are compiled
loops, in :mod:`~arbitre.rules.pathing.kernels`.)
"""

from __future__ import annotations

import math
from typing import Final, cast

import numpy as np

from arbitre.rules.pathing.model import TOLERANCE_MM, BoolArray, FloatArray, IntArray

TWO_PI: Final = 2.0 * math.pi


def cross2(ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray) -> FloatArray:
    """z component of the cross product of 2-D vectors."""
    return ax * by - ay * bx


def polar_angle(x: FloatArray, y: FloatArray) -> FloatArray:
    """Angles in [0, 2 pi)."""
    return cast(FloatArray, np.mod(np.arctan2(y, x), TWO_PI))


def tangent_segments(
    ox: float | FloatArray,
    oy: float | FloatArray,
    rho: float | FloatArray,
    wind: float | FloatArray,
    tx: FloatArray,
    ty: FloatArray,
    trho: FloatArray,
    twind: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, BoolArray]:
    """Directed tangent segments from circles to many circles or points (broadcasting).

    A winding of +1 means travelling counter-clockwise around the circle, -1
    clockwise, 0 a point (radius 0). The segment leaves the source circle at
    ``(t1x, t1y)`` continuing its winding and arrives on the target at
    ``(t2x, t2y)`` with the target's winding.
    """
    dx = tx - ox
    dy = ty - oy
    dist = np.hypot(dx, dy)
    k = twind * trho - wind * rho
    ok = (dist > 1e-9) & (np.abs(k) <= dist + TOLERANCE_MM)
    safe = np.where(dist > 1e-9, dist, 1.0)
    q = np.clip(k / safe, -1.0, 1.0)
    s = np.sqrt(1.0 - q * q)
    ux = dx / safe
    uy = dy / safe
    nx = q * ux - s * uy
    ny = q * uy + s * ux
    t1x = ox - wind * rho * nx
    t1y = oy - wind * rho * ny
    t2x = tx - twind * trho * nx
    t2y = ty - twind * trho * ny
    return t1x, t1y, t2x, t2y, ok


def circle_segment_angles(
    ox: FloatArray,
    oy: FloatArray,
    rho: FloatArray,
    ax: FloatArray,
    ay: FloatArray,
    bx: FloatArray,
    by: FloatArray,
) -> tuple[IntArray, FloatArray]:
    """Angles on circles where they meet segments (pairs are given elementwise).

    Returns the pair index of every meeting and its angle on the circle; tangency
    counts as a meeting.
    """
    fx = bx - ax
    fy = by - ay
    gx = ax - ox
    gy = ay - oy
    a = fx * fx + fy * fy
    b = 2.0 * (fx * gx + fy * gy)
    c = gx * gx + gy * gy - rho * rho
    disc = b * b - 4.0 * a * c
    slack = 1e-9 * (b * b + np.abs(4.0 * a * c))
    good = (a > 0.0) & (disc >= -slack)
    root = np.sqrt(np.maximum(disc, 0.0))
    safe = np.where(a > 0.0, a, 1.0)
    index: list[IntArray] = []
    angles: list[FloatArray] = []
    for sign in (-1.0, 1.0):
        s = (-b + sign * root) / (2.0 * safe)
        hit = good & (s >= -1e-12) & (s <= 1.0 + 1e-12)
        where = np.nonzero(hit)[0]
        index.append(where)
        angles.append(
            polar_angle(gx[where] + s[where] * fx[where], gy[where] + s[where] * fy[where])
        )
    return np.concatenate(index), np.concatenate(angles)


def empty_points() -> FloatArray:
    """No points: an empty (0, 2) array."""
    return np.zeros((0, 2), dtype=np.float64)
