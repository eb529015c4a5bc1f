"""``arbitre check``: whether a club's set-up is ready before the game, read as ``serve``
reads it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from arbitre.calibration.simulated import write_setup
from arbitre.vision.simulate import preset
from tests.console import run_console


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A set-up as `arbitre table init` and a calibration leave it, and its arbitre.yaml."""
    write_setup(preset("overhead", scale=0.4, seed=5), tmp_path)
    settings = {
        "camera": "camera.yaml",
        "table": "table.yaml",
        "roster": "roster.yaml",
        "ruleset": "cb6",
        "options": {"unit_mm": 100},
        "source": {"camera_index": 0},
        "terrain": [{"id": "bois", "kind": "wood", "polygon_mm": [[50, 50], [90, 50], [90, 80]]}],
    }
    (tmp_path / "arbitre.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    return tmp_path / "arbitre.yaml"


def test_check_says_what_a_ready_set_up_holds(club: Path) -> None:
    table = yaml.safe_load((club.parent / "table.yaml").read_text())
    roster = yaml.safe_load((club.parent / "roster.yaml").read_text())
    code, out, err = run_console("check", str(club))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("camera: camera.yaml (")
    assert lines[0].endswith("source: webcam 0")
    anchors = ", ".join(str(a["id"]) for a in table["anchors"])
    assert lines[1] == (
        f"table: table.yaml, {table['width_mm']:g} x {table['depth_mm']:g} mm, "
        f"{len(table['anchors'])} anchors ({anchors}), {table['dictionary']}"
    )
    assert lines[2] == f"roster: roster.yaml, {len(roster['figures'])} figures"
    # cb6 is Choc Base 6's alias: the M of unit_mm 100
    assert lines[3] == "rules: choc-base-6, 1 M = 100 mm; options: unit_mm: 100"
    assert lines[4] == "terrain: bois"
    assert lines[-1] == f"{club}: ready"


def test_check_refuses_a_mistake_in_one_line(club: Path) -> None:
    settings = yaml.safe_load(club.read_text())
    settings["terrain"][0]["kind"] = "woods"
    club.write_text(yaml.safe_dump(settings), encoding="utf-8")
    code, out, err = run_console("check", str(club))
    assert (code, out) == (2, "")
    assert err.startswith(f"arbitre: {club}: terrain[0].kind: ")
    assert err.endswith("got 'woods' (did you mean 'wood'?)\n")
