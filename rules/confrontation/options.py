"""The options of a Confrontation scene (``options:``), with their defaults, and the typed
option its questions take (``partition``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from arbitre.rules.model import Scene
from arbitre.rules.options import MAX_COUNT, Count, GapMm, LengthMm, Name, Takes
from arbitre.rules.ruleset import scene_options
from arbitre.rules.terrain import TerrainCost

MAX_PARTITIONS = 10_000
"""The most splits of one melee a scene may ask to list (``max_partitions``)."""


class ConfrontationOptions(BaseModel):
    """``options:`` of a Confrontation scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    contact_tolerance_mm: GapMm = 2.0
    base_mm: LengthMm = 25.0
    max_partitions: Annotated[int, Field(ge=1, le=MAX_PARTITIONS, strict=True)] = 200
    # The book gives terrain no cost: woods and difficult ground cost a pursuit double only
    # under this house rule (impassable ground and buildings block either way).
    terrain_cost: TerrainCost = "none"


def options_of(scene: Scene) -> ConfrontationOptions:
    """A Confrontation scene's options."""
    return scene_options(scene, ConfrontationOptions)


Partition = Annotated[
    int,
    Field(ge=0, le=MAX_PARTITIONS),
    Takes(f"a split's index, a whole number 0 to {MAX_PARTITIONS}"),
]
"""The ``partition`` option: which split of the melee (0 is the first listed)."""


AttackDice = Annotated[
    dict[Name, Count],
    Field(max_length=MAX_COUNT),
    Takes("attack dice per fighter, each a whole number: {garde: 3, clone1: 2}"),
]
"""The ``attack`` option of ``passes``: how many of its combat dice each fighter placed in
attack (the rest are in defence)."""
