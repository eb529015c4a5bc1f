"""MBT: the rule book's numbers (moves, combat points, outcomes, elephants, archers)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.rules.errors import SceneError
from arbitre.rules.mbt import NUMBERS, base_figures, combat_points, move_allowance, outcome
from arbitre.rules.mbt.plates import aligned_friends, plates_of
from arbitre.rules.model import Figure
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene

RECT = {"shape": "rect", "width_mm": 40, "depth_mm": 20}


def _base(
    ident: str, side: str, x: float, y: float, facing: float, kind: str, **attrs: Any
) -> dict[str, Any]:
    return {
        "id": ident,
        "side": side,
        "x_mm": x,
        "y_mm": y,
        "facing_deg": facing,
        "type": kind,
        "base": RECT,
        "attrs": attrs,
    }


def _scene(
    *figures: dict[str, Any],
    options: dict[str, Any] | None = None,
    terrain: list[dict[str, Any]] | None = None,
) -> Any:
    return parse_scene(
        {
            "ruleset": "mbt",
            "options": options or {},
            "table": {"width_mm": 1000, "depth_mm": 800},
            "figures": list(figures),
            "terrain": terrain or [],
        }
    )


@pytest.mark.parametrize(
    ("kind", "heavy", "graduations"),
    # "cavalerie légère ... 5 graduations, ... infanterie légère ... 3 graduations. Si la
    # plaquette est lourde, ... une graduation en moins (4 pour la cavalerie, 2 pour
    # l'infanterie)."
    [("cavalry", False, 5), ("infantry", False, 3), ("cavalry", True, 4), ("infantry", True, 2)],
)
def test_move_allowances(kind: str, heavy: bool, graduations: int) -> None:
    assert move_allowance(Figure("x", "a", 0, 0, type=kind, attrs={"heavy": heavy})) == graduations


def test_combat_points_of_the_book() -> None:
    # "un point de force par figurine sur la plaquette, cinq points pour un éléphant"
    elephant = Figure("e", "a", 0, 0, type="infantry", attrs={"elephant": True})
    assert sum(combat_points(elephant).values()) == 5
    # "Les plaquettes lourdes ajoutent un point ... Le général possède un point
    # supplémentaire (cumulable avec le type lourd)."
    general = Figure(
        "g", "a", 0, 0, type="cavalry", attrs={"heavy": True, "general": True, "figures": 3}
    )
    assert combat_points(general) == {"figures": 3, "heavy": 1, "general": 1}
    # Each friend touching the same enemy adds one; an infantry base aligned behind, one.
    assert combat_points(general, supports=2, rear_support=True)["support"] == 2
    assert base_figures(Figure("i", "a", 0, 0, type="infantry", attrs={"figures": 6})) == 6


@pytest.mark.parametrize(
    ("total_a", "total_b", "expected"),
    [
        (6, 6, ("tie", 0)),  # "en cas d'égalité, rien ne se passe"
        (8, 4, ("eliminated", 2)),  # "au moins le double": 8 >= 2 x 4
        (7, 4, ("recoil", 2)),  # 7 < 8: "recule de la profondeur de son socle"
        (5, 10, ("eliminated", 1)),
        (5, 9, ("recoil", 1)),
    ],
)
def test_combat_outcomes(total_a: int, total_b: int, expected: tuple[str, int]) -> None:
    assert outcome(total_a, total_b) == expected


def _elephant_fight(**extras: Any) -> dict[str, Any]:
    # A heavy infantry base (4 figures + 1) against an elephant (1 + 4) face to face.
    scene = _scene(
        _base("inf", "blue", 200, 200, 90, "infantry", heavy=True),
        _base("ele", "red", 200, 220, 270, "infantry", elephant=True),
    )
    return ask(scene, "combat", ["inf", "ele"], extras).to_json()


def test_an_elephant_that_recoils_panics() -> None:
    # 6 + 5 = 11 against 3 + 5 = 8: 11 < 16, the elephant must recoil: it panics.
    answer = _elephant_fight(die_a=6, die_b=3)
    assert (answer["score_a"], answer["score_b"]) == (5, 5)
    assert (answer["total_a"], answer["total_b"], answer["outcome"]) == (11, 8, "recoil")
    assert answer["panic"] is True and answer["panic_direction"] is None
    # "1 droit devant, 2 sur sa gauche, 3 sur sa droite, 4, 5 ou 6 en arrière"
    directions = [
        _elephant_fight(die_a=6, die_b=3, die_panic=die)["panic_direction"] for die in range(1, 7)
    ]
    assert directions == ["ahead", "left", "right", "back", "back", "back"]
    assert NUMBERS.panic[4] == "back"


def test_recoil_into_an_enemy_front_eliminates() -> None:
    # B (red) loses against A and recoils 20 mm to +y: y 230..250. C (blue) faces it from
    # (200, 260) facing 270, its front at y = 250: B would touch an enemy front.
    scene = _scene(
        _base("A", "blue", 200, 200, 90, "infantry"),
        _base("B", "red", 200, 220, 270, "infantry"),
        _base("C", "blue", 200, 260, 270, "infantry"),
    )
    answer = ask(scene, "combat", ["A", "B"], {"die_a": 5, "die_b": 3}).to_json()
    # A: 3 + 5 = 8; B: 3 + 3 = 6; 8 < 12 -> recoil, blocked by C's front -> eliminated.
    assert (answer["total_a"], answer["total_b"]) == (8, 6)
    assert answer["recoil_blocked_by"] == ["C"]
    assert answer["outcome"] == "eliminated"


def test_the_90_degree_arc_option() -> None:
    # Archers at (200, 200) facing 90: front edge y = 210, x 180..220, its centre
    # (200, 210). A target is in the 90-degree arc when some point of it lies within
    # 45 deg of the facing, seen from the front's centre.
    # (265, 225) spans x 245..285, y 215..235: its best point (245, 235) is 45 right and
    # 25 ahead: atan(45 / 25) = 61 deg -> out of the arc; x >= 245 > 220 -> out of the
    # strip too (the gap, hypot(25, 5) = 25.5 mm, is within range).
    # (235, 245) spans x 215..255, y 235..255: (215, 255) is 15 right, 45 ahead: 18 deg
    # -> in the arc; x 215..220 lies in the strip.
    for x, y, in_arc in ((265, 225, False), (235, 245, True)):
        for arc in ("front", "90"):
            scene = _scene(
                _base("R", "blue", 200, 200, 90, "infantry", archer=True),
                _base("T", "red", x, y, 270, "infantry"),
                options={"arc": arc},
            )
            answer = ask(scene, "fire", ["R", "T"]).to_json()
            assert ("not_in_arc" not in answer["reasons"]) is in_arc, (x, y, arc)
    # (255, 280) spans x 235..275, y 270..290: (235, 290) is 35 right, 80 ahead: 24 deg
    # -> in the arc, but out of the strip (x >= 235 > 220).
    for arc, refused in (("90", False), ("front", True)):
        scene = _scene(
            _base("R", "blue", 200, 200, 90, "infantry", archer=True),
            _base("T", "red", 255, 280, 270, "infantry"),
            options={"arc": arc},
        )
        assert ("not_in_arc" in ask(scene, "fire", ["R", "T"]).to_json()["reasons"]) is refused


def test_bases_must_be_rectangles_with_a_type() -> None:
    with pytest.raises(SceneError, match=r"figures\[0\]\.base"):
        _scene(
            {
                "id": "x",
                "side": "a",
                "x_mm": 100,
                "y_mm": 100,
                "type": "infantry",
                "base": {"shape": "round", "diameter_mm": 25},
            }
        )
    with pytest.raises(SceneError, match=r"figures\[0\]\.type"):
        _scene({"id": "x", "side": "a", "x_mm": 100, "y_mm": 100, "type": "chariot", "base": RECT})
    with pytest.raises(SceneError, match=r"figures\[0\]\.attrs\.heavy"):
        _base_bad = _base("x", "a", 100, 100, 90, "infantry", heavy="yes")
        _scene(_base_bad)


@pytest.mark.parametrize("count", [10**300, 101, -1, 2.5])
def test_a_base_carries_0_to_100_figures(count: object) -> None:
    with pytest.raises(SceneError) as error:
        _scene(_base("x", "a", 100, 100, 90, "infantry", figures=count))
    assert error.value.field == "figures[0].attrs.figures"
    assert error.value.problem.startswith("figure 'x': expected a count of figures 0 to 100")


def test_a_base_of_100_figures_fights_with_them() -> None:
    # 100 figures on the base, infantry, not heavy: 100 points before the die.
    scene = _scene(_base("x", "a", 100, 100, 90, "infantry", figures=100))
    assert base_figures(scene.figures[0]) == 100


@pytest.mark.parametrize(("mover", "kind"), [("I", "infantry"), ("C", "cavalry")])
def test_reach_holds_every_legal_destination(mover: str, kind: str) -> None:
    # Bases round the mover, woods (difficult for infantry, impassable for cavalry) and
    # impassable rocks; random goals within the allowance's square round the mover. Every
    # goal that `move` accepts with the base's disc (radius hypot(40, 20) / 2) clear of
    # other bases and impassable ground lies in the `reach` area, whose outline follows
    # the true one to a fraction of a mm. (A goal closer to another base than the disc,
    # such as one in contact, is one `move` checks with the rectangle itself; `reach`
    # leaves it out: see docs/rules/mbt.md.)
    scene = _scene(
        _base("I", "blue", 300, 300, 90, "infantry"),
        _base("C", "blue", 700, 300, 0, "cavalry"),
        _base("E1", "red", 300, 345, 270, "infantry"),
        _base("E2", "red", 255, 280, 0, "infantry"),
        _base("E3", "red", 720, 380, 45, "cavalry"),
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
    scene = _scene(
        _base("G1", "blue", 300, 300, 90, "infantry"),
        _base("G2", "blue", 340, 300, 90, "infantry", heavy=True),
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


def test_bad_options_of_move_and_panic_are_question_errors() -> None:
    from arbitre.rules.errors import QuestionError

    scene = _scene(
        _base("G1", "blue", 300, 300, 90, "infantry"),
        _base("E", "red", 600, 300, 90, "infantry", elephant=True),
    )
    with pytest.raises(QuestionError, match="as_group"):
        ask(scene, "move", ["G1", "300", "330"], {"as_group": "perhaps"})
    with pytest.raises(QuestionError, match="not an elephant"):
        ask(scene, "panic", ["G1"])
    with pytest.raises(QuestionError, match="die"):
        ask(scene, "panic", ["E"], {"die": 7})
    with pytest.raises(QuestionError, match="direction"):
        ask(scene, "panic", ["E"], {"direction": "up"})
    with pytest.raises(QuestionError, match="not both"):
        ask(scene, "panic", ["E"], {"die": 2, "direction": "left"})


@pytest.mark.parametrize(
    ("die", "to"),
    [
        (1, [600, 340]),
        (2, [560, 300]),
        (3, [640, 300]),
        (4, [600, 260]),
        (5, [600, 260]),
        (6, [600, 260]),
    ],
)
def test_panic_directions_by_the_die(die: int, to: list[float]) -> None:
    # "1 droit devant, 2 sur sa gauche, 3 sur sa droite, 4, 5 ou 6 en arrière": the
    # elephant at (600, 300) faces 90 (+y), its left is -x; a 40 x 40 base goes 40 mm.
    scene = _scene(
        {
            **_base("E", "red", 600, 300, 90, "infantry", elephant=True),
            "base": {"shape": "rect", "width_mm": 40, "depth_mm": 40},
        },
    )
    run = ask(scene, "panic", ["E"], {"die": die}).to_json()["runs"][0]
    assert run["to_mm"] == pytest.approx(to)


def test_panic_distance_move_goes_the_elephants_allowance() -> None:
    # panic_distance: move -> a light infantry elephant goes 3 graduations = 75 mm.
    scene = _scene(
        {
            **_base("E", "red", 600, 300, 90, "infantry", elephant=True),
            "base": {"shape": "rect", "width_mm": 40, "depth_mm": 40},
        },
        options={"panic_distance": "move"},
    )
    run = ask(scene, "panic", ["E"], {"direction": "back"}).to_json()["runs"][0]
    assert run["moved_mm"] == pytest.approx(75.0) and run["to_mm"] == pytest.approx([600, 225])


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
    scene = _scene(
        _base("I", "blue", 300, 300, 90, "infantry"),
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
    return _scene(
        _base("C", "blue", 100, 100, facing, "cavalry"),
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
    scene = _scene(
        _base("a", "red", 100, 100, 90, "infantry"),
        _base("b", "red", 140, 100, 90, "infantry"),
        _base("c", "red", 180, 100, 90, "infantry"),
        _base("d", "red", 223, 100, 90, "infantry"),
        _base("e", "red", 100, 130, 0, "infantry"),
        _base("f", "blue", 60, 100, 90, "infantry"),
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
        _base(f"p{k}", "red" if red else "blue", 100 + 40 * i, 100 + 20 * j, facing, "infantry")
        for k, (i, j, facing, red) in enumerate(cells)
    ]
    scene = _scene(*figures)
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


@pytest.mark.parametrize(("worth", "taken"), [(0, False), (1, True), (3, True), (4, False)])
def test_an_objective_is_worth_one_to_three_losses_as_the_book_says(
    worth: int, taken: bool
) -> None:
    # Mouvements: an objective is worth "1, 2 ou 3 pertes"; any other worth is refused.
    options = {"objectives": [{"id": "hill", "x_mm": 500, "y_mm": 400, "worth": worth}]}
    if taken:
        assert _scene(options=options) is not None
    else:
        with pytest.raises(SceneError, match="worth"):
            _scene(options=options)
