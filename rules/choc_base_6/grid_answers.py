"""The answers of grid questions: the neutral answers with the cells they name."""

from __future__ import annotations

from dataclasses import dataclass, field

from arbitre.rules.answers import (
    ContactAnswer,
    DistanceAnswer,
    FireAnswer,
    GroupsAnswer,
    MoveAnswer,
    ReachAnswer,
)
from arbitre.rules.choc_base_6.grid import Cell


@dataclass(frozen=True, slots=True)
class GridDistanceAnswer(DistanceAnswer):
    cell_a: Cell = (0, 0)
    cell_b: Cell = (0, 0)
    coordinates: str = ""


@dataclass(frozen=True, slots=True)
class GridContactAnswer(ContactAnswer):
    cell_a: Cell = (0, 0)
    cell_b: Cell = (0, 0)
    steps: int = 0


@dataclass(frozen=True, slots=True)
class GridFireAnswer(FireAnswer):
    cell_shooter: Cell = (0, 0)
    cell_target: Cell = (0, 0)
    line_cells: tuple[Cell, ...] = ()


@dataclass(frozen=True, slots=True)
class GridMoveAnswer(MoveAnswer):
    cell_from: Cell = (0, 0)
    cell_to: Cell = (0, 0)
    path_cells: tuple[Cell, ...] = ()


@dataclass(frozen=True, slots=True)
class GridReachAnswer(ReachAnswer):
    cell_from: Cell = (0, 0)
    cells: tuple[Cell, ...] = ()
    cell_steps: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GridGroupsAnswer(GroupsAnswer):
    cells: dict[str, Cell] = field(default_factory=dict)
    coordinates: str = ""
