"""A scene on which a question takes minutes: for the time limits of the question desk
and of `arbitre ask`."""

from __future__ import annotations

from typing import Any


def crowded_table() -> dict[str, Any]:
    """Two figures in a corner of a 1.9 m table strewn with 800 small impassable
    triangles, and 1 M of a metre: a reach across it all takes minutes."""
    terrain = [
        {
            "id": f"t{k}",
            "kind": "impassable",
            "polygon_mm": [[x, y], [x + 20, y], [x + 10, y + 15]],
        }
        for k, (x, y) in enumerate((100 + 60 * (k % 30), 100 + 60 * (k // 30)) for k in range(800))
    ]
    figures = [
        {"id": "f0", "side": "b", "group": "g0", "reference": True, "x_mm": 30, "y_mm": 30},
        {"id": "f1", "side": "a", "group": "g1", "reference": True, "x_mm": 90, "y_mm": 30},
    ]
    return {
        "ruleset": "cb6",
        "options": {"unit_mm": 1000},
        "table": {"width_mm": 1900, "depth_mm": 1900},
        "figures": [{**f, "type": "TD"} for f in figures],
        "terrain": terrain,
    }
