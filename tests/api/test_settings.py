"""``arbitre.yaml``: read with a one-line refusal naming each mistake, and terrain saved
into it whole, keeping every other key, as the next start reads it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from arbitre.api.cli import app
from arbitre.api.settings import UnloadableSettings, load_settings, save_terrain
from arbitre.calibration.errors import CalibrationError
from arbitre.files import load_yaml
from arbitre.vision.simulate import Render
from tests.api.club_config import ARBITRE_YAML, STRIP, nested, pieces
from tests.api.simulated_club import add_second_camera, write_club


def test_a_write_failing_midway_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "arbitre.yaml"
    config.write_text(ARBITRE_YAML, encoding="utf-8")

    def failing_fsync(descriptor: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(CalibrationError, match="cannot write the file"):
        save_terrain(config, pieces(STRIP))
    assert config.read_text(encoding="utf-8") == ARBITRE_YAML
    assert [p.name for p in tmp_path.iterdir()] == ["arbitre.yaml"]


@pytest.mark.parametrize(
    "text",
    [
        # no terrain yet: the block is added at the end
        "camera: c.yaml\ntable: t.yaml\nroster: r.yaml\n",
        # list items at the key's own indentation, a comment before the next key
        "camera: c.yaml\nterrain:\n- {id: a, kind: wood, polygon_mm: [[0, 0], [9, 0], [0, 9]]}\n"
        "\n# the roster\nroster: r.yaml\ntable: t.yaml\n",
        # a flow mapping at the top: written again from its data
        "{camera: c.yaml, table: t.yaml, roster: r.yaml, terrain: []}\n",
    ],
)
def test_saving_terrain_keeps_every_other_key(tmp_path: Path, text: str) -> None:
    config = tmp_path / "arbitre.yaml"
    config.write_text(text, encoding="utf-8")
    save_terrain(config, [STRIP])
    written = config.read_text(encoding="utf-8")
    assert yaml.safe_load(written) == {**yaml.safe_load(text), "terrain": [STRIP]}
    if "# the roster" in text:
        assert "# the roster\nroster: r.yaml" in written


def test_a_saved_terrain_is_read_back_as_the_server_s_start_reads_it(
    tmp_path: Path, yaml_backend: str
) -> None:
    # One level less than the bound: saved, and the bounded reader the start uses reads
    # the file back whole; one level more is refused and the file kept.
    config = tmp_path / "arbitre.yaml"
    config.write_text(ARBITRE_YAML, encoding="utf-8")
    save_terrain(config, [{**STRIP, "attrs": {"deep": nested(35)}}])
    assert load_yaml(config.read_text(encoding="utf-8"))["terrain"][0]["attrs"]["deep"]
    saved = config.read_text(encoding="utf-8")
    with pytest.raises(UnloadableSettings, match="nested deeper than 40 levels"):
        save_terrain(config, [{**STRIP, "attrs": {"deep": nested(37)}}])
    assert config.read_text(encoding="utf-8") == saved


runner = CliRunner()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Render]:
    """arbitre.yaml, camera/table/roster files and a folder with one frame of a table."""
    return write_club(tmp_path_factory.mktemp("club"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"camera": "missing.yaml"}, "missing.yaml"),
        ({"colour": "red"}, "colour"),
        ({"source": {"webcam": 0}}, "source.webcam"),
        # a source is one of four: two at once, or none, is a mistake named in the file
        ({"source": {"video": "a.mp4", "folder": "frames"}}, r"\(got video and folder\)"),
        ({"source": {}}, r"source: give one source: camera_index, video, folder or url"),
    ],
)
def test_bad_settings_are_one_line(
    table: tuple[Path, Render], tmp_path: Path, change: dict[str, object], message: str
) -> None:
    config, _ = table
    settings = {**yaml.safe_load(config.read_text()), **change}
    broken = config.parent / "broken.yaml"
    broken.write_text(yaml.safe_dump(settings), encoding="utf-8")
    with pytest.raises(CalibrationError, match=message):
        load_settings(broken)
    result = runner.invoke(
        app, ["snapshot", "--config", str(broken), "--out", str(tmp_path / "s.yaml")]
    )
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1


WOODS = {"id": "w", "kind": "woods", "polygon_mm": [[300, 300], [500, 300], [500, 450]]}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # a key mistyped: named with the key meant, not as "roster: Field required"
        (
            {"roster": None, "rooster": "roster.yaml"},
            "rooster: unknown key (did you mean 'roster'?)",
        ),
        (
            {"ruleset": "chocbase"},
            "ruleset: unsupported ruleset: 'chocbase' (did you mean 'choc-base-6'?); known: "
            "choc-base-6, confrontation, mbt, musg, smooth-and-rifled",
        ),
        # what every question would refuse, refused at the start: the server started and
        # each question then failed on the wood's kind
        ({"terrain": [WOODS]}, "terrain[0].kind: "),
        ({"options": {"unit_mm": -3}}, "options.unit_mm: "),
        ({"options": {"unit_mm": 100, "gird": "hex"}}, "options.gird: "),
    ],
)
def test_a_mistake_in_arbitre_yaml_is_named_before_the_server_starts(
    table: tuple[Path, Render], change: dict[str, object], message: str
) -> None:
    config, _ = table
    settings = {**yaml.safe_load(config.read_text()), **change}
    broken = config.parent / "broken.yaml"
    broken.write_text(
        yaml.safe_dump({k: v for k, v in settings.items() if v is not None}), encoding="utf-8"
    )
    with pytest.raises(CalibrationError) as refused:
        load_settings(broken)
    said = str(refused.value)
    assert said.startswith(f"{broken}: {message}"), said
    assert "\n" not in said


def test_a_wood_mistyped_names_the_kind_meant(table: tuple[Path, Render]) -> None:
    config, _ = table
    settings = {**yaml.safe_load(config.read_text()), "terrain": [WOODS]}
    broken = config.parent / "woods.yaml"
    broken.write_text(yaml.safe_dump(settings), encoding="utf-8")
    with pytest.raises(CalibrationError, match=r"got 'woods' \(did you mean 'wood'\?\)$"):
        load_settings(broken)


def test_a_fixed_piece_and_a_roster_piece_with_one_id_are_refused_at_once(
    table: tuple[Path, Render], tmp_path: Path
) -> None:
    # arbitre.yaml's wood1 and the roster's piece on marker 60, also wood1 (the docs'
    # own examples, used together): refused when the files are read, naming both; the
    # state said "terrain[1].id: duplicate id" only once marker 60 was seen.
    import shutil

    config, _ = table
    club = tmp_path / "club"
    shutil.copytree(config.parent, club)
    roster = club / "roster.yaml"
    pieces = {
        "terrain": [
            {"marker": 60, "id": "wood1", "kind": "wood", "polygon_mm": [[0, 0], [90, 0], [0, 90]]}
        ]
    }
    roster.write_text(roster.read_text() + yaml.safe_dump(pieces), encoding="utf-8")
    settings = yaml.safe_load((club / "arbitre.yaml").read_text())
    settings["terrain"] = [
        {"id": "wood1", "kind": "wood", "polygon_mm": [[300, 300], [500, 300], [500, 450]]}
    ]
    (club / "arbitre.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    with pytest.raises(
        CalibrationError,
        match=r"terrain: 'wood1' is also the id of the roster's terrain piece on marker 60",
    ):
        load_settings(club / "arbitre.yaml")


@pytest.fixture(scope="module")
def two_cameras(table: tuple[Path, Render]) -> tuple[Path, Render, Render]:
    """The same table seen also from its opposite edge: arbitre.yaml with ``cameras:``."""
    path, second = add_second_camera(table[0])
    return path, table[1], second


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"camera": "camera.yaml"}, "give camera: (one camera) or cameras: (several), not both"),
        ({"source": {"folder": "frames"}}, "with cameras:, each camera has its own source:"),
        ({"cameras": []}, "cameras: List should have at least 1 item"),
    ],
)
def test_cameras_written_two_ways_are_refused_in_one_line(
    two_cameras: tuple[Path, Render, Render], tmp_path: Path, change: dict[str, object], words: str
) -> None:
    config = two_cameras[0]
    settings = {**yaml.safe_load(config.read_text()), **change}
    path = config.parent / "wrong.yaml"
    path.write_text(yaml.safe_dump(settings), encoding="utf-8")
    result = runner.invoke(
        app, ["snapshot", "--config", str(path), "--out", str(tmp_path / "s.yaml")]
    )
    assert result.exit_code == 2
    assert words in result.output and len(result.output.strip().splitlines()) == 1
