"""How long ``arbitre ask`` takes from a cold start, under every rule system."""

from __future__ import annotations

from arbitre.api.bench.cli_start import RULESETS, cli_start_lines, cli_start_report


def test_the_cold_start_bench_asks_a_distance_under_every_rule_system() -> None:
    # Each run is a real `python -m arbitre ask SCENE distance A B` that must exit 0.
    report = cli_start_report(repeat=1)
    assert [row["ruleset"] for row in report["questions"]] == list(RULESETS)
    assert report["baseline_ms"] > 0 and all(row["ms"] > 0 for row in report["questions"])
    assert len(cli_start_lines(report)) == 1 + len(RULESETS)
