"""Choc Base 6 on a neutral surface (rule book ANNEXE 2).

Scenes with ``surface: hex`` or ``surface: square`` are answered by
:mod:`~arbitre.rules.choc_base_6.grid_questions` (cells counted in H or C).

Groups of 1-6 figures; every distance is measured in M from the head of each
group's reference figure. Readings chosen where the book is silent:

* a figure is a disc of diameter ``thickness_mm``; two groups are in contact
  when the gap between their reference figures is less than a thickness, i.e.
  their centres are less than two thicknesses apart;
* figures of one side chained by such gaps form a group (how `groups` finds the
  groups of figures that do not declare one);
* a group's footprint (what blocks a fire line or a move) is the convex hull of
  its figures' bases; a group known only by its reference figure is a disc of
  ``group_radius_mm`` around it (``attrs.alone: true`` marks a true lone figure);
* a group with no reference figure (eliminated, §2.2, or its marker unseen) is
  still a group and still blocks; a question that measures from its reference
  answers ``no_reference`` (or refuses, when its answer has no reasons);
* a shot reaches 3 M; a sniper's shot 5 M, and beyond 3 M only snipers' PI count;
* impassable ground and buildings block; the book gives terrain no cost, so
  difficult ground and woods cost double to cross only under the house rule
  ``terrain_cost: double``; other terrain does not change a CB6 move.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import shapely

from arbitre.rules import pathing
from arbitre.rules.answer_kinds import reach_answer_of
from arbitre.rules.answers import (
    FireAnswer,
    GroupsAnswer,
    ImpactAnswer,
    Margin,
    MoveAnswer,
    PotentialsAnswer,
    ReachAnswer,
    Reason,
    Said,
    Unit,
    allowance_verdict,
    refusing,
    warning_lines,
    with_certainty,
)
from arbitre.rules.choc_base_6.activation import (
    RegroupAnswer,
    TurnOrderAnswer,
    regroup_answer,
    turn_order_answer,
)
from arbitre.rules.choc_base_6.book import (
    NUMBERS,
    SHOOTER_TYPE,
    TOUCH_MM,
    BonusTo,
    ImpactAction,
    figure_pa,
    figure_pi,
    impact_answer,
    is_sniper,
    potentials_answer,
)
from arbitre.rules.choc_base_6.neutral_groups import (
    Group,
    NoReference,
    figure_radius,
    find_groups,
    is_group,
    measure_point,
    moving_figures,
    reference_of,
)
from arbitre.rules.choc_base_6.neutral_messages import fire_message, move_message
from arbitre.rules.choc_base_6.neutral_obstacles import enemy_contact, line_blockers, move_field
from arbitre.rules.choc_base_6.options import options_of
from arbitre.rules.choc_base_6.questions import cb6_questions
from arbitre.rules.errors import QuestionError
from arbitre.rules.geometry import centre_distance_mm
from arbitre.rules.model import Figure, Scene, sigma_between
from arbitre.rules.options import Bonus, Die, Name, SideDice
from arbitre.rules.ruleset import Gap, Measure, MeasuringRuleset, Question, coordinate_mm
from arbitre.rules.terrain import straight_cost_mm, terrain_cost_notes

_FIRE_CHECKS = {Reason.OUT_OF_RANGE: "range", Reason.LINE_BLOCKED: "line"}
"""The margin each refusal of a shot rests on."""


class ChocBase6Neutral(MeasuringRuleset):
    """Choc Base 6 on a neutral surface, distances in M from reference figures' heads."""

    name = "choc-base-6"
    contact_up_to = False  # "contact under" a thickness of figures

    def unit(self, scene: Scene) -> Unit:
        return Unit("M", options_of(scene).unit_mm)

    def questions(self) -> Mapping[str, Question]:
        return cb6_questions(self, grid=False)

    # --- questions ---------------------------------------------------------------------

    def measure(self, scene: Scene, a: str, b: str) -> Measure:
        grouping = find_groups(scene)
        first, second = measure_point(scene, grouping, a), measure_point(scene, grouping, b)
        both_references = all(
            f.reference or is_group(grouping, n) for f, n in ((first, a), (second, b))
        )
        distance_mm = centre_distance_mm(first.xy, second.xy)
        return Measure(first, second, distance_mm, "reference" if both_references else "head")

    def gap(self, scene: Scene, a: str, b: str) -> Gap:
        """Two groups touch when their reference figures stand less than a thickness of
        figures (``thickness_mm``) apart beyond a thickness: the gap is their distance less
        one thickness, in contact under one thickness."""
        thickness_mm = options_of(scene).thickness_mm
        grouping = find_groups(scene)
        first, second = grouping.named(scene, a), grouping.named(scene, b)
        if first.name == second.name:
            raise QuestionError(f"{a!r} and {b!r} are the same group {first.name!r}")
        _, gap_mm, _ = _contact(first, second, thickness_mm)
        return Gap(reference_of(first), reference_of(second), gap_mm, thickness_mm)

    def fire(self, scene: Scene, a: str, b: str) -> FireAnswer:
        options = options_of(scene)
        unit = self.unit(scene)
        grouping = find_groups(scene)
        shooter, target = grouping.named(scene, a), grouping.named(scene, b)
        if shooter.name == target.name:
            raise QuestionError(f"{a!r} and {b!r} are the same group {shooter.name!r}")
        reasons: list[Reason] = []
        margins: list[Margin] = []
        warnings: list[str] = []

        if not scene.are_enemies(shooter.side, target.side):
            reasons.append(Reason.TARGET_NOT_ENEMY)
        shooters = [f for f in shooter.figures if f.type == SHOOTER_TYPE]
        if not shooters:
            reasons.append(Reason.NO_SHOOTERS)
        if shooter.reference is None or target.reference is None:
            return self._fire_unmeasured(scene, shooter, target, reasons, shooters)

        for group, code in (
            (shooter, Reason.IN_CONTACT_WITH_ENEMY),
            (target, Reason.TARGET_IN_CONTACT),
        ):
            touching, margin, unknown = enemy_contact(scene, grouping, group, options)
            if touching:
                reasons.append(code)
            if margin is not None:
                margins.append(margin)
            warnings.extend(_unknown_contact(group, unknown))

        distance_mm = centre_distance_mm(shooter.reference.xy, target.reference.xy)
        sigma = sigma_between(shooter.reference, target.reference)
        range_mm = unit.to_mm(NUMBERS.range_units)
        sniper_range_mm = unit.to_mm(NUMBERS.sniper_range_units)
        snipers = [f for f in shooters if is_sniper(f)]
        band: str | None
        counted = shooters
        if distance_mm <= range_mm:
            band = "normal"
            margins.append(Margin("range", range_mm - distance_mm, sigma))
        elif snipers and distance_mm <= sniper_range_mm:
            band = "sniper"
            counted = snipers
            margins.append(Margin("range", sniper_range_mm - distance_mm, sigma))
            margins.append(Margin("band", distance_mm - range_mm, sigma))
            warnings.append(
                Said(
                    "snipers_only",
                    "beyond {units} {unit} only the snipers' PI counts",
                    units=f"{NUMBERS.range_units:g}",
                    unit=unit.name,
                )
            )
        else:
            band = None
            reasons.append(Reason.OUT_OF_RANGE)
            reach_mm = sniper_range_mm if snipers else range_mm
            margins.append(Margin("range", distance_mm - reach_mm, sigma))

        blocked_by, line_margin = line_blockers(scene, grouping, shooter, target, options)
        if blocked_by:
            reasons.append(Reason.LINE_BLOCKED)
        if line_margin is not None:
            margins.append(line_margin)

        pi_total = sum(figure_pi(f) for f in counted)
        allowed = not reasons
        text = fire_message(
            shooter, target, allowed, reasons, distance_mm, unit, blocked_by, pi_total
        )
        # a refusal rests on the check that failed (out of range: the range, not the line)
        checks = {
            **_FIRE_CHECKS,  # and each side's own contact (the other's is no refusal)
            Reason.IN_CONTACT_WITH_ENEMY: f"contact {shooter.name}-",
            Reason.TARGET_IN_CONTACT: f"contact {target.name}-",
        }
        decisive = refusing(margins, reasons, checks) if reasons else tuple(margins)
        return FireAnswer(
            question="fire",
            message=with_certainty(text, *decisive),
            margins=decisive,
            shooter=shooter.name,
            target=target.name,
            allowed=allowed,
            reasons=tuple(reasons),
            distance_mm=distance_mm,
            distance_units=unit.from_mm(distance_mm),
            unit=unit.name,
            band=band,
            blocked_by=tuple(blocked_by),
            cover=(),
            warnings=tuple(warnings),
            shooters=tuple(f.id for f in counted),
            pi=pi_total if allowed else 0,
        )

    def _fire_unmeasured(
        self,
        scene: Scene,
        shooter: Group,
        target: Group,
        reasons: list[Reason],
        shooters: list[Figure],
    ) -> FireAnswer:
        """A shot from or at a group with no reference figure: nothing can be measured."""
        unit = self.unit(scene)
        reasons.append(Reason.NO_REFERENCE)
        missing = [g.name for g in (shooter, target) if g.reference is None]
        text = fire_message(shooter, target, False, reasons, math.nan, unit, (), 0, missing)
        return FireAnswer(
            question="fire",
            message=text,
            shooter=shooter.name,
            target=target.name,
            allowed=False,
            reasons=tuple(reasons),
            distance_mm=math.nan,
            distance_units=math.nan,
            unit=unit.name,
            band=None,
            warnings=(),
            shooters=tuple(f.id for f in shooters),
            pi=0,
        )

    def move(self, scene: Scene, a: str, x: str, y: str) -> MoveAnswer:
        options = options_of(scene)
        unit = self.unit(scene)
        goal = np.array([coordinate_mm(x, "X"), coordinate_mm(y, "Y")])
        grouping = find_groups(scene)
        movers, mover = moving_figures(scene, grouping, a)
        allowance_units = min(figure_pa(f) for f in movers)
        allowance_mm = unit.to_mm(allowance_units)
        if mover is None:
            name = grouping.of_figure(movers[0].id).name
            return MoveAnswer(
                question="move",
                message=f"{a} may not move there: group {name} has no reference figure "
                "to measure the move from (move one of its figures alone, or mark its reference)",
                mover=a,
                legal=False,
                reasons=(Reason.NO_REFERENCE,),
                cost_mm=math.nan,
                cost_units=math.nan,
                allowance_mm=allowance_mm,
                allowance_units=float(allowance_units),
                unit=unit.name,
            )
        radius_mm = figure_radius(mover, options)
        moving_ids = {f.id for f in movers}
        field = move_field(scene, moving_ids, mover, options)

        reasons: list[Reason] = []
        margins: list[Margin] = []
        if not (
            radius_mm <= goal[0] <= scene.table.width_mm - radius_mm
            and radius_mm <= goal[1] <= scene.table.depth_mm - radius_mm
        ):
            reasons.append(Reason.OFF_TABLE)
        centre = shapely.Point(goal)
        if any(p.polygon.distance(centre) < radius_mm - TOUCH_MM for p in field.polygons):
            reasons.append(Reason.IMPASSABLE)
        occupied = [
            f.id
            for f in scene.figures
            if f.id not in moving_ids
            and centre_distance_mm(f.xy, goal) < radius_mm + figure_radius(f, options)
        ]
        if occupied:
            reasons.append(Reason.DESTINATION_OCCUPIED)

        straight_mm = centre_distance_mm(mover.xy, goal)
        if reasons:  # no way to a place the figure may not stand on
            path = pathing.Path(False, math.inf, math.inf, np.empty((0, 2)), ())
        else:
            path = pathing.shortest_path(field, mover.xy, goal, radius_mm, max_cost_mm=allowance_mm)
            refused = allowance_verdict(
                path.found,
                path.cost_mm,
                bool(path.blocked_by),
                allowance_mm,
                lambda: straight_cost_mm(field, mover.xy, goal, radius_mm),
            )
            if refused is not None:
                reasons.append(refused)
            if path.found:
                margins.append(
                    Margin("allowance", abs(allowance_mm - path.cost_mm), mover.sigma_mm)
                )
        legal = not reasons
        cost_mm = path.cost_mm if path.found else math.inf
        text = move_message(
            a,
            legal,
            reasons,
            cost_mm,
            allowance_units,
            straight_mm,
            unit,
            path.blocked_by,
            occupied,
        )
        notes = terrain_cost_notes(options.terrain_cost)
        return MoveAnswer(
            question="move",
            message=with_certainty(text, *margins) + warning_lines(notes),
            margins=tuple(margins),
            mover=a,
            legal=legal,
            reasons=tuple(reasons),
            cost_mm=cost_mm,
            cost_units=unit.from_mm(cost_mm),
            allowance_mm=allowance_mm,
            allowance_units=float(allowance_units),
            unit=unit.name,
            path_mm=tuple((float(px), float(py)) for px, py in path.points_mm),
            blocked_by=tuple(path.blocked_by) + tuple(occupied),
            warnings=notes,
        )

    def reach(self, scene: Scene, a: str) -> ReachAnswer:
        options = options_of(scene)
        unit = self.unit(scene)
        grouping = find_groups(scene)
        movers, mover = moving_figures(scene, grouping, a)
        if mover is None:
            raise NoReference(grouping.of_figure(movers[0].id))
        radius_mm = figure_radius(mover, options)
        allowance_units = min(figure_pa(f) for f in movers)
        allowance_mm = unit.to_mm(allowance_units)
        field = move_field(scene, {f.id for f in movers}, mover, options)
        area = pathing.reachable_area(field, mover.xy, radius_mm, allowance_mm)
        return reach_answer_of(
            ReachAnswer,
            a,
            area,
            (allowance_mm, float(allowance_units), unit.name),
            within=f"within {allowance_units} {unit.name}",
            warnings=terrain_cost_notes(options.terrain_cost),
        )

    def groups(self, scene: Scene) -> GroupsAnswer:
        grouping = find_groups(scene)
        listing = ", ".join(f"{g.name} ({len(g.figures)})" for g in grouping.groups)
        return GroupsAnswer(
            question="groups",
            message=f"{len(grouping.groups)} groups: {listing}" + warning_lines(grouping.warnings),
            groups={g.name: list(g.ids) for g in grouping.groups},
            references={g.name: g.reference.id if g.reference else None for g in grouping.groups},
            sides={g.name: g.side for g in grouping.groups},
            warnings=grouping.warnings,
        )

    def impact(
        self,
        scene: Scene,
        a: str,
        b: str,
        action: ImpactAction = "fire",
        die: Die | None = None,
        bonus: Bonus = 0,
        bonus_to: BonusTo = "pi",
    ) -> ImpactAnswer:
        grouping = find_groups(scene)
        attacker, target = grouping.named(scene, a), grouping.named(scene, b)
        measured = attacker.reference is not None and target.reference is not None
        return impact_answer(
            attacker,
            target,
            action,
            die,
            bonus,
            fire=lambda: self.fire(scene, a, b),
            in_contact=lambda: self.contact(scene, a, b).contact if measured else None,
            bonus_to=bonus_to,
            enemies=scene.are_enemies(attacker.side, target.side),
        )

    def potentials(self, scene: Scene, a: str) -> PotentialsAnswer:
        return potentials_answer(find_groups(scene).named(scene, a), self.unit(scene))

    def regroup(self, scene: Scene, a: str, b: str, manager: Name | None = None) -> RegroupAnswer:
        """Regrouping two friendly groups (§4.2): in contact, neither touching an enemy."""
        options = options_of(scene)
        grouping = find_groups(scene)
        first, second = grouping.named(scene, a), grouping.named(scene, b)
        if first.name == second.name:
            raise QuestionError(f"{a!r} and {b!r} are the same group {first.name!r}")
        found: list[tuple[Reason, str]] = []
        margins: list[Margin] = []
        warnings: list[str] = []
        if scene.are_enemies(first.side, second.side):
            found.append((Reason.NOT_FRIENDLY, f" ({first.side} and {second.side})"))
        missing = [g.name for g in (first, second) if g.reference is None]
        if missing:
            found.append((Reason.NO_REFERENCE, f" ({', '.join(missing)})"))
        else:
            touching, gap_mm, margin = _contact(first, second, options.thickness_mm)
            margins.append(margin)
            if not touching:
                found.append(
                    (
                        Reason.NOT_IN_CONTACT,
                        f" (reference figures {gap_mm:.1f} mm apart, "
                        f"contact under {options.thickness_mm:g} mm)",
                    )
                )
        for group in (first, second):
            if group.reference is None:
                continue
            touching, nearest, unknown = enemy_contact(scene, grouping, group, options)
            if nearest is not None:
                margins.append(nearest)
                if touching:
                    found.append((Reason.IN_CONTACT_WITH_ENEMY, f" ({nearest.what})"))
            warnings.extend(_unknown_contact(group, unknown))
        return regroup_answer(first, second, found, margins, warnings, manager)

    def turn_order(self, scene: Scene, dice: SideDice | None = None) -> TurnOrderAnswer:
        """Who activates first this turn (§3): the side with the most groups; ties by 1D6."""
        grouping = find_groups(scene)
        return turn_order_answer(grouping.groups, dice, grouping.warnings)


def _contact(first: Group, second: Group, thickness_mm: float) -> tuple[bool, float, Margin]:
    """Whether two groups touch (reference gap < a thickness), their gap and the margin."""
    one, other = reference_of(first), reference_of(second)
    gap_mm = centre_distance_mm(one.xy, other.xy) - thickness_mm
    margin = Margin("contact", abs(thickness_mm - gap_mm), sigma_between(one, other))
    return gap_mm < thickness_mm, gap_mm, margin


def _unknown_contact(group: Group, unknown: list[str]) -> list[Said]:
    return [
        Said(
            "contact_unknown",
            "{group} may be in contact with {other}, which has no reference figure to measure from",
            group=group.name,
            other=name,
        )
        for name in unknown
    ]
