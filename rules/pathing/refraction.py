"""Bends on costly-region boundaries, slid along them to lower the cost.

This recovers the refraction of the optimal path where it crosses from one cost
per mm to another.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from arbitre.rules.pathing.legs import Leg, Stop, split_legs, taut_leg
from arbitre.rules.pathing.model import TOLERANCE_MM
from arbitre.rules.pathing.prepare import Zone, ring_point
from arbitre.rules.pathing.primitives import TWO_PI
from arbitre.rules.pathing.scene import QueryScene

_REFINE_STOP_MM: Final = 1e-4


_BIG: Final = 1e18


@dataclass(frozen=True, slots=True)
class _Side:
    """What a bend on a region boundary connects to on one side.

    Either a fixed point, or a circle wrapped with a fixed angle at its far end
    (the arrival angle on the previous side, the departure angle on the next side).
    """

    x: float
    y: float
    circle: int  # -1 for a fixed point
    wind: int
    phi: float
    run: int
    offset: float


def _side(
    scene: QueryScene, leg: Leg, wraps: Sequence[Stop], end: tuple[float, float], before: bool
) -> _Side:
    """The fixed context of a bend from an evaluated leg."""
    if not wraps:
        return _Side(end[0], end[1], -1, 0, 0.0, 0, 0.0)
    arcs = [piece for piece in leg.pieces if piece[0] == 1.0]
    piece = arcs[-1] if before else arcs[0]
    circle = int(piece[1])
    wind = int(piece[2])
    phi = piece[3] if before else piece[3] + wind * piece[4]
    phi = phi % TWO_PI
    run, offset = scene.run_lookup(np.array([circle], dtype=np.intp), np.array([phi]))
    ox, oy = scene.circles.xy[circle]
    return _Side(float(ox), float(oy), circle, wind, phi, int(run[0]), float(offset[0]))


def _tangent_point(
    ox: float, oy: float, rho: float, wind: int, px: float, py: float, leaving: bool
) -> tuple[float, float] | None:
    """Tangent point on a circle for a segment to (or from) a point."""
    dx, dy = px - ox, py - oy
    dist = math.hypot(dx, dy)
    if dist < rho - TOLERANCE_MM or dist <= 1e-9:
        return None
    q = min(1.0, max(-1.0, (-wind * rho if leaving else wind * rho) / dist))
    if not leaving:
        dx, dy = -dx, -dy
    s = math.sqrt(1.0 - q * q)
    ux, uy = dx / dist, dy / dist
    nx, ny = q * ux - s * uy, q * uy + s * ux
    return ox - wind * rho * nx, oy - wind * rho * ny


def _side_cost(
    scene: QueryScene, side: _Side, px: float, py: float, before: bool
) -> tuple[float, float, float, float, float] | None:
    """Arc cost on the side's circle and the segment between it and the bend point."""
    if side.circle < 0:
        if before:
            return 0.0, side.x, side.y, px, py
        return 0.0, px, py, side.x, side.y
    c = side.circle
    rho = float(scene.circles.rho[c])
    touch = _tangent_point(side.x, side.y, rho, side.wind, px, py, before)
    if touch is None:
        return None
    phi = math.atan2(touch[1] - side.y, touch[0] - side.x) % TWO_PI
    tol = float(scene.circles.ang_tol[c])
    if scene.circles.run_full[c]:
        delta = side.wind * (phi - side.phi) if before else side.wind * (side.phi - phi)
        delta %= TWO_PI
        if delta > TWO_PI - tol:
            delta = 0.0
    else:
        offset = (phi - float(scene.circles.run_start[c, side.run])) % TWO_PI
        if offset > TWO_PI - tol:
            offset -= TWO_PI
        if offset > float(scene.circles.run_len[c, side.run]) + tol:
            return None
        delta = side.wind * (offset - side.offset) if before else side.wind * (side.offset - offset)
        if delta < -tol:
            return None
        delta = max(delta, 0.0)
    begin = side.phi if before else phi
    if side.wind < 0:
        begin -= delta
    const = float(scene.circles.weight_const[c])
    if math.isnan(const):
        arc = rho * float(scene.arc_weight(c, np.array([begin]), np.array([delta]))[0])
    else:
        arc = rho * const * delta
    if before:
        return arc, touch[0], touch[1], px, py
    return arc, px, py, touch[0], touch[1]


def _bend_cost(scene: QueryScene, first: _Side, second: _Side, px: float, py: float) -> float:
    """Cost of the two pieces meeting at a bend point (without collision checks)."""
    a = _side_cost(scene, first, px, py, True)
    b = _side_cost(scene, second, px, py, False)
    if a is None or b is None:
        return _BIG
    x0 = np.array([a[1], b[1]])
    y0 = np.array([a[2], b[2]])
    x1 = np.array([a[3], b[3]])
    y1 = np.array([a[4], b[4]])
    length = np.hypot(x1 - x0, y1 - y0)
    return a[0] + b[0] + float(np.sum(scene.segments_cost(x0, y0, x1, y1, length)))


def _with_crossings(
    scene: QueryScene,
    stops: list[Stop],
    legs: list[tuple[int, list[Stop], int]],
    evaluated: list[Leg],
) -> list[Stop]:
    """Insert a bend wherever a straight piece crosses a costly-region boundary."""
    out: list[Stop] = [stops[0]]
    for (_, wraps, b), leg in zip(legs, evaluated, strict=True):
        segments = [piece for piece in leg.pieces if piece[0] == 0.0]
        for k, piece in enumerate(segments):
            _, x0, y0, x1, y1 = piece
            for t, zone, ring, param in _boundary_crossings(scene, x0, y0, x1, y1):
                out.append(
                    Stop(-1, 0, x0 + t * (x1 - x0), y0 + t * (y1 - y0), -1, zone, ring, param)
                )
            if k < len(wraps):
                out.append(wraps[k])
        out.append(stops[b])
    return out


def _boundary_crossings(
    scene: QueryScene, x0: float, y0: float, x1: float, y1: float
) -> list[tuple[float, int, int, float]]:
    """Proper crossings of a segment with region boundaries: (t, zone, ring, arc length)."""
    found: list[tuple[float, int, int, float]] = []
    dx, dy = x1 - x0, y1 - y0
    if math.hypot(dx, dy) < 1e-6:
        return found
    for index, (_, _, edges, bbox) in enumerate(scene.zones):
        if max(x0, x1) < bbox[0] or min(x0, x1) > bbox[2]:
            continue
        if max(y0, y1) < bbox[1] or min(y0, y1) > bbox[3]:
            continue
        ex = edges[:, 2] - edges[:, 0]
        ey = edges[:, 3] - edges[:, 1]
        denom = dx * ey - dy * ex
        wx = edges[:, 0] - x0
        wy = edges[:, 1] - y0
        good = np.abs(denom) > 1e-9 * math.hypot(dx, dy) * np.hypot(ex, ey)
        safe = np.where(good, denom, 1.0)
        t = (wx * ey - wy * ex) / safe
        u = (wx * dy - wy * dx) / safe
        good &= (t > 1e-9) & (t < 1.0 - 1e-9) & (u > 1e-9) & (u < 1.0 - 1e-9)
        ring, start = scene.zone_edges[index]
        for k in np.nonzero(good)[0]:
            length = math.hypot(float(ex[k]), float(ey[k]))
            found.append((float(t[k]), index, int(ring[k]), float(start[k] + u[k] * length)))
    found.sort()
    return found


class _BendObjective:
    """Cost of a bend at arc length ``s`` along a boundary ring, kept continuous.

    Where the bend cannot be reached tangentially (it lies inside a grown circle of
    its neighbours) or lies off the table, the cost is that of the last workable
    position towards ``s0`` plus a steep slope, so the minimiser settles on the edge of
    what is workable. The search for that edge takes the workable stretch to be one
    piece round ``s0``: where an edge leaves the table and comes back within reach,
    the bend stops at the first exit (a cost a little high, never too low).
    """

    def __init__(
        self, scene: QueryScene, first: _Side, second: _Side, zone: Zone, ring: int, s0: float
    ) -> None:
        self.scene = scene
        self.first = first
        self.second = second
        self.zone = zone
        self.ring = ring
        self.s0 = s0
        self.edges: dict[bool, tuple[float, float]] = {}

    def feasible(self, s: float) -> bool:
        """Whether the bend at ``s`` lies on the table and both neighbours reach it
        tangentially."""
        px, py = ring_point(self.zone, self.ring, s)
        x_lo, y_lo, x_hi, y_hi = self.scene.rect
        return (
            x_lo - TOLERANCE_MM <= px <= x_hi + TOLERANCE_MM
            and y_lo - TOLERANCE_MM <= py <= y_hi + TOLERANCE_MM
            and _side_cost(self.scene, self.first, px, py, True) is not None
            and _side_cost(self.scene, self.second, px, py, False) is not None
        )

    def cost(self, s: float) -> float:
        """Cost of the two pieces meeting at a reachable bend ``s``."""
        px, py = ring_point(self.zone, self.ring, s)
        return _bend_cost(self.scene, self.first, self.second, px, py)

    def __call__(self, s: float) -> float:
        if self.feasible(s):
            return self.cost(s)
        upward = s > self.s0
        edge = self.edges.get(upward)
        if edge is None:
            if not self.feasible(self.s0):
                return _BIG
            good, bad = self.s0, s
            while abs(bad - good) > 1e-9:
                middle = 0.5 * (good + bad)
                if self.feasible(middle):
                    good = middle
                else:
                    bad = middle
            edge = (good, self.cost(good))
            self.edges[upward] = edge
        return edge[1] + 1e3 * abs(s - edge[0])


def _eval_legs(
    scene: QueryScene, stops: list[Stop], legs: list[tuple[int, list[Stop], int]]
) -> list[Leg] | None:
    """Evaluate every leg of a route, None if one of them is not free."""
    evaluated: list[Leg] = []
    for a, wraps, b in legs:
        leg = taut_leg(scene, (stops[a].x, stops[a].y), wraps, (stops[b].x, stops[b].y))
        if leg is None:
            return None
        evaluated.append(leg)
    return evaluated


def refine_bends(scene: QueryScene, stops: list[Stop]) -> tuple[list[Stop], list[Leg]] | None:
    """Slide bends on costly-region boundaries along the boundary to lower the cost.

    Every point where the route meets a region boundary becomes a bend (the graph's
    boundary nodes, plus crossings of straight pieces), and each bend in turn is
    moved along its boundary by a bounded 1-D minimisation, until the total cost
    changes by less than ``_REFINE_STOP_MM``.
    """
    legs = split_legs(stops)
    evaluated = _eval_legs(scene, stops, legs)
    if evaluated is None:
        return None
    if scene.zones:
        crossed = _with_crossings(scene, stops, legs, evaluated)
        if len(crossed) > len(stops):
            stops = crossed
            legs = split_legs(stops)
            evaluated = _eval_legs(scene, stops, legs)
            if evaluated is None:
                return None
    points = [(s.x, s.y) for s in stops]
    movable = [m for m in range(1, len(legs)) if stops[legs[m][0]].zone >= 0]
    if not movable:
        return stops, evaluated
    params = {m: stops[legs[m][0]].param for m in movable}
    reach = 2.0 * scene.spacing
    # A bend is minimised again only once it or a neighbour has moved: otherwise the
    # same minimisation would find the same place again.
    stale = set(movable)
    for _ in range(50):
        before = sum(leg.cost for leg in evaluated)
        for m in movable:
            if m not in stale:
                continue
            stale.discard(m)
            index = legs[m][0]
            zone = scene.zone_ref[stops[index].zone]
            ring = stops[index].ring
            prev_a, prev_wraps, _ = legs[m - 1]
            _, next_wraps, next_b = legs[m]
            first = _side(scene, evaluated[m - 1], prev_wraps, points[prev_a], True)
            second = _side(scene, evaluated[m], next_wraps, points[next_b], False)

            s0 = params[m]
            local = _BendObjective(scene, first, second, zone, ring, s0)

            from scipy.optimize import minimize_scalar  # 0.4 s to import: only when needed

            result = minimize_scalar(
                local,
                bounds=(s0 - reach, s0 + reach),
                method="bounded",
                options={"xatol": 1e-3},
            )
            s1 = float(result.x)
            if float(result.fun) >= local(s0) - 1e-9:
                continue
            p = ring_point(zone, ring, s1)
            leg_a = taut_leg(scene, points[prev_a], prev_wraps, p)
            leg_b = taut_leg(scene, p, next_wraps, points[next_b])
            if leg_a is None or leg_b is None:
                continue
            if leg_a.cost + leg_b.cost < evaluated[m - 1].cost + evaluated[m].cost - 1e-9:
                params[m] = s1
                points[index] = p
                evaluated[m - 1] = leg_a
                evaluated[m] = leg_b
                stale.update((m - 1, m, m + 1))
        after = sum(leg.cost for leg in evaluated)
        if before - after < _REFINE_STOP_MM:
            break
    moved = [
        Stop(s.circle, s.wind, points[k][0], points[k][1], s.point, s.zone, s.ring, s.param)
        for k, s in enumerate(stops)
    ]
    return moved, evaluated
