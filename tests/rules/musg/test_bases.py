"""M.U.S.G. bases: a figure's base, the gaps and distances between bases, its attributes."""

from __future__ import annotations

from typing import Literal

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Base, Figure
from arbitre.rules.musg import MusgOptions
from arbitre.rules.musg.bases import (
    base_gap_mm,
    base_of,
    contact_gap_mm,
    footprint_of,
    measured_mm,
    move_pas_of,
    overlaps_beyond_contact,
    rank_index,
    weapon_of,
)


def test_a_figure_without_a_base_stands_on_the_scenes_disc() -> None:
    options = MusgOptions(base_diameter_mm=32)
    assert base_of(Figure("a", "x", 0, 0), options) == Base.round(32)
    assert base_of(Figure("b", "x", 0, 0, base=Base.round(40)), options) == Base.round(40)


@pytest.mark.parametrize(("measure", "expected_mm"), [("edge", 67.5), ("centre", 100.0)])
def test_distances_run_edge_to_edge_or_centre_to_centre(
    measure: Literal["edge", "centre"], expected_mm: float
) -> None:
    # a on the default 25 mm disc at (0, 0), b on a 40 mm disc at (100, 0): edge to edge
    # 100 - 12.5 - 20 = 67.5 mm; centre to centre 100 mm.
    options = MusgOptions(measure=measure)
    a, b = Figure("a", "x", 0, 0), Figure("b", "y", 100, 0, base=Base.round(40))
    assert measured_mm(a, b, options) == pytest.approx(expected_mm)


def test_overlapping_discs_have_a_negative_contact_gap_and_no_gap() -> None:
    # Two 25 mm discs 20 mm apart overlap by 25 - 20 = 5 mm.
    options = MusgOptions()
    a, b = Figure("a", "x", 0, 0), Figure("b", "y", 20, 0)
    assert contact_gap_mm(a, b, options) == pytest.approx(-5.0)
    assert base_gap_mm(a, b, options) == 0.0


@pytest.mark.parametrize(("apart_mm", "overlaps"), [(24.0, False), (22.5, True), (30.0, False)])
def test_a_touch_within_the_tolerance_is_no_overlap(apart_mm: float, overlaps: bool) -> None:
    # Tolerance 2 mm: each disc shrinks by 1 mm (radius 11.5), so discs overlap "beyond
    # contact" only when their centres are closer than 23 mm.
    options = MusgOptions(contact_tolerance_mm=2.0)
    a = footprint_of(Figure("a", "x", 0, 0), options)
    b = footprint_of(Figure("b", "y", apart_mm, 0), options)
    assert overlaps_beyond_contact(a, b, options) is overlaps


def test_a_figures_move_weapon_and_rank() -> None:
    walker = Figure("w", "x", 0, 0, attrs={"move_pas": 4, "rank": "chief"})
    assert move_pas_of(walker) == 4.0 and rank_index(walker) == 3
    assert weapon_of(walker) is None
    with pytest.raises(QuestionError, match=r"^figure 'n': attrs.move_pas is missing"):
        move_pas_of(Figure("n", "x", 0, 0))
    assert rank_index(Figure("n", "x", 0, 0)) is None
    archer = Figure("r", "x", 0, 0, attrs={"weapon": {"kind": "bow", "range_pas": 18}})
    weapon = weapon_of(archer)
    assert weapon is not None and weapon.limits_pas == (6.0, 12.0, 18.0)
    with pytest.raises(QuestionError, match=r"^figure 'b': attrs.weapon.long_pas: missing"):
        weapon_of(Figure("b", "x", 0, 0, attrs={"weapon": {"short_pas": 1, "medium_pas": 2}}))
