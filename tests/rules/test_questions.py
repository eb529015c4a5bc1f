"""One entry point for every question (arbitre.rules.questions)."""

from __future__ import annotations

import dataclasses

import pytest

from arbitre.rules.errors import UnsupportedRuleset
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset
from tests.rules.small_scenes import CB6


def test_a_question_is_answered_by_the_scene_s_rule_system() -> None:
    # CB6's A (a1 at (300, 300)) and B (b1 at (500, 300)): the same answer as the rule
    # system's own, with its options bound (die 6 of impact).
    for question, args, extras in (
        ("distance", ["A", "B"], None),
        ("impact", ["A", "B"], {"die": 6}),
    ):
        asked = ask(CB6, question, args, extras).to_json()
        assert asked == find_ruleset("cb6").ask(CB6, question, args, extras).to_json()
        assert asked["question"] == question


def test_a_no_from_the_rules_is_an_answer() -> None:
    # An unwounded figure of Choc Base 6 has PA 2: 2 M of 100 mm. 100 mm straight up is
    # within it; 600 mm to the right is not (and is no error either).
    near = ask(CB6, "move", ["A", "300", "400"]).to_json()
    assert (near["legal"], near["cost_mm"]) == (True, 100.0)
    far = ask(CB6, "move", ["A", "900", "300"]).to_json()
    assert (far["legal"], far["reasons"]) == (False, ["over_allowance"])


def test_a_scene_of_an_unknown_rule_system_is_refused() -> None:
    chess = dataclasses.replace(CB6, ruleset="chess")
    with pytest.raises(UnsupportedRuleset, match="unsupported ruleset: 'chess'"):
        ask(chess, "distance", ["A", "B"])
