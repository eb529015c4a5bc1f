"""Where a bounded path can go: an ellipse, a disc, a band around a polyline, or anywhere."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from arbitre.rules.pathing.kernels import box_pairs, point_segment_dist2
from arbitre.rules.pathing.model import BoolArray, FloatArray


class RegionKind(IntEnum):
    """The shapes of a `Region`."""

    EVERYWHERE = 0
    ELLIPSE = 1
    """Foci a and b, major axis ``size``: where a path from a to b of cost ``size`` may go."""
    DISC = 2
    """Radius ``size`` around a."""
    BAND = 3
    """Points within ``size`` of the polyline ``line``."""


@dataclass(frozen=True, slots=True, eq=False)
class Region:
    """Points that a path of bounded cost can visit: a `RegionKind` and its sizes."""

    kind: RegionKind
    ax: float
    ay: float
    bx: float
    by: float
    size: float
    line: FloatArray | None = None

    def near(self, x: FloatArray, y: FloatArray, pad: FloatArray | float) -> BoolArray:
        """Whether discs of radius ``pad`` around the points meet the region."""
        if self.kind is RegionKind.EVERYWHERE:
            return np.ones(np.shape(x), dtype=bool)
        if self.kind is RegionKind.ELLIPSE:
            total = np.hypot(x - self.ax, y - self.ay) + np.hypot(x - self.bx, y - self.by)
            return total <= self.size + 2.0 * pad + 1e-6
        if self.kind is RegionKind.BAND and self.line is not None:
            shape = np.shape(x)
            px = np.reshape(x, -1)
            py = np.reshape(y, -1)
            limit = self.size + np.reshape(np.broadcast_to(pad, shape), -1) + 1e-6
            # Only the line's pieces whose box meets a point's box (1 mm larger than the
            # band) can come within the band of it.
            a, b = self.line[:-1], self.line[1:]
            reach = limit + 1.0
            i, j = box_pairs(
                px - reach,
                py - reach,
                px + reach,
                py + reach,
                np.minimum(a[:, 0], b[:, 0]),
                np.minimum(a[:, 1], b[:, 1]),
                np.maximum(a[:, 0], b[:, 0]),
                np.maximum(a[:, 1], b[:, 1]),
            )
            d2 = point_segment_dist2(px[i], py[i], a[j, 0], a[j, 1], b[j, 0], b[j, 1])
            near = np.zeros(len(px), dtype=bool)
            near[i[d2 <= limit[i] * limit[i]]] = True
            return np.reshape(near, shape)
        return np.hypot(x - self.ax, y - self.ay) <= self.size + pad + 1e-6

    def box(self) -> tuple[float, float, float, float]:
        """A bounding box of the region."""
        if self.kind is RegionKind.EVERYWHERE:
            return (-math.inf, -math.inf, math.inf, math.inf)
        if self.kind is RegionKind.ELLIPSE:
            mx, my, half = (self.ax + self.bx) / 2, (self.ay + self.by) / 2, self.size / 2
            return (mx - half, my - half, mx + half, my + half)
        if self.kind is RegionKind.BAND and self.line is not None:
            low = self.line.min(axis=0) - self.size
            high = self.line.max(axis=0) + self.size
            return (float(low[0]), float(low[1]), float(high[0]), float(high[1]))
        return (self.ax - self.size, self.ay - self.size, self.ax + self.size, self.ay + self.size)
