"""MBT moves: a base's allowance, its moves and reach, alone or as a group, and groups
(``move``, ``reach``, ``groups``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.rules.errors import QuestionError
from arbitre.rules.mbt import move_allowance
from arbitre.rules.mbt.plates import aligned_friends, plates_of
from arbitre.rules.model import Figure
from arbitre.rules.questions import ask
from tests.rules.mbt.scenes import base, mbt_scene


@pytest.mark.parametrize(
    ("kind", "heavy", "graduations"),
    # "cavalerie légère ... 5 graduations, ... infanterie légère ... 3 graduations. Si la
    # plaquette est lourde, ... une graduation en moins (4 pour la cavalerie, 2 pour
    # l'infanterie)."
    [("cavalry", False, 5), ("infantry", False, 3), ("cavalry", True, 4), ("infantry", True, 2)],
)
def test_move_allowances(kind: str, heavy: bool, graduations: int) -> None:
    assert move_allowance(Figure("x", "a", 0, 0, type=kind, attrs={"heavy": heavy})) == graduations


@pytest.mark.parametrize(("mover", "kind"), [("I", "infantry"), ("C", "cavalry")])
def test_reach_holds_every_legal_destination(mover: str, kind: str) -> None:
    # Bases round the mover, woods (difficult for infantry, impassable for cavalry) and
    # impassable rocks; random goals within the allowance's square round the mover. Every
    # goal that `move` accepts with the base's disc (radius hypot(40, 20) / 2) clear of
    # other bases and impassable ground lies in the `reach` area, whose outline follows
    # the true one to a fraction of a mm. (A goal closer to another base than the disc,
    # such as one in contact, is one `move` checks with the rectangle itself; `reach`
    # leaves it out: see docs/rules/mbt.md.)
    scene = mbt_scene(
        base("I", "blue", 300, 300, 90, "infantry"),
        base("C", "blue", 700, 300, 0, "cavalry"),
        base("E1", "red", 300, 345, 270, "infantry"),
        base("E2", "red", 255, 280, 0, "infantry"),
        base("E3", "red", 720, 380, 45, "cavalry"),
        terrain=[
            {"id": "wood", "kind": "wood", "polygon_mm": [[320, 230], [400, 230], [400, 290]]},
            {
                "id": "rocks",
                "kind": "impassable",
                "polygon_mm": [[740, 240], [800, 240], [800, 330], [740, 330]],
            },
            {
                "id": "wood2",
                "kind": "wood",
                "polygon_mm": [[600, 330], [660, 330], [660, 400], [600, 400]],
            },
        ],
    )
    reach = ask(scene, "reach", [mover]).to_json()
    area = shapely.union_all(
        [
            shapely.Polygon(shell, holes)
            for shell, holes in zip(reach["polygons_mm"], reach["holes_mm"], strict=True)
        ]
    )
    assert 0 < area.area <= np.pi * reach["allowance_mm"] ** 2
    radius_mm = float(np.hypot(40, 20) / 2)
    blocking = {"impassable", "wood"} if kind == "cavalry" else {"impassable"}
    obstacles = [
        f.base.footprint(f.x_mm, f.y_mm, f.facing_deg) for f in scene.figures if f.id != mover
    ] + [t.geometry for t in scene.terrain if t.kind.value in blocking]
    start = scene.figure(mover).xy
    rng = np.random.default_rng(7 if kind == "infantry" else 11)
    checked = 0
    for goal in start + rng.uniform(-1, 1, (60, 2)) * reach["allowance_mm"]:
        answer = ask(scene, "move", [mover, str(goal[0]), str(goal[1])]).to_json()
        point = shapely.Point(goal)
        if answer["legal"] and min(o.distance(point) for o in obstacles) >= radius_mm:
            checked += 1
            assert answer["cost_mm"] <= reach["allowance_mm"] + 1e-6
            assert area.distance(point) <= 0.5, (goal, answer["path_mm"])
    assert checked >= 5


def test_a_base_alone_moves_at_its_own_pace_and_its_group_only_when_asked() -> None:
    # "Les plaquettes se déplacent individuellement [...] Un groupe peut se déplacer [...] à
    # la vitesse de la plaquette la plus lente." G1 light infantry (3 graduations = 75 mm)
    # and G2 heavy infantry (2 = 50 mm), side by side, same facing: a group.
    scene = mbt_scene(
        base("G1", "blue", 300, 300, 90, "infantry"),
        base("G2", "blue", 340, 300, 90, "infantry", heavy=True),
    )
    alone = ask(scene, "move", ["G1", "300", "370"]).to_json()  # 70 mm
    assert alone["legal"] and alone["allowance_units"] == 3 and alone["group"] == []
    together = ask(scene, "move", ["G1", "300", "370"], {"as_group": True}).to_json()
    assert not together["legal"] and together["reasons"] == ["over_allowance"]
    assert together["allowance_units"] == 2 and together["group"] == ["G1", "G2"]
    # The group's rectangle (x 280..360) moves with G1: its path is G1's centre's.
    assert together["path_mm"][0] == [300, 300]
    reach_alone = ask(scene, "reach", ["G1"]).to_json()
    reach_group = ask(scene, "reach", ["G1"], {"as_group": True}).to_json()
    assert reach_group["area_mm2"] < reach_alone["area_mm2"]


def test_a_bad_as_group_is_a_question_error() -> None:
    scene = mbt_scene(
        base("G1", "blue", 300, 300, 90, "infantry"),
        base("E", "red", 600, 300, 90, "infantry", elephant=True),
    )
    with pytest.raises(QuestionError, match="as_group"):
        ask(scene, "move", ["G1", "300", "330"], {"as_group": "perhaps"})


@pytest.mark.parametrize(
    ("woods", "legal", "cost_mm"),
    [("open", True, 40), ("difficult", True, 70.0), ("impassable", False, None)],
)
def test_woods_for_infantry_is_the_scenarios_choice(
    woods: str, legal: bool, cost_mm: float | None
) -> None:
    # I (40 wide across x, 20 deep, facing up) at (300, 300) to (340, 300): its
    # rectangle's right edge, 20 mm from its centre, enters the wood (x >= 330) when the
    # centre is at x = 310, so 10 mm open and 30 mm at double cost: 70 of 75.
    scene = mbt_scene(
        base("I", "blue", 300, 300, 90, "infantry"),
        options={"woods_for_infantry": woods},
        terrain=[
            {
                "id": "w",
                "kind": "wood",
                "polygon_mm": [[330, 200], [500, 200], [500, 400], [330, 400]],
            }
        ],
    )
    answer = ask(scene, "move", ["I", "340", "300"]).to_json()
    assert answer["legal"] is legal
    if cost_mm is not None:
        assert answer["cost_mm"] == pytest.approx(cost_mm)


def _band_scene(facing: float) -> Any:
    """Light cavalry C (40 x 20) at (100, 100) below difficult ground from y = 200 up,
    across the whole table."""
    band = [[0, 200], [1000, 200], [1000, 400], [0, 400]]
    return mbt_scene(
        base("C", "blue", 100, 100, facing, "cavalry"),
        terrain=[{"id": "marsh", "kind": "difficult", "polygon_mm": band}],
    )


@pytest.mark.parametrize(
    ("facing", "cost_mm", "legal"),
    [
        # Facing up, the front edge is 10 mm ahead of the centre: the base enters the
        # marsh with its centre at y = 190, so 90 mm open and 15 mm at double cost: 120 mm,
        # 4.8 of 5 graduations. (The disc round the base, radius 22.361, would enter at
        # y = 177.639: 132.361 mm, 5.29 graduations, refused.)
        (90.0, 120.0, True),
        # Facing 45 deg, the base reaches 10 sin 45 + 20 cos 45 = 21.213 mm above its
        # centre: in the marsh from y = 178.787, 78.787 mm open + 2 x 26.213 = 131.213 mm.
        (45.0, 131.213, False),
    ],
)
def test_difficult_ground_counts_while_the_rectangle_overlaps_it(
    facing: float, cost_mm: float, legal: bool
) -> None:
    answer = ask(_band_scene(facing), "move", ["C", "100", "205"]).to_json()
    assert answer["cost_mm"] == pytest.approx(cost_mm, abs=1e-3)
    assert answer["legal"] is legal
    assert answer["reasons"] == ([] if legal else ["over_allowance"])


def test_reach_stops_where_the_rectangle_has_spent_the_allowance() -> None:
    # Facing up, straight north is the farthest way: (y - 100) + (y - 190) = 125 mm at
    # y = 207.5 (the disc round the base would stop at 201.32). The area's frontier is
    # within 0.5 % of the 125 mm allowance of the true one.
    reach = ask(_band_scene(90.0), "reach", ["C"]).to_json()
    top = max(y for ring in reach["polygons_mm"] for _, y in ring)
    assert top == pytest.approx(207.5, abs=0.625)


def test_groups_are_rows_of_aligned_friends() -> None:
    # Bases 40 wide, 20 deep, all facing up (90 deg): three side by side along x at
    # 40 mm steps share whole 20 mm flanks, so they are one group; a fourth 43 mm
    # further leaves a 3 mm gap (more than the 2 mm contact tolerance); a friend turned to
    # 0 deg is not aligned; an enemy touching is never a group mate.
    scene = mbt_scene(
        base("a", "red", 100, 100, 90, "infantry"),
        base("b", "red", 140, 100, 90, "infantry"),
        base("c", "red", 180, 100, 90, "infantry"),
        base("d", "red", 223, 100, 90, "infantry"),
        base("e", "red", 100, 130, 0, "infantry"),
        base("f", "blue", 60, 100, 90, "infantry"),
    )
    answer = ask(scene, "groups", [])
    assert answer.groups == {"f": ["f"], "a": ["a", "b", "c"], "d": ["d"], "e": ["e"]}
    assert answer.sides == {"f": "blue", "a": "red", "d": "red", "e": "red"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.integers(0, 9), st.integers(0, 9), st.sampled_from([0.0, 90.0, 180.0]), st.booleans()
        ),
        min_size=2,
        max_size=40,
        unique_by=lambda cell: cell[:2],
    )
)
def test_groups_from_the_spatial_index_are_those_of_every_pair(
    cells: list[tuple[int, int, float, bool]],
) -> None:
    # Bases on a 40 x 20 mm lattice touch their neighbours edge to edge, so many pairs are
    # aligned; the groups must be the connected sets of aligned pairs among *all* pairs.
    figures = [
        base(f"p{k}", "red" if red else "blue", 100 + 40 * i, 100 + 20 * j, facing, "infantry")
        for k, (i, j, facing, red) in enumerate(cells)
    ]
    scene = mbt_scene(*figures)
    plates = plates_of(scene)
    mates: dict[str, set[str]] = {p.figure.id: {p.figure.id} for p in plates}
    for a in plates:
        for b in plates:
            if a is not b and aligned_friends(a, b, scene.options):
                joined = mates[a.figure.id] | mates[b.figure.id]
                for name in joined:
                    mates[name] = joined
    expected = {frozenset(group) for group in mates.values()}
    found = {frozenset(ids) for ids in ask(scene, "groups", []).groups.values()}
    assert found == expected


def test_a_turn_refused_by_a_fraction_of_a_millimetre_is_too_close_to_call() -> None:
    # T (40 x 20) turning on its centre reaches 22.361 mm out, 2.361 mm into W: 0.361 beyond
    # the 2 mm contact tolerance. With a camera sure to 0.5 mm the refusal is too close to
    # call (0.361 < 2 x 0.5); measured exactly, it is certain.
    near = base("W", "red", 300, 330, 270, "infantry")
    for sigma, doubtful in ((0.0, False), (0.5, True)):
        mover = base("T", "blue", 300, 300, 90, "infantry")
        mover["sigma_mm"] = sigma
        answer = ask(mbt_scene(mover, near), "move", ["T", "300", "300"], {"facing_deg": 0})
        data = answer.to_json()
        assert data["reasons"] == ["path_blocked"] and data["blocked_by"] == ["W"]
        assert data["margin_mm"] == pytest.approx(0.361, abs=2e-3)
        assert answer.message.startswith("too close to call") is doubtful
