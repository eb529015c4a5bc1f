"""Compiled loops for the tests a reachable area makes thousands of times.

A reachable area casts a few thousand rays and prices a few thousand segments, each
against every obstacle whose box it meets. Written with numpy, each test is dozens of
array operations over the pairs of boxes that meet; here each is one loop, compiled
by numba on first use and cached beside this file (or in the user's cache when this
folder cannot be written). The loops compute what the vectorised tests did, in the
same order and with the same arithmetic, so their answers are the same to the bit for
the finite numbers they are given (a NaN or an infinity, which no scene holds, may
come out otherwise: Python's min and max do not spread NaN as numpy's do).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from arbitre.rules.pathing.model import BoolArray, FloatArray, IntArray

_F = TypeVar("_F", bound=Callable[..., Any])


def compiled(function: _F) -> _F:
    """``function`` compiled without Python's lock, its machine code cached on disk
    where a cache can be written (else compiled again in each process)."""
    try:
        return cast(_F, numba.njit(cache=True, nogil=True)(function))
    except RuntimeError:  # no folder to cache in: compile in each process
        return cast(_F, numba.njit(nogil=True)(function))


@compiled
def _box_pairs_loop(first: FloatArray, second: FloatArray) -> tuple[IntArray, IntArray]:
    meets = np.zeros((len(first), len(second)), dtype=np.bool_)
    count = 0
    for a in range(len(first)):
        for b in range(len(second)):
            if (
                first[a, 0] <= second[b, 2]
                and first[a, 2] >= second[b, 0]
                and first[a, 1] <= second[b, 3]
                and first[a, 3] >= second[b, 1]
            ):
                meets[a, b] = True
                count += 1
    rows = np.empty(count, dtype=np.intp)
    columns = np.empty(count, dtype=np.intp)
    k = 0
    for a in range(len(first)):
        for b in range(len(second)):
            if meets[a, b]:
                rows[k] = a
                columns[k] = b
                k += 1
    return rows, columns


def box_pairs(
    a_lo_x: FloatArray,
    a_lo_y: FloatArray,
    a_hi_x: FloatArray,
    a_hi_y: FloatArray,
    b_lo_x: FloatArray,
    b_lo_y: FloatArray,
    b_hi_x: FloatArray,
    b_hi_y: FloatArray,
) -> tuple[IntArray, IntArray]:
    """Index pairs ``(a, b)`` of boxes that meet (touching counts), by ``a`` then ``b``."""
    return _box_pairs_loop(
        _rows(a_lo_x, a_lo_y, a_hi_x, a_hi_y), _rows(b_lo_x, b_lo_y, b_hi_x, b_hi_y)
    )


def _rows(*columns: FloatArray | float) -> FloatArray:
    """Columns (of the same length, or numbers) side by side, as one array of floats."""
    return np.ascontiguousarray(np.column_stack(columns), dtype=np.float64)


@compiled
def _ray_disc(x: float, y: float, ux: float, uy: float, cx: float, cy: float, r: float) -> float:
    """Distance along a ray to where it enters a disc (0 from inside; inf if never)."""
    wx = x - cx
    wy = y - cy
    b = ux * wx + uy * wy
    disc = b * b - (wx * wx + wy * wy - r * r)
    if not disc > 0.0:
        return math.inf
    root = math.sqrt(disc)
    if -b - root >= 0.0:
        return -b - root
    return 0.0 if -b + root > 0.0 else math.inf


@compiled
def _first_hits_loop(
    rays: FloatArray, discs: FloatArray, edges: FloatArray, grown: float
) -> tuple[FloatArray, IntArray, FloatArray]:
    count = len(rays)
    disc_x, disc_y, disc_r = discs[:, 0], discs[:, 1], discs[:, 2]
    hit_at = np.full(count, np.inf)
    piece = np.full(count, -1, dtype=np.intp)
    normal = np.zeros((count, 2))
    for k in range(count):
        x, y, dx, dy, stop = rays[k, 0], rays[k, 1], rays[k, 2], rays[k, 3], rays[k, 4]
        ex, ey = x + stop * dx, y + stop * dy
        lo_x, hi_x, lo_y, hi_y = min(x, ex), max(x, ex), min(y, ey), max(y, ey)
        for d in range(len(discs)):
            r = disc_r[d]
            if (
                r > 0.0
                and lo_x <= disc_x[d] + r
                and hi_x >= disc_x[d] - r
                and lo_y <= disc_y[d] + r
                and hi_y >= disc_y[d] - r
            ):
                t = _ray_disc(x, y, dx, dy, disc_x[d], disc_y[d], r)
                if t < hit_at[k]:
                    hit_at[k] = t
                    piece[k] = d
                    normal[k, 0] = (x - disc_x[d] + t * dx) / r
                    normal[k, 1] = (y - disc_y[d] + t * dy) / r
        if grown <= 0.0:
            continue
        for j in range(len(edges)):
            ax, ay, bx, by = edges[j, 0], edges[j, 1], edges[j, 2], edges[j, 3]
            if not (
                lo_x <= max(ax, bx) + grown
                and hi_x >= min(ax, bx) - grown
                and lo_y <= max(ay, by) + grown
                and hi_y >= min(ay, by) - grown
            ):
                continue
            # the capsule: the edge's two sides moved out by ``grown``, then its end discs
            fx, fy = bx - ax, by - ay
            norm = math.hypot(fx, fy)
            nx = fy / (norm if norm > 0.0 else 1.0) * grown
            ny = -fx / (norm if norm > 0.0 else 1.0) * grown
            best, best_x, best_y = math.inf, 0.0, 0.0
            denom = dx * fy - dy * fx
            if abs(denom) > 1e-15:
                for sign in (1.0, -1.0):
                    wx = ax + sign * nx - x
                    wy = ay + sign * ny - y
                    t = (wx * fy - wy * fx) / denom
                    s = (wx * dy - wy * dx) / denom
                    if t >= 0.0 and s >= 0.0 and s <= 1.0 and t < best:
                        best, best_x, best_y = t, sign * nx / grown, sign * ny / grown
            for px, py in ((ax, ay), (bx, by)):
                t = _ray_disc(x, y, dx, dy, px, py, grown)
                if t < best:
                    best = t
                    best_x = (x - px + t * dx) / grown
                    best_y = (y - py + t * dy) / grown
            if best < hit_at[k]:
                hit_at[k] = best
                piece[k] = len(discs) + j
                normal[k, 0] = best_x
                normal[k, 1] = best_y
    return hit_at, piece, normal


def first_hits(
    ox: FloatArray,
    oy: FloatArray,
    ux: FloatArray,
    uy: FloatArray,
    stop: FloatArray,
    discs: FloatArray,
    disc_r: FloatArray,
    edges: FloatArray,
    grown: float,
) -> tuple[FloatArray, IntArray, FloatArray]:
    """Where rays ``o + t u, 0 <= t <= stop`` first meet discs or capsules, and what.

    ``discs`` are ``(x, y)`` centres with radii ``disc_r`` (those of radius 0 or less
    are left out); ``edges`` are ``(ax, ay, bx, by)`` rows, each grown into a capsule of
    radius ``grown``. Returns per ray the distance to the first piece met (inf if none;
    0 from inside one), which piece (a disc's index, or the number of discs plus an
    edge's; -1 none: of pieces met at the same distance, the first) and the piece's
    outward unit normal there, shape (R, 2). Rays are tested against every piece whose
    box meets theirs, so a hit a little beyond ``stop`` may be reported.
    """
    return _first_hits_loop(
        _rows(ox, oy, ux, uy, stop),
        _rows(discs.reshape(-1, 2), disc_r),
        _rows(edges.reshape(-1, 4)),
        float(grown),
    )


@compiled
def _crossings_loop(
    segments: FloatArray, edges: FloatArray
) -> tuple[IntArray, FloatArray, FloatArray]:
    x0, y0, dx, dy = segments[:, 0], segments[:, 1], segments[:, 2], segments[:, 3]
    count = len(segments)
    cap = 2 * count + 16  # grown as the pieces come: most segments cross an edge or two
    rows = np.empty(cap, dtype=np.intp)
    begins = np.empty(cap)
    ends = np.empty(cap)
    cuts = np.empty(len(edges) + 1)
    k = 0
    for r in range(count):
        sx, sy = dx[r], dy[r]
        x1, y1 = x0[r] + sx, y0[r] + sy
        lo_x, hi_x, lo_y, hi_y = min(x0[r], x1), max(x0[r], x1), min(y0[r], y1), max(y0[r], y1)
        cuts[0] = 0.0
        m = 1
        for j in range(len(edges)):
            ax, ay, bx, by = edges[j, 0], edges[j, 1], edges[j, 2], edges[j, 3]
            if not (
                lo_x <= max(ax, bx)
                and hi_x >= min(ax, bx)
                and lo_y <= max(ay, by)
                and hi_y >= min(ay, by)
            ):
                continue
            fx, fy = bx - ax, by - ay
            denom = sx * fy - sy * fx
            if not abs(denom) > 1e-12 * math.hypot(sx, sy) * math.hypot(fx, fy):
                continue
            wx, wy = ax - x0[r], ay - y0[r]
            t = (wx * fy - wy * fx) / denom
            u = (wx * sy - wy * sx) / denom
            if u >= -1e-12 and u <= 1.0 + 1e-12 and t > 0.0 and t < 1.0:
                # kept in order as they come: a few crossings per segment
                q = m
                while q > 0 and cuts[q - 1] > t:
                    cuts[q] = cuts[q - 1]
                    q -= 1
                cuts[q] = t
                m += 1
        if k + m > cap:
            cap = 2 * (k + m)
            rows = np.concatenate((rows[:k], np.empty(cap - k, dtype=np.intp)))
            begins = np.concatenate((begins[:k], np.empty(cap - k)))
            ends = np.concatenate((ends[:k], np.empty(cap - k)))
        for q in range(m):
            end = cuts[q + 1] if q + 1 < m else 1.0
            if end > cuts[q]:
                rows[k], begins[k], ends[k] = r, cuts[q], end
                k += 1
    return rows[:k].copy(), begins[:k].copy(), ends[:k].copy()


def crossings(
    x0: FloatArray, y0: FloatArray, dx: FloatArray, dy: FloatArray, edges: FloatArray
) -> tuple[IntArray, FloatArray, FloatArray]:
    """Each segment ``p0 + t d, 0 <= t <= 1`` split where it crosses ``edges``
    (``(ax, ay, bx, by)`` rows): the pieces' segment indices and parameter ranges, by
    segment and in order along it. A segment crossing none is one piece."""
    return _crossings_loop(_rows(x0, y0, dx, dy), _rows(edges.reshape(-1, 4)))


@compiled
def _point_segment_d2(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    ex = bx - ax
    ey = by - ay
    length2 = ex * ex + ey * ey
    t = ((px - ax) * ex + (py - ay) * ey) / (length2 if length2 > 0.0 else 1.0)
    t = min(max(t, 0.0), 1.0)
    dx = ax + t * ex - px
    dy = ay + t * ey - py
    return dx * dx + dy * dy


@compiled
def _segment_segment_d(
    p0x: float,
    p0y: float,
    p1x: float,
    p1y: float,
    ax: float,
    ay: float,
    bx: float,
    by: float,
) -> float:
    dx, dy = p1x - p0x, p1y - p0y
    ex, ey = bx - ax, by - ay
    o1 = dx * (ay - p0y) - dy * (ax - p0x)
    o2 = dx * (by - p0y) - dy * (bx - p0x)
    o3 = ex * (p0y - ay) - ey * (p0x - ax)
    o4 = ex * (p1y - ay) - ey * (p1x - ax)
    if o1 * o2 < 0.0 and o3 * o4 < 0.0:
        return 0.0
    return math.sqrt(
        min(
            min(
                _point_segment_d2(p0x, p0y, ax, ay, bx, by),
                _point_segment_d2(p1x, p1y, ax, ay, bx, by),
            ),
            min(
                _point_segment_d2(ax, ay, p0x, p0y, p1x, p1y),
                _point_segment_d2(bx, by, p0x, p0y, p1x, p1y),
            ),
        )
    )


@compiled
def _point_segment_d2_loop(columns: FloatArray) -> FloatArray:
    out = np.empty(columns.shape[1])
    for k in range(len(out)):
        px, py, ax, ay, bx, by = columns[:, k]
        out[k] = _point_segment_d2(px, py, ax, ay, bx, by)
    return out


@compiled
def _segment_segment_d_loop(columns: FloatArray) -> FloatArray:
    out = np.empty(columns.shape[1])
    for k in range(len(out)):
        p0x, p0y, p1x, p1y, ax, ay, bx, by = columns[:, k]
        out[k] = _segment_segment_d(p0x, p0y, p1x, p1y, ax, ay, bx, by)
    return out


def _columns(arrays: tuple[FloatArray | float, ...]) -> tuple[FloatArray, tuple[int, ...]]:
    """The arrays broadcast together, as the rows of one array, and their shape."""
    shaped = np.broadcast_arrays(*(np.asarray(a, dtype=np.float64) for a in arrays))
    shape = shaped[0].shape
    return np.ascontiguousarray(np.stack([a.ravel() for a in shaped])), shape


def point_segment_dist2(
    px: FloatArray | float,
    py: FloatArray | float,
    ax: FloatArray | float,
    ay: FloatArray | float,
    bx: FloatArray | float,
    by: FloatArray | float,
) -> FloatArray:
    """Squared distances from points to segments ``a-b`` (arrays broadcast together)."""
    columns, shape = _columns((px, py, ax, ay, bx, by))
    return _point_segment_d2_loop(columns).reshape(shape)


def segment_segment_dist(
    p0x: FloatArray | float,
    p0y: FloatArray | float,
    p1x: FloatArray | float,
    p1y: FloatArray | float,
    ax: FloatArray | float,
    ay: FloatArray | float,
    bx: FloatArray | float,
    by: FloatArray | float,
) -> FloatArray:
    """Distances between segments ``p0-p1`` and ``a-b``, 0 where they cross (arrays
    broadcast together)."""
    columns, shape = _columns((p0x, p0y, p1x, p1y, ax, ay, bx, by))
    return _segment_segment_d_loop(columns).reshape(shape)


@compiled
def _segments_meet_loop(
    segments: FloatArray, discs: FloatArray, edges: FloatArray, radius: float, tolerance: float
) -> BoolArray:
    disc_r = discs[:, 2]
    meet = np.zeros(len(segments), dtype=np.bool_)
    for k in range(len(segments)):
        x0, y0, x1, y1 = segments[k, 0], segments[k, 1], segments[k, 2], segments[k, 3]
        lo_x, hi_x, lo_y, hi_y = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
        for d in range(len(discs)):
            cx, cy, r = discs[d, 0], discs[d, 1], disc_r[d]
            limit = r - tolerance
            if (
                limit > 0.0
                and lo_x <= cx + r
                and hi_x >= cx - r
                and lo_y <= cy + r
                and hi_y >= cy - r
                and _point_segment_d2(cx, cy, x0, y0, x1, y1) < limit * limit
            ):
                meet[k] = True
                break
        if meet[k]:
            continue
        for j in range(len(edges)):
            ax, ay, bx, by = edges[j, 0], edges[j, 1], edges[j, 2], edges[j, 3]
            if (
                lo_x <= max(ax, bx) + radius
                and hi_x >= min(ax, bx) - radius
                and lo_y <= max(ay, by) + radius
                and hi_y >= min(ay, by) - radius
                and _segment_segment_d(x0, y0, x1, y1, ax, ay, bx, by) < radius - tolerance
            ):
                meet[k] = True
                break
    return meet


def segments_meet(
    x0: FloatArray,
    y0: FloatArray,
    x1: FloatArray,
    y1: FloatArray,
    discs: FloatArray,
    disc_r: FloatArray,
    edges: FloatArray,
    radius: float,
    tolerance: float,
) -> BoolArray:
    """Whether segments pass closer than ``r - tolerance`` to the centre of a disc
    (``(x, y)`` rows, radii ``disc_r``) or than ``radius - tolerance`` to an edge
    (``(ax, ay, bx, by)`` rows)."""
    return _segments_meet_loop(
        _rows(x0, y0, x1, y1),
        _rows(discs.reshape(-1, 2), disc_r),
        _rows(edges.reshape(-1, 4)),
        float(radius),
        float(tolerance),
    )


@compiled
def _points_clear_loop(
    points: FloatArray, discs: FloatArray, edges: FloatArray, least: float
) -> BoolArray:
    disc_least = discs[:, 2]
    clear = np.ones(len(points), dtype=np.bool_)
    edge_pad = abs(least) + 1.0
    for k in range(len(points)):
        px, py = points[k, 0], points[k, 1]
        for d in range(len(discs)):
            cx, cy = discs[d, 0], discs[d, 1]
            pad = abs(disc_least[d]) + 1.0
            if (
                cx - pad <= px <= cx + pad
                and cy - pad <= py <= cy + pad
                and not math.hypot(px - cx, py - cy) >= disc_least[d]
            ):
                clear[k] = False
                break
        if not clear[k]:
            continue
        for j in range(len(edges)):
            ax, ay, bx, by = edges[j, 0], edges[j, 1], edges[j, 2], edges[j, 3]
            if (
                min(ax, bx) - edge_pad <= px <= max(ax, bx) + edge_pad
                and min(ay, by) - edge_pad <= py <= max(ay, by) + edge_pad
                and not _point_segment_d2(px, py, ax, ay, bx, by) >= least * least
            ):
                clear[k] = False
                break
    return clear


def points_clear(
    x: FloatArray,
    y: FloatArray,
    discs: FloatArray,
    disc_least: FloatArray,
    edges: FloatArray,
    least: float,
) -> BoolArray:
    """Whether points are at least ``disc_least`` from the centre of every disc
    (``(x, y)`` rows) and ``least`` from every edge (``(ax, ay, bx, by)`` rows)."""
    return _points_clear_loop(
        _rows(x, y),
        _rows(discs.reshape(-1, 2), disc_least),
        _rows(edges.reshape(-1, 4)),
        float(least),
    )


_TWO_PI = 2.0 * math.pi


@compiled
def interp(x: float, knots: FloatArray, values: FloatArray) -> float:
    """``np.interp(x, knots, values)`` for one x, step for step as numpy does it."""
    last = len(knots) - 1
    if last < 0:
        return math.nan
    if last == 0:  # numpy's one knot: its value, wherever x is (NaN too)
        return float(values[0])
    if np.isnan(x):
        return x
    if x > knots[last]:
        return float(values[last])
    if x < knots[0]:
        return float(values[0])
    lo, hi = 0, last + 1
    while lo < hi:  # the last knot at or before x
        mid = lo + ((hi - lo) >> 1)
        if x >= knots[mid]:
            lo = mid + 1
        else:
            hi = mid
    j = lo - 1
    if j == last or knots[j] == x:
        return float(values[j])
    slope = (values[j + 1] - values[j]) / (knots[j + 1] - knots[j])
    found = float(slope * (x - knots[j]) + values[j])
    if np.isnan(found):
        found = float(slope * (x - knots[j + 1]) + values[j + 1])
        if np.isnan(found) and values[j] == values[j + 1]:
            found = float(values[j])
    return found


@compiled
def _turned(angle: float, knots: FloatArray, cumulative: FloatArray) -> float:
    """The weighted angle from the first knot to ``angle``, whole turns included."""
    if len(knots) == 0:
        return math.nan
    shifted = angle - knots[0]
    turns = np.floor(shifted / _TWO_PI)
    rest = shifted - turns * _TWO_PI
    return float(turns * cumulative[-1] + interp(rest + knots[0], knots, cumulative))


@compiled
def _arc_weight(
    begin: float, delta: float, const: float, knots: FloatArray, cumulative: FloatArray
) -> float:
    if not np.isnan(const):
        return const * delta
    return _turned(begin + delta, knots, cumulative) - _turned(begin, knots, cumulative)


@compiled
def _arc_weights_loop(
    begin: FloatArray, delta: FloatArray, const: float, knots: FloatArray, cumulative: FloatArray
) -> FloatArray:
    out = np.empty(len(delta))
    for k in range(len(delta)):
        out[k] = _arc_weight(begin[k], delta[k], const, knots, cumulative)
    return out


def arc_weights(
    begin: FloatArray | float,
    delta: FloatArray,
    const: float,
    knots: FloatArray,
    cumulative: FloatArray,
) -> FloatArray:
    """Weighted angles of counter-clockwise arcs from ``begin`` over ``delta``: ``const``
    times the angle where the weight is the same all round (else NaN), otherwise the
    difference of the weighted angle ``cumulative`` reaches at each ``knots`` angle,
    interpolated and counted whole turns over."""
    delta = np.ascontiguousarray(delta, dtype=np.float64).ravel()
    begin = np.ascontiguousarray(np.broadcast_to(begin, delta.shape), dtype=np.float64)
    return _arc_weights_loop(
        begin,
        delta,
        float(const),
        np.ascontiguousarray(knots, dtype=np.float64),
        np.ascontiguousarray(cumulative, dtype=np.float64),
    )


@compiled
def expansion(
    reached: FloatArray,
    edges: FloatArray,
    edge_run: IntArray,
    edge_point: IntArray,
    node: FloatArray,
    node_run: int,
    knots: FloatArray,
    cumulative: FloatArray,
    seen: BoolArray,
    settled: BoolArray,
    point_cost: FloatArray,
) -> tuple[IntArray, FloatArray, FloatArray]:
    """The edges out of a search node worth following, the cost at their far end and the
    turn along the node's circle before each (`arbitre.rules.pathing.graph._successors`
    says which)."""
    cost_so_far, bound, toward, goal_x, goal_y = (
        reached[0],
        reached[1],
        reached[2],
        reached[3],
        reached[4],
    )
    on_circle, wind, full, tol, rho, phi, off, const = (
        node[0],
        node[1],
        node[2],
        node[3],
        node[4],
        node[5],
        node[6],
        node[7],
    )
    chosen = np.empty(len(edges), dtype=np.intp)
    totals = np.empty(len(edges))
    turns = np.empty(len(edges))
    count = 0
    for k in range(len(edges)):
        cost, phi1, off1, t2x, t2y = edges[k, 0], edges[k, 1], edges[k, 2], edges[k, 3], edges[k, 4]
        delta = 0.0
        arc = 0.0
        if on_circle > 0.0:
            if full > 0.0:
                delta = (wind * (phi1 - phi)) % _TWO_PI
                if delta > _TWO_PI - tol:
                    delta = 0.0
            else:
                delta = wind * (off1 - off)
                if edge_run[k] != node_run or not delta >= -tol:
                    continue
                delta = max(delta, 0.0)
            begin = phi if wind > 0.0 else phi - delta
            arc = rho * _arc_weight(begin, delta, const, knots, cumulative)
        total = cost_so_far + arc + cost
        estimate = total + math.hypot(t2x - goal_x, t2y - goal_y) if toward > 0.0 else total
        if not estimate <= bound:
            continue
        point = edge_point[k]
        if point >= 0 and seen[point] and (settled[point] or not total < point_cost[point] - 1e-12):
            continue
        chosen[count], totals[count], turns[count] = k, total, delta
        count += 1
    return chosen[:count].copy(), totals[:count].copy(), turns[:count].copy()


def warm() -> None:
    """Compile every loop now (or load it from the cache), not at the first question."""
    no = np.zeros(0)
    no_points, no_edges = np.zeros((0, 2)), np.zeros((0, 4))
    box_pairs(no, no, no, no, no, no, no, no)
    first_hits(no, no, no, no, no, no_points, no, no_edges, 1.0)
    crossings(no, no, no, no, no_edges)
    point_segment_dist2(no, no, no, no, no, no)
    segment_segment_dist(no, no, no, no, no, no, no, no)
    segments_meet(no, no, no, no, no_points, no, no_edges, 1.0, 0.0)
    points_clear(no, no, no_points, no, no_edges, 1.0)
    arc_weights(no, no, math.nan, np.zeros(1), np.zeros(1))
    no_index, no_flags = np.zeros(0, dtype=np.intp), np.zeros(0, dtype=bool)
    expansion(
        np.zeros(5),
        np.zeros((0, 5)),
        no_index,
        no_index,
        np.zeros(8),
        0,
        np.zeros(1),
        np.zeros(1),
        no_flags,
        no_flags,
        no,
    )
