"""The benchmarks tell their progress: counts that rise one by one to the total."""

from __future__ import annotations

from arbitre.api.bench.rules import run_rules_bench
from arbitre.api.bench.serve import run_serve_bench


def test_the_rules_bench_counts_every_question_timed() -> None:
    seen: list[tuple[int, int]] = []
    report = run_rules_bench(20, 4, 2, 1, progress=lambda *step: seen.append(step))
    # 4 questions (fire, move, reach, groups) and 4 rulesets, each timed twice: 16 steps.
    assert seen == [(done, 16) for done in range(1, 17)]
    assert len(report["questions"]) == 4 and len(report["rulesets"]) == 4


def test_the_serve_bench_counts_tenths_of_a_second() -> None:
    seen: list[tuple[int, int]] = []
    report = run_serve_bench(clients=1, seconds=0.3, progress=lambda *step: seen.append(step))
    # 1 s of warm-up and two measures of 0.3 s, in tenths: 10 + 3 + 3 steps.
    assert seen == [(done, 16) for done in range(1, 17)]
    assert report["clients"] == 1 and report["fps_alone"] > 0
