"""Exact paths and reachable areas against a brute-force Dijkstra on a fine grid.

The grid joins each node to its 16 neighbours (steps (1, 0), (1, 1) and (2, 1) in every
direction). A step's cost is its exact length inside each costly box grown by the base's
radius (the base pays while it overlaps the box), clipped, times the box's factor; a
step is kept only if the mover's disc stays on the table and clear of every disc
obstacle. The strict grid keeps 0.01 mm clear of the discs and pays the factors 0.01 mm
beyond each grown box: its paths are real and cost no less than they say. The lenient
grid may come 0.01 mm into the discs and pays nothing within 0.01 mm inside a grown box:
its costs are lower bounds, up to the grid's direction error (the 16 directions are at
most 26.57 degrees apart: a straight run costs at most 1 / cos(13.28 deg) = 1.0275
times its length, plus about a step at each bend) -- but only where no sliver thinner
than a step matters. So the tests check:

* the exact path never costs more than the strict grid's, and is real: it stays on the
  table and off the discs, and costs what it says (between its cost with open and
  with closed boundaries), so it cannot cost less than the optimum either;
* the reachable area holds every node the strict grid reaches within the budget, and
  wherever it holds a node the lenient grid cannot reach, an exact real path within
  the budget exists.

Fields: a 300 x 200 mm table, disc obstacles, and axis-aligned costly boxes that may
contain, touch or avoid the start and the goal (the classes where a bounded search
once missed a wood it started in).

``ARBITRE_BRUTE_FORCE_EXAMPLES`` sets the number of random fields and draws new ones at
each run (thousands for a long run; the suite's 60 are the same every time).
"""

from __future__ import annotations

import math
import os

import numpy as np
import shapely
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from arbitre.rules.pathing import CostlyRegion, DiscHull, Field, Path

WIDTH, DEPTH = 300.0, 200.0
STEP = 2.5  # grid spacing, mm
RADIUS = 5.0  # the mover's base
# The grid for upper bounds keeps its paths 0.01 mm clear of the obstacles (they are then
# real paths, even through a bare touching point); the grid for lower bounds may come
# 0.01 mm into them (no exact path is missed, even through a gap exactly as wide as the base).
STRICT, LENIENT = 0.01, -0.01
SLOPE = 1.0 / math.cos(math.radians(26.565 / 2))  # the grid's worst direction error
MOVES = [
    (dx, dy)
    for dx in range(-2, 3)
    for dy in range(-2, 3)
    if (dx, dy) != (0, 0) and math.gcd(abs(dx), abs(dy)) == 1
]
Box = tuple[float, float, float, float, float]  # x0, y0, x1, y1, factor
LONG_RUN = os.environ.get("ARBITRE_BRUTE_FORCE_EXAMPLES")
BRUTE = settings(
    max_examples=int(LONG_RUN or 60),
    deadline=None,
    derandomize=LONG_RUN is None,  # the suite sees the same fields; a long run new ones
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


class Grid:
    """Grid nodes at multiples of STEP inside the table, with Dijkstra from one node."""

    def __init__(
        self,
        field: Field,
        boxes: list[Box],
        clear: float = STRICT,
    ):
        self.clear = clear
        xs = np.arange(0.0, WIDTH + 1e-9, STEP)
        ys = np.arange(0.0, DEPTH + 1e-9, STEP)
        self.shape = (len(xs), len(ys))
        gx, gy = np.meshgrid(xs, ys, indexing="ij")
        self.xy = np.column_stack([gx.ravel(), gy.ravel()])
        free = self.free = self._free_points(field, self.xy, clear)
        sources, targets, costs = [], [], []
        nx, ny = self.shape
        index = np.arange(nx * ny).reshape(nx, ny)
        for dx, dy in MOVES:
            a = index[max(0, -dx) : nx - max(0, dx), max(0, -dy) : ny - max(0, dy)].ravel()
            b = index[max(0, dx) : nx - max(0, -dx), max(0, dy) : ny - max(0, -dy)].ravel()
            keep = free[a] & free[b]
            a, b = a[keep], b[keep]
            p, q = self.xy[a], self.xy[b]
            keep = self._free_segments(field, p, q, clear)
            a, b, p, q = a[keep], b[keep], p[keep], q[keep]
            sources.append(a)
            targets.append(b)
            # The base pays while it overlaps a box: the box grown by the base's radius
            # (square corners). The strict grid pays on that boundary too, the lenient
            # one not even 0.01 mm inside it: real costs lie between the two.
            grown = grow(boxes, RADIUS + clear)
            costs.append(segment_costs(p, q, grown))
        size = nx * ny
        self.graph = coo_matrix(
            (np.concatenate(costs), (np.concatenate(sources), np.concatenate(targets))),
            shape=(size, size),
        ).tocsr()

    @staticmethod
    def _free_points(field: Field, xy: np.ndarray, clear: float) -> np.ndarray:
        ok = (
            (xy[:, 0] >= RADIUS)
            & (xy[:, 0] <= WIDTH - RADIUS)
            & (xy[:, 1] >= RADIUS)
            & (xy[:, 1] <= DEPTH - RADIUS)
        )
        for hull in field.hulls:
            for x, y, r in hull.discs:
                ok &= np.hypot(xy[:, 0] - x, xy[:, 1] - y) >= r + RADIUS + clear
        return ok

    @staticmethod
    def _free_segments(field: Field, p: np.ndarray, q: np.ndarray, clear: float) -> np.ndarray:
        ok = np.ones(len(p), dtype=bool)
        d = q - p
        length2 = np.maximum((d**2).sum(axis=1), 1e-12)
        for hull in field.hulls:
            for x, y, r in hull.discs:
                t = np.clip(((x - p[:, 0]) * d[:, 0] + (y - p[:, 1]) * d[:, 1]) / length2, 0, 1)
                near = p + t[:, None] * d
                ok &= np.hypot(near[:, 0] - x, near[:, 1] - y) >= r + RADIUS + clear
        return ok

    def node(self, x: float, y: float) -> int:
        return int(round(x / STEP)) * self.shape[1] + int(round(y / STEP))

    def costs_from(self, x: float, y: float) -> np.ndarray:
        return np.asarray(dijkstra(self.graph, indices=self.node(x, y)))


def grow(boxes: list[Box], by_mm: float) -> list[Box]:
    """Each box grown by ``by_mm`` on every side: where a base of that radius overlaps it."""
    return [(x0 - by_mm, y0 - by_mm, x1 + by_mm, y1 + by_mm, f) for x0, y0, x1, y1, f in boxes]


def segment_costs(p: np.ndarray, q: np.ndarray, boxes: list[Box]) -> np.ndarray:
    """Exact cost of segments p -> q: length, plus (factor - 1) x length inside each box.

    The boxes do not overlap (even grown by the base's radius), so their extra costs add
    up. The clipping is Liang-Barsky on the closed box: a segment along a box's edge is
    inside it.
    """
    d = q - p
    length = np.hypot(d[:, 0], d[:, 1])
    cost = length.copy()
    for x0, y0, x1, y1, factor in boxes:
        lo = np.zeros(len(p))
        hi = np.ones(len(p))
        for axis, low, high in ((0, x0, x1), (1, y0, y1)):
            start, step = p[:, axis], d[:, axis]
            moving = np.abs(step) > 1e-12
            safe = np.where(moving, step, 1.0)
            t_low, t_high = (low - start) / safe, (high - start) / safe
            enter = np.where(moving, np.minimum(t_low, t_high), -np.inf)
            leave = np.where(moving, np.maximum(t_low, t_high), np.inf)
            outside = ~moving & ((start < low) | (start > high))
            lo = np.maximum(lo, enter)
            hi = np.where(outside, -1.0, np.minimum(hi, leave))
        cost += (factor - 1.0) * np.clip(hi - lo, 0.0, None) * length
    return cost


@st.composite
def fields(draw: st.DrawFn) -> tuple[Field, list[Box]]:
    """A table with 0-3 disc obstacles and 1-3 separate costly boxes on the 5 mm grid."""
    boxes: list[Box] = []
    for _ in range(draw(st.integers(1, 3))):
        x0 = 5.0 * draw(st.integers(0, 50))
        y0 = 5.0 * draw(st.integers(0, 30))
        box = (
            x0,
            y0,
            min(WIDTH, x0 + 5.0 * draw(st.integers(4, 30))),
            min(DEPTH, y0 + 5.0 * draw(st.integers(4, 24))),
            draw(st.sampled_from([1.5, 2.0, 3.0])),
        )
        apart = 2.0 * RADIUS + 1.0  # grown by the base's radius, they still do not overlap
        if all(
            box[2] + apart < other[0]
            or other[2] + apart < box[0]
            or box[3] + apart < other[1]
            or other[3] + apart < box[1]
            for other in boxes
        ):
            boxes.append(box)
    discs = [
        DiscHull(
            np.array(
                [
                    [
                        draw(st.floats(20, WIDTH - 20)),
                        draw(st.floats(20, DEPTH - 20)),
                        draw(st.floats(4, 15)),
                    ]
                ]
            ),
            f"disc{k}",
        )
        for k in range(draw(st.integers(0, 3)))
    ]
    regions = tuple(
        CostlyRegion(shapely.box(*box[:4]), box[4], f"wood{k}") for k, box in enumerate(boxes)
    )
    return Field(WIDTH, DEPTH, tuple(discs), (), regions), boxes


def endpoints(draw: st.DrawFn, grid: Grid, boxes: list[Box]) -> tuple[float, float]:
    """A free grid node: inside a box, on its edge, or anywhere."""
    where = draw(st.sampled_from(["inside", "edge", "anywhere"]))
    x0, y0, x1, y1, _ = boxes[draw(st.integers(0, len(boxes) - 1))]
    xy = grid.xy[grid.free]
    if where == "inside":
        pick = (xy[:, 0] > x0) & (xy[:, 0] < x1) & (xy[:, 1] > y0) & (xy[:, 1] < y1)
    elif where == "edge":
        pick = ((xy[:, 0] == x0) | (xy[:, 0] == x1)) & (xy[:, 1] >= y0) & (xy[:, 1] <= y1)
    else:
        pick = np.ones(len(xy), dtype=bool)
    candidates = xy[pick]
    if len(candidates) == 0:
        candidates = xy
    x, y = candidates[draw(st.integers(0, len(candidates) - 1))]
    return float(x), float(y)


def assert_real(field: Field, boxes: list[Box], path: Path) -> None:
    """The path is one a figure can take, and it costs what it says.

    Its polyline (arcs sampled every 2 degrees) stays on the table and clear of every
    disc (chords of arcs may cut 0.01 mm in), and its cost lies between the cost with
    open boundaries and the cost with the boundaries inside the boxes.
    """
    p, q = path.points_mm[:-1], path.points_mm[1:]
    xy = path.points_mm
    assert np.all((xy >= RADIUS - 1e-6) & (xy <= np.array([WIDTH, DEPTH]) - RADIUS + 1e-6)), xy
    for hull in field.hulls:
        for x, y, r in hull.discs:
            d = q - p
            t = np.clip(
                ((x - p[:, 0]) * d[:, 0] + (y - p[:, 1]) * d[:, 1])
                / np.maximum((d**2).sum(axis=1), 1e-12),
                0,
                1,
            )
            near = p + t[:, None] * d
            assert np.hypot(near[:, 0] - x, near[:, 1] - y).min() >= r + RADIUS - 0.01
    slack = 0.01 + 1e-4 * path.cost_mm
    # Open and closed within 1e-5 mm: a bend refined onto a grown edge lands within a few
    # millionths of a mm of it (one was found 1.2e-6 inside, its 7 mm leg skirting the
    # wood: plain rate for the path finder, the factor for a tolerance of 1e-6).
    open_ = grow(boxes, RADIUS - 1e-5)
    closed = grow(boxes, RADIUS + 1e-5)
    assert segment_costs(p, q, open_).sum() <= path.cost_mm + slack
    assert path.cost_mm <= segment_costs(p, q, closed).sum() + slack
