"""M.U.S.G. - Multi Universe Skirmishes Game (rules digest §3, rule book "Les règles de jeu").

Individual characters; distances in pas (paces), ``pace_mm`` long (default one
inch, 25.4 mm). Readings chosen where the book is silent (see ``docs/rules/musg.md``):

* distances run base edge to base edge (option ``measure: edge``), or centre to
  centre (``measure: centre``); a figure without a base stands on a disc of
  ``base_diameter_mm``; contact is a gap of at most ``contact_tolerance_mm``;
* difficult ground and woods cost two paces a pace; impassable ground and
  buildings block; obstacles (fences, walls) do not slow a move;
* a charge must end with the mover's base touching an enemy's, else it is a run;
* the line of sight runs from the shooter's centre (its eye); the hidden fraction
  of the target is the part of the angle its base spans at the eye that the
  shadows of obstacles, woods, buildings and other figures cover (only what lies
  between the shooter and the target casts a shadow; features under the
  shooter's own base are looked over); the target is in cover when more than
  half is hidden, and out of sight when buildings hide it whole;
* each obstacle in cover gets one cover roll, by the range band of the distance
  from the shooter to the obstacle: 3+ short, 4+ medium, 5+ long;
* a weapon's bands come from its profile (``short_pas``, ``medium_pas``,
  ``long_pas``), or thirds of ``range_pas``.
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

from rules import pathing
from rules.answers import (
    Answer,
    Checked,
    ContactAnswer,
    DistanceAnswer,
    FireAnswer,
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
from rules.model import DISC_QUAD_SEGMENTS, Base, BaseShape, Figure, Scene, TerrainKind, disc
from rules.ruleset import Question, Ruleset, coordinate_mm, figure_named, scene_options
from rules.terrain import straight_cost_mm, terrain_regions

# --- the book's numbers ----------------------------------------------------------------

RANKS = ("extra", "henchman", "subchief", "chief")
"""Ranks from the lowest (figurant) to the highest (chef)."""

MODES = ("walk", "run", "charge")
BANDS = ("short", "medium", "long")
BOW_KINDS = ("bow", "crossbow")


@dataclass(frozen=True, slots=True)
class Numbers:
    """The rule book's numbers (Actions Actives, Jet de couvert, Tests, Fin du tour)."""

    move_factor: Mapping[str, float] = field(
        default_factory=lambda: {"walk": 1.0, "run": 1.5, "charge": 1.5}
    )
    action_points: Mapping[str, int] = field(
        default_factory=lambda: {"walk": 1, "run": 2, "charge": 1}
    )
    failed_charge_points: int = 2
    difficult_factor: float = 2.0
    leave_move_fraction: float = 0.5
    leave_friend_pas: float = 1.0
    leave_minimum_points: int = 1
    support_pas: float = 3.0
    leader_pas: float = 4.0
    attention_chef_pas: float = 1.0
    cover_fraction: float = 0.5
    cover_roll: Mapping[str, int] = field(
        default_factory=lambda: {"short": 3, "medium": 4, "long": 5}
    )
    bow_interception_face: int = 6
    die_faces: int = 6


NUMBERS = Numbers()

# "Tableau des dommages": row R (resistance + armour) 1-12, column F (strength) 1-12,
# the minimum roll on 1D6 to inflict a damage. Transcribed from the rule book.
DAMAGE_TABLE: tuple[tuple[int, ...], ...] = (
    (4, 4, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2),  # R 1
    (4, 4, 4, 3, 3, 2, 2, 2, 2, 2, 2, 2),  # R 2
    (5, 4, 4, 4, 3, 3, 2, 2, 2, 2, 2, 2),  # R 3
    (5, 5, 4, 4, 4, 3, 3, 2, 2, 2, 2, 2),  # R 4
    (6, 5, 5, 4, 4, 4, 3, 3, 2, 2, 2, 2),  # R 5
    (6, 6, 5, 5, 4, 4, 4, 3, 3, 2, 2, 2),  # R 6
    (6, 6, 6, 5, 5, 4, 4, 4, 3, 3, 2, 2),  # R 7
    (6, 6, 6, 6, 5, 5, 4, 4, 4, 3, 3, 2),  # R 8
    (6, 6, 6, 6, 6, 5, 5, 4, 4, 4, 3, 3),  # R 9
    (6, 6, 6, 6, 6, 6, 5, 5, 4, 4, 4, 3),  # R 10
    (6, 6, 6, 6, 6, 6, 6, 5, 5, 4, 4, 4),  # R 11
    (6, 6, 6, 6, 6, 6, 6, 6, 5, 5, 4, 4),  # R 12
)
TABLE_MAX = len(DAMAGE_TABLE)

COSTLY_TERRAIN = {TerrainKind.DIFFICULT: 2.0, TerrainKind.WOOD: 2.0}
BLOCKING_TERRAIN = (TerrainKind.IMPASSABLE, TerrainKind.BUILDING)
COVER_TERRAIN = (TerrainKind.OBSTACLE, TerrainKind.WOOD, TerrainKind.BUILDING)
TOUCH_MM = 1e-6
BOUNDS_SLACK_MM = 1.0  # shapes whose boxes are this far apart cannot meet
_INSCRIBED = math.cos(math.pi / (4 * DISC_QUAD_SEGMENTS))  # apothem / radius of a disc polygon


def damage_needed(strength: int, resistance: int) -> int:
    """Minimum roll on 1D6 for a hit of ``strength`` to damage a ``resistance``.

    >>> damage_needed(3, 3)
    4
    >>> damage_needed(12, 1), damage_needed(1, 12)
    (2, 6)
    """
    for name, value in (("strength", strength), ("resistance", resistance)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= TABLE_MAX:
            raise QuestionError(f"{name} must be an integer from 1 to {TABLE_MAX}, got {value!r}")
    return DAMAGE_TABLE[resistance - 1][strength - 1]


def damages(strength: int, resistance: int, die: int) -> bool:
    """Whether a die (bonuses included) inflicts a damage: a 6 always does, a 1 never.

    >>> [damages(3, 3, die) for die in range(1, 7)]
    [False, False, False, True, True, True]
    """
    needed = damage_needed(strength, resistance)
    if die >= NUMBERS.die_faces:
        return True
    if die <= 1:
        return False
    return die >= needed


def cover_roll_needed(band: str) -> int:
    """The roll on 1D6 a shot needs to pass an obstacle at this range band.

    >>> [cover_roll_needed(band) for band in BANDS]
    [3, 4, 5]
    """
    return NUMBERS.cover_roll[band]


def dice_passing(dice: Sequence[int], needed: int) -> int:
    """How many dice show ``needed`` or more.

    >>> dice_passing([3, 4, 5], 4)
    2
    """
    return sum(1 for die in dice if die >= needed)


def initiative_order(
    entries: Mapping[str, tuple[int, int]],
) -> tuple[list[str], list[list[str]]]:
    """Turn order from each side's (die, henchmen); the sides that must roll again.

    The highest die + henchmen starts; on a tie the side with fewer henchmen goes
    first; sides still tied roll again (they are listed together).

    >>> initiative_order({"Marc": (6, 4), "Julien": (4, 8)})
    (['Julien', 'Marc'], [])
    >>> initiative_order({"Marc": (6, 4), "Julien": (2, 8)})
    (['Marc', 'Julien'], [])
    """
    key = {side: (-(die + henchmen), henchmen) for side, (die, henchmen) in entries.items()}
    order = sorted(entries, key=lambda side: key[side])
    ties: list[list[str]] = []
    for side in order:
        if ties and key[ties[-1][0]] == key[side]:
            ties[-1].append(side)
        else:
            ties.append([side])
    return order, [tied for tied in ties if len(tied) > 1]


# --- options ---------------------------------------------------------------------------

Length = Annotated[float, Field(gt=0, allow_inf_nan=False)]


class MusgOptions(BaseModel):
    """``options:`` of a M.U.S.G. scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pace_mm: Length = 25.4
    measure: Literal["edge", "centre"] = "edge"
    base_diameter_mm: Length = 25.0
    contact_tolerance_mm: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 2.0
    figures_give_cover: bool = True
    sight_blockers: tuple[TerrainKind, ...] = (TerrainKind.BUILDING,)


@dataclass(frozen=True, slots=True)
class Weapon:
    """A ranged weapon's profile: kind and the far end of each range band, in pas."""

    kind: str
    short_pas: float
    medium_pas: float
    long_pas: float

    def band(self, distance_pas: float) -> str | None:
        """The range band of a distance, None beyond long range.

        >>> Weapon("pistol", 4, 8, 12).band(8.0), Weapon("pistol", 4, 8, 12).band(12.5)
        ('medium', None)
        """
        for name, limit in zip(BANDS, self.limits_pas, strict=True):
            if distance_pas <= limit:
                return name
        return None

    @property
    def limits_pas(self) -> tuple[float, float, float]:
        return (self.short_pas, self.medium_pas, self.long_pas)


def parse_weapon(raw: Any, where: str) -> Weapon:
    """``attrs.weapon``: ``{kind, short_pas, medium_pas, long_pas}`` or ``{kind, range_pas}``."""
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}: expected a mapping, got {raw!r}")
    kind = raw.get("kind", "firearm")
    if not isinstance(kind, str):
        raise ValueError(f"{where}.kind: expected a name, got {kind!r}")
    unknown = set(raw) - {"kind", "short_pas", "medium_pas", "long_pas", "range_pas"}
    if unknown:
        raise ValueError(f"{where}.{sorted(unknown)[0]}: unknown key (a typo?)")
    if "range_pas" in raw:
        far = _positive(raw["range_pas"], f"{where}.range_pas")
        return Weapon(kind, far / 3.0, 2.0 * far / 3.0, far)
    limits = []
    for key in ("short_pas", "medium_pas", "long_pas"):
        if key not in raw:
            raise ValueError(f"{where}.{key}: missing (or give range_pas)")
        limits.append(_positive(raw[key], f"{where}.{key}"))
    if not limits[0] <= limits[1] <= limits[2]:
        raise ValueError(f"{where}: bands must grow short <= medium <= long, got {limits!r}")
    return Weapon(kind, *limits)


def _positive(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValueError(f"{where}: expected a positive number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{where}: expected a finite number, got {value!r}")
    return float(value)


# --- answers ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CoverRoll:
    """One obstacle a shot in cover must pass: where it is and the roll it needs."""

    obstacle: str
    distance_mm: float
    distance_units: float
    band: str
    needed: int


@dataclass(frozen=True, slots=True)
class MusgFireAnswer(FireAnswer):
    hidden_fraction: float = 0.0
    hidden_by: dict[str, float] = field(default_factory=dict)
    cover_rolls: tuple[dict[str, Any], ...] = ()
    interposed: tuple[str, ...] = ()
    attention_chef: tuple[str, ...] = ()
    weapon: str | None = None


@dataclass(frozen=True, slots=True)
class MusgMoveAnswer(MoveAnswer):
    mode: str = "walk"
    action_points: int = 1
    contact_with: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MusgReachAnswer(ReachAnswer):
    mode: str = "walk"


@dataclass(frozen=True, slots=True)
class LeaveAnswer(Checked):
    figure: str = ""
    allowed: bool = False
    reasons: tuple[Reason, ...] = ()
    engaged_with: tuple[str, ...] = ()
    friends_near: tuple[str, ...] = ()
    action_points: int = 0
    move_mm: float = 0.0
    move_units: float = 0.0
    unit: str = ""


@dataclass(frozen=True, slots=True)
class SupportAnswer(Checked):
    figure: str = ""
    allies: tuple[str, ...] = ()
    cd_bonus: int = 0
    leaders: tuple[str, ...] = ()
    chief_near: bool = False
    attention_chef: tuple[str, ...] = ()
    support_mm: float = 0.0
    support_units: float = 0.0
    leader_mm: float = 0.0
    leader_units: float = 0.0
    unit: str = ""


@dataclass(frozen=True, slots=True)
class InitiativeAnswer(Answer):
    henchmen: dict[str, int] = field(default_factory=dict)
    dice: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    reroll: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class DamageAnswer(Answer):
    strength: int = 0
    resistance: int = 0
    needed: int = 0
    die: int | None = None
    damage: bool | None = None


# --- the ruleset -----------------------------------------------------------------------


class Musg(Ruleset):
    """M.U.S.G.: characters measured in pas, edge to edge."""

    name = "musg"
    aliases = ("m.u.s.g.", "multi-universe-skirmishes-game")

    def parse_options(self, raw: Mapping[str, Any]) -> MusgOptions:
        return MusgOptions.model_validate(dict(raw))

    def unit(self, scene: Scene) -> Unit:
        return Unit("pas", _options(scene).pace_mm)

    def validate(self, scene: Scene) -> None:
        for index, figure in enumerate(scene.figures):
            where = f"figures[{index}].attrs"
            rank = figure.attrs.get("rank")
            if rank is not None and rank not in RANKS:
                raise SceneError(
                    scene.source,
                    f"{where}.rank",
                    f"expected one of {', '.join(RANKS)}, got {rank!r}",
                )
            if "move_pas" in figure.attrs:
                try:
                    _positive(figure.attrs["move_pas"], "move_pas")
                except ValueError:
                    raise SceneError(
                        scene.source,
                        f"{where}.move_pas",
                        f"expected a positive number, got {figure.attrs['move_pas']!r}",
                    ) from None
            if "weapon" in figure.attrs:
                try:
                    parse_weapon(figure.attrs["weapon"], "weapon")
                except ValueError as error:
                    field_name, _, problem = str(error).partition(": ")
                    raise SceneError(scene.source, f"{where}.{field_name}", problem) from None

    def questions(self) -> Mapping[str, Question]:
        return {
            "distance": Question("distance", ("A", "B"), "distance in pas", self.distance),
            "contact": Question("contact", ("A", "B"), "are two bases touching", self.contact),
            "fire": Question("fire", ("A", "B"), "may A shoot at B; cover rolls", self.fire),
            "move": Question("move", ("A", "X", "Y"), "may A move to (X, Y) mm", self.move),
            "run": Question("run", ("A", "X", "Y"), "may A run to (X, Y) mm", self.run),
            "charge": Question("charge", ("A", "X", "Y"), "may A charge to (X, Y)", self.charge),
            "reach": Question("reach", ("A",), "where may A move", self.reach),
            "leave": Question("leave", ("A",), "the cost of leaving a melee", self.leave),
            "support": Question("support", ("A",), "allies and leaders near A", self.support),
            "initiative": Question("initiative", (), "who starts the turn", self.initiative),
            "damage": Question("damage", ("F", "R"), "the damage roll F vs R", self.damage),
        }

    # --- measures ----------------------------------------------------------------------

    def distance(self, scene: Scene, a: str, b: str) -> DistanceAnswer:
        first, second = figure_named(scene, a), figure_named(scene, b)
        options = _options(scene)
        distance_mm = _measure(first, second, options)
        unit = self.unit(scene)
        sigma = combined_sigma(first.sigma_mm, second.sigma_mm)
        units = unit.from_mm(distance_mm)
        return DistanceAnswer(
            question="distance",
            message=f"{a} to {b}: {units:.2f} pas ({distance_mm:.1f} mm, {options.measure})"
            + (f" ± {sigma:.1f} mm" if sigma else ""),
            a=a,
            b=b,
            distance_mm=distance_mm,
            distance_units=units,
            unit=unit.name,
            mode=options.measure,
            sigma_mm=sigma,
        )

    def contact(self, scene: Scene, a: str, b: str) -> ContactAnswer:
        first, second = figure_named(scene, a), figure_named(scene, b)
        if first.id == second.id:
            raise QuestionError(f"{a!r} and {b!r} are the same figure")
        options = _options(scene)
        gap_mm = _gap(first, second, options)
        touching = gap_mm <= options.contact_tolerance_mm
        margin = Margin(
            "contact",
            abs(options.contact_tolerance_mm - gap_mm),
            combined_sigma(first.sigma_mm, second.sigma_mm),
        )
        verdict = "in contact" if touching else "not in contact"
        return ContactAnswer(
            question="contact",
            message=with_certainty(f"{a} and {b} are {verdict} (gap {gap_mm:.1f} mm)", margin),
            margins=(margin,),
            a=a,
            b=b,
            contact=touching,
            gap_mm=gap_mm,
            threshold_mm=options.contact_tolerance_mm,
        )

    # --- shooting ----------------------------------------------------------------------

    def fire(self, scene: Scene, a: str, b: str) -> MusgFireAnswer:
        options = _options(scene)
        unit = self.unit(scene)
        shooter, target = figure_named(scene, a), figure_named(scene, b)
        if shooter.id == target.id:
            raise QuestionError(f"{a!r} and {b!r} are the same figure")
        reasons: list[Reason] = []
        margins: list[Margin] = []
        warnings: list[str] = []
        if not scene.are_enemies(shooter.side, target.side):
            reasons.append(Reason.TARGET_NOT_ENEMY)
        weapon = _weapon(shooter)
        if weapon is None:
            reasons.append(Reason.NO_SHOOTERS)

        shapes = _footprints(scene, options)
        reach = options.contact_tolerance_mm
        low_x, low_y, high_x, high_y = shapes.of(target, options).bounds
        near = shapes.near((low_x - reach, low_y - reach, high_x + reach, high_y + reach))
        engaged = [
            f.id
            for f, close in zip(shapes.figures, near, strict=True)
            if close
            and f.id not in (shooter.id, target.id)
            and not scene.are_enemies(shooter.side, f.side)
            and scene.are_enemies(target.side, f.side)
            and _gap(f, target, options) <= options.contact_tolerance_mm
        ]
        if engaged:
            reasons.append(Reason.TARGET_ENGAGED)

        distance_mm = _measure(shooter, target, options)
        sigma = combined_sigma(shooter.sigma_mm, target.sigma_mm)
        band: str | None = None
        if weapon is not None:
            band, range_margins = _band(weapon, distance_mm, unit, sigma)
            margins.extend(range_margins)
            if band is None:
                reasons.append(Reason.OUT_OF_RANGE)

        sight = line_of_sight(scene, shooter, target, options)
        if sight.blocked:
            reasons.append(Reason.NOT_VISIBLE)
        margins.append(sight.margin(sigma))
        in_cover = sight.hidden_fraction > NUMBERS.cover_fraction
        cover_rolls: list[dict[str, Any]] = []
        if in_cover:
            for obstacle, obstacle_mm in sight.obstacle_distances_mm.items():
                obstacle_band = band
                if weapon is not None:
                    obstacle_band = weapon.band(unit.from_mm(obstacle_mm)) or band
                if obstacle_band is None:
                    continue
                roll = CoverRoll(
                    obstacle,
                    obstacle_mm,
                    unit.from_mm(obstacle_mm),
                    obstacle_band,
                    cover_roll_needed(obstacle_band),
                )
                cover_rolls.append(
                    {
                        "obstacle": roll.obstacle,
                        "distance_mm": roll.distance_mm,
                        "distance_units": roll.distance_units,
                        "unit": unit.name,
                        "band": roll.band,
                        "needed": roll.needed,
                    }
                )
        interposed: tuple[str, ...] = ()
        if weapon is not None and weapon.kind in BOW_KINDS:
            interposed = figures_on_line(scene, shooter, target, options)
            if interposed:
                warnings.append(
                    f"each of {', '.join(interposed)} rolls 1D6 in turn; the first "
                    f"{NUMBERS.bow_interception_face} takes the missile"
                )
        attention = _attention_chef(scene, target, options, unit)
        allowed = not reasons
        text = _fire_message(a, b, allowed, reasons, distance_mm, unit, band, sight, cover_rolls)
        decisive = tuple(margins)
        return MusgFireAnswer(
            question="fire",
            message=with_certainty(text, *decisive),
            margins=decisive,
            shooter=a,
            target=b,
            allowed=allowed,
            reasons=tuple(reasons),
            distance_mm=distance_mm,
            distance_units=unit.from_mm(distance_mm),
            unit=unit.name,
            band=band,
            blocked_by=tuple(engaged) + (sight.blockers if sight.blocked else ()),
            cover=tuple(r["obstacle"] for r in cover_rolls) if in_cover else (),
            warnings=tuple(warnings),
            shooters=(shooter.id,) if weapon is not None else (),
            hidden_fraction=sight.hidden_fraction,
            hidden_by=dict(sight.hidden_by),
            cover_rolls=tuple(cover_rolls),
            interposed=interposed,
            attention_chef=attention,
            weapon=None if weapon is None else weapon.kind,
        )

    # --- moving ------------------------------------------------------------------------

    def move(self, scene: Scene, a: str, x: str, y: str, mode: str = "walk") -> MusgMoveAnswer:
        if mode not in MODES:
            raise QuestionError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        options = _options(scene)
        unit = self.unit(scene)
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
            path = pathing.shortest_path(
                terrain, mover.xy, goal, radius_mm, max_cost_mm=allowance_mm
            )
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
                margins.append(
                    Margin("allowance", abs(allowance_mm - path.cost_mm), mover.sigma_mm)
                )
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

    def run(self, scene: Scene, a: str, x: str, y: str) -> MusgMoveAnswer:
        return self.move(scene, a, x, y, mode="run")

    def charge(self, scene: Scene, a: str, x: str, y: str) -> MusgMoveAnswer:
        return self.move(scene, a, x, y, mode="charge")

    def reach(self, scene: Scene, a: str, mode: str = "walk") -> MusgReachAnswer:
        if mode not in MODES:
            raise QuestionError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        options = _options(scene)
        unit = self.unit(scene)
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
            f"{area.area / 100:.0f} cm² within {allowance_units:g} pas",
            mover=a,
            area_mm2=float(area.area),
            polygons_mm=tuple(ring_points(p.exterior.coords) for p in polygons),
            holes_mm=tuple(tuple(ring_points(h.coords) for h in p.interiors) for p in polygons),
            allowance_mm=allowance_mm,
            allowance_units=allowance_units,
            unit=unit.name,
            mode=mode,
        )

    def leave(self, scene: Scene, a: str) -> LeaveAnswer:
        options = _options(scene)
        unit = self.unit(scene)
        figure = figure_named(scene, a)
        margins: list[Margin] = []
        engaged: list[str] = []
        friends: list[str] = []
        friend_mm = unit.to_mm(NUMBERS.leave_friend_pas)
        for other in scene.figures:
            if other.id == figure.id:
                continue
            sigma = combined_sigma(figure.sigma_mm, other.sigma_mm)
            if scene.are_enemies(figure.side, other.side):
                gap = _gap(figure, other, options)
                if gap <= options.contact_tolerance_mm:
                    engaged.append(other.id)
                margins.append(
                    Margin(f"contact {other.id}", abs(options.contact_tolerance_mm - gap), sigma)
                )
            else:
                d = _measure(figure, other, options)
                if d <= friend_mm:
                    friends.append(other.id)
                margins.append(Margin(f"friend {other.id}", abs(friend_mm - d), sigma))
        move_units = _move_pas(figure) * NUMBERS.leave_move_fraction if engaged else 0.0
        reasons = () if engaged else (Reason.NOT_IN_CONTACT,)
        points = max(NUMBERS.leave_minimum_points, len(engaged) - len(friends)) if engaged else 0
        if engaged:
            text = (
                f"{a} may leave the melee with {', '.join(engaged)} for {points} PA"
                f" ({len(engaged)} engaged, {len(friends)} friend(s) within "
                f"{NUMBERS.leave_friend_pas:g} pas), moving {move_units:g} pas away"
                " even in difficult ground"
            )
        else:
            text = f"{a} is not engaged in a melee"
        kept = tuple(sorted(margins, key=lambda m: m.margin_mm)[:3])
        return LeaveAnswer(
            question="leave",
            message=with_certainty(text, *kept),
            margins=kept,
            figure=a,
            allowed=bool(engaged),
            reasons=reasons,
            engaged_with=tuple(engaged),
            friends_near=tuple(friends),
            action_points=points,
            move_mm=unit.to_mm(move_units),
            move_units=move_units,
            unit=unit.name,
        )

    def support(self, scene: Scene, a: str) -> SupportAnswer:
        options = _options(scene)
        unit = self.unit(scene)
        figure = figure_named(scene, a)
        support_mm = unit.to_mm(NUMBERS.support_pas)
        leader_mm = unit.to_mm(NUMBERS.leader_pas)
        own_rank = _rank_index(figure)
        allies: list[tuple[float, str]] = []
        leaders: list[tuple[int, float, str]] = []
        margins: list[Margin] = []
        chief_near = False
        for other in scene.figures:
            if other.id == figure.id or scene.are_enemies(figure.side, other.side):
                continue
            d = _measure(figure, other, options)
            sigma = combined_sigma(figure.sigma_mm, other.sigma_mm)
            if d <= support_mm:
                allies.append((d, other.id))
            margins.append(Margin(f"ally {other.id}", abs(support_mm - d), sigma))
            rank = _rank_index(other)
            if rank is not None and (own_rank is None or rank > own_rank):
                if d <= leader_mm:
                    leaders.append((-rank, d, other.id))
                    chief_near = chief_near or other.attrs.get("rank") == "chief"
                margins.append(Margin(f"leader {other.id}", abs(leader_mm - d), sigma))
        allies.sort()
        leaders.sort()
        attention = _attention_chef(scene, figure, options, unit)
        kept = tuple(sorted(margins, key=lambda m: m.margin_mm)[:3])
        text = (
            f"{a}: {len(allies)} {'ally' if len(allies) == 1 else 'allies'} within "
            f"{NUMBERS.support_pas:g} pas (+{len(allies)} Cd)"
            + (
                f"; may test on the Cd of {', '.join(x[2] for x in leaders)} "
                f"within {NUMBERS.leader_pas:g} pas"
                if leaders
                else ""
            )
            + (f"; attention chef: {', '.join(attention)}" if attention else "")
        )
        return SupportAnswer(
            question="support",
            message=with_certainty(text, *kept),
            margins=kept,
            figure=a,
            allies=tuple(x[1] for x in allies),
            cd_bonus=len(allies),
            leaders=tuple(x[2] for x in leaders),
            chief_near=chief_near,
            attention_chef=attention,
            support_mm=support_mm,
            support_units=NUMBERS.support_pas,
            leader_mm=leader_mm,
            leader_units=NUMBERS.leader_pas,
            unit=unit.name,
        )

    # --- dice --------------------------------------------------------------------------

    def initiative(
        self,
        scene: Scene,
        dice: Mapping[str, Any] | None = None,
        henchmen: Mapping[str, Any] | None = None,
    ) -> InitiativeAnswer:
        counts: dict[str, int] = {}
        for figure in scene.figures:
            counts.setdefault(figure.side, 0)
            if figure.attrs.get("rank") == "henchman":
                counts[figure.side] += 1
        for side, value in (henchmen or {}).items():
            counts[str(side)] = _count(value, f"henchmen[{side}]")
        rolled = {str(side): _die(value, f"dice[{side}]") for side, value in (dice or {}).items()}
        unknown = sorted(set(rolled) - set(counts))
        if unknown:
            raise QuestionError(f"dice: no side {unknown[0]!r} on the table")
        if not rolled:
            listing = ", ".join(f"{s} +{n}" for s, n in counts.items())
            return InitiativeAnswer(
                question="initiative",
                message=f"each side rolls 1D6 plus its henchmen: {listing}",
                henchmen=counts,
            )
        missing = sorted(set(counts) - set(rolled))
        if missing:
            raise QuestionError(f"dice: no die given for side {missing[0]!r}")
        order, ties = initiative_order({s: (rolled[s], counts[s]) for s in counts})
        scores = {s: rolled[s] + counts[s] for s in counts}
        text = "order: " + ", ".join(f"{s} ({scores[s]})" for s in order)
        if ties:
            text += "; roll again: " + "; ".join(" vs ".join(t) for t in ties)
        return InitiativeAnswer(
            question="initiative",
            message=text,
            henchmen=counts,
            dice=rolled,
            scores=scores,
            order=tuple(order),
            reroll=tuple(tuple(t) for t in ties),
        )

    def damage(self, scene: Scene, f: str, r: str, die: Any = None) -> DamageAnswer:
        strength = _int_arg(f, "F")
        resistance = _int_arg(r, "R")
        needed = damage_needed(strength, resistance)
        text = f"strength {strength} against resistance {resistance}: {needed}+ to damage"
        result: bool | None = None
        rolled: int | None = None
        if die is not None:
            rolled = _int_arg(die, "die")
            result = damages(strength, resistance, rolled)
            text += f"; die {rolled}: " + ("a damage" if result else "no damage")
        return DamageAnswer(
            question="damage",
            message=text,
            strength=strength,
            resistance=resistance,
            needed=needed,
            die=rolled,
            damage=result,
        )


# --- line of sight ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sight:
    """What hides a target from a shooter's eye.

    ``hidden_fraction`` is the part of the angle the target's base spans at the eye
    covered by shadows; ``hidden_by`` gives each occluder's own share;
    ``obstacle_distances_mm`` the distance from the shooter to each occluder, nearest
    first; ``blocked`` whether sight-blocking terrain alone hides it whole.
    """

    hidden_fraction: float
    hidden_by: dict[str, float]
    obstacle_distances_mm: dict[str, float]
    blocked: bool
    blockers: tuple[str, ...]
    width_mm: float
    blocker_overlap_mm: float

    def margin(self, sigma_mm: float) -> Margin:
        """Margin of the cover verdict (or of the sight verdict when blocked), mm at the target."""
        if self.blocked:
            return Margin("sight", self.blocker_overlap_mm, sigma_mm)
        hidden_mm = self.hidden_fraction * self.width_mm
        return Margin("cover", abs(hidden_mm - NUMBERS.cover_fraction * self.width_mm), sigma_mm)


def angular_interval(
    eye: np.ndarray, ahead: np.ndarray, geometry: shapely.Geometry
) -> tuple[float, float]:
    """Angles (radians) of a geometry's extreme points seen from ``eye``, from direction ``ahead``.

    Parameters
    ----------
    eye : (2,) table mm
    ahead : (2,) unit vector of the sight line
    geometry : a geometry lying ahead of the eye (within 90 degrees of ``ahead``)

    >>> low, high = angular_interval(np.zeros(2), np.array([1.0, 0.0]),
    ...                              shapely.box(10, -10, 20, 10))
    >>> round(math.degrees(low), 1), round(math.degrees(high), 1)
    (-45.0, 45.0)
    """
    points = shapely.get_coordinates(geometry) - eye
    along = points @ ahead
    across = points @ np.array([-ahead[1], ahead[0]])
    angles = np.arctan2(across, along)
    return float(angles.min()), float(angles.max())


def _union_length(intervals: Sequence[tuple[float, float]]) -> float:
    """Total length of a union of intervals.

    >>> _union_length([(0.0, 2.0), (1.0, 3.0), (5.0, 6.0)])
    4.0
    """
    total = 0.0
    end = -math.inf
    for low, high in sorted(intervals):
        if high <= end:
            continue
        total += high - max(low, end)
        end = high
    return total


def _merged(intervals: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """A union of intervals as disjoint sorted intervals.

    >>> _merged([(0.0, 2.0), (1.0, 3.0), (5.0, 6.0)])
    [(0.0, 3.0), (5.0, 6.0)]
    """
    merged: list[tuple[float, float]] = []
    for low, high in sorted(intervals):
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def line_of_sight(scene: Scene, shooter: Figure, target: Figure, options: MusgOptions) -> Sight:
    """Shadows cast on the target from the shooter's eye (its centre)."""
    eye = shooter.xy
    shapes = _footprints(scene, options)
    target_shape = shapes.of(target, options)
    shooter_shape = shapes.of(shooter, options)
    offset = target.xy - eye
    length = float(np.hypot(*offset))
    empty = Sight(0.0, {}, {}, False, (), 0.0, 0.0)
    if length <= 0.0 or target_shape.contains(shapely.Point(eye)):
        return empty
    ahead = offset / length
    target_base = _base(target, options)
    if target_base.shape is BaseShape.ROUND:  # exact tangents, not the polygon's corners
        half = math.asin(min(1.0, target_base.radius_mm / length))
        t_low, t_high = -half, half
    else:
        t_low, t_high = angular_interval(eye, ahead, target_shape)
    span = t_high - t_low
    # The sight cone reaches the target's exact tangents: a round base is widened to the
    # polygon circumscribing its circle.
    seen_shape = target_shape
    if target_base.shape is BaseShape.ROUND:
        seen_shape = disc(target.x_mm, target.y_mm, target_base.radius_mm / _INSCRIBED)
    cone = (
        shapely.convex_hull(shapely.union(shapely.Point(eye), seen_shape))
        .difference(target_shape)
        .difference(shooter_shape)
    )
    occluders: list[tuple[str, shapely.Geometry, bool]] = []
    for feature in scene.terrain_of(COVER_TERRAIN):
        if feature.geometry.intersects(shooter_shape):
            continue  # a shooter looks over what it stands at
        occluders.append((feature.id, feature.geometry, feature.kind in options.sight_blockers))
    if options.figures_give_cover:
        near = shapes.near(cone.bounds)  # only figures the cone reaches cast a shadow
        near[near] = shapely.intersects(cone, shapes.polygons[near])
        occluders.extend(
            (f.id, shape, False)
            for f, shape, close in zip(shapes.figures, shapes.polygons, near, strict=True)
            if close and f.id not in (shooter.id, target.id)
        )
    shadows: dict[str, tuple[float, float]] = {}
    distances: dict[str, float] = {}
    blocking: list[tuple[float, float]] = []
    blockers: list[str] = []
    for ident, geometry, blocks in occluders:
        part = geometry.intersection(cone)
        if part.is_empty:
            continue
        low, high = angular_interval(eye, ahead, part)
        low, high = max(low, t_low), min(high, t_high)
        if high - low <= 1e-12:
            continue
        shadows[ident] = (low, high)
        if options.measure == "edge":
            distances[ident] = float(shapely.distance(shooter_shape, part))
        else:
            distances[ident] = float(shapely.distance(shapely.Point(eye), part))
        if blocks:
            blocking.append((low, high))
            blockers.append(ident)
    hidden = _union_length(list(shadows.values())) / span if span > 0 else 0.0
    blocked = bool(blocking) and _union_length(blocking) >= span * (1.0 - 1e-9)
    width_mm = 2.0 * length * math.tan(span / 2.0)
    overlap_mm = 0.0
    if blocked:
        # How far the blockers' shadow reaches past the target's sides, seen in a wedge
        # one target-width wider on each side (mm across the line at the target).
        wide = shapely.convex_hull(
            shapely.union(shapely.Point(eye), target_shape.buffer(width_mm))
        ).difference(target_shape)
        spans = []
        for ident, geometry, blocks in occluders:
            if blocks and ident in blockers:
                spans.append(angular_interval(eye, ahead, geometry.intersection(wide)))
        covering = _merged(spans)
        beyond = [
            min(t_low - low, high - t_high)
            for low, high in covering
            if low <= t_low + 1e-12 and high >= t_high - 1e-12
        ]
        overlap_mm = length * math.tan(max(beyond, default=0.0))
    order = sorted(distances, key=lambda k: distances[k])
    return Sight(
        hidden_fraction=min(1.0, hidden),
        hidden_by={k: (shadows[k][1] - shadows[k][0]) / span for k in order},
        obstacle_distances_mm={k: distances[k] for k in order},
        blocked=blocked,
        blockers=tuple(blockers),
        width_mm=width_mm,
        blocker_overlap_mm=overlap_mm,
    )


def figures_on_line(
    scene: Scene, shooter: Figure, target: Figure, options: MusgOptions
) -> tuple[str, ...]:
    """Figures whose base the line shooter -> target crosses before the target, nearest first."""
    line = shapely.LineString([shooter.xy, target.xy])
    shapes = _footprints(scene, options)
    hits = shapely.intersects(line, shapes.polygons)
    crossed: list[tuple[float, str]] = []
    for figure, shape, hit in zip(shapes.figures, shapes.polygons, hits, strict=True):
        if not hit or figure.id in (shooter.id, target.id):
            continue
        crossed.append((float(line.project(shape.centroid)), figure.id))
    return tuple(ident for _, ident in sorted(crossed))


# --- helpers ---------------------------------------------------------------------------


def _options(scene: Scene) -> MusgOptions:
    return scene_options(scene, MusgOptions)


def _base(figure: Figure, options: MusgOptions) -> Base:
    return figure.base if figure.base is not None else Base.round(options.base_diameter_mm)


def _footprint(figure: Figure, options: MusgOptions) -> shapely.Polygon:
    return _base(figure, options).footprint(figure.x_mm, figure.y_mm, figure.facing_deg)


@dataclass(frozen=True, slots=True, eq=False)
class Footprints:
    """A scene's bases as polygons, built once, with their bounding boxes (table mm)."""

    figures: tuple[Figure, ...]
    polygons: np.ndarray  # (N,) shapely.Polygon, in the order of ``figures``
    bounds: np.ndarray  # (N, 4) min x, min y, max x, max y
    index: Mapping[str, int]

    def of(self, figure: Figure, options: MusgOptions) -> shapely.Polygon:
        """A figure's footprint: the scene's own, built afresh for a figure not in it."""
        k = self.index.get(figure.id)
        if k is not None and self.figures[k] is figure:
            return self.polygons[k]
        return _footprint(figure, options)

    def near(self, box: tuple[float, float, float, float]) -> np.ndarray:
        """Which footprints (N,) have a bounding box within reach of ``box`` (min x, min y,
        max x, max y)."""
        low_x, low_y, high_x, high_y = box
        b = self.bounds
        return np.asarray(
            (b[:, 0] <= high_x + BOUNDS_SLACK_MM)
            & (b[:, 2] >= low_x - BOUNDS_SLACK_MM)
            & (b[:, 1] <= high_y + BOUNDS_SLACK_MM)
            & (b[:, 3] >= low_y - BOUNDS_SLACK_MM)
        )


@functools.lru_cache(maxsize=16)
def _footprints(scene: Scene, options: MusgOptions) -> Footprints:
    figures = scene.figures
    polygons = np.empty(len(figures), dtype=object)
    polygons[:] = [_footprint(f, options) for f in figures]
    bounds = np.asarray(shapely.bounds(polygons), dtype=np.float64).reshape(-1, 4)
    index: dict[str, int] = {}
    for k, f in enumerate(figures):
        index.setdefault(f.id, k)
    return Footprints(figures, polygons, bounds, index)


def _footprint_at(figure: Figure, xy: np.ndarray, options: MusgOptions) -> shapely.Polygon:
    base = _base(figure, options)
    if base.shape is BaseShape.ROUND:
        return disc(float(xy[0]), float(xy[1]), base.width_mm / 2)
    return base.footprint(float(xy[0]), float(xy[1]), figure.facing_deg)


def _radius(figure: Figure, options: MusgOptions) -> float:
    return _base(figure, options).radius_mm


def _gap(a: Figure, b: Figure, options: MusgOptions) -> float:
    """Gap between two bases (0 when they touch or overlap)."""
    base_a, base_b = _base(a, options), _base(b, options)
    if base_a.shape is BaseShape.ROUND and base_b.shape is BaseShape.ROUND:
        centres = float(np.hypot(*(a.xy - b.xy)))
        return max(0.0, centres - base_a.radius_mm - base_b.radius_mm)
    return float(shapely.distance(_footprint(a, options), _footprint(b, options)))


def _measure(a: Figure, b: Figure, options: MusgOptions) -> float:
    """A distance as the rules measure it: base edge to base edge, or centre to centre."""
    if options.measure == "centre":
        return float(np.hypot(*(a.xy - b.xy)))
    return _gap(a, b, options)


def _overlap_beyond(a: shapely.Geometry, b: shapely.Geometry, options: MusgOptions) -> bool:
    """Whether two bases overlap by more than the contact tolerance (a touch is no overlap)."""
    half = options.contact_tolerance_mm / 2.0
    if half > 0.0:
        a, b = a.buffer(-half), b.buffer(-half)
    return bool(a.intersection(b).area > TOUCH_MM)


def _move_pas(figure: Figure) -> float:
    if "move_pas" not in figure.attrs:
        raise QuestionError(f"figure {figure.id!r}: attrs.move_pas is missing (its move in pas)")
    return _positive(figure.attrs["move_pas"], f"figure {figure.id!r}: attrs.move_pas")


def _weapon(figure: Figure) -> Weapon | None:
    raw = figure.attrs.get("weapon")
    if raw is None:
        return None
    try:
        return parse_weapon(raw, "attrs.weapon")
    except ValueError as error:
        raise QuestionError(f"figure {figure.id!r}: {error}") from None


def _rank_index(figure: Figure) -> int | None:
    rank = figure.attrs.get("rank")
    return RANKS.index(rank) if rank in RANKS else None


def _attention_chef(
    scene: Scene, target: Figure, options: MusgOptions, unit: Unit
) -> tuple[str, ...]:
    """Friends of a chief within 1 pas who may take a shot meant for it."""
    if target.attrs.get("rank") != "chief":
        return ()
    reach_mm = unit.to_mm(NUMBERS.attention_chef_pas)
    near = [
        (_measure(target, other, options), other.id)
        for other in scene.figures
        if other.id != target.id and not scene.are_enemies(target.side, other.side)
    ]
    return tuple(ident for d, ident in sorted(near) if d <= reach_mm)


def _band(
    weapon: Weapon, distance_mm: float, unit: Unit, sigma: float
) -> tuple[str | None, list[Margin]]:
    limits_mm = [unit.to_mm(limit) for limit in weapon.limits_pas]
    band = weapon.band(unit.from_mm(distance_mm))
    margins = [Margin("range", abs(limits_mm[-1] - distance_mm), sigma)]
    if band is not None:
        nearest = min(abs(limit - distance_mm) for limit in limits_mm[:-1])
        margins.append(Margin("band", nearest, sigma))
    return band, margins


def _field(scene: Scene, mover: Figure, options: MusgOptions) -> pathing.Field:
    """What a move meets: other figures, impassable ground and buildings, costly ground."""
    hulls = tuple(
        pathing.DiscHull(np.array([[f.x_mm, f.y_mm, _radius(f, options)]]), f.id)
        for f in scene.figures
        if f.id != mover.id
    )
    polygons, costly = terrain_regions(scene, BLOCKING_TERRAIN, COSTLY_TERRAIN)
    return pathing.Field(scene.table.width_mm, scene.table.depth_mm, hulls, polygons, costly)


def _int_arg(value: Any, name: str) -> int:
    if isinstance(value, bool):
        raise QuestionError(f"{name} must be a whole number, got {value!r}")
    try:
        number = int(str(value).strip())
    except ValueError:
        raise QuestionError(f"{name} must be a whole number, got {value!r}") from None
    return number


def _die(value: Any, name: str) -> int:
    number = _int_arg(value, name)
    if not 1 <= number <= NUMBERS.die_faces:
        raise QuestionError(f"{name}: a die shows 1 to {NUMBERS.die_faces}, got {value!r}")
    return number


def _count(value: Any, name: str) -> int:
    number = _int_arg(value, name)
    if number < 0:
        raise QuestionError(f"{name} must be 0 or more, got {value!r}")
    return number


# --- human sentences -------------------------------------------------------------------


_REASON_TEXT = {
    Reason.TARGET_NOT_ENEMY: "the target is not an enemy",
    Reason.NO_SHOOTERS: "the shooter has no ranged weapon (attrs.weapon)",
    Reason.TARGET_ENGAGED: "the target is engaged in melee with a friend",
    Reason.OUT_OF_RANGE: "out of range",
    Reason.NOT_VISIBLE: "the target cannot be seen",
    Reason.OFF_TABLE: "the destination is off the table",
    Reason.IMPASSABLE: "the destination is on impassable ground",
    Reason.DESTINATION_OCCUPIED: "the destination overlaps",
    Reason.PATH_BLOCKED: "the way is blocked",
    Reason.OVER_ALLOWANCE: "too far",
    Reason.CHARGE_SHORT: "the charge ends out of contact: it becomes a run (2 PA)",
}


def _fire_message(
    a: str,
    b: str,
    allowed: bool,
    reasons: Sequence[Reason],
    distance_mm: float,
    unit: Unit,
    band: str | None,
    sight: Sight,
    cover_rolls: Sequence[Mapping[str, Any]],
) -> str:
    at = f"{unit.from_mm(distance_mm):.2f} pas"
    hidden = f"{sight.hidden_fraction:.0%} hidden"
    if allowed:
        text = f"{a} may shoot at {b} at {at} ({band} range), {hidden}"
        if cover_rolls:
            rolls = ", ".join(f"{r['obstacle']} {r['needed']}+" for r in cover_rolls)
            text += f"; in cover, cover rolls: {rolls}"
        return text
    because = [_REASON_TEXT[reason] for reason in reasons]
    return f"{a} may not shoot at {b} ({at}, {hidden}): " + "; ".join(because)


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
