"""The Ruleset base: questions asked by name, malformed ones refused in one line, and
the arguments read strictly (arbitre.rules.ruleset)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.ruleset import coordinate_mm, whole_number
from tests.rules.small_scenes import CB6, refusal


@pytest.mark.parametrize(
    ("question", "args", "extras", "says"),
    [
        (3, [], None, "a question is a name, got 3"),
        (["fire"], [], None, "a question is a name, got ['fire']"),
        ("distance", "A B", None, "distance's arguments are words, got 'A B'"),
        ("distance", ["A", 3], None, "distance's arguments are words, got ['A', 3]"),
        ("distance", ["A", "B" * 1000], None, "B is 1,000 characters long"),
        ("groups", [], [("die", 3)], "a question's options are KEY: VALUE pairs"),
        ("groups", [], {3: 3}, "groups does not take 3"),
    ],
)
def test_malformed_questions_are_one_line(question: Any, args: Any, extras: Any, says: str) -> None:
    assert refusal(CB6, question, args, extras).startswith(says)


# --- arguments --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "mm"), [("500", 500.0), ("12.5", 12.5), ("-3", -3.0), (".5", 0.5)]
)
def test_coordinates_are_plain_decimals(text: str, mm: float) -> None:
    assert coordinate_mm(text, "X") == mm


@pytest.mark.parametrize("text", ["5_00", "1e3", "nan", "inf", "0x10", "", "1" * 50, "½", "١٢"])
def test_other_spellings_of_numbers_are_refused(text: str) -> None:
    with pytest.raises(QuestionError, match=r"^X must be a number of millimetres, got "):
        coordinate_mm(text, "X")


def test_move_reads_5_00_as_an_error_not_500() -> None:
    message = refusal(CB6, "move", ["A", "5_00", "300"], {})
    assert message == "X must be a number of millimetres, got '5_00' (plain digits: 12.5)"


def test_a_coordinate_far_off_the_table_is_refused() -> None:
    with pytest.raises(QuestionError, match="within 1,000,000 mm"):
        coordinate_mm("2000000", "Y")


def test_whole_numbers() -> None:
    assert whole_number("+12", "F") == 12
    with pytest.raises(QuestionError, match="F must be a whole number like 3, got '1_2'"):
        whole_number("1_2", "F")
