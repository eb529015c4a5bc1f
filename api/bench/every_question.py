"""How every question of every rule system grows with the table, from 100 to 400 figures.

Each question is asked cold (on a scene just parsed, with no base outline kept) on
`ruleset_scene_data`'s table of 100 figures and of 400 (a terrain polygon for every
four), and its growth is the slope of log(time) against log(figures) between the two:
1 for work that grows with the figures, 2 for work over every pair. A question the
table cannot answer (a gun asked of infantry) is timed to its refusal, and said so.
"""

from __future__ import annotations

import math
import statistics
import time
from typing import Any

from arbitre.api.bench.rules import ruleset_scene_data
from arbitre.calibration.progress import Progress, Steps
from arbitre.rules.errors import RulesError
from arbitre.rules.model import forget_kept
from arbitre.rules.questions import ask
from arbitre.rules.registry import find_ruleset
from arbitre.rules.scene import parse_scene

RULESETS = ("choc-base-6", "smooth-and-rifled", "musg", "mbt", "confrontation")
SIZES = (100, 400)
TARGET_GROWTH = 1.3


def arguments(ruleset: str, question: str, data: dict[str, Any]) -> list[str]:
    """Arguments of ``question`` on a `ruleset_scene_data` table: ``A`` is the first
    cluster (Choc Base 6: its group), ``B`` the enemy figure nearest it (Choc Base 6: the
    second group), a point ``X Y`` 40 mm beside it, ``SIDE`` its side."""
    figures = data["figures"]
    first = figures[0]
    enemies = [f for f in figures if f["side"] != first["side"]]
    nearest = min(
        enemies or figures[1:],
        key=lambda f: math.hypot(f["x_mm"] - first["x_mm"], f["y_mm"] - first["y_mm"]),
    )
    a, b = ("g0", "g1") if ruleset == "choc-base-6" else (first["id"], nearest["id"])
    values = {
        "A": a,
        "B": b,
        "F": a,
        "R": b,
        "X": f"{first['x_mm'] + 40.0:.1f}",
        "Y": f"{first['y_mm']:.1f}",
        "SIDE": first["side"],
    }
    return [values[name] for name in find_ruleset(ruleset).questions()[question].args]


def _cold_ms(
    data: dict[str, Any], question: str, args: list[str], repeat: int
) -> tuple[float, str]:
    times, refusal = [], ""
    for _ in range(repeat):
        forget_kept()
        scene = parse_scene(data, source="<bench>")
        start = time.perf_counter()
        try:
            ask(scene, question, args)
        except RulesError as error:
            refusal = str(error).splitlines()[0]
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3, refusal


def every_question_report(
    repeat: int = 5, progress: Progress | None = None
) -> list[dict[str, Any]]:
    """Per rule system and question: cold ms at each size, the growth, any refusal."""
    questions = [(name, q) for name in RULESETS for q in sorted(find_ruleset(name).questions())]
    steps = Steps(len(questions) * len(SIZES), progress)
    tables = {
        (name, size): ruleset_scene_data(name, size, seed=1, terrain=size // 4)
        for name in RULESETS
        for size in SIZES
    }
    rows = []
    for name, question in questions:
        times, refusal = [], ""
        for size in SIZES:
            data = tables[name, size]
            ms, refusal = _cold_ms(data, question, arguments(name, question, data), repeat)
            times.append(ms)
            steps.advance()
        growth = math.log(times[-1] / times[0]) / math.log(SIZES[-1] / SIZES[0])
        rows.append(
            {
                "ruleset": name,
                "question": question,
                "cold_ms": times,
                "growth": growth,
                "refused": refusal,
            }
        )
    return rows


def every_question_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The rows as text: the questions that grow too fast are named one by one."""
    steep = [row for row in rows if row["growth"] > TARGET_GROWTH]
    growths = [row["growth"] for row in rows]
    lines = [
        f"every question, cold, {SIZES[0]} to {SIZES[-1]} figures: {len(rows)} questions, "
        f"growth N^{min(growths):.2f} to N^{max(growths):.2f} (median N^"
        f"{statistics.median(growths):.2f}; target N^{TARGET_GROWTH:g})"
        + (" ok" if not steep else f" SLOW: {len(steep)}")
    ]
    for row in steep:
        sizes = ", ".join(f"{s}: {ms:.1f} ms" for s, ms in zip(SIZES, row["cold_ms"], strict=True))
        lines.append(f"{row['ruleset']:>17} {row['question']}: {sizes}; N^{row['growth']:.2f}")
    return lines
