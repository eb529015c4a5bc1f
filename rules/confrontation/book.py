"""The rule book's numbers as data (combat dice, pursuit, terrain costs) and the options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from arbitre.rules.model import Scene, TerrainKind
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


class ConfrontationOptions(BaseModel):
    """``options:`` of a Confrontation scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    contact_tolerance_mm: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 2.0
    base_mm: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 25.0
    max_partitions: Annotated[int, Field(ge=1)] = 200


def _options(scene: Scene) -> ConfrontationOptions:
    return scene_options(scene, ConfrontationOptions)
