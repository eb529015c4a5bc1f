"""Smooth & Rifled's linear obstacles in a move (§6.1.2), and buildings (§6.1.3): standing
before one, astride one, crossing one, entering and leaving."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import shapely

from arbitre.rules.answers import Reason
from arbitre.rules.model import Base
from arbitre.rules.smooth_and_rifled.obstacles import (
    Defence,
    astride_check,
    building_move,
    crossing_check,
    depth_mm,
    reach_beyond_mm,
)
from tests.rules.smooth_and_rifled.scenes import sr_scene

TOLERANCE_MM = 2.0
HEDGE = {"id": "hedge", "kind": "obstacle", "line_mm": [[0, 150], [600, 150]]}
DITCH = {"id": "ditch", "kind": "obstacle", "line_mm": [[0, 170], [600, 170]]}


def _walker(y: float, *terrain: dict[str, Any], **more: Any) -> Any:
    """A scene of w, a 25 mm round base at (100, y), and the terrain."""
    figure = {"id": "w", "side": "blue", "x_mm": 100, "y_mm": y, **more}
    return sr_scene([figure], terrain=list(terrain))


def test_an_obstacle_s_depth_in_a_round_base() -> None:
    # A line 11.5 mm from the centre of a 12.5 mm circle lies 1 mm inside its edge.
    disc = Base.round(25).footprint(0, 0, 0)
    line = shapely.LineString([(-50, 11.5), (50, 11.5)])
    assert depth_mm(disc, line) == pytest.approx(1.0, abs=0.05)


def test_a_base_reaches_the_tolerance_beyond_an_obstacle() -> None:
    # From (0, 100) along +x, over a line at x 50: the base's back edge may stand 2 mm past
    # it, its centre at 50 + 12.5 + 2 = 64.5 mm. A heading that meets no obstacle: 0.
    base = Base.round(25)

    def outline(point: np.ndarray) -> shapely.Polygon:
        return base.footprint(float(point[0]), float(point[1]), 0.0)

    wall = shapely.LineString([(50, 0), (50, 200)])
    start = np.array([0.0, 100.0])
    east, west = np.array([1.0, 0.0]), np.array([-1.0, 0.0])
    assert reach_beyond_mm(outline, start, east, wall, TOLERANCE_MM) == pytest.approx(64.5)
    assert reach_beyond_mm(outline, start, west, wall, TOLERANCE_MM) == 0.0


@pytest.mark.parametrize(
    ("shift_y", "reasons", "margins"),
    [
        (50.0, [Reason.OBSTACLE_CROSSING], [10.5]),  # centred on the hedge: 12.5 deep
        (36.5, [], []),  # its edge 1 mm short of the hedge
        (38.5, [], [1.0]),  # 1 mm over it: it only touches, 1 mm within the tolerance
    ],
)
def test_a_move_may_not_end_astride_an_obstacle(
    shift_y: float, reasons: list[Reason], margins: list[float]
) -> None:
    # w at (100, 100) moves north towards the hedge along y 150.
    scene = _walker(100, HEDGE)
    (walker,) = scene.figures
    check = astride_check([(walker, [0.0])], np.array([0.0, shift_y]), scene.terrain, 2.0)
    assert check.reasons == reasons
    assert check.blocked_by == (["hedge"] if reasons else [])
    assert [m.margin_mm for m in check.margins] == pytest.approx(margins, abs=0.05)


def test_a_crossing_starts_before_the_obstacle_and_ends_against_its_far_side() -> None:
    # w stands 1 mm before the hedge (its edge at y 149); the far side's 2 mm of tolerance
    # lets its centre reach 150 + 12.5 + 2 = 164.5: 28 mm from 136.5.
    scene = _walker(136.5, HEDGE)
    (walker,) = scene.figures
    over = crossing_check([(walker, [0.0])], np.array([0.0, 27.0]), scene.terrain, TOLERANCE_MM)
    assert (over.reasons, over.crossed) == ([], ["hedge"])
    assert over.reach_mm == pytest.approx(28.0, abs=1e-6)
    assert [m.what for m in over.margins] == ["before"]
    assert over.margins[0].margin_mm == pytest.approx(1.0)


def test_a_crossing_from_afar_over_nothing_or_over_two_is_refused() -> None:
    # 10 mm before the hedge: not at it. A shift that crosses nothing: nothing to cross.
    far = _walker(127.5, HEDGE)
    check = crossing_check([(far.figures[0], [0.0])], np.array([0.0, 40.0]), far.terrain, 2.0)
    assert check.reasons == [Reason.NOT_AT_OBSTACLE]
    check = crossing_check([(far.figures[0], [0.0])], np.array([10.0, 0.0]), far.terrain, 2.0)
    assert (check.reasons, check.crossed) == ([Reason.NOT_AT_OBSTACLE], [])
    # Over the hedge and the ditch behind it in one move: the second is one too many.
    both = _walker(136.5, HEDGE, DITCH)
    shift = np.array([0.0, 60.0])
    check = crossing_check([(both.figures[0], [0.0])], shift, both.terrain, TOLERANCE_MM)
    assert check.crossed == ["hedge"]
    assert Reason.OBSTACLE_CROSSING in check.reasons and check.blocked_by == ["ditch"]


@pytest.mark.parametrize(("enemy_y", "defended"), [(250.0, True), (350.0, False)])
def test_a_fortified_position_is_not_crossed_with_an_enemy_near_the_crossing_point(
    enemy_y: float, defended: bool
) -> None:
    # Annexe II, scenario 4: no free crossing with an enemy within 10 cm of where the line
    # is crossed, (100, 150). An enemy's base at (100, 250) is 100 - 12.5 = 87.5 mm from it
    # (margin 12.5); at (100, 350), 187.5 mm (margin 87.5).
    wall = {**HEDGE, "attrs": {"fortified": True}}
    scene = sr_scene(
        [
            {"id": "w", "side": "blue", "x_mm": 100, "y_mm": 136.5},
            {"id": "e", "side": "red", "x_mm": 100, "y_mm": enemy_y},
        ],
        terrain=[wall],
    )
    walker, enemy = scene.figures
    defence = Defence(((enemy, Base.round(25).footprint(100, enemy_y, 0)),), 100.0)
    shift = np.array([0.0, 27.0])
    check = crossing_check([(walker, [0.0])], shift, scene.terrain, TOLERANCE_MM, defence)
    assert (Reason.CROSSING_DEFENDED in check.reasons) is defended
    (guard,) = [m for m in check.margins if m.what == "defended"]
    assert guard.margin_mm == pytest.approx(12.5 if defended else 87.5, abs=0.05)
    # The same wall undefended: a free crossing.
    free = crossing_check([(walker, [0.0])], shift, scene.terrain, TOLERANCE_MM)
    assert free.reasons == []


HOUSE = {
    "id": "house",
    "kind": "building",
    "polygon_mm": [[200, 200], [300, 200], [300, 300], [200, 300]],
}


@pytest.mark.parametrize(
    ("start", "goal", "kind", "points", "reasons"),
    [
        ((187.5, 250.0), (250.0, 250.0), "enter", 1, []),  # touching the wall
        ((150.0, 250.0), (250.0, 250.0), "enter", 1, [Reason.NOT_AT_OBSTACLE]),
        ((220.0, 250.0), (280.0, 250.0), "inside", 2, []),
        ((250.0, 250.0), (312.0, 250.0), "leave", 1, []),  # 0.5 mm over the wall: touching
        ((250.0, 250.0), (305.0, 250.0), "leave", 1, [Reason.OBSTACLE_CROSSING]),  # astride
    ],
)
def test_a_building_costs_1_pa_to_enter_or_leave_and_2_to_move_inside(
    start: tuple[float, float],
    goal: tuple[float, float],
    kind: str,
    points: int,
    reasons: list[Reason],
) -> None:
    # §6.1.3: « Un PA est nécessaire pour entrer/sortir d'un bâtiment, et 2 PA pour se
    # déplacer à l'intérieur ». The house spans x 200-300, y 200-300.
    scene = sr_scene(
        [{"id": "w", "side": "blue", "x_mm": start[0], "y_mm": start[1]}],
        terrain=[HOUSE],
    )
    move = building_move(scene.figures[0], [0.0], np.array(goal), scene.terrain, TOLERANCE_MM)
    assert move is not None
    assert (move.kind, move.building.id, move.action_points) == (kind, "house", points)
    assert move.check.reasons == reasons


def test_leaving_a_building_goes_no_further_than_against_its_wall() -> None:
    # From (250, 250) east: the wall at x 300, the base's back edge up to 2 mm past it,
    # its centre at 314.5: 64.5 mm.
    scene = sr_scene([{"id": "w", "side": "blue", "x_mm": 250, "y_mm": 250}], terrain=[HOUSE])
    move = building_move(
        scene.figures[0], [0.0], np.array([320.0, 250.0]), scene.terrain, TOLERANCE_MM
    )
    assert move is not None and move.check.crossed == ["house"]
    assert move.check.reach_mm == pytest.approx(64.5)


def test_a_move_that_neither_starts_nor_ends_in_a_building_is_no_building_move() -> None:
    scene = sr_scene([{"id": "w", "side": "blue", "x_mm": 100, "y_mm": 100}], terrain=[HOUSE])
    goal = np.array([150.0, 100.0])
    assert building_move(scene.figures[0], [0.0], goal, scene.terrain, TOLERANCE_MM) is None
