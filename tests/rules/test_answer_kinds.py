"""The answers of fire, moves, reach, impacts and potentials (arbitre.rules.answer_kinds)."""

from __future__ import annotations

from dataclasses import dataclass

import shapely

from arbitre.rules.answer_kinds import (
    FireAnswer,
    ImpactAnswer,
    MoveAnswer,
    ReachAnswer,
    reach_answer_of,
)
from arbitre.rules.answers import Margin, Reason


def test_a_reach_answer_measures_its_area_and_says_it() -> None:
    # Two squares of 100 x 50 mm, apart: 2 areas of 2 x 5000 mm² = 100 cm².
    area = shapely.union(shapely.box(0, 0, 100, 50), shapely.box(300, 0, 400, 50))
    answer = reach_answer_of(
        ReachAnswer, "a1", area, (200.0, 2.0, "M"), within="within 2 M", warnings=("w",)
    )
    assert answer.area_mm2 == 10_000.0 and len(answer.polygons_mm) == 2
    assert answer.message == "a1 may move anywhere in 2 areas of 100 cm² within 2 M\nwarning: w"
    data = answer.to_json()
    assert (data["question"], data["allowance_mm"], data["allowance_units"], data["unit"]) == (
        "reach",
        200.0,
        2.0,
        "M",
    )


def test_a_reach_answer_of_no_area_says_no_place_is_free() -> None:
    answer = reach_answer_of(
        ReachAnswer, "a1", shapely.Polygon(), (0.0, 0.0, "M"), verb="charge", within="within 0 M"
    )
    assert answer.area_mm2 == 0.0 and answer.polygons_mm == ()
    assert (
        answer.message == "a1 may not charge anywhere within 0 M: no place it could reach is free"
    )


def test_a_reach_answer_of_a_rule_system_s_own_kind_takes_its_fields() -> None:
    @dataclass(frozen=True, slots=True)
    class RunAnswer(ReachAnswer):
        mode: str = ""

    answer = reach_answer_of(
        RunAnswer,
        "m",
        shapely.box(0, 0, 10, 10),
        (50.8, 2.0, "pas"),
        within="within 2 pas",
        mode="run",
    )
    assert isinstance(answer, RunAnswer) and answer.mode == "run"
    assert answer.to_json()["mode"] == "run"


def test_a_refused_shot_gives_its_reasons_as_codes() -> None:
    answer = FireAnswer(
        "fire",
        "a may not fire at b",
        margins=(Margin("range", -12.5, 1.0),),
        shooter="a",
        target="b",
        reasons=(Reason.OUT_OF_RANGE, Reason.LINE_BLOCKED),
        blocked_by=("wood1",),
    )
    data = answer.to_json()
    assert data["reasons"] == ["out_of_range", "line_blocked"]
    assert data["blocked_by"] == ["wood1"]
    assert (data["margin_mm"], data["certain"]) == (-12.5, True)  # 12.5 >= 2 x 1


def test_a_move_gives_its_path_as_lists() -> None:
    answer = MoveAnswer("move", "m", legal=True, path_mm=((0.0, 0.0), (30.0001234, 40.0)))
    assert answer.to_json()["path_mm"] == [[0.0, 0.0], [30.0, 40.0]]


def test_an_impact_s_distribution_keys_become_text() -> None:
    # JSON keys are text: a die's faces 1..6 as "1".."6".
    answer = ImpactAnswer("impact", "m", distribution={1: 2, 6: 1})
    assert answer.to_json()["distribution"] == {"1": 2, "6": 1}
