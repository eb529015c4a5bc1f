"""Answers: units, margins and certainty, the words of an answer and its JSON
(arbitre.rules.answers)."""

from __future__ import annotations

import math
import pickle

import pytest

from arbitre.rules.answers import (
    Answer,
    Checked,
    ContactAnswer,
    DistanceAnswer,
    GroupsAnswer,
    Margin,
    Reason,
    Said,
    Unit,
    allowance_verdict,
    at_most,
    combined_sigma,
    counted,
    deciding,
    in_units,
    least_sure,
    refusing,
    with_certainty,
)


def test_a_unit_converts_both_ways() -> None:
    pace = Unit("pas", 25.4)
    assert pace.to_mm(10) == pytest.approx(254.0)
    assert pace.from_mm(pace.to_mm(7.25)) == pytest.approx(7.25)


def test_a_margin_is_certain_from_twice_its_sigma_either_side() -> None:
    assert Margin("range", 1.0, 0.5).certain  # exactly 2 sigma
    assert Margin("range", -1.0, 0.5).certain  # a margin against the answer alike
    assert not Margin("range", 0.99, 0.5).certain
    assert Margin("range", 0.0).certain  # nothing uncertain: 0 >= 0


def test_the_deciding_margin_is_the_nearest_to_flipping() -> None:
    # |margin| - 2 sigma: range 10 - 2 = 8, line 5 - 0 = 5, contact -3 -> 3 - 1 = 2.
    margins = [Margin("range", 10.0, 1.0), Margin("line", 5.0), Margin("contact", -3.0, 0.5)]
    assert deciding(margins) == Margin("contact", -3.0, 0.5)
    assert least_sure(margins) == (Margin("contact", -3.0, 0.5),)
    assert deciding([]) is None and least_sure([]) == ()


def test_a_refusal_on_two_measured_reasons_rests_on_the_surer() -> None:
    # Out of range by 40 mm and the line blocked by 5 mm: either refuses alone, so the
    # refusal is as sure as its surer margin, the range's (40 - 4 = 36 > 5 - 4 = 1).
    checks = {Reason.OUT_OF_RANGE: "range", Reason.LINE_BLOCKED: "line"}
    margins = [Margin("range", -40.0, 2.0), Margin("line", -5.0, 2.0)]
    assert refusing(margins, [Reason.OUT_OF_RANGE, Reason.LINE_BLOCKED], checks) == (margins[0],)
    assert refusing(margins, [], checks) == ()  # no refusal, no margin
    # a margin named by its start: "contact a-" covers "contact a-b"
    near = [Margin("contact a-b", 1.0)]
    assert refusing(near, [Reason.NOT_IN_CONTACT], {Reason.NOT_IN_CONTACT: "contact a-"}) == (
        near[0],
    )


def test_only_doubtful_margins_make_an_answer_too_close_to_call() -> None:
    assert with_certainty("in range", Margin("range", 5.0, 1.0)) == "in range"
    text = with_certainty(
        "in contact", Margin("a", 0.5, 0.4), Margin("b", 9.0), Margin("c", -0.2, 1)
    )
    assert text == (
        "too close to call: in contact (a within 0.5 mm (± 0.4), c within -0.2 mm (± 1.0))"
    )


def test_counts_and_units_take_their_plural_unless_exactly_one() -> None:
    assert counted(2, "figure") == "2 figures" and counted(1, "figure") == "1 figure"
    assert counted(2, "ally", "allies") == "2 allies"
    # "1.00" is not "1": written with two decimals, one pace is plural in English.
    assert in_units(1, "pas") == "1.00 paces"
    assert in_units(1, "graduation", "g") == "1 graduation"
    assert in_units(2.5, "cm", ".1f") == "2.5 cm"


def test_equal_on_paper_is_within_a_limit() -> None:
    # 0.1 + 0.2 is 0.30000000000000004 once computed: at most 0.3 all the same.
    assert 0.1 + 0.2 > 0.3 and at_most(0.1 + 0.2, 0.3)
    assert not at_most(0.3001, 0.3)


def test_the_verdict_of_an_allowance() -> None:
    def never() -> float:
        raise AssertionError("the straight way is measured only when something blocks")

    assert allowance_verdict(False, math.inf, True, 200.0, never) is Reason.PATH_BLOCKED
    assert allowance_verdict(True, 150.0, False, 200.0, never) is None
    assert allowance_verdict(True, 250.0, False, 200.0, never) is Reason.OVER_ALLOWANCE


def test_independent_errors_add_in_squares() -> None:
    assert combined_sigma(0.3, 0.4) == pytest.approx(0.5)
    assert combined_sigma() == 0.0


def test_a_said_sentence_keeps_its_code_and_words_through_pickling() -> None:
    note = Said("beyond", "beyond {units} {unit}", units=3, unit="M")
    again = pickle.loads(pickle.dumps(note))
    assert (again, again.code, again.params) == (
        "beyond 3 M",
        "beyond",
        {"units": "3", "unit": "M"},
    )
    assert isinstance(again, Said)


def test_an_answer_in_json_rounds_to_the_micrometre() -> None:
    answer = DistanceAnswer(
        "distance", "a to b", a="a", b="b", distance_mm=123.45678, distance_units=math.inf
    )
    data = answer.to_json()
    assert data["distance_mm"] == 123.457
    assert data["distance_units"] is None  # no infinity in JSON
    assert data["question"] == "distance" and data["message"] == "a to b"
    assert "warning_codes" not in data


def test_a_checked_answer_gives_its_deciding_margin_and_certainty() -> None:
    answer = ContactAnswer(
        "contact", "a and b", margins=(Margin("contact", 0.3, 0.2), Margin("x", 8.0))
    )
    data = answer.to_json()
    # 0.3 - 0.4 = -0.1 decides (8 - 0 does not); 0.3 < 2 x 0.2, so not certain.
    assert data["margin_mm"] == 0.3 and data["certain"] is False
    assert data["margins"][0] == {
        "what": "contact",
        "margin_mm": 0.3,
        "sigma_mm": 0.2,
        "certain": False,
    }
    assert Checked("q", "m").to_json()["margin_mm"] is None


def test_warnings_say_their_code_when_another_language_can_word_them() -> None:
    said = Said("alone", "{who} stands alone", who="b1")
    answer = GroupsAnswer(
        "groups", "two groups", groups={"A": ["a1"]}, warnings=(said, "only in English")
    )
    data = answer.to_json()
    assert data["warnings"] == ["b1 stands alone", "only in English"]
    assert data["warning_codes"] == [{"code": "alone", "params": {"who": "b1"}}, None]
    assert data["groups"] == {"A": ["a1"]}


def test_an_answer_of_a_type_json_cannot_hold_is_refused() -> None:
    assert Answer("q", "m").to_json() == {"question": "q", "message": "m"}
    with pytest.raises(TypeError, match="cannot turn object into JSON"):
        DistanceAnswer("distance", "m", a=object()).to_json()  # type: ignore[arg-type]
