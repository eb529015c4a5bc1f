"""What a new table state costs the live table, timed in one run on the bench's table.

Each state of a live table is read into a scene and, under a rule system that has
groups, its groups are found (the page shows them). Three ways are timed, each on the
same successive states, where one figure moves a few millimetres at a time:

* **fresh**: every state read from scratch, nothing kept (what a command-line
  question pays);
* **one moved**: the states read as the live table reads them (`LastScene`, through a
  `SceneReader`): only the figure that moved is validated and outlined again, and
  the groups found again;
* **still**: the same state read again (the live table between two moves): the same
  scene and groups.
"""

from __future__ import annotations

import copy
import statistics
import time
from collections.abc import Callable
from typing import Any

from arbitre.api.bench.rules import ruleset_scene_data
from arbitre.api.live.desk import LastScene
from arbitre.rules.model import Scene, forget_kept
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset
from arbitre.rules.scene import parse_scene

RULESETS = ("choc-base-6", "smooth-and-rifled", "musg", "mbt", "confrontation")


def _states(document: dict[str, Any], count: int) -> list[dict[str, Any]]:
    """``count`` successive states: each moves one figure (in turn) 3 mm along x."""
    states, state = [], document
    for k in range(count):
        state = copy.deepcopy(state)
        figure = state["figures"][k % len(state["figures"])]
        figure["x_mm"] = min(figure["x_mm"] + 3.0, state["table"]["width_mm"])
        states.append(state)
    return states


def _median_ms(work: Callable[[dict[str, Any]], object], states: list[dict[str, Any]]) -> float:
    times = []
    for state in states:
        start = time.perf_counter()
        work(state)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def live_scene_report(figures: int = 200, terrain: int = 50, states: int = 30) -> dict[str, Any]:
    """Median milliseconds per state of each rule system, read fresh, with one figure
    moved, and still."""
    rows = []
    for name in RULESETS:
        has_groups = "groups" in find_ruleset(name).questions()

        def derive(scene: Scene, has_groups: bool = has_groups) -> None:
            if has_groups:
                ask(scene, "groups", []).to_json()

        def fresh(state: dict[str, Any]) -> None:
            forget_kept()  # nothing kept from the last state
            derive(parse_scene(state))

        last = LastScene()

        def read(state: dict[str, Any], last: LastScene = last) -> None:
            scene = last.scene(state, "live table")
            last.derived(scene, "groups", lambda: derive(scene))

        document = ruleset_scene_data(name, figures, seed=1, terrain=terrain)
        moving = _states(document, states)
        fresh_ms = _median_ms(fresh, moving)
        read(document)
        moved_ms = _median_ms(read, moving)
        still_ms = _median_ms(read, [moving[-1]] * states)
        rows.append(
            {
                "ruleset": name,
                "groups": has_groups,
                "fresh_ms": fresh_ms,
                "moved_ms": moved_ms,
                "still_ms": still_ms,
                "moved_ratio": moved_ms / fresh_ms,
                "still_ratio": still_ms / fresh_ms,
            }
        )
    return {"figures": figures, "terrain": terrain, "rulesets": rows}


def live_scene_lines(report: dict[str, Any]) -> list[str]:
    lines = [
        f"live table, a new state of {report['figures']} figures "
        "(its scene, and its groups where the rules have them), against reading it afresh:"
    ]
    for row in report["rulesets"]:
        lines.append(
            f"{row['ruleset']:>17}: afresh {row['fresh_ms']:.1f} ms; one figure moved "
            f"x{row['moved_ratio']:.2f}; still x{row['still_ratio']:.3f}"
        )
    return lines
