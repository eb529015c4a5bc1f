"""Moves and reach: walk, run and charge to a point, and the area a figure may reach."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.answer_kinds import reach_answer_of
from arbitre.rules.answers import (
    Margin,
    Reason,
    Said,
    Unit,
    allowance_verdict,
    in_units,
    with_certainty,
)
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Figure, Scene
from arbitre.rules.musg.answers import MusgMoveAnswer, MusgReachAnswer
from arbitre.rules.musg.bases import (
    base_radius_mm,
    footprint_at,
    footprint_of,
    move_pas_of,
    overlaps_beyond_contact,
)
from arbitre.rules.musg.book import BLOCKING_TERRAIN, COSTLY_TERRAIN, NUMBERS, TOUCH_MM
from arbitre.rules.musg.options import MODES, Mode, MusgOptions, PaLeft, options_of, unit_of
from arbitre.rules.musg.reasons import reason_words
from arbitre.rules.ruleset import coordinate_mm, figure_named
from arbitre.rules.terrain import straight_cost_mm, terrain_regions

CUT_BISECTIONS = 40  # halvings of a leg when cutting a way at a cost (leg / 2^40)

FAILED_CHARGE = (Reason.CHARGE_SHORT, Reason.OVER_ALLOWANCE, Reason.PATH_BLOCKED)
"""Why a charge does not arrive in contact, and becomes a run: its goal is out of contact,
or its way is longer than the charge (« S'il n'arrive pas au contact l'action devient
Courir et coûte au final 2 PA », Charger au corps à corps)."""


def move_answer(
    scene: Scene, a: str, x: str, y: str, mode: Mode = "walk", pa_left: PaLeft | None = None
) -> MusgMoveAnswer:
    """May A walk, run or charge to (x, y) table mm: the path, its cost and the PA spent.

    A charge that does not arrive in contact (its goal is out of contact, or its way is
    longer than the charge: `FAILED_CHARGE`) becomes a run and costs 2 PA: the run goes
    along the charge's way as far as it reaches (``failed_*`` when it stops before the
    goal). With ``pa_left`` 1 the figure "ne se déplace que de la moitié de son
    mouvement, et s'il est en terrain difficile il ne se déplace pas" (Charger au corps
    à corps): the answer then gives how far it goes along the charge's way. A charge
    that arrives gives +1 strength to the next attacks of the activation.
    """
    left = _pa_left(pa_left)
    if mode not in MODES:
        raise QuestionError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    options = options_of(scene)
    unit = unit_of(scene)
    mover = figure_named(scene, a)
    goal = np.array([coordinate_mm(x, "X"), coordinate_mm(y, "Y")])
    allowance_units = move_pas_of(mover) * NUMBERS.move_factor[mode]
    allowance_mm = unit.to_mm(allowance_units)
    radius_mm = base_radius_mm(mover, options)
    terrain = _field(scene, mover, options)

    reasons: list[Reason] = []
    margins: list[Margin] = []
    if not (
        radius_mm <= goal[0] <= scene.table.width_mm - radius_mm
        and radius_mm <= goal[1] <= scene.table.depth_mm - radius_mm
    ):
        reasons.append(Reason.OFF_TABLE)
    at_goal = footprint_at(mover, goal, options)
    if any(p.polygon.intersection(at_goal).area > TOUCH_MM for p in terrain.polygons):
        reasons.append(Reason.IMPASSABLE)
    occupied = [
        f.id
        for f in scene.figures
        if f.id != mover.id and overlaps_beyond_contact(at_goal, footprint_of(f, options), options)
    ]
    if occupied:
        reasons.append(Reason.DESTINATION_OCCUPIED)

    contact_with: list[str] = []
    if mode == "charge":
        nearest: float | None = None
        for other in scene.figures:
            if other.id == mover.id or not scene.are_enemies(mover.side, other.side):
                continue
            gap = float(shapely.distance(at_goal, footprint_of(other, options)))
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

    if mode == "run" and left is not None and left < NUMBERS.action_points["run"]:
        reasons.append(Reason.TOO_FEW_ACTION_POINTS)  # "Courir (2PA)"
    if any(
        r in reasons for r in (Reason.OFF_TABLE, Reason.IMPASSABLE, Reason.DESTINATION_OCCUPIED)
    ):
        path = pathing.Path(False, math.inf, math.inf, np.empty((0, 2)), ())
    else:
        path = pathing.shortest_path(terrain, mover.xy, goal, radius_mm, max_cost_mm=allowance_mm)
        refused = allowance_verdict(
            path.found,
            path.cost_mm,
            bool(path.blocked_by),
            allowance_mm,
            lambda: straight_cost_mm(terrain, mover.xy, goal, radius_mm),
        )
        if refused is not None:
            reasons.append(refused)
        if path.found:
            margins.append(Margin("allowance", abs(allowance_mm - path.cost_mm), mover.sigma_mm))
    legal = not reasons
    points = NUMBERS.action_points[mode]
    failed: dict[str, Any] = {}
    warnings: list[str] = []
    if mode == "charge" and legal:
        warnings.append(
            Said(
                "charge_strength_bonus",
                "the charge reaches contact: +{bonus} strength to {figure}'s next attacks "
                "this activation",
                bonus=NUMBERS.charge_strength_bonus,
                figure=a,
            )
        )
    if mode == "charge" and any(r in reasons for r in FAILED_CHARGE):
        points = NUMBERS.failed_charge_points
        warnings.append(
            Said(
                "charge_becomes_run",
                "{figure} does not reach contact: the charge becomes a run and costs {pa} PA",
                figure=a,
                pa=points,
            )
        )
        said: Said | None = None
        if left is not None and left < points:  # half a move, or none
            points = left
            said, failed = _failed_charge(scene, mover, terrain, goal, options, unit, None)
        elif Reason.OVER_ALLOWANCE in reasons or Reason.PATH_BLOCKED in reasons:  # run, cut
            said, failed = _failed_charge(
                scene, mover, terrain, goal, options, unit, allowance_units
            )
        if said is not None:
            warnings.append(said)
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
    if failed.get("failed_to_mm") is not None:
        text += "; it stops at ({:.0f}, {:.0f})".format(*failed["failed_to_mm"])
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
        pa_left=left,
        warnings=tuple(warnings),
        **failed,
    )


def _pa_left(value: Any) -> int | None:
    """The ``pa_left`` option: the action points the figure has left (1 or more)."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise QuestionError(f"pa_left must be a whole number of PA, got {value!r}")
    try:
        number = int(str(value).strip())
    except ValueError:
        raise QuestionError(f"pa_left must be a whole number of PA, got {value!r}") from None
    if number < 1:
        raise QuestionError(f"pa_left must be 1 or more, got {value!r}")
    return number


def _in_difficult(scene: Scene, mover: Figure, radius_mm: float) -> str | None:
    """The difficult ground (or wood) the figure stands in (its base overlaps it), if any."""
    point = shapely.Point(mover.x_mm, mover.y_mm)
    for feature in scene.terrain_of(COSTLY_TERRAIN):
        if isinstance(feature.geometry, shapely.Polygon) and pathing.base_overlap(
            feature.geometry, radius_mm
        ).covers(point):
            return feature.id
    return None


def _failed_charge(
    scene: Scene,
    mover: Figure,
    terrain: pathing.Field,
    goal: np.ndarray,
    options: MusgOptions,
    unit: Unit,
    run_units: float | None,
) -> tuple[Said, dict[str, Any]]:
    """Where a failed charge stops along the cheapest way to the charge's goal, costly
    ground counted: after ``run_units`` (the run it became, when the way is longer), or,
    with one PA left (``run_units`` None), after half a move, none in difficult ground
    (the figure's base overlapping it)."""
    radius_mm = base_radius_mm(mover, options)
    ground = None if run_units is not None else _in_difficult(scene, mover, radius_mm)
    if run_units is not None:
        move_units = run_units
    else:
        move_units = 0.0 if ground else move_pas_of(mover) * NUMBERS.failed_charge_fraction
    move_mm = unit.to_mm(move_units)
    path = pathing.shortest_path(terrain, mover.xy, goal, radius_mm)
    points = np.asarray(path.points_mm, dtype=np.float64)
    if not path.found or len(points) < 2:
        points = np.array([mover.xy])
    way = cut_path(terrain, points, move_mm, radius_mm)
    said: Said
    if ground:
        said = Said(
            "charge_no_move",
            "with 1 PA left it does not move: it stands in difficult ground ({ground})",
            ground=ground,
        )
    elif run_units is None:
        said = Said(
            "charge_half_move",
            "with 1 PA left it moves only half its move, {units} paces",
            units=f"{move_units:g}",
        )
    else:
        said = Said(
            "charge_run_cut",
            "the run stops after {units} paces along the way",
            units=f"{move_units:g}",
        )
    end = way[-1]
    return said, {
        "failed_move_mm": move_mm,
        "failed_move_units": move_units,
        "failed_to_mm": (float(end[0]), float(end[1])) if path.found or ground else None,
        "failed_path_mm": tuple((float(px), float(py)) for px, py in way),
        "failed_in_difficult": ground,
    }


def cut_path(
    field: pathing.Field, points: np.ndarray, budget_mm: float, radius_mm: float = 0.0
) -> np.ndarray:
    """The start of the polyline ``points`` (K, 2) table mm that costs ``budget_mm``.

    Costly ground counts along the way (`straight_cost_mm` on each leg); the whole way
    when it costs less.

    >>> bog = pathing.CostlyRegion(shapely.box(10, -5, 20, 5), 2.0, "bog")
    >>> cut_path(pathing.Field(100, 100, costly=(bog,)), np.array([[0.0, 0], [30, 0]]), 20.0)
    array([[ 0.,  0.],
           [15.,  0.]])
    """
    kept = [points[0]]
    spent = 0.0
    for start, end in zip(points[:-1], points[1:], strict=True):
        leg = straight_cost_mm(field, start, end, radius_mm)
        if spent + leg <= budget_mm:
            kept.append(end)
            spent += leg
            continue
        low, high = 0.0, 1.0
        for _ in range(CUT_BISECTIONS):
            middle = (low + high) / 2
            part = straight_cost_mm(field, start, start + middle * (end - start), radius_mm)
            if spent + part <= budget_mm:
                low = middle
            else:
                high = middle
        kept.append(start + low * (end - start))
        break
    return np.asarray(kept, dtype=np.float64)


def run_answer(scene: Scene, a: str, x: str, y: str) -> MusgMoveAnswer:
    """May A run to (X, Y) mm: a move at the run's rate."""
    return move_answer(scene, a, x, y, mode="run")


def charge_answer(
    scene: Scene, a: str, x: str, y: str, pa_left: PaLeft | None = None
) -> MusgMoveAnswer:
    """May A charge to (X, Y) mm: a move at the charge's rate."""
    return move_answer(scene, a, x, y, mode="charge", pa_left=pa_left)


def reach_answer(scene: Scene, a: str, mode: Mode = "walk") -> MusgReachAnswer:
    """Where A may walk, run or charge: the reachable area in table mm."""
    if mode not in MODES:
        raise QuestionError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    options = options_of(scene)
    unit = unit_of(scene)
    mover = figure_named(scene, a)
    allowance_units = move_pas_of(mover) * NUMBERS.move_factor[mode]
    allowance_mm = unit.to_mm(allowance_units)
    area = pathing.reachable_area(
        _field(scene, mover, options), mover.xy, base_radius_mm(mover, options), allowance_mm
    )
    return reach_answer_of(
        MusgReachAnswer,
        a,
        area,
        (allowance_mm, allowance_units, unit.name),
        verb=mode,
        within=f"within {in_units(allowance_units, 'pas', 'g')}",
        mode=mode,
    )


def _field(scene: Scene, mover: Figure, options: MusgOptions) -> pathing.Field:
    """What a move meets: other figures, impassable ground and buildings, costly ground."""
    hulls = tuple(
        pathing.DiscHull(np.array([[f.x_mm, f.y_mm, base_radius_mm(f, options)]]), f.id)
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
    cost = in_units(unit.from_mm(cost_mm), "pas") if math.isfinite(cost_mm) else "no path"
    allowance = in_units(allowance_units, "pas", "g")
    if legal:
        text = f"{a} may {mode} there: {cost} of {allowance}, {points} PA"
        if contact_with:
            text += f", in contact with {', '.join(contact_with)}"
        return text
    spent = f" ({cost}, allowance {allowance})"
    about = {
        Reason.DESTINATION_OCCUPIED: " " + ", ".join(occupied),
        Reason.PATH_BLOCKED: (" by " + ", ".join(blocked_by) if blocked_by else "") + spent,
        Reason.OVER_ALLOWANCE: spent,
    }
    return f"{a} may not {mode} there: " + reason_words(reasons, about)
