"""Smooth & Rifled: who is a Leader, a musician, mounted, and the groups units form
around their Leaders (§3.1): a name is a formed group's, else a figure's.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from arbitre.rules.answers import Said
from arbitre.rules.grouping import Grouping as GroupingOf
from arbitre.rules.model import Figure, KeptByIdentity, Scene
from arbitre.rules.ruleset import unknown_figure_or_group
from arbitre.rules.smooth_and_rifled.bases import gaps_of
from arbitre.rules.smooth_and_rifled.book import MM_PER_CM, NUMBERS
from arbitre.rules.smooth_and_rifled.options import SmoothAndRifledOptions, options_of


def is_leader(figure: Figure) -> bool:
    return bool(figure.attrs.get("leader", False))


def is_musician(figure: Figure) -> bool:
    return bool(figure.attrs.get("musician", False))


def is_mounted(figure: Figure) -> bool:
    return figure.type == "cavalry"


def is_marker(figure: Figure) -> bool:
    """An ambush marker or an ammunition box: no fighter of either side."""
    return bool(figure.attrs.get("ambush", False) or figure.attrs.get("ammunition_of"))


def has_characteristic(figures: Sequence[Figure], name: str) -> bool:
    """Whether a group or unit (its Leader first) has a special characteristic (§8.0,
    ``attrs.<name>``): its Leader has it, or every other figure of it does.

    >>> men = [Figure(i, "grey", 0, 0, attrs={"skirmisher": True}) for i in "ab"]
    >>> has_characteristic([Figure("sgt", "grey", 0, 0), *men], "skirmisher")
    True
    """
    if not figures:
        return False
    leader, *others = figures
    return bool(leader.attrs.get(name, False)) or (
        bool(others) and all(f.attrs.get(name, False) for f in others)
    )


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
    skirmishers: bool = False  # §3.2: always in loose order, never a group charge

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.figures)

    @property
    def formed(self) -> bool:
        """A true group of 2 or more figures (fire arc 90 degrees, group moves)."""
        return len(self.figures) > 1

    def has(self, name: str) -> bool:
        """Whether the group has a special characteristic (`has_characteristic`)."""
        leader = self.leader
        if leader is None:
            return has_characteristic(self.figures, name)
        return has_characteristic([leader, *(f for f in self.figures if f.id != leader.id)], name)


Grouping = GroupingOf[Group]
"""A Smooth & Rifled scene's groups, a figure acting alone among them."""


def _loose(
    figure: Figure, skirmishers: bool, options: SmoothAndRifledOptions, warnings: list[str]
) -> bool:
    """Whether a leader's group is in loose order (light troops only; skirmishers always)."""
    if skirmishers:
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
    skirmishers: bool = False


_UNITS_FOUND: KeptByIdentity[_UnitFound] = KeptByIdentity(1024)
"""Each unit's `_UnitFound`, kept while its figures (and the scene's options) stay the
same objects: on a live table, only the units of the figures that moved are looked at
again."""


def _unit_found(scene: Scene, ids: Sequence[int], among: np.ndarray) -> _UnitFound:
    """Who of the unit ``ids`` (scene places, the Leader's first) joins the Leader, from
    the gaps ``among`` them."""
    options = options_of(scene)
    warnings: list[str] = []
    skirmishers = has_characteristic([scene.figures[i] for i in ids], "skirmisher")
    loose = _loose(scene.figures[ids[0]], skirmishers, options, warnings)
    chain_mm = options.mm(NUMBERS.loose_chain_cm if loose else NUMBERS.chain_cm)
    radius_mm = options.mm(options.leader_radius_cm)
    either = options.group_rule == "chain_or_radius"
    members = _members(among, chain_mm, radius_mm, either)
    if any(is_musician(scene.figures[ids[k]]) for k in members):
        radius_mm *= NUMBERS.musician_factor
        members = _members(among, chain_mm, radius_mm, either)
    return _UnitFound(tuple(members), loose, chain_mm, radius_mm, tuple(warnings), skirmishers)


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
    setup: dict[int, _UnitFound] = {}
    for k, ids in enumerate(units):
        unit = kept[k] or fresh[k]
        li = ids[0]
        warnings.extend(unit.warnings)
        setup[li] = unit
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
        unit = setup[li]
        crew_sorted = sorted(crew)
        groups.append(
            Group(
                name,
                leader.side,
                tuple(figures[i] for i in crew_sorted),
                leader,
                unit.loose,
                unit.chain_mm,
                unit.radius_mm,
                unit.skirmishers,
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
    return GroupingOf(tuple(groups), tuple(warnings))


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
    setup: Mapping[int, _UnitFound],
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
    chain_mm, radius_mm = setup[li].chain_mm, setup[li].radius_mm
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
