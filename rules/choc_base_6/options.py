"""The options of a Choc Base 6 scene (``options:``), with their defaults."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from arbitre.rules.model import Scene
from arbitre.rules.options import FiniteNumber, GapMm, LengthMm
from arbitre.rules.ruleset import scene_options
from arbitre.rules.terrain import TerrainCost


class ChocBase6Options(BaseModel):
    """``options:`` of a CB6 scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    surface: Literal["neutral", "hex", "square"] = "neutral"
    unit_mm: LengthMm = 100.0
    thickness_mm: LengthMm = 25.0
    group_radius_mm: LengthMm | None = None
    hex_mm: LengthMm | None = None
    square_mm: LengthMm | None = None
    contact_tolerance_mm: GapMm = 2.0
    # The book gives terrain no cost: woods and difficult ground cost double only under
    # this house rule (impassable ground and buildings block either way).
    terrain_cost: TerrainCost = "none"
    # Grids (see arbitre.rules.choc_base_6.grid): the centre of cell (0, 0), table mm
    # (default: half a cell from the table corner on both axes), the grid's turn
    # counter-clockwise, and whether hexes have a point (neighbours along x) or a flat
    # side (along y) upwards.
    grid_origin_mm: tuple[FiniteNumber, FiniteNumber] | None = None
    grid_rotation_deg: FiniteNumber = 0.0
    hex_orientation: Literal["pointy", "flat"] = "pointy"
    # A shot on hexes: the hexes its straight line crosses must be empty ("line", the
    # reading), or it is counted like a move, hex by hex through empty hexes ("count").
    hex_fire: Literal["line", "count"] = "line"

    @property
    def group_footprint_radius_mm(self) -> float:
        return self.group_radius_mm if self.group_radius_mm is not None else 1.5 * self.thickness_mm

    @property
    def contact_distance_mm(self) -> float:
        """Centre distance under which two reference figures are in contact (2 thicknesses)."""
        return 2.0 * self.thickness_mm


def options_of(scene: Scene) -> ChocBase6Options:
    """A CB6 scene's options."""
    return scene_options(scene, ChocBase6Options)
