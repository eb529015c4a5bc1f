"""MBT - Mini-bataille terrestre (rules digest §2, rule book version 1.1).

Rectangular bases with a facing; distances in graduations (``graduation_mm``,
default 25 mm) between the closest points of the rectangles. Readings chosen
where the book is silent (see ``docs/rules/mbt.md``):

* two bases are in contact when their gap is at most ``contact_tolerance_mm``;
  an *edge* contact has two edges parallel (within ``align_tolerance_deg``), on
  one line and overlapping; any other contact is a *corner* contact;
* face to face: the two front edges in edge contact, facings opposite;
* a move takes the cheapest way of the base's centre round the other bases (their
  rectangles) and impassable ground, the base kept at its facing and seen, against
  obstacles, as the disc circumscribing its rectangle (radius half its diagonal) so
  that the way suits any facing; against the table edge its own rectangle counts;
  the centre's path inside difficult ground counts double (``difficult_factor``);
  woods are impassable for cavalry and difficult for infantry;
* a recoil moves the loser straight back by its depth; it is blocked by the
  table edge, impassable ground, any other base in the way, or by ending in
  contact with an enemy's front edge;
* a shooter's target must lie at least partly in the strip ahead of its front
  edge between the lines extending its sides (``arc: front``), or in the 90°
  arc centred on its facing (``arc: 90``); chariots shoot all round.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import numpy as np
import shapely
from pydantic import BaseModel, ConfigDict, Field
from scipy.cluster.hierarchy import DisjointSet

from rules import pathing
from rules.answers import (
    Checked,
    ContactAnswer,
    DistanceAnswer,
    FireAnswer,
    GroupsAnswer,
    Margin,
    MoveAnswer,
    ReachAnswer,
    Reason,
    Unit,
    combined_sigma,
    with_certainty,
)
from rules.errors import QuestionError, SceneError
from rules.geometry import ring_points
from rules.model import BaseShape, Figure, Scene, TerrainKind
from rules.ruleset import Question, Ruleset, coordinate_mm, scene_options
from rules.terrain import straight_cost_mm, terrain_regions

# --- the book's numbers ----------------------------------------------------------------

TYPES = ("cavalry", "infantry")
EDGES = ("front", "right", "back", "left")


@dataclass(frozen=True, slots=True)
class Numbers:
    """The rule book's numbers (Mouvements, Combats, Cas des éléphants, archers)."""

    move_units: Mapping[str, int] = field(default_factory=lambda: {"cavalry": 5, "infantry": 3})
    heavy_move_penalty: int = 1
    elephant_bonus: int = 4
    heavy_bonus: int = 1
    general_bonus: int = 1
    support_bonus: int = 1
    rear_support_bonus: int = 1
    shot_range_units: float = 2.0
    elimination_ratio: int = 2
    die_faces: int = 6
    panic: Mapping[int, str] = field(
        default_factory=lambda: {1: "ahead", 2: "left", 3: "right", 4: "back", 5: "back", 6: "back"}
    )


NUMBERS = Numbers()

# Figures on a base when ``attrs.figures`` is not given (the book counts the figures on
# each base; these are the usual counts for the kinds of base it names).
DEFAULT_FIGURES: Mapping[tuple[str, bool], int] = {
    ("infantry", True): 4,
    ("infantry", False): 3,
    ("cavalry", True): 3,
    ("cavalry", False): 2,
}
ELEPHANT_FIGURES = 1  # "cinq points pour un éléphant": 1 + 4

PANIC_TURN_DEG: Mapping[str, float] = {"ahead": 0.0, "left": 90.0, "right": -90.0, "back": 180.0}
BLOCKING_TERRAIN = (TerrainKind.IMPASSABLE, TerrainKind.BUILDING)
TOUCH_MM2 = 1e-3  # overlaps smaller than this area are touches
COST_SLACK_MM = 1e-6  # a way costing the allowance plus this is within it
NEAR_SLACK_MM = 1.0  # bases farther apart than a tolerance plus this never touch


class MbtOptions(BaseModel):
    """``options:`` of a MBT scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    graduation_mm: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 25.0
    contact_tolerance_mm: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 2.0
    align_tolerance_deg: Annotated[float, Field(ge=0, le=45, allow_inf_nan=False)] = 5.0
    difficult_factor: Annotated[float, Field(ge=1, allow_inf_nan=False)] = 2.0
    arc: Literal["front", "90"] = "front"


# --- answers ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MbtContactAnswer(ContactAnswer):
    kind: str | None = None
    edges: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FacingAnswer(Checked):
    a: str = ""
    b: str = ""
    contact: bool = False
    face_to_face: bool = False
    turns: str | None = None
    new_facing_deg: float | None = None
    new_x_mm: float | None = None
    new_y_mm: float | None = None
    reasons: tuple[Reason, ...] = ()


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a combat: its base and the points it adds to its die."""

    base: str
    figures: int
    points: dict[str, int]
    supports: tuple[str, ...]
    rear_support: str | None
    die: int | None
    total: int | None


@dataclass(frozen=True, slots=True)
class CombatAnswer(Checked):
    a: str = ""
    b: str = ""
    allowed: bool = False
    reasons: tuple[Reason, ...] = ()
    score_a: int = 0
    score_b: int = 0
    points_a: dict[str, int] = field(default_factory=dict)
    points_b: dict[str, int] = field(default_factory=dict)
    total_a: int | None = None
    total_b: int | None = None
    outcome: str | None = None
    loser: str | None = None
    recoil_mm: float = 0.0
    recoil_units: float = 0.0
    unit: str = ""
    recoil_blocked: bool | None = None
    recoil_blocked_by: tuple[str, ...] = ()
    panic: bool = False
    panic_direction: str | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MbtFireAnswer(FireAnswer):
    score_a: int = 0
    score_b: int = 0
    total_a: int | None = None
    total_b: int | None = None
    outcome: str | None = None


@dataclass(frozen=True, slots=True)
class MbtMoveAnswer(MoveAnswer):
    group: tuple[str, ...] = ()
    detour_cost_mm: float | None = None
    detour_cost_units: float | None = None


@dataclass(frozen=True, slots=True)
class MbtReachAnswer(ReachAnswer):
    group: tuple[str, ...] = ()


# --- geometry of a base ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plate:
    """A base's rectangle: centre, unit facing ``u`` and left normal ``n``, table mm."""

    figure: Figure
    centre: np.ndarray
    u: np.ndarray
    n: np.ndarray
    width_mm: float
    depth_mm: float

    @classmethod
    def of(cls, figure: Figure) -> Plate:
        assert figure.base is not None
        angle = math.radians(figure.facing_deg)
        u = np.array([math.cos(angle), math.sin(angle)])
        return cls(
            figure,
            figure.xy,
            u,
            np.array([-u[1], u[0]]),
            figure.base.width_mm,
            figure.base.depth_mm,
        )

    def corner(self, along: float, across: float) -> np.ndarray:
        """A point of the base: ``along`` in half depths (+1 front), ``across`` in half widths
        (+1 left)."""
        return (
            self.centre + along * self.depth_mm / 2 * self.u + across * self.width_mm / 2 * self.n
        )

    def edge(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """An edge's ends, named front, right, back or left.

        >>> from rules.model import Base
        >>> plate = Plate.of(Figure("a", "x", 0, 0, facing_deg=90,
        ...                         base=Base(BaseShape.RECT, 40, 20)))
        >>> [p.round(6).tolist() for p in plate.edge("front")]
        [[20.0, 10.0], [-20.0, 10.0]]
        """
        ends = {
            "front": ((1, -1), (1, 1)),
            "left": ((1, 1), (-1, 1)),
            "back": ((-1, 1), (-1, -1)),
            "right": ((-1, -1), (1, -1)),
        }[name]
        return self.corner(*ends[0]), self.corner(*ends[1])

    def polygon(self, shift: np.ndarray | None = None) -> shapely.Polygon:
        offset = np.zeros(2) if shift is None else shift
        points = [self.corner(a, b) + offset for a, b in ((1, -1), (1, 1), (-1, 1), (-1, -1))]
        return shapely.Polygon(points)


def edge_contact(
    a: Plate, b: Plate, tolerance_mm: float, align_deg: float
) -> tuple[str, str, float] | None:
    """The pair of edges in contact (parallel, on one line, overlapping), with the overlap.

    >>> from rules.model import Base
    >>> rect = Base(BaseShape.RECT, 40, 20)
    >>> one = Plate.of(Figure("a", "x", 0, 0, facing_deg=90, base=rect))
    >>> two = Plate.of(Figure("b", "y", 10, 20, facing_deg=270, base=rect))
    >>> edge_contact(one, two, 2.0, 5.0)
    ('front', 'front', 30.0)
    """
    best: tuple[str, str, float] | None = None
    cos_limit = math.cos(math.radians(align_deg))
    for name_a in EDGES:
        p, q = a.edge(name_a)
        direction = q - p
        length = float(np.hypot(*direction))
        t = direction / length
        for name_b in EDGES:
            r, s = b.edge(name_b)
            other = s - r
            if abs(float(t @ other)) / float(np.hypot(*other)) < cos_limit:
                continue
            normal = np.array([-t[1], t[0]])
            if max(abs(float((r - p) @ normal)), abs(float((s - p) @ normal))) > tolerance_mm:
                continue
            lo, hi = sorted((float((r - p) @ t), float((s - p) @ t)))
            overlap = min(hi, length) - max(lo, 0.0)
            if overlap > tolerance_mm and (best is None or overlap > best[2]):
                best = (name_a, name_b, round(overlap, 9))
    return best


def penetration_mm(a: shapely.Polygon, b: shapely.Polygon) -> float:
    """How far two convex polygons overlap (the shortest push apart); 0 when apart.

    >>> penetration_mm(shapely.box(0, 0, 10, 10), shapely.box(7, 2, 20, 5))
    3.0
    """
    depth = math.inf
    coords_a = np.asarray(a.exterior.coords)[:-1]
    coords_b = np.asarray(b.exterior.coords)[:-1]
    for coords in (coords_a, coords_b):
        for k in range(len(coords)):
            edge = coords[(k + 1) % len(coords)] - coords[k]
            axis = np.array([-edge[1], edge[0]]) / float(np.hypot(*edge))
            pa, pb = coords_a @ axis, coords_b @ axis
            overlap = min(pa.max() - pb.min(), pb.max() - pa.min())
            if overlap <= 0:
                return 0.0
            depth = min(depth, float(overlap))
    return depth


# --- the ruleset -----------------------------------------------------------------------


class Mbt(Ruleset):
    """MBT: rectangular bases with a facing, distances in graduations."""

    name = "mbt"
    aliases = ("mini-bataille-terrestre",)

    def parse_options(self, raw: Mapping[str, Any]) -> MbtOptions:
        return MbtOptions.model_validate(dict(raw))

    def unit(self, scene: Scene) -> Unit:
        return Unit("graduation", _options(scene).graduation_mm)

    def validate(self, scene: Scene) -> None:
        for index, figure in enumerate(scene.figures):
            where = f"figures[{index}]"
            if figure.base is None or figure.base.shape is not BaseShape.RECT:
                raise SceneError(
                    scene.source, f"{where}.base", "MBT bases are rectangles: {shape: rect, ...}"
                )
            if figure.type not in TYPES:
                raise SceneError(
                    scene.source,
                    f"{where}.type",
                    f"expected one of {', '.join(TYPES)}, got {figure.type!r}",
                )
            for key in ("heavy", "general", "elephant", "archer", "chariot"):
                value = figure.attrs.get(key, False)
                if not isinstance(value, bool):
                    raise SceneError(
                        scene.source,
                        f"{where}.attrs.{key}",
                        f"expected true or false, got {value!r}",
                    )
            count = figure.attrs.get("figures")
            if count is not None and (
                isinstance(count, bool) or not isinstance(count, int) or count < 0
            ):
                raise SceneError(
                    scene.source, f"{where}.attrs.figures", f"expected a count, got {count!r}"
                )

    def questions(self) -> Mapping[str, Question]:
        return {
            "distance": Question(
                "distance", ("A", "B"), "closest points of two bases", self.distance
            ),
            "contact": Question("contact", ("A", "B"), "edge or corner contact", self.contact),
            "facing": Question("facing", ("A", "B"), "face to face, or how B turns", self.facing),
            "combat": Question("combat", ("A", "B"), "the combat of A against B", self.combat),
            "fire": Question("fire", ("A", "B"), "may archers A shoot at B", self.fire),
            "move": Question("move", ("A", "X", "Y"), "may A move to (X, Y) mm", self.move),
            "reach": Question("reach", ("A",), "where may A move", self.reach),
            "groups": Question("groups", (), "bases in contact and aligned", self.groups),
        }

    # --- measures ----------------------------------------------------------------------

    def distance(self, scene: Scene, a: str, b: str) -> DistanceAnswer:
        first, second = _plate(scene, a), _plate(scene, b)
        unit = self.unit(scene)
        gap = float(shapely.distance(first.polygon(), second.polygon()))
        sigma = combined_sigma(first.figure.sigma_mm, second.figure.sigma_mm)
        return DistanceAnswer(
            question="distance",
            message=f"{a} to {b}: {unit.from_mm(gap):.2f} graduations ({gap:.1f} mm)",
            a=a,
            b=b,
            distance_mm=gap,
            distance_units=unit.from_mm(gap),
            unit=unit.name,
            mode="rect",
            sigma_mm=sigma,
        )

    def contact(self, scene: Scene, a: str, b: str) -> MbtContactAnswer:
        options = _options(scene)
        first, second = _pair(scene, a, b)
        gap, touching, kind, edges, margin = _contact(first, second, options)
        text = (
            f"{a} and {b} touch by {'an edge' if kind == 'edge' else 'a corner'}"
            + (f" ({edges[0]} of {a} on {edges[1]} of {b})" if edges else "")
            if touching
            else f"{a} and {b} are not in contact (gap {gap:.1f} mm)"
        )
        return MbtContactAnswer(
            question="contact",
            message=with_certainty(text, margin),
            margins=(margin,),
            a=a,
            b=b,
            contact=touching,
            gap_mm=gap,
            threshold_mm=options.contact_tolerance_mm,
            kind=kind,
            edges=edges,
        )

    def facing(self, scene: Scene, a: str, b: str) -> FacingAnswer:
        """Whether A and B are face to face; if A contacts B otherwise, how B turns to face A."""
        options = _options(scene)
        attacker, target = _pair(scene, a, b)
        _, touching, _, _, margin = _contact(attacker, target, options)
        face = _face_to_face(attacker, target, options)
        turns: str | None = None
        new_facing = new_x = new_y = None
        reasons: tuple[Reason, ...] = ()
        if not touching:
            reasons = (Reason.NOT_IN_CONTACT,)
            text = f"{a} and {b} are not in contact"
        elif face:
            text = f"{a} and {b} are face to face"
        else:
            engaged = [
                other.figure.id
                for other in _plates(scene)
                if other.figure.id not in (attacker.figure.id, target.figure.id)
                and scene.are_enemies(other.figure.side, target.figure.side)
                and _face_to_face(other, target, options)
            ]
            if engaged:
                text = f"{b} does not turn: it is already face to face with {', '.join(engaged)}"
            else:
                turns = b
                new_facing = (attacker.figure.facing_deg + 180.0) % 360.0
                front = attacker.corner(1, 0)
                centre = front + target.depth_mm / 2 * attacker.u
                new_x, new_y = float(centre[0]), float(centre[1])
                text = (
                    f"{b} turns to face {a}: facing {new_facing:.1f} deg, centre "
                    f"({new_x:.1f}, {new_y:.1f}) mm, its front on {a}'s front"
                )
        return FacingAnswer(
            question="facing",
            message=with_certainty(text, margin),
            margins=(margin,),
            a=a,
            b=b,
            contact=touching,
            face_to_face=face,
            turns=turns,
            new_facing_deg=new_facing,
            new_x_mm=new_x,
            new_y_mm=new_y,
            reasons=reasons,
        )

    # --- combat ------------------------------------------------------------------------

    def combat(
        self,
        scene: Scene,
        a: str,
        b: str,
        die_a: Any = None,
        die_b: Any = None,
        die_panic: Any = None,
    ) -> CombatAnswer:
        options = _options(scene)
        unit = self.unit(scene)
        first, second = _pair(scene, a, b)
        reasons: list[Reason] = []
        if not scene.are_enemies(first.figure.side, second.figure.side):
            reasons.append(Reason.TARGET_NOT_ENEMY)
        _, touching, _, _, margin = _contact(first, second, options)
        if not touching:
            reasons.append(Reason.NOT_IN_CONTACT)
        elif not _face_to_face(first, second, options):
            reasons.append(Reason.NOT_FACE_TO_FACE)
        side_a = _side(scene, first, second, options, die_a, "die_a")
        side_b = _side(scene, second, first, options, die_b, "die_b")
        result = _resolve(
            scene, first, second, side_a, side_b, options, unit, die_panic, may_lose_a=True
        )
        allowed = not reasons
        text = _combat_text(a, b, allowed, reasons, side_a, side_b, result)
        return CombatAnswer(
            question="combat",
            message=with_certainty(text, margin),
            margins=(margin,),
            a=a,
            b=b,
            allowed=allowed,
            reasons=tuple(reasons),
            score_a=sum(side_a.points.values()),
            score_b=sum(side_b.points.values()),
            points_a=side_a.points,
            points_b=side_b.points,
            total_a=side_a.total,
            total_b=side_b.total,
            unit=unit.name,
            **(result if allowed else {}),
        )

    def fire(
        self, scene: Scene, a: str, b: str, die_a: Any = None, die_b: Any = None
    ) -> MbtFireAnswer:
        options = _options(scene)
        unit = self.unit(scene)
        shooter, target = _pair(scene, a, b)
        reasons: list[Reason] = []
        margins: list[Margin] = []
        sigma = combined_sigma(shooter.figure.sigma_mm, target.figure.sigma_mm)
        if not scene.are_enemies(shooter.figure.side, target.figure.side):
            reasons.append(Reason.TARGET_NOT_ENEMY)
        chariot = bool(shooter.figure.attrs.get("chariot", False))
        if not (shooter.figure.attrs.get("archer", False) or chariot):
            reasons.append(Reason.NO_SHOOTERS)
        layout = _layout(scene)
        target_shape = layout.polygon(target)
        gap = float(shapely.distance(layout.polygon(shooter), target_shape))
        range_mm = unit.to_mm(NUMBERS.shot_range_units)
        if gap > range_mm:
            reasons.append(Reason.OUT_OF_RANGE)
        margins.append(Margin("range", abs(range_mm - gap), sigma))
        if not chariot:
            zone = _shooting_zone(shooter, options.arc, range_mm + shooter.width_mm)
            inside = penetration_mm(zone, target_shape)
            if inside <= 0.0:
                reasons.append(Reason.NOT_IN_ARC)
                margins.append(Margin("arc", float(shapely.distance(zone, target_shape)), sigma))
            else:
                margins.append(Margin("arc", inside, sigma))
        side_a = _side(scene, shooter, target, options, die_a, "die_a")
        side_b = _side(scene, target, shooter, options, die_b, "die_b")
        allowed = not reasons
        result = _resolve(
            scene, shooter, target, side_a, side_b, options, unit, None, may_lose_a=False
        )
        at = f"{unit.from_mm(gap):.2f} graduations"
        if allowed:
            text = f"{a} may shoot at {b} at {at}"
            if result["outcome"] is not None:
                text += f": {side_a.total} against {side_b.total}, {result['outcome']}"
        else:
            text = f"{a} may not shoot at {b} ({at}): " + ", ".join(reasons)
        return MbtFireAnswer(
            question="fire",
            message=with_certainty(text, *margins),
            margins=tuple(margins),
            shooter=a,
            target=b,
            allowed=allowed,
            reasons=tuple(reasons),
            distance_mm=gap,
            distance_units=unit.from_mm(gap),
            unit=unit.name,
            band="normal" if gap <= range_mm else None,
            shooters=(a,) if Reason.NO_SHOOTERS not in reasons else (),
            score_a=sum(side_a.points.values()),
            score_b=sum(side_b.points.values()),
            total_a=side_a.total,
            total_b=side_b.total,
            outcome=result["outcome"] if allowed else None,
        )

    # --- moves and groups --------------------------------------------------------------

    def move(self, scene: Scene, a: str, x: str, y: str) -> MbtMoveAnswer:
        options = _options(scene)
        unit = self.unit(scene)
        mover = _plate(scene, a)
        goal = np.array([coordinate_mm(x, "X"), coordinate_mm(y, "Y")])
        group = _group_of(scene, mover, options)
        members = {p.figure.id for p in group}
        allowance_units = float(min(move_allowance(p.figure) for p in group))
        allowance_mm = unit.to_mm(allowance_units)
        ground = _ground(scene, mover, members, options)
        moved = mover.polygon(goal - mover.centre)
        reasons: list[Reason] = []
        minx, miny, maxx, maxy = moved.bounds
        if minx < 0 or miny < 0 or maxx > scene.table.width_mm or maxy > scene.table.depth_mm:
            reasons.append(Reason.OFF_TABLE)
        if any(moved.intersection(g).area > TOUCH_MM2 for _, g in ground.blocking):
            reasons.append(Reason.IMPASSABLE)
        occupied = [
            p.figure.id
            for p in _plates(scene)
            if p.figure.id != mover.figure.id
            and penetration_mm(moved, p.polygon()) > options.contact_tolerance_mm
        ]
        if occupied:
            reasons.append(Reason.DESTINATION_OCCUPIED)
        straight_mm = straight_cost_mm(
            ground.field, ground.inside(mover.centre), ground.inside(goal)
        )
        straight = np.array([mover.centre, goal])
        cost_mm, points, crossed = straight_mm, straight, list(occupied)
        detour_mm: float | None = None
        if not reasons:
            way = pathing.shortest_path(
                ground.field,
                ground.inside(mover.centre),
                ground.inside(goal),
                ground.radius_mm,
                max_cost_mm=allowance_mm,
            )
            way_points = way.points_mm - ground.shift_mm if way.found else straight
            swept = _swept_through(scene, mover, way_points, ground, options) if way.found else ()
            crossed = list(dict.fromkeys((*way.blocked_by, *swept)))
            usable = way.found and not swept
            if usable and (way.cost_mm <= allowance_mm + COST_SLACK_MM or not crossed):
                cost_mm, points = way.cost_mm, way_points
                if way.cost_mm > allowance_mm + COST_SLACK_MM:
                    reasons.append(Reason.OVER_ALLOWANCE)
            else:
                detour_mm = way.cost_mm if usable else None
                reasons.append(Reason.PATH_BLOCKED)
                if straight_mm > allowance_mm + COST_SLACK_MM:
                    reasons.append(Reason.OVER_ALLOWANCE)
        elif straight_mm > allowance_mm + COST_SLACK_MM:
            reasons.append(Reason.OVER_ALLOWANCE)
        measured_mm = cost_mm if detour_mm is None else detour_mm
        margin = Margin("allowance", abs(allowance_mm - measured_mm), mover.figure.sigma_mm)
        legal = not reasons
        cost = f"{unit.from_mm(cost_mm):.2f} of {allowance_units:g} graduations"
        if legal:
            text = f"{a} may move there: {cost}"
            if crossed:
                text += f", going round {', '.join(crossed)}"
        else:
            text = f"{a} may not move there ({cost}): " + ", ".join(reasons)
            if crossed:
                text += f" ({', '.join(crossed)})"
            if detour_mm is not None:
                text += f"; the way round costs {unit.from_mm(detour_mm):.2f} graduations"
        warnings = []
        if len(group) > 1:
            warnings.append(
                f"{a} is in a group with {', '.join(sorted(members - {a}))}: the group moves "
                "at its slowest base's pace"
            )
        return MbtMoveAnswer(
            question="move",
            message=with_certainty(text, margin),
            margins=(margin,),
            mover=a,
            legal=legal,
            reasons=tuple(reasons),
            cost_mm=cost_mm,
            cost_units=unit.from_mm(cost_mm),
            allowance_mm=allowance_mm,
            allowance_units=allowance_units,
            unit=unit.name,
            path_mm=tuple((float(px), float(py)) for px, py in points),
            blocked_by=tuple(crossed),
            warnings=tuple(warnings),
            group=tuple(sorted(members)),
            detour_cost_mm=detour_mm,
            detour_cost_units=None if detour_mm is None else unit.from_mm(detour_mm),
        )

    def reach(self, scene: Scene, a: str) -> MbtReachAnswer:
        options = _options(scene)
        unit = self.unit(scene)
        mover = _plate(scene, a)
        group = _group_of(scene, mover, options)
        members = {p.figure.id for p in group}
        allowance_units = float(min(move_allowance(p.figure) for p in group))
        allowance_mm = unit.to_mm(allowance_units)
        ground = _ground(scene, mover, members, options)
        area = pathing.reachable_area(
            ground.field, ground.inside(mover.centre), ground.radius_mm, allowance_mm
        )
        back = -ground.shift_mm
        polygons = [
            shapely.transform(p, lambda xy: xy + back)
            for p in shapely.get_parts(area)
            if isinstance(p, shapely.Polygon) and not p.is_empty
        ]
        total = float(sum(p.area for p in polygons))
        return MbtReachAnswer(
            question="reach",
            message=f"{a} may move its centre anywhere in {len(polygons)} area(s) of "
            f"{total / 100:.0f} cm² within {allowance_units:g} graduations",
            mover=a,
            area_mm2=total,
            polygons_mm=tuple(ring_points(p.exterior.coords) for p in polygons),
            holes_mm=tuple(tuple(ring_points(h.coords) for h in p.interiors) for p in polygons),
            allowance_mm=allowance_mm,
            allowance_units=allowance_units,
            unit=unit.name,
            group=tuple(sorted(members)),
        )

    def groups(self, scene: Scene) -> GroupsAnswer:
        options = _options(scene)
        plates = _plates(scene)
        links: DisjointSet[str] = DisjointSet(p.figure.id for p in plates)
        for i, first in enumerate(plates):
            for second in plates[i + 1 :]:
                if _aligned(first, second, options):
                    links.merge(first.figure.id, second.figure.id)
        order = {p.figure.id: k for k, p in enumerate(plates)}
        found = sorted(
            (sorted(subset, key=order.__getitem__) for subset in links.subsets()),
            key=lambda ids: order[ids[0]],
        )
        groups = {ids[0]: ids for ids in found}
        return GroupsAnswer(
            question="groups",
            message=f"{len(groups)} groups: "
            + ", ".join(f"{name} ({len(ids)})" for name, ids in groups.items()),
            groups=groups,
            references={name: name for name in groups},
            sides={name: scene.figure(name).side for name in groups},  # type: ignore[union-attr]
        )


# --- rules arithmetic ------------------------------------------------------------------


def move_allowance(figure: Figure) -> int:
    """Graduations a base may move: light cavalry 5, light infantry 3, heavy one less.

    >>> move_allowance(Figure("a", "x", 0, 0, type="cavalry", attrs={"heavy": True}))
    4
    """
    kind = figure.type
    if kind is None or kind not in NUMBERS.move_units:
        raise QuestionError(f"base {figure.id!r}: type must be cavalry or infantry")
    heavy = bool(figure.attrs.get("heavy", False))
    return NUMBERS.move_units[kind] - (NUMBERS.heavy_move_penalty if heavy else 0)


def base_figures(figure: Figure) -> int:
    """Fighting figures on a base: ``attrs.figures``, else the default for its kind.

    >>> base_figures(Figure("a", "x", 0, 0, type="infantry", attrs={"heavy": True}))
    4
    """
    count = figure.attrs.get("figures")
    if isinstance(count, int) and not isinstance(count, bool):
        return count
    if figure.attrs.get("elephant", False):
        return ELEPHANT_FIGURES
    return DEFAULT_FIGURES[(str(figure.type), bool(figure.attrs.get("heavy", False)))]


def combat_points(figure: Figure, supports: int = 0, rear_support: bool = False) -> dict[str, int]:
    """What a base adds to its die, item by item.

    >>> combat_points(Figure("g", "x", 0, 0, type="infantry",
    ...                      attrs={"heavy": True, "general": True}), 1, True)
    {'figures': 4, 'heavy': 1, 'general': 1, 'support': 1, 'rear_support': 1}
    """
    attrs = figure.attrs
    points = {"figures": base_figures(figure)}
    if attrs.get("elephant", False):
        points["elephant"] = NUMBERS.elephant_bonus
    if attrs.get("heavy", False):
        points["heavy"] = NUMBERS.heavy_bonus
    if attrs.get("general", False):
        points["general"] = NUMBERS.general_bonus
    if supports:
        points["support"] = NUMBERS.support_bonus * supports
    if rear_support:
        points["rear_support"] = NUMBERS.rear_support_bonus
    return points


def outcome(total_a: int, total_b: int) -> tuple[str, int]:
    """``(result, loser)``: ``tie`` (loser 0), ``eliminated`` or ``recoil``; loser 1 = A, 2 = B.

    >>> outcome(7, 7), outcome(10, 5), outcome(9, 5), outcome(4, 9)
    (('tie', 0), ('eliminated', 2), ('recoil', 2), ('eliminated', 1))
    """
    if total_a == total_b:
        return "tie", 0
    winner, loser = max(total_a, total_b), min(total_a, total_b)
    beaten = 2 if total_a > total_b else 1
    if winner >= NUMBERS.elimination_ratio * loser:
        return "eliminated", beaten
    return "recoil", beaten


# --- helpers ---------------------------------------------------------------------------


def _options(scene: Scene) -> MbtOptions:
    return scene_options(scene, MbtOptions)


@dataclass(frozen=True, slots=True, eq=False)
class Layout:
    """A scene's bases, built once: plates, their rectangles and an index by id."""

    plates: tuple[Plate, ...]
    polygons: np.ndarray  # (N,) shapely.Polygon, in the order of ``plates``
    index: Mapping[str, int]

    def polygon(self, plate: Plate) -> shapely.Polygon:
        """A base's rectangle: the scene's own, built afresh for a base not in it."""
        k = self.index.get(plate.figure.id)
        if k is not None and self.plates[k].figure is plate.figure:
            return self.polygons[k]
        return plate.polygon()

    def gaps_mm(self, plate: Plate) -> np.ndarray:
        """Gaps (N,) from every base to ``plate``, mm."""
        return np.asarray(shapely.distance(self.polygons, self.polygon(plate)), dtype=np.float64)


@functools.lru_cache(maxsize=16)
def _layout(scene: Scene) -> Layout:
    plates = tuple(Plate.of(f) for f in scene.figures)
    polygons = np.empty(len(plates), dtype=object)
    polygons[:] = [p.polygon() for p in plates]
    index: dict[str, int] = {}
    for k, p in enumerate(plates):
        index.setdefault(p.figure.id, k)
    return Layout(plates, polygons, index)


def _plate(scene: Scene, name: str) -> Plate:
    layout = _layout(scene)
    if name not in layout.index:
        raise QuestionError(f"unknown base {name!r}")
    return layout.plates[layout.index[name]]


def _pair(scene: Scene, a: str, b: str) -> tuple[Plate, Plate]:
    if a == b:
        raise QuestionError(f"{a!r} and {b!r} are the same base")
    return _plate(scene, a), _plate(scene, b)


def _plates(scene: Scene) -> tuple[Plate, ...]:
    return _layout(scene).plates


def _contact(
    a: Plate, b: Plate, options: MbtOptions
) -> tuple[float, bool, str | None, tuple[str, ...], Margin]:
    gap = float(shapely.distance(a.polygon(), b.polygon()))
    touching = gap <= options.contact_tolerance_mm
    kind: str | None = None
    edges: tuple[str, ...] = ()
    if touching:
        pair = edge_contact(a, b, options.contact_tolerance_mm, options.align_tolerance_deg)
        kind = "corner" if pair is None else "edge"
        edges = () if pair is None else pair[:2]
    sigma = combined_sigma(a.figure.sigma_mm, b.figure.sigma_mm)
    return (
        gap,
        touching,
        kind,
        edges,
        Margin("contact", abs(options.contact_tolerance_mm - gap), sigma),
    )


def _angle_between(a_deg: float, b_deg: float) -> float:
    """Absolute difference of two headings, in [0, 180]."""
    return abs((a_deg - b_deg + 180.0) % 360.0 - 180.0)


def _face_to_face(a: Plate, b: Plate, options: MbtOptions) -> bool:
    pair = edge_contact(a, b, options.contact_tolerance_mm, options.align_tolerance_deg)
    return (
        pair is not None
        and pair[:2] == ("front", "front")
        and _angle_between(a.figure.facing_deg + 180.0, b.figure.facing_deg)
        <= options.align_tolerance_deg
    )


def _aligned(a: Plate, b: Plate, options: MbtOptions) -> bool:
    """Friends in contact and perfectly aligned: same facing, a whole edge on a whole edge."""
    if a.figure.side != b.figure.side:
        return False
    if _angle_between(a.figure.facing_deg, b.figure.facing_deg) > options.align_tolerance_deg:
        return False
    pair = edge_contact(a, b, options.contact_tolerance_mm, options.align_tolerance_deg)
    if pair is None:
        return False
    full = (
        min(a.width_mm, b.width_mm) if pair[0] in ("front", "back") else min(a.depth_mm, b.depth_mm)
    )
    return pair[2] >= full - options.contact_tolerance_mm


def _group_of(scene: Scene, plate: Plate, options: MbtOptions) -> list[Plate]:
    plates = _plates(scene)
    members = [plate]
    seen = {plate.figure.id}
    k = 0
    while k < len(members):
        for other in plates:
            if other.figure.id not in seen and _aligned(members[k], other, options):
                seen.add(other.figure.id)
                members.append(other)
        k += 1
    return members


def _rear_support(scene: Scene, plate: Plate, options: MbtOptions) -> str | None:
    """A second infantry base aligned behind an infantry base: its id."""
    if plate.figure.type != "infantry":
        return None
    layout = _layout(scene)
    near = layout.gaps_mm(plate) <= options.contact_tolerance_mm + NEAR_SLACK_MM
    for other, close in zip(layout.plates, near, strict=True):
        if not close or other.figure.id == plate.figure.id or other.figure.type != "infantry":
            continue
        if other.figure.side != plate.figure.side:
            continue
        pair = edge_contact(plate, other, options.contact_tolerance_mm, options.align_tolerance_deg)
        if pair is not None and pair[:2] == ("back", "front") and _aligned(plate, other, options):
            return other.figure.id
    return None


def _side(scene: Scene, own: Plate, enemy: Plate, options: MbtOptions, die: Any, name: str) -> Side:
    layout = _layout(scene)
    touching = layout.gaps_mm(enemy) <= options.contact_tolerance_mm
    supports = tuple(
        other.figure.id
        for other, touches in zip(layout.plates, touching, strict=True)
        if touches
        and other.figure.id not in (own.figure.id, enemy.figure.id)
        and not scene.are_enemies(own.figure.side, other.figure.side)
    )
    rear = _rear_support(scene, own, options)
    points = combat_points(own.figure, len(supports), rear is not None)
    rolled = None if die is None else _die(die, name)
    total = None if rolled is None else rolled + sum(points.values())
    return Side(own.figure.id, points["figures"], points, supports, rear, rolled, total)


def _resolve(
    scene: Scene,
    first: Plate,
    second: Plate,
    side_a: Side,
    side_b: Side,
    options: MbtOptions,
    unit: Unit,
    die_panic: Any,
    *,
    may_lose_a: bool,
) -> dict[str, Any]:
    result: dict[str, Any] = {"outcome": None}
    if side_a.total is None or side_b.total is None:
        return result
    verdict, beaten = outcome(side_a.total, side_b.total)
    result["outcome"] = verdict
    if beaten == 0:
        return result
    loser, winner = (first, second) if beaten == 1 else (second, first)
    result["loser"] = loser.figure.id
    if beaten == 1 and not may_lose_a:
        result["outcome"] = "shooter fails"
        return result
    if verdict != "recoil":
        return result
    result["recoil_mm"] = loser.depth_mm
    result["recoil_units"] = unit.from_mm(loser.depth_mm)
    if loser.figure.attrs.get("elephant", False):
        result["panic"] = True
        result["warnings"] = (
            "an elephant that must recoil panics: roll 1D6 (1 ahead, 2 left, 3 right, "
            "4-6 back); it tramples every base it meets, another elephant panics in turn",
        )
        if die_panic is not None:
            result["panic_direction"] = NUMBERS.panic[_die(die_panic, "die_panic")]
        return result
    blocked = recoil_blockers(scene, loser, winner, options)
    result["recoil_blocked"] = bool(blocked)
    result["recoil_blocked_by"] = blocked
    if blocked:
        result["outcome"] = "eliminated"
    return result


def recoil_blockers(
    scene: Scene, loser: Plate, winner: Plate, options: MbtOptions
) -> tuple[str, ...]:
    """What stops a base recoiling by its depth: the table edge, impassable terrain, a base
    in the way, or an enemy front it would come to touch (one it touched already does not)."""
    layout = _layout(scene)
    shift = -loser.depth_mm * loser.u
    moved = loser.polygon(shift)
    swept = shapely.convex_hull(shapely.union(loser.polygon(), moved))
    found: list[str] = []
    minx, miny, maxx, maxy = moved.bounds
    if minx < 0 or miny < 0 or maxx > scene.table.width_mm or maxy > scene.table.depth_mm:
        found.append("table edge")
    found.extend(
        ident
        for ident, g in _blocking_terrain(scene, loser.figure)
        if swept.intersection(g).area > TOUCH_MM2
    )
    near = shapely.distance(swept, layout.polygons) <= options.contact_tolerance_mm + NEAR_SLACK_MM
    for other, shape, close in zip(layout.plates, layout.polygons, near, strict=True):
        if not close or other.figure.id in (loser.figure.id, winner.figure.id):
            continue
        if penetration_mm(swept, shape) > options.contact_tolerance_mm:
            found.append(other.figure.id)
        elif scene.are_enemies(loser.figure.side, other.figure.side):
            # an enemy front it did not touch before the recoil
            front = shapely.LineString(other.edge("front"))
            before = float(shapely.distance(loser.polygon(), front))
            after = float(shapely.distance(moved, front))
            if after <= options.contact_tolerance_mm < before:
                found.append(other.figure.id)
    return tuple(found)


def _shooting_zone(shooter: Plate, arc: str, reach_mm: float) -> shapely.Polygon:
    """Where a target must at least partly stand: the strip ahead, or the 90-degree arc."""
    left, right = shooter.corner(1, 1), shooter.corner(1, -1)
    if arc == "front":
        ahead = reach_mm * shooter.u
        return shapely.Polygon([right, left, left + ahead, right + ahead])
    apex = shooter.corner(1, 0)
    far = reach_mm * 2.0
    half = math.radians(45.0)
    u, n = shooter.u, shooter.n
    return shapely.Polygon(
        [
            apex,
            apex + far * (math.cos(half) * u - math.sin(half) * n),
            apex + far * u * 1.0 / math.cos(half),
            apex + far * (math.cos(half) * u + math.sin(half) * n),
        ]
    )


def _difficulty(kind: TerrainKind, figure: Figure, options: MbtOptions) -> float:
    if kind is TerrainKind.DIFFICULT or (kind is TerrainKind.WOOD and figure.type != "cavalry"):
        return options.difficult_factor
    return 1.0


@dataclass(frozen=True, slots=True, eq=False)
class Ground:
    """What a base's move meets, as the path finder sees it.

    The mover is the disc circumscribing its rectangle (``radius_mm``, half its
    diagonal). The path finder keeps that disc on its table; the table it is given is
    the real one grown by ``shift_mm`` = radius less the half extents of the
    rectangle's bounding box, on each side, so that there the rectangle itself stays on
    the real table. ``field`` is in the grown table's frame: real (x, y) + ``shift_mm``.
    """

    field: pathing.Field
    shift_mm: np.ndarray  # (2,)
    radius_mm: float
    blocking: tuple[tuple[str, shapely.Geometry], ...]
    others: tuple[Plate, ...]

    def inside(self, point: np.ndarray) -> np.ndarray:
        """A real table point (2,) in the field's frame."""
        return np.asarray(np.asarray(point, dtype=np.float64) + self.shift_mm, dtype=np.float64)


def _ground(scene: Scene, mover: Plate, members: set[str], options: MbtOptions) -> Ground:
    """Other bases (not of the mover's group), impassable and difficult ground, for a move."""
    radius = math.hypot(mover.width_mm, mover.depth_mm) / 2.0
    half = np.abs(mover.u) * mover.depth_mm / 2.0 + np.abs(mover.n) * mover.width_mm / 2.0
    shift = np.maximum(radius - half, 0.0)
    others = tuple(p for p in _plates(scene) if p.figure.id not in members)
    blocking_kinds = _blocking_kinds(mover.figure)
    factors = {kind: _difficulty(kind, mover.figure, options) for kind in TerrainKind}
    costly = {
        kind: factor
        for kind, factor in factors.items()
        if factor > 1.0 and kind not in blocking_kinds
    }
    blocking = _blocking_terrain(scene, mover.figure)
    terrain, regions = terrain_regions(scene, blocking_kinds, costly)

    def moved(polygon: shapely.Polygon) -> shapely.Polygon:
        return shapely.transform(polygon, lambda xy: xy + shift)

    field = pathing.Field(
        scene.table.width_mm + 2.0 * float(shift[0]),
        scene.table.depth_mm + 2.0 * float(shift[1]),
        polygons=tuple(pathing.BlockingPolygon(moved(p.polygon()), p.figure.id) for p in others)
        + tuple(pathing.BlockingPolygon(moved(t.polygon), t.ident) for t in terrain),
        costly=tuple(pathing.CostlyRegion(moved(r.polygon), r.factor, r.ident) for r in regions),
    )
    return Ground(field, shift, radius, tuple(blocking), others)


def _swept_through(
    scene: Scene, mover: Plate, points: np.ndarray, ground: Ground, options: MbtOptions
) -> tuple[str, ...]:
    """Bases and impassable ground that the mover's rectangle, slid along the polyline
    ``points`` (K, 2) table mm, runs into (beyond the contact tolerance for bases)."""
    if len(points) < 2:
        return ()
    corners = np.array(
        [mover.corner(a, b) - mover.centre for a, b in ((1, -1), (1, 1), (-1, 1), (-1, -1))]
    )
    steps = len(points) - 1
    clouds = np.concatenate(
        [points[:-1, None, :] + corners[None], points[1:, None, :] + corners[None]], axis=1
    ).reshape(-1, 2)
    owner = np.repeat(np.arange(steps), 8)
    hulls = np.asarray(shapely.convex_hull(shapely.multipoints(clouds, indices=owner)))
    line = shapely.LineString(points)
    reach_mm = ground.radius_mm + options.contact_tolerance_mm
    found: list[str] = []
    for other in ground.others:
        shape = other.polygon()
        if float(shapely.distance(line, shape)) > reach_mm:
            continue
        touching = np.asarray(shapely.intersects(hulls, shape))
        if any(
            penetration_mm(hull, shape) > options.contact_tolerance_mm for hull in hulls[touching]
        ):
            found.append(other.figure.id)
    for ident, geometry in ground.blocking:
        if float(shapely.distance(line, geometry)) > reach_mm:
            continue
        if any(hull.intersection(geometry).area > TOUCH_MM2 for hull in hulls):
            found.append(ident)
    return tuple(found)


def _blocking_kinds(figure: Figure) -> set[TerrainKind]:
    """Ground a base may not enter: impassable ground, buildings, and woods for cavalry."""
    kinds = set(BLOCKING_TERRAIN)
    if figure.type == "cavalry":
        kinds.add(TerrainKind.WOOD)
    return kinds


def _blocking_terrain(scene: Scene, figure: Figure) -> list[tuple[str, shapely.Geometry]]:
    kinds = _blocking_kinds(figure)
    return [(f.id, f.geometry) for f in scene.terrain if f.kind in kinds]


def _die(value: Any, name: str) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise QuestionError(f"{name} must be a die roll 1-6, got {value!r}") from None
    if isinstance(value, bool) or not 1 <= number <= NUMBERS.die_faces:
        raise QuestionError(f"{name} must be a die roll 1-6, got {value!r}")
    return number


def _combat_text(
    a: str,
    b: str,
    allowed: bool,
    reasons: Sequence[Reason],
    side_a: Side,
    side_b: Side,
    result: Mapping[str, Any],
) -> str:
    score = f"{a} +{sum(side_a.points.values())}, {b} +{sum(side_b.points.values())}"
    if not allowed:
        return f"{a} and {b} may not fight ({', '.join(reasons)}); {score}"
    if result.get("outcome") is None:
        return f"{a} against {b}: each rolls 1D6; {score}"
    text = f"{a} {side_a.total} against {b} {side_b.total}: {result['outcome']}"
    if result.get("loser"):
        text += f" ({result['loser']})"
    if result.get("recoil_blocked_by"):
        text += " - recoil blocked by " + ", ".join(result["recoil_blocked_by"])
    if result.get("panic"):
        text += " - the elephant panics" + (
            f" ({result['panic_direction']})" if result.get("panic_direction") else ""
        )
    return text
