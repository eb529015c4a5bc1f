"""How question times grow with the table: every question timed cold then warm, a slope fitted."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from arbitre.api.bench import growth
from arbitre.api.bench.growth import QUESTIONS, growth_lines, growth_report
from arbitre.rules.model import Scene
from tests.api.clock import Clock


def test_the_growth_bench_fits_a_slope_through_every_question() -> None:
    seen: list[tuple[int, int]] = []
    rows = growth_report(sizes=(12, 24), repeat=1, progress=lambda *step: seen.append(step))
    assert [(r["ruleset"], r["question"]) for r in rows] == list(QUESTIONS)
    assert seen[-1] == (len(QUESTIONS) * 2, len(QUESTIONS) * 2)
    for row in rows:
        assert len(row["cold_ms"]) == len(row["warm_ms"]) == 2 and min(row["cold_ms"]) > 0
    assert len(growth_lines(rows)) == 1 + len(QUESTIONS)


def test_the_growth_bench_times_each_question_cold_then_warm_and_fits_the_slope(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A clock moved only by the questions: cold, 1, 4 and 8 ms at 10, 20 and 80 figures;
    # warm (the same scene asked again), 10 us a figure.
    clock = Clock()
    cold_s = {10: 1e-3, 20: 4e-3, 80: 8e-3}
    asked: list[Scene] = []

    def timed_ask(scene: Scene, question: str, args: list[str]) -> None:
        n = len(scene.figures)
        clock.now += 10e-6 * n if any(s is scene for s in asked) else cold_s[n]
        asked.append(scene)

    monkeypatch.setattr(growth, "time", SimpleNamespace(perf_counter=clock))
    monkeypatch.setattr(growth, "ask", timed_ask)
    rows = growth_report(sizes=(10, 20, 80), repeat=3)
    # Least squares of ln(ms) on ln(figures), both in units of ln 2 from the first point:
    # cold x = 0, 1, 3 and y = 0, 2, 3; means 4/3 and 5/3;
    #   sum dx dy = (-4/3)(-5/3) + (-1/3)(1/3) + (5/3)(4/3) = (20 - 1 + 20) / 9 = 13/3,
    #   sum dx dx = (16 + 1 + 25) / 9 = 14/3: slope 13/14 (the two ends alone would say 1);
    # warm 0.1, 0.2, 0.8 ms: y = x, slope 1.
    for row in rows:
        assert row["figures"] == [10, 20, 80]
        assert row["cold_ms"] == pytest.approx([1.0, 4.0, 8.0])
        assert row["warm_ms"] == pytest.approx([0.1, 0.2, 0.8])
        assert row["cold_growth"] == pytest.approx(13 / 14)
        assert row["warm_growth"] == pytest.approx(1.0)
    assert len(asked) == len(QUESTIONS) * 3 * 3 * 2  # sizes, repeats, cold and warm
    # No target below 200 figures, and N^0.93 is within N^1.3.
    assert growth_lines(rows)[1].split() == [
        *("choc-base-6", "fire", "10:", "1.0", "/", "0.1", "ms,", "20:", "4.0", "/", "0.2"),
        *("ms,", "80:", "8.0", "/", "0.8", "ms;", "growth", "N^0.93", "cold,", "N^1.00"),
        *("warm", "ok"),
    ]
