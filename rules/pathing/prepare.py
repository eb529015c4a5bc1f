"""Per-field preparation, cached between queries.

Obstacles are reduced to raw discs, edges and convex corners; costly regions are
merged into nested zones, one per distinct factor, with boundary samples.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TypeVar, cast

import numpy as np
import shapely

from arbitre.rules.pathing.model import (
    TOLERANCE_MM,
    BlockingPolygon,
    BoolArray,
    CostlyRegion,
    DiscHull,
    Field,
    FloatArray,
    IntArray,
    base_overlap,
)
from arbitre.rules.pathing.outline import path_outline, vertex_budgets, vertex_count
from arbitre.rules.pathing.primitives import cross2, empty_points, polar_angle

_K = TypeVar("_K")
_V = TypeVar("_V")


@dataclass(frozen=True, slots=True, eq=False)
class Obstacle:
    """A blocking obstacle reduced to raw discs, raw edges and convex corners."""

    ident: str
    disc_xy: FloatArray  # (m, 2) raw discs on the hull boundary
    disc_r: FloatArray  # (m,)
    disc_normals: tuple[FloatArray, ...]  # angles of hull tangents touching each disc
    edges: FloatArray  # (e, 4) raw polygonal boundary: hull core or polygon rings
    solid: shapely.Geometry | None  # raw polygonal part, None when it has no area
    corners: FloatArray  # (v, 2) convex corners of a polygon
    corner_normals: FloatArray  # (v, 2) outward normal angles of the edges at a corner
    centre: FloatArray  # (2,) centre of a bounding circle
    bound: float  # radius of that bounding circle
    convex: bool


def _uncontained(xy: FloatArray, radii: FloatArray) -> BoolArray:
    """Mask of the discs not contained in another disc (one copy of duplicates kept)."""
    gap = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    inside = gap + radii[:, None] <= radii[None, :] + 1e-9
    np.fill_diagonal(inside, False)
    later = np.arange(len(radii))[None, :] > np.arange(len(radii))[:, None]
    twin = inside & inside.T & later
    return cast(BoolArray, ~np.any(inside & ~twin, axis=1))


def _hull_core(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Counter-clockwise convex hull of a few points (monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts
    scale = 1e-12 * (1.0 + max(max(abs(x), abs(y)) for x, y in pts)) ** 2

    def chain(sequence: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for px, py in sequence:
            while len(out) >= 2:
                (ox, oy), (ax, ay) = out[-2], out[-1]
                if (ax - ox) * (py - oy) - (ay - oy) * (px - ox) > scale:
                    break
                out.pop()
            out.append((px, py))
        return out

    lower = chain(pts)
    upper = chain(pts[::-1])
    return lower[:-1] + upper[:-1]


def _prepare_hull(hull: DiscHull) -> Obstacle:
    """Hull discs, core polygon and tangent normals of a :class:`DiscHull`."""
    key = (hull.ident, hull.discs.tobytes())
    cached = _HULLS.get(key)
    if cached is not None:
        return cached
    xy_all = np.ascontiguousarray(hull.discs[:, :2])
    radii_all = np.ascontiguousarray(hull.discs[:, 2])
    keep = _uncontained(xy_all, radii_all) if len(radii_all) > 1 else np.ones(1, dtype=bool)
    xy = xy_all[keep]
    radii = radii_all[keep]
    centre = xy.mean(axis=0)
    bound = float(np.max(np.hypot(xy[:, 0] - centre[0], xy[:, 1] - centre[1]) + radii))
    normals: tuple[FloatArray, ...]
    solid: shapely.Geometry | None
    if len(radii) == 1:
        disc_xy, disc_r, normals, edges, solid = xy, radii, (np.zeros(0),), np.zeros((0, 4)), None
    else:
        disc_xy, disc_r, normals, edges, solid = _hull_outline(xy, radii)
    result = Obstacle(
        hull.ident,
        disc_xy,
        disc_r,
        normals,
        edges,
        solid,
        empty_points(),
        empty_points(),
        centre,
        bound,
        True,
    )
    remember_bounded(_HULLS, key, result, 8192)
    return result


def _hull_outline(
    xy: FloatArray, radii: FloatArray
) -> tuple[FloatArray, FloatArray, tuple[FloatArray, ...], FloatArray, shapely.Geometry | None]:
    """Outline of the convex hull of two or more discs, none inside another.

    Returns the discs on the hull, the angles of the hull tangents touching each of
    them, the edges of the core polygon joining the tangent points, ``(e, 4)``, and
    that polygon when it has an area.
    """
    count = len(radii)
    i, j = np.nonzero(~np.eye(count, dtype=bool))
    dx = xy[j, 0] - xy[i, 0]
    dy = xy[j, 1] - xy[i, 1]
    dist = np.hypot(dx, dy)
    a = (radii[i] - radii[j]) / dist
    b = np.sqrt(np.clip(1.0 - a * a, 0.0, None))
    ux = dx / dist
    uy = dy / dist
    nx = a * ux + b * uy
    ny = a * uy - b * ux
    support = nx * xy[i, 0] + ny * xy[i, 1] + radii[i]
    reach = nx[:, None] * xy[None, :, 0] + ny[:, None] * xy[None, :, 1] + radii[None, :]
    scale = 1e-9 * (1.0 + float(np.max(np.abs(xy))) + float(np.max(radii)))
    supporting = np.all(reach <= support[:, None] + scale, axis=1)
    i, j, nx, ny = i[supporting], j[supporting], nx[supporting], ny[supporting]
    touch_x = np.concatenate([xy[i, 0] + radii[i] * nx, xy[j, 0] + radii[j] * nx])
    touch_y = np.concatenate([xy[i, 1] + radii[i] * ny, xy[j, 1] + radii[j] * ny])
    core_list = _hull_core(
        list(zip(np.round(touch_x, 9).tolist(), np.round(touch_y, 9).tolist(), strict=True))
    )
    core = np.array(core_list, dtype=np.float64).reshape(-1, 2)
    on_hull = np.unique(np.concatenate([i, j]))
    normal_angles = polar_angle(nx, ny)
    normals = tuple(
        np.concatenate([normal_angles[i == disc], normal_angles[j == disc]]) for disc in on_hull
    )
    if len(core) >= 2:
        edges = np.column_stack([core, np.roll(core, -1, axis=0)])
        if len(core) == 2:
            edges = np.vstack([edges[:1], edges[:1, [2, 3, 0, 1]]])
    else:
        edges = np.zeros((0, 4))
    solid: shapely.Geometry | None = None
    if len(core) >= 3:
        polygon = shapely.Polygon(core)
        if polygon.area > 1e-9:
            shapely.prepare(polygon)
            solid = polygon
    return xy[on_hull], radii[on_hull], normals, edges, solid


def _prepare_polygon(blocking: BlockingPolygon, max_vertices: int) -> Obstacle:
    """Edges, convex corners and corner normals of a :class:`BlockingPolygon`, simplified
    to at most ``max_vertices`` vertices by an outline that contains it (`path_outline`)."""
    cached = _POLYGONS.get((blocking, max_vertices))
    if cached is not None:
        return cached
    outline, _ = path_outline(blocking.polygon, max_vertices)
    polygon = shapely.geometry.polygon.orient(outline, sign=1.0)
    rings = [np.asarray(polygon.exterior.coords)[:-1]]
    rings += [np.asarray(ring.coords)[:-1] for ring in polygon.interiors]
    edges: list[FloatArray] = []
    corners: list[FloatArray] = []
    normals: list[FloatArray] = []
    for raw in rings:
        ring = raw[np.any(raw != np.roll(raw, 1, axis=0), axis=1)]
        if len(ring) < 3:
            continue
        after = np.roll(ring, -1, axis=0)
        before = np.roll(ring, 1, axis=0)
        inx, iny = ring[:, 0] - before[:, 0], ring[:, 1] - before[:, 1]
        outx, outy = after[:, 0] - ring[:, 0], after[:, 1] - ring[:, 1]
        turn = cross2(inx, iny, outx, outy)
        convex = turn > 1e-9 * np.hypot(inx, iny) * np.hypot(outx, outy)
        edges.append(np.column_stack([ring, after]))
        corners.append(ring[convex])
        normals.append(np.column_stack([polar_angle(iny, -inx), polar_angle(outy, -outx)])[convex])
    exterior = rings[0]
    centre = (exterior.min(axis=0) + exterior.max(axis=0)) / 2.0
    bound = float(np.max(np.hypot(exterior[:, 0] - centre[0], exterior[:, 1] - centre[1])))
    shapely.prepare(polygon)
    all_edges = np.concatenate(edges)
    all_corners = np.concatenate(corners)
    result = Obstacle(
        blocking.ident,
        empty_points(),
        np.zeros(0),
        (),
        all_edges,
        polygon,
        all_corners,
        np.concatenate(normals),
        centre,
        bound,
        len(rings) == 1 and len(all_corners) == len(all_edges),
    )
    remember_bounded(_POLYGONS, (blocking, max_vertices), result, 4096)
    return result


@dataclass(frozen=True, slots=True, eq=False)
class Zone:
    """Union of the costly regions with factor >= some level."""

    extra: float  # cost added per mm inside, above the level below
    inner: shapely.Geometry  # the union shrunk by the tolerance (prepared)
    closed: shapely.Geometry  # the union grown by the tolerance: with its boundary (prepared)
    edges: FloatArray  # (e, 4)
    edge_ring: IntArray  # ring of each edge
    edge_start: FloatArray  # arc length along its ring where each edge starts
    rings: tuple[FloatArray, ...]  # closed rings, (k + 1, 2)
    lengths: tuple[FloatArray, ...]  # cumulative arc length along each ring
    samples: dict[float, tuple[FloatArray, IntArray, FloatArray, BoolArray]]


def _prepare_zones(costly: tuple[CostlyRegion, ...], reach_mm: float) -> tuple[Zone, ...]:
    """Nested unions of costly regions, one per distinct factor above 1, each grown by
    ``reach_mm``: the mover's radius, since it pays while its base overlaps the region
    (regions already ``grown`` are taken as they are)."""
    cached = _ZONES.get((costly, reach_mm))
    if cached is not None:
        return cached
    levels = sorted({region.factor for region in costly if region.factor > 1.0})
    zones: list[Zone] = []
    below = 1.0
    for level in levels:
        paying = [c for c in costly if c.factor >= level]
        union = base_overlap(
            shapely.union_all([c.polygon for c in paying if not c.grown]), reach_mm
        )
        grown = [c.polygon for c in paying if c.grown]
        if grown:
            union = shapely.union_all([union, *grown])
        inner = union.buffer(-TOLERANCE_MM, join_style="mitre")
        closed = union.buffer(TOLERANCE_MM, join_style="mitre")
        shapely.prepare(inner)
        shapely.prepare(closed)
        rings: list[FloatArray] = []
        lengths: list[FloatArray] = []
        edges: list[FloatArray] = []
        edge_ring: list[IntArray] = []
        edge_start: list[FloatArray] = []
        for part in shapely.get_parts(union):
            if not isinstance(part, shapely.Polygon) or part.is_empty:
                continue
            for ring in [part.exterior, *part.interiors]:
                coords = np.asarray(ring.coords, dtype=np.float64)
                step = np.hypot(*np.diff(coords, axis=0).T)
                coords = coords[np.concatenate([[True], step > 0.0])]
                if len(coords) < 4:
                    continue
                rings.append(coords)
                step = np.hypot(*np.diff(coords, axis=0).T)
                lengths.append(np.concatenate([[0.0], np.cumsum(step)]))
                edges.append(np.column_stack([coords[:-1], coords[1:]]))
                edge_ring.append(np.full(len(step), len(rings) - 1, dtype=np.intp))
                edge_start.append(lengths[-1][:-1])
        zones.append(
            Zone(
                level - below,
                inner,
                closed,
                np.concatenate(edges) if edges else np.zeros((0, 4)),
                np.concatenate(edge_ring) if edge_ring else np.zeros(0, dtype=np.intp),
                np.concatenate(edge_start) if edge_start else np.zeros(0),
                tuple(rings),
                tuple(lengths),
                {},
            )
        )
        below = level
    result = tuple(zones)
    remember_bounded(_ZONES, (costly, reach_mm), result, 64)
    return result


def zone_samples(zone: Zone, spacing: float) -> tuple[FloatArray, IntArray, FloatArray, BoolArray]:
    """Boundary sample points of a zone: positions, ring index, arc length, is-vertex."""
    cached = zone.samples.get(spacing)
    if cached is not None:
        return cached
    points: list[FloatArray] = []
    ring_ids: list[IntArray] = []
    params: list[FloatArray] = []
    vertex: list[BoolArray] = []
    for index, (ring, cum) in enumerate(zip(zone.rings, zone.lengths, strict=True)):
        span = np.diff(cum)
        pieces = np.maximum(1, np.ceil(span / spacing)).astype(np.intp)
        edge = np.repeat(np.arange(len(span)), pieces)
        first = np.repeat(np.cumsum(pieces) - pieces, pieces)
        fraction = (np.arange(len(edge)) - first) / pieces[edge]
        points.append(ring[edge] + fraction[:, None] * (ring[edge + 1] - ring[edge]))
        params.append(cum[edge] + fraction * span[edge])
        ring_ids.append(np.full(len(edge), index, dtype=np.intp))
        vertex.append(fraction == 0.0)
    result = (
        np.concatenate(points) if points else empty_points(),
        np.concatenate(ring_ids) if ring_ids else np.zeros(0, dtype=np.intp),
        np.concatenate(params) if params else np.zeros(0),
        np.concatenate(vertex) if vertex else np.zeros(0, dtype=bool),
    )
    zone.samples[spacing] = result
    return result


def ring_point(zone: Zone, ring: int, param: float) -> tuple[float, float]:
    """Point at arc length ``param`` (wrapping) along a zone boundary ring."""
    coords = zone.rings[ring]
    cum = zone.lengths[ring]
    total = float(cum[-1])
    s = param % total
    k = int(np.searchsorted(cum, s, side="right")) - 1
    k = min(max(k, 0), len(coords) - 2)
    span = cum[k + 1] - cum[k]
    f = (s - cum[k]) / span if span > 0.0 else 0.0
    return (
        float(coords[k, 0] + f * (coords[k + 1, 0] - coords[k, 0])),
        float(coords[k, 1] + f * (coords[k + 1, 1] - coords[k, 1])),
    )


class PreparedField:
    """A field with bounding circles of all obstacles; details are prepared on demand."""

    __slots__ = (
        "width",
        "depth",
        "sources",
        "items",
        "budgets",
        "centres",
        "bounds",
        "costly",
        "costly_boxes",
    )

    def __init__(self, field: Field) -> None:
        self.width = field.width_mm
        self.depth = field.depth_mm
        self.sources: tuple[DiscHull | BlockingPolygon, ...] = field.hulls + field.polygons
        self.items: list[Obstacle | None] = [None] * len(self.sources)
        self.budgets = [0] * len(field.hulls) + vertex_budgets(
            [vertex_count(p.polygon) for p in field.polygons]
        )
        centres = [np.zeros((0, 2))]
        bounds = [np.zeros(0)]
        if field.hulls:
            sizes = np.array([len(h.discs) for h in field.hulls])
            discs = np.concatenate([h.discs for h in field.hulls])
            owner = np.repeat(np.arange(len(sizes)), sizes)
            cx = np.bincount(owner, discs[:, 0]) / sizes
            cy = np.bincount(owner, discs[:, 1]) / sizes
            reach = np.hypot(discs[:, 0] - cx[owner], discs[:, 1] - cy[owner]) + discs[:, 2]
            bound = np.zeros(len(sizes))
            np.maximum.at(bound, owner, reach)
            centres.append(np.column_stack([cx, cy]))
            bounds.append(bound)
        if field.polygons:
            box = shapely.bounds(np.array([p.polygon for p in field.polygons], dtype=object))
            centres.append((box[:, :2] + box[:, 2:]) / 2.0)
            bounds.append(np.hypot(box[:, 2] - box[:, 0], box[:, 3] - box[:, 1]) / 2.0)
        self.centres = np.concatenate(centres)
        self.bounds = np.concatenate(bounds)
        self.costly = tuple(
            region if outline is region.polygon else dataclasses.replace(region, polygon=outline)
            for region, budget in zip(
                field.costly,
                vertex_budgets([vertex_count(c.polygon) for c in field.costly]),
                strict=True,
            )
            for outline in (path_outline(region.polygon, budget)[0],)
        )
        if self.costly:
            self.costly_boxes = shapely.bounds(
                np.array([c.polygon for c in self.costly], dtype=object)
            )
        else:
            self.costly_boxes = np.zeros((0, 4))

    def obstacle(self, index: int) -> Obstacle:
        """The prepared obstacle ``index`` (hulls first, then polygons)."""
        item = self.items[index]
        if item is None:
            source = self.sources[index]
            if isinstance(source, DiscHull):
                item = _prepare_hull(source)
            else:
                item = _prepare_polygon(source, self.budgets[index])
            self.items[index] = item
        return item

    def zones_for(
        self, box: tuple[float, float, float, float], reach_mm: float
    ) -> tuple[Zone, ...]:
        """Zones of the costly regions whose bounds, grown by ``reach_mm``, meet ``box``."""
        if not self.costly:
            return ()
        b = self.costly_boxes
        r = reach_mm
        near = (
            (b[:, 2] + r >= box[0])
            & (b[:, 0] - r <= box[2])
            & (b[:, 3] + r >= box[1])
            & (b[:, 1] - r <= box[3])
        )
        chosen = tuple(self.costly[k] for k in np.nonzero(near)[0])
        return _prepare_zones(chosen, reach_mm) if chosen else ()


def remember_bounded(store: dict[_K, _V], key: _K, value: _V, size: int) -> None:
    """Insert into a small cache, dropping the oldest entries beyond ``size``."""
    store[key] = value
    while len(store) > size:
        try:
            store.pop(next(iter(store)), None)
        except (StopIteration, RuntimeError):
            break


def prepare_field(field: Field) -> PreparedField:
    """Prepare a field (cached by identity for a few fields)."""
    hit = _FIELDS.get(id(field))
    if hit is not None and hit[0] is field:
        return hit[1]
    prepared = PreparedField(field)
    remember_bounded(_FIELDS, id(field), (field, prepared), 8)
    return prepared


_FIELDS: dict[int, tuple[Field, PreparedField]] = {}
_HULLS: dict[tuple[str, bytes], Obstacle] = {}
_POLYGONS: dict[tuple[BlockingPolygon, int], Obstacle] = {}
_ZONES: dict[tuple[tuple[CostlyRegion, ...], float], tuple[Zone, ...]] = {}
