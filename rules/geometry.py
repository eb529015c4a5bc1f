"""Plane geometry on table millimetres: distances, footprints, lines against footprints.

Points are float64 arrays of shape (2,) and point sets of shape (N, 2), table mm.
Discs are arrays of shape (N, 3): x_mm, y_mm, radius_mm. Polygon work is done by
shapely (GEOS); only what shapely does not offer is written here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from arbitre.rules.model import DISC_QUAD_SEGMENTS, Base, BaseShape, Figure


def centre_distance_mm(a_xy: np.ndarray, b_xy: np.ndarray) -> float:
    """Distance between two points, table mm.

    >>> centre_distance_mm(np.array([0.0, 0.0]), np.array([30.0, 40.0]))
    50.0
    """
    return float(np.hypot(*(np.asarray(b_xy, float) - np.asarray(a_xy, float))))


def pairs_within(xy: np.ndarray, distance_mm: float) -> np.ndarray:
    """Index pairs ``(i, j)``, ``i < j``, of points (N, 2) at most ``distance_mm`` apart,
    found with a spatial index (shapely's STRtree), sorted.

    >>> pairs_within(np.array([[0.0, 0.0], [3.0, 4.0], [20.0, 0.0]]), 5.0).tolist()
    [[0, 1]]
    """
    if len(xy) < 2:
        return np.zeros((0, 2), dtype=np.intp)
    points = shapely.points(np.asarray(xy, dtype=np.float64))
    first, second = shapely.STRtree(points).query(points, "dwithin", distance=distance_mm)
    pairs = np.column_stack([first, second])[first < second]
    return np.asarray(pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))], dtype=np.intp)


def base_gaps_mm(
    xy: np.ndarray,
    disc_radii_mm: np.ndarray,
    footprints: Any,
    rows: Sequence[int] | np.ndarray | None = None,
    cols: Sequence[int] | np.ndarray | None = None,
) -> np.ndarray:
    """Edge-to-edge gaps mm between N bases, 0 where they touch or overlap: from each of
    the bases ``rows`` to each of the bases ``cols`` (all of them by default).

    ``xy`` (N, 2) centres; ``disc_radii_mm`` (N,) the radius of each round base (NaN for
    the others); ``footprints`` their outlines, indexed by an array of bases (an object
    array of polygons, or anything indexed alike; only those of bases that are not round
    are asked for). Two round bases are measured in closed form (centre distance less
    both radii), a round base and another from its centre to the other's outline, and
    only two bases that are not round outline to outline: no polygon of 128 sides is
    measured against another. A block costs its size: each gap is the same number
    whichever block it is measured in.

    Discs at (0, 0) (radius 10) and (30, 40) (12.5): 50 - 22.5 = 27.5 apart; a 20 mm
    square around (50, 0): 40 - 10 = 30 from the first, and its corner (40, 10) is
    hypot(10, 30) = 31.623 from the second's centre: 19.123 from its edge.

    >>> square = shapely.box(40.0, -10.0, 60.0, 10.0)
    >>> bases = (
    ...     np.array([[0.0, 0.0], [30.0, 40.0], [50.0, 0.0]]),
    ...     np.array([10.0, 12.5, np.nan]),
    ...     np.array([None, None, square], dtype=object),
    ... )
    >>> base_gaps_mm(*bases).round(3).tolist()
    [[0.0, 27.5, 30.0], [27.5, 0.0, 19.123], [30.0, 19.123, 0.0]]
    >>> base_gaps_mm(*bases, rows=[2], cols=[1, 2]).round(3).tolist()
    [[19.123, 0.0]]
    """
    count = len(np.asarray(xy).reshape(-1, 2))
    rows_ = np.arange(count) if rows is None else np.asarray(rows, dtype=np.intp).reshape(-1)
    cols_ = np.arange(count) if cols is None else np.asarray(cols, dtype=np.intp).reshape(-1)
    first, second = np.meshgrid(rows_, cols_, indexing="ij")
    gaps = pair_gaps_mm(xy, disc_radii_mm, footprints, first.ravel(), second.ravel())
    return gaps.reshape(len(rows_), len(cols_))


def pair_gaps_mm(
    xy: np.ndarray,
    disc_radii_mm: np.ndarray,
    footprints: Any,
    first: np.ndarray,
    second: np.ndarray,
) -> np.ndarray:
    """Edge-to-edge gaps (K,) mm between the bases ``first[k]`` and ``second[k]`` of the N
    bases of `base_gaps_mm` (same arguments): each the same number as there.

    >>> pair_gaps_mm(
    ...     np.array([[0.0, 0.0], [30.0, 40.0]]), np.array([10.0, 12.5]), None,
    ...     np.array([0, 1, 1]), np.array([1, 0, 1]),
    ... ).tolist()
    [27.5, 27.5, 0.0]
    """
    xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    radii = np.asarray(disc_radii_mm, dtype=np.float64).reshape(len(xy))
    first = np.asarray(first, dtype=np.intp).reshape(-1)
    second = np.asarray(second, dtype=np.intp).reshape(-1)
    centres = np.hypot(xy[first, 0] - xy[second, 0], xy[first, 1] - xy[second, 1])
    first_radii, second_radii = radii[first], radii[second]
    round_first, round_second = np.isfinite(first_radii), np.isfinite(second_radii)
    gaps: np.ndarray = np.maximum(
        centres - np.where(round_first, first_radii, 0.0) - second_radii, 0.0
    )
    if not (round_first.all() and round_second.all()):
        _outline_gaps(gaps, xy, footprints, (first, first_radii), (second, second_radii))
    gaps[first == second] = 0.0
    return gaps


def _outline_gaps(
    gaps: np.ndarray,
    xy: np.ndarray,
    footprints: Any,
    first: tuple[np.ndarray, np.ndarray],
    second: tuple[np.ndarray, np.ndarray],
) -> None:
    """Fill in `pair_gaps_mm`'s gaps that involve a base that is not round: outline to
    outline, or outline to a round base's centre less its radius. ``first`` and
    ``second`` are the bases of each pair and their radii (NaN where not round)."""
    (a, a_radii), (b, b_radii) = first, second
    a_round, b_round = np.isfinite(a_radii), np.isfinite(b_radii)
    both = np.flatnonzero(~a_round & ~b_round)
    if len(both):
        gaps[both] = shapely.distance(footprints[a[both]], footprints[b[both]])
    shaped_to_disc = np.flatnonzero(~a_round & b_round)
    if len(shaped_to_disc):
        to_centre = shapely.distance(
            footprints[a[shaped_to_disc]], shapely.points(xy[b[shaped_to_disc]])
        )
        gaps[shaped_to_disc] = np.maximum(to_centre - b_radii[shaped_to_disc], 0.0)
    disc_to_shaped = np.flatnonzero(a_round & ~b_round)
    if len(disc_to_shaped):
        to_centre = shapely.distance(
            footprints[b[disc_to_shaped]], shapely.points(xy[a[disc_to_shaped]])
        )
        gaps[disc_to_shaped] = np.maximum(to_centre - a_radii[disc_to_shaped], 0.0)


def segment_distances(p: np.ndarray, q: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Distance (N,) from each point (N, 2) to the segment p-q.

    >>> segment_distances(np.zeros(2), np.array([10.0, 0.0]), np.array([[5.0, 3.0], [13.0, 4.0]]))
    array([3., 5.])
    """
    p, q = np.asarray(p, dtype=np.float64), np.asarray(q, dtype=np.float64)
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    along = q - p
    length2 = float(along @ along)
    t = np.clip((points - p) @ along / length2, 0.0, 1.0) if length2 > 0 else np.zeros(len(points))
    return np.asarray(np.hypot(*(points - (p + t[:, None] * along)).T), dtype=np.float64)


def edge_gap_mm(a: shapely.Geometry, b: shapely.Geometry) -> float:
    """Closest distance between two footprints (0 when they touch or overlap).

    >>> from arbitre.rules.model import Base
    >>> round(edge_gap_mm(Base.round(25).footprint(0, 0, 0), Base.round(25).footprint(40, 0, 0)), 3)
    15.0
    """
    return float(shapely.distance(a, b))


def signed_gap_mm(a: Figure, base_a: Base, b: Figure, base_b: Base) -> float:
    """The gap between two figures' bases (``base_a`` under ``a``, ``base_b`` under ``b``),
    edge to edge, as a contact question reports it: negative by how much two round bases
    overlap; 0 when bases of other shapes touch or overlap.

    >>> disc = Base.round(25)
    >>> signed_gap_mm(Figure("a", "x", 0, 0), disc, Figure("b", "y", 40, 0), disc)
    15.0
    >>> signed_gap_mm(Figure("a", "x", 0, 0), disc, Figure("b", "y", 10, 0), disc)
    -15.0
    """
    if base_a.shape is BaseShape.ROUND and base_b.shape is BaseShape.ROUND:
        return math.hypot(b.x_mm - a.x_mm, b.y_mm - a.y_mm) - base_a.radius_mm - base_b.radius_mm
    first = base_a.footprint(a.x_mm, a.y_mm, a.facing_deg)
    second = base_b.footprint(b.x_mm, b.y_mm, b.facing_deg)
    return float(shapely.distance(first, second))


CIRCLE_POINTS = 4 * DISC_QUAD_SEGMENTS
_UNIT_CIRCLE = np.column_stack(
    [
        np.cos(np.linspace(0, 2 * np.pi, CIRCLE_POINTS, endpoint=False)),
        np.sin(np.linspace(0, 2 * np.pi, CIRCLE_POINTS, endpoint=False)),
    ]
)


def disc_hulls(groups_of_discs: list[np.ndarray]) -> np.ndarray:
    """Convex hulls of groups of discs, each (N, 3), as fine polygons: group footprints.

    Each circle is sampled at 128 points, so a hull is within 0.04 % of a radius of the
    true one. Returns an object array of shapely polygons, one per group.
    """
    if not groups_of_discs:
        return np.empty(0, dtype=object)
    clouds = [
        (d[:, None, :2] + d[:, None, 2:3] * _UNIT_CIRCLE[None]).reshape(-1, 2)
        for d in (np.atleast_2d(np.asarray(g, dtype=np.float64)) for g in groups_of_discs)
    ]
    owner = np.repeat(np.arange(len(clouds)), [len(c) for c in clouds])
    points = shapely.multipoints(np.concatenate(clouds), indices=owner)
    return np.asarray(shapely.convex_hull(points))


def swept_hulls(starts: np.ndarray, ends: np.ndarray, shape: np.ndarray) -> np.ndarray:
    """Where a convex shape passes as it slides along segments: the convex hull of the
    shape at both ends of each segment ``starts[k]`` to ``ends[k]`` ((K, 2) each).

    ``shape`` is the shape's vertices (V, 2) about its reference point. Returns an
    object array of K polygons.

    >>> square = np.array([[1.0, 1], [-1, 1], [-1, -1], [1, -1]])
    >>> hull = swept_hulls(np.array([[0.0, 0]]), np.array([[10.0, 0]]), square)[0]
    >>> hull.bounds, hull.area
    ((-1.0, -1.0, 11.0, 1.0), 24.0)
    """
    starts = np.asarray(starts, dtype=np.float64).reshape(-1, 2)
    ends = np.asarray(ends, dtype=np.float64).reshape(-1, 2)
    shape = np.asarray(shape, dtype=np.float64).reshape(-1, 2)
    clouds = np.concatenate([starts[:, None] + shape[None], ends[:, None] + shape[None]], axis=1)
    owner = np.repeat(np.arange(len(starts)), 2 * len(shape))
    return np.asarray(
        shapely.convex_hull(shapely.multipoints(clouds.reshape(-1, 2), indices=owner))
    )


def overlap_centres(polygon: shapely.Polygon, shape: np.ndarray) -> shapely.Geometry:
    """The reference points at which a convex shape overlaps ``polygon``.

    ``shape`` is the shape's vertices (V, 2) about its reference point, which must lie
    in it (a base about its centre). The answer is the polygon grown by the shape turned
    half round (`overlap_centres_of` for many polygons at once).

    A 40 x 20 mm base about its centre overlaps a 100 mm square from 20 mm beside it
    and 10 mm above or below it:

    >>> base = np.array([[20.0, 10], [-20, 10], [-20, -10], [20, -10]])
    >>> overlap_centres(shapely.box(0, 0, 100, 100), base).bounds
    (-20.0, -10.0, 120.0, 110.0)
    """
    return overlap_centres_of(np.array([polygon], dtype=object), shape)[0]


def are_convex(polygons: np.ndarray) -> np.ndarray:
    """Whether each polygon of an object array is convex (no holes, its hull no larger
    but for rounding).

    >>> ell = shapely.box(0, 0, 2, 2).difference(shapely.box(1, 1, 2, 2))
    >>> are_convex(np.array([shapely.box(0, 0, 1, 1), ell])).tolist()
    [True, False]
    """
    hull_area = shapely.area(shapely.convex_hull(polygons))
    return np.asarray(
        (shapely.get_num_interior_rings(polygons) == 0)
        & (hull_area - shapely.area(polygons) <= 1e-9 * hull_area)
    )


def overlap_centres_of(polygons: np.ndarray, shape: np.ndarray) -> np.ndarray:
    """`overlap_centres` of each polygon of an object array (K,), as an object array (K,).

    Each polygon is grown by the shape turned half round: for a convex polygon, the hull
    of its corners moved by the shape's (all such polygons at once); otherwise the
    polygon with the shape, so turned, slid along each edge of its rings (where the
    shape overlaps the polygon without holding a point of it, it crosses an edge).

    A 20 mm square about its centre against a 100 mm square and an L (a 100 mm square
    less its top right quarter): both grow by 10 mm all round, and the L's 50 mm notch
    narrows by 10 mm each way, 120 x 120 - 50 x 50 = 11,900 mm^2.

    >>> square = np.array([[10.0, 10], [-10, 10], [-10, -10], [10, -10]])
    >>> ell = shapely.box(0, 0, 100, 100).difference(shapely.box(50, 50, 100, 100))
    >>> grown = overlap_centres_of(np.array([shapely.box(0, 0, 100, 100), ell]), square)
    >>> [g.bounds for g in grown], grown[1].area
    ([(-10.0, -10.0, 110.0, 110.0), (-10.0, -10.0, 110.0, 110.0)], 11900.0)
    """
    turned = -np.asarray(shape, dtype=np.float64).reshape(-1, 2)
    polygons = np.asarray(polygons, dtype=object).reshape(-1)
    grown = np.empty(len(polygons), dtype=object)
    if len(polygons) == 0:
        return grown
    convex = are_convex(polygons)
    at_once = np.nonzero(convex)[0]
    if len(at_once):
        rings = shapely.get_exterior_ring(polygons[at_once])
        corners, owner = shapely.get_coordinates(rings, return_index=True)
        clouds = (corners[:, None] + turned[None]).reshape(-1, 2)
        grown[at_once] = shapely.convex_hull(
            shapely.multipoints(clouds, indices=np.repeat(owner, len(turned)))
        )
    for k in np.nonzero(~convex)[0]:
        polygon = polygons[k]
        rings = [
            np.asarray(r.coords, dtype=np.float64) for r in (polygon.exterior, *polygon.interiors)
        ]
        starts = np.concatenate([r[:-1] for r in rings])
        ends = np.concatenate([r[1:] for r in rings])
        grown[k] = shapely.union_all([polygon, *swept_hulls(starts, ends, turned)])
    return grown


def line_penetration_mm(p: np.ndarray, q: np.ndarray, discs: np.ndarray) -> float:
    """How far the hull of discs (N, 3) must shift across the line p-q to clear it.

    >>> line_penetration_mm(np.zeros(2), np.array([100.0, 0.0]), np.array([[50.0, 2, 5]]))
    3.0
    """
    direction = np.asarray(q, dtype=np.float64) - np.asarray(p, dtype=np.float64)
    normal = np.array([-direction[1], direction[0]]) / np.hypot(*direction)
    side = (discs[:, :2] - p) @ normal
    left = float(np.max(side + discs[:, 2]))
    right = float(np.max(discs[:, 2] - side))
    return min(left, right)


Ring = tuple[tuple[float, float], ...]
"""A ring of points, table mm (x, y), as answers give them."""


def ring_points(coords: Any) -> Ring:
    """A shapely ring's coordinates as plain (x, y) float pairs, for JSON answers.

    >>> ring_points(shapely.box(0, 0, 1, 2).exterior.coords)[:2]
    ((1.0, 0.0), (1.0, 2.0))
    """
    array = np.asarray(coords, dtype=np.float64)
    if len(array) == 0:
        return ()
    return tuple((x, y) for x, y in array[:, :2].tolist())


def polygon_rings(
    polygons: Iterable[shapely.Polygon],
) -> tuple[tuple[Ring, ...], tuple[tuple[Ring, ...], ...]]:
    """Each polygon's outer ring, and each one's holes, as plain points: an area answer's
    ``polygons_mm`` and ``holes_mm``.

    >>> square = shapely.box(0, 0, 4, 4).difference(shapely.box(1, 1, 2, 2))
    >>> outlines, holes = polygon_rings([square])
    >>> len(outlines[0]), len(holes[0]), len(holes[0][0])
    (5, 1, 5)
    """
    pieces = list(polygons)
    return (
        tuple(ring_points(p.exterior.coords) for p in pieces),
        tuple(tuple(ring_points(h.coords) for h in p.interiors) for p in pieces),
    )


ANSWER_GRID_MM = 1e-3
"""Answers give coordinates to the micrometre (`arbitre.rules.answers.Answer.to_json`)."""


@dataclass(frozen=True, slots=True)
class AreaAnswer:
    """An area as an answer gives it: its polygons' rings (``polygons_mm``, ``holes_mm``)
    and its size."""

    polygons: tuple[shapely.Polygon, ...]
    polygons_mm: tuple[Ring, ...]
    holes_mm: tuple[tuple[Ring, ...], ...]
    area_mm2: float


def area_answer(area: shapely.Geometry) -> AreaAnswer:
    """An area (a polygon, several, or none) snapped to the micrometre the answers are
    written to, so that its rings, written out, still make valid polygons (rounded one by
    one, the points of two rings a few micrometres apart could cross), and its parts.

    >>> near = shapely.box(0, 0, 1, 1).union(shapely.box(1.0000004, 0, 2, 1))
    >>> found = area_answer(near)
    >>> len(found.polygons), found.area_mm2
    (1, 2.0)
    """
    snapped = shapely.set_precision(area, ANSWER_GRID_MM)
    polygons = tuple(
        p for p in shapely.get_parts(snapped) if isinstance(p, shapely.Polygon) and not p.is_empty
    )
    outlines, holes = polygon_rings(polygons)
    return AreaAnswer(polygons, outlines, holes, float(sum(p.area for p in polygons)))
