"""Smooth & Rifled: linear obstacles in a move (§6.1.2) — standing before one, astride one,
crossing one.

"L'infanterie peut les traverser en dépensant une Action. La figurine doit d'abord
s'arrêter devant l'obstacle, puis dépenser une action pour le traverser." A base stands
before an obstacle when its gap to it is at most the contact tolerance; it is astride when
the obstacle lies deeper than that tolerance inside it. A crossing (the move mode
``cross``) goes straight over the obstacle from before it to against its far side.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from arbitre.rules.answers import Margin, Reason
from arbitre.rules.model import Figure, TerrainFeature
from arbitre.rules.smooth_and_rifled.bases import base_of

_STEPS = 40
"""Halvings of a bisection: a base's size over 2**40 is far below a micrometre."""


def depth_mm(base: shapely.Polygon, obstacle: BaseGeometry) -> float:
    """How deep an obstacle lies inside a base (mm): the farthest any part of it lies from
    the base's edge, inward; minus the gap between them when they do not meet.

    >>> square = shapely.box(-10, -10, 10, 10)
    >>> round(depth_mm(square, shapely.LineString([(-50, 5), (50, 5)])), 3)
    5.0
    >>> round(depth_mm(square, shapely.LineString([(-50, 20), (50, 20)])), 3)
    -10.0
    """
    if not base.intersects(obstacle):
        return -float(base.distance(obstacle))
    low, high = 0.0, math.sqrt(base.area)
    for _ in range(_STEPS):
        middle = (low + high) / 2
        if base.buffer(-middle).intersects(obstacle):
            low = middle
        else:
            high = middle
    return low


def reach_beyond_mm(
    base_at: Callable[[np.ndarray], shapely.Polygon],
    start: np.ndarray,
    heading: np.ndarray,
    obstacle: BaseGeometry,
    tolerance_mm: float,
) -> float:
    """How far a base may go from ``start`` along the unit vector ``heading`` and still
    touch the obstacle on its far side (a gap of at most ``tolerance_mm``): the most a
    crossing moves. ``base_at`` gives the base's outline with its centre at a point."""
    line = shapely.LineString([start, start + heading * 1e6])
    meeting = line.intersection(obstacle)
    if meeting.is_empty:
        return 0.0
    beyond = float(shapely.Point(start).distance(meeting))
    low, high = beyond, beyond + 1.0
    for _ in range(_STEPS):  # an obstacle the base never leaves: as far as 2**40 mm
        if base_at(start + heading * high).distance(obstacle) > tolerance_mm:
            break
        low, high = high, beyond + 2.0 * (high - beyond)
    else:
        return high
    for _ in range(_STEPS):
        middle = (low + high) / 2
        if base_at(start + heading * middle).distance(obstacle) <= tolerance_mm:
            low = middle
        else:
            high = middle
    return low


@dataclass(slots=True)
class ObstacleCheck:
    """What the linear obstacles say of a move: its reasons, the obstacles at fault, the
    margins, and for a crossing the obstacles crossed and how far it may go."""

    reasons: list[Reason]
    blocked_by: list[str]
    margins: list[Margin]
    crossed: list[str]
    reach_mm: float = math.inf


def _outline(figure: Figure, facings: Sequence[float]) -> Callable[[np.ndarray], shapely.Polygon]:
    """The figure's base at a point, at every facing it has there (their union)."""
    base = base_of(figure)

    def at(point: np.ndarray) -> shapely.Polygon:
        shapes = [base.footprint(float(point[0]), float(point[1]), f) for f in set(facings)]
        return shapes[0] if len(shapes) == 1 else shapely.union_all(shapes)

    return at


def _add(check: ObstacleCheck, reason: Reason, obstacle: str) -> None:
    if reason not in check.reasons:
        check.reasons.append(reason)
    if obstacle not in check.blocked_by:
        check.blocked_by.append(obstacle)


def _astride(
    check: ObstacleCheck,
    figure: Figure,
    end_print: shapely.Polygon,
    obstacles: Sequence[TerrainFeature],
    tolerance_mm: float,
) -> None:
    """A base ending astride an obstacle (deeper than the tolerance) is refused; one that
    overlaps it within the tolerance only touches it, and says how near it came."""
    for obstacle in obstacles:
        depth = depth_mm(end_print, obstacle.geometry)
        if depth > tolerance_mm:
            _add(check, Reason.OBSTACLE_CROSSING, obstacle.id)
        if depth > 0.0:
            check.margins.append(Margin("astride", abs(tolerance_mm - depth), figure.sigma_mm))


def _defended(
    check: ObstacleCheck,
    figure: Figure,
    where: BaseGeometry,
    obstacle: str,
    defence: Defence,
) -> None:
    """Refuses a crossing of a fortified position with an enemy base within the defence's
    distance of the crossing point (the nearest enemy gives the margin)."""
    gaps = [
        (float(spot.distance(where)), enemy)
        for enemy, spot in defence.enemies
        if not where.is_empty
    ]
    if not gaps:
        return
    gap, enemy = min(gaps, key=lambda pair: pair[0])
    if gap <= defence.within_mm:
        _add(check, Reason.CROSSING_DEFENDED, obstacle)
    check.margins.append(
        Margin(
            "defended", abs(defence.within_mm - gap), math.hypot(figure.sigma_mm, enemy.sigma_mm)
        )
    )


def astride_check(
    movers: Sequence[tuple[Figure, Sequence[float]]],
    shift: np.ndarray,
    obstacles: Sequence[TerrainFeature],
    tolerance_mm: float,
) -> ObstacleCheck:
    """A move that is no crossing: no moving figure, shifted by ``shift`` (2,) mm, may end
    astride an obstacle. ``movers``: each figure with its facings at the end."""
    check = ObstacleCheck([], [], [], [])
    for figure, facings in movers:
        _astride(
            check, figure, _outline(figure, facings)(figure.xy + shift), obstacles, tolerance_mm
        )
    return check


@dataclass(frozen=True, slots=True)
class Defence:
    """Who may stop a crossing of a fortified position (scenario 4): « obstacles linéaires qui
    ne peuvent être franchis librement si une figurine ennemie se trouve à 10cm ou moins
    (5cm en 15mm) du point de franchissement »: the enemies' bases and that distance."""

    enemies: Sequence[tuple[Figure, shapely.Polygon]] = ()
    within_mm: float = 0.0


UNDEFENDED = Defence()
"""An obstacle nobody defends: any crossing of it is free."""


def crossing_check(
    movers: Sequence[tuple[Figure, Sequence[float]]],
    shift: np.ndarray,
    obstacles: Sequence[TerrainFeature],
    tolerance_mm: float,
    defence: Defence = UNDEFENDED,
) -> ObstacleCheck:
    """A crossing (§6.1.2): each figure whose straight shift crosses an obstacle must stand
    before it (a gap of at most the tolerance), cross that one only, and end against its
    far side, neither astride it nor further (``reach_mm``, the most the shift may be).
    At least one figure must cross. A fortified position (``attrs.fortified``) is not
    crossed with an enemy within ``defence.within_mm`` of the crossing point."""
    check = ObstacleCheck([], [], [], [])
    length = float(np.hypot(*shift))
    heading = shift / length if length else np.zeros(2)
    for figure, facings in movers:
        end = figure.xy + shift
        outline = _outline(figure, facings)
        way = shapely.LineString([figure.xy, end]) if length else None
        over = [o for o in obstacles if way is not None and way.intersects(o.geometry)]
        if len(over) > 1:
            for obstacle in over[1:]:
                _add(check, Reason.OBSTACLE_CROSSING, obstacle.id)
        if over:
            first = over[0]
            check.crossed.append(first.id)
            start = base_of(figure).footprint(figure.x_mm, figure.y_mm, figure.facing_deg)
            gap = float(start.distance(first.geometry))
            if gap > tolerance_mm:
                _add(check, Reason.NOT_AT_OBSTACLE, first.id)
            check.margins.append(Margin("before", abs(tolerance_mm - gap), figure.sigma_mm))
            reach = reach_beyond_mm(outline, figure.xy, heading, first.geometry, tolerance_mm)
            check.reach_mm = min(check.reach_mm, reach)
            if first.attrs.get("fortified", False) and way is not None:
                _defended(check, figure, way.intersection(first.geometry), first.id, defence)
        _astride(check, figure, outline(end), obstacles, tolerance_mm)
    if not check.crossed and Reason.NOT_AT_OBSTACLE not in check.reasons:
        check.reasons.append(Reason.NOT_AT_OBSTACLE)
    check.crossed = list(dict.fromkeys(check.crossed))
    return check


@dataclass(slots=True)
class BuildingMove:
    """A move into, out of or inside a building (§6.1.3): its kind (``enter``, ``leave``,
    ``inside``), the building, its cost in action points, and what refuses it."""

    kind: str
    building: TerrainFeature
    action_points: int
    check: ObstacleCheck


def building_move(
    mover: Figure,
    facings: Sequence[float],
    goal: np.ndarray,
    buildings: Sequence[TerrainFeature],
    tolerance_mm: float,
) -> BuildingMove | None:
    """A figure's move into, out of or inside a building (§6.1.3): « Un PA est nécessaire
    pour entrer/sortir d'un bâtiment, et 2 PA pour se déplacer à l'intérieur ... Les portes
    et fenêtres sont considérées comme des Obstacles Linéaires. » A figure is in a building
    when its centre is. Entering, it stands against the building first (a gap of at most
    the tolerance, `Reason.NOT_AT_OBSTACLE` otherwise); leaving, it ends against it
    outside, neither astride its wall nor further (``reach_mm``). None when neither the
    start nor the goal is in a building."""
    start_in = _building_at(mover.xy, buildings)
    goal_in = _building_at(goal, buildings)
    check = ObstacleCheck([], [], [], [])
    if start_in is None and goal_in is None:
        return None
    if start_in is not None and goal_in is not None:
        if goal_in.id != start_in.id:
            _add(check, Reason.IMPASSABLE, goal_in.id)
        return BuildingMove("inside", start_in, BUILDING_POINTS[1], check)
    if goal_in is not None:
        start = base_of(mover).footprint(mover.x_mm, mover.y_mm, mover.facing_deg)
        gap = float(start.distance(goal_in.geometry.exterior))
        gap = 0.0 if start.intersects(goal_in.geometry) else gap
        if gap > tolerance_mm:
            _add(check, Reason.NOT_AT_OBSTACLE, goal_in.id)
        check.margins.append(Margin("before", abs(tolerance_mm - gap), mover.sigma_mm))
        return BuildingMove("enter", goal_in, BUILDING_POINTS[0], check)
    assert start_in is not None
    outline = _outline(mover, facings)
    shift = goal - mover.xy
    length = float(np.hypot(*shift))
    wall = start_in.geometry.exterior
    check.reach_mm = reach_beyond_mm(outline, mover.xy, shift / length, wall, tolerance_mm)
    check.crossed.append(start_in.id)
    _astride(check, mover, outline(goal), [start_in], tolerance_mm)
    return BuildingMove("leave", start_in, BUILDING_POINTS[0], check)


BUILDING_POINTS = (1, 2)
"""Action points to enter or leave a building, and to move inside one (§6.1.3)."""


def _building_at(point: np.ndarray, buildings: Sequence[TerrainFeature]) -> TerrainFeature | None:
    """The building whose outline holds the point, if any."""
    spot = shapely.Point(point)
    return next((b for b in buildings if b.geometry.covers(spot)), None)
