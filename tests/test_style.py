"""The code reads as style.md asks: ruff clean everywhere, mypy --strict on the cores."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_finds_nothing() -> None:
    result = _run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_rules_calibration_and_vision() -> None:
    result = _run("mypy", "--strict", "--no-incremental", "rules", "calibration", "vision")
    assert result.returncode == 0, result.stdout + result.stderr
