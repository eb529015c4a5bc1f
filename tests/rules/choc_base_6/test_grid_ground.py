"""rules/choc_base_6/grid_ground.py: what a move or a shot meets on a grid, and the searches
over cells."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.choc_base_6.grid import Grid
from arbitre.rules.choc_base_6.grid_ground import Ground, cells_between, square_shot, walk_back
from arbitre.rules.choc_base_6.grid_groups import cell_groups
from tests.rules.choc_base_6.scenes import fig, grid_scene, square_centre

# Six columns and three rows of 50 mm squares on a 300 x 150 mm table.
SIX_BY_THREE = Grid("square", 50, (25, 25), width_mm=300, depth_mm=150)


def _around(centre: tuple[float, float]) -> list[list[float]]:
    """A 20 mm square around a cell's centre: the cell is in the piece, its neighbours not."""
    x, y = centre
    return [[x - 10, y - 10], [x + 10, y - 10], [x + 10, y + 10], [x - 10, y + 10]]


def _ground(terrain_cost: str, split: bool = False) -> Ground:
    # The mover in square 0,0, a red group in 2,0, a wood on 1,1 and a rock on 3,1.
    terrain: list[dict[str, Any]] = [
        {"id": "wood", "kind": "wood", "polygon_mm": _around(square_centre(1, 1))},
        {"id": "rock", "kind": "impassable", "polygon_mm": _around(square_centre(3, 1))},
    ]
    scene = grid_scene(
        "square",
        fig("m", "blue", square_centre(0, 0)),
        fig("r", "red", square_centre(2, 0)),
        table=(300, 150),
        terrain=terrain,
        terrain_cost=terrain_cost,
    )
    grouping = cell_groups(scene)
    return Ground.of(scene, grouping, grouping.by_cell[(0, 0)], split)


@pytest.mark.parametrize(("terrain_cost", "costly"), [("none", {}), ("double", {(1, 1): 2.0})])
def test_the_ground_holds_the_other_groups_the_blocked_and_the_costly_cells(
    terrain_cost: str, costly: dict[tuple[int, int], float]
) -> None:
    # The rock blocks either way; the wood costs double only under the house rule.
    ground = _ground(terrain_cost)
    assert ground.groups == {(2, 0)}
    assert ground.blocked == {(3, 1)}
    assert dict(ground.costly) == costly


def test_a_figure_splitting_off_leaves_its_start_cell_occupied() -> None:
    assert _ground("none", split=True).groups == {(0, 0), (2, 0)}


def test_the_search_goes_round_groups_and_rocks_and_pays_for_the_wood() -> None:
    costs, previous = _ground("double").search((0, 0), with_groups=True)
    # 1,0 and 0,1 are one step; 1,1 is entered from either for 2 more (the wood): 3.
    assert (costs[(1, 0)], costs[(0, 1)], costs[(1, 1)]) == (1, 1, 3)
    # The red group's cell and the rock are never entered.
    assert (2, 0) not in costs and (3, 1) not in costs
    # 3,0 is walled in by 2,0 and 3,1: the way round runs along row 2 and back up column 4,
    # 0,0 -> 0,1 -> 0,2 -> 1,2 -> 2,2 -> 3,2 -> 4,2 -> 4,1 -> 4,0 -> 3,0: 9 steps.
    assert costs[(3, 0)] == 9
    path = walk_back(previous, (3, 0))
    assert path[0] == (0, 0) and path[-1] == (3, 0) and len(path) == 10
    # Through the groups (a shot's count, say): 0,0 -> 1,0 -> 2,0 -> 3,0.
    through, _ = _ground("double").search((0, 0), with_groups=False)
    assert (through[(2, 0)], through[(3, 0)]) == (2, 3)


def test_the_search_stops_at_its_limit() -> None:
    # With a limit of 1 nothing is expanded beyond the first ring.
    costs, _ = _ground("none").search((0, 0), with_groups=True, limit=1)
    assert costs == {(0, 0): 0, (1, 0): 1, (0, 1): 1}


def test_walk_back_follows_the_previous_cells_to_the_start() -> None:
    previous = {(1, 0): (0, 0), (2, 0): (1, 0), (2, 1): (2, 0)}
    assert walk_back(previous, (2, 1)) == [(0, 0), (1, 0), (2, 0), (2, 1)]
    assert walk_back(previous, (0, 0)) == [(0, 0)]


def test_a_square_shot_bends_round_an_occupied_square_within_its_reach() -> None:
    # From 0,0 to 2,0 with 1,0 occupied: the only 4-step count is
    # 0,0 -> 0,1 -> 1,1 -> 2,1 -> 2,0 (the squares above 0,0 and left of it are off the grid).
    occupied = {(1, 0)}
    assert square_shot(SIX_BY_THREE, (0, 0), (2, 0), occupied, 3) is None
    assert square_shot(SIX_BY_THREE, (0, 0), (2, 0), occupied, 4) == [
        (0, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (2, 0),
    ]


def test_a_square_shot_may_end_on_an_occupied_square() -> None:
    # The target's own square is occupied (by the target): only the squares between count.
    assert square_shot(SIX_BY_THREE, (0, 0), (1, 0), {(1, 0)}, 1) == [(0, 0), (1, 0)]


def test_the_cells_between_two_squares_are_the_box_between_them() -> None:
    # Columns 0-2, rows 0-1, less the two ends.
    assert cells_between(SIX_BY_THREE, (0, 0), (2, 1)) == [(0, 1), (1, 0), (1, 1), (2, 0)]
    assert cells_between(SIX_BY_THREE, (2, 1), (0, 0)) == [(0, 1), (1, 0), (1, 1), (2, 0)]
    assert cells_between(SIX_BY_THREE, (3, 3), (3, 4)) == []


def test_the_cells_between_two_hexes_lie_on_some_shortest_count() -> None:
    # 0,0 to 2,0: 2 H, only through 1,0. 0,0 to 2,-1: through 1,-1 or 1,0. 0,0 to 3,-1:
    # 3 H, through 1,0 2,0 / 1,-1 2,-1 and mixes: 1,-1 1,0 2,-1 2,0.
    hexes = Grid("hex", 50, (0, 0))
    assert cells_between(hexes, (0, 0), (2, 0)) == [(1, 0)]
    assert cells_between(hexes, (0, 0), (2, -1)) == [(1, -1), (1, 0)]
    assert cells_between(hexes, (0, 0), (3, -1)) == [(1, -1), (1, 0), (2, -1), (2, 0)]
