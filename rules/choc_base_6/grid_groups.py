"""Groups on a grid: one group per occupied cell, found by name or figure."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arbitre.rules.answers import Margin, Said
from arbitre.rules.choc_base_6.book import NUMBERS, group_too_big
from arbitre.rules.choc_base_6.grid import Cell, Grid, grid_of
from arbitre.rules.errors import SceneError
from arbitre.rules.grouping import Grouping
from arbitre.rules.model import Figure, Scene
from arbitre.rules.ruleset import unknown_figure_or_group


@dataclass(frozen=True, slots=True)
class CellGroup:
    """The group standing in one cell (``reference`` None when none of its figures is)."""

    name: str
    side: str
    cell: Cell
    figures: tuple[Figure, ...]
    reference: Figure | None
    in_grid: bool
    margin: Margin  # how sure the cell is: the figure nearest a side of it

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.figures)


@dataclass(frozen=True, slots=True)
class CellGrouping(Grouping[CellGroup]):
    """A grid scene's groups, a group per occupied cell, on ``grid``."""

    grid: Grid
    by_cell: Mapping[Cell, CellGroup]


@functools.lru_cache(maxsize=16)
def cell_groups(scene: Scene) -> CellGrouping:
    """One group per occupied cell; declared groups must match the cells.

    A cell's group is named after its declared group, else its reference figure,
    else its first figure. On a grid nothing is measured from a reference figure
    (cells are counted), so a group without one answers every question; only a
    figure named alone splits off instead of moving its whole group.
    """
    grid = grid_of(scene)
    index_of = {f.id: k for k, f in enumerate(scene.figures)}
    crews: dict[Cell, list[Figure]] = defaultdict(list)
    for figure in scene.figures:
        crews[grid.cell_of(figure.x_mm, figure.y_mm)].append(figure)
    declared_cell: dict[str, Cell] = {}
    groups: list[CellGroup] = []
    warnings: list[str] = []
    names_used: set[str] = set()
    for cell, crew in crews.items():
        first = crew[0]
        for figure in crew[1:]:
            if figure.side != first.side:
                raise SceneError(
                    scene.source,
                    f"figures[{index_of[figure.id]}].side",
                    f"{figure.id} ({figure.side}) shares cell {cell_text(cell)} with "
                    f"{first.id} ({first.side}): one group, one side per cell",
                )
        names = {f.group for f in crew if f.group is not None}
        if len(names) > 1:
            other = next(f for f in crew if f.group is not None and f.group != min(names))
            raise SceneError(
                scene.source,
                f"figures[{index_of[other.id]}].group",
                f"cell {cell_text(cell)} holds figures of groups {', '.join(sorted(names))}: "
                "one group per cell",
            )
        for name in names:
            if name in declared_cell:
                figure = next(f for f in crew if f.group == name)
                raise SceneError(
                    scene.source,
                    f"figures[{index_of[figure.id]}].group",
                    f"group {name!r} stands in cells {cell_text(declared_cell[name])} and "
                    f"{cell_text(cell)}: a group occupies one cell",
                )
            declared_cell[name] = cell
        references = [f for f in crew if f.reference]
        reference = references[0] if references else (first if len(crew) == 1 else None)
        named_after = reference or first
        name = next(iter(names)) if names else named_after.id
        if name in names_used:
            raise SceneError(
                scene.source,
                f"figures[{index_of[named_after.id]}].id",
                f"group name {name!r} is used by two cells",
            )
        names_used.add(name)
        if reference is None:
            warnings.append(
                Said(
                    "cell_group_without_reference",
                    "group {group} ({figures}) has no reference figure: name the group to "
                    "move it whole",
                    group=name,
                    figures=", ".join(f.id for f in crew),
                )
            )
        nearest = min(crew, key=lambda f: grid.boundary_margin_mm(f.x_mm, f.y_mm))
        margin = Margin(
            f"cell of {name}",
            grid.boundary_margin_mm(nearest.x_mm, nearest.y_mm),
            nearest.sigma_mm,
        )
        inside = grid.in_grid(cell)
        if not inside:
            warnings.append(
                Said(
                    "group_outside_grid",
                    "group {group} in cell {cell} is outside the grid",
                    group=name,
                    cell=cell_text(cell),
                )
            )
        if len(crew) > NUMBERS.max_group_size:
            warnings.append(group_too_big(name, len(crew)))
        groups.append(CellGroup(name, first.side, cell, tuple(crew), reference, inside, margin))
    return CellGrouping(
        groups=tuple(groups),
        warnings=tuple(warnings),
        grid=grid,
        by_cell={g.cell: g for g in groups},
    )


def validate_grid(scene: Scene) -> None:
    """Check a grid scene: the cell size is given and groups agree with the cells."""
    cell_groups(scene)


def touches_enemy(scene: Scene, grouping: CellGrouping, group: CellGroup) -> bool:
    for cell in grouping.grid.neighbours(group.cell):
        other = grouping.by_cell.get(cell)
        if other is not None and scene.are_enemies(group.side, other.side):
            return True
    return False


def group_names(grouping: CellGrouping, cells: Sequence[Cell]) -> list[str]:
    seen: list[str] = []
    for cell in cells:
        name = grouping.by_cell[cell].name
        if name not in seen:
            seen.append(name)
    return seen


# --- groups by name, cells in words ------------------------------------------------


def cell_movers(scene: Scene, grouping: CellGrouping, name: str) -> tuple[CellGroup, list[Figure]]:
    """The group a move starts from and the figures that move: a group (or its reference
    figure) moves whole; another figure named alone splits off."""
    group = grouping.by_name(name)
    if group is not None:
        return group, list(group.figures)
    figure = scene.figure(name)
    if figure is None:
        raise unknown_figure_or_group(scene, grouping.groups, name)
    group = grouping.of_figure(name)
    if len(group.figures) == 1 or (group.reference is not None and figure.id == group.reference.id):
        return group, list(group.figures)
    return group, [figure]


def cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def cells_text(cells: Sequence[Cell]) -> str:
    return " -> ".join(cell_text(c) for c in cells)
