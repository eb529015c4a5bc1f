"""Moves and reach: walk, run and charge to a point, and the area a figure may reach."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.answers import Margin, Reason, Unit, area_text, with_certainty
from arbitre.rules.errors import QuestionError
from arbitre.rules.geometry import ring_points
from arbitre.rules.model import Figure, Scene
from arbitre.rules.musg.answers import _REASON_TEXT, MusgMoveAnswer, MusgReachAnswer
from arbitre.rules.musg.bases import (
    _footprint,
    _footprint_at,
    _move_pas,
    _options,
    _overlap_beyond,
    _radius,
    _unit,
)
from arbitre.rules.musg.book import (
    BLOCKING_TERRAIN,
    COSTLY_TERRAIN,
    MODES,
    NUMBERS,
    TOUCH_MM,
    MusgOptions,
)
from arbitre.rules.ruleset import coordinate_mm, figure_named
from arbitre.rules.terrain import straight_cost_mm, terrain_regions


def move_answer(scene: Scene, a: str, x: str, y: str, mode: str = "walk") -> MusgMoveAnswer:
    """May A walk, run or charge to (x, y) table mm: the path, its cost and the PA spent."""
    if mode not in MODES:
        raise QuestionError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    options = _options(scene)
    unit = _unit(scene)
    mover = figure_named(scene, a)
    goal = np.array([coordinate_mm(x, "X"), coordinate_mm(y, "Y")])
    allowance_units = _move_pas(mover) * NUMBERS.move_factor[mode]
    allowance_mm = unit.to_mm(allowance_units)
    radius_mm = _radius(mover, options)
    terrain = _field(scene, mover, options)

    reasons: list[Reason] = []
    margins: list[Margin] = []
    if not (
        radius_mm <= goal[0] <= scene.table.width_mm - radius_mm
        and radius_mm <= goal[1] <= scene.table.depth_mm - radius_mm
    ):
        reasons.append(Reason.OFF_TABLE)
    at_goal = _footprint_at(mover, goal, options)
    if any(p.polygon.intersection(at_goal).area > TOUCH_MM for p in terrain.polygons):
        reasons.append(Reason.IMPASSABLE)
    occupied = [
        f.id
        for f in scene.figures
        if f.id != mover.id and _overlap_beyond(at_goal, _footprint(f, options), options)
    ]
    if occupied:
        reasons.append(Reason.DESTINATION_OCCUPIED)

    contact_with: list[str] = []
    if mode == "charge":
        nearest: float | None = None
        for other in scene.figures:
            if other.id == mover.id or not scene.are_enemies(mover.side, other.side):
                continue
            gap = float(shapely.distance(at_goal, _footprint(other, options)))
            if gap <= options.contact_tolerance_mm:
                contact_with.append(other.id)
            if nearest is None or gap < nearest:
                nearest = gap
        if nearest is not None:
            margins.append(
                Margin(
                    "charge contact",
                    abs(options.contact_tolerance_mm - nearest),
                    mover.sigma_mm,
                )
            )
        if not contact_with:
            reasons.append(Reason.CHARGE_SHORT)

    if any(
        r in reasons for r in (Reason.OFF_TABLE, Reason.IMPASSABLE, Reason.DESTINATION_OCCUPIED)
    ):
        path = pathing.Path(False, math.inf, math.inf, np.empty((0, 2)), ())
    else:
        path = pathing.shortest_path(terrain, mover.xy, goal, radius_mm, max_cost_mm=allowance_mm)
        if not path.found:
            reasons.append(Reason.PATH_BLOCKED)
        elif path.cost_mm > allowance_mm + TOUCH_MM:
            straight = straight_cost_mm(terrain, mover.xy, goal)
            reasons.append(
                Reason.PATH_BLOCKED
                if path.blocked_by and straight <= allowance_mm
                else Reason.OVER_ALLOWANCE
            )
        if path.found:
            margins.append(Margin("allowance", abs(allowance_mm - path.cost_mm), mover.sigma_mm))
    legal = not reasons
    points = NUMBERS.action_points[mode]
    if mode == "charge" and Reason.CHARGE_SHORT in reasons:
        points = NUMBERS.failed_charge_points
    cost_mm = path.cost_mm if path.found else math.inf
    text = _move_message(
        a,
        mode,
        legal,
        reasons,
        cost_mm,
        allowance_units,
        unit,
        occupied,
        path.blocked_by,
        contact_with,
        points,
    )
    return MusgMoveAnswer(
        question="move",
        message=with_certainty(text, *margins),
        margins=tuple(margins),
        mover=a,
        legal=legal,
        reasons=tuple(reasons),
        cost_mm=cost_mm,
        cost_units=unit.from_mm(cost_mm),
        allowance_mm=allowance_mm,
        allowance_units=allowance_units,
        unit=unit.name,
        path_mm=tuple((float(px), float(py)) for px, py in path.points_mm),
        blocked_by=tuple(path.blocked_by) + tuple(occupied),
        mode=mode,
        action_points=points,
        contact_with=tuple(contact_with),
    )


def reach_answer(scene: Scene, a: str, mode: str = "walk") -> MusgReachAnswer:
    """Where A may walk, run or charge: the reachable area in table mm."""
    if mode not in MODES:
        raise QuestionError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    options = _options(scene)
    unit = _unit(scene)
    mover = figure_named(scene, a)
    allowance_units = _move_pas(mover) * NUMBERS.move_factor[mode]
    allowance_mm = unit.to_mm(allowance_units)
    area = pathing.reachable_area(
        _field(scene, mover, options), mover.xy, _radius(mover, options), allowance_mm
    )
    polygons = list(getattr(area, "geoms", [area])) if not area.is_empty else []
    return MusgReachAnswer(
        question="reach",
        message=f"{a} may {mode} anywhere in {len(polygons)} area(s) of "
        f"{area_text(area.area)} within {allowance_units:g} pas",
        mover=a,
        area_mm2=float(area.area),
        polygons_mm=tuple(ring_points(p.exterior.coords) for p in polygons),
        holes_mm=tuple(tuple(ring_points(h.coords) for h in p.interiors) for p in polygons),
        allowance_mm=allowance_mm,
        allowance_units=allowance_units,
        unit=unit.name,
        mode=mode,
    )


def _field(scene: Scene, mover: Figure, options: MusgOptions) -> pathing.Field:
    """What a move meets: other figures, impassable ground and buildings, costly ground."""
    hulls = tuple(
        pathing.DiscHull(np.array([[f.x_mm, f.y_mm, _radius(f, options)]]), f.id)
        for f in scene.figures
        if f.id != mover.id
    )
    polygons, costly = terrain_regions(scene, BLOCKING_TERRAIN, COSTLY_TERRAIN)
    return pathing.Field(scene.table.width_mm, scene.table.depth_mm, hulls, polygons, costly)


def _move_message(
    a: str,
    mode: str,
    legal: bool,
    reasons: Sequence[Reason],
    cost_mm: float,
    allowance_units: float,
    unit: Unit,
    occupied: Sequence[str],
    blocked_by: Sequence[str],
    contact_with: Sequence[str],
    points: int,
) -> str:
    cost = f"{unit.from_mm(cost_mm):.2f} pas" if math.isfinite(cost_mm) else "no path"
    allowance = f"{allowance_units:g} pas"
    if legal:
        text = f"{a} may {mode} there: {cost} of {allowance}, {points} PA"
        if contact_with:
            text += f", in contact with {', '.join(contact_with)}"
        return text
    because = []
    for reason in reasons:
        sentence = _REASON_TEXT[reason]
        if reason is Reason.DESTINATION_OCCUPIED:
            sentence += " " + ", ".join(occupied)
        if reason is Reason.PATH_BLOCKED and blocked_by:
            sentence += " by " + ", ".join(blocked_by)
        if reason in (Reason.OVER_ALLOWANCE, Reason.PATH_BLOCKED):
            sentence += f" ({cost}, allowance {allowance})"
        because.append(sentence)
    return f"{a} may not {mode} there: " + "; ".join(because)
