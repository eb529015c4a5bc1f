"""Where a bounded path can go: an ellipse, a disc, a band around a polyline, or anywhere."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from arbitre.rules.pathing.model import BoolArray, FloatArray
from arbitre.rules.pathing.primitives import _point_segment_dist2


@dataclass(frozen=True, slots=True, eq=False)
class _Region:
    """Points that a path of bounded cost can visit.

    Kind 0: everything; 1: the ellipse with foci a, b and major axis ``size``; 2: the
    disc of radius ``size`` around a; 3: points within ``size`` of the polyline ``line``.
    """

    kind: int
    ax: float
    ay: float
    bx: float
    by: float
    size: float
    line: FloatArray | None = None

    def near(self, x: FloatArray, y: FloatArray, pad: FloatArray | float) -> BoolArray:
        """Whether discs of radius ``pad`` around the points meet the region."""
        if self.kind == 0:
            return np.ones(np.shape(x), dtype=bool)
        if self.kind == 1:
            total = np.hypot(x - self.ax, y - self.ay) + np.hypot(x - self.bx, y - self.by)
            return total <= self.size + 2.0 * pad + 1e-6
        if self.kind == 3 and self.line is not None:
            v = self.line
            shape = np.shape(x)
            px = np.reshape(x, (-1, 1))
            py = np.reshape(y, (-1, 1))
            d2 = _point_segment_dist2(
                px, py, v[None, :-1, 0], v[None, :-1, 1], v[None, 1:, 0], v[None, 1:, 1]
            ).min(axis=1)
            limit = self.size + np.reshape(np.broadcast_to(pad, shape), -1) + 1e-6
            return np.reshape(d2 <= limit * limit, shape)
        return np.hypot(x - self.ax, y - self.ay) <= self.size + pad + 1e-6

    def box(self) -> tuple[float, float, float, float]:
        """A bounding box of the region."""
        if self.kind == 0:
            return (-math.inf, -math.inf, math.inf, math.inf)
        if self.kind == 1:
            mx, my, half = (self.ax + self.bx) / 2, (self.ay + self.by) / 2, self.size / 2
            return (mx - half, my - half, mx + half, my + half)
        if self.kind == 3 and self.line is not None:
            low = self.line.min(axis=0) - self.size
            high = self.line.max(axis=0) + self.size
            return (float(low[0]), float(low[1]), float(high[0]), float(high[1]))
        return (self.ax - self.size, self.ay - self.size, self.ax + self.size, self.ay + self.size)
