"""The tangent visibility graph, built lazily while it is searched.

A* towards a goal, or Dijkstra (no goal) for reachable areas, over free tangent
segments and free arcs.
"""

from __future__ import annotations

import dataclasses
import functools
import heapq
import math
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np

from arbitre.rules.pathing.kernels import expansion
from arbitre.rules.pathing.model import BoolArray, Departures, FloatArray, IntArray
from arbitre.rules.pathing.primitives import polar_angle, tangent_segments
from arbitre.rules.pathing.scene import QueryScene

_AHEAD: Final = 48
"""How many queued nodes Dijkstra looks at to fan them out with the node it expands."""

_AHEAD_TO_GOAL: Final = 16
"""The same for A*, which stops at the goal and leaves more of its queue unexpanded."""


class _Open:
    """Tangent segments from several sources before the obstacle and cost tests, by
    source (``src``) and, within one, in the order of the targets."""

    def __init__(
        self,
        src: IntArray,
        target: IntArray,
        t1x: FloatArray,
        t1y: FloatArray,
        t2x: FloatArray,
        t2y: FloatArray,
        phi1: FloatArray,
        run1: IntArray,
        off1: FloatArray,
        phi2: FloatArray,
        run2: IntArray,
        off2: FloatArray,
    ) -> None:
        self.src = src
        self.target = target
        self.t1x, self.t1y, self.t2x, self.t2y = t1x, t1y, t2x, t2y
        self.phi1, self.run1, self.off1 = phi1, run1, off1
        self.phi2, self.run2, self.off2 = phi2, run2, off2


def _fan_open(
    scene: QueryScene,
    sources: list[tuple[float, float, float, int, int, int]],
    reach: float,
    settled: BoolArray | None = None,
    toward: tuple[float, float, float] | None = None,
) -> _Open:
    """Tangent segments from circles or points to every target they may reach.

    ``sources`` are ``(x, y, rho, wind, circle, point)``; each source's targets are
    tested apart from the others', pair by pair; the segments come by source and, for
    one, in the order of the targets.
    Points marked ``settled`` that neither belong to an obstacle nor are a corner of a
    costly zone are left out: the search cannot improve them, and reachable areas cast
    tangent rays only towards obstacles and corners. With ``toward`` (a goal's x, y and
    a bound on the cost), so are the segments that no path to the goal within the bound
    can take: it costs at least the straight distance from the start to the segment,
    the segment's length and the straight distance on to the goal.
    """
    targets = np.arange(len(scene.target_x))
    if settled is not None:
        point = scene.target_point
        at = np.maximum(point, 0)
        plain = (scene.point_owner[at] < 0) & ~scene.point_corner[at]
        targets = np.nonzero((point < 0) | ~(settled[at] & plain))[0]
    ox = np.array([source[0] for source in sources], dtype=np.float64)[:, None]
    oy = np.array([source[1] for source in sources], dtype=np.float64)[:, None]
    rho = np.array([source[2] for source in sources], dtype=np.float64)[:, None]
    wind = np.array([float(source[3]) for source in sources])[:, None]
    circle = np.array([source[4] for source in sources], dtype=np.intp)[:, None]
    point = np.array([source[5] for source in sources], dtype=np.intp)[:, None]
    tx, ty = scene.target_x[targets], scene.target_y[targets]
    trho = scene.target_rho[targets]
    twind = scene.target_wind[targets]
    ok = (scene.target_point[targets] != 0) & (
        (scene.target_circle[targets] != circle) | (circle < 0)
    )
    ok &= (scene.target_point[targets] != point) | (point < 0)
    if reach < math.inf:
        ok &= np.hypot(tx - ox, ty - oy) - trho - rho <= reach + 1e-6
    # tangents only between the pairs left, in the same order
    src, column = np.nonzero(ok)
    t1x, t1y, t2x, t2y, tangent = tangent_segments(
        ox[src, 0],
        oy[src, 0],
        rho[src, 0],
        wind[src, 0],
        tx[column],
        ty[column],
        trho[column],
        twind[column],
    )
    found = np.nonzero(tangent)[0]
    src, sel = src[found], targets[column[found]]
    t1x, t1y, t2x, t2y = t1x[found], t1y[found], t2x[found], t2y[found]
    if scene.nodes.kind in (1, 2):
        near = np.nonzero(scene.nodes.near(t2x, t2y, 0.0))[0]
        src, sel = src[near], sel[near]
        t1x, t1y, t2x, t2y = t1x[near], t1y[near], t2x[near], t2y[near]
    if toward is not None:
        gx, gy, bound = toward
        sx, sy = scene.points[0]
        least = (
            np.hypot(t1x - sx, t1y - sy)
            + np.hypot(t2x - t1x, t2y - t1y)
            + np.hypot(gx - t2x, gy - t2y)
        )
        fits = np.nonzero(least <= bound + 1e-6 * (1.0 + bound))[0]
        src, sel = src[fits], sel[fits]
        t1x, t1y, t2x, t2y = t1x[fits], t1y[fits], t2x[fits], t2y[fits]
    phi1 = polar_angle(t1x - ox[src, 0], t1y - oy[src, 0])
    run1 = np.zeros(len(sel), dtype=np.intp)
    off1 = np.zeros(len(sel))
    from_circle = circle[src, 0] >= 0
    if np.any(from_circle):
        run1[from_circle], off1[from_circle] = scene.run_lookup(
            circle[src, 0][from_circle], phi1[from_circle]
        )
    tc = scene.target_circle[sel]
    tp = scene.target_point[sel]
    is_c = tc >= 0
    phi2 = np.zeros(len(sel))
    run2 = np.zeros(len(sel), dtype=np.intp)
    off2 = np.zeros(len(sel))
    if np.any(is_c):
        cidx = tc[is_c]
        phi2[is_c] = polar_angle(
            t2x[is_c] - scene.circles.xy[cidx, 0], t2y[is_c] - scene.circles.xy[cidx, 1]
        )
        run2[is_c], off2[is_c] = scene.run_lookup(cidx, phi2[is_c])
    good = (run1 >= 0) & (run2 >= 0)
    good[~is_c] &= scene.point_free[tp[~is_c]]
    keep = np.nonzero(good)[0]
    return _Open(
        src[keep],
        sel[keep],
        t1x[keep],
        t1y[keep],
        t2x[keep],
        t2y[keep],
        phi1[keep],
        run1[keep],
        off1[keep],
        phi2[keep],
        run2[keep],
        off2[keep],
    )


def _fan_out(
    scene: QueryScene,
    ox: float,
    oy: float,
    rho: float,
    wind: int,
    circle: int,
    point: int,
    reach: float,
) -> Departures:
    """All free tangent segments from a circle (with a winding) or a point.

    Targets farther than ``reach`` (beyond the source circle) are left out.
    """
    return _fan_out_many(scene, [(ox, oy, rho, wind, circle, point)], reach)[0]


def _fan_out_many(
    scene: QueryScene,
    sources: list[tuple[float, float, float, int, int, int]],
    reach: float,
    settled: BoolArray | None = None,
    toward: tuple[float, float, float] | None = None,
) -> list[Departures]:
    """:func:`_fan_out` of several sources, testing all their segments at once.

    Every test is made segment by segment, so each answer is what the source alone gets.
    Segments to the points marked ``settled`` (whose cheapest cost the search knows
    already) are not priced: their cost is infinite; those to plain points among them
    are left out, and with ``toward`` those no path to a goal within a bound can take
    (see :func:`_fan_open`).
    """
    opened = _fan_open(scene, sources, reach, settled, toward)
    free = np.nonzero(~scene.segments_blocked(opened.t1x, opened.t1y, opened.t2x, opened.t2y))[0]
    src, target = opened.src[free], opened.target[free]
    t1x, t1y, t2x, t2y = opened.t1x[free], opened.t1y[free], opened.t2x[free], opened.t2y[free]
    length = np.hypot(t2x - t1x, t2y - t1y)
    cost = np.full(len(free), np.inf)
    if settled is None:
        priced = np.arange(len(free))
    else:
        point = scene.target_point[target]
        priced = np.nonzero((point < 0) | ~settled[np.maximum(point, 0)])[0]
    cost[priced] = scene.segments_cost(
        t1x[priced], t1y[priced], t2x[priced], t2y[priced], length[priced]
    )
    columns: tuple[Any, ...] = (  # each sliced alike: one type is all mypy can say
        target,
        t1x,
        t1y,
        t2x,
        t2y,
        opened.phi1[free],
        opened.run1[free],
        opened.off1[free],
        opened.phi2[free],
        opened.run2[free],
        opened.off2[free],
        length,
        cost,
    )
    bounds = np.searchsorted(src, np.arange(len(sources) + 1)).tolist()
    return [
        Departures(*(column[lo:hi] for column in columns))
        for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)
    ]


class SearchGraph:
    """Nodes found by the search: points and tangent points with a winding."""

    def __init__(self, scene: QueryScene) -> None:
        self.scene = scene
        self.ids: dict[object, int] = {}
        self.x: list[float] = []
        self.y: list[float] = []
        self.circle: list[int] = []
        self.wind: list[int] = []
        self.phi: list[float] = []
        self.run: list[int] = []
        self.off: list[float] = []
        self.point: list[int] = []
        self.g: list[float] = []
        self.parent: list[int] = []
        self.via: list[tuple[float, float, float, float, float, float] | None] = []
        self.done: list[bool] = []
        self.early: dict[tuple[int, int], Departures] = {}  # fan-outs made ahead of time
        self.settled = np.zeros(len(scene.points), dtype=bool)  # points whose node is done
        self.toward: tuple[float, float, float] | None = None  # A*'s goal and bound

    def node(
        self,
        key: object,
        x: float,
        y: float,
        circle: int,
        wind: int,
        phi: float,
        run: int,
        off: float,
        point: int,
    ) -> int:
        """Id of the node with ``key``, created if new."""
        found = self.ids.get(key)
        if found is not None:
            return found
        ident = len(self.x)
        self.ids[key] = ident
        self.x.append(x)
        self.y.append(y)
        self.circle.append(circle)
        self.wind.append(wind)
        self.phi.append(phi)
        self.run.append(run)
        self.off.append(off)
        self.point.append(point)
        self.g.append(math.inf)
        self.parent.append(-1)
        self.via.append(None)
        self.done.append(False)
        return ident


def _within(
    scene: QueryScene,
    edges: Departures,
    source: tuple[float, float, float, int, int, int],
    reach: float,
) -> Departures:
    """The segments of a fan-out whose target lies within ``reach`` of the source.

    The same test as :func:`_fan_open` makes on every target.
    """
    ox, oy, rho = source[0], source[1], source[2]
    t = edges.target
    near = np.hypot(scene.target_x[t] - ox, scene.target_y[t] - oy) - scene.target_rho[t] - rho
    keep = np.nonzero(near <= reach + 1e-6)[0]
    if len(keep) == len(t):
        return edges
    return Departures(*(getattr(edges, field.name)[keep] for field in dataclasses.fields(edges)))


def _source(
    scene: QueryScene, graph: SearchGraph, node: int
) -> tuple[tuple[int, int], tuple[float, float, float, int, int, int]]:
    """The departure key of a node and its source for :func:`_fan_out_many`."""
    circle = graph.circle[node]
    if circle < 0:
        point = graph.point[node]
        return (-1 - point, 0), (graph.x[node], graph.y[node], 0.0, 0, -1, point)
    ox, oy = scene.circles.xy[circle]
    wind = graph.wind[node]
    rho = float(scene.circles.rho[circle])
    return (circle, wind), (float(ox), float(oy), rho, wind, circle, -1)


def _departures(
    scene: QueryScene,
    graph: SearchGraph,
    node: int,
    reach: float,
    ahead: Callable[[], Sequence[int]],
) -> Departures:
    """The fan-out of a node's point, or of its circle with its winding, made once.

    The nodes ``ahead()`` (next in the queue, expanded later with a reach no larger: A*
    asks for no reach, Dijkstra's shrinks as it goes) are fanned out together with this
    one and kept until then, cut to their own reach; they are asked for only when this
    fan-out is made.
    """
    key, source = _source(scene, graph, node)
    edges = scene.departures.get(key)
    if edges is not None:
        return edges
    early = graph.early.pop(key, None)
    if early is not None:
        edges = _within(scene, early, source, reach)
    else:
        group = {key: source}
        for other in ahead():
            other_key, other_source = _source(scene, graph, other)
            if (
                other_key not in group
                and other_key not in graph.early
                and other_key not in scene.departures
            ):
                group[other_key] = other_source
        fans = _fan_out_many(scene, list(group.values()), reach, graph.settled, graph.toward)
        edges = fans[0]
        for other_key, fan in zip(list(group)[1:], fans[1:], strict=True):
            graph.early[other_key] = fan
    scene.departures[key] = edges
    return edges


def _successors(
    scene: QueryScene,
    graph: SearchGraph,
    node: int,
    reach: float,
    ahead: Callable[[], Sequence[int]],
    reached: FloatArray,
    seen: BoolArray,
    point_cost: FloatArray,
) -> tuple[Departures, IntArray, FloatArray, FloatArray]:
    """The free edges out of a node worth following: their indices, the cost at their
    far end and the turn along the node's circle before each.

    ``reached`` is the node's cost, the bound and, for A*, 1 and the goal (else 0, 0,
    0); an edge is followed when it is usable from the node's place on its circle,
    its cost plus A*'s straight remainder is within the bound, and it can improve the
    node of a point ``seen`` (not ``settled``, cheaper than ``point_cost``). Fan-outs
    are made once per point and per circle and winding (see :func:`_departures`).
    """
    edges = _departures(scene, graph, node, reach, ahead)
    columns = scene.packed.get(id(edges))
    if columns is None:
        columns = (
            np.column_stack([edges.cost, edges.phi1, edges.off1, edges.t2x, edges.t2y]),
            np.ascontiguousarray(edges.run1, dtype=np.intp),
            np.ascontiguousarray(scene.target_point[edges.target], dtype=np.intp),
        )
        scene.packed[id(edges)] = columns
    circle = graph.circle[node]
    on_circle = circle >= 0
    circles = scene.circles
    chosen, total, turn = expansion(
        reached,
        *columns,
        np.array(
            [
                float(on_circle),
                float(graph.wind[node]),
                float(on_circle and circles.run_full[circle]),
                float(circles.ang_tol[circle]) if on_circle else 0.0,
                float(circles.rho[circle]) if on_circle else 0.0,
                graph.phi[node],
                graph.off[node],
                float(circles.weight_const[circle]) if on_circle else 1.0,
            ]
        ),
        graph.run[node],
        circles.weight_angles[circle] if on_circle else _NO_KNOTS,
        circles.weight_cum[circle] if on_circle else _NO_KNOTS,
        seen,
        graph.settled,
        point_cost,
    )
    return edges, chosen, total, turn


_NO_KNOTS = np.zeros(1)


def _queued(heap: list[tuple[float, float, int]], done: list[bool], count: int) -> list[int]:
    """The next nodes the search will expand, in order, among the first ``count`` queued."""
    return [int(entry[2]) for entry in heapq.nsmallest(count, heap) if not done[entry[2]]]


def best_first(scene: QueryScene, goal: tuple[float, float] | None, bound: float) -> SearchGraph:
    """A* towards the goal (or Dijkstra when ``goal`` is None) up to ``bound``."""
    graph = SearchGraph(scene)
    sx, sy = scene.points[0]
    start = graph.node(("p", 0), float(sx), float(sy), -1, 0, 0.0, 0, 0.0, 0)
    graph.g[start] = 0.0
    gx, gy = goal if goal is not None else (0.0, 0.0)
    use_h = goal is not None
    if use_h and bound < math.inf:
        graph.toward = (gx, gy, bound)
    heap: list[tuple[float, float, int]] = [(0.0, 0.0, start)]
    nc = len(scene.circles.rho)
    # Per point: whether it has a node yet, that node's cost and whether it is settled,
    # to pass over at once the segments that cannot improve a point's node.
    seen = np.zeros(len(scene.points), dtype=bool)
    cost = np.full(len(scene.points), math.inf)
    settled = graph.settled
    seen[0], cost[0] = True, 0.0
    reached = np.array([0.0, bound, float(use_h), gx, gy])
    while heap:
        _, gu, node = heapq.heappop(heap)
        if graph.done[node] or gu > graph.g[node]:
            continue
        graph.done[node] = True
        if graph.circle[node] < 0:
            settled[graph.point[node]] = True
        if use_h and graph.circle[node] < 0 and graph.point[node] == 1:
            break
        reach = math.inf if use_h else bound - gu
        ahead = functools.partial(_queued, heap, graph.done, _AHEAD_TO_GOAL if use_h else _AHEAD)
        reached[0] = gu
        edges, chosen, total, delta = _successors(
            scene, graph, node, reach, ahead, reached, seen, cost
        )
        targets = edges.target[chosen]
        # Python numbers for the loop: reading numpy scalars one by one costs more
        for target, circle, point, new_g, x1, y1, x2, y2, phi1, phi2, run2, off2, turn in zip(
            targets.tolist(),
            scene.target_circle[targets].tolist(),
            scene.target_point[targets].tolist(),
            total.tolist(),
            edges.t1x[chosen].tolist(),
            edges.t1y[chosen].tolist(),
            edges.t2x[chosen].tolist(),
            edges.t2y[chosen].tolist(),
            edges.phi1[chosen].tolist(),
            edges.phi2[chosen].tolist(),
            edges.run2[chosen].tolist(),
            edges.off2[chosen].tolist(),
            delta.tolist(),
            strict=True,
        ):
            if target < 2 * nc:
                wind = 1 if target < nc else -1
                key: object = (circle, wind, round(phi2 * 1e8))
                ident = graph.node(key, x2, y2, circle, wind, phi2, run2, off2, -1)
            else:
                ident = graph.node(("p", point), x2, y2, -1, 0, 0.0, 0, 0.0, point)
            if new_g < graph.g[ident] - 1e-12 and not graph.done[ident]:
                graph.g[ident] = new_g
                graph.parent[ident] = node
                graph.via[ident] = (turn, x1, y1, x2, y2, phi1)
                h = math.hypot(x2 - gx, y2 - gy) if use_h else 0.0
                heapq.heappush(heap, (new_g + h, new_g, ident))
            if target >= 2 * nc:
                seen[point], cost[point] = True, graph.g[ident]
    return graph
