"""Where the pieces of a scene meet.

The free arcs of every circle (cut by other grown obstacles and the table edge),
the cost per mm along them, and the points where costly-region boundaries cross
grown obstacles.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
import shapely

from arbitre.rules.pathing.kernels import box_pairs
from arbitre.rules.pathing.model import BoolArray, FloatArray, IntArray
from arbitre.rules.pathing.prepare import Zone
from arbitre.rules.pathing.primitives import TWO_PI, circle_segment_angles, empty_points
from arbitre.rules.pathing.region import Region

_CLIFF = 2.0
"""The last column of a boundary point where a zone's edge meets an obstacle (1: a vertex)."""


class _Scene(Protocol):
    """What the arc computations read of a query's scene (`~arbitre.rules.pathing.scene.QueryScene`,
    which imports this module)."""

    radius: float
    rect: tuple[float, float, float, float]
    nodes: Region
    disc_xy: FloatArray
    disc_rho: FloatArray
    edges: FloatArray
    raw_edges: FloatArray
    zones: list[tuple[float, shapely.Geometry, FloatArray, FloatArray]]
    zone_edges: list[tuple[IntArray, FloatArray]]
    zone_ref: list[Zone]

    def points_free(self, points: FloatArray) -> BoolArray: ...

    def weight_at(self, x: FloatArray, y: FloatArray) -> FloatArray: ...


def free_runs(
    scene: _Scene, xy: FloatArray, rho: FloatArray, marks: list[FloatArray]
) -> tuple[FloatArray, FloatArray, IntArray, BoolArray]:
    """Free angular runs of every circle (centres ``xy`` (C, 2), radii ``rho``, tangent
    angles ``marks`` on each), found exactly from obstacle breakpoints.

    Returns each circle's runs (start angle, angular length), their count and whether
    the circle is free all round.
    """
    ox = xy[:, 0]
    oy = xy[:, 1]
    count = len(rho)
    index: list[IntArray] = []
    angles: list[FloatArray] = []
    if count and len(scene.disc_rho):
        c = scene.disc_xy
        i, low, high = _circle_circle_angles(ox, oy, rho, c[:, 0], c[:, 1], scene.disc_rho)
        index += [i, i]
        angles += [low, high]
    segments: list[FloatArray] = []
    ends: list[FloatArray] = []
    if len(scene.edges):
        e = scene.edges
        ex = e[:, 2] - e[:, 0]
        ey = e[:, 3] - e[:, 1]
        norm = np.hypot(ex, ey)
        nx = ey / np.where(norm > 0, norm, 1.0) * scene.radius
        ny = -ex / np.where(norm > 0, norm, 1.0) * scene.radius
        segments.append(np.column_stack([e[:, 0] + nx, e[:, 1] + ny, e[:, 2] + nx, e[:, 3] + ny]))
        segments.append(np.column_stack([e[:, 0] - nx, e[:, 1] - ny, e[:, 2] - nx, e[:, 3] - ny]))
        ends.append(e[:, :2])
    if len(scene.raw_edges):
        segments.append(scene.raw_edges)
    if count and segments:
        i, ang = _circle_edge_angles(ox, oy, rho, np.concatenate(segments))
        index.append(i)
        angles.append(ang)
    if count and ends:
        v = np.concatenate(ends)
        i, low, high = _circle_circle_angles(ox, oy, rho, v[:, 0], v[:, 1], scene.radius)
        index += [i, i]
        angles += [low, high]
    if count:
        xmin, ymin, xmax, ymax = scene.rect
        for value, coord, is_x in (
            (xmin, ox, True),
            (xmax, ox, True),
            (ymin, oy, False),
            (ymax, oy, False),
        ):
            c = (value - coord) / rho
            hit = np.abs(c) <= 1.0
            i = np.nonzero(hit)[0]
            a = np.arccos(c[i]) if is_x else np.arcsin(c[i])
            index += [i, i]
            if is_x:
                angles += [np.mod(a, TWO_PI), np.mod(-a, TWO_PI)]
            else:
                angles += [np.mod(a, TWO_PI), np.mod(math.pi - a, TWO_PI)]
        for k, marked in enumerate(marks):
            if len(marked):
                index.append(np.full(len(marked), k, dtype=np.intp))
                angles.append(np.ravel(marked))
    owner, start, stop = _pieces(count, index, angles)
    mid = (start + stop) / 2.0
    px = ox[owner] + rho[owner] * np.cos(mid)
    py = oy[owner] + rho[owner] * np.sin(mid)
    free = scene.points_free(np.column_stack([px, py]))
    return _merge_runs(count, owner, start, stop, free)


def circle_weights(
    scene: _Scene, xy: FloatArray, rho: FloatArray
) -> tuple[FloatArray, list[FloatArray], list[FloatArray]]:
    """Piecewise constant cost per mm around every circle (centres ``xy`` (C, 2), radii
    ``rho``).

    Returns a constant weight per circle (NaN where it varies) and, where it
    varies, knot angles and the cumulative weighted angle at the knots.
    """
    count = len(rho)
    weight_const = np.ones(count)
    weight_angles: list[FloatArray] = [np.zeros(0)] * count
    weight_cum: list[FloatArray] = [np.zeros(0)] * count
    if not scene.zones or count == 0:
        return weight_const, weight_angles, weight_cum
    ox = xy[:, 0]
    oy = xy[:, 1]
    index: list[IntArray] = []
    angles: list[FloatArray] = []
    # Every edge of each zone: a circle may reach edges the search box left out.
    for zone in scene.zone_ref:
        i, ang = _circle_edge_angles(ox, oy, rho, zone.edges)
        index.append(i)
        angles.append(ang)
    owner, start, stop = _pieces(count, index, angles)
    mid = (start + stop) / 2.0
    weight = scene.weight_at(
        ox[owner] + rho[owner] * np.cos(mid), oy[owner] + rho[owner] * np.sin(mid)
    )
    splits = np.searchsorted(owner, np.arange(count + 1))
    for k in range(count):
        lo, hi = splits[k], splits[k + 1]
        if hi - lo == 1:
            weight_const[k] = weight[lo]
            continue
        a0 = start[lo:hi]
        a1 = stop[lo:hi]
        w = weight[lo:hi]
        # pieces start at the first breakpoint and wrap past 2 pi
        weight_const[k] = math.nan
        weight_angles[k] = np.concatenate([a0, [a1[-1]]])
        weight_cum[k] = np.concatenate([[0.0], np.cumsum(w * (a1 - a0))])
    return weight_const, weight_angles, weight_cum


def _circle_circle_angles(
    ox: FloatArray,
    oy: FloatArray,
    rho: FloatArray,
    cx: FloatArray,
    cy: FloatArray,
    r: FloatArray | float,
) -> tuple[IntArray, FloatArray, FloatArray]:
    """Where circles ``(ox, oy, rho)`` cross circles ``(cx, cy, r)`` (one radius or one each).

    Returns the index of the first circle of every crossing pair and the two angles
    on it where they cross.
    """
    i, j = box_pairs(ox - rho, oy - rho, ox + rho, oy + rho, cx - r, cy - r, cx + r, cy + r)
    dx = cx[j] - ox[i]
    dy = cy[j] - oy[i]
    dist = np.hypot(dx, dy)
    rj = r[j] if isinstance(r, np.ndarray) else r
    meet = (dist < rho[i] + rj) & (dist > np.abs(rho[i] - rj) + 1e-12)
    i, dx, dy, dist = i[meet], dx[meet], dy[meet], dist[meet]
    if isinstance(rj, np.ndarray):
        rj = rj[meet]
    cos_half = (rho[i] ** 2 + dist**2 - rj**2) / (2.0 * rho[i] * dist)
    half = np.arccos(np.clip(cos_half, -1.0, 1.0))
    base = np.arctan2(dy, dx)
    return i, np.mod(base - half, TWO_PI), np.mod(base + half, TWO_PI)


def _circle_edge_angles(
    ox: FloatArray, oy: FloatArray, rho: FloatArray, segments: FloatArray
) -> tuple[IntArray, FloatArray]:
    """Where circles meet any of ``segments`` ``(S, 4)``: circle index and angle on it."""
    s = segments
    i, j = box_pairs(
        ox - rho,
        oy - rho,
        ox + rho,
        oy + rho,
        np.minimum(s[:, 0], s[:, 2]),
        np.minimum(s[:, 1], s[:, 3]),
        np.maximum(s[:, 0], s[:, 2]),
        np.maximum(s[:, 1], s[:, 3]),
    )
    pair, ang = circle_segment_angles(ox[i], oy[i], rho[i], s[j, 0], s[j, 1], s[j, 2], s[j, 3])
    return i[pair], ang


def _pieces(
    count: int, index: list[IntArray], angles: list[FloatArray]
) -> tuple[IntArray, FloatArray, FloatArray]:
    """Cut every circle at its breakpoints: owner, start and stop angle of each piece.

    A circle without breakpoints is one piece from 0 to 2 pi; otherwise pieces run
    from each breakpoint to the next, the last one wrapping past 2 pi.
    """
    idx = np.concatenate(index + [np.zeros(0, dtype=np.intp)]).astype(np.intp)
    ang = np.concatenate(angles + [np.zeros(0)])
    order = np.lexsort((ang, idx))
    idx = idx[order]
    ang = ang[order]
    if len(ang):
        same = np.concatenate([[False], (idx[1:] == idx[:-1]) & (np.diff(ang) < 1e-12)])
        idx = idx[~same]
        ang = ang[~same]
    counts = np.bincount(idx, minlength=count)
    empty = np.nonzero(counts == 0)[0]
    first = np.searchsorted(idx, np.arange(count))
    nxt = np.empty_like(ang)
    if len(ang):
        nxt[:-1] = ang[1:]
        last = np.concatenate([idx[1:] != idx[:-1], [True]])
        nxt[last] = ang[first[idx[last]]] + TWO_PI
    owner = np.concatenate([idx, empty]).astype(np.intp)
    start = np.concatenate([ang, np.zeros(len(empty))])
    stop = np.concatenate([nxt, np.full(len(empty), TWO_PI)])
    order = np.lexsort((start, owner))
    return owner[order], start[order], stop[order]


def _merge_runs(
    count: int, owner: IntArray, start: FloatArray, stop: FloatArray, free: BoolArray
) -> tuple[FloatArray, FloatArray, IntArray, BoolArray]:
    """Merge free pieces of each circle into runs (padded arrays of start and length)."""
    splits = np.searchsorted(owner, np.arange(count + 1))
    runs: list[list[tuple[float, float]]] = []
    full = np.zeros(count, dtype=bool)
    for k in range(count):
        lo, hi = int(splits[k]), int(splits[k + 1])
        flags = free[lo:hi]
        if np.all(flags):
            runs.append([(0.0, TWO_PI)])
            full[k] = True
            continue
        if not np.any(flags):
            runs.append([])
            continue
        first_blocked = int(np.argmin(flags))
        order = [(first_blocked + m) % (hi - lo) for m in range(hi - lo)]
        mine: list[tuple[float, float]] = []
        current: tuple[float, float] | None = None
        for m in order:
            a = float(start[lo + m])
            b = float(stop[lo + m])
            if flags[m]:
                if current is None:
                    current = (a, b - a)
                else:
                    current = (current[0], current[1] + (b - a))
            elif current is not None:
                mine.append(current)
                current = None
        if current is not None:
            mine.append(current)
        runs.append([(a % TWO_PI, length) for a, length in mine])
    width = max([len(r) for r in runs] + [1])
    run_start = np.zeros((count, width))
    run_len = np.full((count, width), -math.inf)
    for k, mine in enumerate(runs):
        for m, (a, length) in enumerate(mine):
            run_start[k, m] = a
            run_len[k, m] = length
    return run_start, run_len, np.array([len(r) for r in runs], dtype=np.intp), full


def cliff_points(
    scene: _Scene, circle_xy: FloatArray, circle_rho: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Where region boundaries meet grown obstacles (the circles' centres ``circle_xy``
    (C, 2) and radii ``circle_rho`` among them): extra boundary nodes.

    A path may leave an obstacle and cross a boundary at once; these points let
    the graph bend exactly there.
    """
    points: list[FloatArray] = []
    infos: list[FloatArray] = []
    if not scene.zones:
        return empty_points(), np.zeros((0, 4))
    offsets = np.zeros((0, 4))
    if len(scene.edges):
        e = scene.edges
        ex = e[:, 2] - e[:, 0]
        ey = e[:, 3] - e[:, 1]
        norm = np.maximum(np.hypot(ex, ey), 1e-12)
        nx = ey / norm * scene.radius
        ny = -ex / norm * scene.radius
        offsets = np.concatenate(
            [
                np.column_stack([e[:, 0] + nx, e[:, 1] + ny, e[:, 2] + nx, e[:, 3] + ny]),
                np.column_stack([e[:, 0] - nx, e[:, 1] - ny, e[:, 2] - nx, e[:, 3] - ny]),
            ]
        )
    for index, ((_, _, edges, _), (ring, start)) in enumerate(
        zip(scene.zones, scene.zone_edges, strict=True)
    ):
        lo_x = np.minimum(edges[:, 0], edges[:, 2])
        hi_x = np.maximum(edges[:, 0], edges[:, 2])
        lo_y = np.minimum(edges[:, 1], edges[:, 3])
        hi_y = np.maximum(edges[:, 1], edges[:, 3])
        span = np.hypot(edges[:, 2] - edges[:, 0], edges[:, 3] - edges[:, 1])
        hits: list[tuple[IntArray, FloatArray]] = []
        if len(circle_rho):
            i, j = box_pairs(
                lo_x,
                lo_y,
                hi_x,
                hi_y,
                circle_xy[:, 0] - circle_rho,
                circle_xy[:, 1] - circle_rho,
                circle_xy[:, 0] + circle_rho,
                circle_xy[:, 1] + circle_rho,
            )
            fx = edges[i, 2] - edges[i, 0]
            fy = edges[i, 3] - edges[i, 1]
            gx = edges[i, 0] - circle_xy[j, 0]
            gy = edges[i, 1] - circle_xy[j, 1]
            a = fx * fx + fy * fy
            b = 2.0 * (fx * gx + fy * gy)
            c = gx * gx + gy * gy - circle_rho[j] ** 2
            disc = b * b - 4.0 * a * c
            root = np.sqrt(np.maximum(disc, 0.0))
            for sign in (-1.0, 1.0):
                u = (-b + sign * root) / (2.0 * np.where(a > 0, a, 1.0))
                good = (disc > 0.0) & (a > 0.0) & (u > 0.0) & (u < 1.0)
                hits.append((i[good], u[good]))
        if len(offsets):
            o = offsets
            i, j = box_pairs(
                lo_x,
                lo_y,
                hi_x,
                hi_y,
                np.minimum(o[:, 0], o[:, 2]),
                np.minimum(o[:, 1], o[:, 3]),
                np.maximum(o[:, 0], o[:, 2]),
                np.maximum(o[:, 1], o[:, 3]),
            )
            fx = edges[i, 2] - edges[i, 0]
            fy = edges[i, 3] - edges[i, 1]
            hx = o[j, 2] - o[j, 0]
            hy = o[j, 3] - o[j, 1]
            denom = fx * hy - fy * hx
            wx = o[j, 0] - edges[i, 0]
            wy = o[j, 1] - edges[i, 1]
            safe = np.where(np.abs(denom) > 1e-12, denom, 1.0)
            u = (wx * hy - wy * hx) / safe
            v = (wx * fy - wy * fx) / safe
            good = (np.abs(denom) > 1e-12) & (u > 0.0) & (u < 1.0) & (v >= 0.0) & (v <= 1.0)
            hits.append((i[good], u[good]))
        for k, u in hits:
            if len(k) == 0:
                continue
            px = edges[k, 0] + u * (edges[k, 2] - edges[k, 0])
            py = edges[k, 1] + u * (edges[k, 3] - edges[k, 1])
            keep = scene.nodes.near(px, py, 0.0)
            if not np.any(keep):
                continue
            points.append(np.column_stack([px[keep], py[keep]]))
            infos.append(
                np.column_stack(
                    [
                        np.full(int(keep.sum()), float(index)),
                        ring[k[keep]].astype(np.float64),
                        start[k[keep]] + u[keep] * span[k[keep]],
                        np.full(int(keep.sum()), _CLIFF),
                    ]
                )
            )
    if not points:
        return empty_points(), np.zeros((0, 4))
    return np.concatenate(points), np.concatenate(infos)
