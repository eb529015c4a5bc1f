"""rules/choc_base_6/grid_questions.py: Choc Base 6's answers on hex and square grids,
ANNEXE 2's examples and hand-worked cells."""

from __future__ import annotations

import math

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from tests.rules.choc_base_6.scenes import fig, grid_scene, hex_centre, square_centre

# --- ANNEXE 2, squares -------------------------------------------------------------------


def test_the_archer_hits_at_three_squares_not_four() -> None:
    # "L'archer peut toucher les cibles à 3 cases au plus (comptage en horizontal et/ou
    # vertical)" -- 2 across and 1 up is 3 squares; 2 across and 2 up is 4.
    scene = grid_scene(
        "square",
        fig("archer", "blue", square_centre(1, 1), type="TD"),
        fig("near", "red", square_centre(3, 2), type="CR"),
        fig("far", "red", square_centre(3, 3), type="CR"),
        table=(600, 600),
    )
    near = ask(scene, "fire", ["archer", "near"]).to_json()
    assert near["allowed"] is True
    assert (near["distance_units"], near["unit"], near["distance_mm"]) == (3, "C", 150)
    far = ask(scene, "fire", ["archer", "far"]).to_json()
    assert (far["allowed"], far["reasons"], far["distance_units"]) == (False, ["out_of_range"], 4)


def test_squares_touching_by_a_corner_are_not_in_contact() -> None:
    # "Les 2 groupes ne sont pas en contact (cases voisines par un coin)"
    scene = grid_scene(
        "square",
        fig("a", "blue", square_centre(2, 2)),
        fig("side", "red", square_centre(3, 2)),
        fig("corner", "red", square_centre(3, 3)),
    )
    assert ask(scene, "contact", ["a", "side"]).to_json()["contact"] is True
    corner = ask(scene, "contact", ["a", "corner"]).to_json()
    assert (corner["contact"], corner["steps"]) == (False, 2)


def test_diagonal_moves_are_not_allowed() -> None:
    # "Exemples d'avances non autorisées, en diagonale": the diagonal square costs two
    # orthogonal steps, so a wounded figure (PA 1) cannot reach it; PA 2 can, in an L.
    scene = grid_scene(
        "square",
        fig("hurt", "blue", square_centre(1, 1), wounded=True),
        fig("fit", "blue", square_centre(5, 5)),
        table=(600, 600),
    )
    hurt = ask(scene, "move", ["hurt", *map(str, square_centre(2, 2))]).to_json()
    assert (hurt["legal"], hurt["reasons"], hurt["cost_units"]) == (False, ["over_allowance"], 2)
    fit = ask(scene, "move", ["fit", *map(str, square_centre(6, 6))]).to_json()
    assert fit["legal"] is True and fit["cost_units"] == 2
    (c0, r0), (c1, r1), (c2, r2) = fit["path_cells"]
    assert abs(c1 - c0) + abs(r1 - r0) == 1 and abs(c2 - c1) + abs(r2 - r1) == 1


def test_a_shot_does_not_cross_an_occupied_square() -> None:
    # Archer (1,1), target (1,4), a red group on (1,3) between ("ami ou ennemi"): the count
    # must go round it, e.g. (2,1) (2,2) (2,3) (2,4) (1,4) = 5 squares > 3 -> blocked.
    # A sniper (4-5 squares) may shoot along that count: 5 squares, sniper band.
    figures = [
        fig("archer", "blue", square_centre(1, 1), type="TD"),
        fig("garde", "red", square_centre(1, 3), type="CR"),
        fig("cible", "red", square_centre(1, 4), type="CR"),
    ]
    blocked = ask(grid_scene("square", *figures), "fire", ["archer", "cible"]).to_json()
    assert (blocked["allowed"], blocked["reasons"]) == (False, ["line_blocked"])
    assert blocked["blocked_by"] == ["garde"]
    figures[0]["attrs"] = {"sniper": True}
    sniper = ask(grid_scene("square", *figures), "fire", ["archer", "cible"]).to_json()
    assert (sniper["allowed"], sniper["band"], sniper["distance_units"]) == (True, "sniper", 5)
    assert len(sniper["line_cells"]) == 6 and [1, 3] not in sniper["line_cells"]


def test_a_move_goes_round_occupied_squares() -> None:
    # Mover (1,1) PA 2 to (3,1); a red group on (2,1): the free count is 2 but the way
    # round, (1,2) (2,2) (3,2) (3,1), is 4 -> path_blocked by it.
    scene = grid_scene(
        "square",
        fig("m", "blue", square_centre(1, 1)),
        fig("wall", "red", square_centre(2, 1)),
    )
    answer = ask(scene, "move", ["m", *map(str, square_centre(3, 1))]).to_json()
    assert (answer["legal"], answer["reasons"], answer["blocked_by"]) == (
        False,
        ["path_blocked"],
        ["wall"],
    )
    occupied = ask(scene, "move", ["m", *map(str, square_centre(2, 1))]).to_json()
    assert occupied["reasons"] == ["destination_occupied"]


# --- hexes --------------------------------------------------------------------------------


def test_hex_contact_and_distance_answers() -> None:
    scene = grid_scene(
        "hex",
        fig("a", "blue", hex_centre(0, 0)),
        fig("b", "red", hex_centre(1, -1)),
        fig("c", "red", hex_centre(1, 1)),
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
    blocked = grid_scene(
        "hex",
        fig("t", "blue", hex_centre(0, 0), type="TD"),
        fig("x", "green", hex_centre(2, 0)),
        fig("cible", "red", hex_centre(3, 0)),
        allies=neutral,
    )
    answer = ask(blocked, "fire", ["t", "cible"]).to_json()
    assert (answer["reasons"], answer["blocked_by"]) == (["line_blocked"], ["x"])
    # (0,0) -> (1,1) runs along the side between (1,0) and (0,1): clear if either is empty.
    one_side = grid_scene(
        "hex",
        fig("t", "blue", hex_centre(0, 0), type="TD"),
        fig("x", "green", hex_centre(1, 0)),
        fig("cible", "red", hex_centre(1, 1)),
        allies=neutral,
    )
    clear = ask(one_side, "fire", ["t", "cible"]).to_json()
    assert clear["allowed"] is True and clear["line_cells"] == [[0, 0], [0, 1], [1, 1]]
    both = grid_scene(
        "hex",
        fig("t", "blue", hex_centre(0, 0), type="TD"),
        fig("x", "green", hex_centre(1, 0)),
        fig("y", "green", hex_centre(0, 1)),
        fig("cible", "red", hex_centre(1, 1)),
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
        scene = grid_scene(
            "hex",
            fig("t", "blue", hex_centre(0, 0), type="TD", attrs={"sniper": True}),
            fig("x", "green", hex_centre(*cell)),
            fig("cible", "red", hex_centre(*target)),
            allies=neutral,
        )
        answer = ask(scene, "fire", ["t", "cible"]).to_json()
        assert (answer["reasons"], answer["blocked_by"]) == (["line_blocked"], ["x"]), cell


def test_hex_fire_needs_two_or_three_hexes_and_no_contact() -> None:
    scene = grid_scene(
        "hex",
        fig("t", "blue", hex_centre(0, 0), type="TD"),
        fig("s", "blue", hex_centre(-4, 2), type="TD", attrs={"sniper": True}),
        fig("near", "red", hex_centre(1, 0)),
        fig("far", "red", hex_centre(-4, -2), type="CR"),
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
    scene = grid_scene("hex", fig("z", "blue", hex_centre(0, 0)))
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
    rock = {"id": "rock", "kind": "impassable", "polygon_mm": _around(hex_centre(1, 0))}
    wood = {"id": "wood", "kind": "wood", "polygon_mm": _around(hex_centre(0, 1))}
    scene = grid_scene(
        "hex",
        fig("z", "blue", hex_centre(0, 0)),
        terrain=[rock, wood],
        terrain_cost=terrain_cost,
    )
    assert ask(scene, "move", ["z", *map(str, hex_centre(1, 0))]).to_json()["reasons"] == [
        "impassable"
    ]
    into_wood = ask(scene, "move", ["z", *map(str, hex_centre(0, 1))]).to_json()
    assert (into_wood["legal"], into_wood["cost_units"]) == (True, wood_steps)
    house_rule = [w for w in into_wood["warnings"] if "house rule" in w]
    assert len(house_rule) == (terrain_cost == "double")
    reach = ask(scene, "reach", ["z"]).to_json()
    assert [1, 0] not in reach["cells"]
    assert reach["cell_steps"][reach["cells"].index([0, 1])] == wood_steps


def _around(centre: tuple[float, float]) -> list[list[float]]:
    x, y = centre
    return [[x - 10, y - 10], [x + 10, y - 10], [x + 10, y + 10], [x - 10, y + 10]]


# --- groups, grid extent, uncertainty ----------------------------------------------------


def test_figures_in_one_cell_form_one_group() -> None:
    x, y = square_centre(2, 2)
    scene = grid_scene(
        "square",
        fig("a1", "blue", (x - 10, y - 10), type="TD"),
        fig("a2", "blue", (x + 10, y + 10), type="TD", reference=True),
        fig("b1", "red", square_centre(4, 2)),
    )
    answer = ask(scene, "groups", []).to_json()
    assert answer["groups"] == {"a2": ["a1", "a2"], "b1": ["b1"]}
    assert answer["cells"] == {"a2": [2, 2], "b1": [4, 2]}
    # Two TD of the group shoot together: PI 4.
    assert ask(scene, "fire", ["a1", "b1"]).to_json()["pi"] == 4


def test_a_figure_alone_splits_off_and_leaves_the_others() -> None:
    x, y = square_centre(2, 2)
    scene = grid_scene(
        "square",
        fig("chef", "blue", (x - 10, y), group="A", reference=True),
        fig("soldat", "blue", (x + 10, y), group="A"),
    )
    alone = ask(scene, "move", ["soldat", *map(str, square_centre(3, 2))]).to_json()
    assert alone["legal"] is True
    back = ask(scene, "move", ["soldat", *map(str, square_centre(2, 2))]).to_json()
    assert back["reasons"] == ["destination_occupied"]


def test_a_figure_outside_the_grid() -> None:
    # Table 610 mm wide, squares of 50 from the corner: column 12 is centred on x = 625,
    # off the table, so a figure at x = 608 stands outside the grid.
    scene = grid_scene(
        "square",
        fig("edge", "blue", (608, 25), type="TD"),
        fig("t", "red", (525, 25)),
        fig("m", "blue", square_centre(2, 5)),
        table=(610, 400),
    )
    assert ask(scene, "fire", ["edge", "t"]).to_json()["reasons"] == ["not_in_grid"]
    assert ask(scene, "move", ["m", "608", "275"]).to_json()["reasons"] == ["not_in_grid"]
    assert any("outside the grid" in w for w in ask(scene, "groups", []).to_json()["warnings"])


def test_uncertain_cells_are_not_certain() -> None:
    # A figure 1 mm inside square (1,0) (its side is x = 50) with sigma 1 mm: its cell is
    # too close to call.
    scene = grid_scene(
        "square",
        fig("a", "blue", (51, 25), sigma_mm=1.0),
        fig("b", "red", square_centre(3, 0)),
    )
    answer = ask(scene, "contact", ["a", "b"]).to_json()
    assert answer["certain"] is False and answer["margin_mm"] == pytest.approx(1.0)


def test_unknown_names_are_question_errors() -> None:
    scene = grid_scene("square", fig("a", "blue", square_centre(1, 1)))
    with pytest.raises(QuestionError, match="unknown figure or group 'zz'"):
        ask(scene, "distance", ["a", "zz"])


def test_impact_on_a_grid_uses_the_grid_fire_rules() -> None:
    # 1 TD + 1 wounded TD: PI 3, die 2 -> impact 1 (the book's example), target 2 squares off.
    scene = grid_scene(
        "square",
        fig("t1", "blue", (60, 60), group="A", type="TD", reference=True),
        fig("t2", "blue", (65, 65), group="A", type="TD", wounded=True),
        fig("cible", "red", square_centre(3, 1)),
    )
    answer = ask(scene, "impact", ["A", "cible"], {"action": "fire", "die": 2}).to_json()
    assert (answer["pi"], answer["impact"], answer["warnings"]) == (3, 1, [])
