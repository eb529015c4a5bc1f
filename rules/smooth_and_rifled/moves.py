"""Smooth & Rifled moves and charges: allowances per action, the field a figure moves on,
straight charges and group-charge pairings (§6.1, §6.7, §6.7.3).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.answer_kinds import reach_answer_of
from arbitre.rules.answers import (
    Margin,
    ReachAnswer,
    Reason,
    Said,
    allowance_verdict,
    at_most,
    warning_lines,
    with_certainty,
)
from arbitre.rules.base_field import BaseField, base_field, disc_field
from arbitre.rules.errors import QuestionError
from arbitre.rules.geometry import base_gaps_mm
from arbitre.rules.model import Figure, Scene, TerrainFeature, TerrainKind, sigma_between
from arbitre.rules.options import Degrees
from arbitre.rules.ruleset import coordinate_mm
from arbitre.rules.smooth_and_rifled.answers import SRChargeAnswer, SRMoveAnswer
from arbitre.rules.smooth_and_rifled.bases import (
    OVERLAP_MM2,
    base_of,
    figure_gap_mm,
    footprint,
    footprints,
    gaps_of,
    index_of,
)
from arbitre.rules.smooth_and_rifled.book import MOVES_CM, NUMBERS, UNIT
from arbitre.rules.smooth_and_rifled.geometry import in_arc
from arbitre.rules.smooth_and_rifled.groups import (
    Group,
    has_characteristic,
    is_mounted,
    resolve,
)
from arbitre.rules.smooth_and_rifled.obstacles import (
    BuildingMove,
    Defence,
    astride_check,
    building_move,
    crossing_check,
)
from arbitre.rules.smooth_and_rifled.options import (
    Action,
    ActionIndex,
    SmoothAndRifledOptions,
    options_of,
)
from arbitre.rules.smooth_and_rifled.reasons import reason_words
from arbitre.rules.smooth_and_rifled.support import TIE_MM
from arbitre.rules.terrain import grown_by_base, straight_cost_mm

COSTLY_TERRAIN = (TerrainKind.DIFFICULT, TerrainKind.WOOD)
DIFFICULT_FACTOR = 2.0  # difficult ground and woods halve a move: each mm counts twice
BLOCKING_TERRAIN = (TerrainKind.IMPASSABLE, TerrainKind.BUILDING)
Mode = Literal["normal", "charge", "column", "road", "cross", "building"]
"""The ``mode`` option of ``move``: ``cross`` is the action infantry spends crossing a linear
obstacle it stands before (§6.1.2), ``building`` a move into, out of or inside a building
(§6.1.3)."""
AT_A_STEP = ("cross", "building")
"""The modes that are an action rather than a measure: no allowance of the move table."""
ReachMode = Literal["normal", "charge", "column", "road"]
"""The ``mode`` option of ``reach``."""
MODES: tuple[str, ...] = get_args(Mode)
OBSTACLE_THICKNESS_MM = 1.0


# --- the questions ----------------------------------------------------------------------


def move_question(
    scene: Scene,
    a: str,
    x: str,
    y: str,
    action: Action | None = None,
    action_index: ActionIndex | None = None,
    mode: Mode = "normal",
    facing_deg: Degrees | None = None,
) -> SRMoveAnswer:
    """May A (a figure or a group) move to (X, Y) mm in this action (§6.1); with ``mode:
    cross``, may it cross the linear obstacle it stands before to (X, Y) (§6.1.2); with
    ``mode: building``, may a figure enter, leave or move inside a building (§6.1.3)."""
    goal = np.array([coordinate_mm(x, "X"), coordinate_mm(y, "Y")])
    plan = move_plan(scene, a, action, action_index, mode, goal)
    end_facing = plan.mover.facing_deg if facing_deg is None else facing_deg
    mover = plan.mover
    reasons: list[Reason] = []
    margins: list[Margin] = []
    warnings = list(plan.warnings)
    # The base arrives at its facing, then turns (§6.1): there it must have room both ways.
    goal_print = shapely.union_all(
        [base_of(mover).footprint(goal[0], goal[1], f) for f in {mover.facing_deg, end_facing}]
    )
    minx, miny, maxx, maxy = goal_print.bounds
    if minx < 0 or miny < 0 or maxx > scene.table.width_mm or maxy > scene.table.depth_mm:
        reasons.append(Reason.OFF_TABLE)
    tolerance_mm = options_of(scene).contact_tolerance_mm
    housed = _building_step(scene, plan, goal, end_facing, tolerance_mm)
    walls = [
        f
        for f in scene.terrain_of(BLOCKING_TERRAIN)
        if isinstance(f.geometry, shapely.Polygon) and (housed is None or f is not housed.building)
    ]
    if any(goal_print.intersection(f.geometry).area > OVERLAP_MM2 for f in walls):
        reasons.append(Reason.IMPASSABLE)
        inside = [
            f.id
            for f in scene.terrain_of([TerrainKind.BUILDING])
            if isinstance(f.geometry, shapely.Polygon) and f.geometry.covers(shapely.Point(goal))
        ]
        if inside and housed is None:
            warnings.append(
                Said(
                    "enter_building",
                    "{building} is a building: entering it costs 1 PA (mode building)",
                    building=", ".join(inside),
                )
            )
    prints = footprints(scene)
    occupied = [
        f.id
        for i, f in enumerate(scene.figures)
        if f.id not in plan.moving and goal_print.intersection(prints[i]).area > OVERLAP_MM2
    ]
    if occupied:
        reasons.append(Reason.DESTINATION_OCCUPIED)
    blocked_by: list[str] = list(occupied)
    path = pathing.Path(False, math.inf, math.inf, np.empty((0, 2)), ())
    movers = [
        (f, (mover.facing_deg, end_facing) if f.id == mover.id else (f.facing_deg,))
        for f in plan.members
    ]
    allowance_mm = plan.allowance_mm
    went_over: list[str] = []
    if housed is not None:
        reasons.extend(r for r in housed.check.reasons if r not in reasons)
        blocked_by.extend(housed.check.blocked_by)
        margins.extend(housed.check.margins)
        straight_mm = float(np.hypot(*(goal - mover.xy)))
        path = pathing.Path(True, straight_mm, straight_mm, np.array([mover.xy, goal]), ())
        allowance_mm = housed.check.reach_mm if housed.kind == "leave" else straight_mm
        if straight_mm > allowance_mm:
            reasons.append(Reason.OVER_ALLOWANCE)
        if housed.kind == "leave":
            margins.append(Margin("allowance", abs(allowance_mm - straight_mm), mover.sigma_mm))
    elif plan.mode == "cross":
        options = options_of(scene)
        defence = Defence(
            [
                (f, prints[i])
                for i, f in enumerate(scene.figures)
                if scene.are_enemies(mover.side, f.side) and not f.attrs.get("ambush", False)
            ],
            options.mm_or(NUMBERS.assault_defended_cm, NUMBERS.assault_defended_15mm_cm),
        )
        crossing = crossing_check(movers, goal - mover.xy, plan.obstacles, tolerance_mm, defence)
        reasons.extend(r for r in crossing.reasons if r not in reasons)
        blocked_by.extend(crossing.blocked_by)
        margins.extend(crossing.margins)
        went_over = crossing.crossed
        straight_mm = float(np.hypot(*(goal - mover.xy)))
        path = pathing.Path(True, straight_mm, straight_mm, np.array([mover.xy, goal]), ())
        allowance_mm = crossing.reach_mm if math.isfinite(crossing.reach_mm) else 0.0
        if went_over and straight_mm > allowance_mm:
            reasons.append(Reason.OVER_ALLOWANCE)
        if went_over:
            margins.append(Margin("allowance", abs(allowance_mm - straight_mm), mover.sigma_mm))
            warnings.append(
                Said(
                    "crossing_not_running",
                    "crossing {obstacles} (one action): the figure is not running this activation",
                    obstacles=", ".join(went_over),
                )
            )
    elif not reasons:
        path = plan.field.shortest_path(mover.xy, goal, max_cost_mm=plan.allowance_mm)
        # A goal astride a linear obstacle does not hold the path finder back (it lets a
        # move end on what it overlaps there): a way whose centre crosses or ends on one
        # crosses it all the same. A way that cannot avoid one is looked for without them.
        crossed = obstacles_crossed(path, plan.obstacles)
        within = path.found and at_most(path.cost_mm, plan.allowance_mm)
        if not crossed and plan.obstacles and not within:
            over = plan.open_field().shortest_path(mover.xy, goal, max_cost_mm=plan.allowance_mm)
            if crossed := obstacles_crossed(over, plan.obstacles):
                path = over
        if crossed:
            reasons.append(Reason.OBSTACLE_CROSSING)
            blocked_by.extend(crossed)
            warnings.append(
                Said(
                    "obstacle_crossing",
                    "infantry stops at a linear obstacle and spends an action to cross it",
                )
            )
        slowest = _slowest_member(plan, goal - mover.xy) if path.found else None
        if slowest is not None and slowest[1] > path.cost_mm:
            # §6.1: a member crossing difficult ground moves at half pace, and the
            # group with it: the group spends what that member spends.
            member, member_mm = slowest
            warnings.append(
                Said(
                    "group_at_slowest",
                    "{figure} crosses difficult ground: the group moves at its pace ({cm} cm)",
                    figure=member.id,
                    cm=f"{UNIT.from_mm(member_mm):.1f}",
                )
            )
            path = dataclasses.replace(path, cost_mm=member_mm)
        refused = allowance_verdict(
            path.found,
            path.cost_mm,
            bool(path.blocked_by) and Reason.OBSTACLE_CROSSING not in reasons,
            plan.allowance_mm,
            lambda: plan.field.straight_cost_mm(mover.xy, goal),
        )
        if refused is not None:
            reasons.append(refused)
        if refused is Reason.PATH_BLOCKED:
            blocked_by.extend(path.blocked_by)
        if path.found:
            margins.append(
                Margin("allowance", abs(plan.allowance_mm - path.cost_mm), mover.sigma_mm)
            )
        # §6.1.2: "La figurine doit d'abord s'arrêter devant l'obstacle": no moving figure
        # ends astride one (a base touching it stops before it).
        astride = astride_check(movers, goal - mover.xy, plan.obstacles, tolerance_mm)
        if astride.reasons and Reason.OBSTACLE_CROSSING not in reasons:
            reasons.append(Reason.OBSTACLE_CROSSING)
            warnings.append(
                Said(
                    "astride_obstacle",
                    "{obstacles}: a figure stops before a linear obstacle, not astride it; "
                    "crossing it is an action of its own (mode cross)",
                    obstacles=", ".join(astride.blocked_by),
                )
            )
        blocked_by.extend(astride.blocked_by)
        margins.extend(astride.margins)
    reasons.extend(_shaken_check(plan, warnings))
    backwards_mm = backwards_distance_mm(mover.xy, goal, end_facing)
    limit_mm = options_of(scene).mm(NUMBERS.backwards_cm)
    if backwards_mm > 0.0:
        margins.append(Margin("backwards", abs(limit_mm - backwards_mm), mover.sigma_mm))
    if not at_most(backwards_mm, limit_mm):
        reasons.append(Reason.BACKWARDS_TOO_FAR)
        warnings.append(
            Said(
                "backwards_too_far",
                "{cm} cm backwards keeping the facing (at most {limit} cm): turn the figure first",
                cm=f"{UNIT.from_mm(backwards_mm):.1f}",
                limit=f"{UNIT.from_mm(limit_mm):g}",
            )
        )
    legal = not reasons
    cost = path.cost_mm if path.found else math.inf
    allowance_cm = UNIT.from_mm(allowance_mm)
    if legal and housed is not None:
        text = (
            f"{a} may {_BUILDING_WORDS[housed.kind]} {housed.building.id}: "
            f"{housed.action_points} PA ({plan.kind}, building, action {plan.index})"
        )
    elif legal and went_over:
        text = (
            f"{a} may cross {', '.join(went_over)} there: {UNIT.from_mm(cost):.1f} cm, at most "
            f"{allowance_cm:.1f} cm to stand against its far side ({plan.kind}, cross, "
            f"action {plan.index})"
        )
    elif legal:
        text = (
            f"{a} may move there: {UNIT.from_mm(cost):.1f} cm of {allowance_cm:g} cm "
            f"({plan.kind}, {plan.mode}, action {plan.index})"
        )
    else:
        spent = f"{UNIT.from_mm(cost):.1f} cm" if math.isfinite(cost) else "no path"
        allowed = f"{allowance_cm:.1f}" if went_over else f"{allowance_cm:g}"
        text = f"{a} may not move there: {reason_words(reasons)} ({spent}, allowance {allowed} cm)"
    return SRMoveAnswer(
        question="move",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=tuple(margins),
        mover=a,
        legal=legal,
        reasons=tuple(reasons),
        cost_mm=cost,
        cost_units=UNIT.from_mm(cost),
        allowance_mm=allowance_mm,
        allowance_units=allowance_cm,
        unit=UNIT.name,
        path_mm=tuple((float(px), float(py)) for px, py in path.points_mm),
        blocked_by=tuple(dict.fromkeys(blocked_by)),
        warnings=tuple(warnings),
        kind=plan.kind,
        mode=plan.mode,
        action_index=plan.index,
        running=plan.index == NUMBERS.max_actions and plan.mode not in AT_A_STEP,
        crossed=tuple(went_over),
        building=housed.building.id if housed else None,
        action_points=housed.action_points if housed else None,
    )


_BUILDING_WORDS = {"enter": "enter", "leave": "leave", "inside": "move inside"}


def _shaken_check(plan: _Plan, warnings: list[str]) -> list[Reason]:
    """§6.2.9: « Une figurine Secouée ne peut effectuer aucune Action »: a shaken figure moving
    alone, or a group every figure of which is shaken, is refused (a fanatic may move to
    rally, §8.0: a warning); a group's other shaken members are named in a warning."""
    shaken = [f for f in plan.members if f.attrs.get("shaken", False)]
    if not shaken:
        return []
    if len(shaken) < len(plan.members):
        warnings.append(
            Said(
                "shaken_members",
                "{figures} shaken: they take no action, nor part in the group's move (§6.2.9)",
                figures=", ".join(f.id for f in shaken),
            )
        )
        return []
    if has_characteristic(shaken, "fanatic"):
        warnings.append(_fanatic_rallies(shaken[0]))
        return []
    return [Reason.SHAKEN]


def _building_step(
    scene: Scene, plan: _Plan, goal: np.ndarray, end_facing: float, tolerance_mm: float
) -> BuildingMove | None:
    """The building move a ``building`` mode asks for (§6.1.3); None in another mode."""
    if plan.mode != "building":
        return None
    if len(plan.members) > 1:
        raise QuestionError(
            "a group goes into or out of a building figure by figure: name a figure"
        )
    buildings = [
        f
        for f in scene.terrain_of([TerrainKind.BUILDING])
        if isinstance(f.geometry, shapely.Polygon)
    ]
    facings = (plan.mover.facing_deg, end_facing)
    housed = building_move(plan.mover, facings, goal, buildings, tolerance_mm)
    if housed is None:
        raise QuestionError(
            "mode building: the move must start or end in a building (its centre inside)"
        )
    return housed


def reach_question(
    scene: Scene,
    a: str,
    action: Action | None = None,
    action_index: ActionIndex | None = None,
    mode: ReachMode = "normal",
) -> ReachAnswer:
    """Where A may move in this action (§6.1)."""
    plan = move_plan(scene, a, action, action_index, mode)
    area = plan.field.reachable_area(plan.mover.xy, plan.allowance_mm)
    allowance_cm = UNIT.from_mm(plan.allowance_mm)
    warnings: list[str] = []
    if _shaken_check(plan, warnings):
        warnings.append(
            Said(
                "shaken_no_action",
                "{figure} is shaken: it takes no action, this move neither (§6.2.9)",
                figure=plan.mover.id,
            )
        )
    return reach_answer_of(
        ReachAnswer,
        a,
        area,
        (plan.allowance_mm, allowance_cm, UNIT.name),
        within=f"with {allowance_cm:g} cm ({plan.kind}, {plan.mode}, action {plan.index})",
        warnings=tuple(warnings),
    )


def charge_question(
    scene: Scene,
    a: str,
    b: str,
    action: Action | None = None,
    action_index: ActionIndex | None = None,
) -> SRChargeAnswer:
    """May A charge B: a single figure's straight charge or a group's pairings (§6.7)."""
    options = options_of(scene)
    attackers_group, charger = resolve(scene, a)
    defenders_group, defender = resolve(scene, b)
    if not scene.are_enemies(charger.side, defender.side):
        raise QuestionError(f"{b!r} is not an enemy of {a!r}")
    rank = action_rank(action, action_index)
    skirmish = defenders_group is None or defenders_group.skirmishers
    if attackers_group is not None and skirmish and not group_charge_refusal(attackers_group):
        defenders = list(defenders_group.figures) if defenders_group else [defender]
        return charge_figure_by_figure(scene, options, a, b, attackers_group, defenders, rank)
    if attackers_group is None and defenders_group is not None and skirmish:
        # §6.7.3: against skirmishers « seules les figurines impliquées dans la charge seront
        # impliquées dans la mêlée »: a lone figure charges the nearest of them, alone.
        row = gaps_of(scene).row(index_of(scene, charger.id))
        nearest = min(defenders_group.figures, key=lambda f: float(row[index_of(scene, f.id)]))
        return single_charge(scene, options, a, nearest.id, charger, nearest, rank)
    if attackers_group is not None or defenders_group is not None:
        return group_charge(
            scene, options, a, b, attackers_group, charger, defenders_group, defender
        )
    return single_charge(scene, options, a, b, charger, defender, rank)


def backwards_distance_mm(start: np.ndarray, goal: np.ndarray, facing_deg: float) -> float:
    """How far a move goes backwards against a facing: the straight move's rear component.

    >>> backwards_distance_mm(np.array([0.0, 0.0]), np.array([10.0, -40.0]), 90.0)
    40.0
    """
    heading = math.radians(facing_deg)
    forward = np.array([math.cos(heading), math.sin(heading)])
    return round(-float((goal - start) @ forward), 9)


# --- movement helpers --------------------------------------------------------------------


def costly_for(
    ground: tuple[TerrainFeature, ...], figure: Figure, facing_deg: float
) -> tuple[pathing.CostlyRegion, ...]:
    """Difficult ground and woods as the regions where ``figure``'s centre pays double:
    while its base overlaps them. A round base is grown by its radius by the path finder;
    a square or rectangular one, kept at ``facing_deg`` along the way, is grown here by
    its own outline."""
    base = base_of(figure)
    regions = costly_regions(ground)
    if base.shape.value == "round":
        return regions
    return grown_by_base(
        regions, np.asarray(base.footprint(0.0, 0.0, facing_deg).exterior.coords[:-1])
    )


def costly_regions(ground: tuple[TerrainFeature, ...]) -> tuple[pathing.CostlyRegion, ...]:
    """Difficult ground and woods as the path finder's costly regions, as they stand."""
    return tuple(pathing.CostlyRegion(f.geometry, DIFFICULT_FACTOR, f.id) for f in ground)


def _slowest_member(plan: _Plan, shift: np.ndarray) -> tuple[Figure, float] | None:
    """The member of a moving group whose own move by ``shift`` costs the most, and that
    cost (straight, costly ground counted while its base overlaps it); None alone."""
    others = [f for f in plan.members if f.id != plan.mover.id]
    if not others:
        return None
    width, depth = plan.table_mm
    costs = [
        straight_cost_mm(
            pathing.Field(width, depth, costly=costly_for(plan.ground, f, f.facing_deg)),
            f.xy,
            f.xy + shift,
            base_of(f).radius_mm,
        )
        for f in others
    ]
    k = int(np.argmax(costs))
    return others[k], float(costs[k])


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a move needs: mover, allowance, and the field it moves on."""

    mover: Figure
    moving: set[str]
    members: tuple[Figure, ...]
    kind: str
    mode: str
    index: int
    allowance_mm: float
    field: BaseField
    open_field: Callable[[], BaseField]  # the field without the linear obstacles, made if asked
    obstacles: list[TerrainFeature]
    warnings: list[str]
    table_mm: tuple[float, float]
    ground: tuple[TerrainFeature, ...] = ()  # the costly ground the move pays for


def _kind(figure: Figure, group: Group | None) -> str:
    if figure.type == "cavalry":
        return "cavalry"
    if figure.type == "artillery":
        return "artillery"
    return "infantry_group" if group is not None else "infantry"


def action_rank(action: Action | None, index: ActionIndex | None) -> int:
    """Which action of the activation (1 = the first): ``action: first|later`` or
    ``action_index: 1..3`` (3: running), which must agree when both are given.

    >>> action_rank(None, None), action_rank("later", None), action_rank("later", 3)
    (1, 2, 3)
    """
    if index is not None:
        if action is not None and (action == "first") != (index == 1):
            raise QuestionError(f"action {action!r} contradicts action_index {index!r}")
        return index
    return 2 if action == "later" else 1


def move_plan(
    scene: Scene,
    a: str,
    action: Action | None,
    index_extra: ActionIndex | None,
    mode: Mode,
    goal: np.ndarray | None = None,
) -> _Plan:
    """The mover, its allowance for this action and kind of move, and its field.

    A round base moves as the path finder's disc. A square or rectangular one keeps its
    facing along the move (§6.1: it turns at the end), and moves as exactly that outline
    (`base_field`), going no deeper into the obstacles it overlaps at its start or at the
    ``goal``.
    """
    options = options_of(scene)
    group, mover = resolve(scene, a)
    kind = _kind(mover, group)
    how: str = mode
    pace = "normal" if how in AT_A_STEP else how  # an action, not a measure
    if how in AT_A_STEP and kind not in ("infantry", "infantry_group"):
        jumps = (
            ": cavalry jumps linear obstacles in its moves"
            if kind == "cavalry" and how == "cross"
            else ""
        )
        raise QuestionError(
            f"{kind} has no {how} move (§6.1.2, §6.1.3: infantry spends an action to cross "
            f"an obstacle, PA to go into a building){jumps}"
        )
    if (kind, pace) not in MOVES_CM:
        raise QuestionError(f"{kind.replace('_', ' ')} has no {how} move")
    index = action_rank(action, index_extra)
    first_cm, later_cm = MOVES_CM[(kind, pace)]
    if kind == "infantry_group" and pace == "normal" and group is not None and group.has("rapid"):
        # §3.2: « "Rapide" : les Groupes ayant cette caractéristique se déplacent de 12/8cm
        # par phase mais restent en Ordre Serré »
        first_cm, later_cm = MOVES_CM[("infantry_group", "column")]
    fanatic = how == "charge" and (
        group.has("fanatic") if group else has_characteristic([mover], "fanatic")
    )
    allowance_mm = options.mm(_charge_cm(first_cm if index == 1 else later_cm, fanatic))
    moving = {f.id for f in group.figures} if group is not None else {mover.id}
    warnings: list[str] = []
    kinds = {_kind(f, group) for f in group.figures} if group is not None else {kind}
    if len(kinds) > 1:
        # §3.1: "on ne peut mélanger Infanterie et Cavalerie": such a group moves at
        # the pace of its slowest kind, and is told it should not exist.
        paces = {k: MOVES_CM[(k, pace)] for k in kinds if (k, pace) in MOVES_CM}
        slowest = min(paces, key=lambda k: paces[k][0 if index == 1 else 1])
        allowance_mm = min(allowance_mm, options.mm(paces[slowest][0 if index == 1 else 1]))
        warnings.append(
            Said(
                "mixed_group",
                "a group may not mix {kinds} (§3.1): it moves at the pace of its {slowest}",
                kinds=" and ".join(sorted(k.replace("_group", "") for k in kinds)),
                slowest=slowest.replace("_group", ""),
            )
        )
    if index == NUMBERS.max_actions and how not in AT_A_STEP:
        warnings.append(Said("running", "a third move: the figure is running"))
    costly_ok = not mover.attrs.get("terrain", False)
    if how == "column" and group is not None:
        costly_ok = False
        warnings.append(
            Said(
                "column_in_difficult",
                "a column crosses difficult terrain at full speed for two phases at most "
                "(three when led by a scout)",
            )
        )
    hulls: list[pathing.DiscHull] = []
    polygons: list[pathing.BlockingPolygon] = []
    prints = footprints(scene)
    for i, figure in enumerate(scene.figures):
        if figure.id in moving:
            continue
        base = base_of(figure)
        if base.shape.value == "round":
            hulls.append(
                pathing.DiscHull(np.array([[figure.x_mm, figure.y_mm, base.radius_mm]]), figure.id)
            )
        else:
            polygons.append(pathing.BlockingPolygon(prints[i], figure.id))
    polygons.extend(
        pathing.BlockingPolygon(f.geometry, f.id)
        for f in scene.terrain_of(BLOCKING_TERRAIN)
        if isinstance(f.geometry, shapely.Polygon)
    )
    ground = tuple(
        f
        for f in scene.terrain_of(COSTLY_TERRAIN)
        if costly_ok and isinstance(f.geometry, shapely.Polygon)
    )
    obstacles = [] if kind == "cavalry" else list(scene.terrain_of([TerrainKind.OBSTACLE]))
    walls = [
        pathing.BlockingPolygon(
            f.geometry
            if isinstance(f.geometry, shapely.Polygon)
            else f.geometry.buffer(OBSTACLE_THICKNESS_MM / 2, cap_style="flat"),
            f.id,
        )
        for f in obstacles
    ]
    table = (scene.table.width_mm, scene.table.depth_mm)
    base = base_of(mover)
    if base.shape.value == "round":
        costly = costly_for(ground, mover, mover.facing_deg)

        def among(blocking: list[pathing.BlockingPolygon]) -> BaseField:
            field = pathing.Field(
                *table, hulls=tuple(hulls), polygons=tuple(blocking), costly=costly
            )
            return disc_field(field, base.radius_mm)

    else:
        outline = np.asarray(base.footprint(0.0, 0.0, mover.facing_deg).exterior.coords[:-1])
        regions = costly_regions(ground)
        free_at = [mover.xy] if goal is None else [mover.xy, goal]

        def among(blocking: list[pathing.BlockingPolygon]) -> BaseField:
            return base_field(
                *table, outline, hulls=hulls, polygons=blocking, costly=regions, free_at=free_at
            )

    walled = among(polygons + walls)
    return _Plan(
        mover=mover,
        moving=moving,
        members=tuple(group.figures) if group is not None else (mover,),
        kind=kind,
        mode=how,
        index=index,
        allowance_mm=allowance_mm,
        field=walled,
        open_field=functools.partial(among, polygons) if walls else lambda: walled,
        obstacles=obstacles,
        warnings=warnings,
        table_mm=table,
        ground=ground,
    )


def obstacles_crossed(path: pathing.Path, obstacles: list[TerrainFeature]) -> list[str]:
    """Obstacles that a path's centre line crosses or touches."""
    if not path.found or len(path.points_mm) < 2:
        return []
    line = shapely.LineString(path.points_mm)
    return [f.id for f in obstacles if line.intersects(f.geometry)]


# --- charge helpers ----------------------------------------------------------------------


def _turned_gap_mm(scene: Scene, charger: Figure, defender: Figure, facing_deg: float) -> float:
    """The gap between two bases once the charger has turned to ``facing_deg`` (§6.5: it
    turns to face its target, free within its arc): as it stands for a round base."""
    base = base_of(charger)
    if base.shape.value == "round":
        return figure_gap_mm(scene, charger, defender)
    other = base_of(defender)
    turned = base.footprint(charger.x_mm, charger.y_mm, facing_deg)
    gaps = base_gaps_mm(
        np.array([charger.xy, defender.xy]),
        np.array([np.nan, other.radius_mm if other.shape.value == "round" else np.nan]),
        np.array([turned, footprint(defender)], dtype=object),
        rows=[0],
        cols=[1],
    )
    return float(gaps[0, 0])


def single_charge(
    scene: Scene,
    options: SmoothAndRifledOptions,
    a: str,
    b: str,
    charger: Figure,
    defender: Figure,
    index: int,
) -> SRChargeAnswer:
    kind = _kind(charger, None)
    if kind == "artillery":
        raise QuestionError(f"{a!r} is artillery and cannot charge")
    first_cm, later_cm = MOVES_CM[(kind, "charge")]
    fanatic = has_characteristic([charger], "fanatic")
    allowance = options.mm(_charge_cm(first_cm if index == 1 else later_cm, fanatic))
    direction = defender.xy - charger.xy
    length = float(np.hypot(*direction))
    facing = math.degrees(math.atan2(direction[1], direction[0])) if length else 0.0
    gap = _turned_gap_mm(scene, charger, defender, facing)
    end = charger.xy + direction / length * gap if length else charger.xy
    travel = shapely.LineString([charger.xy, end]) if gap > 0 else shapely.Point(charger.xy)
    cost = gap
    if not charger.attrs.get("terrain", False):
        # Difficult ground doubles the way while the base overlaps it, as a move counts it,
        # not while its centre is in; the charger has turned to face the defender.
        radius_mm = base_of(charger).radius_mm
        ground = tuple(
            f for f in scene.terrain_of(COSTLY_TERRAIN) if isinstance(f.geometry, shapely.Polygon)
        )
        cost += sum(
            (region.factor - 1.0) * float(travel.intersection(region.overlap(radius_mm)).length)
            for region in costly_for(ground, charger, facing)
        )
    corridor = travel.buffer(base_of(charger).width_mm / 2)
    prints = footprints(scene)
    blocked = [
        f.id
        for i, f in enumerate(scene.figures)
        if f.id not in (charger.id, defender.id)
        and corridor.intersection(prints[i]).area > OVERLAP_MM2
    ]
    blocked += [f.id for f in scene.terrain_of(BLOCKING_TERRAIN) if corridor.intersects(f.geometry)]
    reasons: list[Reason] = []
    warnings = _fanatics(a, fanatic, options.mm(NUMBERS.fanatic_charge_cm))
    if charger.attrs.get("shaken", False):
        reasons.append(Reason.SHAKEN)
        warnings.append(_shaken_charger(charger, fanatic))
    if blocked:
        reasons.append(Reason.PATH_BLOCKED)
    if cost > allowance:
        reasons.append(Reason.CHARGE_SHORT)
    margins = (Margin("charge", abs(allowance - cost), sigma_between(charger, defender)),)
    free_turn = in_arc(charger, prints[index_of(scene, defender.id)], NUMBERS.charge_arc_deg)[0]
    if not free_turn:
        warnings.append(
            Said(
                "turn_to_charge",
                "{figure} is outside the 180 degree arc: turning costs 1 action",
                figure=defender.id,
            )
        )
    crossed = [
        f.id for f in scene.terrain_of([TerrainKind.OBSTACLE]) if travel.intersects(f.geometry)
    ]
    if crossed and not is_mounted(charger):
        warnings.append(
            Said(
                "charge_across",
                "charging across {obstacles}: -1 die for a foot figure",
                obstacles=", ".join(crossed),
            )
        )
    legal = not reasons
    text = (
        f"{a} {'may' if legal else 'may not'} charge {b}: {UNIT.from_mm(gap):.1f} cm "
        f"(cost {UNIT.from_mm(cost):.1f} of {UNIT.from_mm(allowance):g} cm)"
    )
    if reasons:
        text += ": " + reason_words(reasons)
    return SRChargeAnswer(
        question="charge",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=margins,
        charger=a,
        target=b,
        legal=legal,
        reasons=tuple(reasons),
        distance_mm=gap,
        distance_units=UNIT.from_mm(gap),
        unit=UNIT.name,
        allowance_mm=allowance,
        allowance_units=UNIT.from_mm(allowance),
        group_charge=False,
        free_turn=free_turn,
        blocked_by=tuple(blocked),
        warnings=tuple(warnings),
    )


def _fanatic_rallies(figure: Figure) -> str:
    """The note that a shaken fanatic rallies by a move toward the nearest enemy (§8.0)."""
    return Said(
        "shaken_fanatic",
        "{figure} is shaken: a fanatic rallies moving one action at full speed toward "
        "the nearest enemy (§8.0)",
        figure=figure.id,
    )


def _shaken_charger(charger: Figure, fanatic: bool) -> str:
    """The warning that a shaken figure does not charge (§6.2.9: « Une figurine Secouée ne
    peut effectuer aucune Action »); a fanatic may instead rally by moving toward the nearest
    enemy (§8.0), a move, not a charge."""
    if fanatic:
        return _fanatic_rallies(charger)
    return Said(
        "shaken_no_charge",
        "{figure} is shaken: it takes no action, this charge neither (§6.2.9)",
        figure=charger.id,
    )


def _charge_cm(book_cm: float, fanatic: bool) -> float:
    """How far a charge reaches (cm): the book's, or 12 cm for Fanatics when that is more
    (§8.0: « un Fanatique peut charger à 12cm »).

    >>> _charge_cm(8.0, True), _charge_cm(20.0, True), _charge_cm(8.0, False)
    (12.0, 20.0, 8.0)
    """
    return max(book_cm, NUMBERS.fanatic_charge_cm) if fanatic else book_cm


def _fanatics(name: str, fanatic: bool, reach_mm: float) -> list[str]:
    """The note that fanatics charge further, when they do."""
    if not fanatic:
        return []
    return [
        Said(
            "fanatic_charge",
            "{name}: fanatics charge at {cm} cm",
            name=name,
            cm=f"{UNIT.from_mm(reach_mm):g}",
        )
    ]


def closing_order(chargers: Group | None) -> list[str]:
    """The warning that a group may not charge as a group, when it is one: in loose order it
    must close order first, skirmishers never do (§6.7.3)."""
    if chargers is None or not chargers.loose:
        return []
    if chargers.skirmishers:
        return [
            Said(
                "skirmishers_cannot_charge",
                "{group} are skirmishers: they never charge as a group, each may charge alone",
                group=chargers.name,
            )
        ]
    return [
        Said(
            "loose_cannot_charge",
            "{group} is in loose order: it must close order to charge",
            group=chargers.name,
        )
    ]


def group_charge_refusal(chargers: Group | None) -> Reason | None:
    """Why a group may not charge as a group at all, whatever the distance (§6.7.3): "Un
    Groupe en Ordre Lâche ne peut pas charger, il doit passer en Ordre Serré d'abord. Les
    Groupes avec la caractéristique spéciale Tirailleurs ne peuvent effectuer de Charge de
    Groupe." None for a close-order group or a figure charging alone."""
    if chargers is None or not chargers.loose:
        return None
    return Reason.SKIRMISHERS_NO_GROUP_CHARGE if chargers.skirmishers else Reason.MUST_CLOSE_ORDER


def group_charge(
    scene: Scene,
    options: SmoothAndRifledOptions,
    a: str,
    b: str,
    attackers_group: Group | None,
    charger: Figure,
    defenders_group: Group | None,
    defender: Figure,
) -> SRChargeAnswer:
    attackers = list(attackers_group.figures) if attackers_group else [charger]
    # §6.2.9: a shaken figure takes no action: it stays out of its group's charge, and a
    # group all shaken (or a lone figure shaken) does not charge.
    shaken = [f for f in attackers if f.attrs.get("shaken", False)]
    all_shaken = len(shaken) == len(attackers)
    if not all_shaken:
        attackers = [f for f in attackers if f not in shaken]
    defenders = list(defenders_group.figures) if defenders_group else [defender]
    rows = [index_of(scene, f.id) for f in attackers]
    cols = [index_of(scene, f.id) for f in defenders]
    matrix = gaps_of(scene).block(rows, cols)
    row, col = np.unravel_index(int(np.argmin(matrix)), matrix.shape)
    closest = float(matrix[row, col])
    fanatic = (
        attackers_group.has("fanatic")
        if attackers_group
        else has_characteristic([charger], "fanatic")
    )
    limit = options.mm(_charge_cm(NUMBERS.group_charge_cm, fanatic))
    sigma = sigma_between(attackers[int(row)], defenders[int(col)])
    refusal = group_charge_refusal(attackers_group)
    if refusal is None and all_shaken:
        refusal = Reason.SHAKEN
    # A group that may not charge as a group is refused whatever the gap: no measure decides.
    margins = () if refusal else (Margin("group charge", abs(limit - closest), sigma),)
    reasons: list[Reason] = [refusal] if refusal else []
    warnings = closing_order(attackers_group) + _fanatics(a, fanatic, limit)
    if refusal is Reason.SHAKEN and attackers_group is None:
        warnings.append(_shaken_charger(charger, fanatic))
    elif shaken:
        warnings.append(
            Said(
                "shaken_out_of_charge",
                "{figures} shaken: they take no action, nor part in the group's charge (§6.2.9)",
                figures=", ".join(f.id for f in shaken),
            )
        )
    combats: list[dict[str, list[str]]] = []
    out: list[str] = []
    if closest > limit:
        reasons.append(Reason.CHARGE_SHORT)
    elif not reasons:
        combats, out = _pairing(attackers, defenders, matrix)
    legal = not reasons
    apart = (
        f"closest figures {UNIT.from_mm(closest):.1f} cm apart (at most {UNIT.from_mm(limit):g} cm)"
    )
    if refusal:
        text = f"{a} may not charge {b} as a group: {reason_words(reasons)} ({apart})"
    else:
        text = f"{a} {'charges' if legal else 'may not charge'} {b} as a group: {apart}"
    if legal:
        text += "; " + "; ".join(
            f"{'+'.join(c['attackers'])} vs {'+'.join(c['defenders'])}" for c in combats
        )
    return SRChargeAnswer(
        question="charge",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=margins,
        charger=a,
        target=b,
        legal=legal,
        reasons=tuple(reasons),
        distance_mm=closest,
        distance_units=UNIT.from_mm(closest),
        unit=UNIT.name,
        allowance_mm=limit,
        allowance_units=UNIT.from_mm(limit),
        group_charge=True,
        free_turn=True,
        combats=tuple(combats),
        out_of_melee=tuple(out),
        warnings=tuple(warnings),
    )


def charge_figure_by_figure(
    scene: Scene,
    options: SmoothAndRifledOptions,
    a: str,
    b: str,
    attackers_group: Group,
    defenders: list[Figure],
    index: int,
) -> SRChargeAnswer:
    """A group charging skirmishers or a lone figure (§6.7.3): « Si la charge est dirigée
    contre un Groupe classé comme Tirailleurs ou contre une figurine individuelle, seules les
    figurines impliquées dans la charge seront impliquées dans la mêlée » — no placing of
    every figure in contact from 8 cm: each attacker charges the enemy figure nearest to it
    by its own straight charge, and those that reach it fight, at most two against one (the
    nearer first)."""
    attackers = list(attackers_group.figures)
    matrix = gaps_of(scene).block(
        [index_of(scene, f.id) for f in attackers], [index_of(scene, f.id) for f in defenders]
    )
    charges = [
        single_charge(
            scene,
            options,
            f.id,
            defenders[int(np.argmin(row))].id,
            f,
            defenders[int(np.argmin(row))],
            index,
        )
        for f, row in zip(attackers, matrix, strict=True)
    ]
    by_id = {f.id: f for f in attackers}
    fights: dict[str, list[str]] = {}
    out: list[str] = []
    last_in: dict[str, SRChargeAnswer] = {}
    order: list[Margin] = []
    ties: list[str] = []
    for charge in sorted(charges, key=lambda c: c.distance_mm):
        engaged = fights.setdefault(charge.target, [])
        if charge.legal and len(engaged) < NUMBERS.max_attackers:
            engaged.append(charge.charger)
            last_in[charge.target] = charge
            continue
        out.append(charge.charger)
        nearer = last_in.get(charge.target)
        if charge.legal and nearer is not None:
            # « en commençant par celle qui était la moins éloignée »: which of the two is the
            # nearer decides who fights; equally near, the players choose
            sigma = sigma_between(by_id[nearer.charger], by_id[charge.charger])
            ahead_mm = charge.distance_mm - nearer.distance_mm
            order.append(Margin("nearer charger", ahead_mm, sigma))
            if ahead_mm <= TIE_MM:
                ties.append(
                    Said(
                        "equally_near",
                        "{figures} are equally near {figure}: the players choose",
                        figures=f"{nearer.charger}, {charge.charger}",
                        figure=charge.target,
                    )
                )
    combats = tuple(
        {"attackers": fighters, "defenders": [target]}
        for target, fighters in fights.items()
        if fighters
    )
    engaged_ids = {x for c in combats for x in c["attackers"]}
    nearest = min(charges, key=lambda c: c.distance_mm)
    legal = bool(combats)
    reasons = () if legal else (nearest.reasons or (Reason.CHARGE_SHORT,))
    warnings: list[str] = [
        Said(
            "charge_figure_by_figure",
            "{target}: skirmishers or a lone figure: only the figures of {group} whose own "
            "charge reaches an enemy fight",
            target=b,
            group=attackers_group.name,
        ),
        *[w for c in charges if c.charger in engaged_ids for w in c.warnings],
        *ties,
    ]
    margins = (*(m for c in charges for m in c.margins), *order)
    if combats:
        text = f"{a} charges {b} figure by figure: " + "; ".join(
            f"{'+'.join(c['attackers'])} vs {c['defenders'][0]}" for c in combats
        )
    else:
        text = f"{a} may not charge {b}: no figure's own charge reaches: {reason_words(reasons)}"
    return SRChargeAnswer(
        question="charge",
        message=with_certainty(text, *margins) + warning_lines(warnings),
        margins=margins,
        charger=a,
        target=b,
        legal=legal,
        reasons=tuple(reasons),
        distance_mm=nearest.distance_mm,
        distance_units=nearest.distance_units,
        unit=UNIT.name,
        allowance_mm=nearest.allowance_mm,
        allowance_units=nearest.allowance_units,
        group_charge=True,
        free_turn=all(c.free_turn for c in charges if c.charger in engaged_ids),
        combats=combats,
        out_of_melee=tuple(out),
        blocked_by=tuple(dict.fromkeys(x for c in charges for x in c.blocked_by)),
        warnings=tuple(warnings),
    )


def _pairing(
    attackers: list[Figure], defenders: list[Figure], gaps: np.ndarray
) -> tuple[list[dict[str, list[str]]], list[str]]:
    """Figures placed in contact one to one (the nearest pairs), the extras at most 2 against 1.

    One-to-one pairs minimise the total gap; each extra figure of the larger side, the
    nearest first, joins the nearest enemy still fighting alone; the rest stay out.
    """
    from scipy.optimize import linear_sum_assignment  # 0.4 s to import: only when needed

    rows, cols = linear_sum_assignment(gaps)
    fights: dict[int, list[int]] = {int(c): [int(r)] for r, c in zip(rows, cols, strict=True)}
    more_attackers = len(attackers) >= len(defenders)
    if more_attackers:
        extras = [r for r in range(len(attackers)) if r not in set(rows.tolist())]
        extras.sort(key=lambda r: float(gaps[r].min()))
        for r in extras:
            free = [c for c in fights if len(fights[c]) < NUMBERS.max_attackers]
            if free:
                fights[min(free, key=lambda c: float(gaps[r, c]))].append(r)
        combats = [
            {"attackers": [attackers[r].id for r in fights[c]], "defenders": [defenders[c].id]}
            for c in sorted(fights)
        ]
        engaged = {r for members in fights.values() for r in members}
        out = [attackers[r].id for r in range(len(attackers)) if r not in engaged]
        return combats, out
    flipped, out = _pairing(defenders, attackers, gaps.T)
    return [{"attackers": c["defenders"], "defenders": c["attackers"]} for c in flipped], out
