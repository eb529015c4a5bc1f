"""The benchmarks tell their progress: counts that rise one by one to the total."""

from __future__ import annotations

import numpy as np
import pytest

from arbitre.api.bench.cameras import SET_UPS, cameras_lines, run_cameras_bench
from arbitre.api.bench.cli_start import RULESETS, cli_start_lines, cli_start_report
from arbitre.api.bench.every_question import RULESETS as EVERY_RULESET
from arbitre.api.bench.every_question import every_question_lines, every_question_report
from arbitre.api.bench.growth import QUESTIONS, growth_lines, growth_report
from arbitre.api.bench.live_scene import RULESETS as LIVE_RULESETS
from arbitre.api.bench.live_scene import live_scene_lines, live_scene_report
from arbitre.api.bench.rules import run_rules_bench
from arbitre.api.bench.serve import run_serve_bench
from arbitre.calibration.progress import Steps
from arbitre.rules.registry import find_ruleset


def test_the_rules_bench_counts_every_question_timed() -> None:
    seen: list[tuple[int, int]] = []
    report = run_rules_bench(
        20, 4, 2, 1, progress=lambda *step: seen.append(step), cli_repeat=0, growth_repeat=0
    )
    # 4 questions (fire, move, reach, groups) and 4 rulesets, each timed twice: 16 steps.
    assert seen == [(done, 16) for done in range(1, 17)]
    assert len(report["questions"]) == 4 and len(report["rulesets"]) == 4


def test_the_serve_bench_counts_tenths_of_a_second() -> None:
    seen: list[tuple[int, int]] = []
    report = run_serve_bench(
        clients=1,
        seconds=0.3,
        askers=2,
        cameras=False,
        floods=False,
        progress=lambda *step: seen.append(step),
    )
    # 1 s of warm-up and three measures of 0.3 s, in tenths: 10 + 3 + 3 + 3 steps.
    assert seen == [(done, 19) for done in range(1, 20)]
    assert report["clients"] == 1 and report["fps_alone"] > 0
    asked = report["questions"]
    assert asked["askers"] == 2 and asked["other"] == 0


def test_the_cold_start_bench_asks_a_distance_under_every_rule_system() -> None:
    # Each run is a real `python -m arbitre ask SCENE distance A B` that must exit 0.
    report = cli_start_report(repeat=1)
    assert [row["ruleset"] for row in report["questions"]] == list(RULESETS)
    assert report["baseline_ms"] > 0 and all(row["ms"] > 0 for row in report["questions"])
    assert len(cli_start_lines(report)) == 1 + len(RULESETS)


def test_the_growth_bench_fits_a_slope_through_every_question() -> None:
    seen: list[tuple[int, int]] = []
    rows = growth_report(sizes=(12, 24), repeat=1, progress=lambda *step: seen.append(step))
    assert [(r["ruleset"], r["question"]) for r in rows] == list(QUESTIONS)
    assert seen[-1] == (len(QUESTIONS) * 2, len(QUESTIONS) * 2)
    for row in rows:
        assert len(row["cold_ms"]) == len(row["warm_ms"]) == 2 and min(row["cold_ms"]) > 0
        # Two sizes: the fitted slope is the one through both points.
        ratio = np.log(row["cold_ms"][1] / row["cold_ms"][0]) / np.log(2.0)
        assert row["cold_growth"] == pytest.approx(ratio)
    assert len(growth_lines(rows)) == 1 + len(QUESTIONS)


def test_the_live_scene_bench_reads_each_state_three_ways() -> None:
    report = live_scene_report(figures=24, terrain=4, states=3)
    assert [row["ruleset"] for row in report["rulesets"]] == list(LIVE_RULESETS)
    for row in report["rulesets"]:
        assert min(row["fresh_ms"], row["moved_ms"], row["still_ms"]) > 0
        assert row["moved_ratio"] == pytest.approx(row["moved_ms"] / row["fresh_ms"])
    # The rule systems whose page shows groups are those with a groups question.
    assert {r["ruleset"] for r in report["rulesets"] if r["groups"]} == {
        "choc-base-6",
        "smooth-and-rifled",
        "mbt",
    }
    assert len(live_scene_lines(report)) == 1 + len(LIVE_RULESETS)


def test_the_every_question_bench_asks_every_question_of_every_rule_system() -> None:
    seen: list[tuple[int, int]] = []
    rows = every_question_report(repeat=1, progress=lambda *step: seen.append(step))
    asked = {(row["ruleset"], row["question"]) for row in rows}
    expected = {
        (name, question) for name in EVERY_RULESET for question in find_ruleset(name).questions()
    }
    assert asked == expected
    assert seen[-1] == (2 * len(expected), 2 * len(expected))
    for row in rows:
        small, large = row["cold_ms"]
        assert row["growth"] == pytest.approx(np.log(large / small) / np.log(4.0))
    # A distance is measured, never refused: both figures are on the table.
    distances = [row for row in rows if row["question"] == "distance"]
    assert len(distances) == 5 and not any(row["refused"] for row in distances)
    assert every_question_lines(rows)[0].startswith("every question, cold, 100 to 400 figures")


def test_the_club_cameras_bench_tracks_the_figures_both_cameras_see() -> None:
    seen: list[tuple[int, int]] = []
    one = tuple(s for s in SET_UPS if s.preset == "club1080")
    rows = run_cameras_bench(1.0, Steps(3, lambda *step: seen.append(step)), one)
    assert seen == [(1, 3), (2, 3), (3, 3)]  # rendered, one camera alone, both
    (row,) = rows
    assert len(row["fps_each"]) == 2 and min(row["fps_each"]) > 0 and row["fps_alone"] > 0
    # Two 1080p cameras at opposite edges read the markers of the near half of the table
    # each (the bench vision's club section: 62 % of 80 found with two): far more than
    # one camera's 30 %.
    assert row["figures_tracked"] >= 40
    assert len(cameras_lines(rows)) == 2
