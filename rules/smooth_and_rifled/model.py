"""Smooth & Rifled: options, the book's distances as data, base footprints and groups.

Every measure of the game is base edge to base edge, in cm (28 mm figures); the
``scale: 15mm`` option halves every distance of the rules. Figures stand on 2x2 cm
square or 25 mm round bases; a figure without a ``base`` has a 25 mm round one.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Annotated, Any, Literal, overload

import numpy as np
import shapely
from pydantic import BaseModel, ConfigDict, Field

from arbitre.rules.answers import Said, Unit
from arbitre.rules.errors import QuestionError, UnknownName, shown
from arbitre.rules.geometry import base_gaps_mm, pair_gaps_mm
from arbitre.rules.model import Base, BaseShape, Figure, KeptByIdentity, Scene, centres_mm
from arbitre.rules.options import GapMm, Takes
from arbitre.rules.ruleset import scene_options, unknown_figure_or_group

MM_PER_CM = 10.0
UNIT = Unit("cm", MM_PER_CM)

# --- the options questions take (``--with``), typed (see arbitre.rules.options) ----------

Action = Literal["first", "later"]
"""The ``action`` option of moves and charges: the activation's first action or a later one."""
ActionIndex = Annotated[int, Field(ge=1, le=3), Takes("the action's rank, 1, 2 or 3")]
"""The ``action_index`` option: which action of the activation (3: running)."""
Calibre = Literal["light", "medium"]
"""The ``calibre`` option of ``explosion``: a gun of `GUNS`."""
Edge = Literal["x0", "x_max", "y0", "y_max"]
"""The ``edge`` option of ``deployment``: the table edge a side deploys along."""
Turn = Annotated[int, Field(ge=1, le=1000), Takes("a turn's number, a whole number 1 to 1000")]
"""The ``turn`` option of ``objective``."""
LengthCm = Annotated[
    float,
    Field(gt=0, le=1000, allow_inf_nan=False, strict=True),
    Takes("a length in cm, a number above 0 and at most 1000"),
]
"""The ``length_cm`` option of ``roundshot``: the strip's length rolled, in cm."""
VaLast = Annotated[
    int, Field(ge=1, le=6), Takes("the last number of the spotter's VA, a whole number 1 to 6")
]
"""The ``va`` option of ``spot``."""


class SmoothAndRifledOptions(BaseModel):
    """``options:`` of a Smooth & Rifled scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    scale: Literal["28mm", "15mm"] = "28mm"
    contact_tolerance_mm: GapMm = 2.0
    loose_order: bool = False
    group_rule: Literal["chain_and_radius", "chain_or_radius"] = "chain_and_radius"
    leader_radius_cm: Annotated[float, Field(gt=0, allow_inf_nan=False, le=10_000, strict=True)] = (
        10.0
    )

    @property
    def scale_factor(self) -> float:
        """Factor applied to every distance of the rules (15 mm games halve them)."""
        return 0.5 if self.scale == "15mm" else 1.0

    def mm(self, rule_cm: float) -> float:
        """A distance of the rule book (cm at 28 mm) as table millimetres at this scale.

        >>> SmoothAndRifledOptions(scale="15mm").mm(12)
        60.0
        """
        return rule_cm * MM_PER_CM * self.scale_factor

    def mm_or(self, rule_cm: float, small_scale_cm: float | None) -> float:
        """A distance the book gives for both scales: its own 15 mm value when it has one.

        >>> small, large = SmoothAndRifledOptions(scale="15mm"), SmoothAndRifledOptions()
        >>> small.mm_or(25, 15), large.mm_or(25, 15)
        (150.0, 250.0)
        """
        if self.scale == "15mm" and small_scale_cm is not None:
            return small_scale_cm * MM_PER_CM
        return self.mm(rule_cm)


@dataclass(frozen=True, slots=True)
class Numbers:
    """The book's distances (cm, 28 mm scale) and angles."""

    chain_cm: float = 3.0
    loose_chain_cm: float = 8.0
    musician_factor: float = 2.0
    single_arc_deg: float = 180.0
    group_arc_deg: float = 90.0
    charge_arc_deg: float = 180.0
    cover_ignore_cm: float = 3.0
    wood_sight_cm: float = 5.0
    same_wood_sight_cm: float = 15.0
    window_sight_cm: float = 30.0
    group_charge_cm: float = 8.0
    max_attackers: int = 2
    volley_spread_cm: float = 8.0
    strip_width_cm: float = 4.0
    canister_cone_deg: float = 90.0
    default_base_mm: float = 25.0
    max_actions: int = 3
    backwards_cm: float = 3.0  # §6.1: at most 3 cm backwards keeping the facing
    save_radius_cm: float = 5.0  # §6.2.8: the hit passes to the nearest figure within 5 cm
    save_from: int = 4  # §6.2.8: 1-3 the figure is hit, 4-6 the hit passes
    rally_cm: float = 20.0  # §6.2.9: 1 action with a Leader, standard or hero within 20 cm
    rally_actions: tuple[int, int] = (1, 2)
    standard_morale_cm: float = 30.0  # §7.0: most companions within 30 cm
    standard_reroll_cm: float = 40.0  # §8.0: at least 50% of friends within 40 cm
    objective_friend_cm: float = 3.0  # Annexe II scenario 1: a friend within 3 cm
    objective_enemy_cm: float = 25.0  # ... no enemy within 25 cm
    objective_enemy_15mm_cm: float = 15.0  # ... (15 cm in 15 mm, the book's own number)
    objective_from_turn: int = 3
    deployment_cm: float = 30.0  # Annexe I: 30 cm from the table edge (15 cm in 15 mm)
    scout_deployment_cm: float = 40.0  # ... scouts 40 cm
    scout_deployment_15mm_cm: float = 25.0  # ... (25 cm in 15 mm, the book's own number)
    withdrawal_cm: float = 15.0  # §6.7.3: fall back 15 cm + 1d6
    spot_cm: float = 30.0  # §6.3: an ambush is never spotted beyond 30 cm
    scout_spot_cm: float = 45.0  # §6.3, §8.0: scouts spot at 45 cm
    auto_spot_cm: float = 15.0  # §6.3: spotted automatically at 15 cm or less
    spot_arc_deg: float = 180.0
    crew_cm: float = 3.0  # Artillerie: gunners within 3 cm of their piece
    ammunition_cm: float = 10.0  # Artillerie: an ammunition box within 10 cm


NUMBERS = Numbers()
_DEFAULT_BASE = Base.round(NUMBERS.default_base_mm)


@dataclass(frozen=True, slots=True)
class Gun:
    """An artillery piece's numbers (Règles avancées, light and medium guns)."""

    medium_range_cm: float
    canister_cm: float
    explosion_cm: float
    strip_dice: int
    strip_factor: int
    crew: tuple[int, int] = (3, 6)


GUNS: Mapping[str, Gun] = MappingProxyType(
    {
        "light": Gun(
            medium_range_cm=60.0, canister_cm=30.0, explosion_cm=20.0, strip_dice=4, strip_factor=1
        ),
        "medium": Gun(
            medium_range_cm=90.0,
            canister_cm=45.0,
            explosion_cm=30.0,
            strip_dice=4,
            strip_factor=2,
            crew=(4, 12),
        ),
    }
)

MOVES_CM: Mapping[tuple[str, str], tuple[float, float]] = MappingProxyType(
    {
        ("infantry", "normal"): (12.0, 8.0),
        ("infantry", "charge"): (12.0, 8.0),
        ("infantry", "column"): (12.0, 8.0),
        ("infantry", "road"): (12.0, 8.0),
        ("infantry_group", "normal"): (8.0, 5.0),
        ("infantry_group", "charge"): (12.0, 8.0),
        ("infantry_group", "column"): (12.0, 8.0),
        ("infantry_group", "road"): (12.0, 8.0),
        ("cavalry", "normal"): (20.0, 12.0),
        ("cavalry", "charge"): (20.0, 12.0),
        ("cavalry", "road"): (20.0, 12.0),
        ("artillery", "normal"): (6.0, 4.0),
        ("artillery", "road"): (16.0, 10.0),
    }
)
"""Move per action (first, later) in cm, by kind of mover and kind of move (§6.1)."""

FIGURE_TYPES = ("infantry", "cavalry", "artillery")


def options_of(scene: Scene) -> SmoothAndRifledOptions:
    return scene_options(scene, SmoothAndRifledOptions)


def base_of(figure: Figure) -> Base:
    """The figure's base, a 25 mm round one when the scene gives none."""
    return figure.base if figure.base is not None else _DEFAULT_BASE


def footprint(figure: Figure) -> shapely.Polygon:
    return base_of(figure).footprint(figure.x_mm, figure.y_mm, figure.facing_deg)


class Footprints:
    """The figures' footprints, in ``scene.figures`` order, each made the first time it is
    asked for: ``prints[i]`` a polygon, ``prints[[i, j]]`` an object array of them."""

    def __init__(self, figures: Sequence[Figure]) -> None:
        self._figures = figures
        self._made: dict[int, shapely.Polygon] = {}

    def __len__(self) -> int:
        return len(self._figures)

    def _one(self, index: int) -> shapely.Polygon:
        made = self._made.get(index)
        if made is None:
            made = self._made[index] = footprint(self._figures[index])
        return made

    @overload
    def __getitem__(self, index: int | np.integer[Any]) -> shapely.Polygon: ...

    @overload
    def __getitem__(self, index: Sequence[int] | np.ndarray) -> np.ndarray: ...

    def __getitem__(
        self, index: int | np.integer[Any] | Sequence[int] | np.ndarray
    ) -> shapely.Polygon | np.ndarray:
        if isinstance(index, (int, np.integer)):
            return self._one(int(index))
        return np.array([self._one(int(i)) for i in index] + [None], dtype=object)[:-1]


@functools.lru_cache(maxsize=16)
def footprints(scene: Scene) -> Footprints:
    """Every figure's footprint, in ``scene.figures`` order (made when first needed)."""
    return Footprints(scene.figures)


def index_of(scene: Scene, figure_id: str) -> int:
    index = _indices(scene).get(figure_id)
    if index is None:
        raise UnknownName("figure", figure_id, (f.id for f in scene.figures))
    return index


@functools.lru_cache(maxsize=16)
def _indices(scene: Scene) -> dict[str, int]:
    """Each figure's place in ``scene.figures`` (the first, should two share an id)."""
    indices: dict[str, int] = {}
    for index, figure in enumerate(scene.figures):
        indices.setdefault(figure.id, index)
    return indices


class Gaps:
    """Edge-to-edge gaps between a scene's figures, mm, each measured when first asked for
    (`arbitre.rules.geometry.base_gaps_mm`: closed form where a base is round)."""

    def __init__(self, scene: Scene) -> None:
        bases = [base_of(f) for f in scene.figures]
        self._radii = np.array(
            [b.width_mm / 2 if b.shape is BaseShape.ROUND else np.nan for b in bases]
        )
        self._xy = centres_mm(scene.figures)
        self._prints = footprints(scene)
        self._rows: dict[int, np.ndarray] = {}

    def row(self, index: int) -> np.ndarray:
        """Gaps (N,) from one figure to every figure (0 to itself)."""
        row = self._rows.get(index)
        if row is None:
            row = self._rows[index] = self.block([index], None)[0]
        return row

    def block(self, rows: Sequence[int], cols: Sequence[int] | None) -> np.ndarray:
        """Gaps (len(rows), len(cols)) from the figures ``rows`` to the figures ``cols``
        (to every figure when ``cols`` is None)."""
        return base_gaps_mm(self._xy, self._radii, self._prints, rows, cols)

    def blocks(self, sets: Sequence[Sequence[int]]) -> list[np.ndarray]:
        """The gaps among each set of figures, (len(set), len(set)) each, measured at once."""
        firsts = [np.repeat(ids, len(ids)) for ids in sets]
        seconds = [np.tile(ids, len(ids)) for ids in sets]
        if not sets:
            return []
        gaps = pair_gaps_mm(
            self._xy, self._radii, self._prints, np.concatenate(firsts), np.concatenate(seconds)
        )
        ends = np.cumsum([len(ids) ** 2 for ids in sets])[:-1]
        return [
            block.reshape(len(ids), len(ids))
            for ids, block in zip(sets, np.split(gaps, ends), strict=True)
        ]

    def pair(self, a: int, b: int) -> float:
        """The gap between two figures."""
        row = self._rows.get(a)
        return float(row[b] if row is not None else self.block([a], [b])[0, 0])


@functools.lru_cache(maxsize=16)
def gaps_of(scene: Scene) -> Gaps:
    """The scene's gaps, measured as questions ask for them."""
    return Gaps(scene)


def figure_gap_mm(scene: Scene, a: Figure, b: Figure) -> float:
    """Edge-to-edge gap between two figures of a scene, mm."""
    return gaps_of(scene).pair(index_of(scene, a.id), index_of(scene, b.id))


def is_leader(figure: Figure) -> bool:
    return bool(figure.attrs.get("leader", False))


def is_musician(figure: Figure) -> bool:
    return bool(figure.attrs.get("musician", False))


def is_mounted(figure: Figure) -> bool:
    return figure.type == "cavalry"


# --- groups ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Group:
    """A group (2+ figures of one unit under a Leader) or a figure acting alone."""

    name: str
    side: str
    figures: tuple[Figure, ...]
    leader: Figure | None
    loose: bool = False
    chain_mm: float = 0.0
    radius_mm: float = 0.0

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.figures)

    @property
    def formed(self) -> bool:
        """A true group of 2 or more figures (fire arc 90 degrees, group moves)."""
        return len(self.figures) > 1


@dataclass(frozen=True, slots=True)
class Grouping:
    groups: tuple[Group, ...]
    warnings: tuple[str, ...]

    def by_name(self, name: str) -> Group | None:
        return next((g for g in self.groups if g.name == name), None)

    def of_figure(self, figure_id: str) -> Group:
        return next(g for g in self.groups if figure_id in g.ids)


def _loose(figure: Figure, options: SmoothAndRifledOptions, warnings: list[str]) -> bool:
    """Whether a leader's group is in loose order (light troops only; skirmishers always)."""
    if figure.attrs.get("skirmisher", False):
        return True
    wants = bool(figure.attrs.get("loose_order", options.loose_order and figure.attrs.get("light")))
    if wants and not figure.attrs.get("light", False):
        warnings.append(
            Said(
                "loose_order_refused",
                "{figure} asks for loose order but is not light troops (attrs.light): close order",
                figure=figure.id,
            )
        )
        return False
    return wants


def _members(gaps: np.ndarray, chain_mm: float, radius_mm: float, either: bool) -> list[int]:
    """Figures joining a leader: chained by gaps <= chain_mm and (or) within radius_mm of him.
    ``gaps`` are those among the leader (0) and the figures of his unit; so are the
    places returned, the leader's first."""
    members = [0]
    waiting = list(range(1, len(gaps)))
    grew = True
    while grew:
        grew = False
        for i in list(waiting):
            near_leader = gaps[i, 0] <= radius_mm
            chained = any(gaps[i, j] <= chain_mm for j in members)
            if (near_leader or chained) if either else (near_leader and chained):
                members.append(i)
                waiting.remove(i)
                grew = True
    return members


@dataclass(frozen=True, slots=True)
class _UnitFound:
    """Who of a Leader's unit joins him, and under which limits (places in the unit's
    list of figures, the Leader's first)."""

    members: tuple[int, ...]
    loose: bool
    chain_mm: float
    radius_mm: float
    warnings: tuple[str, ...]


_UNITS_FOUND: KeptByIdentity[_UnitFound] = KeptByIdentity(1024)
"""Each unit's `_UnitFound`, kept while its figures (and the scene's options) stay the
same objects: on a live table, only the units of the figures that moved are looked at
again."""


def _unit_found(scene: Scene, ids: Sequence[int], among: np.ndarray) -> _UnitFound:
    """Who of the unit ``ids`` (scene places, the Leader's first) joins the Leader, from
    the gaps ``among`` them."""
    options = options_of(scene)
    warnings: list[str] = []
    loose = _loose(scene.figures[ids[0]], options, warnings)
    chain_mm = options.mm(NUMBERS.loose_chain_cm if loose else NUMBERS.chain_cm)
    radius_mm = options.mm(options.leader_radius_cm)
    either = options.group_rule == "chain_or_radius"
    members = _members(among, chain_mm, radius_mm, either)
    if any(is_musician(scene.figures[ids[k]]) for k in members):
        radius_mm *= NUMBERS.musician_factor
        members = _members(among, chain_mm, radius_mm, either)
    return _UnitFound(tuple(members), loose, chain_mm, radius_mm, tuple(warnings))


@functools.lru_cache(maxsize=16)
def find_groups(scene: Scene) -> Grouping:
    """The groups of a scene: each Leader with the figures of his unit that qualify.

    A figure qualifies (``group_rule: chain_and_radius``, the book's text) when it is
    chained to the Leader's group by edge gaps of at most 3 cm (8 cm in loose order)
    and lies within 10 cm of the Leader (20 cm with a musician in the group), edge to
    edge. ``chain_or_radius`` (the worked example of §3.1) asks for either test.
    Other figures act alone: each is a group of one named after itself.
    """
    options = options_of(scene)
    figures = scene.figures
    warnings: list[str] = []
    claims: dict[int, list[int]] = {}
    leaders = [i for i, f in enumerate(figures) if is_leader(f)]
    followers: dict[tuple[str, str | None], list[int]] = {}
    for i, f in enumerate(figures):
        if not is_leader(f):
            followers.setdefault((f.side, _unit_key(f)), []).append(i)
    units = [
        [li, *(i for i in followers.get((figures[li].side, _unit_key(figures[li])), []))]
        for li in leaders
    ]
    keys = [(options, *(figures[i] for i in ids)) for ids in units]
    kept = [_UNITS_FOUND.get(key) for key in keys]
    missing = [k for k, unit in enumerate(kept) if unit is None]
    fresh = {
        k: _unit_found(scene, units[k], among)
        for k, among in zip(
            missing, gaps_of(scene).blocks([units[k] for k in missing]), strict=True
        )
    }
    for k, unit in fresh.items():
        _UNITS_FOUND.keep(keys[k], unit)
    setup: dict[int, tuple[bool, float, float]] = {}
    for k, ids in enumerate(units):
        unit = kept[k] or fresh[k]
        li = ids[0]
        warnings.extend(unit.warnings)
        setup[li] = (unit.loose, unit.chain_mm, unit.radius_mm)
        for k in unit.members[1:]:
            claims.setdefault(ids[k], []).append(li)

    crews: dict[int, list[int]] = {li: [li] for li in leaders}
    gaps = gaps_of(scene)
    for i, heads in claims.items():
        named = [
            li
            for li in heads
            if figures[li].group is not None and figures[li].group == figures[i].group
        ]
        if named or len(heads) == 1:
            chosen = (named or heads)[0]
        else:  # the nearest of the leaders it could follow
            chosen = heads[int(gaps.block([i], heads)[0].argmin())]
        if len(heads) > 1:
            others = ", ".join(figures[li].id for li in heads if li != chosen)
            warnings.append(
                Said(
                    "two_leaders",
                    "{figure} could follow {leader} or {others}: counted with {leader}",
                    figure=figures[i].id,
                    leader=figures[chosen].id,
                    others=others,
                )
            )
        crews[chosen].append(i)

    names_taken: set[str] = set()
    groups: list[Group] = []
    grouped: set[int] = set()
    units_with_groups: dict[str | None, int] = {}
    for li, crew in crews.items():
        if len(crew) > 1:
            units_with_groups[figures[li].unit] = units_with_groups.get(figures[li].unit, 0) + 1
    for li, crew in crews.items():
        if len(crew) < 2:
            continue
        leader = figures[li]
        name = _group_name(leader, units_with_groups, names_taken)
        names_taken.add(name)
        loose, chain_mm, radius_mm = setup[li]
        crew_sorted = sorted(crew)
        groups.append(
            Group(
                name,
                leader.side,
                tuple(figures[i] for i in crew_sorted),
                leader,
                loose,
                chain_mm,
                radius_mm,
            )
        )
        grouped.update(crew)
    for i, figure in enumerate(figures):
        if i in grouped:
            continue
        if figure.group is not None and not is_leader(figure):
            warnings.append(_alone_reason(scene, i, leaders, setup))
        groups.append(
            Group(figure.id, figure.side, (figure,), figure if is_leader(figure) else None)
        )
    return Grouping(tuple(groups), tuple(warnings))


def _unit_key(figure: Figure) -> str | None:
    """What makes figures one unit: their ``unit``, else their ``group``."""
    return figure.unit if figure.unit is not None else figure.group


def _group_name(leader: Figure, units: Mapping[str | None, int], taken: set[str]) -> str:
    """A group's name: its Leader's ``group``, else its unit's (one group in it), else his id."""
    for name in (leader.group, leader.unit if units.get(leader.unit, 0) == 1 else None):
        if name is not None and name not in taken:
            return name
    return leader.id


def _alone_reason(
    scene: Scene,
    index: int,
    leaders: list[int],
    setup: Mapping[int, tuple[bool, float, float]],
) -> str:
    figure = scene.figures[index]
    same = [
        li
        for li in leaders
        if scene.figures[li].side == figure.side
        and (scene.figures[li].group == figure.group or scene.figures[li].unit == figure.unit)
    ]
    if not same:
        return Said(
            "no_leader",
            "{figure} (group {group}) acts alone: no Leader of its unit",
            figure=figure.id,
            group=figure.group,
        )
    gaps = gaps_of(scene).row(index)
    li = min(same, key=lambda j: gaps[j])
    _, chain_mm, radius_mm = setup[li]
    return Said(
        "leader_too_far",
        "{figure} (group {group}) acts alone: {cm} cm from its Leader {leader} (at most "
        "{most} cm) or not chained within {chain} cm",
        figure=figure.id,
        group=figure.group,
        cm=f"{gaps[li] / MM_PER_CM:.1f}",
        leader=scene.figures[li].id,
        most=f"{radius_mm / MM_PER_CM:g}",
        chain=f"{chain_mm / MM_PER_CM:g}",
    )


# --- names and extras ------------------------------------------------------------------


def resolve(scene: Scene, name: str) -> tuple[Group | None, Figure]:
    """A name is first a formed group's name (its Leader answers), then a figure's id."""
    grouping = find_groups(scene)
    group = grouping.by_name(name)
    if group is not None and group.formed:
        assert group.leader is not None
        return group, group.leader
    figure = scene.figure(name)
    if figure is None:
        raise unknown_figure_or_group(scene, grouping.groups, name)
    return None, figure


def flag(value: object, name: str) -> bool:
    """A yes/no extra given as a bool or as text (``true``, ``no``, ``1`` ...)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().casefold() in (
        "true",
        "yes",
        "1",
        "false",
        "no",
        "0",
    ):
        return value.strip().casefold() in ("true", "yes", "1")
    raise QuestionError(f"{name} must be true or false, got {value!r}")


def number(value: object, name: str, *, positive: bool = False) -> float:
    """A number extra given as a number or as text."""
    try:
        result = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise QuestionError(f"{name} must be a number, got {value!r}") from None
    if not np.isfinite(result) or (positive and result <= 0):
        raise QuestionError(
            f"{name} must be a finite{' positive' if positive else ''} number, got {value!r}"
        )
    return result


def choice(value: object, name: str, allowed: tuple[str, ...]) -> str:
    text = str(value).strip().casefold()
    if text not in allowed:
        raise QuestionError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    return text


def action_index(action: object, index: object) -> int:
    """Which action of the activation: ``action: first|later`` or ``action_index: 1..3``."""
    if index is not None:
        value = number(index, "action_index")
        if value not in (1, 2, 3):
            raise QuestionError(f"action_index must be 1, 2 or 3, got {index!r}")
        if action is not None and (choice(action, "action", ("first", "later")) == "first") != (
            value == 1
        ):
            raise QuestionError(f"action {action!r} contradicts action_index {index!r}")
        return int(value)
    if action is None:
        return 1
    return 1 if choice(action, "action", ("first", "later")) == "first" else 2


def va_last(figure: Figure) -> int | None:
    """The last number of a figure's VA (``attrs.va``, like ``1/2/2``), a die's face; None
    when the figure gives none.

    >>> va_last(Figure("scout", "blue", 0, 0, attrs={"va": "1/2/4"}))
    4
    """
    declared = figure.attrs.get("va")
    if declared is None:
        return None
    parts = str(declared).replace("-", "/").split("/") if isinstance(declared, str) else declared
    last = parts[-1] if isinstance(parts, list | tuple) and parts else None
    if isinstance(last, str) and last.strip().isdigit():
        last = int(last.strip())
    if isinstance(last, bool) or not isinstance(last, int) or not 1 <= last <= VA_FACES:
        raise QuestionError(
            f"figure {figure.id!r}: attrs.va must be like 1/2/2, its last number a die's "
            f"face 1 to {VA_FACES}, got {shown(declared)}"
        )
    return last


VA_FACES = 6
"""The faces of the die a VA's last number is compared with."""

MIN_RANGE_CM = 1.0
"""The shortest medium range a weapon may give (the book's run from 15 to 90 cm)."""

MAX_RANGE_CM = 3000.0
"""The longest medium range a weapon may give: its extreme range, 3R, is then 90 m, within
the largest table (100 m)."""


def weapon_range_cm(figure: Figure) -> float | None:
    """The weapon's medium range R in cm (``attrs.weapon.medium_range_cm``), None if unarmed."""
    weapon = figure.attrs.get("weapon")
    if weapon is None:
        return None
    if not isinstance(weapon, Mapping) or "medium_range_cm" not in weapon:
        raise QuestionError(f"figure {figure.id!r}: attrs.weapon needs medium_range_cm")
    value = weapon["medium_range_cm"]
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not MIN_RANGE_CM <= value <= MAX_RANGE_CM
    ):
        raise QuestionError(
            f"figure {figure.id!r}: attrs.weapon.medium_range_cm must be a number of cm, "
            f"{MIN_RANGE_CM:g} to {MAX_RANGE_CM:g}, got {shown(value)}"
        )
    return float(value)
