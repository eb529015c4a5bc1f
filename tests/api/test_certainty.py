"""End to end, no answer is confidently wrong: rendered figures near each rule's threshold.

Four questions -- Choc Base 6 contact (twice the thickness, 50 mm between the heads)
and range (3 M), a Smooth & Rifled band edge, a Choc Base 6 move allowance -- are asked
of the live chain on tables rendered with the measured figure 1 mm and 3 mm on either
side of where the answer flips (found on the true positions). Every answer is right or
too close to call; 3 mm from the threshold the chain is sure of itself.
"""

from __future__ import annotations

import pytest

from arbitre.api.bench.certainty import CASES, Outcome, outcomes, threshold_mm


@pytest.fixture(scope="module")
def found() -> list[Outcome]:
    return list(outcomes((-3.0, -1.0, 1.0, 3.0)))


def test_the_thresholds_are_where_the_books_put_them() -> None:
    # Choc Base 6: contact under twice the thickness (2 x 25 mm), fire up to 3 M of 100 mm;
    # Smooth & Rifled: a musket's medium range 30 cm edge to edge, plus the two base
    # radii (12.5 mm each) centre to centre; a Choc Base 6 move of 2 PA x 1 M = 200 mm.
    expected = [50.0, 300.0, 325.0, 200.0]
    assert [round(threshold_mm(case), 2) for case in CASES] == pytest.approx(expected, abs=0.01)


def test_no_answer_is_confidently_wrong(found: list[Outcome]) -> None:
    assert len(found) == 4 * len(CASES)
    wrong = [o for o in found if o.kind == "wrong"]
    assert wrong == []


def test_three_millimetres_from_a_threshold_the_answer_is_sure(found: list[Outcome]) -> None:
    far = [o for o in found if abs(o.offset_mm) == 3.0]
    assert sum(o.certain for o in far) >= 0.75 * len(far)
