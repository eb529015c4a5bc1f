"""The rule book's numbers as data (combat dice, pursuit, terrain costs) and the options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from arbitre.rules.model import Scene, TerrainKind
from arbitre.rules.options import GapMm, LengthMm, Takes
from arbitre.rules.ruleset import scene_options


@dataclass(frozen=True, slots=True)
class Numbers:
    """The rule book's numbers (§7 "les Combats")."""

    dice_base: int = 1  # combat dice = 1 + opponents in the combat
    die_faces: int = 6
    pursuit_fraction: float = 0.5  # pursuit: half the MOU, in cm rounded up
    cm_mm: float = 10.0


NUMBERS = Numbers()
COSTLY_TERRAIN = {TerrainKind.DIFFICULT: 2.0, TerrainKind.WOOD: 2.0}
BLOCKING_TERRAIN = (TerrainKind.IMPASSABLE, TerrainKind.BUILDING)


MAX_PARTITIONS = 10_000
"""The most splits of one melee a scene may ask to list (``max_partitions``)."""


class ConfrontationOptions(BaseModel):
    """``options:`` of a Confrontation scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    contact_tolerance_mm: GapMm = 2.0
    base_mm: LengthMm = 25.0
    max_partitions: Annotated[int, Field(ge=1, le=MAX_PARTITIONS, strict=True)] = 200


Partition = Annotated[
    int,
    Field(ge=0, le=MAX_PARTITIONS),
    Takes(f"a split's index, a whole number 0 to {MAX_PARTITIONS}"),
]
"""The ``partition`` option: which split of the melee (0 is the first listed)."""


def options_of(scene: Scene) -> ConfrontationOptions:
    return scene_options(scene, ConfrontationOptions)
