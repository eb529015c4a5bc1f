"""The Ruleset base: questions asked by name, malformed ones refused in one line, and
the arguments read strictly (arbitre.rules.ruleset)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pydantic
import pytest

from arbitre.rules.answers import Answer, Margin, Unit, counted
from arbitre.rules.errors import QuestionError, SceneError, UnknownName
from arbitre.rules.lazy import deferred_module
from arbitre.rules.model import Figure, Scene, Table
from arbitre.rules.options import Die
from arbitre.rules.ruleset import (
    Gap,
    Measure,
    MeasuringRuleset,
    Question,
    check_attr_flags,
    check_attr_number,
    coordinate_mm,
    figure_named,
    scene_options,
    unknown_figure_or_group,
    whole_number,
)
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


# --- distance and contact, answered once for the rule systems that measure --------------


def _roll(scene: Scene, a: str, *, die: Die = 1) -> Answer:
    return Answer("roll", f"{a} rolled {die}")


class RulerOptions(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    unit_mm: float = 100.0


class Ruler(MeasuringRuleset):
    """Centres measured in M of 100 mm; 25 mm round bases touch up to 2 mm apart."""

    name = "ruler"
    options_model = RulerOptions

    def unit(self, scene: Scene) -> Unit:
        return Unit("M", 100.0)

    def questions(self) -> dict[str, Question]:
        return {
            "distance": Question("distance", ("A", "B"), "how far", self.distance),
            "contact": Question("contact", ("A", "B"), "touching?", self.contact),
            "roll": Question("roll", ("A",), "a die", _roll),
        }

    def measure(self, scene: Scene, a: str, b: str) -> Measure:
        first, second = figure_named(scene, a), figure_named(scene, b)
        return Measure(first, second, math.dist(first.xy, second.xy), "centre")

    def gap(self, scene: Scene, a: str, b: str) -> Gap:
        measured = self.measure(scene, a, b)
        return Gap(measured.first, measured.second, measured.mm - 25.0, 2.0)


class Under(Ruler):
    contact_up_to = False


def _pair(apart_mm: float, sigma_mm: float = 0.0) -> Scene:
    figures = (
        Figure("a", "blue", 100.0, 100.0, sigma_mm=sigma_mm),
        Figure("b", "red", 100.0 + apart_mm, 100.0, sigma_mm=sigma_mm),
    )
    return Scene("ruler", None, Table(1200.0, 900.0), figures)


def test_a_distance_in_the_unit_with_its_uncertainty() -> None:
    # (0, 0) to (300, 400): 500 mm = 5 M; 0.3 mm each, independent: ± 0.42 mm.
    scene = Scene(
        "ruler",
        None,
        Table(1200.0, 900.0),
        (Figure("a", "blue", 0, 0, sigma_mm=0.3), Figure("b", "red", 300, 400, sigma_mm=0.3)),
    )
    answer = Ruler().ask(scene, "distance", ["a", "b"])
    assert answer.message == "a to b: 5.00 M (500.0 mm, centre) ± 0.4 mm"
    data = answer.to_json()
    assert (data["distance_units"], data["unit"], data["mode"]) == (5.0, "M", "centre")
    assert data["sigma_mm"] == pytest.approx(0.424, abs=1e-3)
    assert Ruler().ask(_pair(50.0), "distance", ["a", "b"]).message == (
        "a to b: 0.50 M (50.0 mm, centre)"
    )


def test_contact_exactly_at_the_threshold_is_up_to_or_under() -> None:
    # Centres 27 mm apart: a gap of 27 - 25 = 2 mm, the threshold itself.
    up_to = Ruler().ask(_pair(27.0), "contact", ["a", "b"])
    under = Under().ask(_pair(27.0), "contact", ["a", "b"])
    assert up_to.message == "a and b are in contact: gap 2.0 mm (contact up to 2 mm)"
    assert under.message == "a and b are not in contact: gap 2.0 mm (contact under 2 mm)"
    assert up_to.to_json()["contact"] is True and under.to_json()["contact"] is False


def test_overlapping_bases_are_in_contact_by_a_negative_gap() -> None:
    # Centres 20 mm apart: the bases overlap by 5 mm; 7 mm from the threshold.
    data = Ruler().ask(_pair(20.0), "contact", ["a", "b"]).to_json()
    assert data["message"] == "a and b are in contact: overlapping by 5.0 mm (contact up to 2 mm)"
    assert (data["gap_mm"], data["margin_mm"], data["certain"]) == (-5.0, 7.0, True)


def test_a_contact_within_its_uncertainty_is_too_close_to_call() -> None:
    # Gap 1.8 mm, 0.2 mm from the threshold; 0.3 mm each: ± 0.42, 0.2 < 2 x 0.42.
    answer = Ruler().ask(_pair(26.8, sigma_mm=0.3), "contact", ["a", "b"])
    assert answer.message.startswith("too close to call: a and b are in contact: gap 1.8 mm")
    assert answer.to_json()["certain"] is False


def test_a_gap_measured_across_bases_gives_its_own_sigma() -> None:
    a, b = Figure("a", "x", 0, 0, sigma_mm=3.0), Figure("b", "x", 10, 0, sigma_mm=4.0)
    assert Gap(a, b, 1.0, 2.0).margin() == Margin("contact", 1.0, 5.0)  # 3-4-5
    assert Gap(a, b, 3.5, 2.0, sigma_mm=0.1).margin() == Margin("contact", 1.5, 0.1)


def test_an_unknown_question_or_a_wrong_count_of_arguments_is_refused() -> None:
    scene = _pair(50.0)
    with pytest.raises(QuestionError) as unknown:
        Ruler().ask(scene, "fly", [])
    assert str(unknown.value) == "unknown question 'fly' for ruler (known: contact, distance, roll)"
    assert unknown.value.code == "unknown_question"
    with pytest.raises(QuestionError) as count:
        Ruler().ask(scene, "distance", ["a"])
    assert str(count.value) == "distance takes 2 arguments (A B), got ['a']"
    assert count.value.code == "argument_count"
    with pytest.raises(UnknownName, match="unknown figure 'c'"):
        Ruler().ask(scene, "distance", ["a", "c"])


def test_options_are_bound_to_the_handler_s_typed_parameters() -> None:
    scene = _pair(50.0)
    assert Ruler().ask(scene, "roll", ["a"]).message == "a rolled 1"  # the default
    assert Ruler().ask(scene, "roll", ["a"], {"die": 4}).message == "a rolled 4"
    with pytest.raises(QuestionError, match=r"^a die shows 1 to 6, got 7 \(option die of roll\)$"):
        Ruler().ask(scene, "roll", ["a"], {"die": 7})


def test_a_question_may_name_its_handler_before_its_module_is_loaded() -> None:
    deferred = Question("count", ("N",), "", deferred_module("arbitre.rules.answers").counted)
    assert deferred.handler is counted
    assert Question("roll", ("A",), "", _roll).handler is _roll


def test_a_scene_s_options_are_validated_by_the_model() -> None:
    assert Ruler().parse_options({"unit_mm": 50}).unit_mm == 50.0
    with pytest.raises(pydantic.ValidationError):
        Ruler().parse_options({"unit": 50})
    assert Ruler().validate(_pair(50.0)) is None and Ruler().grid(_pair(50.0)) is None
    with pytest.raises(TypeError, match="expected RulerOptions options, got NoneType"):
        scene_options(_pair(50.0), RulerOptions)


def test_a_figure_s_numbers_and_flags_are_checked() -> None:
    scene = _pair(50.0)
    figure = scene.figures[0]

    def number(value: object, whole: bool = False) -> None:
        check_attr_number(scene, figure, "attrs.pace", value, 1, 6, "1 to 6", whole=whole)

    number(1)
    number(6.0)
    for bad in (0, 6.5, True, "3", None):
        with pytest.raises(SceneError, match=r"attrs\.pace: figure 'a': expected 1 to 6, got "):
            number(bad)
    with pytest.raises(SceneError, match="got 3.0"):
        number(3.0, whole=True)
    flagged = Figure("f", "blue", 0, 0, attrs={"brave": True, "shy": "no"})
    check_attr_flags(scene, 0, flagged, ["brave", "absent"])
    with pytest.raises(SceneError, match=r"figures\[4\]\.attrs\.shy: figure 'f': expected true"):
        check_attr_flags(scene, 4, flagged, ["brave", "shy"])


def test_an_unknown_figure_or_group_names_the_nearest_of_both() -> None:
    @dataclass(frozen=True)
    class Named:
        name: str

    error = unknown_figure_or_group(_pair(50.0), [Named("alpha")], "alpah")
    assert str(error) == "unknown figure or group 'alpah' (did you mean 'alpha'?)"
