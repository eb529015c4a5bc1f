"""Fields, movers and hand formulas shared by the tests of shortest paths and reachable
areas."""

from __future__ import annotations

import math

import numpy as np
import shapely

from arbitre.rules.pathing import BlockingPolygon, CostlyRegion, DiscHull, Field
from arbitre.rules.pathing.prepare import prepare_field
from arbitre.rules.pathing.query import blocking_levels, table_rect
from arbitre.rules.pathing.region import Region, RegionKind
from arbitre.rules.pathing.scene import QueryScene

R_MOVER = 12.5
TABLE = (1200.0, 900.0)


def disc(x: float, y: float, radius: float, ident: str) -> DiscHull:
    return DiscHull(np.array([[x, y, radius]]), ident)


def query_scene(
    field: Field, start: tuple[float, float], goal: tuple[float, float] | None = None
) -> QueryScene:
    """The scene of a query for a mover of radius `R_MOVER` from ``start`` (to ``goal``),
    searched over the whole table, with boundary samples 5 mm apart."""
    prep = prepare_field(field)
    points = [start] if goal is None else [start, goal]
    rect = table_rect(prep, R_MOVER, start)
    assert rect is not None
    everywhere = Region(RegionKind.EVERYWHERE, 0.0, 0.0, 0.0, 0.0, 0.0)
    levels = blocking_levels(prep, R_MOVER, points)
    return QueryScene(prep, R_MOVER, start, goal, levels, rect, everywhere, 5.0)


def single_disc_length(d_start: float, d_goal: float, rho: float, apart: float) -> float:
    """Two tangents and the arc between them around a disc of radius rho.

    Start and goal are d_start, d_goal from the centre and ``apart`` radians apart
    as seen from it. Tangent k has length sqrt(d_k^2 - rho^2) and touches the
    circle acos(rho / d_k) away from the direction of its point; the arc is what is
    left of ``apart``: rho * (apart - acos(rho/d_start) - acos(rho/d_goal)).
    """
    tangents = math.sqrt(d_start**2 - rho**2) + math.sqrt(d_goal**2 - rho**2)
    turn = apart - math.acos(rho / d_start) - math.acos(rho / d_goal)
    return tangents + rho * turn


# A wood of factor 2 at the top of a 1200 x 1200 table: x 300-600, y 1050-1190.
DEEP_WOOD = Field(
    1200.0, 1200.0, costly=(CostlyRegion(shapely.box(300, 1050, 600, 1190), 2.0, "wood"),)
)


def random_field(seed: int, costly: bool) -> Field:
    """A 600 x 400 table with figures, a group, a rock and (optionally) mud."""
    rng = np.random.default_rng(seed)
    hulls = [
        disc(*rng.uniform([60, 60], [540, 340]), rng.uniform(8, 20), f"f{k}")
        for k in range(int(rng.integers(2, 6)))
    ]
    base = rng.uniform([80, 80], [520, 320])
    group = np.column_stack([base + rng.uniform(-30, 30, (3, 2)), np.full(3, 12.5)])
    hulls.append(DiscHull(group, "group"))
    polygons = []
    for k in range(int(rng.integers(0, 3))):
        centre = rng.uniform([80, 80], [520, 320])
        points = centre + rng.uniform(-35, 35, (6, 2))
        polygons.append(BlockingPolygon(shapely.MultiPoint(points).convex_hull, f"rock{k}"))
    regions = []
    if costly:
        for k in range(int(rng.integers(1, 3))):
            centre = rng.uniform([80, 80], [520, 320])
            points = centre + rng.uniform(-60, 60, (7, 2))
            regions.append(CostlyRegion(shapely.MultiPoint(points).convex_hull, 2.0, f"mud{k}"))
    return Field(600.0, 400.0, tuple(hulls), tuple(polygons), tuple(regions))


def grown_obstacles(field: Field, grow: float) -> list[shapely.Geometry]:
    """Obstacles grown by ``grow`` (polygons inside the exact shapes)."""
    shapes = []
    for hull in field.hulls:
        circles = [shapely.Point(x, y).buffer(r + grow, quad_segs=32) for x, y, r in hull.discs]
        shapes.append(shapely.union_all(circles).convex_hull)
    for blocking in field.polygons:
        shapes.append(blocking.polygon.buffer(grow, quad_segs=32))
    return shapes


def free_points(field: Field, rng: np.random.Generator, count: int) -> np.ndarray:
    """Random centres at least 0.01 mm clear of every grown obstacle and edge."""
    blocked = shapely.union_all(grown_obstacles(field, R_MOVER + 0.01))
    pts = rng.uniform(
        [R_MOVER + 0.01] * 2,
        [field.width_mm - R_MOVER - 0.01, field.depth_mm - R_MOVER - 0.01],
        (count * 4, 2),
    )
    pts = pts[~shapely.intersects_xy(blocked, pts[:, 0], pts[:, 1])]
    return pts[:count]
