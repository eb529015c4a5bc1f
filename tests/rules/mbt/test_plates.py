"""MBT plates: bases as rectangles, their contacts, alignment and groups, the ground they
may not enter."""

from __future__ import annotations

import pytest

from arbitre.rules.errors import QuestionError
from arbitre.rules.mbt import MbtOptions, Plate
from arbitre.rules.mbt.plates import (
    aligned_friends,
    contact_kind,
    face_to_face,
    group_of,
    kinds_barred_to,
    near_pairs,
    plate_named,
    plate_pair,
    plates_of,
)
from arbitre.rules.model import Figure, TerrainKind
from tests.rules.mbt.scenes import base, mbt_scene

OPTIONS = MbtOptions()  # contact within 2 mm, aligned within 5 deg


def _pair(x: float, y: float, facing: float, side: str = "blue") -> tuple[Plate, Plate]:
    """A (blue) at (0, 0) facing 90 (+y): 40 wide across x, 20 deep, x -20..20, y -10..10,
    its front edge y = 10, its right edge x = 20; B (``side``) at (x, y)."""
    scene = mbt_scene(
        base("A", "blue", 100, 100, 90, "infantry"),
        base("B", side, 100 + x, 100 + y, facing, "infantry"),
    )
    return plate_pair(scene, "A", "B")


@pytest.mark.parametrize(
    ("x", "y", "facing", "expected"),
    [
        (0, 20, 270, True),  # B's front y 10 on A's, facing back at it
        (10, 20, 270, True),  # fronts overlapping 30 of 40 mm: still front to front
        (0, 20, 90, False),  # B's back on A's front: B turns its back
        (30, 0, 180, False),  # B (x 20..40, y -20..20) puts its front x = 20 on A's flank
    ],
)
def test_face_to_face_is_front_edge_on_front_edge_facings_opposite(
    x: float, y: float, facing: float, expected: bool
) -> None:
    a, b = _pair(x, y, facing, "red")
    assert face_to_face(a, b, OPTIONS) is expected


@pytest.mark.parametrize(
    ("x", "y", "expected"),
    [
        (40, 0, ("edge", ("right", "left"))),  # side by side: A's right flank on B's left
        (0, 20, ("edge", ("front", "back"))),  # B in front of A, both facing +y
        (40, 20, ("corner", ())),  # B (x 20..60, y 10..30) touches A at (20, 10) only
    ],
)
def test_contact_by_an_edge_or_a_corner(x: float, y: float, expected: object) -> None:
    a, b = _pair(x, y, 90)
    assert contact_kind(a, b, OPTIONS) == expected


@pytest.mark.parametrize(
    ("x", "y", "side", "aligned"),
    [
        (40, 0, "blue", True),  # a whole 20 mm flank on a whole flank
        (40, 0, "red", False),  # an enemy is never aligned with A
        (40, 5, "blue", False),  # flanks overlapping 15 mm of 20: not perfectly aligned
        (43, 0, "blue", False),  # a 3 mm gap, over the 2 mm tolerance
    ],
)
def test_aligned_friends_share_a_whole_edge(x: float, y: float, side: str, aligned: bool) -> None:
    a, b = _pair(x, y, 90, side)
    assert aligned_friends(a, b, OPTIONS) is aligned


def test_a_group_grows_one_aligned_base_after_another() -> None:
    # A, B, C side by side at 40 mm steps; D 100 mm further. C touches B, not A: it joins
    # A's group through B.
    scene = mbt_scene(
        base("A", "blue", 100, 100, 90, "infantry"),
        base("C", "blue", 180, 100, 90, "infantry"),
        base("B", "blue", 140, 100, 90, "infantry"),
        base("D", "blue", 280, 100, 90, "infantry"),
    )
    group = group_of(scene, plate_named(scene, "A"), OPTIONS)
    assert [p.figure.id for p in group] == ["A", "B", "C"]
    # The spatial index offers the pairs whose centres lie within the longest diagonal,
    # hypot(40, 20) = 44.72 mm, plus the 2 mm tolerance and 1 mm: A-B and B-C (40 mm
    # apart), not A-C (80 mm) nor C-D (100 mm); indices in the scene's order (A, C, B, D).
    assert sorted(near_pairs(plates_of(scene), 2.0).tolist()) == [[0, 2], [1, 2]]


@pytest.mark.parametrize(
    ("kind", "woods", "barred"),
    [
        ("cavalry", {}, {TerrainKind.IMPASSABLE, TerrainKind.BUILDING, TerrainKind.WOOD}),
        ("infantry", {}, {TerrainKind.IMPASSABLE, TerrainKind.BUILDING}),
        (
            "infantry",
            {"woods_for_infantry": "impassable"},
            {TerrainKind.IMPASSABLE, TerrainKind.BUILDING, TerrainKind.WOOD},
        ),
        ("cavalry", {"woods_for_cavalry": "open"}, {TerrainKind.IMPASSABLE, TerrainKind.BUILDING}),
    ],
)
def test_woods_bar_cavalry_unless_the_scenario_says_otherwise(
    kind: str, woods: dict[str, str], barred: set[TerrainKind]
) -> None:
    # "bois dense pour les cavaliers": by default woods are impassable to cavalry and
    # difficult for infantry; the scenario may say otherwise.
    options = MbtOptions.model_validate(woods)
    assert kinds_barred_to(Figure("x", "a", 0, 0, type=kind), options) == barred


def test_a_base_is_named_and_a_pair_is_two_bases() -> None:
    scene = mbt_scene(base("A", "blue", 100, 100, 90, "infantry"))
    with pytest.raises(QuestionError, match="unknown base 'Z'"):
        plate_named(scene, "Z")
    with pytest.raises(QuestionError, match="'A' and 'A' are the same base"):
        plate_pair(scene, "A", "A")
