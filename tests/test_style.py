"""The code reads as style.md asks: ruff clean everywhere, mypy --strict on the cores."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("rules", "vision", "calibration", "api")


def _run(*command: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *command], cwd=cwd, capture_output=True, text=True, check=False
    )


def test_ruff_finds_nothing() -> None:
    result = _run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_rules_calibration_and_vision(tmp_path: Path) -> None:
    # mypy finds modules by folder, so it reads the package as it is installed:
    # arbitre/ with the four folders inside it.
    tree = tmp_path / "arbitre"
    tree.mkdir()
    for module in (ROOT / "arbitre").glob("*.py"):  # __init__, __main__, files ...
        (tree / module.name).symlink_to(module)
    for part in PARTS:
        (tree / part).symlink_to(ROOT / part, target_is_directory=True)
    result = _run(
        "mypy",
        "--strict",
        "--no-incremental",
        "--config-file",
        str(ROOT / "pyproject.toml"),
        "-p",
        "arbitre.rules",
        "-p",
        "arbitre.calibration",
        "-p",
        "arbitre.vision",
        "-m",
        "arbitre.files",
        "-m",
        "arbitre.names",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues found in" in result.stdout
