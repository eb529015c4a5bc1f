"""Very detailed obstacles simplified for path finding, never smaller than they are.

The path finder's work grows with the square of the vertices it meets: a rock drawn
with 2,000 vertices took a minute to go round. An obstacle of more vertices than a
budget is replaced, for path finding only, by an outline that *contains* it: the
polygon simplified by a tolerance t (Douglas-Peucker keeps every original point
within t of the simplified outline), then grown by t with square corners. A path
found around the outline never enters the original; a path hugging the original may
be found up to t longer or blocked, so the smallest tolerance that meets the budget
is taken. When none does, the outline is the bounding box.
"""

from __future__ import annotations

import shapely

MAX_OBSTACLE_VERTICES = 128
"""The most vertices one obstacle keeps for path finding."""

MAX_FIELD_VERTICES = 4096
"""The most vertices all the obstacles of one field keep together (each keeps at least
`MIN_OBSTACLE_VERTICES`)."""

MIN_OBSTACLE_VERTICES = 8
"""The fewest vertices an obstacle is asked to keep (its bounding box has 4)."""


def vertex_count(polygon: shapely.Polygon) -> int:
    """Vertices of a polygon, every ring counted, closing points not.

    >>> vertex_count(shapely.box(0, 0, 10, 10))
    4
    """
    return int(shapely.get_num_coordinates(polygon)) - 1 - len(polygon.interiors)


def path_outline(
    polygon: shapely.Polygon, max_vertices: int = MAX_OBSTACLE_VERTICES
) -> tuple[shapely.Polygon, float]:
    """An outline of at most ``max_vertices`` vertices that contains ``polygon``.

    Parameters
    ----------
    polygon
        A valid polygon, table mm.
    max_vertices
        The budget of vertices (at least 4).

    Returns
    -------
    outline, tolerance_mm
        ``polygon`` itself and 0.0 when it is within the budget; else a polygon that
        covers it, standing out from it by at most ``tolerance_mm`` (the bounding box
        and its half-diagonal when no simplification meets the budget).

    Examples
    --------
    A circle of 2,000 vertices and radius 100 mm keeps at most 128, standing out by
    well under a millimetre:

    >>> circle = shapely.Point(0, 0).buffer(100, quad_segs=500)
    >>> outline, tolerance_mm = path_outline(circle)
    >>> vertex_count(circle), vertex_count(outline) <= 128, outline.covers(circle)
    (2000, True, True)
    >>> tolerance_mm < 1.0
    True
    """
    if vertex_count(polygon) <= max_vertices:
        return polygon, 0.0
    xmin, ymin, xmax, ymax = polygon.bounds
    size = max(xmax - xmin, ymax - ymin)
    tolerance = size / 4096.0
    while tolerance < size:
        simple = polygon.simplify(tolerance, preserve_topology=True)
        grown = simple.buffer(tolerance, join_style="mitre", mitre_limit=2.0)
        if (
            isinstance(grown, shapely.Polygon)
            and vertex_count(grown) <= max_vertices
            and grown.covers(polygon)
        ):
            return grown, tolerance
        tolerance *= 2.0
    box = shapely.box(xmin, ymin, xmax, ymax)
    return box, float(((xmax - xmin) ** 2 + (ymax - ymin) ** 2) ** 0.5 / 2.0)


def vertex_budgets(counts: list[int]) -> list[int]:
    """Each obstacle's budget of vertices: at most `MAX_OBSTACLE_VERTICES`, and together
    at most `MAX_FIELD_VERTICES` (the largest obstacles give up the most).

    >>> vertex_budgets([4, 2000])
    [128, 128]
    >>> sum(vertex_budgets([500] * 100)) <= MAX_FIELD_VERTICES
    True
    """
    if not counts:
        return []
    share = MAX_OBSTACLE_VERTICES
    while share > MIN_OBSTACLE_VERTICES and sum(min(c, share) for c in counts) > (
        MAX_FIELD_VERTICES
    ):
        share -= max(1, share // 8)
    return [max(share, MIN_OBSTACLE_VERTICES) for _ in counts]
