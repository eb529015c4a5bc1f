"""Every question of every rule system answers or refuses within seconds on the largest
table a scene may hold (1,000 figures), crowded with contacts and terrain."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
import shapely

from arbitre.api.bench.flood import comb as wood_comb
from arbitre.rules.errors import RulesError
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset
from arbitre.rules.scene import MAX_FIGURES, parse_scene

CASE_SECONDS = 10.0


def _figure(ruleset: str, k: int, rng: random.Random) -> dict[str, Any]:
    figure: dict[str, Any] = {
        "id": f"f{k}",
        "side": rng.choice(["blue", "red"]),
        "x_mm": rng.uniform(20, 1180),
        "y_mm": rng.uniform(20, 880),
        "facing_deg": rng.choice([0, 90, 180, 270]),
    }
    if ruleset == "mbt":
        figure |= {
            "type": rng.choice(["infantry", "cavalry"]),
            "base": {"shape": "rect", "width_mm": 40, "depth_mm": 20},
            "attrs": {"elephant": k % 7 == 0, "archer": k % 3 == 0},
        }
    elif ruleset == "musg":
        figure["attrs"] = {
            "move_pas": 4,
            "rank": rng.choice(["henchman", "chief", "extra"]),
            "resistance": 3,
            "weapon": {"kind": "bow", "range_pas": 20, "strength": 3, "black_powder": True},
        }
    elif ruleset == "confrontation":
        figure["attrs"] = {"ini": 3, "mou_cm": 10}
    elif ruleset == "choc-base-6":
        group = k // 5
        figure |= {
            "group": f"g{group}",
            "reference": k % 5 == 0,
            "type": rng.choice(["TD", "CR"]),
            "side": "blue" if group % 2 else "red",
        }
    elif ruleset == "smooth-and-rifled":
        figure |= {"unit": f"u{k // 8}", "type": "infantry"}
        figure["attrs"] = {"combat": 4, "weapon": {"medium_range_cm": 30}, "leader": k % 10 == 0}
    return figure


def _crowded(ruleset: str) -> Any:
    rng = random.Random(2)
    kinds = ["wood", "impassable", "difficult", "building", "obstacle"]
    terrain = []
    for k in range(30):
        x, y = rng.uniform(0, 1100), rng.uniform(0, 800)
        outline = [[x, y], [x + 80, y], [x + 80, y + 60], [x, y + 60]]
        terrain.append({"id": f"t{k}", "kind": rng.choice(kinds), "polygon_mm": outline})
    return parse_scene(
        {
            "ruleset": ruleset,
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": [_figure(ruleset, k, rng) for k in range(MAX_FIGURES)],
            "terrain": terrain,
        }
    )


@pytest.mark.parametrize(
    "ruleset", ["choc-base-6", "confrontation", "mbt", "musg", "smooth-and-rifled"]
)
def test_every_question_on_a_table_of_1000_figures(ruleset: str) -> None:
    # Before: MBT groups took 40 s on such a table (every pair of bases compared edge by
    # edge), MUSG under_fire 16 s (every base tested at each step of the slide).
    scene = _crowded(ruleset)
    first = scene.figures[0]
    enemy = next(f for f in scene.figures if scene.are_enemies(first.side, f.side))
    a = first.group if ruleset == "choc-base-6" and first.group else first.id
    b = enemy.group if ruleset == "choc-base-6" and enemy.group else enemy.id
    words = {"A": a, "B": b, "SIDE": first.side, "F": "3", "R": "3"}
    words |= {"X": str(round(first.x_mm) + 30), "Y": str(round(first.y_mm))}
    for name, question in sorted(find_ruleset(ruleset).questions().items()):
        started = time.perf_counter()
        try:
            ask(scene, name, [words[slot] for slot in question.args])
        except RulesError:
            pass
        elapsed = time.perf_counter() - started
        assert elapsed < CASE_SECONDS, f"{ruleset} {name}: {elapsed:.1f} s"


@pytest.mark.parametrize("ruleset", ["choc-base-6", "smooth-and-rifled"])
def test_a_wood_reaching_kilometres_off_the_table_costs_only_its_part_on_it(
    ruleset: str,
) -> None:
    # Teeth 2 km long across a 1.2 m table: the ground off the table is cut away before
    # the path search samples it. Uncut, one `reach` took 3.3 GB and stopped on a
    # MemoryError. Cut, it takes what the same comb cut at the table's edges takes.
    import tracemalloc

    def reach_peak(pieces: list[list[list[float]]]) -> tuple[float, int]:
        document: dict[str, Any] = {
            "ruleset": ruleset,
            "table": {"width_mm": 1200, "depth_mm": 900},
            "figures": [{"id": "a", "side": "blue", "x_mm": 590, "y_mm": 400}],
            "terrain": [
                {"id": f"comb{k}", "kind": "wood", "polygon_mm": piece}
                for k, piece in enumerate(pieces)
            ],
        }
        if ruleset == "choc-base-6":
            document["options"] = {"unit_mm": 100}
            document["figures"][0]["attrs"] = {"alone": True}
        else:
            document["figures"][0]["type"] = "infantry"
        scene = parse_scene(document)
        tracemalloc.start()
        try:
            area = ask(scene, "reach", ["a"]).to_json()["area_mm2"]
            return area, tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    comb = wood_comb(999_000.0, -999_000.0)
    # the same comb cut where the field cuts it (500 mm beyond the table): its teeth
    near = shapely.Polygon(comb).intersection(shapely.box(-500, -500, 1700, 1400))
    teeth = [[list(xy) for xy in part.exterior.coords[:-1]] for part in near.geoms]
    far_area, far_peak = reach_peak([comb])
    near_area, near_peak = reach_peak(teeth)
    assert len(teeth) == 20
    assert far_area == pytest.approx(near_area, rel=1e-6)
    assert far_peak < 2 * near_peak + 50_000_000
