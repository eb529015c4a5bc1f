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
trap it: as the path finder does for a disc, that obstacle then blocks with its own
shape only, and not at all if the base's centre lies within it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.geometry import overlap_centres_of
from arbitre.rules.pathing.model import BoolArray, FloatArray
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

    hull_list = list(hulls)
    own_discs = [h.discs for h in hull_list]
    grown_discs = [_grown_discs(d, shape) for d in own_discs]
    held = _hulls_holding(grown_discs, points)
    dropped = held & _hulls_holding(own_discs, points)
    grown_hulls = tuple(
        pathing.DiscHull((own_discs[k] if held[k] else grown_discs[k]) + [*low, 0.0], hull.ident)
        for k, hull in enumerate(hull_list)
        if not dropped[k]
    )

    blocking = list(polygons)
    own = np.array([b.polygon for b in blocking], dtype=object)
    grown = overlap_centres_of(own, shape)
    held = _polygons_holding(grown, points)
    dropped = held & _polygons_holding(own, points)
    # overlapped where the move starts or ends: the obstacle's own shape
    kept = _moved(np.where(held, own, grown)[~dropped], low)
    idents = [b.ident for b, gone in zip(blocking, dropped, strict=True) if not gone]
    parts, owner = shapely.get_parts(kept, return_index=True)
    grown_polygons = tuple(
        pathing.BlockingPolygon(part, idents[k])
        for part, k in zip(parts, owner, strict=True)
        if isinstance(part, shapely.Polygon) and part.area > 0.0
    )

    regions = grown_by_base(
        (pathing.CostlyRegion(_moved(r.polygon, low), r.factor, r.ident) for r in costly), shape
    )
    field = pathing.Field(
        float(width_mm - (high[0] - low[0])),
        float(depth_mm - (high[1] - low[1])),
        hulls=grown_hulls,
        polygons=grown_polygons,
        costly=regions,
    )
    return BaseField(field, low, MOVER_RADIUS_MM)


def _moved(geometry: Any, by: FloatArray) -> Any:
    """A geometry (or an object array of them) moved by ``by`` (2,)."""
    return shapely.transform(geometry, lambda xy: xy + by)


def _grown_discs(discs: FloatArray, shape: FloatArray) -> FloatArray:
    """The discs (N * V, 3) whose hull is the hull of ``discs`` grown by a convex shape
    turned half round: each disc moved by each of the turned shape's corners."""
    moved = discs[:, None, :2] - shape[None, :, :]
    radii = np.broadcast_to(discs[:, None, 2:], (*moved.shape[:2], 1))
    return np.concatenate([moved, radii], axis=2).reshape(-1, 3)


def _hulls_holding(discs: list[FloatArray], points: list[FloatArray]) -> BoolArray:
    """Which convex hulls of discs ((N, 3) each) hold one of the points deeper than the
    path finder's touching tolerance: exactly for discs of one radius (the hull of their
    centres grown by it), else on the hull drawn with 256 sides a disc."""
    held = np.zeros(len(discs), dtype=bool)
    if not discs or not points:
        return held
    one_radius = np.array([bool(np.all(d[:, 2] == d[0, 2])) for d in discs])
    same = np.nonzero(one_radius)[0]
    if len(same):
        centres = np.concatenate([discs[k][:, :2] for k in same])
        owner = np.repeat(np.arange(len(same)), [len(discs[k]) for k in same])
        cores = shapely.convex_hull(shapely.multipoints(centres, indices=owner))
        radii = np.array([discs[k][0, 2] for k in same])
        for point in points:
            spot = shapely.Point(float(point[0]), float(point[1]))
            held[same] |= shapely.distance(cores, spot) < radii - pathing.TOLERANCE_MM
    for k in np.nonzero(~one_radius)[0]:
        drawn = shapely.buffer(shapely.points(discs[k][:, :2]), discs[k][:, 2], quad_segs=64)
        hull = np.array([shapely.convex_hull(shapely.union_all(drawn))], dtype=object)
        held[k] = bool(_polygons_holding(hull, points)[0])
    return held


def _polygons_holding(polygons: np.ndarray, points: list[FloatArray]) -> BoolArray:
    """Which polygons of an object array hold one of the points deeper than the path
    finder's touching tolerance."""
    held = np.zeros(len(polygons), dtype=bool)
    for point in points:
        inside = np.nonzero(shapely.contains_xy(polygons, float(point[0]), float(point[1])))[0]
        if len(inside):
            spot = shapely.Point(float(point[0]), float(point[1]))
            deep = shapely.distance(shapely.boundary(polygons[inside]), spot)
            held[inside[deep > pathing.TOLERANCE_MM]] = True
    return held
