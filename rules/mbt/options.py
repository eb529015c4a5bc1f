"""The options of a MBT scene (``options:``), with their defaults, and its unit."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from arbitre.rules.answers import Unit
from arbitre.rules.model import Scene
from arbitre.rules.options import GapMm, LengthMm
from arbitre.rules.ruleset import scene_options


class MbtOptions(BaseModel):
    """``options:`` of a MBT scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    graduation_mm: LengthMm = 25.0
    contact_tolerance_mm: GapMm = 2.0
    align_tolerance_deg: Annotated[float, Field(ge=0, le=45, allow_inf_nan=False, strict=True)] = (
        5.0
    )
    difficult_factor: Annotated[float, Field(ge=1, allow_inf_nan=False, le=100, strict=True)] = 2.0
    arc: Literal["front", "90"] = "front"
    woods_for_cavalry: Literal["impassable", "difficult", "open"] = "impassable"
    woods_for_infantry: Literal["impassable", "difficult", "open"] = "difficult"
    panic_distance: Literal["depth", "move"] = "depth"


def options_of(scene: Scene) -> MbtOptions:
    """A MBT scene's options."""
    return scene_options(scene, MbtOptions)


def unit_of(scene: Scene) -> Unit:
    """A scene's graduation."""
    return Unit("graduation", options_of(scene).graduation_mm)
