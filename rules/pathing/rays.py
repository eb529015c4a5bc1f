"""Groups of rays and the rings they outline.

Fans, sweeps of tangent rays along circles and refracted strips; rays are added
halfway where an edge falls between neighbours.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from arbitre.rules.pathing.cast import cast_rays
from arbitre.rules.pathing.model import BoolArray, FloatArray, IntArray
from arbitre.rules.pathing.primitives import TWO_PI, empty_points
from arbitre.rules.pathing.scene import QueryScene

_CHORD_RAD: Final = 0.25
"""The widest angle a sweep's outline cuts across its circle in one chord."""


def _ring_steps(
    ox: FloatArray,
    oy: FloatArray,
    ux: FloatArray,
    uy: FloatArray,
    length: FloatArray,
    owner: IntArray,
    piece: IntArray,
    normal: FloatArray,
    touch_owner: IntArray,
    touch: FloatArray,
    nxt: IntArray,
    convex: BoolArray,
    budget: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, BoolArray]:
    """Ends of rays and the extra ring vertex between each ray and the next one.

    Neighbours cut by the same convex obstacle, or by the same disc or edge capsule
    of any obstacle, are joined directly: the chord lies inside it. Between a ray
    cut by an obstacle and a longer neighbour, the ring goes through the point where
    the neighbour touches that obstacle when it is tangent to it, else to where the
    neighbour meets the supporting line of the obstacle at the hit point (or where
    that line meets the budget circle), else (for an unknown hit) it steps in at the
    shorter length. Two neighbours cut by different pieces are joined through the
    corner of their supporting lines when it lies between them. Only an obstacle
    small enough to hide between two neighbouring rays can make the ring claim part
    of a shadow. Returns ends (x, y), extra vertices (x, y) and where one is needed.
    """
    length = np.maximum(length, 1e-4)
    ex = ox + length * ux
    ey = oy + length * uy
    ln = length[nxt]
    hit = owner != -1
    known = owner >= 0
    solid = known & convex[np.maximum(owner, 0)]
    same = ((owner == owner[nxt]) & solid) | ((piece == piece[nxt]) & (piece >= 0))
    up = (ln > length) & hit & ~same
    down = (ln < length) & hit[nxt] & ~same
    up_x, up_y = _step_point(
        ex, ey, normal, known, ox[nxt], oy[nxt], ux[nxt], uy[nxt], length, ln, budget[nxt]
    )
    down_x, down_y = _step_point(
        ex[nxt], ey[nxt], normal[nxt], known[nxt], ox, oy, ux, uy, ln, length, budget
    )
    up_touch = (touch_owner[nxt] == owner) & (touch[nxt] <= ln)
    down_touch = (touch_owner == owner[nxt]) & (touch <= length)
    up_at = np.where(up_touch, touch[nxt], 0.0)
    down_at = np.where(down_touch, touch, 0.0)
    up_x = np.where(up_touch, ox[nxt] + up_at * ux[nxt], up_x)
    up_y = np.where(up_touch, oy[nxt] + up_at * uy[nxt], up_y)
    down_x = np.where(down_touch, ox + down_at * ux, down_x)
    down_y = np.where(down_touch, oy + down_at * uy, down_y)
    mx = np.where(up, up_x, np.where(down, down_x, ex))
    my = np.where(up, up_y, np.where(down, down_y, ey))
    cx, cy, corner = _corner(ox, oy, ux, uy, ex, ey, normal, nxt)
    corner &= known & known[nxt] & ~same
    mx = np.where(corner, cx, mx)
    my = np.where(corner, cy, my)
    return ex, ey, mx, my, up | down | corner


def _corner(
    ox: FloatArray,
    oy: FloatArray,
    ux: FloatArray,
    uy: FloatArray,
    ex: FloatArray,
    ey: FloatArray,
    normal: FloatArray,
    nxt: IntArray,
) -> tuple[FloatArray, FloatArray, BoolArray]:
    """Meeting point of the supporting lines at two neighbouring hits, if between them."""
    a1, b1 = normal[:, 0], normal[:, 1]
    a2, b2 = a1[nxt], b1[nxt]
    c1 = a1 * ex + b1 * ey
    c2 = a2 * ex[nxt] + b2 * ey[nxt]
    det = a1 * b2 - a2 * b1
    safe = np.where(np.abs(det) > 1e-9, det, 1.0)
    cx = (c1 * b2 - c2 * b1) / safe
    cy = (a1 * c2 - a2 * c1) / safe
    turn = ux * uy[nxt] - uy * ux[nxt]
    drift = ux * (oy[nxt] - oy) - uy * (ox[nxt] - ox)
    orient = np.sign(np.where(np.abs(turn) > 1e-12, turn, drift))
    left = orient * (ux * (cy - oy) - uy * (cx - ox))
    right = orient * (ux[nxt] * (cy - oy[nxt]) - uy[nxt] * (cx - ox[nxt]))
    gap = np.hypot(ex[nxt] - ex, ey[nxt] - ey)
    reach = np.hypot(cx - ex, cy - ey) + np.hypot(cx - ex[nxt], cy - ey[nxt])
    ahead = (ux * (cx - ox) + uy * (cy - oy) > 0.0) & (
        ux[nxt] * (cx - ox[nxt]) + uy[nxt] * (cy - oy[nxt]) > 0.0
    )
    ok = (np.abs(det) > 1e-9) & (left >= -1e-9) & (right <= 1e-9) & ahead
    ok &= (reach <= 3.0 * gap + 1e-6) & (orient != 0.0)
    return cx, cy, ok


def _step_point(
    hx: FloatArray,
    hy: FloatArray,
    normal: FloatArray,
    known: BoolArray,
    ox: FloatArray,
    oy: FloatArray,
    ux: FloatArray,
    uy: FloatArray,
    short: FloatArray,
    long: FloatArray,
    budget: FloatArray,
) -> tuple[FloatArray, FloatArray]:
    """Where the ring steps from a longer ray towards a neighbour's hit ``h``.

    The obstacle hit lies behind its supporting line at ``h``. If the longer ray
    meets that line, step there; if the longer ray ran out of budget first, go to
    where the line meets the budget circle around the longer ray's origin; if it
    was cut otherwise, its end is in front of the line already. Unknown hits step
    in at the shorter length.
    """
    ahead = normal[:, 0] * (ox - hx) + normal[:, 1] * (oy - hy)
    closing = normal[:, 0] * ux + normal[:, 1] * uy
    with np.errstate(divide="ignore", invalid="ignore"):
        meet = np.where(closing < 0.0, ahead / -closing, np.inf)
    usable = known & (ahead >= -1e-9)
    at = np.where(usable, np.minimum(np.maximum(meet, 0.0), long), short)
    px = ox + at * ux
    py = oy + at * uy
    # the line meets the budget circle rather than the ray
    dx, dy = -normal[:, 1], normal[:, 0]
    wx, wy = hx - ox, hy - oy
    wd = wx * dx + wy * dy
    disc = wd * wd - (wx * wx + wy * wy) + budget * budget
    root = np.sqrt(np.maximum(disc, 0.0))
    ex, ey = ox + long * ux, oy + long * uy
    best_x, best_y = ex.copy(), ey.copy()
    best = np.full(len(ox), np.inf)
    for sign in (-1.0, 1.0):
        s = -wd + sign * root
        cx, cy = hx + s * dx, hy + s * dy
        gap = np.hypot(cx - ex, cy - ey)
        better = gap < best
        best = np.where(better, gap, best)
        best_x = np.where(better, cx, best_x)
        best_y = np.where(better, cy, best_y)
    circle = usable & (meet > long) & (long >= budget - 1e-9) & (disc >= 0.0)
    return np.where(circle, best_x, px), np.where(circle, best_y, py)


class Rays:
    """Rays to cast, in groups that each outline one polygon.

    A group is a closed fan (kind 0), a half fan (1), a sweep of tangent rays along
    a circle (2) or a strip of refracted rays from a boundary (3). Rays are kept in
    flat arrays sorted by group and by ``param``: the angle in a fan, the arc length
    along the circle in a sweep, a running position in a strip. Where an edge falls
    between neighbouring rays, rays are added halfway. Groups added after a cast join
    the rays already cast; every group is refined to the same depth.
    """

    def __init__(self) -> None:
        self.parts: list[
            tuple[int, FloatArray, FloatArray, FloatArray, FloatArray, IntArray, FloatArray]
        ] = []
        self.kinds: list[int] = []
        self.bases: list[FloatArray] = []
        self.circles: list[tuple[float, float, float, int, float]] = []
        self.kind = np.zeros(0, dtype=np.intp)
        self.base = empty_points()
        self.circle = np.zeros((0, 5))
        self.gid = np.zeros(0, dtype=np.intp)
        self.param = np.zeros(0)
        self.o = empty_points()
        self.u = empty_points()
        self.b = np.zeros(0)
        self.touch_owner = np.zeros(0, dtype=np.intp)
        self.touch = np.zeros(0)
        self.original = np.zeros(0, dtype=bool)
        self.done = np.zeros(0, dtype=bool)
        self.length = np.zeros(0)
        self.owner = np.zeros(0, dtype=np.intp)
        self.piece = np.zeros(0, dtype=np.intp)
        self.normal = empty_points()
        self.depth = np.zeros(0, dtype=np.intp)

    def add(
        self,
        kind: int,
        base: FloatArray,
        param: FloatArray,
        origins: FloatArray,
        directions: FloatArray,
        budgets: FloatArray,
        touch_owner: IntArray | None = None,
        touch: FloatArray | None = None,
        circle: tuple[float, float, float, int, float] | None = None,
    ) -> int:
        """Add a group; returns its number."""
        n = len(param)
        group = len(self.kinds)
        self.parts.append(
            (
                group,
                param,
                origins,
                directions,
                budgets,
                touch_owner if touch_owner is not None else np.full(n, -1, dtype=np.intp),
                touch if touch is not None else np.full(n, np.inf),
            )
        )
        self.kinds.append(kind)
        self.bases.append(np.asarray(base, dtype=np.float64).reshape(-1, 2)[0])
        self.circles.append(circle if circle is not None else (0.0, 0.0, 0.0, 0, 0.0))
        return group

    def _neighbours(self) -> IntArray:
        """Index of the next ray in the same group (the first for a closed fan's last
        ray, itself for the last ray of other groups)."""
        gid = self.gid
        n = len(gid)
        nxt = np.arange(1, n + 1, dtype=np.intp)
        if n == 0:
            return nxt
        change = gid[1:] != gid[:-1]
        last = np.concatenate([change, [True]])
        first = np.concatenate([[True], change])
        closed = self.kind[gid[last]] == 0
        nxt[last] = np.where(closed, np.nonzero(first)[0], np.nonzero(last)[0])
        return nxt

    def _split(self, levels: int) -> int:
        """Add rays halfway where an edge falls between neighbours, at most ``levels``
        times between the same two original rays; returns how many."""
        nxt = self._neighbours()
        k = np.nonzero(nxt != np.arange(len(nxt)))[0]
        j = nxt[k]
        hit = self.owner != -1
        length = self.length
        exact = (
            ~hit[j] & hit[k] & (self.touch_owner[j] == self.owner[k]) & (self.touch[j] <= length[j])
        )
        exact |= (
            ~hit[k] & hit[j] & (self.touch_owner[k] == self.owner[j]) & (self.touch[k] <= length[k])
        )
        one = (hit[k] != hit[j]) & ~exact
        two = hit[k] & hit[j] & (self.owner[k] != self.owner[j])
        # Between free rays, an edge of costly ground (or of the table) is where the
        # budget a ray falls short of jumps; along a sweep or a strip the budget itself
        # changes from ray to ray.
        short = self.b - length
        jump = ~hit[k] & ~hit[j] & (np.abs(short[k] - short[j]) > 0.5)
        # only neighbours with an edge between them, and not yet refined ``levels`` times
        depth = np.maximum(self.depth[k], self.depth[j])
        edge = np.nonzero((one | two | jump) & (depth < levels))[0]
        k, j, depth = k[edge], j[edge], depth[edge]
        far = np.maximum(length[k], length[j])
        kind = self.kind[self.gid[k]]
        fan = kind <= 1
        # take(), not fancy indexing: much faster on rows of two
        o_k, o_j = self.o.take(k, axis=0), self.o.take(j, axis=0)
        u_k, u_j = self.u.take(k, axis=0), self.u.take(j, axis=0)
        turn = np.arccos(np.clip(np.sum(u_k * u_j, axis=1), -1.0, 1.0))
        gap = np.where(
            fan,
            np.mod(self.param[j] - self.param[k], TWO_PI) * far,
            np.hypot(*(o_j - o_k).T) + turn * far,
        )
        need = gap > 0.02
        k, j, kind, fan, depth = k[need], j[need], kind[need], fan[need], depth[need]
        m = len(k)
        if m == 0:
            return 0
        group = self.gid[k]
        upper = np.where(
            fan & (self.param[j] < self.param[k]), self.param[j] + TWO_PI, self.param[j]
        )
        param = 0.5 * (self.param[k] + upper)
        start = self.param[np.searchsorted(self.gid, group)]
        wrapped = fan & (param >= start + TWO_PI)
        param = np.where(wrapped, param - TWO_PI, param)
        budgets = np.where(fan, self.b[k], 0.5 * (self.b[k] + self.b[j]))
        origins = 0.5 * (o_k[need] + o_j[need])
        directions = u_k[need] + u_j[need]
        directions /= np.maximum(np.hypot(*directions.T), 1e-12)[:, None]
        origins[fan] = self.base[group[fan]]
        directions[fan] = np.column_stack([np.cos(param[fan]), np.sin(param[fan])])
        sweep = kind == 2
        if np.any(sweep):
            cx, cy, rho, wind, phi0 = self.circle[group[sweep]].T
            angle = phi0 + wind * param[sweep]
            origins[sweep] = np.column_stack([cx + rho * np.cos(angle), cy + rho * np.sin(angle)])
            directions[sweep] = np.column_stack([-np.sin(angle) * wind, np.cos(angle) * wind])
        self.gid = np.concatenate([self.gid, group])
        self.param = np.concatenate([self.param, param])
        self.o = np.concatenate([self.o, origins])
        self.u = np.concatenate([self.u, directions])
        self.b = np.concatenate([self.b, budgets])
        self.touch_owner = np.concatenate([self.touch_owner, np.full(m, -1, np.intp)])
        self.touch = np.concatenate([self.touch, np.full(m, np.inf)])
        self.original = np.concatenate([self.original, np.zeros(m, dtype=bool)])
        self.done = np.concatenate([self.done, np.zeros(m, dtype=bool)])
        self.length = np.concatenate([self.length, np.zeros(m)])
        self.owner = np.concatenate([self.owner, np.full(m, -1, np.intp)])
        self.piece = np.concatenate([self.piece, np.full(m, -1, np.intp)])
        self.normal = np.concatenate([self.normal, np.zeros((m, 2))])
        self.depth = np.concatenate([self.depth, depth + 1])
        count = len(self.gid) - m
        if np.any(wrapped):
            order = np.lexsort((self.param, self.gid))
        else:
            # each new ray lies between ray k and the next: right after k in (group, param) order
            order = np.insert(np.arange(count), k + 1, np.arange(count, count + m))
        # take(), not fancy indexing: much faster on rows of two
        for name in (
            "gid",
            "param",
            "o",
            "u",
            "b",
            "touch_owner",
            "touch",
            "original",
            "done",
            "length",
            "owner",
            "piece",
            "normal",
            "depth",
        ):
            setattr(self, name, getattr(self, name).take(order, axis=0))
        return m

    def _gather(self) -> None:
        """Append the groups added since the last cast to the flat arrays, not cast yet."""
        if not self.parts:
            return
        count = sum(len(p[1]) for p in self.parts)
        self.kind = np.array(self.kinds, dtype=np.intp)
        self.base = np.array(self.bases).reshape(-1, 2)
        self.circle = np.array(self.circles, dtype=np.float64).reshape(-1, 5)
        groups = np.array([p[0] for p in self.parts], dtype=np.intp)
        self.gid = np.concatenate([self.gid, np.repeat(groups, [len(p[1]) for p in self.parts])])
        self.param = np.concatenate([self.param, *(p[1] for p in self.parts)])
        self.o = np.concatenate([self.o, *(p[2] for p in self.parts)])
        self.u = np.concatenate([self.u, *(p[3] for p in self.parts)])
        self.b = np.concatenate([self.b, *(p[4] for p in self.parts)])
        self.touch_owner = np.concatenate([self.touch_owner, *(p[5] for p in self.parts)])
        self.touch = np.concatenate([self.touch, *(p[6] for p in self.parts)])
        self.original = np.concatenate([self.original, np.ones(count, dtype=bool)])
        self.done = np.concatenate([self.done, np.zeros(count, dtype=bool)])
        self.length = np.concatenate([self.length, np.zeros(count)])
        self.owner = np.concatenate([self.owner, np.full(count, -1, dtype=np.intp)])
        self.piece = np.concatenate([self.piece, np.full(count, -1, dtype=np.intp)])
        self.normal = np.concatenate([self.normal, np.zeros((count, 2))])
        self.depth = np.concatenate([self.depth, np.zeros(count, dtype=np.intp)])
        self.parts = []

    def cast(self, scene: QueryScene) -> None:
        """Cast the rays not cast yet (none are added halfway)."""
        self._gather()
        todo = np.nonzero(~self.done)[0]
        if len(todo) == 0:
            return
        length, _, owner, normal, piece = cast_rays(
            scene,
            self.o[todo, 0],
            self.o[todo, 1],
            self.u[todo, 0],
            self.u[todo, 1],
            self.b[todo],
        )
        self.length[todo] = length
        self.owner[todo] = owner
        self.normal[todo] = normal
        self.piece[todo] = piece
        self.done[todo] = True

    def polygons(self, scene: QueryScene, levels: int = 6) -> list[FloatArray]:
        """Cast all rays, refining each group up to ``levels`` times, and return the rings."""
        self.cast(scene)
        if len(self.gid) == 0:
            return []
        while self._split(levels):
            self.cast(scene)
        nxt = self._neighbours()
        ex, ey, mx, my, step = _ring_steps(
            self.o[:, 0],
            self.o[:, 1],
            self.u[:, 0],
            self.u[:, 1],
            self.length,
            self.owner,
            self.piece,
            self.normal,
            self.touch_owner,
            self.touch,
            nxt,
            scene.convex,
            self.b,
        )
        ends = np.empty((2 * len(self.gid), 2))
        ends[0::2, 0], ends[0::2, 1] = ex, ey
        ends[1::2, 0], ends[1::2, 1] = mx, my
        keep = np.ones(len(ends), dtype=bool)
        keep[1::2] = step & (nxt != np.arange(len(nxt)))
        bounds = np.searchsorted(self.gid, np.arange(len(self.kinds) + 1))
        inner = self._sweep_chords(bounds)
        rings: list[FloatArray] = []
        for group, kind in enumerate(self.kinds):
            lo, hi = int(bounds[group]), int(bounds[group + 1])
            if hi - lo < 2:
                continue
            outline = ends[2 * lo : 2 * hi][keep[2 * lo : 2 * hi]]
            if kind == 0:
                ring = outline
            elif kind == 1:
                ring = np.vstack([self.base[group][None, :], outline])
            elif kind == 2:
                ring = np.vstack([self.o[lo:hi][inner[lo:hi]], outline[::-1]])
            else:
                ring = np.vstack([self.o[lo:hi], outline[::-1]])
            if len(ring) >= 3:
                rings.append(ring)
        return rings

    def _sweep_chords(self, bounds: IntArray) -> BoolArray:
        """The origins a sweep's outline goes through on its circle: the first, the last and
        one every `_CHORD_RAD` between.

        The chords between them lie inside the circle, in the obstacle the circle grows:
        what they add to the outline is no free space, and the union has fewer vertices.
        """
        kept = np.ones(len(self.gid), dtype=bool)
        sweep = self.kind[self.gid] == 2
        if not np.any(sweep):
            return kept
        step = np.floor(self.param / _CHORD_RAD)
        kept[1:] = (step[1:] != step[:-1]) | (self.gid[1:] != self.gid[:-1])
        kept[np.maximum(bounds[1:] - 1, 0)] = True
        kept |= ~sweep
        return kept

    def group_rays(self, group: int) -> tuple[FloatArray, IntArray]:
        """Lengths and obstacle hits of a group's original rays (after casting)."""
        mask = (self.gid == group) & self.original
        return self.length[mask], self.owner[mask]
