"""mm <-> game units for each ruleset: names, lengths from options, exact round trips."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.units import GameUnit, to_mm, to_units, unit_for


@pytest.mark.parametrize(
    ("ruleset", "options", "name", "unit_mm"),
    [
        ("choc-base-6", {}, "M", 100.0),
        ("choc-base-6", {"unit_mm": 75}, "M", 75.0),
        ("cb6", None, "M", 100.0),
        ("smooth-and-rifled", {}, "cm", 10.0),
        ("smooth-and-rifled", {"scale": "15mm"}, "cm", 5.0),  # 15mm scale halves distances
        ("musg", {}, "pas", 25.4),
        ("musg", {"pace_mm": 20}, "pas", 20.0),
        ("mbt", {}, "graduation", 25.0),
        ("mbt", {"graduation_mm": 30.0}, "graduation", 30.0),
        ("confrontation", {}, "cm", 10.0),
    ],
)
def test_each_ruleset_has_its_unit(
    ruleset: str, options: dict[str, object] | None, name: str, unit_mm: float
) -> None:
    assert unit_for(ruleset, options) == GameUnit(name, unit_mm)


def test_conversions_by_hand() -> None:
    # 3 M of 100 mm = 300 mm; 12 cm at 15mm scale (5 mm per cm) = 60 mm; 254 mm = 10 pas.
    assert unit_for("choc-base-6").to_mm(3.0) == 300.0
    assert unit_for("smooth-and-rifled", {"scale": "15mm"}).to_mm(12.0) == 60.0
    assert unit_for("musg").to_units(254.0) == pytest.approx(10.0)
    assert np.allclose(to_units(np.array([0.0, 50.0, 125.0]), 25.0), [0.0, 2.0, 5.0])


@given(
    mm=st.floats(min_value=-1e5, max_value=1e5, allow_nan=False),
    unit_mm=st.floats(min_value=0.1, max_value=1e4, allow_nan=False),
)
def test_round_trips_are_exact_to_rounding(mm: float, unit_mm: float) -> None:
    assert to_mm(to_units(mm, unit_mm), unit_mm) == pytest.approx(mm, rel=1e-12, abs=1e-9)
    assert to_units(to_mm(mm, unit_mm), unit_mm) == pytest.approx(mm, rel=1e-12, abs=1e-9)


@pytest.mark.parametrize(
    ("ruleset", "options", "message"),
    [
        ("chess", {}, r"^unsupported ruleset: 'chess'; known: choc-base-6, confrontation, mbt"),
        ("choc-base-6", {"unit_mm": 0}, r"^options.unit_mm: expected a positive number of mm"),
        ("musg", {"pace_mm": "long"}, r"^options.pace_mm: expected a positive number of mm"),
        ("smooth-and-rifled", {"scale": "6mm"}, r"^options.scale: expected '28mm' or '15mm'"),
    ],
)
def test_bad_rulesets_and_options_are_refused(
    ruleset: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(CalibrationError, match=message):
        unit_for(ruleset, options)
    with pytest.raises(CalibrationError, match="positive number of mm"):
        to_units(1.0, -2.0)
