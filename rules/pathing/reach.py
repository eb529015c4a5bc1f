""":func:`reachable_area`: the centres reachable within a budget.

Dijkstra settles the graph's nodes; rays cast within each node's remaining budget
outline the area, which is then cut to free space.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final

import numpy as np
import shapely

from arbitre.rules.pathing.graph import SearchGraph, best_first
from arbitre.rules.pathing.model import BoolArray, Field, FloatArray, IntArray, as_length, as_point
from arbitre.rules.pathing.prepare import prepare_field
from arbitre.rules.pathing.primitives import TWO_PI, polar_angle
from arbitre.rules.pathing.query import LEVEL_GROWN, blocking_levels, free_space, table_rect
from arbitre.rules.pathing.rays import Rays
from arbitre.rules.pathing.region import Region, RegionKind
from arbitre.rules.pathing.scene import QueryScene

_AREA_SPACING_MM: Final = 5.0
_SWEEP_STEP: Final = math.radians(2.0)
_SWEEP_STEP_MM: Final = 1.5
_CONE: Final = math.radians(25.0)
_FRONTIER_MM: Final = 0.2
_FRONTIER_SHARE: Final = 0.005
"""The outline's documented error: this many mm or this share of the budget, the larger."""
_DRAWING_SHARE: Final = 40
"""The outlines are drawn to within the area's error divided by this: a vertex that
close to the line through its neighbours is left out, and the free space the area is
cut to draws obstacles too large by at most as much (the mover keeps clear of them)."""
_BENDS: Final = 4
"""Legs next to a bend at a sample, not at the exact bend, that the error is shared by:
the two legs at a boundary, twice (into costly ground and out of it)."""
_HALVES_FROM: Final = 32
"""Outlines from which their union is made in two halves at once."""
_HELPERS: dict[int, ThreadPoolExecutor] = {}
"""The thread each process joins outlines in (a forked child makes its own: the
parent's thread is not in it)."""
_SLIVER_MM2: Final = 1e-6
"""Holes of the area smaller than this are left out of it."""

_Sweep = tuple[FloatArray, FloatArray, IntArray, FloatArray, tuple[float, float, float, int, float]]
"""A sweep along a circle: its rays' arc lengths, budgets left, tangent owners and
touches, and the circle (centre, radius, winding, start angle)."""


def reachable_area(
    field: Field, start_mm: object, mover_radius_mm: float, budget_mm: float
) -> shapely.Geometry:
    """Centres reachable from the start with a path costing at most ``budget_mm``.

    The cheapest costs from the start to the graph's nodes are found with Dijkstra on
    the same graph as :func:`shortest_path` (obstacles the start overlaps block the
    paths only with their raw shape, or not at all when it stands inside one; the area
    never holds a centre whose base would overlap an obstacle). Then rays are cast
    within each node's remaining budget, cut at the first obstacle or table edge and
    where the cost through costly regions runs out: fans from the start and from
    corners, sweeps of tangent rays along the free arcs of circles, and refracted rays
    from points on the edges of costly regions (with narrower fans where obstacles cut
    those). Where an obstacle's or a region's edge falls between neighbouring rays, rays
    are added halfway, up to six times. The union of the outlined polygons is
    intersected with free space, whose obstacles are drawn slightly large; outlines and
    obstacles are drawn to a fortieth of the error below or finer (a power of two of a
    mm: 3.9 to 15.6 micrometres at allowances up to 200 mm).

    Parameters
    ----------
    field:
        The table, its obstacles and costly regions.
    start_mm:
        ``(x, y)`` centre in mm.
    mover_radius_mm:
        Radius of the mover's base, >= 0.
    budget_mm:
        Movement allowance in mm of cost.

    Returns
    -------
    shapely.Geometry
        A Polygon or MultiPolygon (possibly empty) of centre positions, in free space.
        Its frontier follows the exact one to within 0.2 mm or 0.5 % of the budget,
        whichever is larger, almost everywhere (chords of rays at most 2 degrees
        apart, which may cut a corner of the free space; bends on the boundaries of
        costly ground taken at samples, closer together near the start, each costing
        at most a quarter of that error, but for legs of a few mm at heavy cost: samples
        come no closer than 1 mm). Where it errs further (rarely, up to about twice
        that), it mostly leaves reachable ground out.
    """
    start = as_point(start_mm, "start_mm")
    radius = as_length(mover_radius_mm, "mover_radius_mm")
    budget = as_length(budget_mm, "budget_mm")
    prep = prepare_field(field)
    rect = table_rect(prep, radius, start)
    if budget <= 0.0 or rect is None or rect[0] > rect[2] or rect[1] > rect[3]:
        return shapely.Polygon()
    levels = blocking_levels(prep, radius, [start])
    region = Region(RegionKind.DISC, start[0], start[1], start[0], start[1], budget)
    error = max(_FRONTIER_MM, _FRONTIER_SHARE * budget)
    scene = QueryScene(
        prep,
        radius,
        start,
        None,
        levels,
        rect,
        region,
        _AREA_SPACING_MM,
        bend_loss_mm=error / _BENDS,
    )
    graph = best_first(scene, None, budget)
    # a power of two: the obstacles drawn for it are kept for every allowance near this
    drawing = 2.0 ** math.floor(math.log2(error / _DRAWING_SHARE))
    shapes = _sweep_shapes(scene, graph, budget, drawing)
    window = (
        start[0] - budget - 1.0,
        start[1] - budget - 1.0,
        start[0] + budget + 1.0,
        start[1] + budget + 1.0,
    )
    # The paths may leave the obstacles the start overlaps, but no move may end on one
    # (the move questions refuse such a goal): the area is that of the grown obstacles,
    # whatever the start overlaps.
    ends = np.full_like(levels, LEVEL_GROWN)
    blocking = np.union1d(scene.kept, np.nonzero(levels != LEVEL_GROWN)[0])
    free = free_space(prep, radius, ends, blocking, rect, window, drawing)
    if not shapes:
        return shapely.Polygon()
    reach = _union(shapes)
    area = reach.intersection(free)
    return _areal(area)


def _union(shapes: list[shapely.Geometry]) -> shapely.Geometry:
    """Union of the outlines: the western and the eastern half (as many vertices each)
    at once, one in a helper thread (GEOS lets go of Python's lock), then the two."""
    outlines = np.array(shapes, dtype=object)
    outlines = outlines[~shapely.is_empty(outlines)]
    if len(outlines) < _HALVES_FROM:
        return shapely.union_all(outlines)
    order = np.argsort(shapely.bounds(outlines)[:, 0])
    vertices = np.cumsum(shapely.get_num_coordinates(outlines[order]))
    half = int(np.searchsorted(vertices, vertices[-1] / 2.0))
    try:
        west = _helper().submit(shapely.union_all, outlines[order[:half]])
    except RuntimeError:  # the interpreter is shutting down: no new threads
        return shapely.union_all(outlines)
    east = shapely.union_all(outlines[order[half:]])
    return shapely.union(west.result(), east)


def _helper() -> ThreadPoolExecutor:
    """This process's helper thread."""
    pid = os.getpid()
    helper = _HELPERS.get(pid)
    if helper is None:
        _HELPERS.clear()
        helper = _HELPERS.setdefault(
            pid, ThreadPoolExecutor(max_workers=1, thread_name_prefix="arbitre-union")
        )
    return helper


def _areal(geometry: shapely.Geometry) -> shapely.Geometry:
    """Polygonal part of a geometry as a Polygon or MultiPolygon."""
    parts = [
        p
        for p in shapely.get_parts(geometry)
        if isinstance(p, shapely.Polygon) and not p.is_empty and p.area > 0.0
    ]
    for p in shapely.get_parts(geometry):
        if isinstance(p, shapely.MultiPolygon | shapely.GeometryCollection):
            parts.extend(
                q for q in shapely.get_parts(p) if isinstance(q, shapely.Polygon) and q.area > 0
            )
    if not parts:
        return shapely.Polygon()
    parts = [_without_slivers(p) for p in parts]
    if len(parts) == 1:
        return parts[0]
    return shapely.MultiPolygon(parts)


def _without_slivers(polygon: shapely.Polygon) -> shapely.Polygon:
    """The polygon without its holes of less than `_SLIVER_MM2`: slits the overlay of
    outlines meeting edge to edge can leave, not places the mover cannot reach."""
    holes = [shapely.Polygon(ring) for ring in polygon.interiors]
    if all(hole.area >= _SLIVER_MM2 for hole in holes):
        return polygon
    return shapely.Polygon(polygon.exterior, [h.exterior for h in holes if h.area >= _SLIVER_MM2])


def _add_fans(
    rays: Rays,
    kind: int,
    scene: QueryScene,
    graph: SearchGraph,
    nodes: list[int],
    rems: list[float],
    starts: list[float],
    spans: list[float],
) -> None:
    """Add fans of rays from point nodes (closed: kind 0, half: 1), each with its budget,
    first direction and span, their directions found for all at once.

    A fan's rays: regular steps; both edges at a corner of costly ground; straight into
    the corners of the table, and into the points where costly ground's edges meet the
    table's edge, within reach (chords would cut them); and a tangent to every nearby
    obstacle, which wins over a regular ray in the same direction and says which
    obstacle it touches and how far off (-1 and infinity for the others).
    """
    count = len(nodes)
    if count == 0:
        return
    node = np.asarray(nodes, dtype=np.intp)
    rem = np.asarray(rems, dtype=np.float64)
    start = np.asarray(starts, dtype=np.float64)
    span = np.asarray(spans, dtype=np.float64)
    x = np.asarray(graph.x)[node]
    y = np.asarray(graph.y)[node]
    closed = span >= TWO_PI
    steps = np.minimum(180, np.maximum(24, np.ceil(TWO_PI * rem / 1.5))).astype(np.intp)
    sizes = np.where(closed, steps, np.maximum(3, (steps * span / TWO_PI).astype(np.intp) + 1))
    fan = np.repeat(np.arange(count), sizes)
    k = np.arange(len(fan)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    step = np.where(closed, span / steps, span / np.maximum(sizes - 1, 1))
    regular = start[fan] + k * step[fan]
    last = np.cumsum(sizes)[~closed] - 1  # a half fan ends exactly at its span's end
    regular[last] = start[~closed] + span[~closed]
    fans, angles = [fan], [regular]
    owners = [np.full(len(fan), -1, dtype=np.intp)]
    touches = [np.full(len(fan), np.inf)]
    ranks = [np.ones(len(fan), dtype=np.intp)]

    def extra(
        which: IntArray, at: FloatArray, owner: IntArray, touch: FloatArray, rank: int
    ) -> None:
        """Directions ``at`` (absolute) for fans ``which``, kept within each one's span."""
        offset = np.mod(at - start[which], TWO_PI)
        inside = offset <= span[which]
        fans.append(which[inside])
        angles.append(offset[inside] + start[which][inside])
        owners.append(owner[inside])
        touches.append(touch[inside])
        ranks.append(np.full(int(inside.sum()), rank, dtype=np.intp))

    for i in range(count):
        point = graph.point[int(node[i])]
        if scene.first_boundary <= point < scene.end_boundary and scene.point_corner[point]:
            zone_index, ring, param, _ = scene.boundary_info[point - scene.first_boundary]
            coords = scene.zone_ref[int(zone_index)].rings[int(ring)]
            cum = scene.zone_ref[int(zone_index)].lengths[int(ring)]
            j = int(np.searchsorted(cum, param + 1e-9, side="right")) - 1
            j = min(max(j, 0), len(coords) - 2)
            ahead = coords[j + 1] - coords[j]
            behind = coords[j - 1 if j > 0 else len(coords) - 2] - coords[j]
            edge = polar_angle(np.array([ahead[0], behind[0]]), np.array([ahead[1], behind[1]]))
            extra(np.full(2, i), edge, np.full(2, -1), np.full(2, np.inf), 1)
        edges = scene.departures.get((-1 - point, 0))
        if edges is not None and len(edges.target):
            owner = _touch_owner(scene, edges.target)
            dist = np.hypot(edges.t2x - x[i], edges.t2y - y[i])
            target_point = scene.target_point[edges.target]
            corner = scene.point_corner[np.maximum(target_point, 0)] & (target_point >= 0)
            towards = ((owner >= 0) | corner) & (dist > 1e-9) & (dist < rem[i])
            at = polar_angle(edges.t2x[towards] - x[i], edges.t2y[towards] - y[i])
            extra(np.full(len(at), i), at, owner[towards], dist[towards], 0)
    corners = scene.table_corners
    apart = np.hypot(corners[None, :, 0] - x[:, None], corners[None, :, 1] - y[:, None])
    which, corner_index = np.nonzero((apart < rem[:, None]) & (apart > 1e-9))
    if len(which):
        at = polar_angle(corners[corner_index, 0] - x[which], corners[corner_index, 1] - y[which])
        extra(which, at, np.full(len(which), -1), np.full(len(which), np.inf), 1)
    fan, angle, owner, touch = _one_a_direction(
        np.concatenate(fans),
        np.concatenate(angles),
        np.concatenate(ranks),
        np.concatenate(owners).astype(np.intp),
        np.concatenate(touches),
    )
    directions = np.column_stack([np.cos(angle), np.sin(angle)])
    bounds = np.searchsorted(fan, np.arange(count + 1))
    for i in range(count):
        lo, hi = int(bounds[i]), int(bounds[i + 1])
        origin = np.array([x[i], y[i]])
        rays.add(
            kind,
            origin,
            angle[lo:hi],
            np.tile(origin, (hi - lo, 1)),
            directions[lo:hi],
            np.full(hi - lo, rem[i]),
            owner[lo:hi],
            touch[lo:hi],
        )


def _merge_tangent_rays(
    param: FloatArray,
    owners: IntArray,
    touch: FloatArray,
    tangent_param: FloatArray,
    tangent_owners: IntArray,
    tangent_touch: FloatArray,
) -> tuple[FloatArray, IntArray, FloatArray]:
    """Regular rays joined by tangent rays, sorted by ``param`` without repeats.

    A tangent ray wins over a regular ray at the same ``param``.
    """
    _, param, owners, touch = _one_a_direction(
        np.zeros(len(param) + len(tangent_param), dtype=np.intp),
        np.concatenate([tangent_param, param]),
        np.concatenate([np.zeros(len(tangent_param), np.intp), np.ones(len(param), np.intp)]),
        np.concatenate([tangent_owners, owners]),
        np.concatenate([tangent_touch, touch]),
    )
    return param, owners, touch


def _one_a_direction(
    group: IntArray, param: FloatArray, rank: IntArray, owners: IntArray, touch: FloatArray
) -> tuple[IntArray, FloatArray, IntArray, FloatArray]:
    """Rays sorted by group and ``param``, one a direction: of rays within 1e-12 of the
    one before, only the first is kept, the lowest ``rank`` first where they are equal
    (a tangent ray over a regular one)."""
    order = np.lexsort((rank, param, group))
    group, param, owners, touch = group[order], param[order], owners[order], touch[order]
    keep = np.ones(len(group), dtype=bool)
    keep[1:] = (group[1:] != group[:-1]) | (np.diff(param) > 1e-12)
    return group[keep], param[keep], owners[keep], touch[keep]


def _touch_owner(scene: QueryScene, target: IntArray) -> IntArray:
    """Obstacle owning each search target (-1 for start, goal and region samples)."""
    circle = scene.target_circle[target]
    point = scene.target_point[target]
    owner = np.full(len(target), -1, dtype=np.intp)
    is_circle = circle >= 0
    owner[is_circle] = scene.circles.owner[circle[is_circle]]
    owner[~is_circle] = scene.point_owner[point[~is_circle]]
    return owner


def _boundary_frames(
    scene: QueryScene, graph: SearchGraph, nodes: list[int]
) -> tuple[IntArray, FloatArray, FloatArray, FloatArray, FloatArray, IntArray]:
    """Refraction at boundary nodes, once per boundary edge through each node.

    Returns, per (node, edge) pair: the node, the arc length of the node along the
    edge's ring, the edge tangent, the far-side sign (+1 right of the tangent), the
    refracted direction and a key ``(zone, ring, edge, side)`` packed in an int array.
    """
    rows: list[tuple[int, int, int, int, float]] = []
    for node in nodes:
        zone_index, ring, param, vertex = scene.boundary_info[
            graph.point[node] - scene.first_boundary
        ]
        zone = scene.zone_ref[int(zone_index)]
        cum = zone.lengths[int(ring)]
        count = len(cum) - 1
        k = min(max(int(np.searchsorted(cum, param, side="right")) - 1, 0), count - 1)
        rows.append((node, int(zone_index), int(ring), k, float(param)))
        if vertex == 1.0:  # a corner of the zone (not where an obstacle cuts an edge)
            before = (k - 1) % count
            rows.append((node, int(zone_index), int(ring), before, float(cum[before + 1])))
    size = len(rows)
    node_of = np.array([row[0] for row in rows], dtype=np.intp)
    param_of = np.array([row[4] for row in rows])
    tangent = np.zeros((size, 2))
    incoming = np.zeros((size, 2))
    position = np.zeros((size, 2))
    for m, (node, zone_index, ring, k, _) in enumerate(rows):
        coords = scene.zone_ref[zone_index].rings[ring]
        step = coords[k + 1] - coords[k]
        tangent[m] = step / max(float(np.hypot(*step)), 1e-12)
        via = graph.via[node]
        parent = graph.parent[node]
        position[m] = (graph.x[node], graph.y[node])
        if via is not None and math.hypot(via[3] - via[1], via[4] - via[2]) > 1e-9:
            incoming[m] = (via[3] - via[1], via[4] - via[2])
        else:
            incoming[m] = (graph.x[node] - graph.x[parent], graph.y[node] - graph.y[parent])
    incoming /= np.maximum(np.hypot(incoming[:, 0], incoming[:, 1]), 1e-12)[:, None]
    right = np.column_stack([tangent[:, 1], -tangent[:, 0]])
    mid = position + 1e-3 * tangent
    eps = 1e-3
    w_right = scene.weight_at(mid[:, 0] + eps * right[:, 0], mid[:, 1] + eps * right[:, 1])
    w_left = scene.weight_at(mid[:, 0] - eps * right[:, 0], mid[:, 1] - eps * right[:, 1])
    across = np.sum(incoming * right, axis=1)
    side = np.where(np.abs(across) > 1e-9, np.sign(across), np.where(w_right >= w_left, 1.0, -1.0))
    near = np.where(side > 0, w_left, w_right)
    far = np.where(side > 0, w_right, w_left)
    along = np.clip(np.sum(incoming * tangent, axis=1) * near / far, -1.0, 1.0)
    refracted = along[:, None] * tangent + (side * np.sqrt(1.0 - along * along))[:, None] * right
    key = np.array([(row[1], row[2], row[3]) for row in rows], dtype=np.intp).reshape(-1, 3)
    key = np.column_stack([key, side.astype(np.intp)])
    return node_of, param_of, tangent, side, refracted, key


def _sweep_shapes(
    scene: QueryScene, graph: SearchGraph, budget: float, straight_mm: float
) -> list[shapely.Geometry]:
    """Polygons of the points reachable from settled nodes within the remaining budget,
    without the vertices within ``straight_mm`` of the line through their neighbours.

    The start and point nodes cast fans; circles cast sweeps of tangent rays along
    their free arcs; points on costly-region edges cast refracted rays that outline
    strips, with narrow fans where a strip ends or an obstacle's shadow cuts it.
    """
    g = np.array(graph.g)
    settled = np.nonzero(np.array(graph.done, dtype=bool) & (g < budget))[0]
    rays = Rays()
    on_edge, vertices = _fanning_points(scene, graph, settled, g, budget, rays)
    strips = _edge_strips(scene, graph, on_edge, vertices, g, budget, rays)
    _circle_sweeps(scene, graph, settled, g, budget, rays)
    rays.cast(scene)
    strips.ends |= _shadow_cuts(rays, strips.runs, scene.spacing)
    _add_half_fans(rays, scene, graph, strips, vertices, g, budget)
    return _outline_polygons(rays.polygons(scene), straight_mm)


def _fanning_points(
    scene: QueryScene,
    graph: SearchGraph,
    settled: IntArray,
    g: FloatArray,
    budget: float,
    rays: Rays,
) -> tuple[list[int], set[int]]:
    """Cast a whole fan from every settled point node but those inside a costly region's
    edge (the start, points, and the edge's vertices): the nodes on edges, and which of
    them are vertices."""
    circle = np.array(graph.circle, dtype=np.intp)
    point_nodes = [int(n) for n in settled if circle[n] < 0]
    on_edge = [
        n
        for n in point_nodes
        if scene.first_boundary <= graph.point[n] < scene.end_boundary and graph.parent[n] >= 0
    ]
    vertices = {
        n for n in on_edge if scene.boundary_info[graph.point[n] - scene.first_boundary][3] != 0.0
    }
    inside_edges = set(on_edge) - vertices
    closed = [node for node in point_nodes if node not in inside_edges]
    rems = [float(budget - g[node]) for node in closed]
    _add_fans(rays, 0, scene, graph, closed, rems, [0.0] * len(closed), [TWO_PI] * len(closed))
    return on_edge, vertices


@dataclass
class _Strips:
    """The refracted strips cast along costly-region edges (`_edge_strips`)."""

    runs: list[tuple[IntArray, int]]
    """Each strip's nodes along its edge, and its group of rays."""
    ends: set[int]
    """Nodes that cast a half fan: a strip's ends (and, once cast, where a shadow cuts)."""
    wide: set[int]
    """Nodes whose half fan is the whole half plane: the refracted ray swings there."""
    frames: dict[int, tuple[FloatArray, float, FloatArray]]
    """Each edge node's tangent, the side its region lies on, and its refracted ray."""


def _edge_strips(
    scene: QueryScene,
    graph: SearchGraph,
    on_edge: list[int],
    vertices: set[int],
    g: FloatArray,
    budget: float,
    rays: Rays,
) -> _Strips:
    """Cast the refracted rays of the nodes on costly-region edges, one group per run of
    neighbouring samples of an edge whose rays turn little from one to the next."""
    strips = _Strips([], set(), set(), {})
    if not on_edge:
        return strips
    node_of, params, tangent, side, refracted, key = _boundary_frames(scene, graph, on_edge)
    order = np.lexsort((params, key[:, 3], key[:, 2], key[:, 1], key[:, 0]))
    sorted_key = key[order]
    cut = np.ones(len(order), dtype=bool)
    cut[1:] = np.any(sorted_key[1:] != sorted_key[:-1], axis=1)
    gap = np.diff(params[order]) > 1.5 * scene.spacing
    turn = np.sum(refracted[order][1:] * refracted[order][:-1], axis=1)
    turned = turn < math.cos(math.radians(15.0))
    cut[1:] |= gap | turned
    # Where the refracted direction swings between two samples (near the critical
    # angle, say), the rays between them can leave in any outward direction.
    for k in np.nonzero(turned)[0]:
        strips.wide.update((int(node_of[order[k]]), int(node_of[order[k + 1]])))
    starts = np.nonzero(cut)[0]
    stops = np.append(starts[1:], len(order))
    for m in range(len(node_of)):
        strips.frames.setdefault(int(node_of[m]), (tangent[m], float(side[m]), refracted[m]))
    for lo, hi in zip(starts, stops, strict=True):
        rows = order[lo:hi]
        run = node_of[rows]
        # A strip's ends: beyond them lie the wedges reached through bends between
        # samples (up to the critical angle, where the refracted ray grazes the edge).
        strips.ends.update((int(run[0]), int(run[-1])))
        if len(run) < 2:
            if int(run[0]) in vertices:
                continue
            strips.ends.add(int(run[0]))
            continue
        origins = np.column_stack([[graph.x[n] for n in run], [graph.y[n] for n in run]])
        group = rays.add(
            3,
            origins,
            np.arange(len(run), dtype=np.float64),
            origins,
            refracted[rows],
            budget - g[run],
        )
        strips.runs.append((run, group))
    return strips


def _shadow_cuts(rays: Rays, runs: list[tuple[IntArray, int]], spacing: float) -> set[int]:
    """The nodes, once the rays are cast, on either side of where a strip's rays go from
    free to stopped or jump in length: an obstacle's shadow edge crosses the strip there."""
    cuts: set[int] = set()
    for run, group in runs:
        length, owner = rays.group_rays(group)
        hit = owner != -1
        jump = (hit[1:] != hit[:-1]) | (
            hit[1:] & hit[:-1] & (np.abs(np.diff(length)) > 2.0 * spacing)
        )
        for k in np.nonzero(jump)[0]:
            cuts.add(int(run[k]))
            cuts.add(int(run[k + 1]))
    return cuts


def _add_half_fans(
    rays: Rays,
    scene: QueryScene,
    graph: SearchGraph,
    strips: _Strips,
    vertices: set[int],
    g: FloatArray,
    budget: float,
) -> None:
    """Cast the half fans of the strips' ends and cuts (not of vertices, whose fans are
    whole): outward from the edge, `_CONE` either side of the refracted ray, or the whole
    half plane where the ray swings."""
    fanning = sorted((strips.ends | strips.wide) - vertices)
    starts: list[float] = []
    spans: list[float] = []
    for node in fanning:
        tangent, side, refracted = strips.frames[node]
        base = math.atan2(tangent[1], tangent[0])
        low = base + (math.pi if side > 0 else 0.0)
        centre = math.atan2(refracted[1], refracted[0])
        centre = low + (centre - low) % TWO_PI
        if node in strips.wide:
            start, span = low, math.pi
        else:
            start = max(low, centre - _CONE)
            span = min(low + math.pi, centre + _CONE) - start
        starts.append(start)
        spans.append(span)
    rems = [float(budget - g[node]) for node in fanning]
    _add_fans(rays, 1, scene, graph, fanning, rems, starts, spans)


def _outline_polygons(rings: list[FloatArray], straight_mm: float) -> list[shapely.Geometry]:
    """The rays' outlines as polygons: one crossing itself mended (every lobe kept), the
    others without their vertices (almost) on the line through their neighbours, which add
    nothing but work to the union."""
    if not rings:
        return []
    sizes = np.array([len(r) for r in rings])
    coords = np.concatenate(rings)
    index = np.repeat(np.arange(len(rings)), sizes)
    polygons = shapely.polygons(shapely.linearrings(coords, indices=index))
    valid = shapely.is_valid(polygons)
    polygons[valid] = shapely.simplify(polygons[valid], straight_mm, preserve_topology=False)
    if not np.all(valid):
        polygons[~valid] = shapely.make_valid(polygons[~valid])
    return list(polygons)


def _circle_sweeps(
    scene: QueryScene,
    graph: SearchGraph,
    settled: IntArray,
    g: FloatArray,
    budget: float,
    rays: Rays,
) -> None:
    """Add sweeps of tangent rays along free arcs from non-dominated circle arrivals.

    The arc costs of a circle's sweeps are priced in one pass, the angles of all the
    sweeps' rays in another.
    """
    circle = np.array(graph.circle, dtype=np.intp)
    by_circle: dict[tuple[int, int], list[int]] = {}
    for node in settled:
        if circle[node] >= 0:
            by_circle.setdefault((int(circle[node]), graph.wind[node]), []).append(int(node))
    sweeps: list[_Sweep] = []
    for (c, wind), nodes in by_circle.items():
        arrivals = _Arrivals(
            circle=c,
            wind=wind,
            rho=float(scene.circles.rho[c]),
            centre=scene.circles.xy[c],
            full=bool(scene.circles.run_full[c]),
            tol=float(scene.circles.ang_tol[c]),
            phi=np.array([graph.phi[n] for n in nodes]),
            off=np.array([graph.off[n] for n in nodes]),
            run=np.array([graph.run[n] for n in nodes]),
            g=g[np.array(nodes)],
        )
        sweeps += _sweeps_along(scene, arrivals, budget)
    _add_sweeps(rays, sweeps)


@dataclass(frozen=True, slots=True)
class _Arrivals:
    """The settled nodes on one circle with one winding, where sweeps along it start."""

    circle: int
    wind: int
    rho: float
    centre: FloatArray  # (2,)
    full: bool  # the circle is free all round
    tol: float  # the angular tolerance on it
    phi: FloatArray  # each arrival's angle on the circle
    off: FloatArray  # its offset into its free run
    run: IntArray  # that free run
    g: FloatArray  # the cost of reaching it

    def ahead(self, phi: FloatArray, run: IntArray, off: FloatArray) -> FloatArray:
        """The angle (arrivals, points) turned from each arrival along the winding to each
        point at ``phi`` on the circle (in free run ``run`` at offset ``off``), or -1 where
        the point lies on another free run."""
        if self.full:
            return np.mod(self.wind * (phi[None, :] - self.phi[:, None]), TWO_PI)
        return np.where(
            run[None, :] == self.run[:, None],
            self.wind * (off[None, :] - self.off[:, None]),
            -1.0,
        )


@dataclass(frozen=True, slots=True)
class _Exits:
    """The free tangent segments leaving a circle with a winding that its sweeps leave by:
    those towards an obstacle or a corner of costly ground, within each sweep's reach."""

    ahead: FloatArray  # (arrivals, segments) angle from each arrival to each segment's start
    taken: BoolArray  # (arrivals, segments) whether each arrival's sweep leaves by each one
    owner: IntArray  # the obstacle each segment touches
    length: FloatArray

    def of(self, arrival: int) -> tuple[FloatArray, IntArray, FloatArray] | None:
        """The angles ahead, obstacles touched and lengths of the segments that the sweep
        from ``arrival`` leaves by, None if it leaves by none."""
        chosen = np.flatnonzero(self.taken[arrival])
        if len(chosen) == 0:
            return None
        return self.ahead[arrival, chosen], self.owner[chosen], self.length[chosen]


def _sweeps_along(scene: QueryScene, arrivals: _Arrivals, budget: float) -> list[_Sweep]:
    """The sweeps along one circle with one winding, from each arrival that no other
    reaches more cheaply along the circle, up to where another takes over, the free arc
    ends or the budget runs out (at least two rays each)."""
    dominated, stop_at, extent = _takeovers(scene, arrivals)
    exits = _exits(scene, arrivals, stop_at, extent)
    corners = arrivals.ahead(
        *_corner_tangents(scene, arrivals.circle, arrivals.wind, arrivals.full)
    )
    parts: list[tuple[int, FloatArray, IntArray, FloatArray]] = []
    for m in range(len(arrivals.phi)):
        if dominated[m]:
            continue
        # stop just short of the end of the free arc: the last tangent ray then
        # leaves the obstacle instead of grazing (and numerically cutting) it
        span = float(min(stop_at[m], extent[m] - 5e-5, TWO_PI - 1e-6))
        if span <= 1e-9 or budget - arrivals.g[m] <= 0.0:
            continue
        d, owners, touch = _sweep_rays(
            arrivals.rho, span, None if exits is None else exits.of(m), corners[m]
        )
        parts.append((m, d, owners, touch))
    return _within_budget(scene, arrivals, parts, budget)


def _takeovers(scene: QueryScene, arrivals: _Arrivals) -> tuple[BoolArray, FloatArray, FloatArray]:
    """Which arrivals another one reaches more cheaply along the circle, the angle each
    one's sweep turns through before a later arrival takes over (infinity if none does),
    and how far its free arc goes."""
    c, wind, phis, offs, gs = arrivals.circle, arrivals.wind, arrivals.phi, arrivals.off, arrivals.g
    if arrivals.full:
        delta = np.mod(wind * (phis[None, :] - phis[:, None]), TWO_PI)
        reach_ok = np.ones_like(delta, dtype=bool)
        extent = np.full(len(phis), TWO_PI - 1e-9)
    else:
        runs = arrivals.run
        delta = wind * (offs[None, :] - offs[:, None])
        reach_ok = (runs[None, :] == runs[:, None]) & (delta >= -arrivals.tol)
        delta = np.maximum(delta, 0.0)
        lengths = scene.circles.run_len[c, runs]
        extent = lengths - offs if wind > 0 else offs
    begin = phis[:, None] if wind > 0 else phis[:, None] - delta
    arc_cost = arrivals.rho * scene.arc_weight(
        c, np.broadcast_to(begin, delta.shape).ravel(), delta.ravel()
    ).reshape(delta.shape)
    np.fill_diagonal(reach_ok, False)
    via = gs[:, None] + arc_cost
    dominated = np.any(reach_ok & (via < gs[None, :] - 1e-9), axis=0)
    takes_over = reach_ok & (gs[None, :] <= via + 1e-9) & (delta > arrivals.tol)
    stop_at = np.where(takes_over, delta, np.inf).min(axis=1)
    return dominated, stop_at, extent


def _exits(
    scene: QueryScene, arrivals: _Arrivals, stop_at: FloatArray, extent: FloatArray
) -> _Exits | None:
    """The segments leaving the circle that each sweep reaches before another arrival
    takes over (``stop_at``) or its free arc ends (``extent`` ahead of its arrival: exact
    departures may reach its very end), None when no segment leaves the circle."""
    departures = scene.departures.get((arrivals.circle, arrivals.wind))
    if departures is None or len(departures.target) == 0:
        return None
    end = np.minimum(stop_at, extent + arrivals.tol)
    owner = _touch_owner(scene, departures.target)
    tp = scene.target_point[departures.target]
    towards = (owner >= 0) | (scene.point_corner[np.maximum(tp, 0)] & (tp >= 0))
    ahead = arrivals.ahead(departures.phi1, departures.run1, departures.off1)
    taken = (ahead > 0.0) & (ahead <= end[:, None]) & towards
    return _Exits(ahead, taken, owner, departures.length)


def _sweep_rays(
    rho: float,
    span: float,
    exits: tuple[FloatArray, IntArray, FloatArray] | None,
    corners: FloatArray,
) -> tuple[FloatArray, IntArray, FloatArray]:
    """The rays of one sweep along ``span`` of a circle of radius ``rho``: their arc
    lengths (as angles), tangent owners and touches.

    Regular steps, joined by tangent rays out along the ``exits`` (angles ahead,
    obstacles touched, lengths) and towards the table's corners (``corners``: the angles
    ahead, only those within the span count).
    """
    step = min(_SWEEP_STEP, _SWEEP_STEP_MM / rho)
    n = max(2, math.ceil(span / step) + 1)
    d = np.arange(n, dtype=np.float64) * (span / (n - 1))  # as np.linspace(0, span, n)
    d[-1] = span
    owners = np.full(len(d), -1, dtype=np.intp)
    touch = np.full(len(d), np.inf)
    if exits is not None:
        d, owners, touch = _merge_tangent_rays(d, owners, touch, *exits)
    corners = corners[(corners > 0.0) & (corners < span)]
    if len(corners):
        d, owners, touch = _merge_tangent_rays(
            d,
            owners,
            touch,
            corners,
            np.full(len(corners), -1, dtype=np.intp),
            np.full(len(corners), np.inf),
        )
    return d, owners, touch


def _within_budget(
    scene: QueryScene,
    arrivals: _Arrivals,
    parts: list[tuple[int, FloatArray, IntArray, FloatArray]],
    budget: float,
) -> list[_Sweep]:
    """The sweeps (arrival, rays' arc lengths, owners and touches) with the budget left at
    each ray, priced along the circle in one pass, each cut where its budget runs out;
    those left with fewer than two rays are dropped."""
    if not parts:
        return []
    kept = [m for m, _, _, _ in parts]
    sizes = [len(d) for _, d, _, _ in parts]
    bounds = np.cumsum([0, *sizes])
    all_d = np.concatenate([d for _, d, _, _ in parts])
    all_phi = np.repeat(arrivals.phi[kept], sizes)
    begin = all_phi if arrivals.wind > 0 else all_phi - all_d
    spent = arrivals.rho * scene.arc_weight(arrivals.circle, begin, all_d)
    all_rem = np.repeat(budget - arrivals.g[kept], sizes) - spent
    all_alive = all_rem > 0.0
    cut = np.logical_or.reduceat(~all_alive, bounds[:-1])
    cx, cy = arrivals.centre
    sweeps: list[_Sweep] = []
    for i, (m, d, owners, touch) in enumerate(parts):
        lo, hi = int(bounds[i]), int(bounds[i + 1])
        rem = all_rem[lo:hi]
        if cut[i]:
            last = int(np.argmin(all_alive[lo:hi]))
            if last == 0:
                continue
            d_lo, d_hi = d[last - 1], d[last]
            frac = rem[last - 1] / (rem[last - 1] - rem[last])
            d = np.concatenate([d[:last], [d_lo + frac * (d_hi - d_lo)]])
            rem = np.concatenate([rem[:last], [0.0]])
            owners = np.concatenate([owners[:last], [-1]])
            touch = np.concatenate([touch[:last], [np.inf]])
        if len(d) < 2:
            continue
        circle = (float(cx), float(cy), arrivals.rho, int(arrivals.wind), float(arrivals.phi[m]))
        sweeps.append((d, rem, owners, touch, circle))
    return sweeps


def _add_sweeps(rays: Rays, sweeps: list[_Sweep]) -> None:
    """Add the sweeps as groups of tangent rays, with the sines and cosines of all their
    angles in one pass."""
    if not sweeps:
        return
    sizes = [len(sweep[0]) for sweep in sweeps]
    bounds = np.cumsum([0, *sizes])
    circles = np.array([sweep[4] for sweep in sweeps])
    cx, cy, rho, wind, phi = (np.repeat(column, sizes) for column in circles.T)
    a = phi + wind * np.concatenate([sweep[0] for sweep in sweeps])
    cos_a, sin_a = np.cos(a), np.sin(a)
    origins = np.column_stack([cx + rho * cos_a, cy + rho * sin_a])
    directions = np.column_stack([-sin_a * wind, cos_a * wind])
    for i, (d, rem, owners, touch, circle) in enumerate(sweeps):
        lo, hi = int(bounds[i]), int(bounds[i + 1])
        rays.add(
            2, origins[lo:hi], d, origins[lo:hi], directions[lo:hi], rem, owners, touch, circle
        )


def _corner_tangents(
    scene: QueryScene, c: int, wind: int, full: bool
) -> tuple[FloatArray, IntArray, FloatArray]:
    """Where a sweep along circle ``c`` leaves by a tangent ray towards each corner of the
    table: the angles on the circle and, unless the circle is free all round, the free
    run and offset into it of each. Chords between the regular rays would cut those
    corners off the area.
    """
    rho = float(scene.circles.rho[c])
    cx, cy = scene.circles.xy[c]
    x_lo, y_lo, x_hi, y_hi = scene.rect
    px = np.array([x_lo, x_hi, x_lo, x_hi]) - cx
    py = np.array([y_lo, y_lo, y_hi, y_hi]) - cy
    far = np.hypot(px, py)
    outside = far > rho * (1.0 + 1e-9)
    touch_at = np.arctan2(py[outside], px[outside]) - wind * np.arccos(rho / far[outside])
    if full or len(touch_at) == 0:
        return touch_at, np.zeros(len(touch_at), dtype=np.intp), np.zeros(len(touch_at))
    runs, offsets = scene.run_lookup(np.full(len(touch_at), c, dtype=np.intp), touch_at)
    return touch_at, runs, offsets
