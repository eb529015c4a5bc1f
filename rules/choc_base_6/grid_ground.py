"""What a move or a shot meets on a grid: occupied, blocked and costly cells, and the
searches over cells.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import shapely

from arbitre.rules.choc_base_6.book import BLOCKING_TERRAIN
from arbitre.rules.choc_base_6.grid import Cell, Grid
from arbitre.rules.choc_base_6.grid_groups import CellGroup, CellGrouping
from arbitre.rules.choc_base_6.options import options_of
from arbitre.rules.model import Scene
from arbitre.rules.terrain import terrain_costs


@dataclass(frozen=True, slots=True)
class Ground:
    """What a move meets on the grid: other groups' cells, blocked and costly cells."""

    grid: Grid
    groups: frozenset[Cell]
    blocked: frozenset[Cell]
    costly: Mapping[Cell, float]

    @classmethod
    def of(cls, scene: Scene, grouping: CellGrouping, mover: CellGroup, split: bool) -> Ground:
        grid = grouping.grid
        groups = {cell for cell, g in grouping.by_cell.items() if g.name != mover.name}
        if split:  # the figures left behind stay in the start cell
            groups.add(mover.cell)
        blocked: set[Cell] = set()
        costly: dict[Cell, float] = {}
        costs = terrain_costs(options_of(scene).terrain_cost)
        features = [
            (t, t.kind in BLOCKING_TERRAIN)
            for t in scene.terrain
            if t.kind in BLOCKING_TERRAIN or t.kind in costs
        ]
        if features:
            # a cell is in a piece when the piece covers its centre (its edge included)
            cells, centres = grid.cells_and_centres()
            x, y = centres[:, 0], centres[:, 1]
            for feature, blocks in features:
                if not isinstance(feature.geometry, shapely.Polygon):
                    continue
                x0, y0, x1, y1 = feature.geometry.bounds
                near = np.flatnonzero((x >= x0) & (x <= x1) & (y >= y0) & (y <= y1))
                inside = near[shapely.intersects_xy(feature.geometry, x[near], y[near])]
                for a, b in cells[inside].tolist():
                    if blocks:
                        blocked.add((a, b))
                    else:
                        costly[(a, b)] = max(costly.get((a, b), 1.0), costs[feature.kind])
        return cls(grid, frozenset(groups), frozenset(blocked), costly)

    def search(
        self, start: Cell, with_groups: bool, limit: float = math.inf
    ) -> tuple[dict[Cell, int], dict[Cell, Cell]]:
        """Steps from ``start`` to every cell of the grid reachable through empty cells.

        Entering a cell costs 1 (2 in a wood or on difficult ground under the house rule
        ``terrain_cost: double``); other groups' cells (when
        ``with_groups``), blocked cells and cells off the grid are never entered.
        """
        costs: dict[Cell, int] = {start: 0}
        previous: dict[Cell, Cell] = {}
        queue: list[tuple[int, Cell]] = [(0, start)]
        while queue:
            cost, cell = heapq.heappop(queue)
            if cost > costs.get(cell, math.inf) or cost >= limit:
                continue
            for nxt in self.grid.neighbours(cell):
                if nxt in self.blocked or (with_groups and nxt in self.groups):
                    continue
                if not self.grid.in_grid(nxt):
                    continue
                step = int(self.costly.get(nxt, 1.0))
                total = cost + step
                if total < costs.get(nxt, math.inf):
                    costs[nxt] = total
                    previous[nxt] = cell
                    heapq.heappush(queue, (total, nxt))
        return costs, previous


def walk_back(previous: Mapping[Cell, Cell], goal: Cell) -> list[Cell]:
    path = [goal]
    while path[-1] in previous:
        path.append(previous[path[-1]])
    return path[::-1]


def square_shot(
    grid: Grid, start: Cell, goal: Cell, occupied: set[Cell], reach: int
) -> list[Cell] | None:
    """The shortest count from shooter to target through empty cells on the grid (steps
    across a side: orthogonal on squares), if it is at most ``reach`` cells (breadth-first
    search). Hexes are counted so under ``hex_fire: count``."""
    previous: dict[Cell, Cell] = {}
    depth = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            return walk_back(previous, goal)
        if depth[cell] >= reach:
            continue
        for nxt in grid.neighbours(cell):
            if nxt in depth or (nxt != goal and (nxt in occupied or not grid.in_grid(nxt))):
                continue
            depth[nxt] = depth[cell] + 1
            previous[nxt] = cell
            queue.append(nxt)
    return None


def cells_between(grid: Grid, a: Cell, b: Cell) -> list[Cell]:
    """The cells on some shortest count from ``a`` to ``b`` (neither of them), in order of
    their coordinates: on squares, the squares of the box between them.

    >>> cells_between(Grid("hex", 50, (0, 0)), (0, 0), (2, -1))
    [(1, -1), (1, 0)]
    """
    n = grid.steps(a, b)
    near = [(a[0] + dq, a[1] + dr) for dq in range(-n, n + 1) for dr in range(-n, n + 1)]
    return [c for c in near if c not in (a, b) and grid.steps(a, c) + grid.steps(c, b) == n]
