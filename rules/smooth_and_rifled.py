"""Smooth & Rifled (rules digest §5, rule book seed 004): skirmishes of individual figures.

Every measure is base edge to base edge, in cm (28 mm figures; ``scale: 15mm``
halves every distance). Readings chosen where the book is silent or ambiguous are
listed in ``docs/rules/smooth-and-rifled.md``; the main ones:

* groups follow the text of §3.0 (``group_rule: chain_and_radius``): a member is
  chained to the Leader's group by gaps of at most 3 cm (8 cm in loose order) and
  lies within 10 cm of the Leader (20 cm with a musician); ``chain_or_radius``
  follows the worked example of §3.1 instead;
* the line of fire and the cover test use the segment between the two centres;
* a group firing is a volley: its own members never block its line, each shooter
  uses the 90 degree group arc from its own facing;
* woods: sight reaches 5 cm into a wood (a figure inside is seen only within 5 cm
  of the edge, a line may run at most 5 cm through a wood holding neither figure);
* linear obstacles block an infantry or artillery move (stop at it, then spend an
  action to cross): a move that must cross one answers ``obstacle_crossing``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from rules import pathing
from rules.answers import (
    ContactAnswer,
    DistanceAnswer,
    GroupsAnswer,
    Margin,
    ReachAnswer,
    Reason,
    Unit,
    combined_sigma,
    warning_lines,
    with_certainty,
)
from rules.errors import QuestionError, SceneError
from rules.model import Figure, Scene
from rules.ruleset import Question, Ruleset
from rules.sr_answers import SRChargeAnswer, SRFireAnswer, SRMoveAnswer
from rules.sr_dice import (
    BANDS,
    TO_HIT,
    at_least,
    band_of,
    shooting_dice,
    shooting_rerolls,
    volley_dice,
)
from rules.sr_geometry import cover, in_arc, line_of_fire, sight
from rules.sr_model import (
    FIGURE_TYPES,
    MM_PER_CM,
    NUMBERS,
    SmoothAndRifledOptions,
    base_of,
    find_groups,
    flag,
    footprints,
    gap_matrix,
    index_of,
    is_mounted,
    number,
    options_of,
    resolve,
    weapon_range_cm,
)
from rules.sr_moves import (
    BLOCKING_TERRAIN,
    OVERLAP_MM2,
    UNIT,
    figure_gap_mm,
    group_charge,
    move_plan,
    obstacles_crossed,
    plain_action_index,
    ring,
    single_charge,
    straight_cost,
)
from rules.sr_tables import damage_question, melee_question, morale_question, volley_question
from rules.sr_templates import canister_question, explosion_question, roundshot_question


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
        self, scene: Scene, a: str, b: str, aimed: object = False, moved: object = False
    ) -> SRFireAnswer:
        options = options_of(scene)
        is_aimed, has_moved = flag(aimed, "aimed"), flag(moved, "moved")
        group, lead = resolve(scene, a)
        team = list(group.figures) if group is not None else [lead]
        target = _target(scene, b, team)
        if target.id in {f.id for f in team}:
            raise QuestionError(f"{b!r} cannot shoot at itself")
        arc_deg = NUMBERS.group_arc_deg if group is not None else NUMBERS.single_arc_deg
        friends = [f.id for f in team] if group is not None else []
        global_reasons: list[Reason] = []
        if not scene.are_enemies(lead.side, target.side):
            global_reasons.append(Reason.TARGET_NOT_ENEMY)
        armed = [f for f in team if weapon_range_cm(f) is not None]
        if not armed:
            global_reasons.append(Reason.NO_SHOOTERS)
        shots = [_shot(scene, options, f, target, arc_deg, friends, is_aimed) for f in armed]
        allowed_shots = [s for s in shots if not s.reasons]
        allowed = bool(allowed_shots) and not global_reasons
        pool = allowed_shots or shots
        reported = min(pool, key=lambda s: s.distance_mm) if pool else None

        reasons = list(global_reasons)
        if not allowed_shots:
            for shot in shots:
                reasons.extend(r for r in shot.reasons if r not in reasons)
        warnings: list[str] = []
        refused = {s.figure.id: [r.value for r in s.reasons] for s in shots if s.reasons}
        if group is not None and allowed_shots and refused:
            warnings.extend(
                f"{name} cannot shoot ({', '.join(codes)})" for name, codes in refused.items()
            )
        volleys: dict[str, list[str]] = {}
        for shot in allowed_shots:
            assert shot.band is not None
            volleys.setdefault(shot.band, []).append(shot.figure.id)

        distance_mm = reported.distance_mm if reported else figure_gap_mm(scene, lead, target)
        band = reported.band if reported else None
        shelter = cover(scene, options, reported.figure if reported else lead, target)
        to_hit = TO_HIT[band] if band is not None else None
        sniper = bool(reported and reported.figure.attrs.get("sniper", False))
        if group is not None and band is not None:
            dice = volley_dice(len(volleys[band])) if allowed else 0
        else:
            dice = shooting_dice(aimed=is_aimed, sniper=sniper, moved=has_moved)
        rerolls = shooting_rerolls(cover=shelter.grade != "none", aimed=is_aimed, sniper=sniper)
        chance = float(at_least(dice, to_hit, rerolls)) if allowed and to_hit else None
        if allowed and band == "extreme" and dice < 3:
            warnings.append("13+ cannot be reached on 2 dice: an extreme shot needs 3 dice")
        if shelter.grade != "none":
            again = "6s" if is_aimed else "5s and 6s"
            warnings.append(
                f"{target.id} is in cover ({', '.join(shelter.features)}): re-roll the {again}"
            )
        if shelter.grade == "total":
            warnings.append(f"{target.id} is in total cover (obstacle level {shelter.level})")
        if allowed and reported is not None:
            warnings.extend(
                _nearest_warnings(scene, options, reported.figure, target, arc_deg, friends)
            )
        if len(volleys) > 1:
            warnings.append(
                "shooters at different bands fire separate volleys: "
                + "; ".join(f"{k}: {', '.join(v)}" for k, v in volleys.items())
            )
        margins = reported.margins if reported else ()
        shooter_name = group.name if group is not None else lead.id
        if allowed:
            text = (
                f"{shooter_name} may shoot at {target.id}: {distance_mm / MM_PER_CM:.1f} cm, "
                f"{band} range, {to_hit}+ on {dice}d6"
            )
        else:
            text = f"{shooter_name} may not shoot at {target.id}: " + ", ".join(
                r.value for r in reasons
            )
        return SRFireAnswer(
            question="fire",
            message=with_certainty(text, *margins) + warning_lines(warnings),
            margins=margins,
            shooter=shooter_name,
            target=target.id,
            allowed=allowed,
            reasons=tuple(reasons),
            distance_mm=distance_mm,
            distance_units=UNIT.from_mm(distance_mm),
            unit=UNIT.name,
            band=band,
            medium_range_mm=reported.medium_range_mm if reported else None,
            to_hit_2d6=to_hit,
            dice=dice,
            hit_probability=chance,
            arc_deg=arc_deg,
            blocked_by=reported.blocked_by if reported else (),
            cover=shelter.features,
            cover_level=shelter.level,
            cover_grade=shelter.grade,
            cover_weight=shelter.weight,
            visible=reported.visible if reported else True,
            shooters=tuple(s.figure.id for s in allowed_shots) if allowed else (),
            volleys=volleys if allowed else {},
            refused=refused,
            warnings=tuple(warnings),
        )

    # --- movement ------------------------------------------------------------------------

    def move(
        self,
        scene: Scene,
        a: str,
        x: str,
        y: str,
        action: object = None,
        action_index: object = None,
        mode: object = "normal",
    ) -> SRMoveAnswer:
        plan = move_plan(scene, a, action, action_index, mode)
        goal = np.array([number(x, "X"), number(y, "Y")])
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
                straight = straight_cost(plan.field, mover.xy, goal)
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
        action: object = None,
        action_index: object = None,
        mode: object = "normal",
    ) -> ReachAnswer:
        plan = move_plan(scene, a, action, action_index, mode)
        area = pathing.reachable_area(
            plan.field, plan.mover.xy, base_of(plan.mover).radius_mm, plan.allowance_mm
        )
        polygons = list(getattr(area, "geoms", [area])) if not area.is_empty else []
        return ReachAnswer(
            question="reach",
            message=f"{a} may move anywhere in {len(polygons)} area(s) of "
            f"{area.area / 100:.0f} cm² with {UNIT.from_mm(plan.allowance_mm):g} cm "
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
        action: object = None,
        action_index: object = None,
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


# --- fire helpers ------------------------------------------------------------------------


@dataclass(slots=True)
class _Shot:
    """One shooter's view of the target."""

    figure: Figure
    distance_mm: float
    medium_range_mm: float
    reasons: list[Reason] = field(default_factory=list)
    margins: tuple[Margin, ...] = ()
    band: str | None = None
    blocked_by: tuple[str, ...] = ()
    visible: bool = True


def _shot(
    scene: Scene,
    options: SmoothAndRifledOptions,
    shooter: Figure,
    target: Figure,
    arc_deg: float,
    friends: list[str],
    aimed: bool,
) -> _Shot:
    range_cm = weapon_range_cm(shooter)
    assert range_cm is not None
    medium_mm = options.mm(range_cm)
    distance = figure_gap_mm(scene, shooter, target)
    shot = _Shot(shooter, distance, medium_mm)
    sigma = combined_sigma(shooter.sigma_mm, target.sigma_mm)
    margins: list[Margin] = []
    weapon = shooter.attrs.get("weapon", {})
    extreme = bool(shooter.attrs.get("sniper", False)) or (
        aimed and bool(weapon.get("rifled", False))
    )
    shot.band = band_of(distance, medium_mm, extreme)
    if shot.band is None:
        shot.reasons.append(Reason.OUT_OF_RANGE)
        reach = (3.0 if extreme else 2.0) * medium_mm
        margins.append(Margin("range", distance - reach, sigma))
    else:
        factors = dict(BANDS)
        names = [name for name, _ in BANDS]
        upper = factors[shot.band] * medium_mm
        position = names.index(shot.band)
        lower = factors[names[position - 1]] * medium_mm if position else None
        edge = upper - distance if lower is None else min(upper - distance, distance - lower)
        margins.append(Margin(f"band {shot.band}", edge, sigma))
    target_print = footprints(scene)[index_of(scene, target.id)]
    inside, arc_margin = in_arc(shooter, target_print, arc_deg)
    if not inside:
        shot.reasons.append(Reason.NOT_IN_ARC)
    margins.append(Margin("arc", arc_margin, sigma))
    line = line_of_fire(scene, options, shooter, target, friends)
    if line.blocked_by:
        shot.reasons.append(Reason.LINE_BLOCKED)
        shot.blocked_by = line.blocked_by
    if math.isfinite(line.margin_mm):
        margins.append(Margin("line", line.margin_mm, line.sigma_mm))
    seen = sight(scene, options, shooter, target)
    shot.visible = seen.visible
    if not seen.visible:
        shot.reasons.append(Reason.NOT_VISIBLE)
    if seen.margin_mm is not None:
        margins.append(Margin("sight", seen.margin_mm, sigma))
    shot.margins = tuple(margins)
    return shot


def _nearest_warnings(
    scene: Scene,
    options: SmoothAndRifledOptions,
    shooter: Figure,
    target: Figure,
    arc_deg: float,
    friends: list[str],
) -> list[str]:
    """Warnings for "shoot the nearest target first": nearer enemies in sight."""
    gaps = gap_matrix(scene)
    si = index_of(scene, shooter.id)
    target_gap = gaps[si, index_of(scene, target.id)]
    prints = footprints(scene)
    nearer: list[str] = []
    for i, other in enumerate(scene.figures):
        if other.id == target.id or gaps[si, i] >= target_gap:
            continue
        if not scene.are_enemies(shooter.side, other.side) or other.attrs.get("shaken", False):
            continue
        if is_mounted(target) and not is_mounted(other):
            continue  # cavalry may be shot behind infantry
        if not in_arc(shooter, prints[i], arc_deg)[0]:
            continue
        if line_of_fire(scene, options, shooter, other, friends).blocked_by:
            continue
        if not sight(scene, options, shooter, other).visible:
            continue
        nearer.append(f"{other.id} ({gaps[si, i] / MM_PER_CM:.1f} cm)")
    if not nearer:
        return []
    return [
        f"shoot the nearest target first: {', '.join(nearer)} nearer than {target.id} "
        f"({target_gap / MM_PER_CM:.1f} cm)"
    ]


def _target(scene: Scene, name: str, shooters: list[Figure]) -> Figure:
    """The figure shot at: the named figure, or the named group's figure nearest the shooters."""
    group, figure = resolve(scene, name)
    if group is None:
        return figure
    gaps = gap_matrix(scene)
    rows = [index_of(scene, f.id) for f in shooters]
    return min(group.figures, key=lambda f: min(gaps[r, index_of(scene, f.id)] for r in rows))


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
