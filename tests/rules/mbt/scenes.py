"""MBT bases and scenes the tests of several modules build."""

from __future__ import annotations

from typing import Any

from arbitre.rules.model import Scene
from arbitre.rules.scene import parse_scene

RECT = {"shape": "rect", "width_mm": 40, "depth_mm": 20}


def base(
    ident: str, side: str, x: float, y: float, facing: float, kind: str, **attrs: Any
) -> dict[str, Any]:
    """A 40 x 20 mm base of this kind (``infantry``, ``cavalry``) with these attributes."""
    return {
        "id": ident,
        "side": side,
        "x_mm": x,
        "y_mm": y,
        "facing_deg": facing,
        "type": kind,
        "base": RECT,
        "attrs": attrs,
    }


def mbt_scene(
    *figures: dict[str, Any],
    options: dict[str, Any] | None = None,
    terrain: list[dict[str, Any]] | None = None,
) -> Scene:
    """Bases (and terrain) on a 1000 x 800 mm table."""
    return parse_scene(
        {
            "ruleset": "mbt",
            "options": options or {},
            "table": {"width_mm": 1000, "depth_mm": 800},
            "figures": list(figures),
            "terrain": terrain or [],
        }
    )
