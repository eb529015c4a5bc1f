"""The ground a square or rectangular base moves over, for the path finder, exactly.

The path finder moves a disc. A base of another shape that keeps its facing along a
move (Smooth & Rifled turns at the end of a move, M.B.T. keeps the facing) is exactly
a point moving among obstacles grown by the base's own outline: the centres at which
the base, at that facing, would overlap an obstacle (`overlap_centres_of`). The disc round
the base would keep it a diagonal's width from everything, and a base that fits through
a gap with room to spare would be told the gap is closed.

`base_field` builds that field: other bases, impassable ground and costly ground grown
by the outline, and the table shrunk so that the whole outline stays on it, in a frame
shifted so that its table starts at (0, 0). `disc_field` is the same for a round base:
the path finder's own field. Either answers in table mm (`BaseField`).

An obstacle the base already overlaps where a move starts (or where it ends) does not
trap it: the base may not go deeper into it than it already is (its grown outline,
shrunk by that depth, blocks). A start overhanging the table's edge may stay as close
to it as it already is.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.geometry import are_convex, overlap_centres_of
from arbitre.rules.pathing.model import FloatArray, IntArray
from arbitre.rules.terrain import grown_by_base, straight_cost_mm

MOVER_RADIUS_MM = 0.0
"""The radius the path finder is given for a base that is not round: a point."""


@dataclass(frozen=True, slots=True, eq=False)
class BaseField:
    """A path finder's field for one mover, in the field's own frame.

    A round base is the path finder's disc (``radius_mm``) on the table as it is. A
    base of another outline is a point (``radius_mm`` 0) among obstacles and costly
    ground grown by that outline, on the table of the centres where the whole base is
    on the real table, shifted by ``shift_mm``: a field point is a table point plus
    ``shift_mm``. The questions below take and give table points.
    """

    field: pathing.Field
    shift_mm: FloatArray  # (2,)
    radius_mm: float

    def shortest_path(
        self, start: FloatArray, goal: FloatArray, max_cost_mm: float | None = None
    ) -> pathing.Path:
        """`pathing.shortest_path` from ``start`` to ``goal`` (table mm)."""
        path = pathing.shortest_path(
            self.field,
            start + self.shift_mm,
            goal + self.shift_mm,
            self.radius_mm,
            max_cost_mm=max_cost_mm,
        )
        return dataclasses.replace(path, points_mm=path.points_mm - self.shift_mm)

    def reachable_area(self, start: FloatArray, budget_mm: float) -> shapely.Geometry:
        """`pathing.reachable_area` from ``start`` (table mm), on the table."""
        area = pathing.reachable_area(self.field, start + self.shift_mm, self.radius_mm, budget_mm)
        if not self.shift_mm.any():
            return area
        return shapely.transform(area, lambda xy: xy - self.shift_mm)

    def straight_cost_mm(self, start: FloatArray, goal: FloatArray) -> float:
        """`straight_cost_mm` of the segment from ``start`` to ``goal`` (table mm)."""
        return straight_cost_mm(
            self.field, start + self.shift_mm, goal + self.shift_mm, self.radius_mm
        )


def disc_field(field: pathing.Field, radius_mm: float) -> BaseField:
    """The field of a round base: the path finder's own, unshifted."""
    return BaseField(field, np.zeros(2), float(radius_mm))


def base_field(
    width_mm: float,
    depth_mm: float,
    outline: FloatArray,
    *,
    hulls: Iterable[pathing.DiscHull] = (),
    polygons: Iterable[pathing.BlockingPolygon] = (),
    costly: Iterable[pathing.CostlyRegion] = (),
    free_at: Iterable[FloatArray] = (),
) -> BaseField:
    """The field over which a base of ``outline`` (its corners about its centre, (V, 2),
    convex, at the facing it keeps) moves as a point (`MOVER_RADIUS_MM`).

    ``hulls`` and ``polygons`` block, ``costly`` costs, each as the path finder takes
    them for a disc (ungrown, in table mm). ``free_at`` are the table points (the start,
    the goal) where the base may already overlap an obstacle.

    A 40 x 20 mm base between two boxes 30 mm apart: the centres it may take run
    between them, 5 mm from each, and 20 mm from the table's sides:

    >>> base = np.array([[20.0, 10], [-20, 10], [-20, -10], [20, -10]])
    >>> walls = [pathing.BlockingPolygon(shapely.box(100, y, 200, y + 100), str(y))
    ...          for y in (0, 130)]
    >>> ground = base_field(300, 230, base, polygons=walls)
    >>> ground.field.width_mm, ground.field.depth_mm, ground.shift_mm.tolist()
    (260.0, 210.0, [-20.0, -10.0])
    >>> [(np.array(p.polygon.bounds) - np.tile(ground.shift_mm, 2)).tolist()
    ...  for p in ground.field.polygons]  # in table mm
    [[80.0, -10.0, 220.0, 110.0], [80.0, 120.0, 220.0, 240.0]]
    >>> way = ground.shortest_path(np.array([40.0, 115]), np.array([260.0, 115]))
    >>> way.cost_mm, way.points_mm.tolist()
    (220.0, [[40.0, 115.0], [260.0, 115.0]])
    """
    shape: FloatArray = np.asarray(outline, dtype=np.float64).reshape(-1, 2)
    low, high = shape.min(axis=0), shape.max(axis=0)
    points = [np.asarray(p, dtype=np.float64) for p in free_at]
    # The centres that keep the whole base on the table, and the points given (a start
    # overhanging the edge may stay as close to it as it already is).
    corner = np.min([-low, *points], axis=0)
    far = np.max([np.array([width_mm, depth_mm]) - high, *points], axis=0)
    shift = -corner

    shrunk_hulls: list[tuple[shapely.Geometry, str]] = []  # grown, then shrunk: polygons
    hull_list = list(hulls)
    grown_discs = _grown_hulls(hull_list, shape)
    depths = np.zeros(len(hull_list))
    near = _hulls_near(hull_list, shape, points)
    depths[near] = _hull_depths([grown_discs[k] for k in near], points)
    grown_hulls = []
    for hull, discs, depth in zip(hull_list, grown_discs, depths, strict=True):
        if depth > 0.0:  # overlapped where the move starts or ends: no deeper
            radius = float(discs[:, 2].min())
            if depth >= radius or np.any(discs[:, 2] != radius):
                core, by = _disc_hull_polygon(discs, depth)
                shrunk_hulls.append((_no_deeper(core, by), hull.ident))
                continue
            discs = discs - [0.0, 0.0, depth]
        grown_hulls.append(pathing.DiscHull(discs + [*shift, 0.0], hull.ident))

    blocking = list(polygons)
    grown = overlap_centres_of(np.array([b.polygon for b in blocking], dtype=object), shape)
    depths = _polygon_depths(grown, points)
    deep = np.nonzero(depths > 0.0)[0]
    if len(deep):  # overlapped where the move starts or ends: no deeper
        grown[deep] = [_no_deeper(g, d) for g, d in zip(grown[deep], depths[deep], strict=True)]
    idents = [b.ident for b in blocking] + [ident for _, ident in shrunk_hulls]
    shapes = np.array([*grown, *(g for g, _ in shrunk_hulls)], dtype=object)
    parts, owner = shapely.get_parts(_moved(shapes, shift), return_index=True)
    grown_polygons = tuple(
        pathing.BlockingPolygon(part, idents[k])
        for part, k in zip(parts, owner, strict=True)
        if isinstance(part, shapely.Polygon) and part.area > 0.0
    )

    regions = grown_by_base(
        (pathing.CostlyRegion(_moved(r.polygon, shift), r.factor, r.ident) for r in costly), shape
    )
    field = pathing.Field(
        float(far[0] - corner[0]),
        float(far[1] - corner[1]),
        hulls=tuple(grown_hulls),
        polygons=grown_polygons,
        costly=regions,
    )
    return BaseField(field, shift, MOVER_RADIUS_MM)


def _moved(geometry: Any, by: FloatArray) -> Any:
    """A geometry (or an object array of them) moved by ``by`` (2,)."""
    return shapely.transform(geometry, lambda xy: xy + by)


_ARC_SEGMENTS = 8
"""Segments a quarter of a circle is drawn with where a polygon is shrunk."""


def _no_deeper(polygon: shapely.Geometry, depth: float) -> shapely.Geometry:
    """The centres at which a base is deeper than ``depth`` in an obstacle whose grown
    outline is ``polygon``: that outline shrunk by ``depth``. Round an inner corner the
    shrunk outline has an arc, drawn with chords that cut into the circle: it is shrunk
    by so much more that the chords keep ``depth`` from the corner, and a base as deep as
    that, right by the corner, is not inside."""
    if are_convex(np.array([polygon], dtype=object))[0]:
        return shapely.buffer(polygon, -depth)  # convex: shrunk exactly, no arcs
    chord = math.cos(math.pi / (4 * _ARC_SEGMENTS))
    return shapely.buffer(polygon, -depth / chord, quad_segs=_ARC_SEGMENTS)


def _disc_hull_polygon(discs: FloatArray, depth: float) -> tuple[shapely.Geometry, float]:
    """A hull of discs (N, 3) as a polygon to shrink by the returned depth: for discs of
    one radius under ``depth``, the hull of their centres and ``depth`` less the radius;
    otherwise the hull drawn with 256 sides a disc, and ``depth`` itself."""
    radius = float(discs[0, 2])
    if np.all(discs[:, 2] == radius) and depth >= radius:
        centres = shapely.convex_hull(shapely.multipoints(discs[:, :2]))
        return centres, depth - radius
    return _drawn_hull(discs), depth


def _drawn_hull(discs: FloatArray) -> shapely.Geometry:
    """The convex hull of discs (N, 3) of several radii, drawn with 256 sides a disc."""
    drawn = shapely.buffer(shapely.points(discs[:, :2]), discs[:, 2], quad_segs=64)
    return shapely.convex_hull(shapely.union_all(drawn))


def _grown_hulls(hulls: list[pathing.DiscHull], shape: FloatArray) -> list[FloatArray]:
    """For each hull of N discs, the discs (N * V, 3) whose hull is that hull grown by a
    convex shape of V corners turned half round: each disc moved by each of the turned
    shape's corners (all hulls at once)."""
    if not hulls:
        return []
    discs = np.concatenate([h.discs for h in hulls])
    moved = discs[:, None, :2] - shape[None, :, :]
    radii = np.broadcast_to(discs[:, None, 2:], (*moved.shape[:2], 1))
    grown = np.concatenate([moved, radii], axis=2)
    ends = np.cumsum([len(h.discs) for h in hulls])[:-1]
    return [part.reshape(-1, 3) for part in np.split(grown, ends)]


def _hulls_near(
    hulls: list[pathing.DiscHull], shape: FloatArray, points: list[FloatArray]
) -> IntArray:
    """The hulls a base of this outline could overlap at one of the points: those with a
    disc within its radius and the outline's reach of one."""
    if not hulls or not points:
        return np.zeros(0, dtype=np.intp)
    discs = np.concatenate([h.discs for h in hulls])
    owner = np.repeat(np.arange(len(hulls)), [len(h.discs) for h in hulls])
    reach = float(np.hypot(shape[:, 0], shape[:, 1]).max())
    close = np.zeros(len(discs), dtype=bool)
    for point in points:
        gap = np.hypot(discs[:, 0] - point[0], discs[:, 1] - point[1]) - discs[:, 2] - reach
        close |= gap <= pathing.TOLERANCE_MM
    return np.unique(owner[close])


def _hull_depths(discs: list[FloatArray], points: list[FloatArray]) -> FloatArray:
    """How deep the deepest of the points lies in each convex hull of discs ((N, 3) each),
    0 where none lies deeper than the path finder's touching tolerance: exactly for discs
    of one radius (the hull of their centres grown by it), else on the hull drawn with
    256 sides a disc."""
    depth = np.zeros(len(discs))
    if not discs or not points:
        return depth
    one_radius = np.array([bool(np.all(d[:, 2] == d[0, 2])) for d in discs])
    same = np.nonzero(one_radius)[0]
    if len(same):
        centres = np.concatenate([discs[k][:, :2] for k in same])
        owner = np.repeat(np.arange(len(same)), [len(discs[k]) for k in same])
        cores = shapely.convex_hull(shapely.multipoints(centres, indices=owner))
        radii = np.array([discs[k][0, 2] for k in same])
        rims = shapely.boundary(cores)
        for point in points:
            spot = shapely.Point(float(point[0]), float(point[1]))
            # a point within the centres' hull is the radius deep and then some
            inner = np.where(shapely.contains(cores, spot), shapely.distance(rims, spot), 0.0)
            here = radii - shapely.distance(cores, spot) + inner
            depth[same] = np.maximum(depth[same], here)
    for k in np.nonzero(~one_radius)[0]:
        depth[k] = _polygon_depths(np.array([_drawn_hull(discs[k])], dtype=object), points)[0]
    return np.where(depth > pathing.TOLERANCE_MM, depth, 0.0)


def _polygon_depths(polygons: np.ndarray, points: list[FloatArray]) -> FloatArray:
    """How deep the deepest of the points lies in each polygon of an object array, 0 where
    none lies deeper than the path finder's touching tolerance."""
    depth = np.zeros(len(polygons))
    for point in points:
        inside = np.nonzero(shapely.contains_xy(polygons, float(point[0]), float(point[1])))[0]
        if len(inside):
            spot = shapely.Point(float(point[0]), float(point[1]))
            here = shapely.distance(shapely.boundary(polygons[inside]), spot)
            depth[inside] = np.maximum(depth[inside], here)
    return np.where(depth > pathing.TOLERANCE_MM, depth, 0.0)
