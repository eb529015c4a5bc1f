"""``arbitre plan``: the command's answer, as JSON and as text, and its refusals in one
line (the planning itself is tested in tests/calibration/test_plan.py)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from arbitre.api.cli import app


def test_plan_on_the_command_line() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["plan", "--table", "1830x1220", "--cameras", "2", "--json"])
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["table_mm"] == [1830.0, 1220.0] and answer["cameras"] == 2
    assert len(answer["anchors"]) == 6  # a table this long gets anchors at its edges' middles
    assert answer["alternatives"]["two 4K cameras"] == 1.0
    text = runner.invoke(app, ["plan", "--table", "1830x1220", "--camera", "4k"])
    assert text.exit_code == 0
    assert text.stdout.startswith("1830 x 1220 mm table, 1 3840x2160 camera 1100 mm up")
    for bad, said in (
        (["--table", "1830"], "--table: expected WIDTHxDEPTH"),
        (["--table", "1830x1220", "--camera", "8k"], "--camera: expected WIDTHxDEPTH"),
        (["--table", "1830x1220", "--fov-deg", "200"], "field of view, degrees out of range"),
        (["--table", "nanxnan"], "--table: expected WIDTHxDEPTH"),
    ):
        refused = runner.invoke(app, ["plan", *bad])
        assert refused.exit_code == 2 and said in refused.stderr, (bad, refused.stderr)
        assert len(refused.stderr.strip().splitlines()) == 1
