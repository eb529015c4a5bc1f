"""MBT's numbers as data: the rule book's numbers and tolerances."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from arbitre.rules.model import TerrainKind

TYPES = ("cavalry", "infantry")
EDGES = ("front", "right", "back", "left")


@dataclass(frozen=True, slots=True)
class Numbers:
    """The rule book's numbers (Mouvements, Combats, Cas des éléphants, archers)."""

    move_units: Mapping[str, int] = field(default_factory=lambda: {"cavalry": 5, "infantry": 3})
    heavy_move_penalty: int = 1
    elephant_bonus: int = 4
    heavy_bonus: int = 1
    general_bonus: int = 1
    support_bonus: int = 1
    rear_support_bonus: int = 1
    shot_range_units: float = 2.0
    elimination_ratio: int = 2
    die_faces: int = 6
    losses_to_win: int = 3  # Principes du jeu: "ayant infligé 3 pertes à son adversaire"
    objective_worth: tuple[int, int] = (1, 3)  # Mouvements: "1, 2 ou 3 pertes"
    panic: Mapping[int, str] = field(
        default_factory=lambda: {1: "ahead", 2: "left", 3: "right", 4: "back", 5: "back", 6: "back"}
    )


NUMBERS = Numbers()

# Figures on a base when ``attrs.figures`` is not given (the book counts the figures on
# each base; these are the usual counts for the kinds of base it names).
DEFAULT_FIGURES: Mapping[tuple[str, bool], int] = {
    ("infantry", True): 4,
    ("infantry", False): 3,
    ("cavalry", True): 3,
    ("cavalry", False): 2,
}
ELEPHANT_FIGURES = 1  # "cinq points pour un éléphant": 1 + 4

BLOCKING_TERRAIN = (TerrainKind.IMPASSABLE, TerrainKind.BUILDING)
TOUCH_MM2 = 1e-3  # overlaps smaller than this area are touches
NEAR_SLACK_MM = 1.0  # bases farther apart than a tolerance plus this never touch
