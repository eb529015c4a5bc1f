"""rules/choc_base_6/grid_groups.py: one group per occupied cell."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.choc_base_6.grid_groups import (
    cell_groups,
    cell_movers,
    cell_text,
    cells_text,
    group_names,
    touches_enemy,
)
from arbitre.rules.errors import QuestionError, SceneError
from tests.rules.choc_base_6.scenes import fig, grid_scene, square_centre


@pytest.mark.parametrize(
    ("figures", "field", "problem"),
    [
        (
            [
                fig("a", "blue", (60, 60), group="A"),
                fig("b", "blue", (70, 70), group="B"),
            ],
            "figures[1].group",
            "one group per cell",
        ),
        (
            [fig("a", "blue", (60, 60), group="A"), fig("b", "blue", (160, 60), group="A")],
            "figures[1].group",
            "a group occupies one cell",
        ),
        (
            [fig("a", "blue", (60, 60)), fig("b", "red", (70, 70))],
            "figures[1].side",
            "one side per cell",
        ),
    ],
)
def test_groups_must_agree_with_the_cells(
    figures: list[dict[str, Any]], field: str, problem: str
) -> None:
    with pytest.raises(SceneError) as caught:
        grid_scene("square", *figures)
    assert f": {field}: " in str(caught.value) and problem in str(caught.value)


def test_a_cell_s_group_is_named_after_its_group_its_reference_or_its_first_figure() -> None:
    # Square 0,0: declared group "G"; 2,0: b2 is the reference; 4,0: c1 and c2, neither the
    # reference (a warning); 6,0: d alone, its own reference.
    scene = grid_scene(
        "square",
        fig("a", "blue", (20, 20), group="G"),
        fig("b1", "blue", (120, 20)),
        fig("b2", "blue", (130, 30), reference=True),
        fig("c1", "red", (220, 20)),
        fig("c2", "red", (230, 30)),
        fig("d", "red", (320, 20)),
    )
    grouping = cell_groups(scene)
    named = {
        g.name: (g.cell, g.ids, g.reference.id if g.reference else None) for g in grouping.groups
    }
    assert named == {
        "G": ((0, 0), ("a",), "a"),
        "b2": ((2, 0), ("b1", "b2"), "b2"),
        "c1": ((4, 0), ("c1", "c2"), None),
        "d": ((6, 0), ("d",), "d"),
    }
    assert [w.code for w in grouping.warnings] == ["cell_group_without_reference"]
    # A group's margin is its figure nearest a side: c2 at (230, 30) is 20 mm inside
    # square 4,0 (its sides at x = 200, 250 and y = 0, 50).
    assert grouping.by_cell[(4, 0)].margin.margin_mm == pytest.approx(20.0)


def test_seven_figures_in_a_cell_are_one_group_too_many() -> None:
    # A group holds 1 to 6 figures; f0 leads the seven.
    crew = [fig(f"f{k}", "blue", (10 + 5 * k, 25), group="G", reference=k == 0) for k in range(7)]
    grouping = cell_groups(grid_scene("square", *crew))
    assert [w.code for w in grouping.warnings] == ["group_too_big"]


def test_touching_an_enemy_takes_a_side_not_a_corner() -> None:
    # A in square 1,1; the red B in 2,2 (a corner), the red C in 1,3, the green D in 0,1
    # (a side, but green is no enemy of blue here).
    scene = grid_scene(
        "square",
        fig("a", "blue", square_centre(1, 1)),
        fig("b", "red", square_centre(2, 2)),
        fig("c", "red", square_centre(1, 3)),
        fig("d", "green", square_centre(0, 1)),
        allies=[["blue", "green"]],
    )
    grouping = cell_groups(scene)
    a = grouping.by_cell[(1, 1)]
    assert touches_enemy(scene, grouping, a) is False
    # Move C next to A: 1,2 shares a side with 1,1.
    closer = grid_scene(
        "square",
        fig("a", "blue", square_centre(1, 1)),
        fig("c", "red", square_centre(1, 2)),
    )
    grouping = cell_groups(closer)
    assert touches_enemy(closer, grouping, grouping.by_cell[(1, 1)]) is True


def test_group_names_and_cells_in_words() -> None:
    scene = grid_scene(
        "square",
        fig("a", "blue", square_centre(0, 0)),
        fig("b", "red", square_centre(3, 2)),
    )
    grouping = cell_groups(scene)
    # Each group named once, in the order of the cells.
    assert group_names(grouping, [(3, 2), (0, 0), (3, 2)]) == ["b", "a"]
    assert cell_text((3, -2)) == "3,-2"
    assert cells_text([(0, 0), (1, 0), (1, 1)]) == "0,0 -> 1,0 -> 1,1"


def test_a_figure_named_alone_splits_off_unless_it_leads_or_stands_alone() -> None:
    x, y = square_centre(2, 2)
    scene = grid_scene(
        "square",
        fig("chef", "blue", (x - 10, y), group="A", reference=True),
        fig("soldat", "blue", (x + 10, y), group="A"),
        fig("seul", "red", square_centre(5, 5)),
    )
    grouping = cell_groups(scene)
    assert [f.id for f in cell_movers(scene, grouping, "A")[1]] == ["chef", "soldat"]
    assert [f.id for f in cell_movers(scene, grouping, "chef")[1]] == ["chef", "soldat"]
    group, movers = cell_movers(scene, grouping, "soldat")
    assert (group.name, [f.id for f in movers]) == ("A", ["soldat"])
    assert [f.id for f in cell_movers(scene, grouping, "seul")[1]] == ["seul"]
    with pytest.raises(QuestionError, match="unknown figure or group 'zz'"):
        cell_movers(scene, grouping, "zz")
