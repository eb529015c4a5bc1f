"""rules/confrontation/passes.py: the passes of arms of a combat once its dice are placed."""

from __future__ import annotations

import pytest

from arbitre.rules.confrontation.passes import passes_of
from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from tests.rules.confrontation.scenes import GARDE, fig, scene_of


def _attackers(passes: list[list[dict[str, object]]]) -> list[list[tuple[object, object]]]:
    return [[(a["attacker"], a["attacks"]) for a in one] for one in passes]


def test_a_duel_is_one_attack_a_pass_each_until_no_attack_die_is_left() -> None:
    # "même s'il lui reste plusieurs dés d'attaque, un combattant ne peut effectuer qu'une
    # seule attaque par passe d'armes dans un duel": 3 against 1 attack dice, 3 passes.
    passes = passes_of(["a", "b"], {"a": 3, "b": 1}, first=["b"])
    assert _attackers(passes) == [[("b", 1), ("a", 1)], [("a", 1)], [("a", 1)]]


def test_the_lone_figure_attacks_each_opponent_once_a_pass() -> None:
    # 5 attack dice against 2 opponents: 2, 2, then 1 chosen by its player; the two
    # opponents, 1 attack die each, attack in the first pass only.
    passes = passes_of(["lone", "x", "y"], {"lone": 5, "x": 1, "y": 1})
    assert _attackers(passes) == [[("lone", 2), ("x", 1), ("y", 1)], [("lone", 2)], [("lone", 1)]]
    assert [a["choose"] for a in passes[2]] == [True]
    # With no attack die at all there is no pass ("Les dés de défense inutilisés sont
    # perdus").
    assert passes_of(["lone", "x"], {"lone": 0, "x": 0}) == []


def test_the_dice_placed_must_be_the_fighters_own() -> None:
    scene = scene_of(*GARDE)
    with pytest.raises(QuestionError, match="'garde' has 4 combat dice, got 5"):
        ask(scene, "passes", ["garde"], {"attack": {"garde": 5}})
    with pytest.raises(QuestionError, match="'loup' is not in this combat"):
        ask(scene, "passes", ["garde"], {"attack": {"loup": 1}})
    with pytest.raises(QuestionError, match="option attack of passes"):
        ask(scene, "passes", ["garde"], {"attack": {"garde": "three"}})


def test_a_figure_touching_no_enemy_has_no_passes() -> None:
    scene = scene_of(*GARDE, fig("seul", "griffon", 900, 700))
    answer = ask(scene, "passes", ["seul"]).to_json()
    assert (answer["count"], answer["passes"], answer["reasons"]) == (0, [], ["not_in_contact"])


def test_the_words_say_what_the_answer_holds() -> None:
    scene = scene_of(*GARDE)
    # Without attack, every die attacks and the warning says so in the text too.
    answer = ask(scene, "passes", ["garde"])
    assert answer.message.endswith(
        "\nwarning: every combat die counted as an attack die: give attack (each fighter's "
        "attack dice) once they are placed"
    )
    # Without first, no camp is put first: each pass shows the two camps apart.
    assert answer.message.splitlines()[1] == (
        "pass 1: garde on clone1 + clone2 + guerrier | clone1 on garde, clone2 on garde, "
        "guerrier on garde"
    )
    # The camp that won the initiative first: its lines lead.
    led = ask(scene, "passes", ["garde"], {"first": "opponents"})
    assert led.message.splitlines()[1].startswith("pass 1: clone1 on garde, clone2 on garde")
