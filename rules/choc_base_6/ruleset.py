"""The Choc Base 6 ruleset: options, scene checks, and each scene routed to its surface."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbitre.rules.answers import Answer, Unit
from arbitre.rules.choc_base_6.book import (
    CLOSE_COMBAT_TYPE,
    MAX_BONUS,
    SHOOTER_TYPE,
)
from arbitre.rules.choc_base_6.neutral import ChocBase6Neutral
from arbitre.rules.choc_base_6.neutral_groups import find_groups
from arbitre.rules.choc_base_6.options import ChocBase6Options, options_of
from arbitre.rules.errors import SceneError
from arbitre.rules.model import Scene
from arbitre.rules.options import shown
from arbitre.rules.ruleset import check_attr_flags


class ChocBase6(ChocBase6Neutral):
    """Choc Base 6: neutral-surface questions, hex and square scenes handed to the grid
    (whose modules are imported when a grid scene first comes)."""

    name = "choc-base-6"
    aliases = ("cb6", "chocbase6", "choc-base6")
    options_model = ChocBase6Options

    def unit(self, scene: Scene) -> Unit:
        if options_of(scene).surface != "neutral":
            from arbitre.rules.choc_base_6.grid import grid_unit

            return grid_unit(scene)
        return super().unit(scene)

    def grid(self, scene: Scene) -> dict[str, Any] | None:
        if options_of(scene).surface == "neutral":
            return None
        from arbitre.rules.choc_base_6.grid import grid_of

        laid = grid_of(scene)
        return {
            "kind": laid.kind,
            "cell_mm": laid.cell_mm,
            "origin_mm": list(laid.origin_mm),
            "rotation_deg": laid.rotation_deg,
            "pointy": laid.pointy,
        }

    def ask(
        self,
        scene: Scene,
        question: str,
        args: Sequence[str],
        extras: Mapping[str, Any] | None = None,
    ) -> Answer:
        """Hex and square surfaces are answered by `GRID`."""
        if options_of(scene).surface != "neutral":
            from arbitre.rules.choc_base_6.grid_questions import GRID

            return GRID.ask(scene, question, args, extras)
        return super().ask(scene, question, args, extras)

    def validate(self, scene: Scene) -> None:
        options = options_of(scene)
        for index, figure in enumerate(scene.figures):
            if figure.type is not None and figure.type not in (SHOOTER_TYPE, CLOSE_COMBAT_TYPE):
                raise SceneError(
                    scene.source,
                    f"figures[{index}].type",
                    f"CB6 figures are 'TD' or 'CR', got {figure.type!r}",
                )
            for key in ("pa_bonus", "pi_bonus"):
                value = figure.attrs.get(key, 0)
                if (
                    isinstance(value, bool)
                    or not isinstance(value, int)
                    or not -MAX_BONUS <= value <= MAX_BONUS
                ):
                    raise SceneError(
                        scene.source,
                        f"figures[{index}].attrs.{key}",
                        f"figure {figure.id!r}: expected an integer from {-MAX_BONUS} to "
                        f"{MAX_BONUS}, got {shown(value)}",
                    )
            check_attr_flags(scene, index, figure, ("sniper",))
        if options.surface != "neutral":
            from arbitre.rules.choc_base_6.grid_groups import validate_grid

            validate_grid(scene)  # the cell size is given; one group per cell
            return
        find_groups(scene)  # raises on a group mixing sides or with several references
