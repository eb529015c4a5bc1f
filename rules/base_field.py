"""The ground a square or rectangular base moves over, for the path finder, exactly.

The path finder moves a disc. A base of another shape that keeps its facing along a
move (Smooth & Rifled turns at the end of a move, M.B.T. keeps the facing) is exactly
a point moving among obstacles grown by the base's own outline: the centres at which
the base, at that facing, would overlap an obstacle (`overlap_centres`). The disc round
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

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.geometry import overlap_centres
from arbitre.rules.pathing.model import FloatArray
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
    shift = low.copy()
    points = [np.asarray(p, dtype=np.float64) for p in free_at]

    def moved(geometry: shapely.Geometry) -> shapely.Geometry:
        return shapely.transform(geometry, lambda xy: xy + shift)

    grown_hulls = []
    for hull in hulls:
        discs = _grown_discs(hull.discs, shape)
        if any(_in_disc_hull(discs, p) for p in points):
            if any(_in_disc_hull(hull.discs, p) for p in points):
                continue
            discs = hull.discs  # overlapped where the move starts or ends: its own shape
        grown_hulls.append(pathing.DiscHull(discs + [*shift, 0.0], hull.ident))
    grown_polygons = []
    for blocking in polygons:
        kept = overlap_centres(blocking.polygon, shape)
        if any(_in_polygon(kept, p) for p in points):
            if any(_in_polygon(blocking.polygon, p) for p in points):
                continue
            kept = blocking.polygon  # overlapped where the move starts or ends: its own shape
        grown_polygons += [
            pathing.BlockingPolygon(moved(part), blocking.ident)
            for part in shapely.get_parts(kept)
            if isinstance(part, shapely.Polygon) and part.area > 0.0
        ]
    regions = grown_by_base(
        (pathing.CostlyRegion(moved(r.polygon), r.factor, r.ident) for r in costly), shape
    )
    field = pathing.Field(
        float(width_mm - (high[0] - low[0])),
        float(depth_mm - (high[1] - low[1])),
        hulls=tuple(grown_hulls),
        polygons=tuple(grown_polygons),
        costly=regions,
    )
    return BaseField(field, shift, MOVER_RADIUS_MM)


def _grown_discs(discs: FloatArray, shape: FloatArray) -> FloatArray:
    """The discs (N * V, 3) whose hull is the hull of ``discs`` grown by a convex shape
    turned half round: each disc moved by each of the turned shape's corners."""
    moved = discs[:, None, :2] - shape[None, :, :]
    radii = np.broadcast_to(discs[:, None, 2:], (*moved.shape[:2], 1))
    return np.concatenate([moved, radii], axis=2).reshape(-1, 3)


def _in_disc_hull(discs: FloatArray, point: FloatArray) -> bool:
    """Whether a point lies in the convex hull of discs (N, 3) deeper than the path
    finder's touching tolerance: exactly, when the discs have one radius (the hull of
    their centres grown by it), else on the hull drawn with 256 sides a disc."""
    spot = shapely.Point(float(point[0]), float(point[1]))
    radii = discs[:, 2]
    if np.all(radii == radii[0]):
        centres = shapely.convex_hull(shapely.multipoints(discs[:, :2]))
        return bool(shapely.distance(centres, spot) < radii[0] - pathing.TOLERANCE_MM)
    drawn = shapely.buffer(shapely.points(discs[:, :2]), radii, quad_segs=64)
    return _in_polygon(shapely.convex_hull(shapely.union_all(drawn)), point)


def _in_polygon(geometry: shapely.Geometry, point: FloatArray) -> bool:
    """Whether a point lies in ``geometry`` deeper than the path finder's touching
    tolerance."""
    spot = shapely.Point(float(point[0]), float(point[1]))
    return bool(
        shapely.contains(geometry, spot)
        and shapely.distance(geometry.boundary, spot) > pathing.TOLERANCE_MM
    )
