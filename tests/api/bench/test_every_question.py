"""How every question of every rule system grows with the table."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from arbitre.api.bench import every_question
from arbitre.api.bench.every_question import RULESETS as EVERY_RULESET
from arbitre.api.bench.every_question import every_question_lines, every_question_report
from arbitre.rules.errors import QuestionError
from arbitre.rules.model import Scene
from arbitre.rules.registry import find_ruleset
from tests.api.clock import Clock


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
