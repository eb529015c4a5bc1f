"""Confrontation scenes the tests of several modules build: 25 mm round bases by default."""

from __future__ import annotations

from typing import Any

from arbitre.rules.model import Scene
from arbitre.rules.scene import parse_scene


def scene_of(*figures: dict[str, Any], **options: Any) -> Scene:
    """Figures on a 1200 x 900 mm table, with these options."""
    return parse_scene(
        {
            "ruleset": "confrontation",
            "options": options,
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": list(figures),
        }
    )


def fig(ident: str, side: str, x: float, y: float, **more: Any) -> dict[str, Any]:
    """A figure at (x, y) mm."""
    return {"id": ident, "side": side, "x_mm": x, "y_mm": y, **more}


# A garde prétorien (INI 3) in base contact with two clones of Dirz (INI 2) and a guerrier de
# l'aube (INI 3), all on 25 mm bases: the clones left and right, the guerrier above; the
# three do not touch each other (clone1-guerrier centres 35.4 mm apart: gap 10.4 mm).
GARDE = [
    fig("garde", "griffon", 500, 500, attrs={"ini": 3, "mou_cm": 10}),
    fig("clone1", "scorpion", 525, 500, attrs={"ini": 2}),
    fig("clone2", "scorpion", 475, 500, attrs={"ini": 2}),
    fig("guerrier", "scorpion", 500, 525, attrs={"ini": 3}),
]
