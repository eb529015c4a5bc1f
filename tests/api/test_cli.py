"""The ``arbitre`` command line as a whole (`arbitre.api.cli`): a usage error or a bad input
of any command is one line on stderr and exit 2, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from arbitre.vision.simulate import Render
from tests.api.cli.invoke import run
from tests.api.simulated_club import write_club
from tests.console import run_console

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "cb6-skirmish.yaml"


def test_the_console_script_never_shows_a_traceback(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    result = subprocess.run(
        [sys.executable, "-m", "arbitre", "ask", str(missing), "groups"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().startswith(f"arbitre: {missing}: cannot read the file")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["ask"], "Missing argument 'scene'. (see arbitre ask --help)"),
        (
            ["ask", "examples/cb6-skirmish.yaml", "impact", "alpins", "verts", "--die", "abc"],
            "Invalid value for '--die'",
        ),
        (["nosuch"], "No such command 'nosuch'."),
        # A 5,000-character value: the line is "arbitre: " (9) + at most 400 + " (see
        # arbitre ask --help)" (24), under 440 characters, whether or not Typer's version
        # quotes the value.
        (
            ["ask", "examples/cb6-skirmish.yaml", "impact", "a", "b", "--die", "9x" * 2500],
            "Invalid value for '--die'",
        ),
    ],
)
def test_a_usage_error_is_one_line_and_exit_2(args: list[str], says: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "arbitre", *args], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arbitre: ") and says in lines[0]
    assert len(lines[0]) < 440
    assert "╭" not in result.stderr  # not Typer's box


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "rules", "--figures", "0"],
        ["bench", "rules", "--figures", "100000000"],
        ["bench", "rules", "--seed", "-1"],
        ["bench", "vision", "--frames", "0"],
        ["bench", "serve", "--seconds", "nan"],
        ["bench", "serve", "--askers", "-3"],
        ["print", "markers", "--ids", "1", "--size-mm", "1e-300", "--out", "m.pdf"],
    ],
)
def test_numbers_out_of_range_are_one_line_before_any_work(argv: list[str]) -> None:
    code, out, err = run_console(*argv)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith("arbitre: "), err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (
            ["ask", str(EXAMPLE), "impact", "alpins", "verts", "--with", "die=3", "--die", "4"],
            "arbitre: --die and --with die= are both given\n",
        ),
        (
            [
                "ask",
                str(EXAMPLE),
                "impact",
                "alpins",
                "verts",
                "--with",
                "die=3",
                "--with",
                "die=4",
            ],
            "arbitre: --with die= is given twice\n",
        ),
        (
            ["serve", "--demo", "--config", "arbitre.yaml"],
            "arbitre: --demo is a table of its own: give it or --config, not both\n",
        ),
        (
            ["snapshot", "--demo", "--server", "http://127.0.0.1:9", "--out", "never.yaml"],
            "arbitre: --server gives the scene: no --demo with it\n",
        ),
    ],
)
def test_options_that_contradict_each_other_are_refused(argv: list[str], says: str) -> None:
    # Which one would win is no way to answer: the user is told, nothing is done.
    assert run_console(*argv) == (2, "", says)


def test_version_is_the_installed_one() -> None:
    code, out, err = run_console("--version")
    assert (code, err) == (0, "")
    assert out == f"arbitre {version('arbitre')}\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["print", "markers", "--ids", "1", "--size-mm", "15", "--force", "--out"],
        ["snapshot", "--demo", "--frames", "1", "--force", "--out"],
    ],
)
def test_a_folder_given_as_the_file_to_write_is_said_to_be_one(
    tmp_path: Path, argv: list[str]
) -> None:
    code, stdout, stderr = run(*argv, str(tmp_path))
    assert (code, stdout, stderr) == (
        2,
        "",
        f"arbitre: {tmp_path}: a directory; give a file name\n",
    )
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Render]:
    """arbitre.yaml, camera/table/roster files and a folder with one frame of a table."""
    return write_club(tmp_path_factory.mktemp("club"))


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
