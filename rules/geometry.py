"""Plane geometry on table millimetres: distances, footprints, lines against footprints.

Points are float64 arrays of shape (2,) and point sets of shape (N, 2), table mm.
Discs are arrays of shape (N, 3): x_mm, y_mm, radius_mm. Polygon work is done by
shapely (GEOS); only what shapely does not offer is written here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely

from arbitre.rules.model import DISC_QUAD_SEGMENTS


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
    xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    radii = np.asarray(disc_radii_mm, dtype=np.float64).reshape(len(xy))
    everyone = np.arange(len(xy))
    rows_ = everyone if rows is None else np.asarray(rows, dtype=np.intp).reshape(-1)
    cols_ = everyone if cols is None else np.asarray(cols, dtype=np.intp).reshape(-1)
    centres = np.hypot(
        xy[rows_, None, 0] - xy[None, cols_, 0], xy[rows_, None, 1] - xy[None, cols_, 1]
    )
    row_radii, col_radii = radii[rows_], radii[cols_]
    round_rows, round_cols = np.isfinite(row_radii), np.isfinite(col_radii)
    gaps = np.maximum(
        centres - np.where(round_rows, row_radii, 0.0)[:, None] - col_radii[None, :], 0.0
    )
    if not (round_rows.all() and round_cols.all()):
        _outline_gaps(gaps, xy, footprints, (rows_, row_radii), (cols_, col_radii))
    gaps[rows_[:, None] == cols_[None, :]] = 0.0
    return gaps


def _outline_gaps(
    gaps: np.ndarray,
    xy: np.ndarray,
    footprints: Any,
    rows: tuple[np.ndarray, np.ndarray],
    cols: tuple[np.ndarray, np.ndarray],
) -> None:
    """Fill in `base_gaps_mm`'s gaps that involve a base that is not round: outline to
    outline, or outline to a round base's centre less its radius. ``rows`` and ``cols``
    are the bases and their radii (NaN where not round)."""
    (rows_, row_radii), (cols_, col_radii) = rows, cols
    round_rows, round_cols = np.isfinite(row_radii), np.isfinite(col_radii)
    shaped_rows, disc_rows = np.flatnonzero(~round_rows), np.flatnonzero(round_rows)
    shaped_cols, disc_cols = np.flatnonzero(~round_cols), np.flatnonzero(round_cols)
    row_outlines = footprints[rows_[shaped_rows]] if len(shaped_rows) else None
    col_outlines = footprints[cols_[shaped_cols]] if len(shaped_cols) else None
    if row_outlines is not None and col_outlines is not None:
        gaps[np.ix_(shaped_rows, shaped_cols)] = shapely.distance(
            row_outlines[:, None], col_outlines[None, :]
        )
    if row_outlines is not None and len(disc_cols):
        centres_of_discs = shapely.points(xy[cols_[disc_cols]])
        to_discs = shapely.distance(row_outlines[:, None], centres_of_discs[None, :])
        gaps[np.ix_(shaped_rows, disc_cols)] = np.maximum(
            to_discs - col_radii[disc_cols][None, :], 0.0
        )
    if col_outlines is not None and len(disc_rows):
        centres_of_discs = shapely.points(xy[rows_[disc_rows]])
        to_discs = shapely.distance(col_outlines[None, :], centres_of_discs[:, None])
        gaps[np.ix_(disc_rows, shaped_cols)] = np.maximum(
            to_discs - row_radii[disc_rows][:, None], 0.0
        )


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
