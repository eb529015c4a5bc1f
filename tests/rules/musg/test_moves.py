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


@pytest.mark.parametrize(("x_mm", "moves_mm"), [(587.4, 50.0), (590.0, 0.0)])
def test_a_failed_charge_with_one_pa_stays_put_when_its_base_touches_difficult_ground(
    x_mm: float, moves_mm: float
) -> None:
    # "Si l'action coûte 2 PA mais qu'il ne reste qu'un PA au personnage, il ne se déplace
    # que de la moitié de son mouvement, et s'il est en terrain difficile il ne se déplace
    # pas" (Charger au corps à corps): "en terrain difficile" as a move counts it, the base
    # (r 12.5) overlapping the mud from x = 600 - 12.5 = 587.5. At 587.4 it is out and goes
    # half of 4 pas = 50 mm towards (450, y), away from the mud; at 590 it stays.
    scene = musg_scene(
        [
            {"id": "c", "side": "a", "x_mm": x_mm, "y_mm": 400, "attrs": {"move_pas": 4}},
            {"id": "e", "side": "b", "x_mm": 300, "y_mm": 400},
        ],
        [
            {
                "id": "mud",
                "kind": "difficult",
                "polygon_mm": [[600, 0], [650, 0], [650, 900], [600, 900]],
            }
        ],
    )
    answer = ask(scene, "charge", ["c", "450", "400"], {"pa_left": 1}).to_json()
    assert answer["reasons"] == ["charge_short"]
    assert answer["failed_move_mm"] == moves_mm
    assert answer["failed_in_difficult"] == (None if moves_mm else "mud")
