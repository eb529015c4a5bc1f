"""What the tests of the commands share: a command run in this process, the refusal to
overwrite a file, a full disk, a board file, and whether an output shows no progress bar."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from arbitre.api.cli import app

BAR_MARKS = ("━", "╸", "\x1b[")  # rich's bar and any terminal escape


def run(*args: str) -> tuple[int, str, str]:
    """``arbitre ARGS`` run in this process: its exit code, stdout and stderr."""
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def refused(path: Path) -> str:
    """The line a command gives instead of writing over ``path``."""
    return f"arbitre: {path}: already exists; pass --force to overwrite it\n"


def disk_full(_descriptor: int) -> None:
    """An ``os.fsync`` on a full disk (monkeypatched in)."""
    raise OSError(28, "No space left on device")


def quiet(*texts: str) -> bool:
    """Whether none of ``texts`` shows a progress bar."""
    return not any(mark in text for text in texts for mark in BAR_MARKS)


def board_yaml(folder: Path, text: str) -> Path:
    """A board file in ``folder`` holding ``text``."""
    path = folder / "board.yaml"
    path.write_text(text, encoding="utf-8")
    return path
