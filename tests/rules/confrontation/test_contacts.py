"""rules/confrontation/contacts.py: base contact, edge to edge (25 mm round bases unless a
figure or the scene says otherwise)."""

from __future__ import annotations

import pytest

from arbitre.rules.confrontation import ConfrontationOptions, base_of, edge_gap_mm, find_contacts
from arbitre.rules.model import Base, Figure
from tests.rules.confrontation.scenes import fig, scene_of


def test_a_figure_without_a_base_stands_on_the_scene_s_base() -> None:
    bare = Figure("a", "red", 0, 0)
    assert base_of(bare, ConfrontationOptions()).radius_mm == 12.5
    assert base_of(bare, ConfrontationOptions(base_mm=40)).radius_mm == 20.0
    based = Figure("b", "red", 0, 0, base=Base.round(50))
    assert base_of(based, ConfrontationOptions()).radius_mm == 25.0


def test_the_edge_gap_is_the_centre_distance_less_both_radii() -> None:
    options = ConfrontationOptions()
    # Centres 30 mm apart on 25 mm bases: 30 - 12.5 - 12.5 = 5 mm.
    a, b = Figure("a", "red", 0, 0), Figure("b", "blue", 30, 0)
    assert edge_gap_mm(a, b, options) == pytest.approx(5.0)
    assert edge_gap_mm(b, a, options) == pytest.approx(5.0)
    # 20 mm apart: the bases overlap by 5 mm.
    assert edge_gap_mm(a, Figure("c", "blue", 20, 0), options) == pytest.approx(-5.0)
    # A 40 mm base 50 mm off (along a 3-4-5 diagonal): 50 - 12.5 - 20 = 17.5 mm.
    big = Figure("d", "blue", 30, 40, base=Base.round(40))
    assert edge_gap_mm(a, big, options) == pytest.approx(17.5)


def test_contacts_are_the_pairs_within_the_tolerance_and_enemies_are_kept_apart() -> None:
    # a-b 1.5 mm apart (enemies, in contact), b-c 2 mm apart (friends, in contact: the
    # tolerance is 2 mm, inclusive), c-d 2.5 mm (enemies, not in contact), e far off.
    scene = scene_of(
        fig("a", "red", 100, 100),
        fig("b", "blue", 126.5, 100),
        fig("c", "blue", 153.5, 100),
        fig("d", "red", 181, 100),
        fig("e", "red", 600, 600),
    )
    contacts = find_contacts(scene)
    assert set(contacts.gaps_mm) == {(0, 1), (1, 2)}
    assert contacts.gaps_mm[(0, 1)] == pytest.approx(1.5)
    assert contacts.gaps_mm[(1, 2)] == pytest.approx(2.0)
    assert contacts.touching(1, 0) and contacts.touching(2, 1) and not contacts.touching(2, 3)
    assert contacts.enemies == ((1,), (0,), (), (), ())


def test_a_tighter_tolerance_loses_the_contact() -> None:
    # The same a-b, 1.5 mm apart, under a tolerance of 1 mm.
    scene = scene_of(
        fig("a", "red", 100, 100), fig("b", "blue", 126.5, 100), contact_tolerance_mm=1
    )
    assert find_contacts(scene).enemies == ((), ())
