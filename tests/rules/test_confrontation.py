"""Confrontation: base contact, melees split into combats (against brute force), the book's
dice and initiative examples, pursuit."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.rules.confrontation import (
    MeleeGraph,
    dice_of_split,
    initiative_odds,
    pursuit_distance_cm,
    split_melee,
)
from arbitre.rules.errors import QuestionError, SceneError
from arbitre.rules.model import Scene
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene


def _scene(*figures: dict[str, Any], **options: Any) -> Scene:
    return parse_scene(
        {
            "ruleset": "confrontation",
            "options": options,
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": list(figures),
        }
    )


def _fig(ident: str, side: str, x: float, y: float, **more: Any) -> dict[str, Any]:
    return {"id": ident, "side": side, "x_mm": x, "y_mm": y, **more}


# --- brute force ------------------------------------------------------------------------


def _set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every partition of a list into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _set_partitions(rest):
        yield [[first], *partition]
        for k in range(len(partition)):
            yield [*partition[:k], [first, *partition[k]], *partition[k + 1 :]]


def _legal_combat(block: list[int], touching: list[set[int]], hostile: list[set[int]]) -> bool:
    """A combat straight from the book: one figure against one or several touching enemies,
    the several forming one camp."""
    if len(block) < 2:
        return False
    for centre in block:
        others = [k for k in block if k != centre]
        if all(k in touching[centre] for k in others) and all(
            b not in hostile[a] for a in others for b in others
        ):
            return True
    return False


def _brute_force(n: int, touching: list[set[int]], hostile: list[set[int]]) -> set[frozenset[Any]]:
    return {
        frozenset(frozenset(block) for block in partition)
        for partition in _set_partitions(list(range(n)))
        if all(_legal_combat(block, touching, hostile) for block in partition)
    }


@st.composite
def contact_graphs(draw: st.DrawFn) -> tuple[int, list[int], list[set[int]]]:
    n = draw(st.integers(min_value=2, max_value=7))
    sides = draw(st.lists(st.integers(0, draw(st.integers(1, 2))), min_size=n, max_size=n))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if sides[i] != sides[j]]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    touching: list[set[int]] = [set() for _ in range(n)]
    for i, j in chosen:
        touching[i].add(j)
        touching[j].add(i)
    return n, sides, touching


@settings(max_examples=300, deadline=None)
@given(contact_graphs())
def test_splits_are_exactly_the_legal_partitions(
    graph_spec: tuple[int, list[int], list[set[int]]],
) -> None:
    n, sides, touching = graph_spec
    hostile = [{j for j in range(n) if sides[j] != sides[i]} for i in range(n)]
    graph = MeleeGraph(
        tuple(range(n)),
        tuple(sum(1 << j for j in touching[i]) for i in range(n)),
        tuple(sum(1 << j for j in hostile[i]) for i in range(n)),
    )
    search = split_melee(graph, 10_000)
    splits = search.splits
    assert not search.truncated and not search.exhausted
    found = [frozenset(frozenset(combat) for combat in split) for split in splits]
    assert len(found) == len(set(found)), "a split listed twice"
    assert set(found) == _brute_force(n, touching, hostile)
    for split in splits:  # the lone figure comes first and touches all its opponents
        for centre, *opponents in split:
            assert all(k in touching[centre] for k in opponents)


def test_two_sides_always_have_a_split_and_three_may_not() -> None:
    # a, b, c mutually hostile and all touching: duels leave the third alone, and a
    # against b and c is not allowed (b and c are enemies): no split.
    scene = _scene(
        _fig("a", "red", 100, 100),
        _fig("b", "blue", 125, 100),
        _fig("c", "green", 112.5, 100 + 12.5 * math.sqrt(3)),
    )
    melee = ask(scene, "melees", []).to_json()["melees"][0]
    assert melee["figures"] == ["a", "b", "c"]
    assert melee["partitions"] == [] and melee["proposal"] is None
    assert "no legal split" in melee["reason"]
    assert "b and c are enemies" in melee["reason"]
    # Make green an ally of blue: now a fights b and c together.
    allied = parse_scene(
        {
            "ruleset": "confrontation",
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": [
                _fig("a", "red", 100, 100),
                _fig("b", "blue", 125, 100),
                _fig("c", "green", 112.5, 100 + 12.5 * math.sqrt(3)),
            ],
            "allies": [["blue", "green"]],
        }
    )
    assert ask(allied, "melees", []).to_json()["melees"][0]["partitions"] == [[["a", "b", "c"]]]


# --- the book ---------------------------------------------------------------------------

# A garde prétorien (INI 3) in base contact with two clones of Dirz (INI 2) and a guerrier de
# l'aube (INI 3), all on 25 mm bases: the clones left and right, the guerrier above; the
# three do not touch each other (clone1-guerrier centres 35.4 mm apart: gap 10.4 mm).
GARDE = [
    _fig("garde", "griffon", 500, 500, attrs={"ini": 3, "mou_cm": 10}),
    _fig("clone1", "scorpion", 525, 500, attrs={"ini": 2}),
    _fig("clone2", "scorpion", 475, 500, attrs={"ini": 2}),
    _fig("guerrier", "scorpion", 500, 525, attrs={"ini": 3}),
]


def test_garde_pretorien_rolls_four_dice() -> None:
    # "Le garde prétorien dispose de quatre dés de combat (1 + 3). Les clones et le guerrier
    # de l'aube disposent chacun de deux dés de combat (1 + 1)."
    scene = _scene(*GARDE)
    melee = ask(scene, "melees", []).to_json()["melees"][0]
    assert melee["partitions"] == [[["garde", "clone1", "clone2", "guerrier"]]]
    answer = ask(scene, "dice", ["garde"]).to_json()
    assert answer["dice"] == 4
    assert answer["opponents"] == ["clone1", "clone2", "guerrier"]
    assert answer["dice_by_figure"] == {"garde": 4, "clone1": 2, "clone2": 2, "guerrier": 2}
    assert ask(scene, "dice", ["clone2"]).to_json()["dice"] == 2


def test_garde_royal_against_guerrier_de_l_aube_two_dice_each() -> None:
    # "Chacun des deux adversaires dispose de deux dés de combat (1 + 1)."
    scene = _scene(_fig("garde", "lion", 200, 200), _fig("guerrier", "scorpion", 225, 200))
    assert ask(scene, "dice", ["garde"]).to_json()["dice"] == 2
    assert ask(scene, "dice", ["guerrier"]).to_json()["dice"] == 2


def test_initiative_seven_against_six() -> None:
    # Garde: die 3 + INI 3 = 6. Opponents: the guerrier (INI 3, better than the clones' 2)
    # rolls 2, + INI 3 + 2 for the two clones = 7. "remportent le test ... par 7 à 6."
    answer = ask(_scene(*GARDE), "initiative", ["garde"], {"die": 3, "opponent_die": 2}).to_json()
    own, them = answer["camps"]["own"], answer["camps"]["opponents"]
    assert (own["roller"], own["ini"], own["bonus"], own["total"]) == ("garde", 3, 0, 6)
    assert (them["roller"], them["ini"], them["bonus"], them["total"]) == ("guerrier", 3, 2, 7)
    assert answer["winner"] == "opponents"
    # Without dice: 3 + d6 against 5 + d6; the garde wins when his die beats theirs by 3 or
    # more: (4,1) (5,1) (5,2) (6,1) (6,2) (6,3) = 6 of 36; ties at +2: (3,1)...(6,4) = 4.
    odds = ask(_scene(*GARDE), "initiative", ["garde"]).to_json()["odds"]
    assert odds == {"win": 6, "tie": 4, "lose": 26}
    assert initiative_odds(3, 5) == odds


def test_pursuit_is_half_the_mou_rounded_up() -> None:
    assert [pursuit_distance_cm(m) for m in (10, 11, 15, 7.5)] == [5, 6, 8, 4]
    # A lone figure, MOU 15: pursuit 8 cm = 80 mm; an open table -> a disc of radius 80 mm.
    scene = _scene(_fig("loup", "wolfen", 600, 450, attrs={"mou_cm": 15}))
    answer = ask(scene, "pursuit", ["loup"]).to_json()
    assert (answer["pursuit_cm"], answer["pursuit_mm"], answer["allowance_units"]) == (8, 80, 8)
    assert answer["unit"] == "cm"
    assert answer["area_mm2"] == pytest.approx(math.pi * 80**2, rel=2e-3)
    assert answer["engaged"] == []


def test_pursuit_needs_the_mou() -> None:
    with pytest.raises(QuestionError, match="attrs.mou_cm"):
        ask(_scene(*GARDE), "pursuit", ["clone1"])


# --- measures -----------------------------------------------------------------------------


def test_distance_and_contact_are_edge_to_edge() -> None:
    # 25 mm and 40 mm bases, centres 100 mm apart: gap 100 - 12.5 - 20 = 67.5 mm = 6.75 cm.
    scene = _scene(
        _fig("a", "red", 100, 100),
        _fig("b", "blue", 200, 100, base={"shape": "round", "diameter_mm": 40}),
        _fig("c", "blue", 100, 126.5, sigma_mm=0.5),
    )
    distance = ask(scene, "distance", ["a", "b"]).to_json()
    assert distance["distance_mm"] == pytest.approx(67.5)
    assert distance["distance_units"] == pytest.approx(6.75)
    assert (distance["unit"], distance["mode"]) == ("cm", "edge")
    # a and c: gap 1.5 mm <= 2 mm: contact, margin 0.5 mm, sigma 0.5 -> not certain.
    contact = ask(scene, "contact", ["a", "c"]).to_json()
    assert contact["contact"] is True
    assert contact["gap_mm"] == pytest.approx(1.5)
    assert contact["margin_mm"] == pytest.approx(0.5)
    assert contact["certain"] is False
    tight = parse_scene(
        {
            "ruleset": "confrontation",
            "options": {"contact_tolerance_mm": 1},
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": [_fig("a", "red", 100, 100), _fig("c", "blue", 100, 126.5)],
        }
    )
    assert ask(tight, "contact", ["a", "c"]).to_json()["contact"] is False


def test_a_figure_out_of_contact_has_no_dice() -> None:
    scene = _scene(*GARDE, _fig("seul", "griffon", 900, 700, attrs={"ini": 4}))
    answer = ask(scene, "dice", ["seul"]).to_json()
    assert (answer["dice"], answer["reasons"]) == (0, ["not_in_contact"])
    assert ask(scene, "initiative", ["seul"]).to_json()["reasons"] == ["not_in_contact"]


def test_a_chosen_split_gives_its_own_dice() -> None:
    # A line b1 - r1 - b2 - r2, each touching its neighbours.
    scene = _scene(
        _fig("b1", "blue", 100, 100),
        _fig("r1", "red", 125, 100),
        _fig("b2", "blue", 150, 100),
        _fig("r2", "red", 175, 100),
    )
    melee = ask(scene, "melees", []).to_json()["melees"][0]
    # Spelled out by hand: every figure must be in one combat.
    #   b1 only touches r1, so b1 is with r1: duel b1-r1 (then b2-r2), or r1 vs b1+b2
    #   (then r2 touches only b2, taken: r2 alone -> illegal), or b2 vs r1... b2 touches r1
    #   and r2 -> b2 vs r1+r2 leaves b1 alone -> illegal.
    assert melee["partitions"] == [[["b1", "r1"], ["b2", "r2"]]]
    assert melee["proposal"]["dice"] == {"b1": 2, "r1": 2, "b2": 2, "r2": 2}
    assert ask(scene, "dice", ["r1"], {"partition": 0}).to_json()["dice"] == 2
    with pytest.raises(QuestionError, match="partition must be 0 to 0"):
        ask(scene, "dice", ["r1"], {"partition": 3})


def test_the_enumeration_is_capped() -> None:
    # Two facing ranks of 10, staggered so each figure touches two enemies: a zigzag path
    # of 20 figures; its splits are many more than 5.
    figures = []
    for k in range(10):
        figures.append(_fig(f"b{k}", "blue", 100 + 25 * k, 400))
        figures.append(_fig(f"r{k}", "red", 112.5 + 25 * k, 400 + 12.5 * math.sqrt(3)))
    melee = ask(_scene(*figures, max_partitions=5), "melees", []).to_json()["melees"][0]
    assert melee["count"] == 5 and melee["truncated"] is True
    assert melee["proposal"] is not None


# --- bounded work -----------------------------------------------------------------------


def _star(leaves: int) -> Scene:
    """One red figure touched by ``leaves`` blue figures that touch nothing else."""
    figures = [_fig("c", "red", 600, 450)]
    for k in range(leaves):
        angle = 2 * math.pi * k / leaves
        x, y = 600 + 25 * math.cos(angle), 450 + 25 * math.sin(angle)
        figures.append(_fig(f"l{k}", "blue", x, y))
    return _scene(*figures)


@pytest.mark.parametrize("leaves", [24, 60])
def test_a_star_melee_has_one_split_found_at_once(leaves: int) -> None:
    # Each leaf's only enemy is c, so every leaf is in c's combat: one split, c against
    # all (c rolls 1 + leaves dice). It took 5 s at 20 leaves, minutes at 24, when every
    # subset of c's enemies was tried.
    started = time.perf_counter()
    melee = ask(_star(leaves), "melees", []).to_json()["melees"][0]
    assert time.perf_counter() - started < 5.0
    assert melee["count"] == 1 and melee["truncated"] is False and melee["exhausted"] is False
    assert melee["partitions"] == [[["c", *(f"l{k}" for k in range(leaves))]]]
    assert melee["proposal"]["dice"]["c"] == 1 + leaves


def test_two_centres_sharing_their_enemies_are_split_within_the_cap() -> None:
    # K(2, 40): r0 and r1 both touch the 40 blue figures: each blue joins r0's or r1's
    # camp (2^40 - 2 ways, none empty), or a blue fights r0 and r1 together and the 39
    # others are left alone (no split). The listing stops at max_partitions.
    touching = [(1 << 42) - 4, (1 << 42) - 4] + [0b11] * 40
    hostile = touching
    graph = MeleeGraph(tuple(range(42)), tuple(touching), tuple(hostile))
    started = time.perf_counter()
    search = split_melee(graph, 200)
    assert time.perf_counter() - started < 5.0
    assert len(search.splits) == 200 and search.truncated and not search.exhausted


def test_a_tangled_melee_stops_on_its_budget() -> None:
    # Three sides, 40 figures, random contacts: more ways than the search may try. It
    # stops after Budget(...) camps, keeps what it found and says the listing may be short.
    from arbitre.rules.confrontation.partition import Budget

    rng = random.Random(7)
    sides = [rng.randint(0, 2) for _ in range(40)]
    touching, hostile = [0] * 40, [0] * 40
    for i in range(40):
        for j in range(40):
            if sides[i] != sides[j]:
                hostile[i] |= 1 << j
                if i < j and rng.random() < 0.3:
                    touching[i] |= 1 << j
                    touching[j] |= 1 << i
    graph = MeleeGraph(tuple(range(40)), tuple(touching), tuple(hostile))
    started = time.perf_counter()
    search = split_melee(graph, 10_000, Budget(20_000))
    assert time.perf_counter() - started < 5.0
    assert search.exhausted and search.truncated


def test_a_melee_of_more_than_300_figures_is_refused_clearly() -> None:
    # Two ranks of 160 figures, each touching the two enemies facing it: one melee of 320.
    figures = []
    for k in range(160):
        figures.append(
            _fig(f"b{k}", "blue", 5 + 7 * k, 400, base={"shape": "round", "diameter_mm": 5})
        )
        figures.append(
            _fig(f"r{k}", "red", 8.5 + 7 * k, 405, base={"shape": "round", "diameter_mm": 5})
        )
    answer = ask(_scene(*figures), "melees", []).to_json()
    (melee,) = answer["melees"]
    assert len(melee["figures"]) == 320 and melee["partitions"] == []
    assert melee["reason"] == (
        "320 figures in one melee, more than the 300 whose splits are searched: split it by hand"
    )
    dice = ask(_scene(*figures), "dice", ["b0"]).to_json()
    assert dice["message"].startswith("the melee of b0 was not split (320 figures")


def test_bad_attributes_are_scene_errors() -> None:
    with pytest.raises(SceneError, match=r"figures\[0\].attrs.mou_cm"):
        _scene(_fig("a", "red", 100, 100, attrs={"mou_cm": "fast"}))
    with pytest.raises(SceneError, match=r"figures\[0\].attrs.ini"):
        _scene(_fig("a", "red", 100, 100, attrs={"ini": 2.5}))


@pytest.mark.parametrize(
    ("attrs", "problem"),
    [
        # 100 m = 10,000 cm is the longest MOU; 1e300 overflowed the path finder.
        ({"mou_cm": 1e300}, r"mou_cm: figure 'a': expected a MOU of 1 to 10000 cm, got 1e\+300$"),
        ({"mou_cm": 10_001}, r"mou_cm: .* got 10001$"),
        # under 1 cm is no MOU: 1e-300 pursued "0 cm".
        ({"mou_cm": 1e-300}, r"mou_cm: .* got 1e-300$"),
        ({"mou_cm": 0.5}, r"mou_cm: .* got 0.5$"),
        ({"mou_cm": math.nan}, r"mou_cm: .* got nan$"),
        (
            {"ini": 10**300},
            r"ini: figure 'a': expected an INI, a whole number 0 to 100, got an int",
        ),
        ({"ini": -1}, r"ini: .* got -1$"),
    ],
)
def test_attributes_out_of_bounds_are_scene_errors(attrs: dict[str, Any], problem: str) -> None:
    with pytest.raises(SceneError, match=problem):
        _scene(_fig("a", "red", 100, 100, attrs=attrs))


def test_the_smallest_and_largest_mou_pursue() -> None:
    # MOU 1 cm: half is 0.5, rounded up 1 cm; MOU 10,000 cm: 5,000 cm.
    for mou, pursuit in ((1, 1), (10_000, 5_000)):
        scene = _scene(_fig("a", "red", 600, 450, attrs={"mou_cm": mou, "ini": 100}))
        assert ask(scene, "pursuit", ["a"]).to_json()["pursuit_cm"] == pursuit


def test_dice_of_a_split() -> None:
    assert dice_of_split([["a", "b"], ["c", "d", "e"]]) == {"a": 2, "b": 2, "c": 3, "d": 2, "e": 2}


# --- speed ---------------------------------------------------------------------------------


def _clusters_of_sixty() -> list[dict[str, Any]]:
    """60 figures in 10 melees of 6: a figure ringed by five touching ones of both sides."""
    figures = []
    for c in range(10):
        cx, cy = 100 + (c % 5) * 200, 200 + (c // 5) * 300
        figures.append(_fig(f"c{c}", "blue", cx, cy))
        for k in range(5):
            angle = 2 * math.pi * k / 6
            side = "red" if k % 2 == 0 else "blue"
            x, y = cx + 25 * math.cos(angle), cy + 25 * math.sin(angle)
            figures.append(_fig(f"c{c}_{k}", side, x, y))
    return figures


def _one_melee_of_sixty() -> list[dict[str, Any]]:
    """60 figures packed in one melee, rows alternating sides: every figure touches
    up to four enemies."""
    figures = []
    for k in range(60):
        row, col = divmod(k, 8)
        x = 100 + 25 * col + 12.5 * (row % 2)
        y = 100 + 12.5 * math.sqrt(3) * row
        figures.append(_fig(f"f{k}", "blue" if row % 2 else "red", x, y))
    return figures


def test_ten_melees_of_six_are_each_split_every_way() -> None:
    # Each ring: a blue centre touching five, red at 0, 120, 240 degrees and blue at 60,
    # 180 (the sixth place, 300, empty). (Their time is `arbitre bench rules`' business.)
    melees = ask(_scene(*_clusters_of_sixty()), "melees", []).to_json()["melees"]
    assert len(melees) == 10
    for melee in melees:
        assert len(melee["figures"]) == 6 and not melee["truncated"] and not melee["exhausted"]
        combats = melee["proposal"]["combats"]
        assert sorted(f for combat in combats for f in combat) == sorted(melee["figures"])


def test_one_melee_of_sixty_gets_a_proposal_for_every_figure() -> None:
    # Sixty figures packed in alternating rows: too many splits to list (truncated), but
    # the search finishes and proposes one split in which every figure fights once.
    (melee,) = ask(_scene(*_one_melee_of_sixty()), "melees", []).to_json()["melees"]
    assert len(melee["figures"]) == 60 and melee["truncated"] and not melee["exhausted"]
    fighting = [f for combat in melee["proposal"]["combats"] for f in combat]
    assert sorted(fighting) == sorted(melee["figures"])


@pytest.mark.parametrize("terrain_cost", ["none", "double"])
def test_a_pursuit_through_a_wood_costs_nothing_more_but_under_the_house_rule(
    terrain_cost: str,
) -> None:
    # A lone figure of MOU 10 pursues 5 cm = 50 mm, standing in a wood that covers the
    # whole table. The book gives terrain no cost: its reach is a disc of 50 mm around it,
    # pi 50^2 = 7854 mm^2 (less the few mm^2 its polygon cuts off). Under the house rule
    # every mm costs two: a disc of 25 mm, a quarter of the area.
    data = {
        "ruleset": "confrontation",
        "options": {"terrain_cost": terrain_cost},
        "table": {"width_mm": 1200, "depth_mm": 900},
        "figures": [_fig("a", "red", 600, 450, attrs={"mou_cm": 10})],
        "terrain": [
            {"id": "wood", "kind": "wood", "polygon_mm": [[0, 0], [1200, 0], [1200, 900], [0, 900]]}
        ],
    }
    answer = ask(parse_scene(data), "pursuit", ["a"]).to_json()
    disc_mm2 = math.pi * 50.0**2
    if terrain_cost == "none":
        assert answer["area_mm2"] == pytest.approx(disc_mm2, rel=0.01)
        assert answer["warnings"] == []
    else:
        assert answer["area_mm2"] == pytest.approx(disc_mm2 / 4, rel=0.01)
        assert [c["code"] for c in answer["warning_codes"]] == ["house_rule_terrain_cost"]
    assert answer["pursuit_mm"] == 50.0
