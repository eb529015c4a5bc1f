"""The typed layer of question options: every option declared, checked strictly, one line
(arbitre.rules.options)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arbitre.rules.choc_base_6.grid_questions import GRID
from arbitre.rules.options import options_table, question_options
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset, ruleset_names
from tests.rules.small_scenes import CB6, figure_data, refusal, scene_of

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
DOC_PAGES = {
    "choc-base-6": "choc-base-6.md",
    "confrontation": "confrontation.md",
    "mbt": "mbt.md",
    "musg": "musg.md",
    "smooth-and-rifled": "smooth-and-rifled.md",
}


# --- the examples ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("abc", "'abc'"),
        (3.5, "3.5"),
        (3.0, "3.0"),  # a die is a whole number: 3.0 is refused like 3.5
        (True, "true"),  # shown as the user wrote it
        (0, "0"),
        (7, "7"),
        ([1], "[1]"),
        pytest.param(10**5000, "an integer of about 5001 digits", id="10**5000"),
    ],
)
def test_a_die_is_an_integer_from_1_to_6(value: Any, said: str) -> None:
    message = refusal(CB6, "impact", ["A", "B"], {"die": value})
    assert message == f"a die shows 1 to 6, got {said} (option die of impact)"


def test_a_good_die_still_answers() -> None:
    # A shoots B at 2 M (200 mm, unit 100 mm): a1 is TD, PI 2; die 1 -> impact 2 - 1 = 1.
    answer = ask(CB6, "impact", ["A", "B"], {"die": 1}).to_json()
    assert (answer["pi"], answer["impact"]) == (2, 1)


def test_a_bonus_of_nan_is_refused() -> None:
    message = refusal(CB6, "impact", ["A", "B"], {"bonus": float("nan")})
    assert message == "a whole number -100 to 100, got nan (option bonus of impact)"


@pytest.mark.parametrize(
    ("value", "said"),
    [(1, "1"), (0, "0"), ("yes", "'yes'"), ("true", "'true'"), (None, "null"), ([True], "[True]")],
)
def test_a_flag_is_true_or_false_only(value: Any, said: str) -> None:
    mbt = scene_of(
        "mbt",
        figure_data("G1", "blue", 300, 300, type="infantry", base=_rect()),
        figure_data("R1", "red", 800, 600, type="infantry", base=_rect()),
    )
    message = refusal(mbt, "move", ["G1", "300", "330"], {"as_group": value})
    assert message == f"only true or false, got {said} (option as_group of move)"


def _rect() -> dict[str, Any]:
    return {"shape": "rect", "width_mm": 40, "depth_mm": 20}


def test_a_choice_names_its_choices() -> None:
    message = refusal(CB6, "impact", ["A", "B"], {"action": "charge"})
    assert message == "one of fire, close, got 'charge' (option action of impact)"


def test_an_unknown_option_names_the_ones_taken() -> None:
    message = refusal(CB6, "impact", ["A", "B"], {"colour": "red"})
    assert message == "impact does not take colour (it takes: action, die, bonus, bonus_to)"
    assert refusal(CB6, "groups", [], {"die": 3}) == (
        "groups does not take die (it takes no options)"
    )


# --- every option is declared, and documented -------------------------------------------


def _rulesets() -> list[Any]:
    return [find_ruleset(name) for name in ruleset_names()] + [GRID]


def test_every_question_declares_its_options_with_a_type() -> None:
    for ruleset in _rulesets():
        for question in ruleset.questions().values():
            question_options(question.handler)  # raises TypeError on an untyped option


@pytest.mark.parametrize("ruleset", sorted(DOC_PAGES))
def test_each_rule_systems_page_lists_its_question_options(ruleset: str) -> None:
    questions = find_ruleset(ruleset).questions()
    table = options_table((name, q.handler) for name, q in sorted(questions.items()))
    page = (DOCS / DOC_PAGES[ruleset]).read_text(encoding="utf-8")
    assert table in page, f"docs/rules/{DOC_PAGES[ruleset]} lacks:\n{table}"
