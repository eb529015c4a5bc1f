"""Plane geometry on table millimetres: distances, footprints, lines against footprints.

Points are float64 arrays of shape (2,) and point sets of shape (N, 2), table mm.
Discs are arrays of shape (N, 3): x_mm, y_mm, radius_mm. Polygon work is done by
shapely (GEOS); only what shapely does not offer is written here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from rules.model import DISC_QUAD_SEGMENTS


def centre_distance_mm(a_xy: np.ndarray, b_xy: np.ndarray) -> float:
    """Distance between two points, table mm.

    >>> centre_distance_mm(np.array([0.0, 0.0]), np.array([30.0, 40.0]))
    50.0
    """
    return float(np.hypot(*(np.asarray(b_xy, float) - np.asarray(a_xy, float))))


def edge_gap_mm(a: shapely.Geometry, b: shapely.Geometry) -> float:
    """Closest distance between two footprints (0 when they touch or overlap).

    >>> from rules.model import Base
    >>> round(edge_gap_mm(Base.round(25).footprint(0, 0, 0), Base.round(25).footprint(40, 0, 0)), 3)
    15.0
    """
    return float(shapely.distance(a, b))


def point_segment_distance_mm(points: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Distance from each point to the segment p-q.

    Parameters
    ----------
    points : (N, 2) table mm
    p, q : (2,) segment ends, table mm

    Returns
    -------
    (N,) distances in mm

    >>> points = np.array([[5.0, 3.0], [-4.0, 3.0]])
    >>> point_segment_distance_mm(points, np.zeros(2), np.array([10.0, 0.0]))
    array([3., 5.])
    """
    pts = np.atleast_2d(np.asarray(points, dtype=np.float64))
    p = np.asarray(p, dtype=np.float64)
    d = np.asarray(q, dtype=np.float64) - p
    length2 = float(d @ d)
    if length2 == 0.0:
        return np.asarray(np.hypot(*(pts - p).T), dtype=np.float64)
    t = np.clip(((pts - p) @ d) / length2, 0.0, 1.0)
    closest = p + t[:, None] * d
    return np.asarray(np.hypot(*(pts - closest).T), dtype=np.float64)


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


def disc_hull(discs: np.ndarray) -> shapely.Polygon:
    """The convex hull of discs (N, 3) as a fine polygon: a group's footprint."""
    hull = disc_hulls([discs])[0]
    assert isinstance(hull, shapely.Polygon)
    return hull


def segment_hull_clearance_mm(
    p: np.ndarray, q: np.ndarray, discs: np.ndarray, hull: shapely.Polygon | None = None
) -> float:
    """Signed clearance between the segment p-q and the convex hull of discs (N, 3).

    Positive: the segment passes that far from the hull. Negative: the segment
    crosses the hull, and the value is minus the smallest sideways shift of the
    hull that would clear the segment's line (the hull's penetration depth).
    ``hull`` is the hull polygon when the caller already has it.

    >>> discs = np.array([[50.0, 10.0, 5.0]])
    >>> segment_hull_clearance_mm(np.zeros(2), np.array([100.0, 0.0]), discs)
    5.0
    >>> segment_hull_clearance_mm(np.zeros(2), np.array([100.0, 0.0]), discs - [0, 8, 0])
    -3.0
    """
    p = np.asarray(p, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    discs = np.atleast_2d(np.asarray(discs, dtype=np.float64))
    centres, radii = discs[:, :2], discs[:, 2]
    hull = disc_hull(discs) if hull is None else hull
    segment = shapely.LineString([p, q])
    if not segment.intersects(hull):
        # The exact distance to the discs when the nearest hull point is on a disc;
        # shapely's distance to the fine polygon when it lies on a bitangent.
        to_discs = float(np.min(point_segment_distance_mm(centres, p, q) - radii))
        return min(to_discs, float(segment.distance(hull)))
    return -line_penetration_mm(p, q, discs)


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


def ring_points(coords: Any) -> tuple[tuple[float, float], ...]:
    """A shapely ring's coordinates as plain (x, y) float pairs, for JSON answers.

    >>> ring_points(shapely.box(0, 0, 1, 2).exterior.coords)[:2]
    ((1.0, 0.0), (1.0, 2.0))
    """
    return tuple((float(x), float(y)) for x, y in coords)
