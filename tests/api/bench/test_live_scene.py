"""What a new table state costs the live table, each state read three ways."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from arbitre.api.bench import live_scene
from arbitre.api.bench.live_scene import RULESETS as LIVE_RULESETS
from arbitre.api.bench.live_scene import live_scene_lines, live_scene_report
from tests.api.clock import Clock


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
