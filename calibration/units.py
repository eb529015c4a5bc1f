"""Millimetres <-> the game unit of a ruleset.

The rules core works in millimetres and converts at the edge of its answers; this module
gives the same conversion to the camera side (``rules`` never imports it). A ruleset's unit
has a name and a length in mm, read from the ruleset's options:

- ``choc-base-6``: ``M``, option ``unit_mm`` (default 100);
- ``smooth-and-rifled``: ``cm``, 10 mm; option ``scale: 15mm`` halves every distance (5 mm);
- ``musg``: ``pas``, option ``pace_mm`` (default 25.4);
- ``mbt``: ``graduation``, option ``graduation_mm`` (default 25);
- ``confrontation``: ``cm``, 10 mm.

>>> unit = unit_for("choc-base-6", {"unit_mm": 80})
>>> unit.name, unit.to_units(200.0)
('M', 2.5)
>>> to_mm(3.0, 25.0)
75.0
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from arbitre.calibration.errors import CalibrationError
from arbitre.nearest import did_you_mean, nearest_words

Length = TypeVar("Length", float, NDArray[np.float64])


def to_units(mm: Length, unit_mm: float) -> Length:
    """A length in mm expressed in a unit ``unit_mm`` long (a number or an array)."""
    _check_unit_mm(unit_mm)
    return mm / unit_mm


def to_mm(units: Length, unit_mm: float) -> Length:
    """A length in a unit ``unit_mm`` long, in mm (a number or an array)."""
    _check_unit_mm(unit_mm)
    return units * unit_mm


@dataclass(frozen=True, slots=True)
class GameUnit:
    """A ruleset's unit of length: its name (``M``, ``cm``, ``pas`` ...) and length in mm."""

    name: str
    unit_mm: float

    def __post_init__(self) -> None:
        _check_unit_mm(self.unit_mm)

    def to_units(self, mm: Length) -> Length:
        """A length in mm, in this unit."""
        return to_units(mm, self.unit_mm)

    def to_mm(self, units: Length) -> Length:
        """A length in this unit, in mm."""
        return to_mm(units, self.unit_mm)


UNIT_NAMES: Mapping[str, str] = {
    "choc-base-6": "M",
    "smooth-and-rifled": "cm",
    "musg": "pas",
    "mbt": "graduation",
    "confrontation": "cm",
}
"""The name of each ruleset's unit."""

_ALIASES = {
    "cb6": "choc-base-6",
    "chocbase6": "choc-base-6",
    "s&r": "smooth-and-rifled",
    "sar": "smooth-and-rifled",
}

_LENGTH_OPTIONS: Mapping[str, tuple[str, float]] = {
    "choc-base-6": ("unit_mm", 100.0),
    "musg": ("pace_mm", 25.4),
    "mbt": ("graduation_mm", 25.0),
}

_SCALES_MM_PER_CM = {"28mm": 10.0, "15mm": 5.0}


def unit_for(ruleset: str, options: Mapping[str, Any] | None = None) -> GameUnit:
    """The unit of ``ruleset`` with the given options (``scene.yaml``'s ``options``).

    Raises `CalibrationError` for an unknown ruleset or a bad length option.

    >>> unit_for("smooth-and-rifled", {"scale": "15mm"})
    GameUnit(name='cm', unit_mm=5.0)
    >>> unit_for("musg").unit_mm
    25.4
    """
    name = _ALIASES.get(ruleset.lower(), ruleset.lower())
    if name not in UNIT_NAMES:
        nearest = nearest_words(ruleset, [*UNIT_NAMES, *_ALIASES], count=5)
        meant = did_you_mean(list(dict.fromkeys(_ALIASES.get(n, n) for n in nearest))[:2])
        known = ", ".join(sorted(UNIT_NAMES))
        raise CalibrationError(f"unsupported ruleset: {ruleset!r}{meant}; known: {known}")
    options = options or {}
    if name in _LENGTH_OPTIONS:
        option, default = _LENGTH_OPTIONS[name]
        value = options.get(option, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise CalibrationError(
                f"options.{option}: expected a positive number of mm, got {value!r}"
            )
        if not math.isfinite(value) or value <= 0:
            raise CalibrationError(
                f"options.{option}: expected a positive number of mm, got {value!r}"
            )
        return GameUnit(UNIT_NAMES[name], float(value))
    if name == "smooth-and-rifled":
        scale = options.get("scale", "28mm")
        if scale not in _SCALES_MM_PER_CM:
            raise CalibrationError(f"options.scale: expected '28mm' or '15mm', got {scale!r}")
        return GameUnit("cm", _SCALES_MM_PER_CM[scale])
    return GameUnit(UNIT_NAMES[name], 10.0)


def _check_unit_mm(unit_mm: float) -> None:
    if isinstance(unit_mm, bool) or not math.isfinite(unit_mm) or unit_mm <= 0:
        raise CalibrationError(f"a unit length must be a positive number of mm, got {unit_mm!r}")
