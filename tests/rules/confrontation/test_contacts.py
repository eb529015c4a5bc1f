"""rules/confrontation/contacts.py: base contact, edge to edge (25 mm round bases unless a
figure or the scene says otherwise)."""

from __future__ import annotations

import pytest

from arbitre.rules.confrontation import ConfrontationOptions, base_of, edge_gap_mm, find_contacts
from arbitre.rules.model import Base, Figure
from arbitre.rules.questions import ask
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


def test_a_contact_within_twice_the_camera_s_precision_is_too_close_to_call() -> None:
    # Each figure seen within 0.5 mm: a gap's sigma is hypot(0.5, 0.5) = 0.707 mm, so a
    # gap within 1.414 mm of the 2 mm tolerance is too close to call, either way.
    # a-b 1.5 mm (in contact, 0.5 from the tolerance): doubtful; a-c 0.4 mm (1.6 from it):
    # sure; d-e 2.5 mm (not in contact, 0.5 from it): doubtful; d-f (friends) 2.5 mm: no
    # matter, friends never fight.
    scene = scene_of(
        fig("a", "blue", 100, 100, sigma_mm=0.5),
        fig("b", "red", 126.5, 100, sigma_mm=0.5),
        fig("c", "red", 74.6, 100, sigma_mm=0.5),
        fig("d", "blue", 500, 100, sigma_mm=0.5),
        fig("e", "red", 527.5, 100, sigma_mm=0.5),
        fig("f", "blue", 472.5, 100, sigma_mm=0.5),
    )
    assert find_contacts(scene).doubtful == ((0, 1), (3, 4))
    melees = ask(scene, "melees", []).to_json()
    assert [c["params"] for c in melees["warning_codes"]] == [{"pairs": "a-b, d-e"}]
    # a question on one melee names its own doubtful pairs only
    dice = ask(scene, "dice", ["d"]).to_json()
    assert dice["reasons"] == ["not_in_contact"]
    assert [c["params"] for c in dice["warning_codes"]] == [{"pairs": "d-e"}]
    # measured exactly, nothing is doubtful
    sure = scene_of(fig("a", "blue", 100, 100), fig("b", "red", 126.5, 100))
    assert (
        find_contacts(sure).doubtful == () and ask(sure, "melees", []).to_json()["warnings"] == []
    )
