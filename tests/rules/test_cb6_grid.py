"""Choc Base 6 on hex and square grids: ANNEXE 2's examples and hand-worked cells."""

from __future__ import annotations

import math
from typing import Any

import pytest

from arbitre.rules.choc_base_6.grid import Grid
from arbitre.rules.errors import QuestionError, SceneError
from arbitre.rules.model import Scene
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene

# Squares of 50 mm, default origin: square (c, r) is centred on (25 + 50 c, 25 + 50 r).
# Pointy hexes of 50 mm with the origin at (300, 300): hex (q, r) is centred on
# (300 + 50 q + 25 r, 300 + 43.30 r).


def _square(c: int, r: int) -> tuple[float, float]:
    return 25 + 50 * c, 25 + 50 * r


def _hex(q: int, r: int) -> tuple[float, float]:
    return 300 + 50 * q + 25 * r, 300 + 25 * math.sqrt(3) * r


def _fig(ident: str, side: str, at: tuple[float, float], **more: Any) -> dict[str, Any]:
    return {"id": ident, "side": side, "x_mm": at[0], "y_mm": at[1], **more}


def _scene(
    surface: str,
    *figures: dict[str, Any],
    table: tuple[float, float] = (600, 400),
    terrain: list[dict[str, Any]] | None = None,
    allies: list[list[str]] | None = None,
    **options: Any,
) -> Scene:
    if surface == "hex":
        options = {"hex_mm": 50, "grid_origin_mm": [300, 300], **options}
    else:
        options = {"square_mm": 50, **options}
    return parse_scene(
        {
            "ruleset": "cb6",
            "options": {"surface": surface, **options},
            "table": {"width_mm": table[0], "depth_mm": table[1]},
            "figures": list(figures),
            "terrain": terrain or [],
            "allies": allies or [],
        }
    )


# --- ANNEXE 2, squares -------------------------------------------------------------------


def test_the_archer_hits_at_three_squares_not_four() -> None:
    # "L'archer peut toucher les cibles à 3 cases au plus (comptage en horizontal et/ou
    # vertical)" -- 2 across and 1 up is 3 squares; 2 across and 2 up is 4.
    scene = _scene(
        "square",
        _fig("archer", "blue", _square(1, 1), type="TD"),
        _fig("near", "red", _square(3, 2), type="CR"),
        _fig("far", "red", _square(3, 3), type="CR"),
        table=(600, 600),
    )
    near = ask(scene, "fire", ["archer", "near"]).to_json()
    assert near["allowed"] is True
    assert (near["distance_units"], near["unit"], near["distance_mm"]) == (3, "C", 150)
    far = ask(scene, "fire", ["archer", "far"]).to_json()
    assert (far["allowed"], far["reasons"], far["distance_units"]) == (False, ["out_of_range"], 4)


def test_squares_touching_by_a_corner_are_not_in_contact() -> None:
    # "Les 2 groupes ne sont pas en contact (cases voisines par un coin)"
    scene = _scene(
        "square",
        _fig("a", "blue", _square(2, 2)),
        _fig("side", "red", _square(3, 2)),
        _fig("corner", "red", _square(3, 3)),
    )
    assert ask(scene, "contact", ["a", "side"]).to_json()["contact"] is True
    corner = ask(scene, "contact", ["a", "corner"]).to_json()
    assert (corner["contact"], corner["steps"]) == (False, 2)


def test_diagonal_moves_are_not_allowed() -> None:
    # "Exemples d'avances non autorisées, en diagonale": the diagonal square costs two
    # orthogonal steps, so a wounded figure (PA 1) cannot reach it; PA 2 can, in an L.
    scene = _scene(
        "square",
        _fig("hurt", "blue", _square(1, 1), wounded=True),
        _fig("fit", "blue", _square(5, 5)),
        table=(600, 600),
    )
    hurt = ask(scene, "move", ["hurt", *map(str, _square(2, 2))]).to_json()
    assert (hurt["legal"], hurt["reasons"], hurt["cost_units"]) == (False, ["over_allowance"], 2)
    fit = ask(scene, "move", ["fit", *map(str, _square(6, 6))]).to_json()
    assert fit["legal"] is True and fit["cost_units"] == 2
    (c0, r0), (c1, r1), (c2, r2) = fit["path_cells"]
    assert abs(c1 - c0) + abs(r1 - r0) == 1 and abs(c2 - c1) + abs(r2 - r1) == 1


def test_a_shot_does_not_cross_an_occupied_square() -> None:
    # Archer (1,1), target (1,4), a red group on (1,3) between ("ami ou ennemi"): the count
    # must go round it, e.g. (2,1) (2,2) (2,3) (2,4) (1,4) = 5 squares > 3 -> blocked.
    # A sniper (4-5 squares) may shoot along that count: 5 squares, sniper band.
    figures = [
        _fig("archer", "blue", _square(1, 1), type="TD"),
        _fig("garde", "red", _square(1, 3), type="CR"),
        _fig("cible", "red", _square(1, 4), type="CR"),
    ]
    blocked = ask(_scene("square", *figures), "fire", ["archer", "cible"]).to_json()
    assert (blocked["allowed"], blocked["reasons"]) == (False, ["line_blocked"])
    assert blocked["blocked_by"] == ["garde"]
    figures[0]["attrs"] = {"sniper": True}
    sniper = ask(_scene("square", *figures), "fire", ["archer", "cible"]).to_json()
    assert (sniper["allowed"], sniper["band"], sniper["distance_units"]) == (True, "sniper", 5)
    assert len(sniper["line_cells"]) == 6 and [1, 3] not in sniper["line_cells"]


def test_a_move_goes_round_occupied_squares() -> None:
    # Mover (1,1) PA 2 to (3,1); a red group on (2,1): the free count is 2 but the way
    # round, (1,2) (2,2) (3,2) (3,1), is 4 -> path_blocked by it.
    scene = _scene(
        "square",
        _fig("m", "blue", _square(1, 1)),
        _fig("wall", "red", _square(2, 1)),
    )
    answer = ask(scene, "move", ["m", *map(str, _square(3, 1))]).to_json()
    assert (answer["legal"], answer["reasons"], answer["blocked_by"]) == (
        False,
        ["path_blocked"],
        ["wall"],
    )
    occupied = ask(scene, "move", ["m", *map(str, _square(2, 1))]).to_json()
    assert occupied["reasons"] == ["destination_occupied"]


# --- hexes --------------------------------------------------------------------------------


def test_hex_cells_and_distances_by_hand() -> None:
    g = Grid("hex", 50, (300, 300))
    assert g.cell_of(*_hex(2, -1)) == (2, -1)
    assert g.cell_of(300 + 24, 300) == (0, 0) and g.cell_of(300 + 26, 300) == (1, 0)
    # (0,0) -> (3,-1): dq 3, dr -1, ds -2: (3 + 1 + 2) / 2 = 3 hexes.
    assert g.steps((0, 0), (3, -1)) == 3
    # (0,0) -> (-2,3): (2 + 3 + 1) / 2 = 3.
    assert g.steps((0, 0), (-2, 3)) == 3
    assert sorted(g.neighbours((0, 0))) == [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)]
    flat = Grid("hex", 50, (300, 300), pointy=False)
    assert flat.centre((0, 1)) == pytest.approx((300, 350))  # flat hexes: neighbours along y
    assert flat.cell_of(300, 326) == (0, 1)


def test_hex_contact_and_distance_answers() -> None:
    scene = _scene(
        "hex",
        _fig("a", "blue", _hex(0, 0)),
        _fig("b", "red", _hex(1, -1)),
        _fig("c", "red", _hex(1, 1)),
    )
    ab = ask(scene, "contact", ["a", "b"]).to_json()
    assert (ab["contact"], ab["cell_a"], ab["cell_b"]) == (True, [0, 0], [1, -1])
    assert ask(scene, "contact", ["a", "c"]).to_json()["contact"] is False
    distance = ask(scene, "distance", ["a", "c"]).to_json()
    assert (distance["distance_units"], distance["unit"], distance["distance_mm"]) == (2, "H", 100)


def test_hex_line_of_fire() -> None:
    # (0,0) -> (3,0): the line crosses (1,0) and (2,0); a group on (2,0) blocks it. The
    # blockers here are green, allied to both sides, so that no one is in contact.
    neutral = [["blue", "green"], ["red", "green"]]
    blocked = _scene(
        "hex",
        _fig("t", "blue", _hex(0, 0), type="TD"),
        _fig("x", "green", _hex(2, 0)),
        _fig("cible", "red", _hex(3, 0)),
        allies=neutral,
    )
    answer = ask(blocked, "fire", ["t", "cible"]).to_json()
    assert (answer["reasons"], answer["blocked_by"]) == (["line_blocked"], ["x"])
    # (0,0) -> (1,1) runs along the side between (1,0) and (0,1): clear if either is empty.
    one_side = _scene(
        "hex",
        _fig("t", "blue", _hex(0, 0), type="TD"),
        _fig("x", "green", _hex(1, 0)),
        _fig("cible", "red", _hex(1, 1)),
        allies=neutral,
    )
    clear = ask(one_side, "fire", ["t", "cible"]).to_json()
    assert clear["allowed"] is True and clear["line_cells"] == [[0, 0], [0, 1], [1, 1]]
    both = _scene(
        "hex",
        _fig("t", "blue", _hex(0, 0), type="TD"),
        _fig("x", "green", _hex(1, 0)),
        _fig("y", "green", _hex(0, 1)),
        _fig("cible", "red", _hex(1, 1)),
        allies=neutral,
    )
    answer = ask(both, "fire", ["t", "cible"]).to_json()
    assert answer["reasons"] == ["line_blocked"] and sorted(answer["blocked_by"]) == ["x", "y"]


@pytest.mark.parametrize(
    ("target", "crossed"), [((3, 1), [(1, 1), (2, 0)]), ((4, -1), [(2, -1), (2, 0)])]
)
def test_a_hex_shot_crossing_a_side_between_two_hexes_goes_through_both(
    target: tuple[int, int], crossed: list[tuple[int, int]]
) -> None:
    # "Le décompte des H de la trajectoire du tir ne peut pas passer par une case
    # occupée". From hex 0,0 (centre (300, 300)) to hex 3,1 (centre (475, 343.30)) the
    # segment crosses the side between hexes 1,1 and 2,0 at its middle (387.5, 321.65):
    # 18 mm of it lie in each, so a group on either blocks a sniper's 4 H shot. The
    # same from 0,0 to 4,-1 with hexes 2,-1 and 2,0.
    neutral = [["blue", "green"], ["red", "green"]]
    for cell in crossed:
        scene = _scene(
            "hex",
            _fig("t", "blue", _hex(0, 0), type="TD", attrs={"sniper": True}),
            _fig("x", "green", _hex(*cell)),
            _fig("cible", "red", _hex(*target)),
            allies=neutral,
        )
        answer = ask(scene, "fire", ["t", "cible"]).to_json()
        assert (answer["reasons"], answer["blocked_by"]) == (["line_blocked"], ["x"]), cell


def test_hex_fire_needs_two_or_three_hexes_and_no_contact() -> None:
    scene = _scene(
        "hex",
        _fig("t", "blue", _hex(0, 0), type="TD"),
        _fig("s", "blue", _hex(-4, 2), type="TD", attrs={"sniper": True}),
        _fig("near", "red", _hex(1, 0)),
        _fig("far", "red", _hex(-4, -2), type="CR"),
    )
    # t touches near: it may neither shoot nor be shot at.
    assert ask(scene, "fire", ["t", "near"]).to_json()["reasons"] == [
        "in_contact_with_enemy",
        "target_in_contact",
    ]
    # s (-4,2) -> far (-4,-2): 4 hexes, the sniper band.
    sniper = ask(scene, "fire", ["s", "far"]).to_json()
    assert (sniper["allowed"], sniper["band"], sniper["distance_units"]) == (True, "sniper", 4)
    # t (0,0) -> far (-4,-2): dq -4, dr -2, ds 6 -> 6 hexes: out of range.
    assert ask(scene, "fire", ["t", "far"]).to_json()["reasons"] == [
        "in_contact_with_enemy",
        "out_of_range",
    ]


def test_hex_reach_is_two_rings() -> None:
    # PA 2 on open hexes: 6 + 12 = 18 cells, each sqrt(3)/2 x 50^2 = 2165.06 mm^2.
    scene = _scene("hex", _fig("z", "blue", _hex(0, 0)))
    answer = ask(scene, "reach", ["z"]).to_json()
    assert len(answer["cells"]) == 18
    assert answer["cell_steps"].count(1) == 6 and answer["cell_steps"].count(2) == 12
    assert answer["area_mm2"] == pytest.approx(18 * math.sqrt(3) / 2 * 2500)
    assert len(answer["polygons_mm"]) == 18 and len(answer["polygons_mm"][0]) == 6


@pytest.mark.parametrize(("terrain_cost", "wood_steps"), [("none", 1), ("double", 2)])
def test_hex_terrain_blocks_and_costs_under_the_house_rule(
    terrain_cost: str, wood_steps: int
) -> None:
    # A rock on hex (1,0) (a square around its centre (350, 300)); a wood on (0,1): one step
    # into it as the book says (no terrain cost), two under the house rule.
    rock = {"id": "rock", "kind": "impassable", "polygon_mm": _around(_hex(1, 0))}
    wood = {"id": "wood", "kind": "wood", "polygon_mm": _around(_hex(0, 1))}
    scene = _scene(
        "hex",
        _fig("z", "blue", _hex(0, 0)),
        terrain=[rock, wood],
        terrain_cost=terrain_cost,
    )
    assert ask(scene, "move", ["z", *map(str, _hex(1, 0))]).to_json()["reasons"] == ["impassable"]
    into_wood = ask(scene, "move", ["z", *map(str, _hex(0, 1))]).to_json()
    assert (into_wood["legal"], into_wood["cost_units"]) == (True, wood_steps)
    house_rule = [w for w in into_wood["warnings"] if "house rule" in w]
    assert len(house_rule) == (terrain_cost == "double")
    reach = ask(scene, "reach", ["z"]).to_json()
    assert [1, 0] not in reach["cells"]
    assert reach["cell_steps"][reach["cells"].index([0, 1])] == wood_steps


def _around(centre: tuple[float, float]) -> list[list[float]]:
    x, y = centre
    return [[x - 10, y - 10], [x + 10, y - 10], [x + 10, y + 10], [x - 10, y + 10]]


# --- groups, grid extent, options -----------------------------------------------------------


def test_figures_in_one_cell_form_one_group() -> None:
    x, y = _square(2, 2)
    scene = _scene(
        "square",
        _fig("a1", "blue", (x - 10, y - 10), type="TD"),
        _fig("a2", "blue", (x + 10, y + 10), type="TD", reference=True),
        _fig("b1", "red", _square(4, 2)),
    )
    answer = ask(scene, "groups", []).to_json()
    assert answer["groups"] == {"a2": ["a1", "a2"], "b1": ["b1"]}
    assert answer["cells"] == {"a2": [2, 2], "b1": [4, 2]}
    # Two TD of the group shoot together: PI 4.
    assert ask(scene, "fire", ["a1", "b1"]).to_json()["pi"] == 4


def test_a_figure_alone_splits_off_and_leaves_the_others() -> None:
    x, y = _square(2, 2)
    scene = _scene(
        "square",
        _fig("chef", "blue", (x - 10, y), group="A", reference=True),
        _fig("soldat", "blue", (x + 10, y), group="A"),
    )
    alone = ask(scene, "move", ["soldat", *map(str, _square(3, 2))]).to_json()
    assert alone["legal"] is True
    back = ask(scene, "move", ["soldat", *map(str, _square(2, 2))]).to_json()
    assert back["reasons"] == ["destination_occupied"]


@pytest.mark.parametrize(
    ("figures", "field", "problem"),
    [
        (
            [
                _fig("a", "blue", (60, 60), group="A"),
                _fig("b", "blue", (70, 70), group="B"),
            ],
            "figures[1].group",
            "one group per cell",
        ),
        (
            [_fig("a", "blue", (60, 60), group="A"), _fig("b", "blue", (160, 60), group="A")],
            "figures[1].group",
            "a group occupies one cell",
        ),
        (
            [_fig("a", "blue", (60, 60)), _fig("b", "red", (70, 70))],
            "figures[1].side",
            "one side per cell",
        ),
    ],
)
def test_groups_must_agree_with_the_cells(
    figures: list[dict[str, Any]], field: str, problem: str
) -> None:
    with pytest.raises(SceneError) as caught:
        _scene("square", *figures)
    assert f": {field}: " in str(caught.value) and problem in str(caught.value)


def test_the_cell_size_is_required() -> None:
    with pytest.raises(SceneError, match=r"options.hex_mm: required"):
        parse_scene(
            {
                "ruleset": "cb6",
                "options": {"surface": "hex"},
                "table": {"width_mm": 600, "depth_mm": 400},
                "figures": [_fig("a", "blue", (60, 60))],
            }
        )


def test_a_figure_outside_the_grid() -> None:
    # Table 610 mm wide, squares of 50 from the corner: column 12 is centred on x = 625,
    # off the table, so a figure at x = 608 stands outside the grid.
    scene = _scene(
        "square",
        _fig("edge", "blue", (608, 25), type="TD"),
        _fig("t", "red", (525, 25)),
        _fig("m", "blue", _square(2, 5)),
        table=(610, 400),
    )
    assert ask(scene, "fire", ["edge", "t"]).to_json()["reasons"] == ["not_in_grid"]
    assert ask(scene, "move", ["m", "608", "275"]).to_json()["reasons"] == ["not_in_grid"]
    assert any("outside the grid" in w for w in ask(scene, "groups", []).to_json()["warnings"])


def test_a_turned_grid() -> None:
    # A square grid turned 90 degrees about (300, 300): the grid's x axis runs along the
    # table's +y, so a figure 50 mm above the origin is in column 1, row 0.
    scene = _scene(
        "square",
        _fig("o", "blue", (300, 300)),
        _fig("up", "red", (300, 350)),
        grid_origin_mm=[300, 300],
        grid_rotation_deg=90,
    )
    assert ask(scene, "groups", []).to_json()["cells"] == {"o": [0, 0], "up": [1, 0]}


def test_uncertain_cells_are_not_certain() -> None:
    # A figure 1 mm inside square (1,0) (its side is x = 50) with sigma 1 mm: its cell is
    # too close to call.
    scene = _scene(
        "square",
        _fig("a", "blue", (51, 25), sigma_mm=1.0),
        _fig("b", "red", _square(3, 0)),
    )
    answer = ask(scene, "contact", ["a", "b"]).to_json()
    assert answer["certain"] is False and answer["margin_mm"] == pytest.approx(1.0)


def test_unknown_names_are_question_errors() -> None:
    scene = _scene("square", _fig("a", "blue", _square(1, 1)))
    with pytest.raises(QuestionError, match="unknown figure or group 'zz'"):
        ask(scene, "distance", ["a", "zz"])


def test_impact_on_a_grid_uses_the_grid_fire_rules() -> None:
    # 1 TD + 1 wounded TD: PI 3, die 2 -> impact 1 (the book's example), target 2 squares off.
    scene = _scene(
        "square",
        _fig("t1", "blue", (60, 60), group="A", type="TD", reference=True),
        _fig("t2", "blue", (65, 65), group="A", type="TD", wounded=True),
        _fig("cible", "red", _square(3, 1)),
    )
    answer = ask(scene, "impact", ["A", "cible"], {"action": "fire", "die": 2}).to_json()
    assert (answer["pi"], answer["impact"], answer["warnings"]) == (3, 1, [])


@pytest.mark.parametrize(
    ("surface", "size", "table", "made"),
    [
        # 600 x 400 mm in 1 mm squares: 240,000 cells, and a cell under 10 mm anyway.
        ("square", 1.0, (600, 400), "240,000"),
        # 5 mm hexes are under 10 mm, though 600 x 400 / 25 = 9,600 cells would do.
        ("hex", 5.0, (600, 400), "9,600"),
        # 10 mm squares on a 3 x 2 m table: 3000 x 2000 / 100 = 60,000 cells, over 40,000.
        ("square", 10.0, (3000, 2000), "60,000"),
    ],
)
def test_grids_of_absurdly_many_or_tiny_cells_are_refused(
    surface: str, size: float, table: tuple[float, float], made: str
) -> None:
    # Paths and reach search over the cells: a grid of a million 0.1 mm cells would never
    # finish, so a scene must keep to cells of 10 mm or more, 40,000 at most.
    with pytest.raises(SceneError, match=rf"options.{surface}_mm: cells must be .* make {made}"):
        _scene(surface, _fig("a", "blue", (60, 60)), table=table, **{f"{surface}_mm": size})


@pytest.mark.parametrize("pointy", [True, False])
def test_the_grid_s_cells_are_those_whose_centre_is_on_the_table(pointy: bool) -> None:
    # Every cell found at once (with its centre) is one `in_grid` counts, and every cell
    # `in_grid` counts within a wide window is found: a hex grid turned 33 deg, its
    # origin off the table's corner.
    grid = Grid("hex", 40.0, (-17.0, 230.0), 33.0, pointy, width_mm=600.0, depth_mm=400.0)
    cells, centres = grid.cells_and_centres()
    found = {(int(a), int(b)) for a, b in cells}
    window = {(a, b) for a in range(-40, 41) for b in range(-40, 41) if grid.in_grid((a, b))}
    assert found == window and len(found) > 100
    for (a, b), (x, y) in zip(cells.tolist(), centres.tolist(), strict=True):
        assert (x, y) == pytest.approx(grid.centre((a, b)))
