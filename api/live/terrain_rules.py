"""What each rule system reads of the terrain: the kinds that change its answers, and
whether an obstacle's level does. The page's terrain editor offers only these, and says
in a sentence what the table's rule system leaves aside (`terrain_rules` in the state).

Read from the rule packages (their terrain constants and the modules named below);
`tests/api/live/test_terrain_rules.py` holds the table to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arbitre.rules.model import TerrainKind
from arbitre.rules.terrain import HOUSE_RULE_COSTS, terrain_costs


@dataclass(frozen=True, slots=True)
class TerrainRead:
    """The terrain kinds a rule system reads, and whether obstacle levels count;
    ``house_rule_kinds``: those of them it reads only under the house rule
    ``terrain_cost: double`` (its book gives them no cost)."""

    kinds: tuple[TerrainKind, ...]
    levels: bool
    house_rule_kinds: tuple[TerrainKind, ...] = ()

    def to_json(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The state's `terrain_rules` under a table's ``options``: the kinds read, those
        left aside, and levels."""
        costly = terrain_costs(options.get("terrain_cost", "none"))
        kinds = tuple(k for k in self.kinds if k not in self.house_rule_kinds or k in costly)
        return {
            "kinds": [str(kind) for kind in kinds],
            "ignored_kinds": [str(kind) for kind in TerrainKind if kind not in kinds],
            "levels": self.levels,
        }


_GROUND = (TerrainKind.WOOD, TerrainKind.DIFFICULT, TerrainKind.IMPASSABLE, TerrainKind.BUILDING)
_EVERY_KIND = (*_GROUND, TerrainKind.OBSTACLE)
_COSTLY = tuple(HOUSE_RULE_COSTS)  # read only under the house rule terrain_cost: double

TERRAIN_READ: dict[str, TerrainRead] = {
    # moves only: impassable ground and buildings block (choc_base_6/book.py), woods and
    # difficult ground cost double under the house rule terrain_cost: double
    # (choc_base_6/options.py); lines of fire cross any terrain
    "choc-base-6": TerrainRead(_GROUND, levels=False, house_rule_kinds=_COSTLY),
    # obstacles give cover graded by their level, §6.2.4 (smooth_and_rifled/geometry.py),
    # and count in moves (smooth_and_rifled/moves.py)
    "smooth-and-rifled": TerrainRead(_EVERY_KIND, levels=True),
    # obstacles give cover and shade sight whatever their height (musg/book.py, sight.py)
    "musg": TerrainRead(_EVERY_KIND, levels=False),
    # difficult ground and woods slow, impassable ground and buildings block (mbt/moves.py,
    # mbt/plates.py)
    "mbt": TerrainRead(_GROUND, levels=False),
    # pursuits only: impassable ground and buildings block (confrontation/book.py), woods
    # and difficult ground cost double under the house rule terrain_cost: double
    "confrontation": TerrainRead(_GROUND, levels=False, house_rule_kinds=_COSTLY),
}


def terrain_read(ruleset: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The state's `terrain_rules` for a rule system (by its name) under a table's
    ``options``: every kind and level for a system the table does not know."""
    read = TERRAIN_READ.get(ruleset, TerrainRead(_EVERY_KIND, levels=True))
    return read.to_json(options or {})
