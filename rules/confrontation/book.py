"""The rule book's numbers as data: combat dice, pursuit, terrain costs."""

from __future__ import annotations

from dataclasses import dataclass

from arbitre.rules.model import TerrainKind


@dataclass(frozen=True, slots=True)
class Numbers:
    """The rule book's numbers (§7 "les Combats")."""

    dice_base: int = 1  # combat dice = 1 + opponents in the combat
    die_faces: int = 6
    pursuit_fraction: float = 0.5  # pursuit: half the MOU, in cm rounded up
    cm_mm: float = 10.0


NUMBERS = Numbers()
BLOCKING_TERRAIN = (TerrainKind.IMPASSABLE, TerrainKind.BUILDING)
