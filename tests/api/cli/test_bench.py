"""``arbitre bench``: no progress bar when nobody watches a terminal."""

from __future__ import annotations

import json

import pytest

from tests.api.cli.invoke import quiet, run


@pytest.mark.parametrize("as_json", [False, True])
def test_bench_shows_no_progress_bar_off_a_terminal(as_json: bool) -> None:
    args = ["bench", "rules", "--figures", "20", "--terrain", "4", "--repeat", "1"]
    code, stdout, stderr = run(*args, *(["--json"] if as_json else []))
    assert code == 0, stderr
    assert quiet(stdout, stderr)
    if as_json:
        assert {row["question"] for row in json.loads(stdout)["questions"]} >= {"fire", "move"}
