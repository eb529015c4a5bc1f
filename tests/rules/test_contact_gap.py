"""A contact's ``gap_mm`` is signed alike under the rule systems that measure round bases:
negative by how much the bases overlap (docs/formats.md), never clamped to 0."""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene

ROUND_25 = {"shape": "round", "diameter_mm": 25}


def _two(ruleset: str, apart_mm: float, **extra: Any) -> Any:
    figures = [
        {"id": "a", "side": "blue", "x_mm": 100.0, "y_mm": 100.0, **extra},
        {"id": "b", "side": "red", "x_mm": 100.0 + apart_mm, "y_mm": 100.0, **extra},
    ]
    table = {"width_mm": 600, "depth_mm": 400}
    return parse_scene({"ruleset": ruleset, "table": table, "figures": figures})


@pytest.mark.parametrize(
    ("ruleset", "extra", "touching_under_mm"),
    [
        # in contact up to a gap of 2 mm (contact_tolerance_mm, contact_mm)
        ("musg", {"base": ROUND_25}, 2.0),
        ("confrontation", {"base": ROUND_25}, 2.0),
        # CB6's reference figures are discs one thickness (25 mm) across, in contact
        # under a gap of one thickness
        ("choc-base-6", {"reference": True}, 25.0),
    ],
)
@pytest.mark.parametrize(
    ("apart_mm", "gap_mm"),
    [
        (40.0, 15.0),  # 40 - 12.5 - 12.5
        (25.0, 0.0),  # touching
        (10.0, -15.0),  # overlapping by 15 mm
    ],
)
def test_a_contact_gap_is_negative_by_the_overlap(
    ruleset: str, extra: dict[str, Any], touching_under_mm: float, apart_mm: float, gap_mm: float
) -> None:
    answer = ask(_two(ruleset, apart_mm, **extra), "contact", ["a", "b"]).to_json()
    assert answer["gap_mm"] == pytest.approx(gap_mm)
    assert answer["contact"] is (gap_mm < touching_under_mm)


def test_a_musg_distance_between_overlapping_bases_is_zero_not_negative() -> None:
    # Edge to edge, 10 mm apart centre to centre with 25 mm bases: they overlap, 0 pas.
    answer = ask(_two("musg", 10.0, base=ROUND_25), "distance", ["a", "b"]).to_json()
    assert answer["distance_mm"] == 0.0
