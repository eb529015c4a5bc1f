"""What the commands share: the progress bar, drawn on a terminal only, and the live table
of ``serve`` and ``snapshot`` from arbitre.yaml and the source options."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbitre.api.cli import app
from arbitre.api.cli.common import progress_bar
from arbitre.vision.simulate import Render
from tests.api.simulated_club import add_second_camera, write_club


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_is_drawn_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with progress_bar("working") as progress:
        assert progress is not None
        progress(1, 2)
        progress(2, 2)
    assert "━" in terminal.getvalue() and "2/2" in terminal.getvalue()

    with progress_bar("working", quiet=True) as progress:  # --json
        assert progress is None
    monkeypatch.setattr("sys.stderr", io.StringIO())  # not a terminal
    with progress_bar("working") as progress:
        assert progress is None


runner = CliRunner()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Render]:
    """arbitre.yaml, camera/table/roster files and a folder with one frame of a table."""
    return write_club(tmp_path_factory.mktemp("club"))


@pytest.fixture(scope="module")
def two_cameras(table: tuple[Path, Render]) -> tuple[Path, Render, Render]:
    """The same table seen also from its opposite edge: arbitre.yaml with ``cameras:``."""
    path, second = add_second_camera(table[0])
    return path, table[1], second


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
