"""How question times grow with the table: cold and warm, at 50, 200 and 1,000 figures.

Cold: the question on a scene just parsed (nothing cached), as the first question on a
new table state; warm: the same question again on that scene. The growth is the slope
of log(time) against log(figures), fitted over the sizes: 1 for work that grows with
the figures, 2 for work over every pair. Each ruleset's table is `ruleset_scene_data`'s
(clusters of 2-4 figures on a table that grows with them), with a terrain polygon for
every four figures.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np

from arbitre.api.bench.rules import question_arguments, ruleset_scene_data
from arbitre.calibration.progress import Progress, Steps
from arbitre.rules.questions import ask
from arbitre.rules.scene import parse_scene

SIZES = (50, 200, 1000)
QUESTIONS = (
    ("choc-base-6", "fire"),
    ("choc-base-6", "reach"),
    ("smooth-and-rifled", "fire"),
    ("smooth-and-rifled", "reach"),
    ("musg", "fire"),
    ("mbt", "fire"),
    ("confrontation", "melees"),
)
TARGET_GROWTH = 1.3
TARGETS_COLD_MS = {("choc-base-6", "fire", 200): 10.0, ("smooth-and-rifled", "fire", 200): 10.0}
TARGETS_COLD_MS |= {("choc-base-6", "reach", 200): 50.0, ("smooth-and-rifled", "reach", 200): 50.0}


def growth_report(
    sizes: tuple[int, ...] = SIZES, repeat: int = 3, progress: Progress | None = None
) -> list[dict[str, Any]]:
    """Per question: median cold and warm ms at each size, and the fitted growths."""
    steps = Steps(len(QUESTIONS) * len(sizes) * repeat, progress)
    rows = []
    for ruleset, question in QUESTIONS:
        cold: list[float] = []
        warm: list[float] = []
        for size in sizes:
            data = ruleset_scene_data(ruleset, size, terrain=size // 4)
            args = question_arguments(question, data)
            cold_s, warm_s = [], []
            for _ in range(repeat):
                scene = parse_scene(data, source="<bench>")
                start = time.perf_counter()
                ask(scene, question, args)
                cold_s.append(time.perf_counter() - start)
                start = time.perf_counter()
                ask(scene, question, args)
                warm_s.append(time.perf_counter() - start)
                steps.advance()
            cold.append(statistics.median(cold_s) * 1e3)
            warm.append(statistics.median(warm_s) * 1e3)
        rows.append(
            {
                "ruleset": ruleset,
                "question": question,
                "figures": list(sizes),
                "cold_ms": cold,
                "warm_ms": warm,
                "cold_growth": _growth(sizes, cold),
                "warm_growth": _growth(sizes, warm),
            }
        )
    return rows


def _growth(sizes: tuple[int, ...], times_ms: list[float]) -> float:
    """The slope of log(time) over log(figures), least squares."""
    slope = np.polyfit(np.log(sizes), np.log(np.maximum(times_ms, 1e-6)), 1)[0]
    return float(slope)


def growth_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The report as text: one line per question, targets marked ok or SLOW."""
    lines = ["growth with the table (cold: a fresh scene; warm: asked again):"]
    for row in rows:
        sizes = row["figures"]
        cells = ", ".join(
            f"{n}: {c:.1f} / {w:.1f} ms"
            for n, c, w in zip(sizes, row["cold_ms"], row["warm_ms"], strict=True)
        )
        verdicts = [row["cold_growth"] <= TARGET_GROWTH]
        for n, c in zip(sizes, row["cold_ms"], strict=True):
            target = TARGETS_COLD_MS.get((row["ruleset"], row["question"], n))
            if target is not None:
                verdicts.append(c <= target)
        lines.append(
            f"{row['ruleset']:>17} {row['question']:<6} {cells}; growth N^"
            f"{row['cold_growth']:.2f} cold, N^{row['warm_growth']:.2f} warm  "
            f"{'ok' if all(verdicts) else 'SLOW'}"
        )
    return lines
