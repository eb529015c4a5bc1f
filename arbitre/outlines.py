"""Terrain outlines: an area's polygon or an obstacle's line, checked wherever one is read.

A scene's terrain, a roster's terrain pieces and the terrain a page saves all give
outlines as lists of points; one that is not a simple polygon (a bowtie), that encloses
no area (three equal points, points on one line) or a line with no length would be
accepted by a reader and refused at every question later. `outline_problem` says what
is wrong, for every reader alike.

This module sits below the four parts of the package and imports none of them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import shapely

Points = Sequence[Sequence[float]]


def outline_problem(polygon: Points | None, line: Points | None) -> tuple[str, str] | None:
    """What is wrong with an outline (given as a polygon or as a line): the field
    (``polygon_mm`` or ``line_mm``) and the words, or None when it is right.

    >>> outline_problem([[0, 0], [10, 0], [10, 10]], None) is None
    True
    >>> outline_problem([[0, 0], [10, 10], [10, 0], [0, 10]], None)
    ('polygon_mm', 'not a simple polygon (Self-intersection[5 5])')
    >>> outline_problem([[0, 0], [5, 0], [10, 0]], None)  # on one line
    ('polygon_mm', 'not a simple polygon (Self-intersection[5 0])')
    >>> outline_problem(None, [[3, 4], [3, 4]])
    ('line_mm', 'a line of no length (its points are all the same)')
    """
    if polygon is not None:
        if len(polygon) < 3:
            return "polygon_mm", "a polygon needs at least 3 points"
        if not _finite(polygon):
            return "polygon_mm", "every point needs finite coordinates"
        shape = shapely.Polygon(polygon)
        if not shape.is_valid:
            reason = shapely.is_valid_reason(shape)
            return "polygon_mm", f"not a simple polygon ({reason})"
        if not shape.area > 0.0:
            return "polygon_mm", "not a simple polygon (it encloses no area)"
        return None
    if line is not None:
        if len(line) < 2:
            return "line_mm", "a line needs at least 2 points"
        if not _finite(line):
            return "line_mm", "every point needs finite coordinates"
        if not shapely.LineString(line).length > 0.0:
            return "line_mm", "a line of no length (its points are all the same)"
    return None


def _finite(points: Points) -> bool:
    return all(len(p) == 2 and math.isfinite(p[0]) and math.isfinite(p[1]) for p in points)
