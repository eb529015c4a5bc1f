"""rules/confrontation/combats.py: the combat dice and the initiative of a figure's combat,
with the book's examples."""

from __future__ import annotations

import pytest

from arbitre.rules.confrontation import initiative_odds
from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from tests.rules.confrontation.scenes import GARDE, fig, scene_of


def test_garde_pretorien_rolls_four_dice() -> None:
    # "Le garde prétorien dispose de quatre dés de combat (1 + 3). Les clones et le guerrier
    # de l'aube disposent chacun de deux dés de combat (1 + 1)."
    scene = scene_of(*GARDE)
    melee = ask(scene, "melees", []).to_json()["melees"][0]
    assert melee["partitions"] == [[["garde", "clone1", "clone2", "guerrier"]]]
    answer = ask(scene, "dice", ["garde"]).to_json()
    assert answer["dice"] == 4
    assert answer["opponents"] == ["clone1", "clone2", "guerrier"]
    assert answer["dice_by_figure"] == {"garde": 4, "clone1": 2, "clone2": 2, "guerrier": 2}
    assert ask(scene, "dice", ["clone2"]).to_json()["dice"] == 2


def test_garde_royal_against_guerrier_de_l_aube_two_dice_each() -> None:
    # "Chacun des deux adversaires dispose de deux dés de combat (1 + 1)."
    scene = scene_of(fig("garde", "lion", 200, 200), fig("guerrier", "scorpion", 225, 200))
    assert ask(scene, "dice", ["garde"]).to_json()["dice"] == 2
    assert ask(scene, "dice", ["guerrier"]).to_json()["dice"] == 2


def test_initiative_seven_against_six() -> None:
    # Garde: die 3 + INI 3 = 6. Opponents: the guerrier (INI 3, better than the clones' 2)
    # rolls 2, + INI 3 + 2 for the two clones = 7. "remportent le test ... par 7 à 6."
    answer = ask(scene_of(*GARDE), "initiative", ["garde"], {"die": 3, "opponent_die": 2}).to_json()
    own, them = answer["camps"]["own"], answer["camps"]["opponents"]
    assert (own["roller"], own["ini"], own["bonus"], own["total"]) == ("garde", 3, 0, 6)
    assert (them["roller"], them["ini"], them["bonus"], them["total"]) == ("guerrier", 3, 2, 7)
    assert answer["winner"] == "opponents"
    # Without dice: 3 + d6 against 5 + d6; the garde wins when his die beats theirs by 3 or
    # more: (4,1) (5,1) (5,2) (6,1) (6,2) (6,3) = 6 of 36; ties at +2: (3,1)...(6,4) = 4.
    odds = ask(scene_of(*GARDE), "initiative", ["garde"]).to_json()["odds"]
    assert odds == {"win": 6, "tie": 4, "lose": 26}
    assert initiative_odds(3, 5) == odds


def test_a_figure_out_of_contact_has_no_dice() -> None:
    scene = scene_of(*GARDE, fig("seul", "griffon", 900, 700, attrs={"ini": 4}))
    answer = ask(scene, "dice", ["seul"]).to_json()
    assert (answer["dice"], answer["reasons"]) == (0, ["not_in_contact"])
    assert ask(scene, "initiative", ["seul"]).to_json()["reasons"] == ["not_in_contact"]


def test_a_chosen_split_gives_its_own_dice() -> None:
    # A line b1 - r1 - b2 - r2, each touching its neighbours.
    scene = scene_of(
        fig("b1", "blue", 100, 100),
        fig("r1", "red", 125, 100),
        fig("b2", "blue", 150, 100),
        fig("r2", "red", 175, 100),
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
