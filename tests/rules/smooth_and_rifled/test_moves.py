"""Smooth & Rifled's moves and charges: allowances, terrain, obstacles and buildings, with
the rule book's worked examples (seed 004)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from tests.rules.smooth_and_rifled.scenes import (
    LEADER_AND_MARKER,
    PAIR,
    answer_json,
    square,
    sr_scene,
)


def test_15mm_scale_halves_every_distance() -> None:
    # A single infantry figure moves 12 cm in its first action: 6 cm at 15 mm.
    figures = [{"id": "a", "side": "b", "x_mm": 100, "y_mm": 100, "type": "infantry"}]
    small = sr_scene(figures, options={"scale": "15mm"})
    assert answer_json(small, "move", "a", 100, 170)["allowance_mm"] == 60
    assert answer_json(small, "move", "a", 100, 170)["reasons"] == ["over_allowance"]
    assert answer_json(sr_scene(figures), "move", "a", 100, 170)["legal"] is True


@pytest.mark.parametrize(
    "base", [{"shape": "round", "diameter_mm": 25}, {"shape": "square", "side_mm": 20}]
)
def test_a_move_ending_astride_a_hedge_crosses_it(base: dict[str, Any]) -> None:
    # §6.1.2: infantry stops at a linear obstacle and spends an action to cross it. A
    # hedge runs along y 500 to x 600, then up x 600. From (620, 540), east of its
    # upright arm, to (560, 500), its centre on the hedge's line: the base would end
    # astride it, so the move crosses it (the straight 72.111 mm), whatever the path
    # finder lets a goal overlap. Stopping 13 mm above the line, west of the upright arm
    # (the round base just touching the hedge's 1 mm band), is a plain 47 mm move.
    hedge = {
        "id": "hedge",
        "kind": "obstacle",
        "level": 1,
        "line_mm": [[0, 500], [600, 500], [600, 900]],
    }
    walker = {"id": "s", "side": "b", "x_mm": 620, "y_mm": 540, "facing_deg": 225, "base": base}
    astride = answer_json(sr_scene([walker], terrain=[hedge]), "move", "s", 560, 500)
    assert astride["reasons"] == ["obstacle_crossing"] and astride["blocked_by"] == ["hedge"]
    walker = {**walker, "x_mm": 300, "y_mm": 560, "facing_deg": 270}
    touching = answer_json(sr_scene([walker], terrain=[hedge]), "move", "s", 300, 513)
    assert touching["legal"] and touching["cost_mm"] == pytest.approx(47.0), touching


@pytest.mark.parametrize(
    ("kind", "says"),
    [("cavalry", "cavalry jumps linear obstacles"), ("artillery", "artillery has no cross move")],
)
def test_only_infantry_crosses_an_obstacle_as_an_action(kind: str, says: str) -> None:
    # §6.1.2: « L'infanterie peut les traverser en dépensant une Action ... La Cavalerie peut
    # sauter par-dessus un obstacle sans pénalité ».
    scene = sr_scene(
        [{"id": "x", "side": "blue", "x_mm": 100, "y_mm": 187.5, "type": kind}],
        terrain=[{"id": "hedge", "kind": "obstacle", "line_mm": [[0, 200], [600, 200]]}],
    )
    with pytest.raises(QuestionError, match=says):
        ask(scene, "move", ["x", "100", "212.5"], {"mode": "cross"})
    with pytest.raises(QuestionError, match="option mode of reach"):
        ask(scene, "reach", ["x"], {"mode": "cross"})


@pytest.mark.parametrize(
    ("mover", "goal", "says"),
    [
        ("h", ["250", "250"], "cavalry has no building move"),
        ("b", ["100", "150"], "the move must start or end in a building"),
        ("G", ["250", "250"], "figure by figure"),
    ],
)
def test_a_building_move_is_a_foot_figure_s_into_out_of_or_inside_one(
    mover: str, goal: list[str], says: str
) -> None:
    # b stands outside the house, h is cavalry, G a group of two.
    scene = sr_scene(
        [
            {"id": "b", "side": "blue", "type": "infantry", "x_mm": 100, "y_mm": 100},
            {"id": "h", "side": "blue", "type": "cavalry", "x_mm": 250, "y_mm": 180},
            {
                "id": "L",
                "side": "blue",
                "unit": "u",
                "group": "G",
                "x_mm": 500,
                "y_mm": 500,
                "attrs": {"leader": True},
            },
            {"id": "m", "side": "blue", "unit": "u", "x_mm": 530, "y_mm": 500},
        ],
        terrain=[
            {
                "id": "house",
                "kind": "building",
                "polygon_mm": [[200, 200], [300, 200], [300, 300], [200, 300]],
            }
        ],
    )
    with pytest.raises(QuestionError, match=says):
        ask(scene, "move", [mover, *goal], {"mode": "building"})


def test_a_charge_pays_difficult_ground_as_a_move_does() -> None:
    # §6.1: moves are halved in difficult ground. A 5 mm strip of marsh (y 150-155) lies
    # between a charger at y 100 and its target at y 230, 20 mm square bases facing each
    # other: the gap is 130 - 20 = 110 mm. The base pays double while it overlaps the
    # marsh, as in a move: its front edge, 10 mm ahead of its centre, reaches it with the
    # centre at y 140 and its back edge leaves it at y 165: 25 mm more, 135 mm = 13.5 cm
    # > 12 cm, the charge falls short (by the centre alone it paid only 5 mm more:
    # 11.5 cm, and was allowed; by the disc round the base, 33.3 mm more).
    base = {"shape": "square", "side_mm": 20}
    foot = {"facing_deg": 90, "type": "infantry", "base": base, "attrs": {"combat": 4}}
    scene = sr_scene(
        [
            {"id": "s", "side": "union", "unit": "x", "x_mm": 100, "y_mm": 100, **foot},
            {"id": "e", "side": "csa", "unit": "y", "x_mm": 100, "y_mm": 230, **foot},
        ],
        terrain=[
            {
                "id": "marsh",
                "kind": "difficult",
                "polygon_mm": [[50, 150], [200, 150], [200, 155], [50, 155]],
            }
        ],
    )
    charge = answer_json(scene, "charge", "s", "e")
    assert charge["distance_mm"] == pytest.approx(110.0)
    assert charge["legal"] is False and "charge_short" in charge["reasons"]
    cost_mm = 110 + 25  # 135 mm; 12 cm allowed: 15 mm short
    assert charge["margin_mm"] == pytest.approx(cost_mm - 120.0, abs=0.01)
    move = answer_json(scene, "move", "s", 100, 210, mode="charge")
    assert move["cost_mm"] == pytest.approx(cost_mm, abs=0.01)


@pytest.mark.parametrize(
    ("facing", "cost_mm"),
    [
        # Facing east, the 20 mm square reaches 10 mm north of its centre: in the wood
        # (y >= 170) from y 160, so 60 mm open and 20 at double cost: 100 mm.
        (0.0, 100.0),
        # Turned 45 deg, a corner leads, 14.14 mm north of the centre: in the wood from
        # y 155.86, 55.86 open + 2 x 24.14 = 104.14 mm (what the disc round the base
        # paid at any facing).
        (45.0, 90.0 + 10.0 * 2**0.5),
    ],
)
def test_a_square_base_pays_while_it_overlaps_the_wood_at_its_facing(
    facing: float, cost_mm: float
) -> None:
    # §6.1: a lone infantryman moves 12 cm, halved in difficult ground; he keeps his
    # facing on the way (and may turn at the end). From (100, 100) to (100, 180).
    scene = sr_scene(
        [
            {
                "id": "s",
                "side": "union",
                "x_mm": 100,
                "y_mm": 100,
                "facing_deg": facing,
                "type": "infantry",
                "base": {"shape": "square", "side_mm": 20},
            }
        ],
        terrain=[
            {
                "id": "wood",
                "kind": "wood",
                "polygon_mm": [[0, 170], [1200, 170], [1200, 400], [0, 400]],
            }
        ],
    )
    move = answer_json(scene, "move", "s", 100, 180)
    assert move["cost_mm"] == pytest.approx(cost_mm, abs=0.01)
    assert move["legal"] is True


def test_a_group_moves_at_the_pace_of_its_member_in_difficult_ground() -> None:
    # §6.1: an infantry group moves 8 cm in a first action, halved in difficult ground.
    # ldr and l2 stand in the open, l3 in a wood (x >= 145; its 20 mm base spans x
    # 150-170). Moving the group 8 cm north costs l3 2 x 80 = 160 mm: the group cannot
    # (it did, at the Leader's 8.0 cm); 4 cm costs l3 80 mm, just the 8 cm allowed.
    base = {"shape": "square", "side_mm": 20}
    member = {"side": "union", "unit": "L", "y_mm": 100, "facing_deg": 90, "type": "infantry"}
    scene = sr_scene(
        [
            {
                "id": "ldr",
                **member,
                "x_mm": 100,
                "base": base,
                "attrs": {"leader": True, "combat": 4},
            },
            {"id": "l2", **member, "x_mm": 130, "base": base, "attrs": {"combat": 4}},
            {"id": "l3", **member, "x_mm": 160, "base": base, "attrs": {"combat": 4}},
        ],
        terrain=[
            {
                "id": "wood",
                "kind": "wood",
                "polygon_mm": [[145, 50], [400, 50], [400, 400], [145, 400]],
            }
        ],
    )
    far = answer_json(scene, "move", "L", 100, 180)
    assert far["legal"] is False and far["reasons"] == ["over_allowance"]
    assert far["cost_mm"] == pytest.approx(160.0)
    assert any(w.startswith("l3 crosses difficult ground") for w in far["warnings"])
    near = answer_json(scene, "move", "L", 100, 140)
    assert near["legal"] is True and near["cost_mm"] == pytest.approx(80.0)


def test_a_group_mixing_cavalry_and_infantry_moves_at_the_infantry_pace() -> None:
    # §3.1: "on ne peut mélanger Infanterie et Cavalerie". Such a group is told so, and
    # moves at its infantry's 8 cm, not its cavalry Leader's 20.
    base = {"shape": "square", "side_mm": 20}
    member = {"side": "union", "unit": "C", "y_mm": 100, "facing_deg": 90, "base": base}
    scene = sr_scene(
        [
            {
                "id": "cv",
                **member,
                "x_mm": 600,
                "type": "cavalry",
                "attrs": {"leader": True, "combat": 4},
            },
            {"id": "ci", **member, "x_mm": 630, "type": "infantry", "attrs": {"combat": 4}},
        ]
    )
    answer = answer_json(scene, "move", "C", 600, 300)
    assert answer["allowance_mm"] == pytest.approx(80.0)
    assert answer["legal"] is False  # 200 mm of 80
    assert any("may not mix cavalry and infantry" in w for w in answer["warnings"])


@pytest.mark.parametrize("facing", [90.0, 45.0, 0.0])
def test_a_charge_is_measured_with_the_charger_turned_to_its_target(facing: float) -> None:
    # §6.5: the charger turns to face its target (free within its arc) and charges
    # straight. Cavalry on a 20 mm square at (300, 300), the target's square at (400, 400)
    # facing it (225 deg): turned to 45 deg, the two squares face each other across
    # 141.42 - 20 = 121.42 mm, whatever the charger's facing before. A wood covers
    # x + y >= 670: the charger's front edge (x + y = 614.14) reaches it after
    # (670 - 614.14) / sqrt 2 = 39.50 mm, the other 81.92 mm count double: 203.34 mm, over
    # the 20 cm of a first cavalry charge by 3.34 mm.
    scene = sr_scene(
        [
            square("a", "union", 300, 300, facing, type="cavalry"),
            square("t", "csa", 400, 400, 225, type="infantry"),
        ],
        terrain=[
            {
                "id": "w",
                "kind": "wood",
                "polygon_mm": [[370, 300], [1000, 300], [1000, 1000], [300, 1000], [300, 370]],
            }
        ],
    )
    charge = answer_json(scene, "charge", "a", "t")
    assert charge["distance_mm"] == pytest.approx(200**0.5 * 10 - 20, abs=0.01)
    assert charge["legal"] is False and "charge_short" in charge["reasons"]
    gap = 100 * 2**0.5 - 20
    open_mm = (670 - 600 - 10 * 2**0.5) / 2**0.5
    assert charge["margin_mm"] == pytest.approx(open_mm + 2 * (gap - open_mm) - 200, abs=0.01)


def test_a_move_s_bad_options_raise() -> None:
    scene = sr_scene(PAIR)
    with pytest.raises(QuestionError, match="action_index"):
        ask(scene, "move", ["a", "150", "100"], {"action_index": 4})
    with pytest.raises(QuestionError, match="mode"):
        ask(scene, "move", ["a", "150", "100"], {"mode": "gallop"})


def test_bad_input_to_a_move_is_a_question_error() -> None:
    with pytest.raises(
        QuestionError, match=r"an angle in degrees.*, got 'up' \(option facing_deg of move\)"
    ):
        ask(sr_scene(LEADER_AND_MARKER), "move", ["L", "100", "200"], {"facing_deg": "up"})
