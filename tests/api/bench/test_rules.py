"""``arbitre bench rules``: question times on a generated table, its progress counted one by
one to the total."""

from __future__ import annotations

from arbitre.api.bench.rules import run_rules_bench


def test_the_rules_bench_counts_every_question_timed() -> None:
    seen: list[tuple[int, int]] = []
    report = run_rules_bench(
        20, 4, 2, 1, progress=lambda *step: seen.append(step), cli_repeat=0, growth_repeat=0
    )
    # 4 questions (fire, move, reach, groups) and 4 rulesets, each timed twice: 16 steps.
    assert seen == [(done, 16) for done in range(1, 17)]
    assert len(report["questions"]) == 4 and len(report["rulesets"]) == 4
