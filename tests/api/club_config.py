"""The demo table as a club's arbitre.yaml gives it: its settings file, a wood strip to
add to its terrain, and values nested deep, for the tests that change the terrain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbitre.api.live.demo import DemoSource, demo_setup
from arbitre.api.live.table import LiveTable, TableConfig

ARBITRE_YAML = """\
# The club's table.
camera: camera.yaml
table: table.yaml
roster: roster.yaml
ruleset: choc-base-6
options: {unit_mm: 100, terrain_cost: double}   # 1 M = 10 cm; woods cost double
terrain:
  - {id: bois, kind: wood, polygon_mm: [[400, 420], [520, 400], [540, 520], [420, 540]]}
# where the frames come from
source: {camera_index: 0}
"""

# A wood strip 40 mm wide (x 360-400) across the Sergent's way east (he stands at 330, 300).
STRIP = {
    "id": "strip",
    "kind": "wood",
    "polygon_mm": [[360, 250], [400, 250], [400, 350], [360, 350]],
}


def club_live(config_path: Path | None) -> LiveTable:
    """The demo table under the options of `ARBITRE_YAML` (woods cost double), its
    settings at ``config_path`` (None: kept in memory), three frames in."""
    setup = demo_setup()
    live = LiveTable(
        TableConfig(
            setup.camera,
            setup.table,
            setup.roster,
            options={"unit_mm": 100, "terrain_cost": "double"},
            terrain=setup.terrain,
            config_path=config_path,
        ),
        DemoSource(move_every_s=1e9),  # nobody walks during the tests
    )
    for _ in range(3):
        assert live.step()
    return live


def pieces(extra: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The demo's terrain pieces, and ``extra`` after them."""
    base = [dict(piece) for piece in demo_setup().terrain]
    return base + ([extra] if extra else [])


def nested(depth: int) -> Any:
    """0 inside ``depth`` lists."""
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value
