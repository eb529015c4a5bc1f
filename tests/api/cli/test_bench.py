"""``arbitre bench``: no progress bar when nobody watches a terminal."""

from __future__ import annotations

import json

import pytest

from tests.api.cli.invoke import quiet, run


@pytest.fixture
def small_sections(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cold starts, the growth and every question asked (which show no progress) at
    their smallest: they took half a minute of a test about the progress bar."""
    from arbitre.api.bench import cli_start, every_question, growth

    whole_starts, whole_growth = cli_start.cli_start_report, growth.growth_report
    every = every_question.every_question_report
    monkeypatch.setattr(cli_start, "cli_start_report", lambda _repeat: whole_starts(1))
    monkeypatch.setattr(
        growth, "growth_report", lambda repeat: whole_growth(sizes=(20, 40), repeat=1)
    )
    monkeypatch.setattr(every_question, "every_question_report", lambda: every(repeat=1))


@pytest.mark.parametrize("as_json", [False, True])
@pytest.mark.usefixtures("small_sections")
def test_bench_shows_no_progress_bar_off_a_terminal(as_json: bool) -> None:
    args = ["bench", "rules", "--figures", "20", "--terrain", "4", "--repeat", "1"]
    code, stdout, stderr = run(*args, *(["--json"] if as_json else []))
    assert code == 0, stderr
    assert quiet(stdout, stderr)
    if as_json:
        assert {row["question"] for row in json.loads(stdout)["questions"]} >= {"fire", "move"}
