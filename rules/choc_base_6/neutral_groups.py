"""Groups on a neutral surface: declared or found by chaining, and their footprints."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely

from arbitre.rules.answers import Said
from arbitre.rules.choc_base_6.book import NUMBERS, group_too_big
from arbitre.rules.choc_base_6.options import ChocBase6Options, options_of
from arbitre.rules.errors import QuestionError, SceneError
from arbitre.rules.geometry import centre_distance_mm, disc_hulls, pairs_within
from arbitre.rules.grouping import Grouping as GroupingOf
from arbitre.rules.links import Links
from arbitre.rules.model import Figure, Scene, centres_mm
from arbitre.rules.ruleset import unknown_figure_or_group


@dataclass(frozen=True, slots=True)
class Group:
    """A CB6 group: its figures, side and reference figure.

    ``reference`` is None when no figure of the group is its reference figure (it
    was eliminated, or its marker is not seen): the group still stands on the
    table, but nothing can be measured from it.
    """

    name: str
    side: str
    figures: tuple[Figure, ...]
    reference: Figure | None
    declared: bool

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(figure.id for figure in self.figures)


Grouping = GroupingOf[Group]
"""A CB6 neutral scene's groups."""


@functools.lru_cache(maxsize=16)
def find_groups(scene: Scene) -> Grouping:
    """The groups of a CB6 scene: declared ones, and the others found by chaining.

    A figure without a ``group`` joins the figures of its side whose centres are
    less than two thicknesses from it (the gap between them less than a
    thickness), transitively; such a cluster joins the declared group it touches,
    or forms a group named after its reference figure. A cluster with no reference
    figure is still a group (ANNEXE 2: groups are made by proximity), named after
    its first figure, with no reference and a warning.
    """
    options = options_of(scene)
    chain_mm = options.contact_distance_mm
    figures = scene.figures
    chains: Links[int] = Links(range(len(figures)))
    xy = centres_mm(figures)
    close = _close_pairs(xy, chain_mm)
    near: dict[int, list[int]] = defaultdict(list)  # each figure's close figures
    for i, j in close:
        near[i].append(j)
        near[j].append(i)
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
            members[loose[0].id].extend(loose)
        else:  # split by nearest reference; a reference leads its own group
            for figure in loose:
                nearest = (
                    figure
                    if figure.reference
                    else min(references, key=lambda f: centre_distance_mm(f.xy, figure.xy))
                )
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
            ids = ", ".join(f.id for f in crew)
            warnings.append(
                Said(
                    "group_without_reference",
                    "group {group} ({figures}) has no reference figure: nothing can be "
                    "measured from it (no_reference)",
                    group=name,
                    figures=ids,
                )
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
            warnings.append(group_too_big(name, len(crew)))
        if (
            name in declared
            and len(crew) > 1
            and not _chained([figure_index[f.id] for f in crew], near)
        ):
            warnings.append(
                Said(
                    "group_apart",
                    "group {group} is not together: its figures are not all within {mm} mm "
                    "of each other",
                    group=name,
                    mm=f"{options.thickness_mm:g}",
                )
            )
        reference = references[0] if references else None
        groups.append(Group(name, sides[0], tuple(crew), reference, name in declared))
    return GroupingOf(tuple(groups), tuple(warnings))


def _close_pairs(xy: np.ndarray, below_mm: float) -> list[tuple[int, int]]:
    pairs = pairs_within(xy, below_mm)
    distances = np.hypot(*(xy[pairs[:, 0]] - xy[pairs[:, 1]]).T)
    return [(int(i), int(j)) for (i, j), d in zip(pairs, distances, strict=True) if d < below_mm]


def _chained(members: Sequence[int], near: Mapping[int, Sequence[int]]) -> bool:
    """Whether figures (their places in the scene) are one chain of close pairs among
    themselves, ``near`` giving each figure's close figures."""
    inside = set(members)
    reached, stack = {members[0]}, [members[0]]
    while stack:
        for other in near.get(stack.pop(), ()):
            if other in inside and other not in reached:
                reached.add(other)
                stack.append(other)
    return len(reached) == len(inside)


def is_group(grouping: Grouping, name: str) -> bool:
    return grouping.by_name(name) is not None


class NoReference(QuestionError):
    """A question needs the reference figure of a group that has none."""

    def __init__(self, group: Group) -> None:
        super().__init__(
            f"group {group.name!r} has no reference figure to measure from (no_reference): "
            f"mark one of {', '.join(group.ids)} `reference: true`",
            "no_reference",
            group=repr(group.name),
            figures=", ".join(group.ids),
        )


def reference_of(group: Group) -> Figure:
    """The group's reference figure; `NoReference` when it has none."""
    if group.reference is None:
        raise NoReference(group)
    return group.reference


def measure_point(scene: Scene, grouping: Grouping, name: str) -> Figure:
    """What a distance is measured from: a group's reference figure, or the named figure."""
    group = grouping.by_name(name)
    if group is not None:
        return reference_of(group)
    figure = scene.figure(name)
    if figure is None:
        raise unknown_figure_or_group(scene, grouping.groups, name)
    return figure


def moving_figures(
    scene: Scene, grouping: Grouping, name: str
) -> tuple[list[Figure], Figure | None]:
    """The figures that move and the one whose path is measured.

    A group (or its reference figure) moves whole, measured from its reference
    (None when the group has none); another figure named alone splits off and
    moves by itself.
    """
    group = grouping.by_name(name)
    if group is None:
        figure = measure_point(scene, grouping, name)
        group = grouping.of_figure(name)
        if not figure.reference:
            return [figure], figure
    return list(group.figures), group.reference


def figure_radius(figure: Figure, options: ChocBase6Options) -> float:
    """Radius of a figure's footprint: its base, else a disc as wide as its thickness."""
    return figure.base.radius_mm if figure.base is not None else options.thickness_mm / 2


def footprint_discs(group: Group, options: ChocBase6Options) -> np.ndarray:
    """Discs (N, 3) whose convex hull is the group's footprint."""
    if len(group.figures) == 1 and not group.figures[0].attrs.get("alone", False):
        only = group.figures[0]
        return np.array([[only.x_mm, only.y_mm, options.group_footprint_radius_mm]])
    return np.array([[f.x_mm, f.y_mm, figure_radius(f, options)] for f in group.figures])


@dataclass(frozen=True, slots=True)
class Footprints:
    """Every group's footprint discs (N, 3), in ``Grouping.groups`` order, and their hull
    polygons, each made the first time it is asked for (most questions need a few)."""

    discs: tuple[np.ndarray, ...]
    _hulls: dict[int, shapely.Polygon] = field(default_factory=dict)

    def hulls(self, indices: Sequence[int]) -> np.ndarray:
        """The hulls of the groups at ``indices`` (object array of polygons)."""
        missing = [i for i in dict.fromkeys(indices) if i not in self._hulls]
        for i, hull in zip(missing, disc_hulls([self.discs[i] for i in missing]), strict=True):
            self._hulls[i] = hull
        return np.array([self._hulls[i] for i in indices] + [None], dtype=object)[:-1]


@functools.lru_cache(maxsize=16)
def group_footprints(scene: Scene) -> Footprints:
    """The footprints of a scene's groups, computed once per scene."""
    options = options_of(scene)
    return Footprints(tuple(footprint_discs(group, options) for group in find_groups(scene).groups))
