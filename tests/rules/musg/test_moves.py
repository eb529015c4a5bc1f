"""M.U.S.G. moves: walk, run, charge and reach (``move``, ``run``, ``charge``, ``reach``)."""

from __future__ import annotations

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.questions import ask
from tests.rules.musg.scenes import musg_scene, walkers


def test_the_longest_move_still_answers() -> None:
    # move_pas 4000 x 25 mm = 100 m: a walk across the 1.2 m table is well within it.
    scene = musg_scene(
        [{"id": "x", "side": "a", "x_mm": 100, "y_mm": 100, "attrs": {"move_pas": 4000}}]
    )
    answer = ask(scene, "move", ["x", "1100", "800"]).to_json()
    assert answer["legal"] is True and answer["allowance_mm"] == 100_000


def test_a_move_needs_move_pas() -> None:
    scene = musg_scene([{"id": "x", "side": "a", "x_mm": 100, "y_mm": 100}])
    with pytest.raises(QuestionError, match="attrs.move_pas"):
        ask(scene, "move", ["x", "120", "100"])


def test_a_cut_way_never_costs_more_than_its_budget() -> None:
    import numpy as np
    import shapely
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from arbitre.rules import pathing
    from arbitre.rules.musg.moves import cut_path
    from arbitre.rules.terrain import straight_cost_mm

    bog = pathing.CostlyRegion(shapely.box(40, 0, 80, 100), 2.0, "bog")
    field = pathing.Field(200, 200, costly=(bog,))
    coordinate = st.floats(0, 200, allow_nan=False)

    @settings(max_examples=60, deadline=None)
    @given(
        st.lists(st.tuples(coordinate, coordinate), min_size=2, max_size=5),
        st.floats(0, 300, allow_nan=False),
    )
    def check(points: list[tuple[float, float]], budget: float) -> None:
        way = np.asarray(points, dtype=np.float64)
        cut = cut_path(field, way, budget)
        spent = sum(straight_cost_mm(field, p, q) for p, q in zip(cut[:-1], cut[1:], strict=True))
        whole = sum(straight_cost_mm(field, p, q) for p, q in zip(way[:-1], way[1:], strict=True))
        assert spent <= budget + 1e-6
        assert spent >= min(budget, whole) - 1e-6  # it stops only when the budget is spent

    check()


def test_a_bad_pa_left_of_a_charge_is_a_question_error() -> None:
    with pytest.raises(QuestionError, match="pa_left"):
        ask(walkers(), "charge", ["a", "200", "100"], {"pa_left": "two"})
