"""What users install: one import package, arbitre, with its page and data files.

The wheel is built here and read as a zip; `.ci/check-wheel` goes further and serves
the page from a wheel installed in a fresh virtual environment.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("rules", "vision", "calibration", "api")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("arbitre-*.whl")
    return zipfile.ZipFile(built)


def _source_files(part: str) -> set[str]:
    """The files of one folder, named as the wheel holds them (arbitre/<part>/...)."""
    return {
        f"arbitre/{path.relative_to(ROOT).as_posix()}"
        for path in (ROOT / part).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_the_wheel_installs_one_top_level_package(wheel: zipfile.ZipFile) -> None:
    tops = {name.split("/")[0] for name in wheel.namelist()}
    assert tops == {"arbitre", "arbitre-0.1.0.dist-info"}
    assert wheel.read("arbitre-0.1.0.dist-info/top_level.txt").decode().split() == ["arbitre"]
    entry_points = wheel.read("arbitre-0.1.0.dist-info/entry_points.txt").decode()
    assert "arbitre = arbitre.api.cli:entry" in entry_points


@pytest.mark.parametrize("part", PARTS)
def test_every_file_of_the_package_is_in_the_wheel(wheel: zipfile.ZipFile, part: str) -> None:
    expected = _source_files(part)
    assert expected, part
    missing = expected - set(wheel.namelist())
    assert missing == set()


def test_the_package_s_own_modules_are_in_the_wheel(wheel: zipfile.ZipFile) -> None:
    expected = {f"arbitre/{path.name}" for path in (ROOT / "arbitre").glob("*.py")}
    assert {"arbitre/__init__.py", "arbitre/files.py"} <= expected
    assert expected - set(wheel.namelist()) == set()


def test_the_page_and_its_assets_are_in_the_wheel(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    assert {"arbitre/api/static/index.html", "arbitre/api/static/app.js"} <= names


def test_python_dash_m_arbitre_runs_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "arbitre", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "ask" in result.stdout and "serve" in result.stdout


@pytest.mark.parametrize("part", PARTS)
def test_a_folder_cannot_be_imported_under_its_bare_name(part: str) -> None:
    # From the checkout's root the folders are on sys.path; importing one by its bare
    # name would load every module a second time, as other objects.
    result = subprocess.run(
        [sys.executable, "-c", f"import {part}"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert f"import arbitre.{part}, not {part}" in result.stderr
