"""Choc Base 6 scenes the tests of several modules build: a neutral table in M of 100 mm,
and hex and square grids of 50 mm cells."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, settings

from arbitre.rules.model import Scene
from arbitre.rules.scene import parse_scene

# The hypothesis profile of the neutral surface's invariants.
PROFILE = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


# --- the neutral surface ------------------------------------------------------------------


def neutral_scene(*figures: dict[str, Any], **options: Any) -> Scene:
    """Figures on a 1200 x 900 mm neutral table, 1 M = 100 mm."""
    return parse_scene(
        {
            "ruleset": "cb6",
            "options": {"unit_mm": 100, **options},
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": list(figures),
        }
    )


def td_figure(fid: str, side: str, x: float, y: float, **more: Any) -> dict[str, Any]:
    """A TD figure at (x, y) mm."""
    return {"id": fid, "side": side, "x_mm": x, "y_mm": y, "type": "TD", **more}


# x1, x2 chained (30 mm apart), no reference; R a red group of one 200 mm from x1.
HEADLESS = (
    td_figure("x1", "blue", 300, 300),
    td_figure("x2", "blue", 330, 300),
    td_figure("r1", "red", 300, 500),
    td_figure("b1", "blue", 600, 500),
)


# --- grids --------------------------------------------------------------------------------

# Squares of 50 mm, default origin: square (c, r) is centred on (25 + 50 c, 25 + 50 r).
# Pointy hexes of 50 mm with the origin at (300, 300): hex (q, r) is centred on
# (300 + 50 q + 25 r, 300 + 43.30 r).


def square_centre(c: int, r: int) -> tuple[float, float]:
    """The centre of square (c, r) of 50 mm, in table mm."""
    return 25 + 50 * c, 25 + 50 * r


def hex_centre(q: int, r: int) -> tuple[float, float]:
    """The centre of pointy hex (q, r) of 50 mm with its origin at (300, 300), in table mm."""
    return 300 + 50 * q + 25 * r, 300 + 25 * math.sqrt(3) * r


def fig(ident: str, side: str, at: tuple[float, float], **more: Any) -> dict[str, Any]:
    """A figure at ``at`` (table mm)."""
    return {"id": ident, "side": side, "x_mm": at[0], "y_mm": at[1], **more}


def grid_scene(
    surface: str,
    *figures: dict[str, Any],
    table: tuple[float, float] = (600, 400),
    terrain: list[dict[str, Any]] | None = None,
    allies: list[list[str]] | None = None,
    **options: Any,
) -> Scene:
    """Figures on a grid of 50 mm cells: hexes with their origin at (300, 300), or squares."""
    if surface == "hex":
        options = {"hex_mm": 50, "grid_origin_mm": [300, 300], **options}
    else:
        options = {"square_mm": 50, **options}
    return parse_scene(
        {
            "ruleset": "cb6",
            "options": {"surface": surface, **options},
            "table": {"width_mm": table[0], "depth_mm": table[1]},
            "figures": list(figures),
            "terrain": terrain or [],
            "allies": allies or [],
        }
    )
