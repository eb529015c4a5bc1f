"""Routes read back from the search tree.

A route is cut into legs between point stops; each leg is evaluated as taut
tangent segments and arcs, and sampled into the output polyline.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from arbitre.rules.pathing.graph import SearchGraph
from arbitre.rules.pathing.model import FloatArray
from arbitre.rules.pathing.primitives import TWO_PI, polar_angle, tangent_segments
from arbitre.rules.pathing.scene import QueryScene

_OUTPUT_ARC_STEP: Final = math.radians(2.0)


@dataclass(frozen=True, slots=True)
class Stop:
    """A point of a route (start, goal, boundary sample) or a circle it wraps around."""

    circle: int  # -1 for a point
    wind: int
    x: float
    y: float
    point: int  # scene point index, -1 for circles and inserted bends
    zone: int = -1  # for a bend on a region boundary: scene zone, ring and arc length
    ring: int = -1
    param: float = 0.0


@dataclass(frozen=True, slots=True)
class Leg:
    """Evaluated route between two consecutive points."""

    cost: float
    length: float
    pieces: tuple[tuple[float, ...], ...]  # (0, x0, y0, x1, y1) or (1, circle, wind, phi, delta)


def _chain(graph: SearchGraph, node: int) -> list[int]:
    """Nodes of the search tree from the start to ``node``."""
    chain: list[int] = []
    while node >= 0:
        chain.append(node)
        node = graph.parent[node]
    chain.reverse()
    return chain


def route_stops(graph: SearchGraph, node: int) -> list[Stop]:
    """Stops from the start to ``node``."""
    chain = _chain(graph, node)
    scene = graph.scene
    stops: list[Stop] = []
    for n in chain:
        point = graph.point[n]
        if graph.circle[n] < 0 and scene.first_boundary <= point < scene.end_boundary:
            zone, ring, param, _ = scene.boundary_info[point - scene.first_boundary]
            stops.append(
                Stop(-1, 0, graph.x[n], graph.y[n], point, int(zone), int(ring), float(param))
            )
        else:
            stops.append(Stop(graph.circle[n], graph.wind[n], graph.x[n], graph.y[n], point))
    return stops


def taut_leg(
    scene: QueryScene, a: tuple[float, float], wraps: Sequence[Stop], b: tuple[float, float]
) -> Leg | None:
    """Cost, length and pieces of the taut route ``a -> wraps -> b``, None if not free."""
    discs = [(a[0], a[1], 0.0, 0)]
    for stop in wraps:
        ox, oy = scene.circles.xy[stop.circle]
        discs.append((float(ox), float(oy), float(scene.circles.rho[stop.circle]), stop.wind))
    discs.append((b[0], b[1], 0.0, 0))
    count = len(discs) - 1
    x0 = np.empty(count)
    y0 = np.empty(count)
    x1 = np.empty(count)
    y1 = np.empty(count)
    for k in range(count):
        ox, oy, rho, wind = discs[k]
        tx, ty, trho, twind = discs[k + 1]
        t1x, t1y, t2x, t2y, ok = tangent_segments(
            ox,
            oy,
            rho,
            float(wind),
            np.array([tx]),
            np.array([ty]),
            np.array([trho]),
            np.array([float(twind)]),
        )
        if not ok[0]:
            if rho == 0.0 and trho == 0.0 and math.hypot(tx - ox, ty - oy) <= 1e-9:
                t1x, t1y, t2x, t2y = (
                    np.array([ox]),
                    np.array([oy]),
                    np.array([tx]),
                    np.array([ty]),
                )
            else:
                return None
        x0[k], y0[k], x1[k], y1[k] = t1x[0], t1y[0], t2x[0], t2y[0]
    pieces: list[tuple[float, ...]] = []
    cost = 0.0
    length = 0.0
    for m, stop in enumerate(wraps):
        c = stop.circle
        ox, oy = scene.circles.xy[c]
        arrive = polar_angle(np.array([x1[m] - ox]), np.array([y1[m] - oy]))
        leave = polar_angle(np.array([x0[m + 1] - ox]), np.array([y0[m + 1] - oy]))
        run, off = scene.run_lookup(
            np.array([c, c], dtype=np.intp), np.concatenate([arrive, leave])
        )
        tol = float(scene.circles.ang_tol[c])
        if run[0] < 0 or run[1] < 0:
            return None
        if scene.circles.run_full[c]:
            delta = float(np.mod(stop.wind * (leave[0] - arrive[0]), TWO_PI))
            if delta > TWO_PI - tol:
                delta = 0.0
        else:
            if run[0] != run[1]:
                return None
            delta = stop.wind * float(off[1] - off[0])
            if delta < -tol:
                return None
            delta = max(delta, 0.0)
        begin = float(arrive[0]) if stop.wind > 0 else float(arrive[0]) - delta
        rho = float(scene.circles.rho[c])
        cost += rho * float(scene.arc_weight(c, np.array([begin]), np.array([delta]))[0])
        length += rho * delta
        pieces.append((0.0, x0[m], y0[m], x1[m], y1[m]))
        pieces.append((1.0, float(c), float(stop.wind), float(arrive[0]), delta))
    pieces.append((0.0, x0[count - 1], y0[count - 1], x1[count - 1], y1[count - 1]))
    if np.any(scene.segments_blocked(x0, y0, x1, y1)):
        return None
    seg = np.hypot(x1 - x0, y1 - y0)
    cost += float(np.sum(scene.segments_cost(x0, y0, x1, y1, seg)))
    length += float(np.sum(seg))
    return Leg(cost, length, tuple(pieces))


def split_legs(stops: list[Stop]) -> list[tuple[int, list[Stop], int]]:
    """Legs between consecutive point stops: (index of a, wraps, index of b)."""
    legs: list[tuple[int, list[Stop], int]] = []
    last = 0
    wraps: list[Stop] = []
    for k in range(1, len(stops)):
        if stops[k].circle >= 0:
            wraps.append(stops[k])
        else:
            legs.append((last, wraps, k))
            last = k
            wraps = []
    return legs


def legs_polyline(scene: QueryScene, legs: list[Leg]) -> FloatArray:
    """Sampled polyline of evaluated legs."""
    out: list[tuple[float, float]] = []
    for leg in legs:
        for piece in leg.pieces:
            if piece[0] == 0.0:
                out.append((piece[1], piece[2]))
                out.append((piece[3], piece[4]))
            else:
                c = int(piece[1])
                wind = piece[2]
                phi = piece[3]
                delta = piece[4]
                steps = max(1, math.ceil(delta / _OUTPUT_ARC_STEP))
                ox, oy = scene.circles.xy[c]
                rho = float(scene.circles.rho[c])
                for k in range(steps + 1):
                    a = phi + wind * delta * k / steps
                    out.append((float(ox) + rho * math.cos(a), float(oy) + rho * math.sin(a)))
    array = np.array(out, dtype=np.float64).reshape(-1, 2)
    if len(array) > 1:
        keep = np.concatenate([[True], np.any(np.abs(np.diff(array, axis=0)) > 1e-9, axis=1)])
        array = array[keep]
    return array


def legs_from_search(scene: QueryScene, graph: SearchGraph, target: int) -> list[Leg]:
    """Pieces straight from the search tree (used if re-evaluation fails)."""
    chain = _chain(graph, target)
    pieces: list[tuple[float, ...]] = []
    length = 0.0
    for prev, node in zip(chain[:-1], chain[1:], strict=True):
        via = graph.via[node]
        assert via is not None
        delta, t1x, t1y, t2x, t2y, _ = via
        c = graph.circle[prev]
        if c >= 0 and delta > 0.0:
            pieces.append((1.0, float(c), float(graph.wind[prev]), graph.phi[prev], delta))
            length += float(scene.circles.rho[c]) * delta
        pieces.append((0.0, t1x, t1y, t2x, t2y))
        length += math.hypot(t2x - t1x, t2y - t1y)
    return [Leg(graph.g[target], length, tuple(pieces))]
