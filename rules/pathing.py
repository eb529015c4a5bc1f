"""Exact shortest paths and reachable areas for a disc-shaped mover on a table.

Model
-----
The mover is a disc of radius ``r``; the problem is solved for its centre in the
configuration space, where every obstacle is grown by ``r``:

* a :class:`DiscHull` (the convex hull of figure bases) becomes the convex hull of
  its discs with radii ``R_i + r``;
* a :class:`BlockingPolygon` becomes ``polygon ⊕ disc(r)``;
* the table edge keeps the centre inside ``[r, W - r] x [r, D - r]``.

Touching is allowed: a centre or a path may come within
:data:`TOLERANCE_MM` of a grown obstacle's boundary from outside.

Shortest paths are exact (no grid): a tangent visibility graph whose nodes are the
start, the goal, tangent points on the grown discs (hull discs, and discs of
radius ``r`` around the convex corners of polygons) and points on the boundaries
of costly regions. Edges are free tangent segments and free arcs; the free arcs
of every circle are found exactly from its intersections with the other grown
obstacles and the table edge. The graph is searched lazily with A* (Dijkstra for
reachable areas), only over what a path within the allowance can reach (an
ellipse with the start and goal as foci, or a disc around the start). Lengths
count arcs as ``r * theta``; ``points_mm`` samples arcs every 2 degrees.

Costly regions
--------------
Each mm inside a :class:`CostlyRegion` costs ``factor`` mm. Where regions overlap
the highest factor applies; region boundaries count as outside (a path may skirt
difficult ground at normal cost). Segment costs are exact (clipped against the
regions). Paths may bend on region boundaries: the boundary nodes are the
regions' vertices, points every few mm along their edges and the points where a
boundary meets a grown obstacle. Every bend of the path found on a boundary, and
every point where one of its straight pieces crosses a boundary, is then moved
along the boundary by bounded 1-D minimisations until the cost changes by less
than 1e-4 mm, which recovers the refraction of the optimum. When costly regions
shape the path and its cost is within 5 % of the allowance (or there is no
allowance), the search is repeated in a corridor around it with boundary points
every 2 mm, and the cheaper answer is kept.

Obstacles overlapped at the start or at the goal
------------------------------------------------
An obstacle that the mover's disc already overlaps at the start (or at the goal)
does not trap it: for that query the obstacle blocks only with its raw,
un-grown shape. If the centre itself lies inside the raw obstacle, the obstacle
is ignored. A start whose disc overhangs the table edge may stay as close to that
edge as it already is; a goal must have its whole disc on the table.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeVar, cast

import numpy as np
import numpy.typing as npt
import shapely
from scipy.optimize import minimize_scalar

__all__ = [
    "TOLERANCE_MM",
    "BlockingPolygon",
    "CostlyRegion",
    "DiscHull",
    "Field",
    "Path",
    "Terrain",
    "reachable_area",
    "shortest_path",
]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]
_K = TypeVar("_K")
_V = TypeVar("_V")

TOLERANCE_MM: Final[float] = 1e-6
"""Distance by which a path may approach a grown obstacle and still count as touching."""

_TWO_PI: Final = 2.0 * math.pi
_OUTPUT_ARC_STEP: Final = math.radians(2.0)
_SEARCH_SPACING_MM: Final = 8.0
_AREA_SPACING_MM: Final = 5.0
_POLISH_SPACING_MM: Final = 2.0
_CORRIDOR_MM: Final = 16.0
_REFINE_STOP_MM: Final = 1e-4
_SWEEP_STEP: Final = math.radians(2.0)
_SWEEP_STEP_MM: Final = 1.5
_CONE: Final = math.radians(25.0)
_BIG: Final = 1e18
_FULL, _RAW, _IGNORED = 2, 1, 0


# --------------------------------------------------------------------------- inputs


def _finite_float(value: object, name: str) -> float:
    """Return ``value`` as a finite float or raise ``ValueError``."""
    try:
        number = float(cast(float, value))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a number, got {value!r}") from exc
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return number


def _check_polygon(polygon: object, name: str) -> shapely.Polygon:
    """Return ``polygon`` if it is a valid, non-empty shapely Polygon."""
    if not isinstance(polygon, shapely.Polygon):
        raise ValueError(f"{name} must be a shapely Polygon, got {polygon!r}")
    if polygon.is_empty:
        raise ValueError(f"{name} must not be empty, got {polygon!r}")
    if not np.all(np.isfinite(shapely.get_coordinates(polygon))):
        raise ValueError(f"{name} must have finite coordinates, got {polygon!r}")
    if not polygon.is_valid or polygon.area <= 0.0:
        raise ValueError(f"{name} must be a valid polygon with an area, got {polygon!r}")
    return polygon


@dataclass(frozen=True, slots=True, eq=False)
class DiscHull:
    """A blocking obstacle: the convex hull of a set of discs (one disc = a round figure
    base; several = a group footprint).

    ``discs`` is an ``(N, 3)`` float64 array of ``x_mm, y_mm, radius_mm`` with N >= 1.
    """

    discs: FloatArray
    ident: str

    def __post_init__(self) -> None:
        try:
            array = np.array(self.discs, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"discs must be numbers, got {self.discs!r}") from exc
        if array.ndim == 1 and array.shape[0] == 3:
            array = array.reshape(1, 3)
        if array.ndim != 2 or array.shape[1] != 3 or array.shape[0] < 1:
            raise ValueError(f"discs must have shape (N, 3) with N >= 1, got {self.discs!r}")
        if not np.all(np.isfinite(array)):
            raise ValueError(f"discs must be finite, got {self.discs!r}")
        if np.any(array[:, 2] < 0.0):
            raise ValueError(f"disc radii must be >= 0, got {self.discs!r}")
        array.setflags(write=False)
        object.__setattr__(self, "discs", array)
        object.__setattr__(self, "ident", str(self.ident))


@dataclass(frozen=True, slots=True)
class BlockingPolygon:
    """A blocking obstacle given as a polygon (impassable terrain), possibly non-convex,
    maybe with holes."""

    polygon: shapely.Polygon
    ident: str

    def __post_init__(self) -> None:
        _check_polygon(self.polygon, "polygon")
        object.__setattr__(self, "ident", str(self.ident))


@dataclass(frozen=True, slots=True)
class CostlyRegion:
    """Terrain where each mm of path costs ``factor`` mm (difficult ground: factor 2)."""

    polygon: shapely.Polygon
    factor: float
    ident: str

    def __post_init__(self) -> None:
        _check_polygon(self.polygon, "polygon")
        factor = _finite_float(self.factor, "factor")
        if factor < 1.0:
            raise ValueError(f"factor must be >= 1, got {self.factor!r}")
        object.__setattr__(self, "factor", factor)
        object.__setattr__(self, "ident", str(self.ident))


@dataclass(frozen=True, slots=True)
class Field:
    """The table ``[0, width_mm] x [0, depth_mm]`` with its obstacles and costly regions."""

    width_mm: float
    depth_mm: float
    hulls: tuple[DiscHull, ...] = ()
    polygons: tuple[BlockingPolygon, ...] = ()
    costly: tuple[CostlyRegion, ...] = ()

    def __post_init__(self) -> None:
        for name in ("width_mm", "depth_mm"):
            value = _finite_float(getattr(self, name), name)
            if value <= 0.0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)!r}")
            object.__setattr__(self, name, value)
        for name, kind in (
            ("hulls", DiscHull),
            ("polygons", BlockingPolygon),
            ("costly", CostlyRegion),
        ):
            items = tuple(getattr(self, name))
            for item in items:
                if not isinstance(item, kind):
                    raise ValueError(f"{name} must hold {kind.__name__} items, got {item!r}")
            object.__setattr__(self, name, items)


Terrain = Field


@dataclass(frozen=True, slots=True, eq=False)
class Path:
    """The answer of :func:`shortest_path`.

    ``points_mm`` is a ``(K, 2)`` polyline from start to goal (arcs sampled every
    2 degrees); ``blocked_by`` names the obstacles that the straight segment from
    start to goal crosses.
    """

    found: bool
    cost_mm: float
    length_mm: float
    points_mm: FloatArray
    blocked_by: tuple[str, ...]


def _as_point(value: object, name: str) -> tuple[float, float]:
    """Return ``value`` as a finite ``(x, y)`` pair or raise ``ValueError``."""
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be an (x, y) pair in mm, got {value!r}") from exc
    if array.shape != (2,):
        raise ValueError(f"{name} must be an (x, y) pair in mm, got {value!r}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return float(array[0]), float(array[1])


def _as_length(value: object, name: str) -> float:
    """Return ``value`` as a finite, non-negative length or raise ``ValueError``."""
    number = _finite_float(value, name)
    if number < 0.0:
        raise ValueError(f"{name} must be >= 0, got {value!r}")
    return number


# ------------------------------------------------------------------ small geometry


def _cross2(ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray) -> FloatArray:
    """z component of the cross product of 2-D vectors."""
    return ax * by - ay * bx


def _point_segment_dist2(
    px: FloatArray,
    py: FloatArray,
    ax: FloatArray,
    ay: FloatArray,
    bx: FloatArray,
    by: FloatArray,
) -> FloatArray:
    """Squared distance from points to segments (broadcasting)."""
    ex = bx - ax
    ey = by - ay
    length2 = ex * ex + ey * ey
    t = ((px - ax) * ex + (py - ay) * ey) / np.where(length2 > 0.0, length2, 1.0)
    t = np.clip(t, 0.0, 1.0)
    dx = ax + t * ex - px
    dy = ay + t * ey - py
    return dx * dx + dy * dy


def _segment_segment_dist(
    p0x: FloatArray,
    p0y: FloatArray,
    p1x: FloatArray,
    p1y: FloatArray,
    ax: FloatArray,
    ay: FloatArray,
    bx: FloatArray,
    by: FloatArray,
) -> FloatArray:
    """Distance between segments ``p0-p1`` and ``a-b`` (0 when they cross)."""
    d2 = np.minimum(
        np.minimum(
            _point_segment_dist2(p0x, p0y, ax, ay, bx, by),
            _point_segment_dist2(p1x, p1y, ax, ay, bx, by),
        ),
        np.minimum(
            _point_segment_dist2(ax, ay, p0x, p0y, p1x, p1y),
            _point_segment_dist2(bx, by, p0x, p0y, p1x, p1y),
        ),
    )
    dx = p1x - p0x
    dy = p1y - p0y
    ex = bx - ax
    ey = by - ay
    o1 = _cross2(dx, dy, ax - p0x, ay - p0y)
    o2 = _cross2(dx, dy, bx - p0x, by - p0y)
    o3 = _cross2(ex, ey, p0x - ax, p0y - ay)
    o4 = _cross2(ex, ey, p1x - ax, p1y - ay)
    crossing = (o1 * o2 < 0.0) & (o3 * o4 < 0.0)
    return cast(FloatArray, np.where(crossing, 0.0, np.sqrt(d2)))


def _angle(x: FloatArray, y: FloatArray) -> FloatArray:
    """Angles in [0, 2 pi)."""
    return cast(FloatArray, np.mod(np.arctan2(y, x), _TWO_PI))


def _tangents(
    ox: float,
    oy: float,
    rho: float,
    wind: float,
    tx: FloatArray,
    ty: FloatArray,
    trho: FloatArray,
    twind: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, BoolArray]:
    """Directed tangent segments from one circle to many circles or points.

    A winding of +1 means travelling counter-clockwise around the circle, -1
    clockwise, 0 a point (radius 0). The segment leaves the source circle at
    ``(t1x, t1y)`` continuing its winding and arrives on the target at
    ``(t2x, t2y)`` with the target's winding.
    """
    dx = tx - ox
    dy = ty - oy
    dist = np.hypot(dx, dy)
    k = twind * trho - wind * rho
    ok = (dist > 1e-9) & (np.abs(k) <= dist + TOLERANCE_MM)
    safe = np.where(dist > 1e-9, dist, 1.0)
    q = np.clip(k / safe, -1.0, 1.0)
    s = np.sqrt(1.0 - q * q)
    ux = dx / safe
    uy = dy / safe
    nx = q * ux - s * uy
    ny = q * uy + s * ux
    t1x = ox - wind * rho * nx
    t1y = oy - wind * rho * ny
    t2x = tx - twind * trho * nx
    t2y = ty - twind * trho * ny
    return t1x, t1y, t2x, t2y, ok


def _circle_segment_angles(
    ox: FloatArray,
    oy: FloatArray,
    rho: FloatArray,
    ax: FloatArray,
    ay: FloatArray,
    bx: FloatArray,
    by: FloatArray,
) -> tuple[IntArray, FloatArray]:
    """Angles on circles where they meet segments (pairs are given elementwise).

    Returns the pair index of every meeting and its angle on the circle; tangency
    counts as a meeting.
    """
    fx = bx - ax
    fy = by - ay
    gx = ax - ox
    gy = ay - oy
    a = fx * fx + fy * fy
    b = 2.0 * (fx * gx + fy * gy)
    c = gx * gx + gy * gy - rho * rho
    disc = b * b - 4.0 * a * c
    slack = 1e-9 * (b * b + np.abs(4.0 * a * c))
    good = (a > 0.0) & (disc >= -slack)
    root = np.sqrt(np.maximum(disc, 0.0))
    safe = np.where(a > 0.0, a, 1.0)
    index: list[IntArray] = []
    angles: list[FloatArray] = []
    for sign in (-1.0, 1.0):
        s = (-b + sign * root) / (2.0 * safe)
        hit = good & (s >= -1e-12) & (s <= 1.0 + 1e-12)
        where = np.nonzero(hit)[0]
        index.append(where)
        angles.append(_angle(gx[where] + s[where] * fx[where], gy[where] + s[where] * fy[where]))
    return np.concatenate(index), np.concatenate(angles)


def _bbox_pairs(
    a_min_x: FloatArray,
    a_min_y: FloatArray,
    a_max_x: FloatArray,
    a_max_y: FloatArray,
    b_min_x: FloatArray,
    b_min_y: FloatArray,
    b_max_x: FloatArray,
    b_max_y: FloatArray,
) -> tuple[IntArray, IntArray]:
    """Index pairs of overlapping boxes between two box sets."""
    if len(a_min_x) == 0 or len(b_min_x) == 0:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    overlap = (
        (a_min_x[:, None] <= b_max_x[None, :])
        & (a_max_x[:, None] >= b_min_x[None, :])
        & (a_min_y[:, None] <= b_max_y[None, :])
        & (a_max_y[:, None] >= b_min_y[None, :])
    )
    i, j = np.nonzero(overlap)
    return i.astype(np.intp), j.astype(np.intp)


def _crossing_intervals(
    x0: FloatArray,
    y0: FloatArray,
    dx: FloatArray,
    dy: FloatArray,
    edges: FloatArray,
) -> tuple[IntArray, FloatArray, FloatArray]:
    """Split each segment ``p0 + t d, t in [0, 1]`` where it crosses ``edges``.

    Returns, for every piece, the segment index and its parameter range.
    """
    count = len(x0)
    rows = np.arange(count, dtype=np.intp)
    if count == 0 or len(edges) == 0:
        return rows, np.zeros(count), np.ones(count)
    x1 = x0 + dx
    y1 = y0 + dy
    ex0 = np.minimum(edges[:, 0], edges[:, 2])
    ex1 = np.maximum(edges[:, 0], edges[:, 2])
    ey0 = np.minimum(edges[:, 1], edges[:, 3])
    ey1 = np.maximum(edges[:, 1], edges[:, 3])
    i, j = _bbox_pairs(
        np.minimum(x0, x1),
        np.minimum(y0, y1),
        np.maximum(x0, x1),
        np.maximum(y0, y1),
        ex0,
        ey0,
        ex1,
        ey1,
    )
    if len(i) == 0:
        return rows, np.zeros(count), np.ones(count)
    ax = edges[j, 0]
    ay = edges[j, 1]
    fx = edges[j, 2] - ax
    fy = edges[j, 3] - ay
    sx = dx[i]
    sy = dy[i]
    denom = sx * fy - sy * fx
    wx = ax - x0[i]
    wy = ay - y0[i]
    good = np.abs(denom) > 1e-12 * np.hypot(sx, sy) * np.hypot(fx, fy)
    safe = np.where(good, denom, 1.0)
    t = (wx * fy - wy * fx) / safe
    u = (wx * sy - wy * sx) / safe
    good &= (u >= -1e-12) & (u <= 1.0 + 1e-12) & (t > 0.0) & (t < 1.0)
    if not np.any(good):
        return rows, np.zeros(count), np.ones(count)
    cut_rows = np.concatenate([rows, i[good]])
    cuts = np.concatenate([np.zeros(count), t[good]])
    order = np.lexsort((cuts, cut_rows))
    cut_rows = cut_rows[order]
    cuts = cuts[order]
    ends = np.empty_like(cuts)
    ends[:-1] = cuts[1:]
    last = np.concatenate([cut_rows[1:] != cut_rows[:-1], [True]])
    ends[last] = 1.0
    keep = ends > cuts
    return cut_rows[keep], cuts[keep], ends[keep]


# ------------------------------------------------------------- prepared obstacles


@dataclass(frozen=True, slots=True, eq=False)
class _Obstacle:
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


def _empty2() -> FloatArray:
    return np.zeros((0, 2), dtype=np.float64)


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


def _prepare_hull(hull: DiscHull) -> _Obstacle:
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
    count = len(radii)
    if count == 1:
        result = _Obstacle(
            hull.ident,
            xy,
            radii,
            (np.zeros(0),),
            np.zeros((0, 4)),
            None,
            _empty2(),
            _empty2(),
            centre,
            bound,
            True,
        )
        _remember(_HULLS, key, result, 8192)
        return result
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
    normal_angles = _angle(nx, ny)
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
    result = _Obstacle(
        hull.ident,
        xy[on_hull],
        radii[on_hull],
        normals,
        edges,
        solid,
        _empty2(),
        _empty2(),
        centre,
        bound,
        True,
    )
    _remember(_HULLS, key, result, 8192)
    return result


def _prepare_polygon(blocking: BlockingPolygon) -> _Obstacle:
    """Edges, convex corners and corner normals of a :class:`BlockingPolygon`."""
    cached = _POLYGONS.get(blocking)
    if cached is not None:
        return cached
    polygon = shapely.geometry.polygon.orient(blocking.polygon, sign=1.0)
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
        turn = _cross2(inx, iny, outx, outy)
        convex = turn > 1e-9 * np.hypot(inx, iny) * np.hypot(outx, outy)
        edges.append(np.column_stack([ring, after]))
        corners.append(ring[convex])
        normals.append(np.column_stack([_angle(iny, -inx), _angle(outy, -outx)])[convex])
    exterior = rings[0]
    centre = (exterior.min(axis=0) + exterior.max(axis=0)) / 2.0
    bound = float(np.max(np.hypot(exterior[:, 0] - centre[0], exterior[:, 1] - centre[1])))
    shapely.prepare(polygon)
    all_edges = np.concatenate(edges)
    all_corners = np.concatenate(corners)
    result = _Obstacle(
        blocking.ident,
        _empty2(),
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
    _remember(_POLYGONS, blocking, result, 4096)
    return result


@dataclass(frozen=True, slots=True, eq=False)
class _Zone:
    """Union of the costly regions with factor >= some level."""

    extra: float  # cost added per mm inside, above the level below
    inner: shapely.Geometry  # the union shrunk by the tolerance (prepared)
    edges: FloatArray  # (e, 4)
    edge_ring: IntArray  # ring of each edge
    edge_start: FloatArray  # arc length along its ring where each edge starts
    rings: tuple[FloatArray, ...]  # closed rings, (k + 1, 2)
    lengths: tuple[FloatArray, ...]  # cumulative arc length along each ring
    samples: dict[float, tuple[FloatArray, IntArray, FloatArray, BoolArray]]


def _prepare_zones(costly: tuple[CostlyRegion, ...]) -> tuple[_Zone, ...]:
    """Nested unions of costly regions, one per distinct factor above 1."""
    cached = _ZONES.get(costly)
    if cached is not None:
        return cached
    levels = sorted({region.factor for region in costly if region.factor > 1.0})
    zones: list[_Zone] = []
    below = 1.0
    for level in levels:
        union = shapely.union_all([c.polygon for c in costly if c.factor >= level])
        inner = union.buffer(-TOLERANCE_MM, join_style="mitre")
        shapely.prepare(inner)
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
            _Zone(
                level - below,
                inner,
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
    _remember(_ZONES, costly, result, 64)
    return result


def _zone_samples(
    zone: _Zone, spacing: float
) -> tuple[FloatArray, IntArray, FloatArray, BoolArray]:
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
        np.concatenate(points) if points else _empty2(),
        np.concatenate(ring_ids) if ring_ids else np.zeros(0, dtype=np.intp),
        np.concatenate(params) if params else np.zeros(0),
        np.concatenate(vertex) if vertex else np.zeros(0, dtype=bool),
    )
    zone.samples[spacing] = result
    return result


def _ring_point(zone: _Zone, ring: int, param: float) -> tuple[float, float]:
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


class _Prepared:
    """A field with bounding circles of all obstacles; details are prepared on demand."""

    __slots__ = (
        "width",
        "depth",
        "sources",
        "items",
        "centres",
        "bounds",
        "costly",
        "costly_boxes",
    )

    def __init__(self, field: Field) -> None:
        self.width = field.width_mm
        self.depth = field.depth_mm
        self.sources: tuple[DiscHull | BlockingPolygon, ...] = field.hulls + field.polygons
        self.items: list[_Obstacle | None] = [None] * len(self.sources)
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
        self.costly = field.costly
        if field.costly:
            self.costly_boxes = shapely.bounds(
                np.array([c.polygon for c in field.costly], dtype=object)
            )
        else:
            self.costly_boxes = np.zeros((0, 4))

    def obstacle(self, index: int) -> _Obstacle:
        """The prepared obstacle ``index`` (hulls first, then polygons)."""
        item = self.items[index]
        if item is None:
            source = self.sources[index]
            if isinstance(source, DiscHull):
                item = _prepare_hull(source)
            else:
                item = _prepare_polygon(source)
            self.items[index] = item
        return item

    def zones_for(self, box: tuple[float, float, float, float]) -> tuple[_Zone, ...]:
        """Zones built from the costly regions whose bounds meet ``box``."""
        if not self.costly:
            return ()
        b = self.costly_boxes
        near = (b[:, 2] >= box[0]) & (b[:, 0] <= box[2]) & (b[:, 3] >= box[1]) & (b[:, 1] <= box[3])
        chosen = tuple(self.costly[k] for k in np.nonzero(near)[0])
        return _prepare_zones(chosen) if chosen else ()


def _remember(store: dict[_K, _V], key: _K, value: _V, size: int) -> None:
    """Insert into a small cache, dropping the oldest entries beyond ``size``."""
    store[key] = value
    while len(store) > size:
        try:
            store.pop(next(iter(store)), None)
        except (StopIteration, RuntimeError):
            break


def _prepare(field: Field) -> _Prepared:
    """Prepare a field (cached by identity for a few fields)."""
    hit = _FIELDS.get(id(field))
    if hit is not None and hit[0] is field:
        return hit[1]
    prepared = _Prepared(field)
    _remember(_FIELDS, id(field), (field, prepared), 8)
    return prepared


_FIELDS: dict[int, tuple[Field, _Prepared]] = {}
_HULLS: dict[tuple[str, bytes], _Obstacle] = {}
_POLYGONS: dict[BlockingPolygon, _Obstacle] = {}
_ZONES: dict[tuple[CostlyRegion, ...], tuple[_Zone, ...]] = {}


# ------------------------------------------------------------------------ queries


@dataclass(frozen=True, slots=True, eq=False)
class _Region:
    """Points that a path of bounded cost can visit.

    Kind 0: everything; 1: the ellipse with foci a, b and major axis ``size``; 2: the
    disc of radius ``size`` around a; 3: points within ``size`` of the polyline ``line``.
    """

    kind: int
    ax: float
    ay: float
    bx: float
    by: float
    size: float
    line: FloatArray | None = None

    def near(self, x: FloatArray, y: FloatArray, pad: FloatArray | float) -> BoolArray:
        """Whether discs of radius ``pad`` around the points meet the region."""
        if self.kind == 0:
            return np.ones(np.shape(x), dtype=bool)
        if self.kind == 1:
            total = np.hypot(x - self.ax, y - self.ay) + np.hypot(x - self.bx, y - self.by)
            return total <= self.size + 2.0 * pad + 1e-6
        if self.kind == 3 and self.line is not None:
            v = self.line
            shape = np.shape(x)
            px = np.reshape(x, (-1, 1))
            py = np.reshape(y, (-1, 1))
            d2 = _point_segment_dist2(
                px, py, v[None, :-1, 0], v[None, :-1, 1], v[None, 1:, 0], v[None, 1:, 1]
            ).min(axis=1)
            limit = self.size + np.reshape(np.broadcast_to(pad, shape), -1) + 1e-6
            return np.reshape(d2 <= limit * limit, shape)
        return np.hypot(x - self.ax, y - self.ay) <= self.size + pad + 1e-6

    def box(self) -> tuple[float, float, float, float]:
        """A bounding box of the region."""
        if self.kind == 0:
            return (-math.inf, -math.inf, math.inf, math.inf)
        if self.kind == 1:
            mx, my, half = (self.ax + self.bx) / 2, (self.ay + self.by) / 2, self.size / 2
            return (mx - half, my - half, mx + half, my + half)
        if self.kind == 3 and self.line is not None:
            low = self.line.min(axis=0) - self.size
            high = self.line.max(axis=0) + self.size
            return (float(low[0]), float(low[1]), float(high[0]), float(high[1]))
        return (self.ax - self.size, self.ay - self.size, self.ax + self.size, self.ay + self.size)


class _Scene:
    """Obstacles, circles, points and zones that matter for one query."""

    def __init__(
        self,
        prep: _Prepared,
        radius: float,
        start: tuple[float, float],
        goal: tuple[float, float] | None,
        levels: IntArray,
        rect: tuple[float, float, float, float],
        region: _Region,
        spacing: float,
        nodes: _Region | None = None,
    ) -> None:
        nodes = region if nodes is None else nodes
        self.nodes = nodes
        self.prep = prep
        self.spacing = spacing
        self.radius = radius
        self.rect = rect
        self.region = region
        self.levels = levels
        clearance = np.where(levels == _FULL, radius, 0.0)
        box = region.box()
        pad = 2.0 * radius + 1.0
        kept = (levels != _IGNORED) & region.near(
            prep.centres[:, 0], prep.centres[:, 1], prep.bounds + clearance
        )
        kept &= (prep.centres[:, 0] + prep.bounds >= box[0] - pad) & (
            prep.centres[:, 0] - prep.bounds <= box[2] + pad
        )
        kept &= (prep.centres[:, 1] + prep.bounds >= box[1] - pad) & (
            prep.centres[:, 1] - prep.bounds <= box[3] + pad
        )
        self.kept = np.nonzero(kept)[0]
        self.convex = np.zeros(len(prep.sources) + 2, dtype=bool)
        full_edges = radius > 10.0 * TOLERANCE_MM

        disc_xy: list[FloatArray] = []
        disc_rho: list[FloatArray] = []
        disc_owner: list[IntArray] = []
        circ_xy: list[FloatArray] = []
        circ_rho: list[FloatArray] = []
        circ_owner: list[IntArray] = []
        circ_marks: list[FloatArray] = []
        point_xy: list[FloatArray] = []
        point_owner: list[int] = []
        edge_full: list[FloatArray] = []
        edge_full_owner: list[IntArray] = []
        edge_raw: list[FloatArray] = []
        solids: list[shapely.Geometry] = []
        for index in self.kept:
            obstacle = prep.obstacle(int(index))
            self.convex[index] = obstacle.convex
            c = float(clearance[index])
            if obstacle.solid is not None:
                solids.append(obstacle.solid)
            if len(obstacle.disc_r):
                rho = obstacle.disc_r + c
                disc_xy.append(obstacle.disc_xy)
                disc_rho.append(rho)
                disc_owner.append(np.full(len(rho), index, dtype=np.intp))
                for k in range(len(rho)):
                    if rho[k] > 10.0 * TOLERANCE_MM:
                        circ_xy.append(obstacle.disc_xy[k])
                        circ_rho.append(np.array([rho[k]]))
                        circ_owner.append(np.array([index], dtype=np.intp))
                        circ_marks.append(obstacle.disc_normals[k])
                    else:
                        point_xy.append(obstacle.disc_xy[k])
                        point_owner.append(int(index))
            if len(obstacle.corners):
                if c > 10.0 * TOLERANCE_MM:
                    for k in range(len(obstacle.corners)):
                        circ_xy.append(obstacle.corners[k])
                        circ_rho.append(np.array([c]))
                        circ_owner.append(np.array([index], dtype=np.intp))
                        circ_marks.append(obstacle.corner_normals[k])
                else:
                    for k in range(len(obstacle.corners)):
                        point_xy.append(obstacle.corners[k])
                        point_owner.append(int(index))
            if len(obstacle.edges):
                if levels[index] == _FULL and full_edges:
                    edge_full.append(obstacle.edges)
                    edge_full_owner.append(np.full(len(obstacle.edges), index, dtype=np.intp))
                else:
                    edge_raw.append(obstacle.edges)

        self.disc_xy = np.concatenate(disc_xy) if disc_xy else _empty2()
        self.disc_rho = np.concatenate(disc_rho) if disc_rho else np.zeros(0)
        self.disc_owner = np.concatenate(disc_owner) if disc_owner else np.zeros(0, dtype=np.intp)
        self.edges = np.concatenate(edge_full) if edge_full else np.zeros((0, 4))
        self.edge_owner = (
            np.concatenate(edge_full_owner) if edge_full_owner else np.zeros(0, dtype=np.intp)
        )
        self.raw_edges = np.concatenate(edge_raw) if edge_raw else np.zeros((0, 4))
        self.solids = np.empty(len(solids), dtype=object)
        self.solids[:] = solids
        self.solid_boxes = shapely.bounds(self.solids) if solids else np.zeros((0, 4))

        # zones and their boundary points
        self.zones: list[tuple[float, shapely.Geometry, FloatArray, FloatArray]] = []
        self.zone_ref: list[_Zone] = []
        self.zone_edges: list[tuple[IntArray, FloatArray]] = []
        bpoints: list[FloatArray] = []
        binfo: list[FloatArray] = []
        for zone in prep.zones_for(box):
            edges = zone.edges
            if len(edges) == 0:
                continue
            lo_x = np.minimum(edges[:, 0], edges[:, 2])
            hi_x = np.maximum(edges[:, 0], edges[:, 2])
            lo_y = np.minimum(edges[:, 1], edges[:, 3])
            hi_y = np.maximum(edges[:, 1], edges[:, 3])
            near = (hi_x >= box[0]) & (lo_x <= box[2]) & (hi_y >= box[1]) & (lo_y <= box[3])
            if not np.any(near):
                continue
            self.zone_edges.append((zone.edge_ring[near], zone.edge_start[near]))
            edges = edges[near]
            bbox = np.array(
                [
                    edges[:, [0, 2]].min(),
                    edges[:, [1, 3]].min(),
                    edges[:, [0, 2]].max(),
                    edges[:, [1, 3]].max(),
                ]
            )
            self.zones.append((zone.extra, zone.inner, edges, bbox))
            self.zone_ref.append(zone)
            samples, ring_ids, params, vertex = _zone_samples(zone, spacing)
            keep = nodes.near(samples[:, 0], samples[:, 1], 0.0)
            if np.any(keep):
                bpoints.append(samples[keep])
                binfo.append(
                    np.column_stack(
                        [
                            np.full(int(keep.sum()), len(self.zones) - 1, dtype=np.float64),
                            ring_ids[keep].astype(np.float64),
                            params[keep],
                            vertex[keep].astype(np.float64),
                        ]
                    )
                )

        cliffs = self._cliffs(circ_xy, circ_rho)
        if len(cliffs[0]):
            bpoints.append(cliffs[0])
            binfo.append(cliffs[1])

        # points: start, goal, boundary samples, point-like obstacle nodes
        head = [np.array([start])]
        if goal is not None:
            head.append(np.array([goal]))
        self.first_boundary = len(head)
        boundary = np.concatenate(bpoints) if bpoints else _empty2()
        self.boundary_info = np.concatenate(binfo) if binfo else np.zeros((0, 4))
        obstacle_points = np.array(point_xy, dtype=np.float64).reshape(-1, 2)
        keep_points = nodes.near(obstacle_points[:, 0], obstacle_points[:, 1], 0.0)
        obstacle_points = obstacle_points[keep_points]
        obstacle_point_owner = np.array(point_owner, dtype=np.intp)[keep_points]
        self.points = np.concatenate(head + [boundary, obstacle_points])
        self.end_boundary = self.first_boundary + len(boundary)
        self.point_owner = np.concatenate(
            [np.full(self.end_boundary, -1, dtype=np.intp), obstacle_point_owner]
        )
        self.point_corner = np.zeros(len(self.points), dtype=bool)
        self.point_corner[self.first_boundary : self.end_boundary] = self.boundary_info[:, 3] != 0.0
        self.point_free = self.points_free(self.points)
        self.point_free[0] = True
        if not np.all(self.point_free[self.first_boundary : self.end_boundary]):
            good = np.concatenate(
                [
                    np.ones(self.first_boundary, dtype=bool),
                    self.point_free[self.first_boundary : self.end_boundary],
                    np.ones(len(obstacle_points), dtype=bool),
                ]
            )
            self.points = self.points[good]
            self.point_owner = self.point_owner[good]
            self.point_corner = self.point_corner[good]
            self.boundary_info = self.boundary_info[
                self.point_free[self.first_boundary : self.end_boundary]
            ]
            self.end_boundary = self.first_boundary + len(self.boundary_info)
            self.point_free = self.point_free[good]

        # circles
        cxy = np.array(circ_xy, dtype=np.float64).reshape(-1, 2)
        crho = np.concatenate(circ_rho) if circ_rho else np.zeros(0)
        cowner = np.concatenate(circ_owner) if circ_owner else np.zeros(0, dtype=np.intp)
        near_c = nodes.near(cxy[:, 0], cxy[:, 1], crho)
        self.circ_xy = cxy[near_c]
        self.circ_rho = crho[near_c]
        self.circ_owner = cowner[near_c]
        self.circ_marks = [m for m, keep in zip(circ_marks, near_c, strict=True) if keep]
        self.run_start, self.run_len, self.run_count, self.run_full = self._circle_runs()
        self.weight_const, self.weight_angles, self.weight_cum = self._circle_weights()
        alive = self.run_count > 0
        if not np.all(alive):
            self.circ_xy = self.circ_xy[alive]
            self.circ_rho = self.circ_rho[alive]
            self.circ_owner = self.circ_owner[alive]
            self.circ_marks = [m for m, keep in zip(self.circ_marks, alive, strict=True) if keep]
            self.run_start = self.run_start[alive]
            self.run_len = self.run_len[alive]
            self.run_count = self.run_count[alive]
            self.run_full = self.run_full[alive]
            self.weight_const = self.weight_const[alive]
            self.weight_angles = [
                w for w, keep in zip(self.weight_angles, alive, strict=True) if keep
            ]
            self.weight_cum = [w for w, keep in zip(self.weight_cum, alive, strict=True) if keep]
        self.ang_tol = np.maximum(1e-9, 10.0 * TOLERANCE_MM / np.maximum(self.circ_rho, 1e-9))

        # search targets: circles with both windings, then points
        nc = len(self.circ_rho)
        npnt = len(self.points)
        self.target_x = np.concatenate([self.circ_xy[:, 0], self.circ_xy[:, 0], self.points[:, 0]])
        self.target_y = np.concatenate([self.circ_xy[:, 1], self.circ_xy[:, 1], self.points[:, 1]])
        self.target_rho = np.concatenate([self.circ_rho, self.circ_rho, np.zeros(npnt)])
        self.target_wind = np.concatenate([np.ones(nc), -np.ones(nc), np.zeros(npnt)])
        self.target_circle = np.concatenate(
            [np.arange(nc), np.arange(nc), np.full(npnt, -1)]
        ).astype(np.intp)
        self.target_point = np.concatenate([np.full(2 * nc, -1), np.arange(npnt)]).astype(np.intp)
        self.departures: dict[tuple[int, int], _Edges] = {}

    def _cliffs(
        self, circ_xy: list[FloatArray], circ_rho: list[FloatArray]
    ) -> tuple[FloatArray, FloatArray]:
        """Where region boundaries meet grown obstacles: extra boundary nodes.

        A path may leave an obstacle and cross a boundary at once; these points let
        the graph bend exactly there.
        """
        points: list[FloatArray] = []
        infos: list[FloatArray] = []
        if not self.zones:
            return _empty2(), np.zeros((0, 4))
        cxy = np.array(circ_xy, dtype=np.float64).reshape(-1, 2)
        crho = np.concatenate(circ_rho) if circ_rho else np.zeros(0)
        offsets = np.zeros((0, 4))
        if len(self.edges):
            e = self.edges
            ex = e[:, 2] - e[:, 0]
            ey = e[:, 3] - e[:, 1]
            norm = np.maximum(np.hypot(ex, ey), 1e-12)
            nx = ey / norm * self.radius
            ny = -ex / norm * self.radius
            offsets = np.concatenate(
                [
                    np.column_stack([e[:, 0] + nx, e[:, 1] + ny, e[:, 2] + nx, e[:, 3] + ny]),
                    np.column_stack([e[:, 0] - nx, e[:, 1] - ny, e[:, 2] - nx, e[:, 3] - ny]),
                ]
            )
        for index, ((_, _, edges, _), (ring, start)) in enumerate(
            zip(self.zones, self.zone_edges, strict=True)
        ):
            lo_x = np.minimum(edges[:, 0], edges[:, 2])
            hi_x = np.maximum(edges[:, 0], edges[:, 2])
            lo_y = np.minimum(edges[:, 1], edges[:, 3])
            hi_y = np.maximum(edges[:, 1], edges[:, 3])
            span = np.hypot(edges[:, 2] - edges[:, 0], edges[:, 3] - edges[:, 1])
            hits: list[tuple[IntArray, FloatArray]] = []
            if len(crho):
                i, j = _bbox_pairs(
                    lo_x,
                    lo_y,
                    hi_x,
                    hi_y,
                    cxy[:, 0] - crho,
                    cxy[:, 1] - crho,
                    cxy[:, 0] + crho,
                    cxy[:, 1] + crho,
                )
                fx = edges[i, 2] - edges[i, 0]
                fy = edges[i, 3] - edges[i, 1]
                gx = edges[i, 0] - cxy[j, 0]
                gy = edges[i, 1] - cxy[j, 1]
                a = fx * fx + fy * fy
                b = 2.0 * (fx * gx + fy * gy)
                c = gx * gx + gy * gy - crho[j] ** 2
                disc = b * b - 4.0 * a * c
                root = np.sqrt(np.maximum(disc, 0.0))
                for sign in (-1.0, 1.0):
                    u = (-b + sign * root) / (2.0 * np.where(a > 0, a, 1.0))
                    good = (disc > 0.0) & (a > 0.0) & (u > 0.0) & (u < 1.0)
                    hits.append((i[good], u[good]))
            if len(offsets):
                o = offsets
                i, j = _bbox_pairs(
                    lo_x,
                    lo_y,
                    hi_x,
                    hi_y,
                    np.minimum(o[:, 0], o[:, 2]),
                    np.minimum(o[:, 1], o[:, 3]),
                    np.maximum(o[:, 0], o[:, 2]),
                    np.maximum(o[:, 1], o[:, 3]),
                )
                fx = edges[i, 2] - edges[i, 0]
                fy = edges[i, 3] - edges[i, 1]
                hx = o[j, 2] - o[j, 0]
                hy = o[j, 3] - o[j, 1]
                denom = fx * hy - fy * hx
                wx = o[j, 0] - edges[i, 0]
                wy = o[j, 1] - edges[i, 1]
                safe = np.where(np.abs(denom) > 1e-12, denom, 1.0)
                u = (wx * hy - wy * hx) / safe
                v = (wx * fy - wy * fx) / safe
                good = (np.abs(denom) > 1e-12) & (u > 0.0) & (u < 1.0) & (v >= 0.0) & (v <= 1.0)
                hits.append((i[good], u[good]))
            for k, u in hits:
                if len(k) == 0:
                    continue
                px = edges[k, 0] + u * (edges[k, 2] - edges[k, 0])
                py = edges[k, 1] + u * (edges[k, 3] - edges[k, 1])
                keep = self.nodes.near(px, py, 0.0)
                if not np.any(keep):
                    continue
                points.append(np.column_stack([px[keep], py[keep]]))
                infos.append(
                    np.column_stack(
                        [
                            np.full(int(keep.sum()), float(index)),
                            ring[k[keep]].astype(np.float64),
                            start[k[keep]] + u[keep] * span[k[keep]],
                            np.zeros(int(keep.sum())),
                        ]
                    )
                )
        if not points:
            return _empty2(), np.zeros((0, 4))
        return np.concatenate(points), np.concatenate(infos)

    # -- point and segment tests ------------------------------------------------

    def points_free(self, points: FloatArray) -> BoolArray:
        """Whether centres at ``points`` are in free space (touching allowed)."""
        x = np.ascontiguousarray(points[:, 0])
        y = np.ascontiguousarray(points[:, 1])
        xmin, ymin, xmax, ymax = self.rect
        free = (
            (x >= xmin - TOLERANCE_MM)
            & (x <= xmax + TOLERANCE_MM)
            & (y >= ymin - TOLERANCE_MM)
            & (y <= ymax + TOLERANCE_MM)
        )
        if len(x) == 0:
            return free
        for lo in range(0, len(x), 4096):
            hi = min(lo + 4096, len(x))
            px = x[lo:hi, None]
            py = y[lo:hi, None]
            if len(self.disc_rho):
                gap = np.hypot(px - self.disc_xy[None, :, 0], py - self.disc_xy[None, :, 1])
                free[lo:hi] &= np.all(gap >= self.disc_rho[None, :] - TOLERANCE_MM, axis=1)
            if len(self.edges):
                e = self.edges
                d2 = _point_segment_dist2(
                    px, py, e[None, :, 0], e[None, :, 1], e[None, :, 2], e[None, :, 3]
                )
                limit = self.radius - TOLERANCE_MM
                free[lo:hi] &= np.all(d2 >= limit * limit, axis=1)
        if len(self.solids):
            free &= ~self.inside_solids(x, y)
        return free

    def inside_solids(self, x: FloatArray, y: FloatArray) -> BoolArray:
        """Whether points lie strictly inside the raw polygonal part of an obstacle."""
        out = np.zeros(len(x), dtype=bool)
        if len(self.solids) == 0 or len(x) == 0:
            return out
        b = self.solid_boxes
        i, j = _bbox_pairs(x, y, x, y, b[:, 0], b[:, 1], b[:, 2], b[:, 3])
        if len(i):
            hit = shapely.contains_xy(self.solids[j], x[i], y[i])
            out[i[hit]] = True
        return out

    def segments_blocked(
        self, x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray
    ) -> BoolArray:
        """Whether segments between free points cut into an obstacle."""
        count = len(x0)
        blocked = np.zeros(count, dtype=bool)
        if count == 0:
            return blocked
        lo_x = np.minimum(x0, x1)
        hi_x = np.maximum(x0, x1)
        lo_y = np.minimum(y0, y1)
        hi_y = np.maximum(y0, y1)
        if len(self.disc_rho):
            c = self.disc_xy
            r = self.disc_rho
            i, j = _bbox_pairs(
                lo_x, lo_y, hi_x, hi_y, c[:, 0] - r, c[:, 1] - r, c[:, 0] + r, c[:, 1] + r
            )
            if len(i):
                d2 = _point_segment_dist2(c[j, 0], c[j, 1], x0[i], y0[i], x1[i], y1[i])
                limit = r[j] - TOLERANCE_MM
                hit = (limit > 0.0) & (d2 < limit * limit)
                blocked[i[hit]] = True
        if len(self.edges):
            e = self.edges
            pad = self.radius
            i, j = _bbox_pairs(
                lo_x,
                lo_y,
                hi_x,
                hi_y,
                np.minimum(e[:, 0], e[:, 2]) - pad,
                np.minimum(e[:, 1], e[:, 3]) - pad,
                np.maximum(e[:, 0], e[:, 2]) + pad,
                np.maximum(e[:, 1], e[:, 3]) + pad,
            )
            if len(i):
                keep = ~blocked[i]
                i, j = i[keep], j[keep]
                d = _segment_segment_dist(
                    x0[i], y0[i], x1[i], y1[i], e[j, 0], e[j, 1], e[j, 2], e[j, 3]
                )
                blocked[i[d < self.radius - TOLERANCE_MM]] = True
        if len(self.raw_edges) and len(self.solids):
            e = self.raw_edges
            i, _ = _bbox_pairs(
                lo_x,
                lo_y,
                hi_x,
                hi_y,
                np.array([e[:, [0, 2]].min()]),
                np.array([e[:, [1, 3]].min()]),
                np.array([e[:, [0, 2]].max()]),
                np.array([e[:, [1, 3]].max()]),
            )
            cand = i[~blocked[i]]
            if len(cand):
                dx = x1[cand] - x0[cand]
                dy = y1[cand] - y0[cand]
                rows, ta, tb = _crossing_intervals(x0[cand], y0[cand], dx, dy, e)
                long = (tb - ta) * np.hypot(dx[rows], dy[rows]) > TOLERANCE_MM
                rows, ta, tb = rows[long], ta[long], tb[long]
                mid = (ta + tb) / 2.0
                inside = self.inside_solids(
                    x0[cand][rows] + mid * dx[rows], y0[cand][rows] + mid * dy[rows]
                )
                blocked[cand[rows[inside]]] = True
        return blocked

    def segments_cost(
        self, x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray, length: FloatArray
    ) -> FloatArray:
        """Weighted cost of segments through the costly zones."""
        cost = length.copy()
        if not self.zones or len(x0) == 0:
            return cost
        lo_x = np.minimum(x0, x1)
        hi_x = np.maximum(x0, x1)
        lo_y = np.minimum(y0, y1)
        hi_y = np.maximum(y0, y1)
        for extra, inner, edges, bbox in self.zones:
            cand = np.nonzero(
                (hi_x >= bbox[0]) & (lo_x <= bbox[2]) & (hi_y >= bbox[1]) & (lo_y <= bbox[3])
            )[0]
            if len(cand) == 0:
                continue
            dx = x1[cand] - x0[cand]
            dy = y1[cand] - y0[cand]
            rows, ta, tb = _crossing_intervals(x0[cand], y0[cand], dx, dy, edges)
            mid = (ta + tb) / 2.0
            inside = shapely.contains_xy(
                inner, x0[cand][rows] + mid * dx[rows], y0[cand][rows] + mid * dy[rows]
            )
            fraction = np.bincount(rows[inside], weights=(tb - ta)[inside], minlength=len(cand))
            cost[cand] += extra * fraction * length[cand]
        return cost

    def weight_at(self, x: FloatArray, y: FloatArray) -> FloatArray:
        """Cost per mm at points."""
        weight = np.ones(len(x))
        for extra, inner, _, _ in self.zones:
            weight += extra * shapely.contains_xy(inner, x, y)
        return weight

    # -- circles ---------------------------------------------------------------

    def _circle_runs(self) -> tuple[FloatArray, FloatArray, IntArray, BoolArray]:
        """Free angular runs of every circle, found exactly from obstacle breakpoints."""
        ox = self.circ_xy[:, 0]
        oy = self.circ_xy[:, 1]
        rho = self.circ_rho
        count = len(rho)
        index: list[IntArray] = []
        angles: list[FloatArray] = []
        if count and len(self.disc_rho):
            c = self.disc_xy
            r = self.disc_rho
            i, j = _bbox_pairs(
                ox - rho,
                oy - rho,
                ox + rho,
                oy + rho,
                c[:, 0] - r,
                c[:, 1] - r,
                c[:, 0] + r,
                c[:, 1] + r,
            )
            dx = c[j, 0] - ox[i]
            dy = c[j, 1] - oy[i]
            dist = np.hypot(dx, dy)
            meet = (dist < rho[i] + r[j]) & (dist > np.abs(rho[i] - r[j]) + 1e-12)
            i, j, dx, dy, dist = i[meet], j[meet], dx[meet], dy[meet], dist[meet]
            cos_half = (rho[i] ** 2 + dist**2 - r[j] ** 2) / (2.0 * rho[i] * dist)
            half = np.arccos(np.clip(cos_half, -1.0, 1.0))
            base = np.arctan2(dy, dx)
            index += [i, i]
            angles += [np.mod(base - half, _TWO_PI), np.mod(base + half, _TWO_PI)]
        segments: list[FloatArray] = []
        ends: list[FloatArray] = []
        if len(self.edges):
            e = self.edges
            ex = e[:, 2] - e[:, 0]
            ey = e[:, 3] - e[:, 1]
            norm = np.hypot(ex, ey)
            nx = ey / np.where(norm > 0, norm, 1.0) * self.radius
            ny = -ex / np.where(norm > 0, norm, 1.0) * self.radius
            segments.append(
                np.column_stack([e[:, 0] + nx, e[:, 1] + ny, e[:, 2] + nx, e[:, 3] + ny])
            )
            segments.append(
                np.column_stack([e[:, 0] - nx, e[:, 1] - ny, e[:, 2] - nx, e[:, 3] - ny])
            )
            ends.append(e[:, :2])
        if len(self.raw_edges):
            segments.append(self.raw_edges)
        if count and segments:
            s = np.concatenate(segments)
            i, j = _bbox_pairs(
                ox - rho,
                oy - rho,
                ox + rho,
                oy + rho,
                np.minimum(s[:, 0], s[:, 2]),
                np.minimum(s[:, 1], s[:, 3]),
                np.maximum(s[:, 0], s[:, 2]),
                np.maximum(s[:, 1], s[:, 3]),
            )
            pair, ang = _circle_segment_angles(
                ox[i], oy[i], rho[i], s[j, 0], s[j, 1], s[j, 2], s[j, 3]
            )
            index.append(i[pair])
            angles.append(ang)
        if count and ends:
            v = np.concatenate(ends)
            rv = self.radius
            i, j = _bbox_pairs(
                ox - rho,
                oy - rho,
                ox + rho,
                oy + rho,
                v[:, 0] - rv,
                v[:, 1] - rv,
                v[:, 0] + rv,
                v[:, 1] + rv,
            )
            dx = v[j, 0] - ox[i]
            dy = v[j, 1] - oy[i]
            dist = np.hypot(dx, dy)
            meet = (dist < rho[i] + rv) & (dist > np.abs(rho[i] - rv) + 1e-12)
            i, dx, dy, dist = i[meet], dx[meet], dy[meet], dist[meet]
            cos_half = (rho[i] ** 2 + dist**2 - rv**2) / (2.0 * rho[i] * dist)
            half = np.arccos(np.clip(cos_half, -1.0, 1.0))
            base = np.arctan2(dy, dx)
            index += [i, i]
            angles += [np.mod(base - half, _TWO_PI), np.mod(base + half, _TWO_PI)]
        if count:
            xmin, ymin, xmax, ymax = self.rect
            for value, coord, is_x in (
                (xmin, ox, True),
                (xmax, ox, True),
                (ymin, oy, False),
                (ymax, oy, False),
            ):
                c = (value - coord) / rho
                hit = np.abs(c) <= 1.0
                i = np.nonzero(hit)[0]
                a = np.arccos(c[i]) if is_x else np.arcsin(c[i])
                if is_x:
                    index += [i, i]
                    angles += [np.mod(a, _TWO_PI), np.mod(-a, _TWO_PI)]
                else:
                    index += [i, i]
                    angles += [np.mod(a, _TWO_PI), np.mod(math.pi - a, _TWO_PI)]
            for k, marks in enumerate(self.circ_marks):
                if len(marks):
                    index.append(np.full(len(marks), k, dtype=np.intp))
                    angles.append(np.ravel(marks))
        owner, start, stop = _pieces(count, index, angles)
        mid = (start + stop) / 2.0
        px = ox[owner] + rho[owner] * np.cos(mid)
        py = oy[owner] + rho[owner] * np.sin(mid)
        free = self.points_free(np.column_stack([px, py]))
        return _merge_runs(count, owner, start, stop, free)

    def _circle_weights(self) -> tuple[FloatArray, list[FloatArray], list[FloatArray]]:
        """Piecewise constant cost per mm around every circle.

        Returns a constant weight per circle (NaN where it varies) and, where it
        varies, knot angles and the cumulative weighted angle at the knots.
        """
        count = len(self.circ_rho)
        weight_const = np.ones(count)
        weight_angles: list[FloatArray] = [np.zeros(0)] * count
        weight_cum: list[FloatArray] = [np.zeros(0)] * count
        if not self.zones or count == 0:
            return weight_const, weight_angles, weight_cum
        ox = self.circ_xy[:, 0]
        oy = self.circ_xy[:, 1]
        rho = self.circ_rho
        index: list[IntArray] = []
        angles: list[FloatArray] = []
        for _, _, e, _ in self.zones:
            i, j = _bbox_pairs(
                ox - rho,
                oy - rho,
                ox + rho,
                oy + rho,
                np.minimum(e[:, 0], e[:, 2]),
                np.minimum(e[:, 1], e[:, 3]),
                np.maximum(e[:, 0], e[:, 2]),
                np.maximum(e[:, 1], e[:, 3]),
            )
            pair, ang = _circle_segment_angles(
                ox[i], oy[i], rho[i], e[j, 0], e[j, 1], e[j, 2], e[j, 3]
            )
            index.append(i[pair])
            angles.append(ang)
        owner, start, stop = _pieces(count, index, angles)
        mid = (start + stop) / 2.0
        weight = self.weight_at(
            ox[owner] + rho[owner] * np.cos(mid), oy[owner] + rho[owner] * np.sin(mid)
        )
        splits = np.searchsorted(owner, np.arange(count + 1))
        for k in range(count):
            lo, hi = splits[k], splits[k + 1]
            if hi - lo == 1:
                weight_const[k] = weight[lo]
                continue
            a0 = start[lo:hi]
            a1 = stop[lo:hi]
            w = weight[lo:hi]
            # pieces start at the first breakpoint and wrap past 2 pi
            weight_const[k] = math.nan
            weight_angles[k] = np.concatenate([a0, [a1[-1]]])
            weight_cum[k] = np.concatenate([[0.0], np.cumsum(w * (a1 - a0))])
        return weight_const, weight_angles, weight_cum

    def arc_weight(self, circle: int, begin: FloatArray, delta: FloatArray) -> FloatArray:
        """Weighted angle of counter-clockwise arcs from ``begin`` over ``delta``."""
        const = self.weight_const[circle]
        if not math.isnan(const):
            return cast(FloatArray, const * delta)
        knots = self.weight_angles[circle]
        cum = self.weight_cum[circle]
        base = knots[0]
        total = cum[-1]

        def integral(angle: FloatArray) -> FloatArray:
            shifted = angle - base
            turns = np.floor(shifted / _TWO_PI)
            rest = shifted - turns * _TWO_PI
            return cast(FloatArray, turns * total + np.interp(rest + base, knots, cum))

        return integral(begin + delta) - integral(begin)

    def run_lookup(self, circle: IntArray, phi: FloatArray) -> tuple[IntArray, FloatArray]:
        """Free run containing each angle (-1 if none) and the offset into it."""
        if len(circle) == 0:
            return np.zeros(0, dtype=np.intp), np.zeros(0)
        start = self.run_start[circle]
        length = self.run_len[circle]
        tol = self.ang_tol[circle][:, None]
        offset = np.mod(phi[:, None] - start, _TWO_PI)
        offset = np.where(offset > _TWO_PI - tol, offset - _TWO_PI, offset)
        inside = offset <= length + tol
        which = np.argmax(inside, axis=1)
        rows = np.arange(len(circle))
        found = inside[rows, which]
        return (
            np.where(found, which, -1).astype(np.intp),
            offset[rows, which],
        )


def _pieces(
    count: int, index: list[IntArray], angles: list[FloatArray]
) -> tuple[IntArray, FloatArray, FloatArray]:
    """Cut every circle at its breakpoints: owner, start and stop angle of each piece.

    A circle without breakpoints is one piece from 0 to 2 pi; otherwise pieces run
    from each breakpoint to the next, the last one wrapping past 2 pi.
    """
    idx = np.concatenate(index + [np.zeros(0, dtype=np.intp)]).astype(np.intp)
    ang = np.concatenate(angles + [np.zeros(0)])
    order = np.lexsort((ang, idx))
    idx = idx[order]
    ang = ang[order]
    if len(ang):
        same = np.concatenate([[False], (idx[1:] == idx[:-1]) & (np.diff(ang) < 1e-12)])
        idx = idx[~same]
        ang = ang[~same]
    counts = np.bincount(idx, minlength=count)
    empty = np.nonzero(counts == 0)[0]
    first = np.searchsorted(idx, np.arange(count))
    nxt = np.empty_like(ang)
    if len(ang):
        nxt[:-1] = ang[1:]
        last = np.concatenate([idx[1:] != idx[:-1], [True]])
        nxt[last] = ang[first[idx[last]]] + _TWO_PI
    owner = np.concatenate([idx, empty]).astype(np.intp)
    start = np.concatenate([ang, np.zeros(len(empty))])
    stop = np.concatenate([nxt, np.full(len(empty), _TWO_PI)])
    order = np.lexsort((start, owner))
    return owner[order], start[order], stop[order]


def _merge_runs(
    count: int, owner: IntArray, start: FloatArray, stop: FloatArray, free: BoolArray
) -> tuple[FloatArray, FloatArray, IntArray, BoolArray]:
    """Merge free pieces of each circle into runs (padded arrays of start and length)."""
    splits = np.searchsorted(owner, np.arange(count + 1))
    runs: list[list[tuple[float, float]]] = []
    full = np.zeros(count, dtype=bool)
    for k in range(count):
        lo, hi = int(splits[k]), int(splits[k + 1])
        flags = free[lo:hi]
        if np.all(flags):
            runs.append([(0.0, _TWO_PI)])
            full[k] = True
            continue
        if not np.any(flags):
            runs.append([])
            continue
        first_blocked = int(np.argmin(flags))
        order = [(first_blocked + m) % (hi - lo) for m in range(hi - lo)]
        mine: list[tuple[float, float]] = []
        current: tuple[float, float] | None = None
        for m in order:
            a = float(start[lo + m])
            b = float(stop[lo + m])
            if flags[m]:
                if current is None:
                    current = (a, b - a)
                else:
                    current = (current[0], current[1] + (b - a))
            elif current is not None:
                mine.append(current)
                current = None
        if current is not None:
            mine.append(current)
        runs.append([(a % _TWO_PI, length) for a, length in mine])
    width = max([len(r) for r in runs] + [1])
    run_start = np.zeros((count, width))
    run_len = np.full((count, width), -math.inf)
    for k, mine in enumerate(runs):
        for m, (a, length) in enumerate(mine):
            run_start[k, m] = a
            run_len[k, m] = length
    return run_start, run_len, np.array([len(r) for r in runs], dtype=np.intp), full


# --------------------------------------------------------------------- graph search


@dataclass(frozen=True, slots=True)
class _Edges:
    """Free tangent segments leaving one node (or one circle with one winding)."""

    target: IntArray  # index into the scene's target arrays
    t1x: FloatArray
    t1y: FloatArray
    t2x: FloatArray
    t2y: FloatArray
    phi1: FloatArray  # departure angle on the source circle
    run1: IntArray
    off1: FloatArray
    phi2: FloatArray  # arrival angle on the target circle
    run2: IntArray
    off2: FloatArray
    length: FloatArray
    cost: FloatArray


def _fan_out(
    scene: _Scene,
    ox: float,
    oy: float,
    rho: float,
    wind: int,
    circle: int,
    point: int,
    reach: float,
) -> _Edges:
    """All free tangent segments from a circle (with a winding) or a point.

    Targets farther than ``reach`` (beyond the source circle) are left out.
    """
    tx, ty = scene.target_x, scene.target_y
    trho = scene.target_rho
    t1x, t1y, t2x, t2y, ok = _tangents(ox, oy, rho, float(wind), tx, ty, trho, scene.target_wind)
    if reach < math.inf:
        ok &= np.hypot(tx - ox, ty - oy) - trho - rho <= reach + 1e-6
    ok &= scene.target_point != 0
    if circle >= 0:
        ok &= scene.target_circle != circle
    if point >= 0:
        ok &= scene.target_point != point
    if scene.nodes.kind in (1, 2):
        ok &= scene.nodes.near(t2x, t2y, 0.0)
    sel = np.nonzero(ok)[0]
    t1x, t1y, t2x, t2y = t1x[sel], t1y[sel], t2x[sel], t2y[sel]
    phi1 = _angle(t1x - ox, t1y - oy)
    if circle >= 0:
        run1, off1 = scene.run_lookup(np.full(len(sel), circle, dtype=np.intp), phi1)
    else:
        run1, off1 = np.zeros(len(sel), dtype=np.intp), np.zeros(len(sel))
    tc = scene.target_circle[sel]
    tp = scene.target_point[sel]
    is_c = tc >= 0
    phi2 = np.zeros(len(sel))
    run2 = np.zeros(len(sel), dtype=np.intp)
    off2 = np.zeros(len(sel))
    if np.any(is_c):
        cidx = tc[is_c]
        phi2[is_c] = _angle(t2x[is_c] - scene.circ_xy[cidx, 0], t2y[is_c] - scene.circ_xy[cidx, 1])
        run2[is_c], off2[is_c] = scene.run_lookup(cidx, phi2[is_c])
    good = (run1 >= 0) & (run2 >= 0)
    good[~is_c] &= scene.point_free[tp[~is_c]]
    keep = np.nonzero(good)[0]
    t1x, t1y, t2x, t2y = t1x[keep], t1y[keep], t2x[keep], t2y[keep]
    blocked = scene.segments_blocked(t1x, t1y, t2x, t2y)
    keep2 = np.nonzero(~blocked)[0]
    keep = keep[keep2]
    t1x, t1y, t2x, t2y = t1x[keep2], t1y[keep2], t2x[keep2], t2y[keep2]
    length = np.hypot(t2x - t1x, t2y - t1y)
    cost = scene.segments_cost(t1x, t1y, t2x, t2y, length)
    return _Edges(
        sel[keep],
        t1x,
        t1y,
        t2x,
        t2y,
        phi1[keep],
        run1[keep],
        off1[keep],
        phi2[keep],
        run2[keep],
        off2[keep],
        length,
        cost,
    )


class _Graph:
    """Nodes found by the search: points and tangent points with a winding."""

    def __init__(self, scene: _Scene) -> None:
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


def _successors(
    scene: _Scene, graph: _Graph, node: int, reach: float
) -> tuple[_Edges, FloatArray, FloatArray, FloatArray]:
    """Free edges out of a node with arc turn and arc cost before each segment.

    Fan-outs are cached per point and per circle and winding; ``reach`` may only
    shrink between calls for the same circle (true in Dijkstra order).
    """
    circle = graph.circle[node]
    if circle < 0:
        point = graph.point[node]
        key = (-1 - point, 0)
        edges = scene.departures.get(key)
        if edges is None:
            edges = _fan_out(scene, graph.x[node], graph.y[node], 0.0, 0, -1, point, reach)
            scene.departures[key] = edges
        zero = np.zeros(len(edges.target))
        return edges, zero, zero, np.ones(len(edges.target), dtype=bool).astype(np.float64)
    wind = graph.wind[node]
    key = (circle, wind)
    edges = scene.departures.get(key)
    if edges is None:
        ox, oy = scene.circ_xy[circle]
        edges = _fan_out(
            scene, float(ox), float(oy), float(scene.circ_rho[circle]), wind, circle, -1, reach
        )
        scene.departures[key] = edges
    tol = float(scene.ang_tol[circle])
    if scene.run_full[circle]:
        delta = np.mod(wind * (edges.phi1 - graph.phi[node]), _TWO_PI)
        delta = np.where(delta > _TWO_PI - tol, 0.0, delta)
        usable = np.ones(len(delta), dtype=bool)
    else:
        same = edges.run1 == graph.run[node]
        delta = wind * (edges.off1 - graph.off[node])
        usable = same & (delta >= -tol)
        delta = np.maximum(delta, 0.0)
    begin = graph.phi[node] if wind > 0 else graph.phi[node] - delta
    arc = scene.circ_rho[circle] * scene.arc_weight(circle, np.asarray(begin + 0.0 * delta), delta)
    return edges, delta, arc, usable.astype(np.float64)


def _search(scene: _Scene, goal: tuple[float, float] | None, bound: float) -> _Graph:
    """A* towards the goal (or Dijkstra when ``goal`` is None) up to ``bound``."""
    graph = _Graph(scene)
    sx, sy = scene.points[0]
    start = graph.node(("p", 0), float(sx), float(sy), -1, 0, 0.0, 0, 0.0, 0)
    graph.g[start] = 0.0
    gx, gy = goal if goal is not None else (0.0, 0.0)
    use_h = goal is not None
    heap: list[tuple[float, float, int]] = [(0.0, 0.0, start)]
    nc = len(scene.circ_rho)
    while heap:
        _, gu, node = heapq.heappop(heap)
        if graph.done[node] or gu > graph.g[node]:
            continue
        graph.done[node] = True
        if use_h and graph.circle[node] < 0 and graph.point[node] == 1:
            break
        reach = math.inf if use_h else bound - gu
        edges, delta, arc, usable = _successors(scene, graph, node, reach)
        if len(edges.target) == 0:
            continue
        total = gu + arc + edges.cost
        if use_h:
            estimate = total + np.hypot(edges.t2x - gx, edges.t2y - gy)
        else:
            estimate = total
        good = np.nonzero((usable > 0) & (estimate <= bound))[0]
        for k in good:
            target = int(edges.target[k])
            new_g = float(total[k])
            if target < 2 * nc:
                circle = int(scene.target_circle[target])
                wind = 1 if target < nc else -1
                phi2 = float(edges.phi2[k])
                key: object = (circle, wind, round(phi2 * 1e8))
                ident = graph.node(
                    key,
                    float(edges.t2x[k]),
                    float(edges.t2y[k]),
                    circle,
                    wind,
                    phi2,
                    int(edges.run2[k]),
                    float(edges.off2[k]),
                    -1,
                )
            else:
                point = int(scene.target_point[target])
                ident = graph.node(
                    ("p", point),
                    float(edges.t2x[k]),
                    float(edges.t2y[k]),
                    -1,
                    0,
                    0.0,
                    0,
                    0.0,
                    point,
                )
            if new_g < graph.g[ident] - 1e-12 and not graph.done[ident]:
                graph.g[ident] = new_g
                graph.parent[ident] = node
                graph.via[ident] = (
                    float(delta[k]),
                    float(edges.t1x[k]),
                    float(edges.t1y[k]),
                    float(edges.t2x[k]),
                    float(edges.t2y[k]),
                    float(edges.phi1[k]),
                )
                h = math.hypot(edges.t2x[k] - gx, edges.t2y[k] - gy) if use_h else 0.0
                heapq.heappush(heap, (new_g + h, new_g, ident))
    return graph


# ------------------------------------------------------------------- path pieces


@dataclass(frozen=True, slots=True)
class _Stop:
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
class _Leg:
    """Evaluated route between two consecutive points."""

    cost: float
    length: float
    pieces: tuple[tuple[float, ...], ...]  # (0, x0, y0, x1, y1) or (1, circle, wind, phi, delta)


def _route(graph: _Graph, node: int) -> list[_Stop]:
    """Stops from the start to ``node``."""
    chain: list[int] = []
    while node >= 0:
        chain.append(node)
        node = graph.parent[node]
    chain.reverse()
    scene = graph.scene
    stops: list[_Stop] = []
    for n in chain:
        point = graph.point[n]
        if graph.circle[n] < 0 and scene.first_boundary <= point < scene.end_boundary:
            zone, ring, param, _ = scene.boundary_info[point - scene.first_boundary]
            stops.append(
                _Stop(-1, 0, graph.x[n], graph.y[n], point, int(zone), int(ring), float(param))
            )
        else:
            stops.append(_Stop(graph.circle[n], graph.wind[n], graph.x[n], graph.y[n], point))
    return stops


def _eval_leg(
    scene: _Scene, a: tuple[float, float], wraps: Sequence[_Stop], b: tuple[float, float]
) -> _Leg | None:
    """Cost, length and pieces of the taut route ``a -> wraps -> b``, None if not free."""
    discs = [(a[0], a[1], 0.0, 0)]
    for stop in wraps:
        ox, oy = scene.circ_xy[stop.circle]
        discs.append((float(ox), float(oy), float(scene.circ_rho[stop.circle]), stop.wind))
    discs.append((b[0], b[1], 0.0, 0))
    count = len(discs) - 1
    x0 = np.empty(count)
    y0 = np.empty(count)
    x1 = np.empty(count)
    y1 = np.empty(count)
    for k in range(count):
        ox, oy, rho, wind = discs[k]
        tx, ty, trho, twind = discs[k + 1]
        t1x, t1y, t2x, t2y, ok = _tangents(
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
        ox, oy = scene.circ_xy[c]
        arrive = _angle(np.array([x1[m] - ox]), np.array([y1[m] - oy]))
        leave = _angle(np.array([x0[m + 1] - ox]), np.array([y0[m + 1] - oy]))
        run, off = scene.run_lookup(
            np.array([c, c], dtype=np.intp), np.concatenate([arrive, leave])
        )
        tol = float(scene.ang_tol[c])
        if run[0] < 0 or run[1] < 0:
            return None
        if scene.run_full[c]:
            delta = float(np.mod(stop.wind * (leave[0] - arrive[0]), _TWO_PI))
            if delta > _TWO_PI - tol:
                delta = 0.0
        else:
            if run[0] != run[1]:
                return None
            delta = stop.wind * float(off[1] - off[0])
            if delta < -tol:
                return None
            delta = max(delta, 0.0)
        begin = float(arrive[0]) if stop.wind > 0 else float(arrive[0]) - delta
        rho = float(scene.circ_rho[c])
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
    return _Leg(cost, length, tuple(pieces))


def _split_legs(stops: list[_Stop]) -> list[tuple[int, list[_Stop], int]]:
    """Legs between consecutive point stops: (index of a, wraps, index of b)."""
    legs: list[tuple[int, list[_Stop], int]] = []
    last = 0
    wraps: list[_Stop] = []
    for k in range(1, len(stops)):
        if stops[k].circle >= 0:
            wraps.append(stops[k])
        else:
            legs.append((last, wraps, k))
            last = k
            wraps = []
    return legs


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
    scene: _Scene, leg: _Leg, wraps: Sequence[_Stop], end: tuple[float, float], before: bool
) -> _Side:
    """The fixed context of a bend from an evaluated leg."""
    if not wraps:
        return _Side(end[0], end[1], -1, 0, 0.0, 0, 0.0)
    arcs = [piece for piece in leg.pieces if piece[0] == 1.0]
    piece = arcs[-1] if before else arcs[0]
    circle = int(piece[1])
    wind = int(piece[2])
    phi = piece[3] if before else piece[3] + wind * piece[4]
    phi = phi % _TWO_PI
    run, offset = scene.run_lookup(np.array([circle], dtype=np.intp), np.array([phi]))
    ox, oy = scene.circ_xy[circle]
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
    scene: _Scene, side: _Side, px: float, py: float, before: bool
) -> tuple[float, float, float, float, float] | None:
    """Arc cost on the side's circle and the segment between it and the bend point."""
    if side.circle < 0:
        if before:
            return 0.0, side.x, side.y, px, py
        return 0.0, px, py, side.x, side.y
    c = side.circle
    rho = float(scene.circ_rho[c])
    touch = _tangent_point(side.x, side.y, rho, side.wind, px, py, before)
    if touch is None:
        return None
    phi = math.atan2(touch[1] - side.y, touch[0] - side.x) % _TWO_PI
    tol = float(scene.ang_tol[c])
    if scene.run_full[c]:
        delta = side.wind * (phi - side.phi) if before else side.wind * (side.phi - phi)
        delta %= _TWO_PI
        if delta > _TWO_PI - tol:
            delta = 0.0
    else:
        offset = (phi - float(scene.run_start[c, side.run])) % _TWO_PI
        if offset > _TWO_PI - tol:
            offset -= _TWO_PI
        if offset > float(scene.run_len[c, side.run]) + tol:
            return None
        delta = side.wind * (offset - side.offset) if before else side.wind * (side.offset - offset)
        if delta < -tol:
            return None
        delta = max(delta, 0.0)
    begin = side.phi if before else phi
    if side.wind < 0:
        begin -= delta
    const = float(scene.weight_const[c])
    if math.isnan(const):
        arc = rho * float(scene.arc_weight(c, np.array([begin]), np.array([delta]))[0])
    else:
        arc = rho * const * delta
    if before:
        return arc, touch[0], touch[1], px, py
    return arc, px, py, touch[0], touch[1]


def _bend_cost(scene: _Scene, first: _Side, second: _Side, px: float, py: float) -> float:
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
    scene: _Scene,
    stops: list[_Stop],
    legs: list[tuple[int, list[_Stop], int]],
    evaluated: list[_Leg],
) -> list[_Stop]:
    """Insert a bend wherever a straight piece crosses a costly-region boundary."""
    out: list[_Stop] = [stops[0]]
    for (_, wraps, b), leg in zip(legs, evaluated, strict=True):
        segments = [piece for piece in leg.pieces if piece[0] == 0.0]
        for k, piece in enumerate(segments):
            _, x0, y0, x1, y1 = piece
            for t, zone, ring, param in _boundary_crossings(scene, x0, y0, x1, y1):
                out.append(
                    _Stop(-1, 0, x0 + t * (x1 - x0), y0 + t * (y1 - y0), -1, zone, ring, param)
                )
            if k < len(wraps):
                out.append(wraps[k])
        out.append(stops[b])
    return out


def _boundary_crossings(
    scene: _Scene, x0: float, y0: float, x1: float, y1: float
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
    its neighbours) the cost is that of the last reachable position towards ``s0``
    plus a steep slope, so the minimiser settles on the edge of what is reachable.
    """

    def __init__(
        self, scene: _Scene, first: _Side, second: _Side, zone: _Zone, ring: int, s0: float
    ) -> None:
        self.scene = scene
        self.first = first
        self.second = second
        self.zone = zone
        self.ring = ring
        self.s0 = s0
        self.edges: dict[bool, tuple[float, float]] = {}

    def feasible(self, s: float) -> bool:
        """Whether both neighbours reach the bend at ``s`` tangentially."""
        px, py = _ring_point(self.zone, self.ring, s)
        return (
            _side_cost(self.scene, self.first, px, py, True) is not None
            and _side_cost(self.scene, self.second, px, py, False) is not None
        )

    def cost(self, s: float) -> float:
        """Cost of the two pieces meeting at a reachable bend ``s``."""
        px, py = _ring_point(self.zone, self.ring, s)
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


def _refine(scene: _Scene, stops: list[_Stop]) -> tuple[list[_Stop], list[_Leg]] | None:
    """Slide bends on costly-region boundaries along the boundary to lower the cost.

    Every point where the route meets a region boundary becomes a bend (the graph's
    boundary nodes, plus crossings of straight pieces), and each bend in turn is
    moved along its boundary by a bounded 1-D minimisation, until the total cost
    changes by less than ``_REFINE_STOP_MM``.
    """
    legs = _split_legs(stops)
    evaluated: list[_Leg] = []
    for a, wraps, b in legs:
        leg = _eval_leg(scene, (stops[a].x, stops[a].y), wraps, (stops[b].x, stops[b].y))
        if leg is None:
            return None
        evaluated.append(leg)
    if scene.zones:
        crossed = _with_crossings(scene, stops, legs, evaluated)
        if len(crossed) > len(stops):
            stops = crossed
            legs = _split_legs(stops)
            evaluated = []
            for a, wraps, b in legs:
                leg = _eval_leg(scene, (stops[a].x, stops[a].y), wraps, (stops[b].x, stops[b].y))
                if leg is None:
                    return None
                evaluated.append(leg)
    points = [(s.x, s.y) for s in stops]
    movable = [m for m in range(1, len(legs)) if stops[legs[m][0]].zone >= 0]
    if not movable:
        return stops, evaluated
    params = {m: stops[legs[m][0]].param for m in movable}
    reach = 2.0 * scene.spacing
    for _ in range(50):
        before = sum(leg.cost for leg in evaluated)
        for m in movable:
            index = legs[m][0]
            zone = scene.zone_ref[stops[index].zone]
            ring = stops[index].ring
            prev_a, prev_wraps, _ = legs[m - 1]
            _, next_wraps, next_b = legs[m]
            first = _side(scene, evaluated[m - 1], prev_wraps, points[prev_a], True)
            second = _side(scene, evaluated[m], next_wraps, points[next_b], False)

            s0 = params[m]
            local = _BendObjective(scene, first, second, zone, ring, s0)

            result = minimize_scalar(
                local,
                bounds=(s0 - reach, s0 + reach),
                method="bounded",
                options={"xatol": 1e-3},
            )
            s1 = float(result.x)
            if float(result.fun) >= local(s0) - 1e-9:
                continue
            p = _ring_point(zone, ring, s1)
            leg_a = _eval_leg(scene, points[prev_a], prev_wraps, p)
            leg_b = _eval_leg(scene, p, next_wraps, points[next_b])
            if leg_a is None or leg_b is None:
                continue
            if leg_a.cost + leg_b.cost < evaluated[m - 1].cost + evaluated[m].cost - 1e-9:
                params[m] = s1
                points[index] = p
                evaluated[m - 1] = leg_a
                evaluated[m] = leg_b
        after = sum(leg.cost for leg in evaluated)
        if before - after < _REFINE_STOP_MM:
            break
    moved = [
        _Stop(s.circle, s.wind, points[k][0], points[k][1], s.point, s.zone, s.ring, s.param)
        for k, s in enumerate(stops)
    ]
    return moved, evaluated


def _polyline(scene: _Scene, legs: list[_Leg]) -> FloatArray:
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
                ox, oy = scene.circ_xy[c]
                rho = float(scene.circ_rho[c])
                for k in range(steps + 1):
                    a = phi + wind * delta * k / steps
                    out.append((float(ox) + rho * math.cos(a), float(oy) + rho * math.sin(a)))
    array = np.array(out, dtype=np.float64).reshape(-1, 2)
    if len(array) > 1:
        keep = np.concatenate([[True], np.any(np.abs(np.diff(array, axis=0)) > 1e-9, axis=1)])
        array = array[keep]
    return array


# ---------------------------------------------------------------------- set-up


def _levels(prep: _Prepared, radius: float, points: list[tuple[float, float]]) -> IntArray:
    """Per obstacle: grown (2), raw (1) or ignored (0) for a query touching ``points``."""
    count = len(prep.sources)
    levels = np.full(count, _FULL, dtype=np.intp)
    for px, py in points:
        near = np.hypot(prep.centres[:, 0] - px, prep.centres[:, 1] - py)
        for k in np.nonzero(near < prep.bounds + radius + 1.0)[0]:
            obstacle = prep.obstacle(int(k))
            gap = math.inf
            inside = False
            if len(obstacle.disc_r):
                d = np.hypot(obstacle.disc_xy[:, 0] - px, obstacle.disc_xy[:, 1] - py)
                d = d - obstacle.disc_r
                gap = float(np.min(d))
                inside = bool(np.any(d < -TOLERANCE_MM))
            if len(obstacle.edges):
                e = obstacle.edges
                d2 = _point_segment_dist2(
                    np.array(px), np.array(py), e[:, 0], e[:, 1], e[:, 2], e[:, 3]
                )
                edge_gap = float(np.sqrt(np.min(d2)))
                if obstacle.solid is not None and shapely.contains_xy(obstacle.solid, px, py):
                    inside = inside or edge_gap > TOLERANCE_MM
                    edge_gap = 0.0
                gap = min(gap, edge_gap)
            if gap >= radius - TOLERANCE_MM:
                continue
            levels[k] = min(int(levels[k]), _IGNORED if inside else _RAW)
    return levels


def _table_rect(
    prep: _Prepared, radius: float, start: tuple[float, float]
) -> tuple[float, float, float, float] | None:
    """Box for the mover's centre: the table shrunk by ``radius``, relaxed for the start."""
    sx, sy = start
    if not (-TOLERANCE_MM <= sx <= prep.width + TOLERANCE_MM):
        return None
    if not (-TOLERANCE_MM <= sy <= prep.depth + TOLERANCE_MM):
        return None
    return (
        min(radius, sx),
        min(radius, sy),
        max(prep.width - radius, sx),
        max(prep.depth - radius, sy),
    )


def _blocked_by(
    prep: _Prepared,
    radius: float,
    levels: IntArray,
    start: tuple[float, float],
    goal: tuple[float, float],
) -> tuple[str, ...]:
    """Idents of obstacles that the straight segment from start to goal cuts into."""
    (sx, sy), (gx, gy) = start, goal
    names: list[str] = []
    x0, y0, x1, y1 = (np.array([v]) for v in (sx, sy, gx, gy))
    if not prep.sources:
        return ()
    d2 = _point_segment_dist2(prep.centres[:, 0], prep.centres[:, 1], x0, y0, x1, y1)
    near = (levels != _IGNORED) & (d2 <= (prep.bounds + radius + 1.0) ** 2)
    for k in np.nonzero(near)[0]:
        obstacle = prep.obstacle(int(k))
        c = radius if levels[k] == _FULL else 0.0
        hit = False
        if len(obstacle.disc_r):
            dd = _point_segment_dist2(
                obstacle.disc_xy[:, 0], obstacle.disc_xy[:, 1], x0, y0, x1, y1
            )
            limit = obstacle.disc_r + c - TOLERANCE_MM
            hit = bool(np.any((limit > 0.0) & (dd < limit * limit)))
        if not hit and len(obstacle.edges):
            segment = shapely.LineString([(sx, sy), (gx, gy)])
            if c > 10.0 * TOLERANCE_MM:
                e = obstacle.edges
                d = _segment_segment_dist(x0, y0, x1, y1, e[:, 0], e[:, 1], e[:, 2], e[:, 3])
                hit = bool(np.min(d) < c - TOLERANCE_MM)
                if not hit and obstacle.solid is not None:
                    hit = bool(shapely.contains_xy(obstacle.solid, sx, sy))
            elif obstacle.solid is not None:
                inner = obstacle.solid.buffer(-TOLERANCE_MM, join_style="mitre")
                hit = bool(segment.intersects(inner))
        if hit:
            names.append(obstacle.ident)
    return tuple(names)


def _sides(radius: float, outer: bool) -> int:
    """Polygon sides for a circle: within 0.5 micrometre of it when ``outer``."""
    if not outer or radius <= 0.0:
        return 64
    half = math.acos(radius / (radius + 5e-4))
    return int(min(2048, max(64, math.ceil(math.pi / half))))


def _free_space(
    prep: _Prepared,
    radius: float,
    levels: IntArray,
    kept: IntArray,
    rect: tuple[float, float, float, float],
    window: tuple[float, float, float, float] | None,
    outer: bool,
) -> shapely.Geometry:
    """Free space for the centre as shapely geometry.

    With ``outer`` the grown obstacles are over-approximated (their polygons contain
    the exact shapes), otherwise under-approximated.
    """
    xmin, ymin, xmax, ymax = rect
    if window is not None:
        xmin, ymin = max(xmin, window[0]), max(ymin, window[1])
        xmax, ymax = min(xmax, window[2]), min(ymax, window[3])
    if xmin > xmax or ymin > ymax:
        return shapely.Polygon()
    table = shapely.box(xmin, ymin, xmax, ymax)
    blocks: list[shapely.Geometry] = []
    for k in kept:
        if levels[k] == _IGNORED:
            continue
        obstacle = prep.obstacle(int(k))
        c = radius if levels[k] == _FULL else 0.0
        if len(obstacle.disc_r):
            rho = obstacle.disc_r + c
            sides = _sides(float(np.max(rho)), outer)
            grow = 1.0 / math.cos(math.pi / sides) if outer else 1.0
            angles = np.linspace(0.0, _TWO_PI, sides, endpoint=False)
            ring = np.column_stack([np.cos(angles), np.sin(angles)])
            pts = obstacle.disc_xy[:, None, :] + (rho * grow)[:, None, None] * ring[None]
            pts = pts.reshape(-1, 2)
            if obstacle.solid is not None:
                pts = np.vstack([pts, shapely.get_coordinates(obstacle.solid)])
            blocks.append(shapely.convex_hull(shapely.multipoints(pts)))
        elif obstacle.solid is not None:
            if c > 0.0:
                segs = max(4, _sides(c, outer) // 4)
                grow_buffer = 1.0 / math.cos(math.pi / (4 * segs)) if outer else 1.0
                blocks.append(obstacle.solid.buffer(c * grow_buffer, quad_segs=segs))
            else:
                blocks.append(obstacle.solid)
    if not blocks:
        return table
    return table.difference(shapely.union_all(blocks))


# ------------------------------------------------------------------ public API


def shortest_path(
    field: Field,
    start_mm: object,
    goal_mm: object,
    mover_radius_mm: float,
    *,
    max_cost_mm: float | None = None,
) -> Path:
    """Exact cheapest path of a disc-shaped mover's centre from start to goal.

    Parameters
    ----------
    field:
        The table, its obstacles and costly regions.
    start_mm, goal_mm:
        ``(x, y)`` centres in mm.
    mover_radius_mm:
        Radius of the mover's base, >= 0.
    max_cost_mm:
        The movement allowance, if any. Only obstacles that a path of about this cost
        can meet are considered first; when no path that cheap exists the true cheapest
        path is still returned (its cost is then above the allowance).

    Returns
    -------
    Path
        ``points_mm`` is ``(K, 2)`` from start to goal; ``cost_mm`` and ``length_mm``
        are those of the path itself (arcs counted as ``r * theta``, not as the
        sampled polyline). ``found`` is False only when no path exists at all: the
        goal is closed in, or start or goal is off the table (the goal's whole base
        must be on it). ``blocked_by`` names the obstacles that the straight segment
        from start to goal cuts into (costly regions never block).

    Notes
    -----
    Obstacles that the mover's base overlaps at the start or at the goal block only
    with their raw shape (ignored if the centre is inside it), so it is never
    trapped; see the module documentation.

    Examples
    --------
    >>> table = Field(width_mm=1200.0, depth_mm=900.0)
    >>> path = shortest_path(table, (100.0, 100.0), (400.0, 500.0), 12.5)
    >>> path.found, path.cost_mm, path.blocked_by
    (True, 500.0, ())
    """
    start = _as_point(start_mm, "start_mm")
    goal = _as_point(goal_mm, "goal_mm")
    radius = _as_length(mover_radius_mm, "mover_radius_mm")
    limit: float | None = None
    if max_cost_mm is not None and not _is_plus_inf(max_cost_mm):
        limit = _as_length(max_cost_mm, "max_cost_mm")
    prep = _prepare(field)
    rect = _table_rect(prep, radius, start)
    levels = _levels(prep, radius, [start, goal])
    blocked_by = _blocked_by(prep, radius, levels, start, goal)
    nothing = Path(False, math.inf, math.inf, np.zeros((0, 2)), blocked_by)
    if rect is None or rect[0] > rect[2] + TOLERANCE_MM or rect[1] > rect[3] + TOLERANCE_MM:
        return nothing
    gx, gy = goal
    if not (rect[0] - TOLERANCE_MM <= gx <= rect[2] + TOLERANCE_MM):
        return nothing
    if not (rect[1] - TOLERANCE_MM <= gy <= rect[3] + TOLERANCE_MM):
        return nothing
    straight = math.hypot(gx - start[0], gy - start[1])
    if straight <= 1e-9:
        scene = _Scene(
            prep,
            radius,
            start,
            goal,
            levels,
            rect,
            _Region(2, *start, *goal, 0.0),
            _SEARCH_SPACING_MM,
        )
        if not scene.point_free[1]:
            return nothing
        return Path(True, 0.0, 0.0, np.array([start, goal], dtype=np.float64), blocked_by)
    if limit is not None:
        bound = max(limit * 1.01 + 1.0, straight + 1e-6)
    else:
        bound = 1.3 * straight + 4.0 * radius + 50.0
    corners = [(0.0, 0.0), (prep.width, 0.0), (0.0, prep.depth), (prep.width, prep.depth)]
    whole = max(
        math.hypot(cx - start[0], cy - start[1]) + math.hypot(cx - gx, cy - gy)
        for cx, cy in corners
    )
    checked = False
    attempts = 0
    while True:
        unbounded = bound >= whole
        region = _Region(0, 0, 0, 0, 0, 0) if unbounded else _Region(1, *start, *goal, bound)
        scene = _Scene(prep, radius, start, goal, levels, rect, region, _SEARCH_SPACING_MM)
        if not scene.point_free[1]:
            return nothing
        graph = _search(scene, goal, math.inf if unbounded else bound)
        target = graph.ids.get(("p", 1))
        if target is not None and graph.done[target]:
            path, costly = _finish(scene, graph, target, blocked_by)
            close = limit is None or abs(path.cost_mm - limit) <= 0.05 * limit + 1.0
            if not (costly and close):
                return path
            return _polish(scene, path, start, goal, region, blocked_by)
        if unbounded:
            return nothing
        if attempts >= 1 and not checked:
            checked = True
            if not _connected(scene, start, goal):
                return nothing
        attempts += 1
        bound *= 2.0


def _is_plus_inf(value: object) -> bool:
    """Whether ``value`` is positive infinity."""
    try:
        return float(cast(float, value)) == math.inf
    except (TypeError, ValueError):
        return False


def _connected(scene: _Scene, start: tuple[float, float], goal: tuple[float, float]) -> bool:
    """False when start and goal are certainly in different parts of free space."""
    everything = np.arange(len(scene.prep.sources), dtype=np.intp)
    free = _free_space(
        scene.prep, scene.radius, scene.levels, everything, scene.rect, None, outer=False
    )
    first = shapely.Point(start)
    second = shapely.Point(goal)
    for part in shapely.get_parts(free):
        if part.distance(first) < 1e-3:
            return bool(part.distance(second) < 1e-3)
    return True


def _finish(
    scene: _Scene, graph: _Graph, target: int, blocked_by: tuple[str, ...]
) -> tuple[Path, bool]:
    """Turn a search result into a :class:`Path`, refining bends on region boundaries.

    Also tells whether costly regions shaped the path (it bends on their boundaries
    or runs through them).
    """
    stops = _route(graph, target)
    refined = _refine(scene, stops)
    if refined is None:
        legs = _legs_from_search(scene, graph, target)
    else:
        legs = refined[1]
    cost = sum(leg.cost for leg in legs)
    length = sum(leg.length for leg in legs)
    bends = any(scene.first_boundary <= stop.point < scene.end_boundary for stop in stops)
    path = Path(True, float(cost), float(length), _polyline(scene, legs), blocked_by)
    return path, bends or cost > length + 1e-9


def _polish(
    scene: _Scene,
    path: Path,
    start: tuple[float, float],
    goal: tuple[float, float],
    region: _Region,
    blocked_by: tuple[str, ...],
) -> Path:
    """Search again near a path shaped by costly regions, with dense boundary samples.

    The corridor keeps the route found on the coarse samples but lets the path bend
    wherever the finer samples allow; the cheaper of both answers is returned.
    """
    corridor = _Region(3, 0.0, 0.0, 0.0, 0.0, _CORRIDOR_MM, path.points_mm)
    fine = _Scene(
        scene.prep,
        scene.radius,
        start,
        goal,
        scene.levels,
        scene.rect,
        region,
        _POLISH_SPACING_MM,
        corridor,
    )
    graph = _search(fine, goal, path.cost_mm * 1.001 + 0.5)
    target = graph.ids.get(("p", 1))
    if target is None or not graph.done[target]:
        return path
    better, _ = _finish(fine, graph, target, blocked_by)
    return better if better.cost_mm < path.cost_mm else path


def _legs_from_search(scene: _Scene, graph: _Graph, target: int) -> list[_Leg]:
    """Pieces straight from the search tree (used if re-evaluation fails)."""
    chain: list[int] = []
    node = target
    while node >= 0:
        chain.append(node)
        node = graph.parent[node]
    chain.reverse()
    pieces: list[tuple[float, ...]] = []
    length = 0.0
    for prev, node in zip(chain[:-1], chain[1:], strict=True):
        via = graph.via[node]
        assert via is not None
        delta, t1x, t1y, t2x, t2y, _ = via
        c = graph.circle[prev]
        if c >= 0 and delta > 0.0:
            pieces.append((1.0, float(c), float(graph.wind[prev]), graph.phi[prev], delta))
            length += float(scene.circ_rho[c]) * delta
        pieces.append((0.0, t1x, t1y, t2x, t2y))
        length += math.hypot(t2x - t1x, t2y - t1y)
    return [_Leg(graph.g[target], length, tuple(pieces))]


def reachable_area(
    field: Field, start_mm: object, mover_radius_mm: float, budget_mm: float
) -> shapely.Geometry:
    """Centres reachable from the start with a path costing at most ``budget_mm``.

    The cheapest costs from the start to the graph's nodes are found with Dijkstra
    on the same graph as :func:`shortest_path` (obstacles the start overlaps block
    only with their raw shape). Then rays are cast within each node's remaining
    budget, cut at the first obstacle or table edge and where the cost through
    costly regions runs out: fans from the start and from corners, sweeps of tangent
    rays along the free arcs of circles, and refracted rays from points on the
    edges of costly regions (with narrower fans where obstacles cut those). Where
    an obstacle's or a region's edge falls between neighbouring rays, rays are added
    halfway, up to six times. The union of the outlined polygons is intersected with
    free space, whose obstacles are drawn slightly large (by at most 0.5 micrometre).

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
        Its frontier follows the exact one to within a fraction of a mm (chords of
        rays at most 2 degrees apart).
    """
    start = _as_point(start_mm, "start_mm")
    radius = _as_length(mover_radius_mm, "mover_radius_mm")
    budget = _as_length(budget_mm, "budget_mm")
    prep = _prepare(field)
    rect = _table_rect(prep, radius, start)
    if budget <= 0.0 or rect is None or rect[0] > rect[2] or rect[1] > rect[3]:
        return shapely.Polygon()
    levels = _levels(prep, radius, [start])
    region = _Region(2, start[0], start[1], start[0], start[1], budget)
    scene = _Scene(prep, radius, start, None, levels, rect, region, _AREA_SPACING_MM)
    graph = _search(scene, None, budget)
    shapes = _sweep_shapes(scene, graph, budget)
    window = (
        start[0] - budget - 1.0,
        start[1] - budget - 1.0,
        start[0] + budget + 1.0,
        start[1] + budget + 1.0,
    )
    free = _free_space(prep, radius, levels, scene.kept, rect, window, outer=True)
    if not shapes:
        return shapely.Polygon()
    reach = shapely.union_all(shapes)
    area = reach.intersection(free)
    return _areal(area)


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
    if len(parts) == 1:
        return parts[0]
    return shapely.MultiPolygon(parts)


# -------------------------------------------------------------- reachable area


def _cast(
    scene: _Scene,
    ox: FloatArray,
    oy: FloatArray,
    ux: FloatArray,
    uy: FloatArray,
    budget: FloatArray,
) -> tuple[FloatArray, BoolArray, IntArray, FloatArray, IntArray]:
    """Length of rays until an obstacle, the table edge or the budget.

    Also returns whether an obstacle cut each ray, which one (-1 none, -2 unknown),
    the obstacle's outward unit normal at the hit point, shape (R, 2), and the
    convex piece hit (a disc, or the capsule around one edge; -1 none).
    """
    count = len(ox)
    reach = np.maximum(budget, 0.0)
    xmin, ymin, xmax, ymax = scene.rect
    with np.errstate(divide="ignore", invalid="ignore"):
        tx = np.where(ux > 0, (xmax - ox) / ux, np.where(ux < 0, (xmin - ox) / ux, np.inf))
        ty = np.where(uy > 0, (ymax - oy) / uy, np.where(uy < 0, (ymin - oy) / uy, np.inf))
    stop = np.minimum(reach, np.maximum(np.minimum(tx, ty), 0.0))
    hit_at = np.full(count, np.inf)
    hit_owner = np.full(count, -1, dtype=np.intp)
    hit_piece = np.full(count, -1, dtype=np.intp)
    normal = np.zeros((count, 2))
    ex = ox + stop * ux
    ey = oy + stop * uy
    lo_x, hi_x = np.minimum(ox, ex), np.maximum(ox, ex)
    lo_y, hi_y = np.minimum(oy, ey), np.maximum(oy, ey)
    if len(scene.disc_rho):
        c = scene.disc_xy
        r = scene.disc_rho - TOLERANCE_MM
        i, j = _bbox_pairs(
            lo_x, lo_y, hi_x, hi_y, c[:, 0] - r, c[:, 1] - r, c[:, 0] + r, c[:, 1] + r
        )
        wx = ox[i] - c[j, 0]
        wy = oy[i] - c[j, 1]
        b = ux[i] * wx + uy[i] * wy
        q = wx * wx + wy * wy - r[j] * r[j]
        disc = b * b - q
        good = (disc > 0.0) & (r[j] > 0.0)
        root = np.sqrt(np.maximum(disc, 0.0))
        t_in = -b - root
        t_out = -b + root
        t = np.where(t_in >= 0.0, t_in, np.where(t_out > 0.0, 0.0, np.inf))
        t = np.where(good, t, np.inf)
        reached = np.where(np.isfinite(t), t, 0.0)
        hx = (wx + reached * ux[i]) / np.where(r[j] > 0, r[j], 1.0)
        hy = (wy + reached * uy[i]) / np.where(r[j] > 0, r[j], 1.0)
        _closest(hit_at, hit_owner, hit_piece, normal, i, t, scene.disc_owner[j], j, hx, hy)
    if len(scene.edges):
        e = scene.edges
        grown = scene.radius - TOLERANCE_MM
        i, j = _bbox_pairs(
            lo_x,
            lo_y,
            hi_x,
            hi_y,
            np.minimum(e[:, 0], e[:, 2]) - grown,
            np.minimum(e[:, 1], e[:, 3]) - grown,
            np.maximum(e[:, 0], e[:, 2]) + grown,
            np.maximum(e[:, 1], e[:, 3]) + grown,
        )
        if len(i):
            ax, ay, bx, by = e[j, 0], e[j, 1], e[j, 2], e[j, 3]
            fx, fy = bx - ax, by - ay
            norm = np.hypot(fx, fy)
            nx = fy / np.where(norm > 0, norm, 1.0) * grown
            ny = -fx / np.where(norm > 0, norm, 1.0) * grown
            best = np.full(len(i), np.inf)
            bnx = np.zeros(len(i))
            bny = np.zeros(len(i))
            for sign in (1.0, -1.0):
                qx, qy = ax + sign * nx, ay + sign * ny
                denom = ux[i] * fy - uy[i] * fx
                safe = np.where(np.abs(denom) > 1e-15, denom, 1.0)
                wx, wy = qx - ox[i], qy - oy[i]
                t = (wx * fy - wy * fx) / safe
                s = (wx * uy[i] - wy * ux[i]) / safe
                ok = (np.abs(denom) > 1e-15) & (t >= 0.0) & (s >= 0.0) & (s <= 1.0)
                t = np.where(ok, t, np.inf)
                better = t < best
                best = np.where(better, t, best)
                bnx = np.where(better, sign * nx / grown, bnx)
                bny = np.where(better, sign * ny / grown, bny)
            for px, py in ((ax, ay), (bx, by)):
                wx, wy = ox[i] - px, oy[i] - py
                b = ux[i] * wx + uy[i] * wy
                q = wx * wx + wy * wy - grown * grown
                disc = b * b - q
                root = np.sqrt(np.maximum(disc, 0.0))
                t_in = -b - root
                t_out = -b + root
                t = np.where(t_in >= 0.0, t_in, np.where(t_out > 0.0, 0.0, np.inf))
                t = np.where(disc > 0.0, t, np.inf)
                better = t < best
                best = np.where(better, t, best)
                finite = np.where(better, t, 0.0)
                bnx = np.where(better, (wx + finite * ux[i]) / grown, bnx)
                bny = np.where(better, (wy + finite * uy[i]) / grown, bny)
            _closest(
                hit_at,
                hit_owner,
                hit_piece,
                normal,
                i,
                best,
                scene.edge_owner[j],
                j + len(scene.disc_rho),
                bnx,
                bny,
            )
    if len(scene.raw_edges) and len(scene.solids):
        e = scene.raw_edges
        dx = stop * ux
        dy = stop * uy
        rows, ta, tb = _crossing_intervals(ox, oy, dx, dy, e)
        mid = (ta + tb) / 2.0
        inside = scene.inside_solids(ox[rows] + mid * dx[rows], oy[rows] + mid * dy[rows])
        inside &= (tb - ta) * stop[rows] > TOLERANCE_MM
        flat = np.zeros(int(inside.sum()))
        unknown = np.full(len(flat), -2, dtype=np.intp)
        _closest(
            hit_at,
            hit_owner,
            hit_piece,
            normal,
            rows[inside],
            ta[inside] * stop[rows[inside]],
            unknown,
            unknown,
            flat,
            flat,
        )
    obstacle = hit_at < stop
    stop = np.minimum(stop, hit_at)
    if scene.zones:
        stop = np.minimum(stop, _budget_cut(scene, ox, oy, ux, uy, stop, reach))
        obstacle &= hit_at <= stop
    return (
        stop,
        obstacle,
        np.where(obstacle, hit_owner, -1),
        normal,
        np.where(obstacle, hit_piece, -1),
    )


def _closest(
    hit_at: FloatArray,
    hit_owner: IntArray,
    hit_piece: IntArray,
    normal: FloatArray,
    rows: IntArray,
    t: FloatArray,
    owner: IntArray,
    piece: IntArray,
    nx: FloatArray,
    ny: FloatArray,
) -> None:
    """Keep, per ray, the nearest hit, its obstacle, the piece hit and its normal."""
    if len(rows) == 0:
        return
    order = np.lexsort((t, rows))
    rows, t, owner, piece = rows[order], t[order], owner[order], piece[order]
    nx, ny = nx[order], ny[order]
    first = np.concatenate([[True], rows[1:] != rows[:-1]])
    rows, t, owner, piece = rows[first], t[first], owner[first], piece[first]
    nx, ny = nx[first], ny[first]
    better = t < hit_at[rows]
    hit_at[rows[better]] = t[better]
    hit_owner[rows[better]] = owner[better]
    hit_piece[rows[better]] = piece[better]
    normal[rows[better], 0] = nx[better]
    normal[rows[better], 1] = ny[better]


def _budget_cut(
    scene: _Scene,
    ox: FloatArray,
    oy: FloatArray,
    ux: FloatArray,
    uy: FloatArray,
    length: FloatArray,
    budget: FloatArray,
) -> FloatArray:
    """Distance along rays at which the weighted cost reaches the budget."""
    out = np.full(len(ox), np.inf)
    ex = ox + length * ux
    ey = oy + length * uy
    lo_x, hi_x = np.minimum(ox, ex), np.maximum(ox, ex)
    lo_y, hi_y = np.minimum(oy, ey), np.maximum(oy, ey)
    touched = np.zeros(len(ox), dtype=bool)
    for _, _, _, bbox in scene.zones:
        touched |= (hi_x >= bbox[0]) & (lo_x <= bbox[2]) & (hi_y >= bbox[1]) & (lo_y <= bbox[3])
    cand = np.nonzero(touched & (length > 0.0))[0]
    if len(cand) == 0:
        return out
    edges = np.concatenate([z[2] for z in scene.zones])
    dx = length[cand] * ux[cand]
    dy = length[cand] * uy[cand]
    rows, ta, tb = _crossing_intervals(ox[cand], oy[cand], dx, dy, edges)
    mid = (ta + tb) / 2.0
    weight = scene.weight_at(ox[cand][rows] + mid * dx[rows], oy[cand][rows] + mid * dy[rows])
    seg_len = length[cand][rows]
    piece = (tb - ta) * seg_len
    cost = piece * weight
    # cumulative cost within each row (rows are grouped and ordered by ta)
    order = np.lexsort((ta, rows))
    rows, ta, weight, piece, cost, seg_len = (
        rows[order],
        ta[order],
        weight[order],
        piece[order],
        cost[order],
        seg_len[order],
    )
    cum = np.cumsum(cost)
    first = np.searchsorted(rows, rows)
    before = cum - cost - np.where(first > 0, cum[first - 1], 0.0)
    rem = budget[cand][rows] - before
    inside = (rem >= 0.0) & (rem < cost)
    t_cut = ta * seg_len + rem / weight
    np.minimum.at(out, cand[rows[inside]], t_cut[inside])
    return out


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


class _Rays:
    """Rays to cast, in groups that each outline one polygon.

    A group is a closed fan (kind 0), a half fan (1), a sweep of tangent rays along
    a circle (2) or a strip of refracted rays from a boundary (3). Rays are kept in
    flat arrays sorted by group and by ``param``: the angle in a fan, the arc length
    along the circle in a sweep, a running position in a strip. Where an edge falls
    between neighbouring rays, rays are added halfway.
    """

    def __init__(self) -> None:
        self.parts: list[
            tuple[int, FloatArray, FloatArray, FloatArray, FloatArray, IntArray, FloatArray]
        ] = []
        self.kinds: list[int] = []
        self.bases: list[FloatArray] = []
        self.circles: list[tuple[float, float, float, int, float]] = []
        self.kind = np.zeros(0, dtype=np.intp)
        self.base = _empty2()
        self.circle = np.zeros((0, 5))
        self.gid = np.zeros(0, dtype=np.intp)
        self.param = np.zeros(0)
        self.o = _empty2()
        self.u = _empty2()
        self.b = np.zeros(0)
        self.touch_owner = np.zeros(0, dtype=np.intp)
        self.touch = np.zeros(0)
        self.original = np.zeros(0, dtype=bool)
        self.done = np.zeros(0, dtype=bool)
        self.length = np.zeros(0)
        self.owner = np.zeros(0, dtype=np.intp)
        self.piece = np.zeros(0, dtype=np.intp)
        self.normal = _empty2()

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
        last = np.concatenate([gid[1:] != gid[:-1], [True]])
        first = np.searchsorted(gid, gid)
        closed = self.kind[gid] == 0
        nxt[last] = np.where(closed[last], first[last], np.nonzero(last)[0])
        return nxt

    def _split(self) -> int:
        """Add rays halfway where an edge falls between neighbours; returns how many."""
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
        jump = ~hit[k] & ~hit[j] & (np.abs(length[k] - length[j]) > 0.5)
        far = np.maximum(length[k], length[j])
        kind = self.kind[self.gid[k]]
        fan = kind <= 1
        turn = np.arccos(np.clip(np.sum(self.u[k] * self.u[j], axis=1), -1.0, 1.0))
        gap = np.where(
            fan,
            np.mod(self.param[j] - self.param[k], _TWO_PI) * far,
            np.hypot(*(self.o[j] - self.o[k]).T) + turn * far,
        )
        need = (one | two | jump) & (gap > 0.02)
        k, j, kind, fan = k[need], j[need], kind[need], fan[need]
        m = len(k)
        if m == 0:
            return 0
        group = self.gid[k]
        upper = np.where(
            fan & (self.param[j] < self.param[k]), self.param[j] + _TWO_PI, self.param[j]
        )
        param = 0.5 * (self.param[k] + upper)
        start = self.param[np.searchsorted(self.gid, group)]
        param = np.where(fan & (param >= start + _TWO_PI), param - _TWO_PI, param)
        budgets = np.where(fan, self.b[k], 0.5 * (self.b[k] + self.b[j]))
        origins = 0.5 * (self.o[k] + self.o[j])
        directions = self.u[k] + self.u[j]
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
        order = np.lexsort((self.param, self.gid))
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
        ):
            setattr(self, name, getattr(self, name)[order])
        return m

    def polygons(self, scene: _Scene, levels: int = 6) -> list[FloatArray]:
        """Cast all rays, refining up to ``levels`` times, and return the rings."""
        if not self.parts:
            return []
        self.kind = np.array(self.kinds, dtype=np.intp)
        self.base = np.array(self.bases).reshape(-1, 2)
        self.circle = np.array(self.circles, dtype=np.float64).reshape(-1, 5)
        self.gid = np.concatenate([np.full(len(p[1]), p[0], dtype=np.intp) for p in self.parts])
        self.param = np.concatenate([p[1] for p in self.parts])
        self.o = np.concatenate([p[2] for p in self.parts])
        self.u = np.concatenate([p[3] for p in self.parts])
        self.b = np.concatenate([p[4] for p in self.parts])
        self.touch_owner = np.concatenate([p[5] for p in self.parts])
        self.touch = np.concatenate([p[6] for p in self.parts])
        count = len(self.gid)
        self.original = np.ones(count, dtype=bool)
        self.done = np.zeros(count, dtype=bool)
        self.length = np.zeros(count)
        self.owner = np.full(count, -1, dtype=np.intp)
        self.piece = np.full(count, -1, dtype=np.intp)
        self.normal = np.zeros((count, 2))
        for level in range(levels + 1):
            todo = np.nonzero(~self.done)[0]
            if len(todo) == 0:
                break
            length, _, owner, normal, piece = _cast(
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
            if level == levels or self._split() == 0:
                break
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
            else:
                ring = np.vstack([self.o[lo:hi], outline[::-1]])
            if len(ring) >= 3:
                rings.append(ring)
        return rings

    def group_rays(self, group: int) -> tuple[FloatArray, IntArray]:
        """Lengths and obstacle hits of a group's original rays (after casting)."""
        mask = (self.gid == group) & self.original
        return self.length[mask], self.owner[mask]


def _fan_angles(
    scene: _Scene, graph: _Graph, node: int, rem: float, start: float, span: float
) -> tuple[FloatArray, IntArray, FloatArray]:
    """Ray directions of a fan: regular steps plus every tangent to a nearby obstacle.

    A fan from a corner of a costly region also follows both edges at that corner.
    Returns the angles, the obstacle each tangent ray touches (-1 for regular rays)
    and the distance to the touching point.
    """
    closed = span >= _TWO_PI
    n = int(min(180, max(24, math.ceil(_TWO_PI * rem / 1.5))))
    if closed:
        angles = start + np.arange(n) * (span / n)
    else:
        angles = start + np.linspace(0.0, span, max(3, int(n * span / _TWO_PI) + 1))
    point = graph.point[node]
    if scene.first_boundary <= point < scene.end_boundary and scene.point_corner[point]:
        zone_index, ring, param, _ = scene.boundary_info[point - scene.first_boundary]
        coords = scene.zone_ref[int(zone_index)].rings[int(ring)]
        cum = scene.zone_ref[int(zone_index)].lengths[int(ring)]
        k = min(max(int(np.searchsorted(cum, param + 1e-9, side="right")) - 1, 0), len(coords) - 2)
        here = coords[k]
        ahead = coords[k + 1] - here
        behind = coords[k - 1 if k > 0 else len(coords) - 2] - here
        edge_angles = _angle(np.array([ahead[0], behind[0]]), np.array([ahead[1], behind[1]]))
        edge_angles = np.mod(edge_angles - start, _TWO_PI)
        angles = np.unique(np.concatenate([angles, edge_angles[edge_angles <= span] + start]))
    owners = np.full(len(angles), -1, dtype=np.intp)
    touch = np.full(len(angles), np.inf)
    nx0, ny0 = graph.x[node], graph.y[node]
    edges = scene.departures.get((-1 - graph.point[node], 0))
    if edges is not None and len(edges.target):
        extra_owner = _touch_owner(scene, edges.target)
        dist = np.hypot(edges.t2x - nx0, edges.t2y - ny0)
        corner = scene.point_corner[np.maximum(scene.target_point[edges.target], 0)]
        corner &= scene.target_point[edges.target] >= 0
        towards = ((extra_owner >= 0) | corner) & (dist > 1e-9) & (dist < rem)
        extra = np.mod(_angle(edges.t2x[towards] - nx0, edges.t2y[towards] - ny0) - start, _TWO_PI)
        inside = extra <= span
        angles = np.concatenate([extra[inside] + start, angles])
        owners = np.concatenate([extra_owner[towards][inside], owners])
        touch = np.concatenate([dist[towards][inside], touch])
        order = np.argsort(angles, kind="stable")
        angles, owners, touch = angles[order], owners[order], touch[order]
        keep = np.concatenate([[True], np.diff(angles) > 1e-12])
        angles, owners, touch = angles[keep], owners[keep], touch[keep]
    return angles.astype(np.float64), owners.astype(np.intp), touch.astype(np.float64)


def _touch_owner(scene: _Scene, target: IntArray) -> IntArray:
    """Obstacle owning each search target (-1 for start, goal and region samples)."""
    circle = scene.target_circle[target]
    point = scene.target_point[target]
    owner = np.full(len(target), -1, dtype=np.intp)
    is_circle = circle >= 0
    owner[is_circle] = scene.circ_owner[circle[is_circle]]
    owner[~is_circle] = scene.point_owner[point[~is_circle]]
    return owner


def _boundary_frames(
    scene: _Scene, graph: _Graph, nodes: list[int]
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
        if vertex:
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


def _sweep_shapes(scene: _Scene, graph: _Graph, budget: float) -> list[shapely.Geometry]:
    """Polygons of the points reachable from settled nodes within the remaining budget.

    The start and point nodes cast fans; circles cast sweeps of tangent rays along
    their free arcs; points on costly-region edges cast refracted rays that outline
    strips, with narrow fans where a strip ends or an obstacle's shadow cuts it.
    """
    g = np.array(graph.g)
    done = np.array(graph.done, dtype=bool)
    circle = np.array(graph.circle, dtype=np.intp)
    settled = np.nonzero(done & (g < budget))[0]
    rays = _Rays()
    point_nodes = [int(n) for n in settled if circle[n] < 0]
    on_edge = [
        n
        for n in point_nodes
        if scene.first_boundary <= graph.point[n] < scene.end_boundary and graph.parent[n] >= 0
    ]
    vertex_set = {
        n for n in on_edge if scene.boundary_info[graph.point[n] - scene.first_boundary][3] != 0.0
    }
    edge_set = set(on_edge) - vertex_set
    for node in point_nodes:
        if node in edge_set:
            continue
        rem = float(budget - g[node])
        angles, owners, touch = _fan_angles(scene, graph, node, rem, 0.0, _TWO_PI)
        origin = np.array([graph.x[node], graph.y[node]])
        rays.add(
            0,
            origin,
            angles,
            np.tile(origin, (len(angles), 1)),
            np.column_stack([np.cos(angles), np.sin(angles)]),
            np.full(len(angles), rem),
            owners,
            touch,
        )
    # refracted strips along costly-region edges
    half_fans: set[int] = set()
    strips: list[tuple[IntArray, int]] = []
    frames: dict[int, tuple[FloatArray, float, FloatArray]] = {}
    if on_edge:
        node_of, params, tangent, side, refracted, key = _boundary_frames(scene, graph, on_edge)
        order = np.lexsort((params, key[:, 3], key[:, 2], key[:, 1], key[:, 0]))
        sorted_key = key[order]
        cut = np.ones(len(order), dtype=bool)
        cut[1:] = np.any(sorted_key[1:] != sorted_key[:-1], axis=1)
        gap = np.diff(params[order]) > 1.5 * scene.spacing
        turn = np.sum(refracted[order][1:] * refracted[order][:-1], axis=1)
        broken = gap | (turn < math.cos(math.radians(15.0)))
        cut[1:] |= broken
        starts = np.nonzero(cut)[0]
        stops = np.append(starts[1:], len(order))
        for m in range(len(node_of)):
            frames.setdefault(int(node_of[m]), (tangent[m], float(side[m]), refracted[m]))
        for lo, hi in zip(starts, stops, strict=True):
            rows = order[lo:hi]
            run = node_of[rows]
            if lo > 0 and broken[lo - 1]:
                half_fans.add(int(run[0]))
            if hi < len(order) and broken[hi - 1]:
                half_fans.add(int(run[-1]))
            if len(run) < 2:
                if int(run[0]) in vertex_set:
                    continue
                half_fans.add(int(run[0]))
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
            strips.append((run, group))
    # circles: sweeps along the arc with tangent rays, from non-dominated arrivals
    _circle_sweeps(scene, graph, settled, g, budget, rays)
    rings = rays.polygons(scene)
    # half fans where strips end or where a shadow edge crosses a strip
    for run, group in strips:
        length, owner = rays.group_rays(group)
        hit = owner != -1
        jump = (hit[1:] != hit[:-1]) | (
            hit[1:] & hit[:-1] & (np.abs(np.diff(length)) > 2.0 * scene.spacing)
        )
        for k in np.nonzero(jump)[0]:
            half_fans.add(int(run[k]))
            half_fans.add(int(run[k + 1]))
    half_fans -= vertex_set
    if half_fans:
        extra_rays = _Rays()
        for node in sorted(half_fans):
            tangent_m, side_m, refracted_m = frames[node]
            base = math.atan2(tangent_m[1], tangent_m[0])
            low = base + (math.pi if side_m > 0 else 0.0)
            centre = math.atan2(refracted_m[1], refracted_m[0])
            centre = low + (centre - low) % _TWO_PI
            start = max(low, centre - _CONE)
            span = min(low + math.pi, centre + _CONE) - start
            rem = float(budget - g[node])
            angles, owners, touch = _fan_angles(scene, graph, node, rem, start, span)
            origin = np.array([graph.x[node], graph.y[node]])
            extra_rays.add(
                1,
                origin,
                angles,
                np.tile(origin, (len(angles), 1)),
                np.column_stack([np.cos(angles), np.sin(angles)]),
                np.full(len(angles), rem),
                owners,
                touch,
            )
        rings += extra_rays.polygons(scene)
    if not rings:
        return []
    sizes = np.array([len(r) for r in rings])
    coords = np.concatenate(rings)
    index = np.repeat(np.arange(len(rings)), sizes)
    polygons = shapely.polygons(shapely.linearrings(coords, indices=index))
    valid = shapely.is_valid(polygons)
    if not np.all(valid):
        polygons[~valid] = shapely.make_valid(polygons[~valid])
    return list(polygons)


def _circle_sweeps(
    scene: _Scene, graph: _Graph, settled: IntArray, g: FloatArray, budget: float, rays: _Rays
) -> None:
    """Add sweeps of tangent rays along free arcs from non-dominated circle arrivals."""
    circle = np.array(graph.circle, dtype=np.intp)
    by_circle: dict[tuple[int, int], list[int]] = {}
    for node in settled:
        if circle[node] >= 0:
            by_circle.setdefault((int(circle[node]), graph.wind[node]), []).append(int(node))
    for (c, wind), nodes in by_circle.items():
        rho = float(scene.circ_rho[c])
        cx, cy = scene.circ_xy[c]
        full = bool(scene.run_full[c])
        tol = float(scene.ang_tol[c])
        members = np.array(nodes)
        phis = np.array([graph.phi[n] for n in nodes])
        offs = np.array([graph.off[n] for n in nodes])
        runs = np.array([graph.run[n] for n in nodes])
        gs = g[members]
        departures = scene.departures.get((c, wind))
        if full:
            delta = np.mod(wind * (phis[None, :] - phis[:, None]), _TWO_PI)
            reach_ok = np.ones_like(delta, dtype=bool)
            extent = np.full(len(nodes), _TWO_PI - 1e-9)
        else:
            delta = wind * (offs[None, :] - offs[:, None])
            reach_ok = (runs[None, :] == runs[:, None]) & (delta >= -tol)
            delta = np.maximum(delta, 0.0)
            lengths = scene.run_len[c, runs]
            extent = lengths - offs if wind > 0 else offs
        begin = phis[:, None] if wind > 0 else phis[:, None] - delta
        arc_cost = rho * scene.arc_weight(
            c, np.broadcast_to(begin, delta.shape).ravel(), delta.ravel()
        ).reshape(delta.shape)
        np.fill_diagonal(reach_ok, False)
        via = gs[:, None] + arc_cost
        dominated = np.any(reach_ok & (via < gs[None, :] - 1e-9), axis=0)
        takes_over = reach_ok & (gs[None, :] <= via + 1e-9) & (delta > tol)
        stop_at = np.where(takes_over, delta, np.inf).min(axis=1)
        for m in range(len(nodes)):
            if dominated[m]:
                continue
            # stop just short of the end of the free arc: the last tangent ray then
            # leaves the obstacle instead of grazing (and numerically cutting) it
            span = float(min(stop_at[m], extent[m] - 5e-5, _TWO_PI - 1e-6))
            rem0 = budget - gs[m]
            if span <= 1e-9 or rem0 <= 0.0:
                continue
            step = min(_SWEEP_STEP, _SWEEP_STEP_MM / rho)
            n = max(2, math.ceil(span / step) + 1)
            d = np.linspace(0.0, span, n)
            owners = np.full(len(d), -1, dtype=np.intp)
            touch = np.full(len(d), np.inf)
            if departures is not None and len(departures.target):
                if full:
                    leave = np.mod(wind * (departures.phi1 - phis[m]), _TWO_PI)
                else:
                    leave = np.where(
                        departures.run1 == runs[m], wind * (departures.off1 - offs[m]), -1.0
                    )
                leave_owner = _touch_owner(scene, departures.target)
                tp = scene.target_point[departures.target]
                corner = scene.point_corner[np.maximum(tp, 0)] & (tp >= 0)
                # exact departures may reach the very end of the free arc
                end = min(float(stop_at[m]), float(extent[m]) + tol)
                chosen = (leave > 0.0) & (leave <= end) & ((leave_owner >= 0) | corner)
                d = np.concatenate([leave[chosen], d])
                owners = np.concatenate([leave_owner[chosen], owners])
                touch = np.concatenate([departures.length[chosen], touch])
                order = np.argsort(d, kind="stable")
                d, owners, touch = d[order], owners[order], touch[order]
                keep = np.concatenate([[True], np.diff(d) > 1e-12])
                d, owners, touch = d[keep], owners[keep], touch[keep]
            begin_m = phis[m] if wind > 0 else phis[m] - d
            spent = rho * scene.arc_weight(
                c, np.broadcast_to(np.asarray(begin_m), d.shape) + 0.0, d
            )
            rem = rem0 - spent
            alive = rem > 0.0
            if not np.all(alive):
                last = int(np.argmin(alive))
                if last == 0:
                    continue
                lo, hi = d[last - 1], d[last]
                frac = rem[last - 1] / (rem[last - 1] - rem[last])
                d = np.concatenate([d[:last], [lo + frac * (hi - lo)]])
                rem = np.concatenate([rem[:last], [0.0]])
                owners = np.concatenate([owners[:last], [-1]])
                touch = np.concatenate([touch[:last], [np.inf]])
            if len(d) < 2:
                continue
            a = phis[m] + wind * d
            px = cx + rho * np.cos(a)
            py = cy + rho * np.sin(a)
            origins = np.column_stack([px, py])
            rays.add(
                2,
                origins,
                d,
                origins,
                np.column_stack([-np.sin(a) * wind, np.cos(a) * wind]),
                rem,
                owners,
                touch,
                (float(cx), float(cy), rho, int(wind), float(phis[m])),
            )
