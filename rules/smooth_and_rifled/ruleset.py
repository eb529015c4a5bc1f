"""The Smooth & Rifled ruleset: its questions, measures and moves; fire is in `fire`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.answers import (
    ContactAnswer,
    DistanceAnswer,
    GroupsAnswer,
    Margin,
    ReachAnswer,
    Reason,
    Unit,
    area_text,
    combined_sigma,
    warning_lines,
    with_certainty,
)
from arbitre.rules.errors import QuestionError, SceneError
from arbitre.rules.model import Figure, Scene
from arbitre.rules.options import Degrees, Flag
from arbitre.rules.ruleset import Question, Ruleset, coordinate_mm
from arbitre.rules.smooth_and_rifled.answers import SRChargeAnswer, SRFireAnswer, SRMoveAnswer
from arbitre.rules.smooth_and_rifled.fire import fire_question
from arbitre.rules.smooth_and_rifled.model import (
    FIGURE_TYPES,
    NUMBERS,
    Action,
    ActionIndex,
    SmoothAndRifledOptions,
    base_of,
    find_groups,
    footprints,
    options_of,
    resolve,
    weapon_range_cm,
)
from arbitre.rules.smooth_and_rifled.moves import (
    BLOCKING_TERRAIN,
    OVERLAP_MM2,
    UNIT,
    Mode,
    figure_gap_mm,
    group_charge,
    move_plan,
    obstacles_crossed,
    plain_action_index,
    ring,
    single_charge,
)
from arbitre.rules.smooth_and_rifled.scenario import deployment_question, objective_question
from arbitre.rules.smooth_and_rifled.support import (
    gun_question,
    rally_question,
    save_question,
    spot_question,
    standard_question,
)
from arbitre.rules.smooth_and_rifled.tables import (
    damage_question,
    melee_question,
    morale_question,
    volley_question,
)
from arbitre.rules.smooth_and_rifled.templates import (
    canister_question,
    explosion_question,
    roundshot_question,
)
from arbitre.rules.smooth_and_rifled.withdrawal import withdrawal_question
from arbitre.rules.terrain import straight_cost_mm


class SmoothAndRifled(Ruleset):
    """Smooth & Rifled: individual figures and groups, measured edge to edge in cm."""

    name = "smooth-and-rifled"
    aliases = ("sr", "s&r", "smooth&rifled", "smooth-rifled")

    def parse_options(self, raw: Mapping[str, Any]) -> SmoothAndRifledOptions:
        return SmoothAndRifledOptions.model_validate(dict(raw))

    def unit(self, scene: Scene) -> Unit:
        return UNIT

    def validate(self, scene: Scene) -> None:
        for index, figure in enumerate(scene.figures):
            where = f"figures[{index}]"
            if figure.type is not None and figure.type not in FIGURE_TYPES:
                raise SceneError(
                    scene.source,
                    f"{where}.type",
                    f"Smooth & Rifled figures are {', '.join(FIGURE_TYPES)}, got {figure.type!r}",
                )
            try:
                weapon_range_cm(figure)
            except QuestionError as error:
                raise SceneError(scene.source, f"{where}.attrs.weapon", str(error)) from None
            gun = figure.attrs.get("gun")
            if gun is not None and gun not in ("light", "medium"):
                raise SceneError(
                    scene.source, f"{where}.attrs.gun", f"'light' or 'medium', got {gun!r}"
                )
            c = figure.attrs.get("combat")
            if c is not None and (isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= 6):
                raise SceneError(
                    scene.source, f"{where}.attrs.combat", f"an integer 1-6, got {c!r}"
                )

    def questions(self) -> Mapping[str, Question]:
        return {
            "distance": Question("distance", ("A", "B"), "edge-to-edge distance", self.distance),
            "contact": Question("contact", ("A", "B"), "are two bases in contact", self.contact),
            "groups": Question("groups", (), "the groups on the table", self.groups),
            "fire": Question("fire", ("A", "B"), "may A shoot at B", self.fire),
            "move": Question("move", ("A", "X", "Y"), "may A move to (X, Y) mm", self.move),
            "reach": Question("reach", ("A",), "where may A move in one action", self.reach),
            "charge": Question("charge", ("A", "B"), "may A charge B", self.charge),
            "roundshot": Question(
                "roundshot", ("A", "B"), "round shot of gun A at B", roundshot_question
            ),
            "canister": Question("canister", ("A",), "canister of gun A", canister_question),
            "explosion": Question(
                "explosion", ("X", "Y"), "an ammunition box exploding at (X, Y)", explosion_question
            ),
            "damage": Question(
                "damage", ("A", "B"), "damage roll of A's hit on B", damage_question
            ),
            "volley": Question("volley", ("A", "B"), "volley of group A at B", volley_question),
            "morale": Question("morale", ("SIDE",), "moral value and break point", morale_question),
            "melee": Question("melee", ("A", "B"), "melee dice of A against B", melee_question),
            "save": Question("save", ("A",), "who takes a hit on A (Leader's save)", save_question),
            "rally": Question("rally", ("A",), "actions shaken A needs to rally", rally_question),
            "standard": Question(
                "standard", ("A",), "may standard-bearer A's unit re-roll morale", standard_question
            ),
            "objective": Question(
                "objective", ("SIDE", "X", "Y"), "does SIDE hold the objective", objective_question
            ),
            "deployment": Question(
                "deployment", ("SIDE",), "is SIDE inside its deployment zone", deployment_question
            ),
            "withdrawal": Question(
                "withdrawal", ("A", "B"), "A's fall-back from B's charge", withdrawal_question
            ),
            "spot": Question("spot", ("A", "B"), "may A spot ambush marker B", spot_question),
            "gun": Question("gun", ("A",), "are gun A's crew and ammunition near", gun_question),
        }

    # --- measures ------------------------------------------------------------------------

    def distance(self, scene: Scene, a: str, b: str) -> DistanceAnswer:
        first, second, gap = _closest(scene, a, b)
        sigma = combined_sigma(first.sigma_mm, second.sigma_mm)
        return DistanceAnswer(
            question="distance",
            message=f"{a} to {b}: {UNIT.from_mm(gap):.1f} cm edge to edge ({gap:.1f} mm)"
            + (f" ± {sigma:.1f} mm" if sigma else ""),
            a=a,
            b=b,
            distance_mm=gap,
            distance_units=UNIT.from_mm(gap),
            unit=UNIT.name,
            mode="edge",
            sigma_mm=sigma,
        )

    def contact(self, scene: Scene, a: str, b: str) -> ContactAnswer:
        options = options_of(scene)
        first, second, gap = _closest(scene, a, b)
        tolerance = options.contact_tolerance_mm
        touching = gap <= tolerance
        margin = Margin(
            "contact", abs(tolerance - gap), combined_sigma(first.sigma_mm, second.sigma_mm)
        )
        verdict = "in contact" if touching else "not in contact"
        return ContactAnswer(
            question="contact",
            message=with_certainty(
                f"{a} and {b} are {verdict}: gap {gap:.1f} mm (contact up to {tolerance:g} mm)",
                margin,
            ),
            margins=(margin,),
            a=a,
            b=b,
            contact=touching,
            gap_mm=gap,
            threshold_mm=tolerance,
        )

    def groups(self, scene: Scene) -> GroupsAnswer:
        grouping = find_groups(scene)
        formed = [g for g in grouping.groups if g.formed]
        listing = ", ".join(f"{g.name} ({len(g.figures)})" for g in formed) or "none"
        alone = len(grouping.groups) - len(formed)
        return GroupsAnswer(
            question="groups",
            message=f"{len(formed)} groups: {listing}; {alone} figure(s) acting alone"
            + warning_lines(grouping.warnings),
            groups={g.name: list(g.ids) for g in grouping.groups},
            references={g.name: g.leader.id if g.leader else None for g in grouping.groups},
            sides={g.name: g.side for g in grouping.groups},
            warnings=grouping.warnings,
        )

    # --- fire ----------------------------------------------------------------------------

    def fire(
        self, scene: Scene, a: str, b: str, aimed: Flag = False, moved: Flag = False
    ) -> SRFireAnswer:
        return fire_question(scene, a, b, aimed, moved)

    # --- movement ------------------------------------------------------------------------

    def move(
        self,
        scene: Scene,
        a: str,
        x: str,
        y: str,
        action: Action | None = None,
        action_index: ActionIndex | None = None,
        mode: Mode = "normal",
        facing_deg: Degrees | None = None,
    ) -> SRMoveAnswer:
        plan = move_plan(scene, a, action, action_index, mode)
        goal = np.array([coordinate_mm(x, "X"), coordinate_mm(y, "Y")])
        end_facing = plan.mover.facing_deg if facing_deg is None else facing_deg
        mover, radius_mm = plan.mover, base_of(plan.mover).radius_mm
        reasons: list[Reason] = []
        margins: list[Margin] = []
        warnings = list(plan.warnings)
        goal_print = base_of(mover).footprint(goal[0], goal[1], mover.facing_deg)
        minx, miny, maxx, maxy = goal_print.bounds
        if minx < 0 or miny < 0 or maxx > scene.table.width_mm or maxy > scene.table.depth_mm:
            reasons.append(Reason.OFF_TABLE)
        if any(
            goal_print.intersection(f.geometry).area > OVERLAP_MM2
            for f in scene.terrain_of(BLOCKING_TERRAIN)
            if isinstance(f.geometry, shapely.Polygon)
        ):
            reasons.append(Reason.IMPASSABLE)
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
        if not reasons:
            path = pathing.shortest_path(
                plan.field, mover.xy, goal, radius_mm, max_cost_mm=plan.allowance_mm
            )
            if not (path.found and path.cost_mm <= plan.allowance_mm) and plan.obstacles:
                over = pathing.shortest_path(
                    plan.open_field, mover.xy, goal, radius_mm, max_cost_mm=plan.allowance_mm
                )
                crossed = obstacles_crossed(over, plan.obstacles)
                if over.found and crossed:
                    path = over
                    reasons.append(Reason.OBSTACLE_CROSSING)
                    blocked_by.extend(crossed)
                    warnings.append(
                        "infantry stops at a linear obstacle and spends an action to cross it"
                    )
            if not path.found:
                reasons.append(Reason.PATH_BLOCKED)
                blocked_by.extend(path.blocked_by)
            elif path.cost_mm > plan.allowance_mm:
                straight = straight_cost_mm(plan.field, mover.xy, goal, radius_mm)
                blocked = path.blocked_by and straight <= plan.allowance_mm
                if Reason.OBSTACLE_CROSSING not in reasons and blocked:
                    reasons.append(Reason.PATH_BLOCKED)
                    blocked_by.extend(path.blocked_by)
                else:
                    reasons.append(Reason.OVER_ALLOWANCE)
            if path.found:
                margins.append(
                    Margin("allowance", abs(plan.allowance_mm - path.cost_mm), mover.sigma_mm)
                )
        backwards_mm = backwards_distance_mm(mover.xy, goal, end_facing)
        limit_mm = options_of(scene).mm(NUMBERS.backwards_cm)
        if backwards_mm > 0.0:
            margins.append(Margin("backwards", abs(limit_mm - backwards_mm), mover.sigma_mm))
        if backwards_mm > limit_mm:
            reasons.append(Reason.BACKWARDS_TOO_FAR)
            warnings.append(
                f"{UNIT.from_mm(backwards_mm):.1f} cm backwards keeping the facing "
                f"(at most {UNIT.from_mm(limit_mm):g} cm): turn the figure first"
            )
        legal = not reasons
        cost = path.cost_mm if path.found else math.inf
        allowance_cm = UNIT.from_mm(plan.allowance_mm)
        if legal:
            text = (
                f"{a} may move there: {UNIT.from_mm(cost):.1f} cm of {allowance_cm:g} cm "
                f"({plan.kind}, {plan.mode}, action {plan.index})"
            )
        else:
            spent = f"{UNIT.from_mm(cost):.1f} cm" if math.isfinite(cost) else "no path"
            text = (
                f"{a} may not move there: {', '.join(r.value for r in reasons)} ({spent}, "
                f"allowance {allowance_cm:g} cm)"
            )
        return SRMoveAnswer(
            question="move",
            message=with_certainty(text, *margins) + warning_lines(warnings),
            margins=tuple(margins),
            mover=a,
            legal=legal,
            reasons=tuple(reasons),
            cost_mm=cost,
            cost_units=UNIT.from_mm(cost),
            allowance_mm=plan.allowance_mm,
            allowance_units=allowance_cm,
            unit=UNIT.name,
            path_mm=tuple((float(px), float(py)) for px, py in path.points_mm),
            blocked_by=tuple(dict.fromkeys(blocked_by)),
            warnings=tuple(warnings),
            kind=plan.kind,
            mode=plan.mode,
            action_index=plan.index,
            running=plan.index == NUMBERS.max_actions,
        )

    def reach(
        self,
        scene: Scene,
        a: str,
        action: Action | None = None,
        action_index: ActionIndex | None = None,
        mode: Mode = "normal",
    ) -> ReachAnswer:
        plan = move_plan(scene, a, action, action_index, mode)
        area = pathing.reachable_area(
            plan.field, plan.mover.xy, base_of(plan.mover).radius_mm, plan.allowance_mm
        )
        polygons = list(getattr(area, "geoms", [area])) if not area.is_empty else []
        return ReachAnswer(
            question="reach",
            message=f"{a} may move anywhere in {len(polygons)} area(s) of "
            f"{area_text(area.area)} with {UNIT.from_mm(plan.allowance_mm):g} cm "
            f"({plan.kind}, {plan.mode}, action {plan.index})",
            mover=a,
            area_mm2=float(area.area),
            polygons_mm=tuple(ring(p.exterior.coords) for p in polygons),
            holes_mm=tuple(tuple(ring(h.coords) for h in p.interiors) for p in polygons),
            allowance_mm=plan.allowance_mm,
            allowance_units=UNIT.from_mm(plan.allowance_mm),
            unit=UNIT.name,
        )

    # --- charge --------------------------------------------------------------------------

    def charge(
        self,
        scene: Scene,
        a: str,
        b: str,
        action: Action | None = None,
        action_index: ActionIndex | None = None,
    ) -> SRChargeAnswer:
        options = options_of(scene)
        attackers_group, charger = resolve(scene, a)
        defenders_group, defender = resolve(scene, b)
        if not scene.are_enemies(charger.side, defender.side):
            raise QuestionError(f"{b!r} is not an enemy of {a!r}")
        if attackers_group is not None or defenders_group is not None:
            return group_charge(
                scene, options, a, b, attackers_group, charger, defenders_group, defender
            )
        return single_charge(
            scene, options, a, b, charger, defender, plain_action_index(action, action_index)
        )


def backwards_distance_mm(start: np.ndarray, goal: np.ndarray, facing_deg: float) -> float:
    """How far a move goes backwards against a facing: the straight move's rear component.

    >>> backwards_distance_mm(np.array([0.0, 0.0]), np.array([10.0, -40.0]), 90.0)
    40.0
    """
    heading = math.radians(facing_deg)
    forward = np.array([math.cos(heading), math.sin(heading)])
    return round(-float((goal - start) @ forward), 9)


def _closest(scene: Scene, a: str, b: str) -> tuple[Figure, Figure, float]:
    """The two closest figures of A and B (figures or groups) and their edge gap."""
    first = _members(scene, a)
    second = _members(scene, b)
    if {f.id for f in first} & {f.id for f in second}:
        raise QuestionError(f"{a!r} and {b!r} share figures")
    return min(
        ((f, g, figure_gap_mm(scene, f, g)) for f in first for g in second),
        key=lambda item: item[2],
    )


def _members(scene: Scene, name: str) -> list[Figure]:
    group, figure = resolve(scene, name)
    return list(group.figures) if group is not None else [figure]
