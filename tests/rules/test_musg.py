"""M.U.S.G.: the rule book's worked examples and table, with the book's numbers."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import QuestionError, SceneError
from arbitre.rules.musg import DAMAGE_TABLE, damage_needed, damages, dice_passing, initiative_order
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene

# "Tableau des dommages", copied line by line from the rule book (R rows, F columns).
BOOK_TABLE = """\
R \\ F 1 2 3 4 5 6 7 8 9 10 11 12
1 4+ 4+ 3+ 3+ 2+ 2+ 2+ 2+ 2+ 2+ 2+ 2+
2 4+ 4+ 4+ 3+ 3+ 2+ 2+ 2+ 2+ 2+ 2+ 2+
3 5+ 4+ 4+ 4+ 3+ 3+ 2+ 2+ 2+ 2+ 2+ 2+
4 5+ 5+ 4+ 4+ 4+ 3+ 3+ 2+ 2+ 2+ 2+ 2+
5 6+ 5+ 5+ 4+ 4+ 4+ 3+ 3+ 2+ 2+ 2+ 2+
6 6+ 6+ 5+ 5+ 4+ 4+ 4+ 3+ 3+ 2+ 2+ 2+
7 6+ 6+ 6+ 5+ 5+ 4+ 4+ 4+ 3+ 3+ 2+ 2+
8 6+ 6+ 6+ 6+ 5+ 5+ 4+ 4+ 4+ 3+ 3+ 2+
9 6+ 6+ 6+ 6+ 6+ 5+ 5+ 4+ 4+ 4+ 3+ 3+
10 6+ 6+ 6+ 6+ 6+ 6+ 5+ 5+ 4+ 4+ 4+ 3+
11 6+ 6+ 6+ 6+ 6+ 6+ 6+ 5+ 5+ 4+ 4+ 4+
12 6+ 6+ 6+ 6+ 6+ 6+ 6+ 6+ 5+ 5+ 4+ 4+
"""


def _book_cells() -> list[tuple[int, int, int]]:
    lines = BOOK_TABLE.splitlines()
    strengths = [int(x) for x in lines[0].split()[3:]]
    cells = []
    for line in lines[1:]:
        resistance, *needed = line.split()
        for strength, text in zip(strengths, needed, strict=True):
            cells.append((strength, int(resistance), int(text.rstrip("+"))))
    return cells


BOOK_CELLS = _book_cells()


def test_the_book_table_has_every_cell() -> None:
    assert len(BOOK_CELLS) == 144
    assert len(DAMAGE_TABLE) == 12 and all(len(row) == 12 for row in DAMAGE_TABLE)


@pytest.mark.parametrize(("strength", "resistance", "needed"), BOOK_CELLS)
def test_damage_table_cell(strength: int, resistance: int, needed: int) -> None:
    assert damage_needed(strength, resistance) == needed
    # "Chaque 6 ... est un dommage automatique, et chaque 1 ... est un échec automatique."
    assert [damages(strength, resistance, die) for die in range(1, 7)] == [
        die == 6 or (die > 1 and die >= needed) for die in range(1, 7)
    ]


@pytest.mark.parametrize(("strength", "resistance"), [(0, 3), (13, 3), (3, 0), (3, 13)])
def test_damage_outside_the_table_is_bad_input(strength: int, resistance: int) -> None:
    with pytest.raises(QuestionError, match="from 1 to 12"):
        damage_needed(strength, resistance)


def _scene(figures: list[dict[str, Any]], terrain: list[dict[str, Any]] | None = None) -> Any:
    return parse_scene(
        {
            "ruleset": "musg",
            "options": {"pace_mm": 25},
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": figures,
            "terrain": terrain or [],
        }
    )


def _band(side: str, x: float, ranks: list[str]) -> list[dict[str, Any]]:
    return [
        {"id": f"{side}{k}", "side": side, "x_mm": x, "y_mm": 60 + 40 * k, "attrs": {"rank": r}}
        for k, r in enumerate(ranks)
    ]


def test_initiative_example_marc_and_julien() -> None:
    # "Marc possède une bande composé de 7 humains dont 4 sous-fifres, alors que Julien ...
    # 11 personnages dont 8 sous-fifres. ... Marc fait un 6 et Julien un 4. Le total pour
    # Marc est de 6 + 4 donc 10, alors que pour Julien il est de 4 + 8 donc 12. C'est
    # Julien qui commence le tour."
    marc = _band("Marc", 100, ["chief", "subchief", "extra"] + ["henchman"] * 4)
    julien = _band("Julien", 900, ["chief", "subchief", "extra"] + ["henchman"] * 8)
    scene = _scene(marc + julien)
    answer = ask(scene, "initiative", [], {"dice": {"Marc": 6, "Julien": 4}}).to_json()
    assert answer["henchmen"] == {"Marc": 4, "Julien": 8}
    assert answer["scores"] == {"Marc": 10, "Julien": 12}
    assert answer["order"] == ["Julien", "Marc"]
    assert answer["reroll"] == []
    # "Si Julien avait fait 2 (+ 8 donc 10), c'est Marc qui aurait commencé car il ne
    # possède que 4 sous-fifres au contraire de Julien qui en a 8."
    answer = ask(scene, "initiative", [], {"dice": {"Marc": 6, "Julien": 2}}).to_json()
    assert answer["scores"] == {"Marc": 10, "Julien": 10}
    assert answer["order"] == ["Marc", "Julien"]
    # "S'il y a encore une égalité, on relance le dé."
    assert initiative_order({"a": (3, 2), "b": (3, 2), "c": (1, 0)}) == (
        ["a", "b", "c"],
        [["a", "b"]],
    )


def test_initiative_needs_a_die_for_every_side() -> None:
    scene = _scene(_band("Marc", 100, ["henchman"]) + _band("Julien", 900, ["henchman"]))
    with pytest.raises(QuestionError, match="Julien"):
        ask(scene, "initiative", [], {"dice": {"Marc": 6}})
    with pytest.raises(QuestionError, match="1 to 6"):
        ask(scene, "initiative", [], {"dice": {"Marc": 7, "Julien": 1}})


def test_cover_roll_example_chief_orc_and_human_subchief() -> None:
    # "Julien tir avec son chef orque sur un sous-chef humain de Marc qui se trouve derrière
    # une barrière. ... Le sous-chef et la barrière se trouvent à portée moyenne. Le chef
    # orque tire avec un pistolet mitrailleur, sa CT est de 4+."
    # The machine pistol's bands here: short <= 4, medium <= 8, long <= 12 pas (25 mm).
    # Chief orc at (100, 450); subchief at (320, 450), edge to edge 220 - 25 = 195 mm
    # = 7.8 pas: medium. The fence runs across the line at x = 300 (y 400..500): its
    # shadow covers the whole subchief (>50 %: cover); from the orc's base edge it is
    # 300 - 112.5 = 187.5 mm = 7.5 pas: medium, a cover roll of 4+.
    scene = _scene(
        [
            {
                "id": "orc",
                "side": "Julien",
                "x_mm": 100,
                "y_mm": 450,
                "attrs": {
                    "rank": "chief",
                    "move_pas": 4,
                    "weapon": {
                        "kind": "machine-pistol",
                        "short_pas": 4,
                        "medium_pas": 8,
                        "long_pas": 12,
                    },
                },
            },
            {
                "id": "human",
                "side": "Marc",
                "x_mm": 320,
                "y_mm": 450,
                "attrs": {"rank": "subchief", "move_pas": 4},
            },
        ],
        [{"id": "barriere", "kind": "obstacle", "line_mm": [[300, 400], [300, 500]]}],
    )
    answer = ask(scene, "fire", ["orc", "human"]).to_json()
    assert answer["allowed"] is True
    assert answer["band"] == "medium"
    assert answer["distance_units"] == pytest.approx(7.8)
    assert answer["hidden_fraction"] == pytest.approx(1.0)
    assert answer["cover"] == ["barriere"]
    # The cover verdict's margin is half the target hidden (all of it is: half its width
    # from the threshold), named as M.U.S.G.'s own, not S&R's 3 cm round the shooter.
    whats = [m["what"] for m in answer["margins"]]
    assert "half-hidden" in whats and "cover" not in whats
    assert answer["cover_rolls"] == [
        {
            "obstacle": "barriere",
            "distance_mm": 187.5,
            "distance_units": 7.5,
            "unit": "pas",
            "band": "medium",
            "needed": 4,
        }
    ]
    # "Il fait 3, 4 et 5. Comme la barrière se trouve à portée moyenne, seuls deux tirs
    # n'heurtent pas cette barrière. Il relance ensuite les dés restant (2) et fait un 3
    # et un 4. Il n'y a qu'un seul tir qui atteint la cible."
    past_fence = dice_passing([3, 4, 5], answer["cover_rolls"][0]["needed"])
    assert past_fence == 2
    assert dice_passing([3, 4], 4) == 1  # CT 4+
    # "la force de l'arme (3) à la résistance de la cible (3) ... 4 ou plus (4+) ...
    # Julien fait 5 donc le sous-chef perd un point de vie."
    damage = ask(scene, "damage", ["3", "3"], {"die": 5}).to_json()
    assert damage["needed"] == 4 and damage["damage"] is True


def test_hidden_fraction_of_a_half_wall() -> None:
    # Shooter at (100, 400), target at (400, 400), both 25 mm bases. The target spans
    # +-asin(12.5/300) = +-2.3880 deg at the eye. A wall x 300..310, y 395..450 hides it
    # from its own lower corner (300, 395), at -atan(5/200) = -1.4321 deg, upwards:
    # hidden (2.3880 + 1.4321) / (2 x 2.3880) = 0.79985 > 0.5 -> cover.
    scene = _scene(
        [
            {
                "id": "s",
                "side": "a",
                "x_mm": 100,
                "y_mm": 400,
                "attrs": {"weapon": {"range_pas": 24}},
            },
            {"id": "t", "side": "b", "x_mm": 400, "y_mm": 400},
        ],
        [
            {
                "id": "wall",
                "kind": "obstacle",
                "polygon_mm": [[300, 395], [310, 395], [310, 450], [300, 450]],
            }
        ],
    )
    answer = ask(scene, "fire", ["s", "t"]).to_json()
    # (to_json rounds to 1e-3)
    assert answer["hidden_fraction"] == pytest.approx(0.79985, abs=1e-3)
    assert answer["hidden_by"] == {"wall": pytest.approx(0.79985, abs=1e-3)}
    assert answer["margin_mm"] == pytest.approx((0.79985 - 0.5) * 25.0217, abs=1e-2)
    assert answer["cover"] == ["wall"]


@pytest.mark.parametrize(
    ("attrs", "field", "problem"),
    [
        # 1 pas = 25 mm here: 100 m is 4,000 pas; 1e300 overflowed the path finder.
        ({"move_pas": 1e300}, "move_pas", "expected 1 to 4000 pas (at most 100 m), got 1e+300"),
        ({"move_pas": 4001}, "move_pas", "got 4001"),
        # under 1 pas is no move.
        ({"move_pas": 1e-300}, "move_pas", "got 1e-300"),
        ({"move_pas": 0.9}, "move_pas", "got 0.9"),
        ({"move_pas": float("inf")}, "move_pas", "got inf"),
        # a weapon's range: at least 1 mm (0.04 pas), at most 100 m.
        ({"weapon": {"kind": "bow", "range_pas": 1e300}}, "weapon.range_pas", "got 1e+300"),
        (
            {"weapon": {"kind": "gun", "short_pas": 0.01, "medium_pas": 1, "long_pas": 2}},
            "weapon.short_pas",
            "expected 0.04 to 4000 pas (at most 100 m), got 0.01",
        ),
        ({"resistance": 10**300}, "resistance", "a whole number 1 to 12, got an integer of"),
        ({"resistance": 0}, "resistance", "got 0"),
        ({"resistance": 3, "armour": 13}, "armour", "a whole number 0 to 12, got 13"),
        ({"resistance": 3, "armour": 1.5}, "armour", "got 1.5"),
    ],
)
def test_attributes_out_of_bounds_are_scene_errors(
    attrs: dict[str, Any], field: str, problem: str
) -> None:
    with pytest.raises(SceneError) as error:
        _scene([{"id": "x", "side": "a", "x_mm": 1, "y_mm": 1, "attrs": attrs}])
    assert error.value.field == f"figures[0].attrs.{field}"
    assert error.value.problem.startswith("figure 'x': ")
    assert problem in error.value.problem


def test_the_longest_move_still_answers() -> None:
    # move_pas 4000 x 25 mm = 100 m: a walk across the 1.2 m table is well within it.
    scene = _scene(
        [{"id": "x", "side": "a", "x_mm": 100, "y_mm": 100, "attrs": {"move_pas": 4000}}]
    )
    answer = ask(scene, "move", ["x", "1100", "800"]).to_json()
    assert answer["legal"] is True and answer["allowance_mm"] == 100_000


def test_rank_and_weapon_are_checked_when_the_scene_loads() -> None:
    with pytest.raises(SceneError, match=r"figures\[0\]\.attrs\.rank"):
        _scene([{"id": "x", "side": "a", "x_mm": 1, "y_mm": 1, "attrs": {"rank": "boss"}}])
    with pytest.raises(SceneError, match=r"figures\[0\]\.attrs\.weapon\.long_pas"):
        _scene(
            [
                {
                    "id": "x",
                    "side": "a",
                    "x_mm": 1,
                    "y_mm": 1,
                    "attrs": {"weapon": {"short_pas": 1, "medium_pas": 2}},
                }
            ]
        )


def test_a_move_needs_move_pas() -> None:
    scene = _scene([{"id": "x", "side": "a", "x_mm": 100, "y_mm": 100}])
    with pytest.raises(QuestionError, match="attrs.move_pas"):
        ask(scene, "move", ["x", "120", "100"])


def test_a_cut_way_never_costs_more_than_its_budget() -> None:
    import numpy as np
    import shapely
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from arbitre.rules import pathing
    from arbitre.rules.musg.moves import cut_path
    from arbitre.rules.terrain import straight_cost_mm

    bog = pathing.CostlyRegion(shapely.box(40, 0, 80, 100), 2.0, "bog")
    field = pathing.Field(200, 200, costly=(bog,))
    coordinate = st.floats(0, 200, allow_nan=False)

    @settings(max_examples=60, deadline=None)
    @given(
        st.lists(st.tuples(coordinate, coordinate), min_size=2, max_size=5),
        st.floats(0, 300, allow_nan=False),
    )
    def check(points: list[tuple[float, float]], budget: float) -> None:
        way = np.asarray(points, dtype=np.float64)
        cut = cut_path(field, way, budget)
        spent = sum(straight_cost_mm(field, p, q) for p, q in zip(cut[:-1], cut[1:], strict=True))
        whole = sum(straight_cost_mm(field, p, q) for p, q in zip(way[:-1], way[1:], strict=True))
        assert spent <= budget + 1e-6
        assert spent >= min(budget, whole) - 1e-6  # it stops only when the budget is spent

    check()


def test_bad_options_of_the_new_questions_are_question_errors() -> None:
    scene = _scene(
        [
            {"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "attrs": {"move_pas": 4}},
            {"id": "b", "side": "y", "x_mm": 300, "y_mm": 100, "attrs": {"move_pas": 4}},
        ]
    )
    with pytest.raises(QuestionError, match="pa_left"):
        ask(scene, "charge", ["a", "200", "100"], {"pa_left": "two"})
    with pytest.raises(QuestionError, match="1d3"):
        ask(scene, "under_fire", ["a", "b"], {"die": 4})
    with pytest.raises(QuestionError, match="same figure"):
        ask(scene, "under_charge", ["a", "a"])
    with pytest.raises(QuestionError, match="strength"):
        ask(scene, "explosion", ["a"], {"strength": 13})
    with pytest.raises(QuestionError, match="artillery"):
        ask(scene, "explosion", ["a"], {"artillery": "big"})


@pytest.mark.parametrize("extras", [{}, {"die": 1}, {"die": 1, "artillery": True, "strength": 8}])
def test_an_explosion_needs_a_weapon(extras: dict[str, Any]) -> None:
    # a carries nothing: whatever the die or the profile given, nothing can explode.
    scene = _scene([{"id": "a", "side": "x", "x_mm": 100, "y_mm": 100}])
    with pytest.raises(QuestionError, match=r"^'a' carries no weapon \(attrs.weapon\)"):
        ask(scene, "explosion", ["a"], extras)


@pytest.mark.parametrize("kind", ["bow", "crossbow"])
def test_a_bow_does_not_explode(kind: str) -> None:
    # "Dans le cas de l'utilisation d'armes à feu à poudre noire [...] Sur un 1, l'arme
    # explose"; "Dans le cas d'armes de jet ou de tir sans poudre (arc, arbalète), on
    # trace une ligne du tireur à la cible": a bow's accident is a stray missile.
    weapon = {"kind": kind, "range_pas": 24, "strength": 3}
    scene = _scene(
        [{"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "attrs": {"weapon": weapon}}]
    )
    for extras in ({}, {"die": 1}, {"die": 1, "artillery": True}):
        with pytest.raises(QuestionError, match=rf"^the {kind} of 'a' does not explode.*ask stray"):
            ask(scene, "explosion", ["a"], extras)


@pytest.mark.parametrize(
    ("attrs", "says"),
    [
        ({}, r"^'a' carries no weapon"),
        (
            {"weapon": {"kind": "musket", "range_pas": 18, "black_powder": True}},
            r"^the musket of 'a' is no bow or crossbow .*ask explosion a",
        ),
        ({"weapon": {"kind": "rifle", "range_pas": 24}}, r"only archaic weapons"),
    ],
)
def test_only_a_bow_or_a_crossbow_sends_a_stray_missile(attrs: dict[str, Any], says: str) -> None:
    scene = _scene(
        [
            {"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "attrs": attrs},
            {"id": "b", "side": "y", "x_mm": 400, "y_mm": 100},
        ]
    )
    with pytest.raises(QuestionError, match=says):
        ask(scene, "stray", ["a", "b"])


def test_a_stray_missile_takes_a_die_per_figure_on_the_line_at_most() -> None:
    bow = {"weapon": {"kind": "bow", "range_pas": 24}}
    scene = _scene(
        [
            {"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "attrs": bow},
            {"id": "m", "side": "y", "x_mm": 250, "y_mm": 100},
            {"id": "b", "side": "y", "x_mm": 400, "y_mm": 100},
        ]
    )
    with pytest.raises(
        QuestionError, match=r"^dice: at most one die for each figure .*\(m\), got 2$"
    ):
        ask(scene, "stray", ["a", "b"], {"dice": [1, 6]})
    with pytest.raises(QuestionError, match="same figure"):
        ask(scene, "stray", ["a", "a"])
    # Nobody on the line from a to m: the missile takes no one, whatever is rolled.
    answer = ask(scene, "stray", ["a", "m"]).to_json()
    assert (answer["interposed"], answer["hit"], answer["lost"]) == ([], None, True)


def test_weapon_strength_and_powder_are_checked_when_the_scene_loads() -> None:
    bad = {"kind": "musket", "range_pas": 18, "strength": 0}
    with pytest.raises(SceneError, match="strength"):
        _scene([{"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "attrs": {"weapon": bad}}])
    bad = {"kind": "musket", "range_pas": 18, "black_powder": "yes"}
    with pytest.raises(SceneError, match="black_powder"):
        _scene([{"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "attrs": {"weapon": bad}}])


def test_under_fire_without_a_die_answers_each_face() -> None:
    # No cover near: each face sends the figure back, away from the shooter, that many pas.
    scene = _scene(
        [
            {"id": "t", "side": "x", "x_mm": 500, "y_mm": 500},
            {"id": "s", "side": "y", "x_mm": 500, "y_mm": 300},
        ]
    )
    moves = ask(scene, "under_fire", ["t", "s"]).to_json()["moves"]
    assert [m["die"] for m in moves] == [1, 2, 3]
    assert [m["destination_mm"] for m in moves] == [[500, 525], [500, 550], [500, 575]]


@pytest.mark.parametrize(
    ("shooter_mm", "target_mm", "dominates"),
    [(60.0, 0.0, "archer"), (0.0, 40.0, "orc"), (20.0, 20.5, None)],
)
def test_fire_says_who_dominates(
    shooter_mm: float, target_mm: float, dominates: str | None
) -> None:
    # Introduction: "le placement et la domination d'un personnage par un autre est un
    # facteur utilisé dans la résolution des tirs" -- the book gives no modifier, so the
    # answer names who stands higher (attrs.elevation_mm, scenery climbed) and says so.
    scene = _scene(
        [
            {
                "id": "archer",
                "side": "a",
                "x_mm": 100,
                "y_mm": 100,
                "attrs": {"weapon": {"range_pas": 24}, "elevation_mm": shooter_mm},
            },
            {
                "id": "orc",
                "side": "b",
                "x_mm": 300,
                "y_mm": 100,
                "attrs": {"elevation_mm": target_mm},
            },
        ]
    )
    answer = ask(scene, "fire", ["archer", "orc"]).to_json()
    assert answer["elevation_mm"] == {"archer": shooter_mm, "orc": target_mm}
    assert answer["dominates"] == dominates
    assert any("domination" in w for w in answer["warnings"]) == (dominates is not None)


def test_a_bad_elevation_is_refused_in_one_line() -> None:
    scene = _scene(
        [
            {
                "id": "archer",
                "side": "a",
                "x_mm": 100,
                "y_mm": 100,
                "attrs": {"weapon": {"range_pas": 24}, "elevation_mm": "high"},
            },
            {"id": "orc", "side": "b", "x_mm": 300, "y_mm": 100},
        ]
    )
    with pytest.raises(QuestionError, match="elevation_mm must be a number"):
        ask(scene, "fire", ["archer", "orc"])


def test_a_figure_exactly_at_a_threshold_in_inch_paces_is_within_it() -> None:
    # The default pace is 25.4 mm (an inch), which floating point cannot hold exactly:
    # 25 mm bases, a gunman at (100, 100) and a target at (100, 582.2) stand
    # 582.2 - 100 - 25 = 457.2 mm = 18 pas apart, the musket's 18 pas: at long range, in
    # range ("la cible doit être à portée de l'arme"). A chief touching three enemies
    # with a friend exactly 1 pas (25.4 mm) from him: "chaque allié présent à moins d'1
    # pas ... « annule » un ennemi", 3 - 1 = 2 PA to leave.
    gun = {"move_pas": 4, "weapon": {"kind": "musket", "range_pas": 18}}
    figures = [
        {"id": "gun", "side": "M", "x_mm": 100, "y_mm": 100, "attrs": gun},
        {"id": "t18", "side": "J", "x_mm": 100, "y_mm": 582.2, "attrs": {"move_pas": 4}},
        {
            "id": "ch",
            "side": "M",
            "x_mm": 300,
            "y_mm": 300,
            "attrs": {"rank": "chief", "move_pas": 4},
        },
        {"id": "e1", "side": "J", "x_mm": 325, "y_mm": 300},
        {"id": "e2", "side": "J", "x_mm": 275, "y_mm": 300},
        {"id": "e3", "side": "J", "x_mm": 300, "y_mm": 325},
        {"id": "f1", "side": "M", "x_mm": 300, "y_mm": 249.6},
    ]
    scene = parse_scene(
        {"ruleset": "musg", "table": {"width_mm": 1000, "depth_mm": 800}, "figures": figures}
    )
    fire = ask(scene, "fire", ["gun", "t18"]).to_json()
    assert fire["allowed"] is True and fire["band"] == "long"
    leave = ask(scene, "leave", ["ch"]).to_json()
    assert leave["engaged_with"] == ["e1", "e2", "e3"] and leave["friends_near"] == ["f1"]
    assert leave["action_points"] == 2


def _duel(first: dict[str, Any], second: dict[str, Any], **options: Any) -> Any:
    """Two enemies 200 mm apart, with the attributes and scene options given."""
    return parse_scene(
        {
            "ruleset": "musg",
            "options": {"pace_mm": 25, **options},
            "table": {"width_mm": 1000, "depth_mm": 800},
            "figures": [
                {"id": "a", "side": "x", "x_mm": 300, "y_mm": 300, "attrs": first},
                {"id": "b", "side": "y", "x_mm": 500, "y_mm": 300, "attrs": second},
            ],
        }
    )


def _test(answer: Any, code: str) -> dict[str, Any]:
    (found,) = [t for t in answer.to_json()["tests"] if t["test"] == code]
    return found


def test_under_fire_rolls_1d6_as_the_book_says_or_2d6_as_the_players_agree() -> None:
    # « Subir un tir »: "Il lance 1d6 et si le score est inférieur ou égal à son
    # commandement"; the other tests, and the end-of-turn test, roll 2d6.
    pistol = {"weapon": {"kind": "pistol", "range_pas": 12, "strength": 4}}
    for dice, options in ((1, {}), (2, {"under_fire_dice": 2})):
        answer = ask(_duel({"command": 7}, pistol, **options), "tests", ["a", "b"])
        assert _test(answer, "under_fire") == {
            "test": "under_fire",
            "book": "Subir un tir",
            "due": True,  # a has no ranged weapon
            "dice": dice,
            "threshold": 7,
            "strength": 4,
            "own_strength": None,
            "armed": False,
        }
    with pytest.raises(SceneError, match="under_fire_dice"):
        _duel({}, pistol, under_fire_dice=3)


def test_under_fire_without_strengths_is_unsettled_and_says_what_to_give() -> None:
    rifle = {"weapon": {"kind": "rifle", "range_pas": 24}}
    answer = ask(_duel(rifle, rifle), "tests", ["a", "b"])
    assert _test(answer, "under_fire")["due"] is None
    assert any("weapon.strength" in w for w in answer.to_json()["warnings"])
    # The shooter's strength alone does not settle it; a shooter with no weapon shoots
    # at no one.
    strong = {"weapon": {"kind": "rifle", "range_pas": 24, "strength": 6}}
    assert _test(ask(_duel(rifle, strong), "tests", ["a", "b"]), "under_fire")["due"] is None
    assert _test(ask(_duel(rifle, {}), "tests", ["a", "b"]), "under_fire")["due"] is False


@pytest.mark.parametrize(
    ("rank", "other_rank", "due"),
    [
        ("extra", "henchman", True),
        ("henchman", "subchief", True),
        ("subchief", "chief", True),
        ("henchman", "henchman", False),
        ("chief", "subchief", False),
        ("chief", None, False),  # no one outranks a chief
        (None, "extra", False),  # an extra outranks no one
        (None, "chief", None),
        ("extra", None, None),
    ],
)
def test_the_rank_tests_are_due_against_a_better_rank(
    rank: str | None, other_rank: str | None, due: bool | None
) -> None:
    first = {} if rank is None else {"rank": rank}
    second = {} if other_rank is None else {"rank": other_rank}
    answer = ask(_duel(first, second), "tests", ["a", "b"])
    assert [_test(answer, c)["due"] for c in ("under_charge", "urge_to_charge", "spotting")] == [
        due
    ] * 3


@pytest.mark.parametrize("command", [-1, 21, 7.5, True, "eight"])
def test_a_command_is_a_whole_number_0_to_20(command: Any) -> None:
    with pytest.raises(SceneError, match=r"command: figure 'a': expected a whole number 0 to 20"):
        _duel({"command": command}, {})


def test_tests_ask_two_figures() -> None:
    with pytest.raises(QuestionError, match="same figure"):
        ask(_duel({}, {}), "tests", ["a", "a"])
