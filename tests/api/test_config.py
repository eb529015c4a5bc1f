"""arbitre.yaml: the live table from files a user writes, fed by a folder of frames."""

from __future__ import annotations

import math
import os
from pathlib import Path

import cv2
import pytest
import yaml
from typer.testing import CliRunner

from arbitre.api.cli import app
from arbitre.api.live import sources
from arbitre.api.settings import load_settings
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.simulated import write_setup
from arbitre.vision.simulate import Render, preset, render

runner = CliRunner()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Render]:
    """arbitre.yaml, camera/table/roster files and a folder with one frame of a table."""
    folder = tmp_path_factory.mktemp("club")
    scene = preset("overhead", scale=0.4, seed=5)
    render = scene.render()
    write_setup(scene, folder)
    (folder / "frames").mkdir()
    cv2.imwrite(str(folder / "frames" / "0001.png"), render.image)
    settings = {
        "camera": "camera.yaml",
        "table": "table.yaml",
        "roster": "roster.yaml",
        "ruleset": "choc-base-6",
        "options": {"unit_mm": 100},
        "source": {"folder": "frames"},
    }
    (folder / "arbitre.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    return folder / "arbitre.yaml", render


def _placed_as_rendered(scene: Path, render: Render, within_mm: float) -> None:
    """The snapshot holds every figure seen, each within ``within_mm`` of where it stands."""
    figures = {f["id"]: f for f in yaml.safe_load(scene.read_text())["figures"]}
    visible = {i for i in render.visible_ids() if i >= 10}
    assert {f"figure {i}" for i in visible} == set(figures)
    for marker in visible:
        truth = render.truth[marker].centre_mm
        placed = figures[f"figure {marker}"]
        assert math.hypot(placed["x_mm"] - truth[0], placed["y_mm"] - truth[1]) < within_mm


def test_snapshot_from_the_configured_source(table: tuple[Path, Render], tmp_path: Path) -> None:
    config, render = table
    out = tmp_path / "scene.yaml"
    result = runner.invoke(
        app, ["snapshot", "--config", str(config), "--frames", "3", "--out", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    _placed_as_rendered(out, render, 0.5)
    # The saved scene is one `arbitre ask` reads.
    answer = runner.invoke(app, ["ask", str(out), "groups"])
    assert answer.exit_code == 0


def test_snapshot_from_a_video_file(table: tuple[Path, Render], tmp_path: Path) -> None:
    # The same frame recorded five times in a video: the figures land where they stand.
    config, render = table
    video = tmp_path / "game.avi"
    height, width = render.image.shape[:2]
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, (width, height))
    for _ in range(5):
        writer.write(render.image)
    writer.release()
    out = tmp_path / "scene.yaml"
    result = runner.invoke(
        app,
        ["snapshot", "--config", str(config), "--video", str(video), "--frames", "3"]
        + ["--out", str(out)],
    )
    assert result.exit_code == 0, result.stderr
    _placed_as_rendered(out, render, 1.0)  # through JPEG compression


def test_a_video_that_cannot_be_read_is_one_line(
    table: tuple[Path, Render], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config, _ = table
    text = tmp_path / "notes.avi"
    text.write_text("not a video", encoding="utf-8")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    monkeypatch.setattr(sources, "VIDEO_DEADLINE_S", 0.5)  # nobody will write to the pipe
    for video, says in [
        (tmp_path / "missing.avi", "missing.avi: no such file"),
        (tmp_path, "a folder; give its images with --folder"),
        (text, "notes.avi: not a video OpenCV can read"),
        (pipe, "pipe: no video came within 0.5 s (a pipe nobody writes to?)"),
    ]:
        result = runner.invoke(
            app,
            ["snapshot", "--config", str(config), "--video", str(video)]
            + ["--out", str(tmp_path / "scene.yaml")],
        )
        assert result.exit_code == 2, result.stderr
        assert says in result.stderr and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "scene.yaml").exists()
    # Let the reader left waiting on the pipe go: a writer comes and goes at once.
    os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))


def test_a_file_that_is_no_video_is_one_line_even_from_ffmpeg(
    table: tuple[Path, Render], tmp_path: Path
) -> None:
    # FFmpeg writes its own complaint ("moov atom not found") straight to stderr: run as
    # a user does, in a process of its own, the command says one line and nothing more.
    import subprocess
    import sys

    config, _ = table
    video = tmp_path / "x.mp4"
    video.write_text("hello\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", "from arbitre.api.cli import entry; entry()", "snapshot"]
        + ["--config", str(config), "--video", str(video), "--out", str(tmp_path / "s.yaml")],
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if not k.startswith("OPENCV_")},
    )
    assert run.returncode == 2
    assert run.stderr == f"arbitre: {video}: not a video OpenCV can read\n"


def test_serve_warns_of_roster_figures_without_a_height(
    table: tuple[Path, Render], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # figure 10's marker sits 23.4 mm up; a roster that forgets it places the marker as if
    # it lay on the table: serve says so when it starts.
    import shutil
    import socket

    import uvicorn

    config, _ = table
    club = tmp_path / "club"
    shutil.copytree(config.parent, club)
    roster = club / "roster.yaml"
    roster.write_text(roster.read_text().replace("  marker_height_mm: 23.4\n", "", 1))
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = runner.invoke(
        app, ["serve", "--config", str(club / "arbitre.yaml"), "--port", str(port)]
    )
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stdout.splitlines() if "warning" in line]
    assert warnings == [
        "arbitre: warning: no marker_height_mm in the roster for figure 10: their markers are"
        " placed as if lying on the table (a marker on a head then lands tens of mm off)"
    ]


def test_a_camera_that_gives_no_picture_says_what_to_check(
    table: tuple[Path, Render], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No webcam 9 on this machine: serve starts (the camera is tried again every few
    # seconds) but says so, and what to check; snapshot stops with the same advice.
    import socket

    import uvicorn

    config, _ = table
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    served = runner.invoke(
        app, ["serve", "--config", str(config), "--camera-index", "9", "--port", str(port)]
    )
    assert served.exit_code == 0, served.stderr
    assert "arbitre: warning: camera 9 gives no picture yet (is it plugged in" in served.stdout
    snapped = runner.invoke(
        app,
        ["snapshot", "--config", str(config), "--camera-index", "9", "--frames", "1"]
        + ["--out", str(tmp_path / "scene.yaml")],
    )
    assert snapped.exit_code == 2
    assert snapped.stderr.startswith("arbitre: camera 9: no frame (is it plugged in")


def test_snapshot_of_frames_without_the_table_writes_nothing(
    table: tuple[Path, Render], tmp_path: Path
) -> None:
    config, render = table
    blank = tmp_path / "blank"
    blank.mkdir()
    cv2.imwrite(str(blank / "0001.png"), render.image * 0 + 128)  # a grey frame, no anchor
    out = tmp_path / "scene.yaml"
    argv = ["snapshot", "--config", str(config), "--folder", str(blank), "--out", str(out)]
    result = runner.invoke(app, [*argv, "--frames", "3"])
    assert result.exit_code == 2
    assert "the table was not found in 3 frames" in result.stderr
    assert not out.exists()


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
    config, first = table
    folder = config.parent
    scene = preset("overhead", scale=0.4, seed=5)
    centre = (scene.scene.table.width_mm / 2, scene.scene.table.depth_mm / 2)
    # the second camera carried half a turn round the table: it sees it upside down
    second = render(scene.camera.around(centre, 180.0), scene.scene, scene.options)
    (folder / "frames_b").mkdir()
    cv2.imwrite(str(folder / "frames_b" / "0001.png"), second.image)
    settings = yaml.safe_load(config.read_text())
    del settings["camera"], settings["source"]
    settings["cameras"] = [
        {"camera": "camera.yaml", "source": {"folder": "frames"}},
        {"camera": "camera.yaml", "source": {"folder": "frames_b"}},
    ]
    path = folder / "two.yaml"
    path.write_text(yaml.safe_dump(settings), encoding="utf-8")
    return path, first, second


def test_snapshot_from_two_cameras_fuses_what_each_saw(
    two_cameras: tuple[Path, Render, Render], tmp_path: Path
) -> None:
    config, first, second = two_cameras
    out = tmp_path / "scene.yaml"
    result = runner.invoke(
        app, ["snapshot", "--config", str(config), "--frames", "3", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    scene = yaml.safe_load(out.read_text())
    figures = {f["id"]: f for f in scene["figures"]}
    visible = {i for i in (*first.visible_ids(), *second.visible_ids()) if i >= 10}
    assert {f"figure {i}" for i in visible} == set(figures)
    for marker in visible:
        truth = first.truth[marker].centre_mm
        placed = figures[f"figure {marker}"]
        assert math.hypot(placed["x_mm"] - truth[0], placed["y_mm"] - truth[1]) < 1.0
    assert "0:pose_rx" in scene["shared_errors"] and "1:pose_rx" in scene["shared_errors"]


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


def test_a_source_flag_is_refused_when_the_file_names_several_cameras(
    two_cameras: tuple[Path, Render, Render], tmp_path: Path
) -> None:
    config = two_cameras[0]
    result = runner.invoke(
        app,
        [
            "snapshot",
            "--config",
            str(config),
            "--folder",
            str(tmp_path),
            "--out",
            str(tmp_path / "s.yaml"),
        ],
    )
    assert result.exit_code == 2
    assert "names 2 cameras: each one's source is in the file" in result.output
