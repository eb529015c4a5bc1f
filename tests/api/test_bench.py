"""The benchmarks tell their progress: counts that rise one by one to the total."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from arbitre.api.bench import every_question, growth, live_scene
from arbitre.api.bench.cameras import SET_UPS, cameras_lines, run_cameras_bench
from arbitre.api.bench.cli_start import RULESETS, cli_start_lines, cli_start_report
from arbitre.api.bench.every_question import RULESETS as EVERY_RULESET
from arbitre.api.bench.every_question import every_question_lines, every_question_report
from arbitre.api.bench.growth import QUESTIONS, growth_lines, growth_report
from arbitre.api.bench.live_scene import RULESETS as LIVE_RULESETS
from arbitre.api.bench.live_scene import live_scene_lines, live_scene_report
from arbitre.api.bench.rules import run_rules_bench
from arbitre.api.bench.serve import report_lines, run_serve_bench
from arbitre.calibration.progress import Steps
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Scene
from arbitre.rules.registry import find_ruleset
from tests.api.clock import Clock


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
        journal=False,
        progress=lambda *step: seen.append(step),
    )
    # 1 s of warm-up and three measures of 0.3 s, in tenths: 10 + 3 + 3 + 3 steps.
    assert seen == [(done, 19) for done in range(1, 20)]
    assert report["clients"] == 1 and report["fps_alone"] > 0
    asked = report["questions"]
    assert asked["askers"] == 2 and asked["other"] == 0


def test_the_serve_bench_journals_the_questions_asked_at_a_table_s_pace() -> None:
    seen: list[tuple[int, int]] = []
    report = run_serve_bench(
        clients=1,
        seconds=2.5,
        askers=1,
        cameras=False,
        floods=False,
        progress=lambda *step: seen.append(step),
    )
    # the first server: 1 s of warm-up and three measures of 2.5 s (10 + 25 + 25 + 25
    # tenths), then the journal's: 1 s of warm-up and eight turns of 0.3125 s without and
    # with questions (10 + 16 x 3)
    assert seen[-1] == (143, 143)
    kept = report["journal"]
    # 50 questions a minute, one every 1.2 s of the 2.5 s asking: three (fewer when the
    # first, which waits for the worker to start, is slow; one more when a loaded machine
    # stretches the turns past 3.6 s); all journaled
    assert kept["per_minute"] == 50 and 1 <= kept["answered"] <= 4 and kept["other"] == 0
    assert kept["journaled"] == kept["answered"] and 1 <= kept["pictures"] <= kept["answered"]
    assert kept["fps"] > 0
    assert kept["settled"] >= 1 and kept["size_bytes"] > 0
    assert kept["ratio"] > 0 and kept["fps_quiet"] > 0
    assert any(
        line.startswith("  journal on, 50 questions a minute:") for line in report_lines(report)
    )


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


def test_the_live_scene_bench_reads_each_state_three_ways() -> None:
    report = live_scene_report(figures=24, terrain=4, states=3)
    assert [row["ruleset"] for row in report["rulesets"]] == list(LIVE_RULESETS)
    for row in report["rulesets"]:
        assert min(row["fresh_ms"], row["moved_ms"], row["still_ms"]) > 0
    # The rule systems whose page shows groups are those with a groups question.
    assert {r["ruleset"] for r in report["rulesets"] if r["groups"]} == {
        "choc-base-6",
        "smooth-and-rifled",
        "mbt",
    }
    assert len(live_scene_lines(report)) == 1 + len(LIVE_RULESETS)


def test_the_live_scene_bench_compares_each_way_of_reading_with_reading_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A clock moved only by the reads: afresh 10 ms a state; through the kept scene, 2 ms
    # when a figure moved since the last state read, 0.5 ms when nothing did. Every way
    # reads 3 states: the medians are 10, 2 and 0.5 ms, so one figure moved costs
    # 2 / 10 = 0.20 of reading afresh and a still state 0.5 / 10 = 0.05.
    clock = Clock()

    def afresh(state: dict[str, Any]) -> Any:
        clock.now += 10e-3
        return state

    class Kept:
        def __init__(self) -> None:
            self.last: Any = None

        def scene(self, state: dict[str, Any], _source: str) -> Any:
            clock.now += 0.5e-3 if state is self.last else 2e-3
            self.last = state
            return state

        def derived(self, _scene: Any, _name: str, compute: Any) -> Any:
            return None

    monkeypatch.setattr(live_scene, "time", SimpleNamespace(perf_counter=clock))
    monkeypatch.setattr(live_scene, "parse_scene", afresh)
    monkeypatch.setattr(live_scene, "LastScene", Kept)
    monkeypatch.setattr(live_scene, "ask", lambda *_args: SimpleNamespace(to_json=dict))
    monkeypatch.setattr(live_scene, "forget_kept", lambda: None)
    report = live_scene_report(figures=12, terrain=2, states=3)
    for row in report["rulesets"]:
        assert row["fresh_ms"] == pytest.approx(10.0)
        assert row["moved_ms"] == pytest.approx(2.0)
        assert row["still_ms"] == pytest.approx(0.5)
        assert row["moved_ratio"] == pytest.approx(0.2)
        assert row["still_ratio"] == pytest.approx(0.05)
    assert live_scene_lines(report)[1] == (
        "      choc-base-6: afresh 10.0 ms; one figure moved x0.20; still x0.050"
    )


def test_the_every_question_bench_asks_every_question_of_every_rule_system() -> None:
    seen: list[tuple[int, int]] = []
    rows = every_question_report(repeat=1, progress=lambda *step: seen.append(step))
    asked = {(row["ruleset"], row["question"]) for row in rows}
    expected = {
        (name, question) for name in EVERY_RULESET for question in find_ruleset(name).questions()
    }
    assert asked == expected
    assert seen[-1] == (2 * len(expected), 2 * len(expected))
    assert all(len(row["cold_ms"]) == 2 and min(row["cold_ms"]) > 0 for row in rows)
    # A distance is measured, never refused: both figures are on the table.
    distances = [row for row in rows if row["question"] == "distance"]
    assert len(distances) == 5 and not any(row["refused"] for row in distances)
    assert every_question_lines(rows)[0].startswith("every question, cold, 100 to 400 figures")


def test_the_every_question_bench_times_each_question_cold_and_says_its_growth(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A clock moved only by the questions, each asked 3 times at 100 and 400 figures: a
    # distance 10 us a figure; a shot 1 ms times (figures / 100) squared; a move refused
    # after 2 ms; the other questions 1 ms. The first asking of each is 5 times as long
    # (the median of 3 leaves it out).
    clock = Clock()
    asked: list[tuple[str, int]] = []

    def timed_ask(scene: Scene, question: str, args: list[str]) -> None:
        n = len(scene.figures)
        cost_s = {"distance": 10e-6 * n, "fire": 1e-3 * (n / 100) ** 2, "move": 2e-3}
        first = (question, n) not in asked
        asked.append((question, n))
        clock.now += cost_s.get(question, 1e-3) * (5 if first else 1)
        if question == "move":
            raise QuestionError("A may not move there\nsecond line")

    monkeypatch.setattr(every_question, "RULESETS", ("mbt",))
    monkeypatch.setattr(every_question, "time", SimpleNamespace(perf_counter=clock))
    monkeypatch.setattr(every_question, "ask", timed_ask)
    rows = {row["question"]: row for row in every_question_report(repeat=3)}
    assert sorted(rows) == sorted(find_ruleset("mbt").questions())
    assert len(asked) == len(rows) * 2 * 3
    # Growth: ln(time at 400 / time at 100) / ln(400 / 100) = ln(ratio) / ln 4.
    # distance: 1 ms, then 4 ms: ln 4 / ln 4 = 1.
    assert rows["distance"]["cold_ms"] == pytest.approx([1.0, 4.0])
    assert rows["distance"]["growth"] == pytest.approx(1.0)
    # fire: 1 ms, then 16 ms: ln 16 / ln 4 = 2.
    assert rows["fire"]["cold_ms"] == pytest.approx([1.0, 16.0])
    assert rows["fire"]["growth"] == pytest.approx(2.0)
    # move: 2 ms at both sizes, growth 0, timed to its refusal, whose first line is kept.
    assert rows["move"]["cold_ms"] == pytest.approx([2.0, 2.0])
    assert rows["move"]["growth"] == pytest.approx(0.0)
    assert rows["move"]["refused"] == "A may not move there"
    assert rows["panic"]["cold_ms"] == pytest.approx([1.0, 1.0])
    assert not rows["panic"]["refused"]
    # Growths 0 (8 questions, victory among them), 1 and 2: median 0; only fire is past N^1.3.
    assert every_question_lines(list(rows.values())) == [
        "every question, cold, 100 to 400 figures: 10 questions, growth N^0.00 to N^2.00 "
        "(median N^0.00; target N^1.3) SLOW: 1",
        "              mbt fire: 100: 1.0 ms, 400: 16.0 ms; N^2.00",
    ]


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
