"""Choc Base 6 on a neutral surface (rules digest §1, rule book ANNEXE 2).

Scenes with ``surface: hex`` or ``surface: square`` are answered by
`rules.cb6_grid` (cells counted in H or C).

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
* a shot reaches 3 M; a sniper's shot 5 M, and beyond 3 M only snipers' PI count;
* difficult ground and woods cost double to cross; impassable ground and
  buildings block; other terrain does not change a CB6 move.
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Protocol

import numpy as np
import shapely
from pydantic import BaseModel, ConfigDict, Field
from scipy.cluster.hierarchy import DisjointSet

from rules import pathing
from rules.answers import (
    Answer,
    ContactAnswer,
    DistanceAnswer,
    FireAnswer,
    GroupsAnswer,
    ImpactAnswer,
    Margin,
    MoveAnswer,
    PotentialsAnswer,
    ReachAnswer,
    Reason,
    Unit,
    combined_sigma,
    with_certainty,
)
from rules.errors import QuestionError, SceneError
from rules.geometry import centre_distance_mm, disc_hulls, line_penetration_mm, ring_points
from rules.model import Figure, Scene, TerrainKind
from rules.ruleset import Question, Ruleset, coordinate_mm, scene_options
from rules.terrain import straight_cost_mm, terrain_regions


@dataclass(frozen=True, slots=True)
class Numbers:
    """The rule book's numbers (§2.3.2, Action « Tir », ANNEXE 1)."""

    pj: int = 2
    pa: int = 2
    pi: int = 2
    wounded_pa: int = 1
    wounded_pi: int = 1
    wounded_pj: int = 1
    range_units: float = 3.0
    sniper_range_units: float = 5.0
    max_group_size: int = 6
    die_faces: int = 6


NUMBERS = Numbers()
COSTLY_TERRAIN = {TerrainKind.DIFFICULT: 2.0, TerrainKind.WOOD: 2.0}
BLOCKING_TERRAIN = (TerrainKind.IMPASSABLE, TerrainKind.BUILDING)
TOUCH_MM = 1e-6  # bases closer than this to touching count as touching, not overlapping
SHOOTER_TYPE = "TD"
CLOSE_COMBAT_TYPE = "CR"


Finite = Annotated[float, Field(allow_inf_nan=False)]


class ChocBase6Options(BaseModel):
    """``options:`` of a CB6 scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    surface: Literal["neutral", "hex", "square"] = "neutral"
    unit_mm: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 100.0
    thickness_mm: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 25.0
    group_radius_mm: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = None
    hex_mm: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = None
    square_mm: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = None
    contact_tolerance_mm: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 2.0
    # Grids (see rules.cb6_grid): the centre of cell (0, 0), table mm (default: half a
    # cell from the table corner on both axes), the grid's turn counter-clockwise, and
    # whether hexes have a point (neighbours along x) or a flat side (along y) upwards.
    grid_origin_mm: tuple[Finite, Finite] | None = None
    grid_rotation_deg: Finite = 0.0
    hex_orientation: Literal["pointy", "flat"] = "pointy"

    @property
    def group_footprint_radius_mm(self) -> float:
        return self.group_radius_mm if self.group_radius_mm is not None else 1.5 * self.thickness_mm

    @property
    def contact_distance_mm(self) -> float:
        """Centre distance under which two reference figures are in contact (2 thicknesses)."""
        return 2.0 * self.thickness_mm


@dataclass(frozen=True, slots=True)
class Group:
    """A CB6 group: its figures, side and reference figure."""

    name: str
    side: str
    figures: tuple[Figure, ...]
    reference: Figure
    declared: bool

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(figure.id for figure in self.figures)


@dataclass(frozen=True, slots=True)
class Grouping:
    groups: tuple[Group, ...]
    warnings: tuple[str, ...]

    def by_name(self, name: str) -> Group | None:
        return next((group for group in self.groups if group.name == name), None)

    def of_figure(self, figure_id: str) -> Group:
        return next(group for group in self.groups if figure_id in group.ids)


# --- figure potentials -----------------------------------------------------------------


def _bonus(figure: Figure, key: str) -> int:
    value = figure.attrs.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise QuestionError(f"figure {figure.id!r}: attrs.{key} must be an integer, got {value!r}")
    return value


def figure_pa(figure: Figure) -> int:
    """Advance potential: 2, 1 when wounded, plus ``attrs.pa_bonus`` kept in full.

    >>> figure_pa(Figure("rider", "blue", 0, 0, wounded=True, attrs={"pa_bonus": 2}))
    3
    """
    base = NUMBERS.wounded_pa if figure.wounded else NUMBERS.pa
    return base + _bonus(figure, "pa_bonus")


def figure_pi(figure: Figure) -> int:
    """Impact potential: 2, 1 when wounded, plus ``attrs.pi_bonus``."""
    base = NUMBERS.wounded_pi if figure.wounded else NUMBERS.pi
    return base + _bonus(figure, "pi_bonus")


def figure_pj(figure: Figure) -> int:
    return NUMBERS.wounded_pj if figure.wounded else NUMBERS.pj


def is_sniper(figure: Figure) -> bool:
    return bool(figure.attrs.get("sniper", False))


def impact(pi_total: int, die: int) -> int:
    """Impact of a shot or a close combat: PI total less the die, a die above the total counting 0.

    >>> [impact(3, die) for die in range(1, 7)]
    [2, 1, 0, 3, 3, 3]
    """
    if not 1 <= die <= NUMBERS.die_faces:
        raise QuestionError(f"a die shows 1 to {NUMBERS.die_faces}, got {die!r}")
    return pi_total - die if die <= pi_total else pi_total


def impact_distribution(pi_total: int) -> dict[int, int]:
    """How many of the six faces give each impact.

    >>> impact_distribution(8)
    {2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1}
    """
    counts: dict[int, int] = defaultdict(int)
    for die in range(1, NUMBERS.die_faces + 1):
        counts[impact(pi_total, die)] += 1
    return dict(sorted(counts.items()))


# --- the ruleset -----------------------------------------------------------------------


class ChocBase6(Ruleset):
    """Choc Base 6 on a neutral surface, distances in M from reference figures' heads."""

    name = "choc-base-6"
    aliases = ("cb6", "chocbase6", "choc-base6")

    def parse_options(self, raw: Mapping[str, Any]) -> ChocBase6Options:
        return ChocBase6Options.model_validate(dict(raw))

    def unit(self, scene: Scene) -> Unit:
        if _options(scene).surface != "neutral":
            from rules.cb6_grid import grid_unit

            return grid_unit(scene)
        return Unit("M", _options(scene).unit_mm)

    def ask(
        self,
        scene: Scene,
        question: str,
        args: Sequence[str],
        extras: Mapping[str, Any] | None = None,
    ) -> Answer:
        """Hex and square surfaces are answered by `rules.cb6_grid`."""
        if _options(scene).surface != "neutral":
            from rules.cb6_grid import GRID

            return GRID.ask(scene, question, args, extras)
        return super().ask(scene, question, args, extras)

    def validate(self, scene: Scene) -> None:
        options = _options(scene)
        for index, figure in enumerate(scene.figures):
            if figure.type is not None and figure.type not in (SHOOTER_TYPE, CLOSE_COMBAT_TYPE):
                raise SceneError(
                    scene.source,
                    f"figures[{index}].type",
                    f"CB6 figures are 'TD' or 'CR', got {figure.type!r}",
                )
            for key in ("pa_bonus", "pi_bonus"):
                value = figure.attrs.get(key, 0)
                if isinstance(value, bool) or not isinstance(value, int):
                    raise SceneError(
                        scene.source,
                        f"figures[{index}].attrs.{key}",
                        f"expected an integer, got {value!r}",
                    )
        if options.surface != "neutral":
            from rules.cb6_grid import validate_grid

            validate_grid(scene)  # the cell size is given; one group per cell
            return
        find_groups(scene)  # raises on groups without a reference figure

    def questions(self) -> Mapping[str, Question]:
        return {
            "distance": Question(
                "distance", ("A", "B"), "reference-to-reference distance", self.distance
            ),
            "contact": Question("contact", ("A", "B"), "are two groups in contact", self.contact),
            "fire": Question("fire", ("A", "B"), "may group A shoot at group B", self.fire),
            "move": Question("move", ("A", "X", "Y"), "may A move to (X, Y) mm", self.move),
            "reach": Question("reach", ("A",), "where may A move", self.reach),
            "groups": Question("groups", (), "the groups on the table", self.groups),
            "impact": Question("impact", ("A", "B"), "the impact of A on B", self.impact),
            "potentials": Question(
                "potentials", ("A",), "PJ, PA and PI of a group", self.potentials
            ),
        }

    # --- questions ---------------------------------------------------------------------

    def distance(self, scene: Scene, a: str, b: str) -> DistanceAnswer:
        grouping = find_groups(scene)
        first, second = _point(scene, grouping, a), _point(scene, grouping, b)
        distance_mm = centre_distance_mm(first.xy, second.xy)
        unit = self.unit(scene)
        both_references = all(
            f.reference or _is_group(grouping, n) for f, n in ((first, a), (second, b))
        )
        sigma = combined_sigma(first.sigma_mm, second.sigma_mm)
        units = unit.from_mm(distance_mm)
        return DistanceAnswer(
            question="distance",
            message=f"{a} to {b}: {units:.2f} {unit.name} ({distance_mm:.1f} mm)"
            + (f" ± {sigma:.1f} mm" if sigma else ""),
            a=a,
            b=b,
            distance_mm=distance_mm,
            distance_units=units,
            unit=unit.name,
            mode="reference" if both_references else "head",
            sigma_mm=sigma,
        )

    def contact(self, scene: Scene, a: str, b: str) -> ContactAnswer:
        options = _options(scene)
        grouping = find_groups(scene)
        first, second = _group(scene, grouping, a), _group(scene, grouping, b)
        if first.name == second.name:
            raise QuestionError(f"{a!r} and {b!r} are the same group {first.name!r}")
        distance_mm = centre_distance_mm(first.reference.xy, second.reference.xy)
        gap_mm = distance_mm - options.thickness_mm
        touching = gap_mm < options.thickness_mm
        margin = Margin(
            "contact",
            abs(options.thickness_mm - gap_mm),
            combined_sigma(first.reference.sigma_mm, second.reference.sigma_mm),
        )
        verdict = "in contact" if touching else "not in contact"
        return ContactAnswer(
            question="contact",
            message=with_certainty(
                f"{first.name} and {second.name} are {verdict}: the reference figures are "
                f"{gap_mm:.1f} mm apart (contact under {options.thickness_mm:g} mm)",
                margin,
            ),
            margins=(margin,),
            a=a,
            b=b,
            contact=touching,
            gap_mm=gap_mm,
            threshold_mm=options.thickness_mm,
        )

    def fire(self, scene: Scene, a: str, b: str) -> FireAnswer:
        options = _options(scene)
        unit = self.unit(scene)
        grouping = find_groups(scene)
        shooter, target = _group(scene, grouping, a), _group(scene, grouping, b)
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

        for group, code in (
            (shooter, Reason.IN_CONTACT_WITH_ENEMY),
            (target, Reason.TARGET_IN_CONTACT),
        ):
            touching, margin = _enemy_contact(scene, grouping, group, options)
            if touching:
                reasons.append(code)
            if margin is not None:
                margins.append(margin)

        distance_mm = centre_distance_mm(shooter.reference.xy, target.reference.xy)
        sigma = combined_sigma(shooter.reference.sigma_mm, target.reference.sigma_mm)
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
                f"beyond {NUMBERS.range_units:g} {unit.name} only the snipers' PI counts"
            )
        else:
            band = None
            reasons.append(Reason.OUT_OF_RANGE)
            reach_mm = sniper_range_mm if snipers else range_mm
            margins.append(Margin("range", distance_mm - reach_mm, sigma))

        blocked_by, line_margin = _line_blockers(scene, grouping, shooter, target, options)
        if blocked_by:
            reasons.append(Reason.LINE_BLOCKED)
        if line_margin is not None:
            margins.append(line_margin)

        pi_total = sum(figure_pi(f) for f in counted)
        allowed = not reasons
        text = _fire_message(
            shooter, target, allowed, reasons, distance_mm, unit, blocked_by, pi_total
        )
        decisive = tuple(margins)
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

    def move(self, scene: Scene, a: str, x: str, y: str) -> MoveAnswer:
        options = _options(scene)
        unit = self.unit(scene)
        goal = np.array([coordinate_mm(x, "X"), coordinate_mm(y, "Y")])
        grouping = find_groups(scene)
        movers, mover = _movers(scene, grouping, a)
        radius_mm = _figure_radius(mover, options)
        allowance_units = min(figure_pa(f) for f in movers)
        allowance_mm = unit.to_mm(allowance_units)
        moving_ids = {f.id for f in movers}
        field = _field(scene, grouping, moving_ids, mover, options)

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
            and centre_distance_mm(f.xy, goal) < radius_mm + _figure_radius(f, options)
        ]
        if occupied:
            reasons.append(Reason.DESTINATION_OCCUPIED)

        straight_mm = centre_distance_mm(mover.xy, goal)
        if reasons:  # no way to a place the figure may not stand on
            path = pathing.Path(False, math.inf, math.inf, np.empty((0, 2)), ())
        else:
            path = pathing.shortest_path(field, mover.xy, goal, radius_mm, max_cost_mm=allowance_mm)
            if not path.found:
                reasons.append(Reason.PATH_BLOCKED)
            elif path.cost_mm > allowance_mm:
                straight_cost = straight_cost_mm(field, mover.xy, goal)
                reasons.append(
                    Reason.PATH_BLOCKED
                    if path.blocked_by and straight_cost <= allowance_mm
                    else Reason.OVER_ALLOWANCE
                )
            if path.found:
                margins.append(
                    Margin("allowance", abs(allowance_mm - path.cost_mm), mover.sigma_mm)
                )
        legal = not reasons
        cost_mm = path.cost_mm if path.found else math.inf
        text = _move_message(
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
        return MoveAnswer(
            question="move",
            message=with_certainty(text, *margins),
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
        )

    def reach(self, scene: Scene, a: str) -> ReachAnswer:
        options = _options(scene)
        unit = self.unit(scene)
        grouping = find_groups(scene)
        movers, mover = _movers(scene, grouping, a)
        radius_mm = _figure_radius(mover, options)
        allowance_units = min(figure_pa(f) for f in movers)
        allowance_mm = unit.to_mm(allowance_units)
        field = _field(scene, grouping, {f.id for f in movers}, mover, options)
        area = pathing.reachable_area(field, mover.xy, radius_mm, allowance_mm)
        polygons = list(getattr(area, "geoms", [area])) if not area.is_empty else []
        return ReachAnswer(
            question="reach",
            message=f"{a} may move anywhere in {len(polygons)} area(s) of "
            f"{area.area / 1e4:.0f} cm² within {allowance_units} {unit.name}",
            mover=a,
            area_mm2=float(area.area),
            polygons_mm=tuple(ring_points(p.exterior.coords) for p in polygons),
            holes_mm=tuple(tuple(ring_points(h.coords) for h in p.interiors) for p in polygons),
            allowance_mm=allowance_mm,
            allowance_units=float(allowance_units),
            unit=unit.name,
        )

    def groups(self, scene: Scene) -> GroupsAnswer:
        grouping = find_groups(scene)
        listing = ", ".join(f"{g.name} ({len(g.figures)})" for g in grouping.groups)
        return GroupsAnswer(
            question="groups",
            message=f"{len(grouping.groups)} groups: {listing}"
            + "".join(f"\nwarning: {w}" for w in grouping.warnings),
            groups={g.name: list(g.ids) for g in grouping.groups},
            references={g.name: g.reference.id for g in grouping.groups},
            sides={g.name: g.side for g in grouping.groups},
            warnings=grouping.warnings,
        )

    def impact(
        self,
        scene: Scene,
        a: str,
        b: str,
        action: str = "fire",
        die: int | None = None,
        bonus: int = 0,
    ) -> ImpactAnswer:
        grouping = find_groups(scene)
        attacker, target = _group(scene, grouping, a), _group(scene, grouping, b)
        return impact_answer(
            attacker,
            target,
            action,
            die,
            bonus,
            fire=lambda: self.fire(scene, a, b),
            in_contact=lambda: self.contact(scene, a, b).contact,
        )

    def potentials(self, scene: Scene, a: str) -> PotentialsAnswer:
        return potentials_answer(_group(scene, find_groups(scene), a), self.unit(scene))


def impact_answer(
    attacker: GroupLike,
    target: GroupLike,
    action: str,
    die: int | None,
    bonus: int,
    fire: Callable[[], FireAnswer],
    in_contact: Callable[[], bool],
) -> ImpactAnswer:
    """The impact of a shot or a close combat, on any CB6 surface.

    ``fire`` and ``in_contact`` ask the surface's own rules whether the action is
    allowed; the arithmetic is the same everywhere.
    """
    warnings: list[str] = []
    if action == "fire":
        verdict = fire()
        counted = [f for f in attacker.figures if f.id in verdict.shooters]
        if not verdict.allowed:
            codes = ", ".join(verdict.reasons)
            warnings.append(f"{attacker.name} may not shoot at {target.name} ({codes})")
    elif action == "close":
        counted = [f for f in attacker.figures if f.type == CLOSE_COMBAT_TYPE]
        if not in_contact():
            warnings.append(f"{attacker.name} is not in contact with {target.name}")
    else:
        raise QuestionError(f"action must be 'fire' or 'close', got {action!r}")
    pi_total = sum(figure_pi(f) for f in counted) + bonus
    what = "shot" if action == "fire" else "close combat"
    spread: dict[int, int] | None = None
    result: int | None = None
    if die is None:
        spread = impact_distribution(pi_total)
        listing = ", ".join(f"{value}: {faces}/6" for value, faces in spread.items())
        text = f"{what} of {attacker.name} on {target.name}: PI {pi_total}; impact {listing}"
    else:
        result = impact(pi_total, die)
        text = (
            f"{what} of {attacker.name} on {target.name}: PI {pi_total}, die {die}"
            f" -> impact {result}"
        )
    return ImpactAnswer(
        question="impact",
        message=text + "".join(f"\nwarning: {w}" for w in warnings),
        attacker=attacker.name,
        target=target.name,
        action=action,
        pi=pi_total,
        counted=tuple(f.id for f in counted),
        die=die,
        impact=result,
        distribution=spread,
        warnings=tuple(warnings),
    )


def potentials_answer(group: GroupLike, unit: Unit, where: str = "") -> PotentialsAnswer:
    """PJ, PA and PI of a group (rule book §2.3.2), on any CB6 surface."""
    pj = sum(figure_pj(f) for f in group.figures)
    pa = min(figure_pa(f) for f in group.figures)
    pi_fire = sum(figure_pi(f) for f in group.figures if f.type == SHOOTER_TYPE)
    pi_close = sum(figure_pi(f) for f in group.figures if f.type == CLOSE_COMBAT_TYPE)
    return PotentialsAnswer(
        question="potentials",
        message=f"{group.name}{where}: {pj} PJ, PA {pa}, PI {pi_fire} shooting, "
        f"PI {pi_close} close combat",
        group=group.name,
        figures=tuple(f.id for f in group.figures),
        pj=pj,
        pa=pa,
        pa_mm=unit.to_mm(pa),
        pi_fire=pi_fire,
        pi_close=pi_close,
        unit=unit.name,
    )


class GroupLike(Protocol):
    """What the impact arithmetic needs of a group: its name and figures."""

    @property
    def name(self) -> str: ...

    @property
    def figures(self) -> tuple[Figure, ...]: ...


# --- groups ----------------------------------------------------------------------------


def _options(scene: Scene) -> ChocBase6Options:
    return scene_options(scene, ChocBase6Options)


@functools.lru_cache(maxsize=16)
def find_groups(scene: Scene) -> Grouping:
    """The groups of a CB6 scene: declared ones, and the others found by chaining.

    A figure without a ``group`` joins the figures of its side whose centres are
    less than two thicknesses from it (the gap between them less than a
    thickness), transitively; such a cluster joins the declared group it touches,
    or forms a group named after its reference figure.
    """
    options = _options(scene)
    chain_mm = options.contact_distance_mm
    figures = scene.figures
    chains: DisjointSet[int] = DisjointSet(range(len(figures)))
    xy = np.array([f.xy for f in figures]).reshape(-1, 2)
    for i, j in _close_pairs(xy, chain_mm):
        if figures[i].side == figures[j].side and (
            figures[i].group is None or figures[j].group is None
        ):
            chains.merge(i, j)

    members: dict[str, list[Figure]] = defaultdict(list)
    declared: set[str] = set()
    for figure in figures:
        if figure.group is not None:
            members[figure.group].append(figure)
            declared.add(figure.group)
    for cluster in chains.subsets():
        loose = [figures[i] for i in sorted(cluster) if figures[i].group is None]
        if not loose:
            continue
        anchors = [figures[i] for i in cluster if figures[i].group is not None]
        references = [f for f in loose if f.reference]
        if anchors:
            for figure in loose:
                nearest = min(anchors, key=lambda f: centre_distance_mm(f.xy, figure.xy))
                assert nearest.group is not None
                members[nearest.group].append(figure)
        elif len(loose) == 1:
            members[loose[0].id].append(loose[0])
        elif not references:
            names = ", ".join(f.id for f in loose)
            raise SceneError(
                scene.source,
                "figures",
                f"figures {names} stand together with no reference figure "
                "(mark one `reference: true` or declare their `group`)",
            )
        else:
            for figure in loose:
                nearest = min(references, key=lambda f: centre_distance_mm(f.xy, figure.xy))
                members[nearest.id].append(figure)

    groups: list[Group] = []
    warnings: list[str] = []
    figure_index = {f.id: i for i, f in enumerate(figures)}
    for name, crew in members.items():
        sides = sorted({f.side for f in crew})
        if len(sides) > 1:
            raise SceneError(
                scene.source, "figures", f"group {name!r} mixes sides {', '.join(sides)}"
            )
        references = [f for f in crew if f.reference]
        if len(crew) == 1 and not references:
            references = crew
        if not references:
            index = figure_index[crew[0].id]
            raise SceneError(
                scene.source, f"figures[{index}].group", f"group {name!r} has no reference figure"
            )
        if len(references) > 1:
            index = figure_index[references[1].id]
            ids = ", ".join(f.id for f in references)
            raise SceneError(
                scene.source,
                f"figures[{index}].reference",
                f"group {name!r} has several reference figures ({ids})",
            )
        if len(crew) > NUMBERS.max_group_size:
            warnings.append(
                f"group {name} has {len(crew)} figures (at most {NUMBERS.max_group_size})"
            )
        if name in declared and len(crew) > 1 and not _chained(crew, chain_mm):
            warnings.append(
                f"group {name} is not together: its figures are not all within "
                f"{options.thickness_mm:g} mm of each other"
            )
        groups.append(Group(name, sides[0], tuple(crew), references[0], name in declared))
    return Grouping(tuple(groups), tuple(warnings))


def _close_pairs(xy: np.ndarray, below_mm: float) -> list[tuple[int, int]]:
    if len(xy) < 2:
        return []
    from scipy.spatial import cKDTree

    pairs = cKDTree(xy).query_pairs(below_mm, output_type="ndarray")
    distances = np.hypot(*(xy[pairs[:, 0]] - xy[pairs[:, 1]]).T)
    return [(int(i), int(j)) for (i, j), d in zip(pairs, distances, strict=True) if d < below_mm]


def _chained(crew: Sequence[Figure], below_mm: float) -> bool:
    xy = np.array([f.xy for f in crew])
    links: DisjointSet[int] = DisjointSet(range(len(crew)))
    for i, j in _close_pairs(xy, below_mm):
        links.merge(i, j)
    return len(links.subsets()) == 1


def _is_group(grouping: Grouping, name: str) -> bool:
    return grouping.by_name(name) is not None


def _group(scene: Scene, grouping: Grouping, name: str) -> Group:
    """A group by its name, or the group of the figure so named."""
    group = grouping.by_name(name)
    if group is not None:
        return group
    if scene.figure(name) is not None:
        return grouping.of_figure(name)
    raise QuestionError(f"unknown figure or group {name!r}")


def _point(scene: Scene, grouping: Grouping, name: str) -> Figure:
    """What a distance is measured from: a group's reference figure, or the named figure."""
    group = grouping.by_name(name)
    if group is not None:
        return group.reference
    figure = scene.figure(name)
    if figure is None:
        raise QuestionError(f"unknown figure or group {name!r}")
    return figure


def _movers(scene: Scene, grouping: Grouping, name: str) -> tuple[list[Figure], Figure]:
    """The figures that move and the one whose path is measured.

    A group (or its reference figure) moves whole, measured from its reference;
    another figure named alone splits off and moves by itself.
    """
    group = grouping.by_name(name)
    if group is None:
        figure = _point(scene, grouping, name)
        group = grouping.of_figure(name)
        if not figure.reference:
            return [figure], figure
    return list(group.figures), group.reference


# --- geometry of the rules -------------------------------------------------------------


def _figure_radius(figure: Figure, options: ChocBase6Options) -> float:
    """Radius of a figure's footprint: its base, else a disc as wide as its thickness."""
    return figure.base.radius_mm if figure.base is not None else options.thickness_mm / 2


def footprint_discs(group: Group, options: ChocBase6Options) -> np.ndarray:
    """Discs (N, 3) whose convex hull is the group's footprint."""
    if len(group.figures) == 1 and not group.figures[0].attrs.get("alone", False):
        ref = group.reference
        return np.array([[ref.x_mm, ref.y_mm, options.group_footprint_radius_mm]])
    return np.array([[f.x_mm, f.y_mm, _figure_radius(f, options)] for f in group.figures])


def _enemy_contact(
    scene: Scene, grouping: Grouping, group: Group, options: ChocBase6Options
) -> tuple[bool, Margin | None]:
    """Whether a group touches an enemy group, with the margin of the nearest enemy."""
    limit = options.contact_distance_mm
    nearest: tuple[float, Group] | None = None
    for other in grouping.groups:
        if other.name == group.name or not scene.are_enemies(group.side, other.side):
            continue
        d = centre_distance_mm(group.reference.xy, other.reference.xy)
        if nearest is None or d < nearest[0]:
            nearest = (d, other)
    if nearest is None:
        return False, None
    d, other = nearest
    sigma = combined_sigma(group.reference.sigma_mm, other.reference.sigma_mm)
    return d < limit, Margin(f"contact {group.name}-{other.name}", abs(d - limit), sigma)


def _line_blockers(
    scene: Scene, grouping: Grouping, shooter: Group, target: Group, options: ChocBase6Options
) -> tuple[list[str], Margin | None]:
    """Groups whose footprint the shooter-target segment crosses, and the deciding margin."""
    p, q = shooter.reference.xy, target.reference.xy
    line_sigma = max(shooter.reference.sigma_mm, target.reference.sigma_mm)
    footprints = group_footprints(scene)
    others = [i for i, g in enumerate(grouping.groups) if g.name not in (shooter.name, target.name)]
    if not others:
        return [], None
    segment = shapely.LineString([p, q])
    hulls = footprints.hulls[others]
    crossing = shapely.intersects(segment, hulls)
    blockers: list[tuple[str, float, float]] = []
    nearest: tuple[float, float] | None = None
    for index, crosses, gap in zip(others, crossing, shapely.distance(segment, hulls), strict=True):
        group = grouping.groups[index]
        sigma = combined_sigma(line_sigma, max(f.sigma_mm for f in group.figures))
        if crosses:
            depth = line_penetration_mm(p, q, footprints.discs[index])
            blockers.append((group.name, depth, sigma))
        elif nearest is None or gap < nearest[0]:
            nearest = (float(gap), sigma)
    if blockers:
        name, depth, sigma = max(blockers, key=lambda item: item[1] - 2 * item[2])
        return [b[0] for b in blockers], Margin(f"line {name}", depth, sigma)
    if nearest is not None:
        return [], Margin("line", nearest[0], nearest[1])
    return [], None


@dataclass(frozen=True, slots=True)
class Footprints:
    """Every group's footprint discs (N, 3) and hull polygon, in ``Grouping.groups`` order."""

    discs: tuple[np.ndarray, ...]
    hulls: np.ndarray


@functools.lru_cache(maxsize=16)
def group_footprints(scene: Scene) -> Footprints:
    """The footprints of a scene's groups, computed once per scene."""
    options = _options(scene)
    discs = tuple(footprint_discs(group, options) for group in find_groups(scene).groups)
    return Footprints(discs, disc_hulls(list(discs)))


def _field(
    scene: Scene,
    grouping: Grouping,
    moving_ids: set[str],
    mover: Figure,
    options: ChocBase6Options,
) -> pathing.Field:
    """The obstacles a CB6 move meets: other groups, impassable ground, costly ground."""
    hulls = []
    for group in grouping.groups:
        staying = [f for f in group.figures if f.id not in moving_ids]
        if not staying:
            continue
        if len(staying) < len(group.figures):  # the group a figure splits from
            discs = np.array([[f.x_mm, f.y_mm, _figure_radius(f, options)] for f in staying])
        else:
            discs = footprint_discs(group, options)
        hulls.append(pathing.DiscHull(discs, group.name))
    polygons, costly = terrain_regions(scene, BLOCKING_TERRAIN, COSTLY_TERRAIN)
    return pathing.Field(
        width_mm=scene.table.width_mm,
        depth_mm=scene.table.depth_mm,
        hulls=tuple(hulls),
        polygons=polygons,
        costly=costly,
    )


# --- human sentences -------------------------------------------------------------------


_REASON_TEXT = {
    Reason.TARGET_NOT_ENEMY: "the target is not an enemy",
    Reason.NO_SHOOTERS: "no TD figure in the group",
    Reason.IN_CONTACT_WITH_ENEMY: "the shooters are in contact with an enemy group",
    Reason.TARGET_IN_CONTACT: "the target is in contact with an enemy group",
    Reason.OUT_OF_RANGE: "out of range",
    Reason.LINE_BLOCKED: "the line of fire crosses",
    Reason.OFF_TABLE: "the destination is off the table",
    Reason.IMPASSABLE: "the destination is on impassable ground",
    Reason.DESTINATION_OCCUPIED: "the destination overlaps",
    Reason.PATH_BLOCKED: "the way is blocked",
    Reason.OVER_ALLOWANCE: "too far",
}


def _fire_message(
    shooter: Group,
    target: Group,
    allowed: bool,
    reasons: Sequence[Reason],
    distance_mm: float,
    unit: Unit,
    blocked_by: Sequence[str],
    pi_total: int,
) -> str:
    at = f"{unit.from_mm(distance_mm):.2f} {unit.name}"
    if allowed:
        return f"{shooter.name} may shoot at {target.name} at {at}, PI {pi_total}"
    because = []
    for reason in reasons:
        sentence = _REASON_TEXT[reason]
        if reason is Reason.LINE_BLOCKED:
            sentence += " " + ", ".join(blocked_by)
        if reason is Reason.OUT_OF_RANGE:
            sentence += f" ({at})"
        because.append(sentence)
    return f"{shooter.name} may not shoot at {target.name}: " + "; ".join(because)


def _move_message(
    name: str,
    legal: bool,
    reasons: Sequence[Reason],
    cost_mm: float,
    allowance_units: int,
    straight_mm: float,
    unit: Unit,
    blocked_by: Sequence[str],
    occupied: Sequence[str],
) -> str:
    cost = f"{unit.from_mm(cost_mm):.2f} {unit.name}" if math.isfinite(cost_mm) else "no path"
    allowance = f"{allowance_units} {unit.name}"
    if legal:
        detour = "" if cost_mm <= straight_mm + 0.05 else " (around the obstacles)"
        return f"{name} may move there: {cost}{detour}, allowance {allowance}"
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
    return f"{name} may not move there: " + "; ".join(because)
