"""The worked examples of the Smooth & Rifled rule book (seed 004), with the book's numbers."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest

from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene
from arbitre.rules.smooth_and_rifled.dice import (
    TO_HIT,
    at_least,
    band_of,
    break_point,
    volley_dice,
    volley_hits,
)


def _scene(figures: list[dict[str, Any]], **extra: Any) -> Any:
    return parse_scene(
        {
            "ruleset": "smooth-and-rifled",
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": figures,
            **extra,
        }
    )


def _json(scene: Any, question: str, *args: object, **extras: Any) -> dict[str, Any]:
    return ask(scene, question, [str(a) for a in args], extras).to_json()


def test_musket_at_36_cm_needs_a_9() -> None:
    # §6.2.1: "un fusil (30/2) tire sur un Confédéré à 36cm. La portée Moyenne est dépassée
    # (plus de 30cm), mais on reste à portée Longue (moins de 60cm) ... besoin d'un 9".
    assert band_of(360.0, 300.0, extreme=False) == "long"
    assert TO_HIT["long"] == 9
    # Two 25 mm bases whose centres are 385 mm apart are 36 cm apart edge to edge.
    scene = _scene(
        [
            {
                "id": "union",
                "side": "blue",
                "x_mm": 100,
                "y_mm": 100,
                "facing_deg": 90,
                "attrs": {"weapon": {"medium_range_cm": 30, "reload": 2}},
            },
            {"id": "reb", "side": "grey", "x_mm": 100, "y_mm": 485},
        ]
    )
    answer = _json(scene, "fire", "union", "reb")
    assert (answer["distance_units"], answer["band"], answer["to_hit_2d6"]) == (36.0, "long", 9)
    # In 15 mm games every distance is halved: R = 15 cm, long range ends at 30 cm.
    small = parse_scene(
        {
            "ruleset": "sr",
            "options": {"scale": "15mm"},
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": scene_figures(scene),
        }
    )
    assert _json(small, "fire", "union", "reb")["reasons"] == ["out_of_range"]


def scene_figures(scene: Any) -> list[dict[str, Any]]:
    return [
        {
            "id": f.id,
            "side": f.side,
            "x_mm": f.x_mm,
            "y_mm": f.y_mm,
            "facing_deg": f.facing_deg,
            "attrs": dict(f.attrs),
        }
        for f in scene.figures
    ]


def test_zulu_attacking_a_highlander() -> None:
    # §6.7: "un Zoulou avec C=4 et Impétueux attaque un Highlander avec C=5. Le Zoulou lancera
    # 4 dés ... et touche pour chaque 5+ obtenu et sera touché sur chaque 4+ obtenu par le
    # Highlander."
    scene = _scene(
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
    answer = _json(scene, "melee", "zulu", "highlander")
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
    scene = _scene(
        [
            {"id": "zouave", "side": "papal", "x_mm": 100, "y_mm": 125, "attrs": {"combat": 5}},
            {"id": "b1", "side": "brigands", "x_mm": 88, "y_mm": 100, "attrs": {"combat": 3}},
            {"id": "b2", "side": "brigands", "x_mm": 114, "y_mm": 100, "attrs": {"combat": 3}},
        ]
    )
    answer = _json(scene, "melee", "b1,b2", "zouave", rolls_a=brigand_rolls, rolls_b=[1, 3, 5])
    # Two against one: 3 dice + 1 for the second Brigand, hitting on the Zouave's C 5;
    # the Zouave rolls 3 dice hitting on the Brigands' C 3.
    assert (answer["attacker_dice"], answer["attacker_hits_on"]) == (4, 5)
    assert (answer["defender_dice"], answer["defender_hits_on"]) == (3, 3)
    assert answer["defender_hits"] == 2
    assert sorted(answer["outcome"]) == sorted(outcome)


# §3.1's figure, laid out to the text's numbers (25 mm bases, gaps edge to edge):
# L (300, 300) the Leader; A, B, C, D 5 mm from him (chained); E 59.85 mm from L but 42.08 mm
# from B and C (not chained); F 116.4 mm from L and 97 mm from A and D; G 19.7 mm from F and
# 159.4 mm from L.
GROUP_EXAMPLE = [
    ("L", 300, 300),
    ("A", 270, 300),
    ("B", 330, 300),
    ("C", 300, 330),
    ("D", 300, 270),
    ("E", 360, 360),
    ("F", 200, 200),
    ("G", 160, 180),
]


def _group_example(drummer: bool, **options: Any) -> Any:
    figures = [
        {
            "id": name,
            "side": "blue",
            "unit": "line",
            "x_mm": x,
            "y_mm": y,
            "attrs": {"leader": name == "L", "musician": drummer and name == "B"},
        }
        for name, x, y in GROUP_EXAMPLE
    ]
    return _scene(figures, options=options)


@pytest.mark.parametrize(
    ("drummer", "members"),
    [
        # "A, B, C, D et L ... E fait partie du Groupe car il est à 6cm de L. Mais F et G ne
        # peuvent faire partie du Groupe."
        (False, ["A", "B", "C", "D", "E", "L"]),
        # "Si B était un tambour (Musicien), alors F, à moins de 12cm de L, appartiendrait au
        # Groupe. Et en conséquence, G, à moins de 3cm de F, en ferait partie aussi."
        (True, ["A", "B", "C", "D", "E", "F", "G", "L"]),
    ],
)
def test_group_membership_example_read_as_chain_or_radius(
    drummer: bool, members: list[str]
) -> None:
    # The example's own reading: chained within 3 cm, *or* within the Leader's radius, which
    # the example sets at 6 cm (12 cm with a musician).
    scene = _group_example(drummer, group_rule="chain_or_radius", leader_radius_cm=6)
    groups = _json(scene, "groups")["groups"]
    assert sorted(groups["line"]) == members
    assert sorted(g for g in groups if g != "line") == sorted(
        name for name, _, _ in GROUP_EXAMPLE if name not in members
    )


@pytest.mark.parametrize("drummer", [False, True])
def test_group_membership_example_under_the_text_rule(drummer: bool) -> None:
    # The default reading (§3.0's text): chained within 3 cm *and* within 10 cm of the Leader
    # (20 cm with a musician). A-D qualify; E, F and G are not chained to the group, so each
    # acts alone whatever the radius: the example's E (at 6 cm, not chained) is the case where
    # the text and the example part ways.
    groups = _json(_group_example(drummer), "groups")["groups"]
    assert sorted(groups["line"]) == ["A", "B", "C", "D", "L"]
    assert {name for name, ids in groups.items() if len(ids) == 1} == {"E", "F", "G"}


def test_break_point_of_ten_soldiers_and_a_sergeant() -> None:
    # §7.0: "une Unité constituée de 10 soldats et d'un Sergent a une VM de 13 et aura un
    # Point de Rupture à 5."
    figures = [{"id": "sgt", "side": "blue", "x_mm": 600, "y_mm": 450, "attrs": {"leader": True}}]
    figures += [
        {"id": f"s{k}", "side": "blue", "x_mm": 60 + 50 * k, "y_mm": 100} for k in range(10)
    ]
    answer = _json(_scene(figures), "morale", "blue")
    assert (answer["vm"], answer["break_point"]) == (13, 5)
    # "L'Unité devra tester si elle perd 5 soldats ou le Sergent et 2 soldats": 3 + 1 + 1 = 5.
    assert break_point(13) == 5 == 3 + 2 * 1


def test_volley_dice_of_four_shooters() -> None:
    # §6.2.5: "1 Groupe de 4 tireurs jette 5d6, 2 pour le premier et 1 chacun pour les 3".
    assert volley_dice(4) == 5
    # §6.2.2: those who aim "gagne 1d6 supplémentaire si elles appartiennent à un Groupe";
    # §6.4: "le Groupe n'obtient qu'1d6 supplémentaire" (one for the group, not each);
    # the reference sheet: "Bouger -1d6".
    assert volley_dice(4, aimed=True) == 6
    assert volley_dice(4, moved=True) == 4
    assert volley_dice(4, aimed=True, moved=True) == 5


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
    scene = _scene(figures)
    for aimed, dice in ((False, 3), (True, 4)):
        volley = _json(scene, "volley", "G", "t", aimed=aimed)
        fire = _json(scene, "fire", "G", "t", aimed=aimed)
        assert (volley["dice"], fire["dice"]) == (dice, dice), (aimed, volley, fire)


# The volley example of §6.2.5: Blue (muskets 20/2) fires at Red in loose order, target C.
# Shooters b1 and b2 are more than 20 cm from C (long range); the five others (b3-b7) are
# within 20 cm and fire first. A house hides G from b3-b7; b1 and b2 could see it.
VOLLEY_SCENE = {
    "ruleset": "smooth-and-rifled",
    "table": {"width_mm": 1200, "depth_mm": 900},
    "figures": [
        *(
            {
                "id": f"b{k}",
                "side": "blue",
                "unit": "blue",
                "x_mm": x,
                "y_mm": 100,
                "facing_deg": 90,
                "attrs": {"leader": k == 4, "weapon": {"medium_range_cm": 20, "reload": 2}},
            }
            for k, x in ((1, 100), (2, 130), (3, 180), (4, 210), (5, 240), (6, 270), (7, 300))
        ),
        {"id": "C", "side": "red", "unit": "red", "x_mm": 300, "y_mm": 290},
        {"id": "B", "side": "red", "unit": "red", "x_mm": 260, "y_mm": 340},
        {"id": "A", "side": "red", "unit": "red", "x_mm": 210, "y_mm": 380},
        {"id": "G", "side": "red", "unit": "red", "x_mm": 115, "y_mm": 400},
    ],
    "terrain": [
        {
            "id": "house",
            "kind": "building",
            "polygon_mm": [[124, 320], [180, 320], [180, 360], [124, 360]],
        },
    ],
}


def test_volley_example_hits_go_to_c_b_a_and_the_fourth_is_lost() -> None:
    scene = parse_scene(VOLLEY_SCENE)
    answer = _json(scene, "volley", "blue", "C", hits=4)
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
    assert _json(scene, "fire", "b1", "G")["visible"] is True
    assert _json(scene, "fire", "b3", "G")["reasons"] == ["line_blocked"]


def test_volley_hit_distribution_counts_every_throw() -> None:
    # Hits = whole multiples of 7 in the total of 6d6: counted over all 6^6 throws.
    answer = _json(parse_scene(VOLLEY_SCENE), "volley", "blue", "C")
    counts: dict[int, int] = {}
    for throw in itertools.product(range(1, 7), repeat=6):
        hits = volley_hits(sum(throw), 7)
        counts[hits] = counts.get(hits, 0) + 1
    expected = {str(k): round(v / 6**6, 3) for k, v in counts.items()}
    assert answer["hits_distribution"] == expected
    # A volley of one shooter is an ordinary shot: 2d6, 7+ is 21/36.
    assert float(at_least(2, 7)) == pytest.approx(21 / 36)


def test_save_of_the_volley_example_may_pass_to_c_already_hit() -> None:
    # §6.2.5: "Si B était un Leader ... et que sa Sauvegarde ait réussi, le joueur Rouge
    # pourrait « dévier » le tir sur C qui subirait les effets de 2 touches."
    # §6.2.8: on 4-6 the nearest figure within 5 cm takes the hit. B (260, 340) is
    # sqrt(40^2 + 50^2) - 25 = 39.03 mm from C (300, 290) and exactly as far from A (210, 380):
    # both are within 50 mm, equally near; the players choose, and C, already hit, may take it.
    document = {**VOLLEY_SCENE, "figures": [dict(f) for f in VOLLEY_SCENE["figures"]]}
    for figure in document["figures"]:
        if figure["id"] == "B":
            figure["attrs"] = {"leader": True}
    scene = parse_scene(document)
    answer = _json(scene, "save", "B", die=4)
    assert answer["tied"] == ["A", "C"]
    assert answer["substitute_gap_mm"] == pytest.approx(4100**0.5 - 25, abs=0.01)
    assert answer["hit"] in ("A", "C")
    assert any("the players choose" in w for w in answer["warnings"])
    assert _json(scene, "save", "B", die=3)["hit"] == "B"


def _rifles(group: bool, *, sniper: bool = False, rifled: bool = True) -> Any:
    """Three blue figures with rifles (R = 30 cm) facing +y; red at 80 cm from the leader."""
    weapon = {"medium_range_cm": 30, "reload": 2, "rifled": rifled}
    figures: list[dict[str, Any]] = [
        {
            "id": f"r{k}",
            "side": "blue",
            "unit": "rifles",
            "x_mm": 100 + 30 * k,
            "y_mm": 100,
            "facing_deg": 90,
            "attrs": {"leader": group and k == 0, "weapon": weapon, "sniper": sniper},
        }
        for k in range(3)
    ]
    # 80 cm edge to edge from r1 (130, 100): centre at y = 100 + 800 + 25 = 925 is off a
    # 900 mm table, so the table is deeper.
    figures.append({"id": "t", "side": "red", "x_mm": 130, "y_mm": 925})
    return _scene(figures, table={"width_mm": 1200, "depth_mm": 1200})


def test_extreme_range_only_for_snipers_and_the_aimed_fire_of_rifle_groups() -> None:
    # §6.2.1: "Portée Extrême : Portée Moyenne X 3 (seulement possible pour les Tireurs
    # d'Elite et le tir visé des Groupes armés de fusils)". The target is 80 cm from r1:
    # beyond long range (2R = 60 cm), within extreme (3R = 90 cm).
    lone = _json(_rifles(group=False), "fire", "r1", "t", aimed=True)
    assert lone["distance_units"] == pytest.approx(80.0)
    assert (lone["allowed"], lone["reasons"], lone["band"]) == (False, ["out_of_range"], None)
    assert _json(_rifles(group=False), "fire", "r1", "t")["reasons"] == ["out_of_range"]
    # The same rifles as a group (r0 leads r1, r2), aiming: extreme, 13+.
    volley = _json(_rifles(group=True), "fire", "rifles", "t", aimed=True)
    assert (volley["allowed"], volley["band"], volley["to_hit_2d6"]) == (True, "extreme", 13)
    # The group without aiming, or with smooth-bore weapons, stays at 2R.
    assert _json(_rifles(group=True), "fire", "rifles", "t")["reasons"] == ["out_of_range"]
    smooth = _json(_rifles(group=True, rifled=False), "fire", "rifles", "t", aimed=True)
    assert smooth["reasons"] == ["out_of_range"]
    # A sniper alone reaches extreme range, aimed or not.
    sniper = _json(_rifles(group=False, sniper=True), "fire", "r1", "t")
    assert (sniper["allowed"], sniper["band"]) == (True, "extreme")


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
    scene = _scene(
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
    charge = _json(scene, "charge", "s", "e")
    assert charge["distance_mm"] == pytest.approx(110.0)
    assert charge["legal"] is False and "charge_short" in charge["reasons"]
    cost_mm = 110 + 25  # 135 mm; 12 cm allowed: 15 mm short
    assert charge["margin_mm"] == pytest.approx(cost_mm - 120.0, abs=0.01)
    move = _json(scene, "move", "s", 100, 210, mode="charge")
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
    scene = _scene(
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
    move = _json(scene, "move", "s", 100, 180)
    assert move["cost_mm"] == pytest.approx(cost_mm, abs=0.01)
    assert move["legal"] is True


def test_a_group_moves_at_the_pace_of_its_member_in_difficult_ground() -> None:
    # §6.1: an infantry group moves 8 cm in a first action, halved in difficult ground.
    # ldr and l2 stand in the open, l3 in a wood (x >= 145; its 20 mm base spans x
    # 150-170). Moving the group 8 cm north costs l3 2 x 80 = 160 mm: the group cannot
    # (it did, at the Leader's 8.0 cm); 4 cm costs l3 80 mm, just the 8 cm allowed.
    base = {"shape": "square", "side_mm": 20}
    member = {"side": "union", "unit": "L", "y_mm": 100, "facing_deg": 90, "type": "infantry"}
    scene = _scene(
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
    far = _json(scene, "move", "L", 100, 180)
    assert far["legal"] is False and far["reasons"] == ["over_allowance"]
    assert far["cost_mm"] == pytest.approx(160.0)
    assert any(w.startswith("l3 crosses difficult ground") for w in far["warnings"])
    near = _json(scene, "move", "L", 100, 140)
    assert near["legal"] is True and near["cost_mm"] == pytest.approx(80.0)


def test_a_group_mixing_cavalry_and_infantry_moves_at_the_infantry_pace() -> None:
    # §3.1: "on ne peut mélanger Infanterie et Cavalerie". Such a group is told so, and
    # moves at its infantry's 8 cm, not its cavalry Leader's 20.
    base = {"shape": "square", "side_mm": 20}
    member = {"side": "union", "unit": "C", "y_mm": 100, "facing_deg": 90, "base": base}
    scene = _scene(
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
    answer = _json(scene, "move", "C", 600, 300)
    assert answer["allowance_mm"] == pytest.approx(80.0)
    assert answer["legal"] is False  # 200 mm of 80
    assert any("may not mix cavalry and infantry" in w for w in answer["warnings"])


def _square(
    ident: str, side: str, x: float, y: float, facing: float, **more: Any
) -> dict[str, Any]:
    base = {"shape": "square", "side_mm": 20}
    return {
        "id": ident,
        "side": side,
        "x_mm": x,
        "y_mm": y,
        "facing_deg": facing,
        "base": base,
        **more,
    }


@pytest.mark.parametrize("facing", [90.0, 45.0, 0.0])
def test_a_charge_is_measured_with_the_charger_turned_to_its_target(facing: float) -> None:
    # §6.5: the charger turns to face its target (free within its arc) and charges
    # straight. Cavalry on a 20 mm square at (300, 300), the target's square at (400, 400)
    # facing it (225 deg): turned to 45 deg, the two squares face each other across
    # 141.42 - 20 = 121.42 mm, whatever the charger's facing before. A wood covers
    # x + y >= 670: the charger's front edge (x + y = 614.14) reaches it after
    # (670 - 614.14) / sqrt 2 = 39.50 mm, the other 81.92 mm count double: 203.34 mm, over
    # the 20 cm of a first cavalry charge by 3.34 mm.
    scene = _scene(
        [
            _square("a", "union", 300, 300, facing, type="cavalry"),
            _square("t", "csa", 400, 400, 225, type="infantry"),
        ],
        terrain=[
            {
                "id": "w",
                "kind": "wood",
                "polygon_mm": [[370, 300], [1000, 300], [1000, 1000], [300, 1000], [300, 370]],
            }
        ],
    )
    charge = _json(scene, "charge", "a", "t")
    assert charge["distance_mm"] == pytest.approx(200**0.5 * 10 - 20, abs=0.01)
    assert charge["legal"] is False and "charge_short" in charge["reasons"]
    gap = 100 * 2**0.5 - 20
    open_mm = (670 - 600 - 10 * 2**0.5) / 2**0.5
    assert charge["margin_mm"] == pytest.approx(open_mm + 2 * (gap - open_mm) - 200, abs=0.01)


def _rifle_and_target() -> list[dict[str, Any]]:
    """A rifleman ``a`` at (500, 100) facing +y (front edge at y 110), sure to 0.4 mm, and
    an infantry target ``t`` 20 cm ahead, sure to 0.9 mm."""
    return [
        _square(
            "a",
            "union",
            500,
            100,
            90,
            type="infantry",
            attrs={"weapon": {"medium_range_cm": 30}},
            sigma_mm=0.4,
        ),
        {**_square("t", "csa", 500, 300, 270, type="infantry"), "sigma_mm": 0.9},
    ]


@pytest.mark.parametrize(("hedge_y", "counts"), [(140.0, True), (139.5, False)])
def test_an_obstacle_exactly_3_cm_from_the_shooter_gives_cover(
    hedge_y: float, counts: bool
) -> None:
    # §6.2.3: "les obstacles à moins de 3cm du tireur ne comptent pas". The shooter's
    # front edge is at y 110: a hedge at y 140 is exactly 3 cm away and counts (partial
    # cover against a level 1 hedge); at 139.5 it is 2.95 cm away and does not. Either way
    # the answer says how far the hedge is from those 3 cm, as sure as the shooter's
    # position (0.4 mm; the target's 0.9 mm has no part in it).
    scene = _scene(
        _rifle_and_target(),
        terrain=[
            {
                "id": "hedge",
                "kind": "obstacle",
                "level": 1,
                "line_mm": [[400, hedge_y], [600, hedge_y]],
            }
        ],
    )
    fire = _json(scene, "fire", "a", "t")
    assert fire["cover"] == (["hedge"] if counts else [])
    (margin,) = [m for m in fire["margins"] if m["what"] == "cover"]
    assert margin["margin_mm"] == pytest.approx(abs(hedge_y - 140.0), abs=1e-6)
    assert margin["sigma_mm"] == pytest.approx(0.4)


def test_an_obstacle_at_3_cm_behind_which_a_wall_covers_anyway_is_no_doubt() -> None:
    # The hedge is exactly 3 cm from the shooter (counted, by a hair); a level 2 wall
    # farther on gives the target total cover whether the hedge counts or not. The cover
    # is certain: no margin for it, where the hedge alone gives one of 0 mm.
    scene = _scene(
        _rifle_and_target(),
        terrain=[
            {"id": "hedge", "kind": "obstacle", "level": 1, "line_mm": [[400, 140], [600, 140]]},
            {"id": "wall", "kind": "obstacle", "level": 2, "line_mm": [[400, 220], [600, 220]]},
        ],
    )
    fire = _json(scene, "fire", "a", "t")
    assert fire["cover"] == ["hedge", "wall"]
    assert not [m for m in fire["margins"] if m["what"] == "cover"]


@pytest.mark.parametrize("scale", ["28mm", "15mm"])
def test_a_base_touching_the_canister_cone_is_hit_at_either_scale(scale: str) -> None:
    # §6.6: canister hits every figure within 30 cm (15 cm at 15 mm) in a 90 deg cone from
    # the muzzle (600, 170), facing +y. The target's square (700..720, 250..270) touches the
    # cone's edge at its corner (700, 270): 100 mm right and 100 mm up from the muzzle, on
    # the 45 deg line, 141.4 mm away: within either radius. Hit both times (it was missed
    # at 15 mm, the edge drawn a hair the other side of the corner).
    scene = parse_scene(
        {
            "ruleset": "smooth-and-rifled",
            "options": {"scale": scale},
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": [
                {
                    **_square("g", "union", 600, 150, 90, type="artillery"),
                    "base": {"shape": "square", "side_mm": 40},
                    "attrs": {"gun": "light", "muzzle_mm": [600, 170]},
                },
                _square("t2", "csa", 710, 260, 90, type="infantry"),
            ],
        }
    )
    assert _json(scene, "canister", "g")["hit"] == ["t2"]


def test_a_base_touching_the_canister_s_reach_is_hit() -> None:
    # A 25 mm round base whose edge just touches the 30 cm reach of a light gun's
    # canister (its centre 312.5 mm from the muzzle, at 77.3 deg, inside the cone's 45-135):
    # touching is enough. The reach, drawn as chords inside the arc, missed it by 0.01 mm.
    angle = math.radians(77.3)
    x, y = 600 + 312.5 * math.cos(angle), 170 + 312.5 * math.sin(angle)
    scene = _scene(
        [
            {
                **_square("g", "union", 600, 150, 90, type="artillery"),
                "base": {"shape": "square", "side_mm": 40},
                "attrs": {"gun": "light", "muzzle_mm": [600, 170]},
            },
            {"id": "t", "side": "csa", "x_mm": x, "y_mm": y, "type": "infantry"},
        ]
    )
    assert _json(scene, "canister", "g")["hit"] == ["t"]
