""":func:`shortest_path`: the cheapest path from start to goal.

The search runs in an ellipse around start and goal that grows until the goal is
reached, and is repeated near costly regions with denser boundary points.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
import shapely

from arbitre.rules.pathing.graph import SearchGraph, best_first
from arbitre.rules.pathing.legs import legs_from_search, legs_polyline, route_stops
from arbitre.rules.pathing.model import (
    TOLERANCE_MM,
    Field,
    Path,
    as_length,
    as_point,
    is_plus_inf,
)
from arbitre.rules.pathing.prepare import prepare_field
from arbitre.rules.pathing.query import (
    blocking_levels,
    free_space,
    straight_line_blockers,
    table_rect,
)
from arbitre.rules.pathing.refraction import refine_bends
from arbitre.rules.pathing.region import Region, RegionKind
from arbitre.rules.pathing.scene import QueryScene

_SEARCH_SPACING_MM: Final = 8.0
_POLISH_SPACING_MM: Final = 2.0
_CORRIDOR_MM: Final = 16.0


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
    start = as_point(start_mm, "start_mm")
    goal = as_point(goal_mm, "goal_mm")
    radius = as_length(mover_radius_mm, "mover_radius_mm")
    limit: float | None = None
    if max_cost_mm is not None and not is_plus_inf(max_cost_mm):
        limit = as_length(max_cost_mm, "max_cost_mm")
    prep = prepare_field(field)
    rect = table_rect(prep, radius, start)
    levels = blocking_levels(prep, radius, [start, goal])
    blocked_by = straight_line_blockers(prep, radius, levels, start, goal)
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
        scene = QueryScene(
            prep,
            radius,
            start,
            goal,
            levels,
            rect,
            Region(RegionKind.DISC, *start, *goal, 0.0),
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
        region = (
            Region(RegionKind.EVERYWHERE, 0, 0, 0, 0, 0)
            if unbounded
            else Region(RegionKind.ELLIPSE, *start, *goal, bound)
        )
        scene = QueryScene(prep, radius, start, goal, levels, rect, region, _SEARCH_SPACING_MM)
        if not scene.point_free[1]:
            return nothing
        graph = best_first(scene, goal, math.inf if unbounded else bound)
        target = graph.ids.get(("p", 1))
        if target is not None and graph.done[target]:
            path, costly = _finish(scene, graph, target, blocked_by)
            if not costly:
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


def _connected(scene: QueryScene, start: tuple[float, float], goal: tuple[float, float]) -> bool:
    """False when start and goal are certainly in different parts of free space."""
    everything = np.arange(len(scene.prep.sources), dtype=np.intp)
    free = free_space(
        scene.prep, scene.radius, scene.levels, everything, scene.rect, None, outer_mm=None
    )
    first = shapely.Point(start)
    second = shapely.Point(goal)
    for part in shapely.get_parts(free):
        if part.distance(first) < 1e-3:
            return bool(part.distance(second) < 1e-3)
    return True


def _finish(
    scene: QueryScene, graph: SearchGraph, target: int, blocked_by: tuple[str, ...]
) -> tuple[Path, bool]:
    """Turn a search result into a :class:`Path`, refining bends on region boundaries.

    Also tells whether costly regions shaped the path (it bends on their boundaries
    or runs through them).
    """
    stops = route_stops(graph, target)
    refined = refine_bends(scene, stops)
    if refined is None:
        legs = legs_from_search(scene, graph, target)
    else:
        legs = refined[1]
    cost = sum(leg.cost for leg in legs)
    length = sum(leg.length for leg in legs)
    bends = any(scene.first_boundary <= stop.point < scene.end_boundary for stop in stops)
    path = Path(True, float(cost), float(length), legs_polyline(scene, legs), blocked_by)
    return path, bends or cost > length + 1e-9


def _polish(
    scene: QueryScene,
    path: Path,
    start: tuple[float, float],
    goal: tuple[float, float],
    region: Region,
    blocked_by: tuple[str, ...],
) -> Path:
    """Search again near a path shaped by costly regions, with dense boundary samples.

    The corridor keeps the route found on the coarse samples but lets the path bend
    wherever the finer samples allow; the cheaper of both answers is returned.
    """
    corridor = Region(RegionKind.BAND, 0.0, 0.0, 0.0, 0.0, _CORRIDOR_MM, path.points_mm)
    fine = QueryScene(
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
    graph = best_first(fine, goal, path.cost_mm * 1.001 + 0.5)
    target = graph.ids.get(("p", 1))
    if target is None or not graph.done[target]:
        return path
    better, _ = _finish(fine, graph, target, blocked_by)
    return better if better.cost_mm < path.cost_mm else path
