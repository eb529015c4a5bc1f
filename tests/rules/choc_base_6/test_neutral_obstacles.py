"""rules/choc_base_6/neutral_obstacles.py: enemy contact, groups across a line of fire and
the obstacles of a move, on a neutral surface (thickness 25 mm: contact under 50 mm between
reference figures, a lone figure's footprint a disc of 37.5 mm)."""

from __future__ import annotations

import numpy as np
import pytest

from arbitre.rules.answers import Margin
from arbitre.rules.choc_base_6.neutral_groups import find_groups
from arbitre.rules.choc_base_6.neutral_obstacles import enemy_contact, line_blockers, move_field
from arbitre.rules.choc_base_6.options import options_of
from arbitre.rules.model import Scene
from tests.rules.choc_base_6.scenes import neutral_scene, td_figure


def _contact_of(scene: Scene, name: str) -> tuple[bool, Margin | None, list[str]]:
    grouping = find_groups(scene)
    group = grouping.by_name(name)
    assert group is not None
    return enemy_contact(scene, grouping, group, options_of(scene))


@pytest.mark.parametrize(("x", "touching"), [(340, True), (360, False)])
def test_enemy_contact_is_reference_to_reference_under_two_thicknesses(
    x: float, touching: bool
) -> None:
    # A at (300, 300), the red B at x: 40 mm apart touch (under 50), 60 mm apart do not;
    # either way 10 mm from the threshold. The red C, 150 mm off, is not the nearest.
    scene = neutral_scene(
        td_figure("a", "blue", 300, 300),
        td_figure("b", "red", x, 300),
        td_figure("c", "red", 300, 450),
    )
    assert _contact_of(scene, "a") == (touching, Margin("contact a-b", 10.0, 0.0), [])


def test_enemy_contact_names_the_enemies_it_cannot_measure() -> None:
    # r1 and r2 (30 mm apart) chain into a red group without a reference figure; r1 stands
    # 80 mm from A's reference, under two contact distances (100 mm): it may touch A. No
    # enemy can be measured, so there is no margin.
    scene = neutral_scene(
        td_figure("a", "blue", 300, 300),
        td_figure("r1", "red", 300, 380),
        td_figure("r2", "red", 330, 380),
    )
    assert _contact_of(scene, "a") == (False, None, ["r1"])
    # A friend 60 mm off (a group of its own, too far to chain) is no enemy to touch.
    friends = neutral_scene(td_figure("a", "blue", 300, 300), td_figure("f", "blue", 300, 360))
    assert _contact_of(friends, "a") == (False, None, [])


@pytest.mark.parametrize(
    ("y", "blockers", "margin"),
    [
        # P's disc (radius 37.5) 10 mm off the line y = 100: the line crosses it; P must move
        # 37.5 - 10 = 27.5 mm across to clear it.
        (110, ["p"], Margin("line p", 27.5, 0.0)),
        # 50 mm off: clear by 50 - 37.5 = 12.5 mm.
        (150, [], Margin("line", 12.5, 0.0)),
    ],
)
def test_line_blockers_are_the_groups_whose_footprint_the_line_crosses(
    y: float, blockers: list[str], margin: Margin
) -> None:
    # A at (100, 100) shoots at T at (400, 100); the green P stands at (250, y).
    scene = neutral_scene(
        td_figure("a", "blue", 100, 100),
        td_figure("t", "red", 400, 100),
        td_figure("p", "green", 250, y),
    )
    grouping = find_groups(scene)
    shooter, target = grouping.by_name("a"), grouping.by_name("t")
    assert shooter is not None and target is not None
    found, deciding = line_blockers(scene, grouping, shooter, target, options_of(scene))
    assert found == blockers
    assert deciding is not None
    assert (deciding.what, deciding.margin_mm) == (margin.what, pytest.approx(margin.margin_mm))


def test_a_line_with_no_other_group_has_no_blocker_and_no_margin() -> None:
    scene = neutral_scene(td_figure("a", "blue", 100, 100), td_figure("t", "red", 400, 100))
    grouping = find_groups(scene)
    shooter, target = grouping.by_name("a"), grouping.by_name("t")
    assert shooter is not None and target is not None
    assert line_blockers(scene, grouping, shooter, target, options_of(scene)) == ([], None)


def test_a_move_meets_the_other_groups_and_those_a_figure_leaves() -> None:
    # Group A (a1, the reference, and a2, 30 mm apart) and the red B, a lone figure. a2
    # splits off: a1 stays behind as a disc of its own (radius 12.5 mm, half a thickness),
    # B stands as its footprint (radius 37.5 mm).
    scene = neutral_scene(
        td_figure("a1", "blue", 300, 300, group="A", reference=True),
        td_figure("a2", "blue", 330, 300, group="A"),
        td_figure("b", "red", 600, 300),
    )
    a2 = scene.figure("a2")
    assert a2 is not None
    field = move_field(scene, {"a2"}, a2, options_of(scene))
    assert (field.width_mm, field.depth_mm) == (1200, 900)
    hulls = {hull.ident: hull.discs.tolist() for hull in field.hulls}
    assert hulls == {"A": [[300, 300, 12.5]], "b": [[600, 300, 37.5]]}
    # The whole group moving leaves only B.
    whole = move_field(scene, {"a1", "a2"}, a2, options_of(scene))
    assert [hull.ident for hull in whole.hulls] == ["b"]
    assert np.array_equal(whole.hulls[0].discs, [[600, 300, 37.5]])
