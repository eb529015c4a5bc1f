"""What a query starts from.

How each obstacle blocks (grown, raw or not at all) given the mover's overlaps,
the box the mover's centre must stay in, the obstacles across the straight line
from start to goal, and free space as shapely geometry.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from arbitre.rules.pathing.kernels import point_segment_dist2, segment_segment_dist
from arbitre.rules.pathing.model import TOLERANCE_MM, IntArray
from arbitre.rules.pathing.prepare import Obstacle, PreparedField, remember_bounded
from arbitre.rules.pathing.primitives import TWO_PI

LEVEL_GROWN, LEVEL_RAW, LEVEL_IGNORED = 2, 1, 0
"""How an obstacle blocks a query (:func:`blocking_levels`): grown by the mover's radius,
with its raw shape, or not at all."""


def blocking_levels(
    prep: PreparedField, radius: float, points: list[tuple[float, float]]
) -> IntArray:
    """Per obstacle: grown (2), raw (1) or ignored (0) for a query touching ``points``."""
    count = len(prep.sources)
    levels = np.full(count, LEVEL_GROWN, dtype=np.intp)
    for px, py in points:
        near = np.hypot(prep.centres[:, 0] - px, prep.centres[:, 1] - py)
        for k in np.nonzero(near < prep.bounds + radius + 1.0)[0]:
            obstacle = prep.obstacle(int(k))
            gap = math.inf
            inside = False
            if len(obstacle.disc_r):
                d = np.hypot(obstacle.disc_xy[:, 0] - px, obstacle.disc_xy[:, 1] - py)
                d = d - obstacle.disc_r
                gap = float(np.min(d))
                inside = bool(np.any(d < -TOLERANCE_MM))
            if len(obstacle.edges):
                e = obstacle.edges
                d2 = point_segment_dist2(
                    np.array(px), np.array(py), e[:, 0], e[:, 1], e[:, 2], e[:, 3]
                )
                edge_gap = float(np.sqrt(np.min(d2)))
                if obstacle.solid is not None and shapely.contains_xy(obstacle.solid, px, py):
                    inside = inside or edge_gap > TOLERANCE_MM
                    edge_gap = 0.0
                gap = min(gap, edge_gap)
            if gap >= radius - TOLERANCE_MM:
                continue
            levels[k] = min(int(levels[k]), LEVEL_IGNORED if inside else LEVEL_RAW)
    return levels


def table_rect(
    prep: PreparedField, radius: float, start: tuple[float, float]
) -> tuple[float, float, float, float] | None:
    """Box for the mover's centre: the table shrunk by ``radius``, relaxed for the start."""
    sx, sy = start
    if not (-TOLERANCE_MM <= sx <= prep.width + TOLERANCE_MM):
        return None
    if not (-TOLERANCE_MM <= sy <= prep.depth + TOLERANCE_MM):
        return None
    return (
        min(radius, sx),
        min(radius, sy),
        max(prep.width - radius, sx),
        max(prep.depth - radius, sy),
    )


def straight_line_blockers(
    prep: PreparedField,
    radius: float,
    levels: IntArray,
    start: tuple[float, float],
    goal: tuple[float, float],
) -> tuple[str, ...]:
    """Idents of obstacles that the straight segment from start to goal cuts into."""
    (sx, sy), (gx, gy) = start, goal
    names: list[str] = []
    x0, y0, x1, y1 = (np.array([v]) for v in (sx, sy, gx, gy))
    if not prep.sources:
        return ()
    d2 = point_segment_dist2(prep.centres[:, 0], prep.centres[:, 1], x0, y0, x1, y1)
    near = (levels != LEVEL_IGNORED) & (d2 <= (prep.bounds + radius + 1.0) ** 2)
    for k in np.nonzero(near)[0]:
        obstacle = prep.obstacle(int(k))
        c = radius if levels[k] == LEVEL_GROWN else 0.0
        hit = False
        if len(obstacle.disc_r):
            dd = point_segment_dist2(obstacle.disc_xy[:, 0], obstacle.disc_xy[:, 1], x0, y0, x1, y1)
            limit = obstacle.disc_r + c - TOLERANCE_MM
            hit = bool(np.any((limit > 0.0) & (dd < limit * limit)))
        if not hit and len(obstacle.edges):
            segment = shapely.LineString([(sx, sy), (gx, gy)])
            if c > 10.0 * TOLERANCE_MM:
                e = obstacle.edges
                d = segment_segment_dist(x0, y0, x1, y1, e[:, 0], e[:, 1], e[:, 2], e[:, 3])
                hit = bool(np.min(d) < c - TOLERANCE_MM)
                if not hit and obstacle.solid is not None:
                    hit = bool(shapely.contains_xy(obstacle.solid, sx, sy))
            elif obstacle.solid is not None:
                inner = obstacle.solid.buffer(-TOLERANCE_MM, join_style="mitre")
                hit = bool(segment.intersects(inner))
        if hit:
            names.append(obstacle.ident)
    return tuple(names)


def _sides(radius: float, outer_mm: float | None) -> int:
    """Polygon sides for a circle: 64, or enough to lie within ``outer_mm`` outside it."""
    if outer_mm is None or radius <= 0.0:
        return 64
    half = math.acos(radius / (radius + outer_mm))
    return int(min(2048, max(64, math.ceil(math.pi / half))))


def free_space(
    prep: PreparedField,
    radius: float,
    levels: IntArray,
    kept: IntArray,
    rect: tuple[float, float, float, float],
    window: tuple[float, float, float, float] | None,
    outer_mm: float | None,
) -> shapely.Geometry:
    """Free space for the centre as shapely geometry.

    With ``outer_mm`` the grown obstacles are over-approximated (their polygons contain
    the exact shapes and reach at most that much beyond them), otherwise
    under-approximated.
    """
    xmin, ymin, xmax, ymax = rect
    if window is not None:
        xmin, ymin = max(xmin, window[0]), max(ymin, window[1])
        xmax, ymax = min(xmax, window[2]), min(ymax, window[3])
    if xmin > xmax or ymin > ymax:
        return shapely.Polygon()
    table = shapely.box(xmin, ymin, xmax, ymax)
    blocks: list[shapely.Geometry] = []
    for k in kept:
        if levels[k] == LEVEL_IGNORED:
            continue
        obstacle = prep.obstacle(int(k))
        block = grown_block(obstacle, radius if levels[k] == LEVEL_GROWN else 0.0, outer_mm)
        if block is not None:
            blocks.append(block)
    if not blocks:
        return table
    # Kept between queries: a question asked again on the same table finds it made.
    key = (xmin, ymin, xmax, ymax, tuple(id(block) for block in blocks))
    known = _FREE.get(key)
    if known is not None and all(a is b for a, b in zip(known[0], blocks, strict=True)):
        return known[1]
    free = table.difference(shapely.union_all(blocks))
    remember_bounded(_FREE, key, (tuple(blocks), free), 32)
    return free


def grown_block(obstacle: Obstacle, c: float, outer_mm: float | None) -> shapely.Geometry | None:
    """An obstacle grown by ``c`` as shapely geometry (see :func:`free_space`), None for
    one with neither discs nor a polygonal part; kept between queries."""
    key = (obstacle, c, outer_mm)
    if key in GROWN_BLOCKS:
        return GROWN_BLOCKS[key]
    block: shapely.Geometry | None = None
    if len(obstacle.disc_r):
        rho = obstacle.disc_r + c
        sides = _sides(float(np.max(rho)), outer_mm)
        grow = 1.0 / math.cos(math.pi / sides) if outer_mm is not None else 1.0
        angles = np.linspace(0.0, TWO_PI, sides, endpoint=False)
        ring = np.column_stack([np.cos(angles), np.sin(angles)])
        pts = obstacle.disc_xy[:, None, :] + (rho * grow)[:, None, None] * ring[None]
        pts = pts.reshape(-1, 2)
        if obstacle.solid is not None:
            pts = np.vstack([pts, shapely.get_coordinates(obstacle.solid)])
        block = shapely.convex_hull(shapely.multipoints(pts))
    elif obstacle.solid is not None:
        if c <= 0.0:
            block = obstacle.solid
        elif outer_mm is None:
            block = obstacle.solid.buffer(c, quad_segs=16)
        else:
            # GEOS rounds each corner's arc to a whole number of steps of a quarter turn
            # over quad_segs, so a step may be 1.5 of them: the arcs are drawn large
            # enough for their chords to stay outside the exact arc even then.
            longest = 2.0 * math.acos(c / (c + outer_mm))
            segs = max(4, math.ceil(1.5 * (math.pi / 2.0) / longest))
            grow_buffer = 1.0 / math.cos(0.75 * (math.pi / 2.0) / segs)
            block = obstacle.solid.buffer(c * grow_buffer, quad_segs=segs)
    remember_bounded(GROWN_BLOCKS, key, block, 1024)
    return block


GROWN_BLOCKS: dict[tuple[Obstacle, float, float | None], shapely.Geometry | None] = {}
_FREE: dict[
    tuple[float, float, float, float, tuple[int, ...]],
    tuple[tuple[shapely.Geometry, ...], shapely.Geometry],
] = {}
