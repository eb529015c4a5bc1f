"""Smooth & Rifled's tables: damage, volleys, morale and melee, with the rule book's worked
examples (seed 004)."""

from __future__ import annotations

import itertools

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene
from arbitre.rules.smooth_and_rifled.dice import at_least, break_point, volley_hits
from tests.rules.smooth_and_rifled.scenes import (
    PAIR,
    VOLLEY_SCENE,
    answer_json,
    golden_scene,
    sr_scene,
)

# u1, u2 of the union, c1, c2 of the confederates; none has a C, so a melee that got
# past the check of who fights whom would stop on "attrs.combat" instead.
SIDES = [
    {"id": "u1", "side": "union", "x_mm": 100, "y_mm": 100},
    {"id": "u2", "side": "union", "x_mm": 100, "y_mm": 130},
    {"id": "c1", "side": "csa", "x_mm": 126, "y_mm": 100},
    {"id": "c2", "side": "csa", "x_mm": 126, "y_mm": 130},
]


@pytest.mark.parametrize(
    ("a", "b", "problem"),
    [
        ("u1,u1", "c1", "^'u1' is named twice: a figure fights once, on one side$"),
        ("u1", "u1", "^'u1' is named twice"),
        ("u1", "c1,u1", "^'u1' is named twice"),
        ("u1", "u2", "^'u2' is not an enemy of 'u1'$"),
        ("u1,u2", "u2", "^'u2' is named twice"),
        ("u1,c1", "c2", "^'u1' and 'c1' are enemies: they cannot fight on one side$"),
        ("c1", "u1,c2", "^'u1' and 'c2' are enemies"),
        ("u1,u2", "c1,c2", "^a melee is one against one, or two against one$"),
    ],
)
def test_melee_refuses_figures_on_the_wrong_side(a: str, b: str, problem: str) -> None:
    with pytest.raises(QuestionError, match=problem):
        ask(sr_scene(SIDES), "melee", [a, b])


def test_melee_between_allies_is_refused() -> None:
    # union and france are allies: friends, not enemies.
    scene = sr_scene(
        [*SIDES, {"id": "f1", "side": "france", "x_mm": 200, "y_mm": 100}],
        allies=[["union", "france"]],
    )
    with pytest.raises(QuestionError, match="^'f1' is not an enemy of 'u1'$"):
        ask(scene, "melee", ["u1", "f1"])


def test_damage_is_a_hit_on_an_enemy() -> None:
    scene = sr_scene(SIDES)
    with pytest.raises(QuestionError, match="^'u2' is not an enemy of 'u1'$"):
        ask(scene, "damage", ["u1", "u2"])
    with pytest.raises(QuestionError, match="^'u1' is not an enemy of 'u1'$"):
        ask(scene, "damage", ["u1", "u1"])
    # In the open, not aimed: modifier 0, so 1-3 shaken and 4-6 out, 50 % each.
    assert answer_json(scene, "damage", "u1", "c1")["distribution"] == {"shaken": 0.5, "out": 0.5}


def test_a_mount_die_is_only_for_a_mounted_target() -> None:
    """§6.2.7: « Si vous touchez une figurine montée, jeter 1d6 pour voir si vous avez touché
    la monture ou le cavalier »: a man on foot has no mount to roll for."""
    with pytest.raises(QuestionError, match="^'c1' is not mounted: no mount_die$"):
        ask(sr_scene(SIDES), "damage", ["u1", "c1"], {"mount_die": 5})


def test_the_other_reading_of_a_triple_5_or_6_counts_fives_and_sixes_together() -> None:
    # leader_triple: five_or_six reads « un triple 5 ou 6 » as three dice each a 5 or a 6:
    # on 4 dice, 4 x (1/3)^3 x 2/3 + (1/3)^4 = 9/81 = 1/9; [5, 6, 6, 1] shows one.
    scene = golden_scene("volley-leader", leader_triple="five_or_six")
    assert answer_json(scene, "volley", "B", "R")["leader_exposed_probability"] == pytest.approx(
        1 / 9, abs=1e-3
    )
    assert answer_json(scene, "volley", "B", "R", rolls=[5, 6, 6, 1])["leader_exposed"] is True


def test_a_volley_s_dice_and_hits_must_agree() -> None:
    scene = golden_scene("volley-leader")
    with pytest.raises(QuestionError, match="hits 3 contradicts the dice given"):
        ask(scene, "volley", ["B", "R"], {"rolls": [5, 5, 5, 2], "hits": 3})
    with pytest.raises(QuestionError, match="roll 4 dice for the volley of B, got 3"):
        ask(scene, "volley", ["B", "R"], {"rolls": [5, 5, 5]})


def test_zulu_attacking_a_highlander() -> None:
    # §6.7: "un Zoulou avec C=4 et Impétueux attaque un Highlander avec C=5. Le Zoulou lancera
    # 4 dés ... et touche pour chaque 5+ obtenu et sera touché sur chaque 4+ obtenu par le
    # Highlander."
    scene = sr_scene(
        [
            {
                "id": "zulu",
                "side": "zulu",
                "x_mm": 100,
                "y_mm": 100,
                "type": "infantry",
                "attrs": {"combat": 4, "impetuous": True},
            },
            {
                "id": "highlander",
                "side": "british",
                "x_mm": 100,
                "y_mm": 125,
                "type": "infantry",
                "attrs": {"combat": 5},
            },
        ]
    )
    answer = answer_json(scene, "melee", "zulu", "highlander")
    assert (answer["attacker_dice"], answer["attacker_hits_on"]) == (4, 5)
    assert (answer["defender_dice"], answer["defender_hits_on"]) == (3, 4)
    # The odds add up: win, tie and lose cover every throw.
    assert sum(answer["odds"].values()) == pytest.approx(1.0, abs=0.002)  # rounded to 1e-3


@pytest.mark.parametrize(
    ("brigand_rolls", "outcome"),
    [
        # "Il lance 3d6 et obtient 1, 3 et 5, soit 2 touches. Les Brigands lancent 4d6, mais
        # n'obtiennent rien au-dessus de 4. Le Zouave a battu les deux Brigands".
        ([1, 2, 4, 4], ["zouave eliminates b1 and b2"]),
        # "Si les Brigands avaient touché une fois, alors le Zouave aurait gagné la Mêlée
        # contre l'un des deux et fait égalité avec l'autre."
        ([5, 1, 2, 4], ["zouave and b1 tie: both recoil 1 cm", "zouave beats b2"]),
    ],
)
def test_papal_zouave_against_two_brigands(brigand_rolls: list[int], outcome: list[str]) -> None:
    scene = sr_scene(
        [
            {"id": "zouave", "side": "papal", "x_mm": 100, "y_mm": 125, "attrs": {"combat": 5}},
            {"id": "b1", "side": "brigands", "x_mm": 88, "y_mm": 100, "attrs": {"combat": 3}},
            {"id": "b2", "side": "brigands", "x_mm": 114, "y_mm": 100, "attrs": {"combat": 3}},
        ]
    )
    answer = answer_json(
        scene, "melee", "b1,b2", "zouave", rolls_a=brigand_rolls, rolls_b=[1, 3, 5]
    )
    # Two against one: 3 dice + 1 for the second Brigand, hitting on the Zouave's C 5;
    # the Zouave rolls 3 dice hitting on the Brigands' C 3.
    assert (answer["attacker_dice"], answer["attacker_hits_on"]) == (4, 5)
    assert (answer["defender_dice"], answer["defender_hits_on"]) == (3, 3)
    assert answer["defender_hits"] == 2
    assert sorted(answer["outcome"]) == sorted(outcome)


def test_break_point_of_ten_soldiers_and_a_sergeant() -> None:
    # §7.0: "une Unité constituée de 10 soldats et d'un Sergent a une VM de 13 et aura un
    # Point de Rupture à 5."
    figures = [{"id": "sgt", "side": "blue", "x_mm": 600, "y_mm": 450, "attrs": {"leader": True}}]
    figures += [
        {"id": f"s{k}", "side": "blue", "x_mm": 60 + 50 * k, "y_mm": 100} for k in range(10)
    ]
    answer = answer_json(sr_scene(figures), "morale", "blue")
    assert (answer["vm"], answer["break_point"]) == (13, 5)
    # "L'Unité devra tester si elle perd 5 soldats ou le Sergent et 2 soldats": 3 + 1 + 1 = 5.
    assert break_point(13) == 5 == 3 + 2 * 1


def test_an_aimed_volley_rolls_one_die_more() -> None:
    # A group of two shooters, 20 mm bases 30 mm apart, facing a target 200 mm ahead:
    # 200 - 10 - 10 = 180 mm = 18 cm edge to edge, medium range of muskets 30/2. They
    # roll 2 + 1 = 3d6, aimed 4d6, whether asked as a volley or as the group's fire.
    base = {"shape": "square", "side_mm": 20}
    musket = {"combat": 4, "weapon": {"medium_range_cm": 30}}
    shooter = {"side": "union", "unit": "G", "y_mm": 100, "facing_deg": 90, "base": base}
    figures = [
        {"id": "gl", **shooter, "x_mm": 700, "attrs": {**musket, "leader": True}},
        {"id": "g2", **shooter, "x_mm": 730, "attrs": musket},
        {"id": "t", "side": "csa", "x_mm": 715, "y_mm": 300, "base": base, "attrs": {"combat": 4}},
    ]
    scene = sr_scene(figures)
    for aimed, dice in ((False, 3), (True, 4)):
        volley = answer_json(scene, "volley", "G", "t", aimed=aimed)
        fire = answer_json(scene, "fire", "G", "t", aimed=aimed)
        assert (volley["dice"], fire["dice"]) == (dice, dice), (aimed, volley, fire)


def test_volley_example_hits_go_to_c_b_a_and_the_fourth_is_lost() -> None:
    scene = parse_scene(VOLLEY_SCENE)
    answer = answer_json(scene, "volley", "blue", "C", hits=4)
    # b3-b7 at medium range (7+): 6d6; b1 and b2 (long range) fire apart.
    assert answer["shooters"] == ["b3", "b4", "b5", "b6", "b7"]
    assert (answer["band"], answer["to_hit_2d6"], answer["dice"]) == ("medium", 7, 6)
    # "B est le plus proche, il reçoit la deuxième touche, puis A ... Le prochain devrait
    # être G ... mais comme G n'est visible que de 1 et 2, il ne peut être touché. La
    # quatrième touche est perdue."
    assert answer["order"] == ["C", "B", "A"]
    assert answer["hit"] == ["C", "B", "A"]
    assert answer["lost"] == 1
    # G is seen by b1 (no house on that line) but not by b3.
    assert answer_json(scene, "fire", "b1", "G")["visible"] is True
    assert answer_json(scene, "fire", "b3", "G")["reasons"] == ["line_blocked"]


def test_volley_hit_distribution_counts_every_throw() -> None:
    # Hits = whole multiples of 7 in the total of 6d6: counted over all 6^6 throws.
    answer = answer_json(parse_scene(VOLLEY_SCENE), "volley", "blue", "C")
    counts: dict[int, int] = {}
    for throw in itertools.product(range(1, 7), repeat=6):
        hits = volley_hits(sum(throw), 7)
        counts[hits] = counts.get(hits, 0) + 1
    expected = {str(k): round(v / 6**6, 3) for k, v in counts.items()}
    assert answer["hits_distribution"] == expected
    # A volley of one shooter is an ordinary shot: 2d6, 7+ is 21/36.
    assert float(at_least(2, 7)) == pytest.approx(21 / 36)


def test_a_melee_of_figures_without_a_combat_value_raises() -> None:
    with pytest.raises(QuestionError, match="attrs.combat"):
        ask(sr_scene(PAIR), "melee", ["a", "e"])
