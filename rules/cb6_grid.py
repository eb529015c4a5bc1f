"""Choc Base 6 on hex and square grids, as found in :mod:`rules.choc_base_6`."""

from rules.choc_base_6.grid import HEX_STEPS, SQUARE_STEPS, Cell, Grid, grid_of, grid_unit
from rules.choc_base_6.grid_answers import (
    GridContactAnswer,
    GridDistanceAnswer,
    GridFireAnswer,
    GridGroupsAnswer,
    GridMoveAnswer,
    GridReachAnswer,
)
from rules.choc_base_6.grid_groups import CellGroup, CellGrouping, cell_groups, validate_grid
from rules.choc_base_6.grid_questions import GRID, ChocBase6Grid

__all__ = [
    "GRID",
    "HEX_STEPS",
    "SQUARE_STEPS",
    "Cell",
    "CellGroup",
    "CellGrouping",
    "ChocBase6Grid",
    "Grid",
    "GridContactAnswer",
    "GridDistanceAnswer",
    "GridFireAnswer",
    "GridGroupsAnswer",
    "GridMoveAnswer",
    "GridReachAnswer",
    "cell_groups",
    "grid_of",
    "grid_unit",
    "validate_grid",
]
