"""The kinds of frame source, as arbitre.yaml and the command line give them: a video file
read, one that cannot be read said in one line."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import pytest
from typer.testing import CliRunner

from arbitre.api.cli import app
from arbitre.api.live import sources
from arbitre.vision.simulate import Render
from tests.api.simulated_club import placed_as_rendered, write_club

runner = CliRunner()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Render]:
    """arbitre.yaml, camera/table/roster files and a folder with one frame of a table."""
    return write_club(tmp_path_factory.mktemp("club"))


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
    placed_as_rendered(out, render, 1.0)  # through JPEG compression


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
