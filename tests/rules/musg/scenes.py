"""M.U.S.G. scenes the tests of several modules build: 1 pas = 25 mm unless said."""

from __future__ import annotations

from typing import Any

from arbitre.rules.model import Scene
from arbitre.rules.scene import parse_scene


def musg_scene(figures: list[dict[str, Any]], terrain: list[dict[str, Any]] | None = None) -> Scene:
    """Figures (and terrain) on a 1200 x 900 mm table, 1 pas = 25 mm."""
    return parse_scene(
        {
            "ruleset": "musg",
            "options": {"pace_mm": 25},
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": figures,
            "terrain": terrain or [],
        }
    )


def band(side: str, x: float, ranks: list[str]) -> list[dict[str, Any]]:
    """A side's figures of these ranks in a column at ``x``, 40 mm apart from y = 60."""
    return [
        {"id": f"{side}{k}", "side": side, "x_mm": x, "y_mm": 60 + 40 * k, "attrs": {"rank": r}}
        for k, r in enumerate(ranks)
    ]


def duel(first: dict[str, Any], second: dict[str, Any], **options: Any) -> Scene:
    """Two enemies 200 mm apart, with the attributes and scene options given."""
    return parse_scene(
        {
            "ruleset": "musg",
            "options": {"pace_mm": 25, **options},
            "table": {"width_mm": 1000, "depth_mm": 800},
            "figures": [
                {"id": "a", "side": "x", "x_mm": 300, "y_mm": 300, "attrs": first},
                {"id": "b", "side": "y", "x_mm": 500, "y_mm": 300, "attrs": second},
            ],
        }
    )


def inch_paces_scene() -> Scene:
    """Figures exactly at a threshold in the default pace, 25.4 mm (an inch).

    Floating point cannot hold 25.4 exactly: 25 mm bases, a gunman at (100, 100) and a
    target at (100, 582.2) stand 582.2 - 100 - 25 = 457.2 mm = 18 pas apart, the musket's
    18 pas. A chief touching three enemies has a friend exactly 1 pas (25.4 mm) from him.
    """
    gun = {"move_pas": 4, "weapon": {"kind": "musket", "range_pas": 18}}
    figures = [
        {"id": "gun", "side": "M", "x_mm": 100, "y_mm": 100, "attrs": gun},
        {"id": "t18", "side": "J", "x_mm": 100, "y_mm": 582.2, "attrs": {"move_pas": 4}},
        {
            "id": "ch",
            "side": "M",
            "x_mm": 300,
            "y_mm": 300,
            "attrs": {"rank": "chief", "move_pas": 4},
        },
        {"id": "e1", "side": "J", "x_mm": 325, "y_mm": 300},
        {"id": "e2", "side": "J", "x_mm": 275, "y_mm": 300},
        {"id": "e3", "side": "J", "x_mm": 300, "y_mm": 325},
        {"id": "f1", "side": "M", "x_mm": 300, "y_mm": 249.6},
    ]
    return parse_scene(
        {"ruleset": "musg", "table": {"width_mm": 1000, "depth_mm": 800}, "figures": figures}
    )


def walkers() -> Scene:
    """Two enemies who walk 4 pas: a at (100, 100), b at (300, 100)."""
    return musg_scene(
        [
            {"id": "a", "side": "x", "x_mm": 100, "y_mm": 100, "attrs": {"move_pas": 4}},
            {"id": "b", "side": "y", "x_mm": 300, "y_mm": 100, "attrs": {"move_pas": 4}},
        ]
    )
