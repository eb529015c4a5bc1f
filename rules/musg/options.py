"""The options of a M.U.S.G. scene (``options:``), with their defaults, and the typed
options its questions take (``mode``, ``pa_left``, ``strength``)."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from arbitre.rules.answers import Unit
from arbitre.rules.model import Scene, TerrainKind
from arbitre.rules.musg.book import TABLE_MAX
from arbitre.rules.options import GapMm, LengthMm, Takes
from arbitre.rules.ruleset import scene_options

Length = LengthMm
"""A length of the options, in mm (strict: never a boolean; at most 100 m)."""


class MusgOptions(BaseModel):
    """``options:`` of a M.U.S.G. scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pace_mm: LengthMm = 25.4
    measure: Literal["edge", "centre"] = "edge"
    base_diameter_mm: LengthMm = 25.0
    contact_tolerance_mm: GapMm = 2.0
    figures_give_cover: bool = True
    sight_blockers: tuple[TerrainKind, ...] = (TerrainKind.BUILDING,)
    under_fire_dice: Literal[1, 2] = 1


def options_of(scene: Scene) -> MusgOptions:
    """A M.U.S.G. scene's options."""
    return scene_options(scene, MusgOptions)


def unit_of(scene: Scene) -> Unit:
    """The scene's unit: the pas, ``pace_mm`` long."""
    return Unit("pas", options_of(scene).pace_mm)


Mode = Literal["walk", "run", "charge"]
"""The ``mode`` option of ``move`` and ``reach``."""
MODES: tuple[str, ...] = get_args(Mode)

MAX_PA = 10
PaLeft = Annotated[
    int, Field(ge=1, le=MAX_PA), Takes(f"the action points left, a whole number 1 to {MAX_PA}")
]
"""The ``pa_left`` option of ``move`` and ``charge``: the PA the figure has left."""

Strength = Annotated[
    int, Field(ge=1, le=TABLE_MAX), Takes(f"a weapon's strength, a whole number 1 to {TABLE_MAX}")
]
"""The ``strength`` option of ``explosion``: a column of the damage table."""
