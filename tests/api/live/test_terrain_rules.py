"""What each rule system reads of the terrain (`terrain_rules` in the state), held to the
rule packages' own terrain tables and to their answers."""

from __future__ import annotations

from typing import Any

from arbitre.api.live.terrain_rules import TERRAIN_READ, terrain_read
from arbitre.rules.choc_base_6 import book as cb6
from arbitre.rules.confrontation import book as confrontation
from arbitre.rules.mbt import book as mbt
from arbitre.rules.model import TerrainKind
from arbitre.rules.musg import book as musg
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset, ruleset_names
from arbitre.rules.scene import parse_scene
from arbitre.rules.smooth_and_rifled import geometry as sr_geometry
from arbitre.rules.smooth_and_rifled import moves as sr_moves
from arbitre.rules.terrain import HOUSE_RULE_COSTS
from tests.api.still_demo import still_demo


def _read(name: str) -> set[TerrainKind]:
    return set(TERRAIN_READ[name].kinds)


def test_every_rule_system_has_its_line() -> None:
    assert set(TERRAIN_READ) == {find_ruleset(name).name for name in ruleset_names()}


def test_the_kinds_are_those_the_rule_packages_name() -> None:
    assert _read("choc-base-6") == {*HOUSE_RULE_COSTS, *cb6.BLOCKING_TERRAIN}
    assert _read("confrontation") == {
        *HOUSE_RULE_COSTS,
        *confrontation.BLOCKING_TERRAIN,
    }
    assert _read("musg") == {*musg.COSTLY_TERRAIN, *musg.BLOCKING_TERRAIN, *musg.COVER_TERRAIN}
    # MBT: difficult ground, and woods for some bases, slow (mbt/moves.py _difficulty)
    assert _read("mbt") == {*mbt.BLOCKING_TERRAIN, TerrainKind.DIFFICULT, TerrainKind.WOOD}
    sheltering = {*sr_geometry.SHELTERING, TerrainKind.OBSTACLE}  # obstacles: cover by level
    assert _read("smooth-and-rifled") == {
        *sr_moves.COSTLY_TERRAIN,
        *sr_moves.BLOCKING_TERRAIN,
        *sheltering,
    }
    assert [name for name, read in TERRAIN_READ.items() if read.levels] == ["smooth-and-rifled"]


def _fire(terrain: list[dict[str, Any]]) -> dict[str, Any]:
    """Choc Base 6: the demo's sniper-like shot of A at B, 300 mm east."""
    scene = parse_scene(
        {
            "ruleset": "choc-base-6",
            "table": {"width_mm": 900, "depth_mm": 600},
            "figures": [
                {"id": "A", "side": "a", "type": "TD", "x_mm": 200, "y_mm": 300},
                {"id": "B", "side": "b", "type": "TD", "x_mm": 500, "y_mm": 300},
            ],
            "terrain": terrain,
        }
    )
    answer: dict[str, Any] = ask(scene, "fire", ["A", "B"]).to_json()
    return answer


def test_choc_base_6_answers_alike_with_a_wall_of_any_level_across_the_line() -> None:
    # the page says Choc Base 6 ignores obstacles and levels: a level-2 wall across the
    # line of fire, or a level-3 one, changes nothing in the answer
    bare = _fire([])
    for level in (2, 3):
        wall = {
            "id": "wall",
            "kind": "obstacle",
            "level": level,
            "line_mm": [[350, 200], [350, 400]],
        }
        assert _fire([wall]) == bare


def test_the_state_says_what_the_table_s_rule_system_reads() -> None:
    # Choc Base 6's book gives terrain no cost: woods and difficult ground change nothing
    # but under the house rule terrain_cost: double
    with still_demo() as (client, live):
        state = client.get("/api/state").json()
        live.set_options({"unit_mm": 100, "terrain_cost": "double"})
        house_rule = client.get("/api/state").json()["terrain_rules"]
    assert state["ruleset"] == "choc-base-6"
    assert state["terrain_rules"] == {
        "kinds": ["impassable", "building"],
        "ignored_kinds": ["difficult", "obstacle", "wood"],
        "levels": False,
    }
    assert house_rule == {
        "kinds": ["wood", "difficult", "impassable", "building"],
        "ignored_kinds": ["obstacle"],
        "levels": False,
    }
    assert terrain_read("smooth-and-rifled")["ignored_kinds"] == []
