"""The options of a MBT scene (``options:``), with their defaults, and its unit."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from arbitre.rules.answers import Unit
from arbitre.rules.mbt.book import NUMBERS
from arbitre.rules.model import Scene
from arbitre.rules.options import GapMm, LengthMm, Name
from arbitre.rules.ruleset import scene_options


class MbtObjective(BaseModel):
    """An objective (``options.objectives``): a point of the table and the losses its
    capture is worth (Mouvements: "1, 2 ou 3 pertes")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Annotated[str, Field(min_length=1, max_length=64)]
    x_mm: Annotated[float, Field(allow_inf_nan=False)]
    y_mm: Annotated[float, Field(allow_inf_nan=False)]
    worth: Annotated[
        int, Field(ge=NUMBERS.objective_worth[0], le=NUMBERS.objective_worth[1], strict=True)
    ] = NUMBERS.objective_worth[0]


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
    bases_per_side: Annotated[int, Field(ge=1, le=1000, strict=True)] | None = None
    # the players' sides: a side with no base left on the table still counts (victory)
    sides: Annotated[tuple[Name, ...], Field(max_length=100)] = ()
    objectives: tuple[MbtObjective, ...] = ()


def options_of(scene: Scene) -> MbtOptions:
    """A MBT scene's options."""
    return scene_options(scene, MbtOptions)


def unit_of(scene: Scene) -> Unit:
    """A scene's graduation."""
    return Unit("graduation", options_of(scene).graduation_mm)
