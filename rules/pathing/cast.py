"""Rays cast through a scene.

How far each ray goes before an obstacle, the table edge or its budget stops it,
and what stopped it.
"""

from __future__ import annotations

import numpy as np

from arbitre.rules.pathing.kernels import crossings, first_hits
from arbitre.rules.pathing.model import TOLERANCE_MM, BoolArray, FloatArray, IntArray
from arbitre.rules.pathing.scene import QueryScene


def cast_rays(
    scene: QueryScene,
    ox: FloatArray,
    oy: FloatArray,
    ux: FloatArray,
    uy: FloatArray,
    budget: FloatArray,
) -> tuple[FloatArray, BoolArray, IntArray, FloatArray, IntArray]:
    """Length of rays until an obstacle, the table edge or the budget.

    Also returns whether an obstacle cut each ray, which one (-1 none, -2 unknown),
    the obstacle's outward unit normal at the hit point, shape (R, 2), and the
    convex piece hit (a disc, or the capsule around one edge; -1 none).
    """
    reach = np.maximum(budget, 0.0)
    xmin, ymin, xmax, ymax = scene.rect
    with np.errstate(divide="ignore", invalid="ignore"):
        tx = np.where(ux > 0, (xmax - ox) / ux, np.where(ux < 0, (xmin - ox) / ux, np.inf))
        ty = np.where(uy > 0, (ymax - oy) / uy, np.where(uy < 0, (ymin - oy) / uy, np.inf))
    stop = np.minimum(reach, np.maximum(np.minimum(tx, ty), 0.0))
    hit_at, hit_piece, normal = first_hits(
        ox,
        oy,
        ux,
        uy,
        stop,
        scene.disc_xy,
        scene.disc_rho - TOLERANCE_MM,
        scene.edges,
        scene.radius - TOLERANCE_MM,
    )
    owners = np.concatenate([scene.disc_owner, scene.edge_owner, [-1]])
    hit_owner = owners[hit_piece]
    if len(scene.raw_edges) and len(scene.solids):
        e = scene.raw_edges
        dx = stop * ux
        dy = stop * uy
        rows, ta, tb = crossings(ox, oy, dx, dy, e)
        mid = (ta + tb) / 2.0
        inside = scene.inside_solids(ox[rows] + mid * dx[rows], oy[rows] + mid * dy[rows])
        inside &= (tb - ta) * stop[rows] > TOLERANCE_MM
        flat = np.zeros(int(inside.sum()))
        unknown = np.full(len(flat), -2, dtype=np.intp)
        _closest(
            hit_at,
            hit_owner,
            hit_piece,
            normal,
            rows[inside],
            ta[inside] * stop[rows[inside]],
            unknown,
            unknown,
            flat,
            flat,
        )
    obstacle = hit_at < stop
    stop = np.minimum(stop, hit_at)
    if scene.zones:
        stop = np.minimum(stop, _budget_cut(scene, ox, oy, ux, uy, stop, reach))
        obstacle &= hit_at <= stop
    return (
        stop,
        obstacle,
        np.where(obstacle, hit_owner, -1),
        normal,
        np.where(obstacle, hit_piece, -1),
    )


def _closest(
    hit_at: FloatArray,
    hit_owner: IntArray,
    hit_piece: IntArray,
    normal: FloatArray,
    rows: IntArray,
    t: FloatArray,
    owner: IntArray,
    piece: IntArray,
    nx: FloatArray,
    ny: FloatArray,
) -> None:
    """Keep, per ray, the nearest hit, its obstacle, the piece hit and its normal.

    ``rows`` are ascending (pairs from `box_pairs`). Of a ray's nearest hits the first
    is kept; hits at NaN are never kept.
    """
    if len(rows) == 0:
        return
    start = np.flatnonzero(np.concatenate([[True], rows[1:] != rows[:-1]]))
    run = np.repeat(np.arange(len(start)), np.diff(np.append(start, len(rows))))
    nearest = np.flatnonzero(t == np.fmin.reduceat(t, start)[run])
    first = np.ones(len(nearest), dtype=bool)
    first[1:] = run[nearest[1:]] != run[nearest[:-1]]
    first = nearest[first]
    rows, t, owner, piece = rows[first], t[first], owner[first], piece[first]
    nx, ny = nx[first], ny[first]
    better = t < hit_at[rows]
    hit_at[rows[better]] = t[better]
    hit_owner[rows[better]] = owner[better]
    hit_piece[rows[better]] = piece[better]
    normal[rows[better], 0] = nx[better]
    normal[rows[better], 1] = ny[better]


def _budget_cut(
    scene: QueryScene,
    ox: FloatArray,
    oy: FloatArray,
    ux: FloatArray,
    uy: FloatArray,
    length: FloatArray,
    budget: FloatArray,
) -> FloatArray:
    """Distance along rays at which the weighted cost reaches the budget."""
    out = np.full(len(ox), np.inf)
    ex = ox + length * ux
    ey = oy + length * uy
    lo_x, hi_x = np.minimum(ox, ex), np.maximum(ox, ex)
    lo_y, hi_y = np.minimum(oy, ey), np.maximum(oy, ey)
    touched = np.zeros(len(ox), dtype=bool)
    for _, _, _, bbox in scene.zones:
        touched |= (hi_x >= bbox[0]) & (lo_x <= bbox[2]) & (hi_y >= bbox[1]) & (lo_y <= bbox[3])
    # A ray that costs no more than its budget even at the heaviest rate is not cut.
    heaviest = 1.0 + sum(extra for extra, _, _, _ in scene.zones)
    cand = np.nonzero(touched & (length > 0.0) & (length * heaviest > budget))[0]
    if len(cand) == 0:
        return out
    edges = np.concatenate([z[2] for z in scene.zones])
    dx = length[cand] * ux[cand]
    dy = length[cand] * uy[cand]
    rows, ta, tb = crossings(ox[cand], oy[cand], dx, dy, edges)
    mid = (ta + tb) / 2.0
    weight = scene.piece_weights(
        ox[cand][rows] + mid * dx[rows],
        oy[cand][rows] + mid * dy[rows],
        ux[cand][rows],
        uy[cand][rows],
    )
    seg_len = length[cand][rows]
    piece = (tb - ta) * seg_len
    cost = piece * weight
    # cumulative cost within each row (the pieces come grouped by row and ordered by ta)
    cum = np.cumsum(cost)
    first = np.searchsorted(rows, rows)
    before = cum - cost - np.where(first > 0, cum[first - 1], 0.0)
    rem = budget[cand][rows] - before
    inside = (rem >= 0.0) & (rem < cost)
    t_cut = ta * seg_len + rem / weight
    np.minimum.at(out, cand[rows[inside]], t_cut[inside])
    return out
