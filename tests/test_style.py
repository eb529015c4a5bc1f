"""The code reads as style.md asks: ruff clean everywhere, mypy --strict on the package."""

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


def test_mypy_strict_on_the_whole_package() -> None:
    # From the repository's root, as an editor's checker reads it: arbitre/ holds the four
    # folders as links (arbitre/rules -> ../rules ...), found by name with no tree built.
    result = _run("mypy", "--strict", "--no-incremental", "-p", "arbitre")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues found in" in result.stdout


def test_the_parts_are_found_by_their_path_in_the_tree() -> None:
    # What a tool that reads the tree does (jedi, pyright, an IDE's "go to definition"):
    # arbitre.rules is the folder arbitre/rules, which is the top-level rules/ itself.
    for part in PARTS:
        linked = ROOT / "arbitre" / part
        assert linked.is_symlink() and linked.resolve() == ROOT / part, linked
        assert (linked / "__init__.py").is_file()


UNMIRRORED = {
    # answers and reason words: types and tables read by every question's tests, the
    # words checked for all five systems at once (tests/rules/test_reason_words.py)
    **{
        f"rules/{system}/{module}.py": "read by every question's test"
        for system in ("choc_base_6", "confrontation", "mbt", "musg", "smooth_and_rifled")
        for module in ("answers", "reasons")
        if (system, module) != ("choc_base_6", "answers")  # CB6's are rules/answers.py
    },
    "rules/choc_base_6/grid_answers.py": "the grid's answer types, read by its questions' tests",
    "rules/confrontation/book.py": "four numbers, read by the melee and pursuit tests",
    "rules/mbt/book.py": "the book's numbers, read by the combat, move and panic tests",
    "calibration/_files.py": "private: tested through load_camera, load_board, load_table",
    "vision/errors.py": "one exception class, tested wherever it is raised",
}
"""Modules of the package with no test file named after them, each with its reason
(an ``__init__.py`` that only gathers its package's names needs none)."""


def test_the_tests_mirror_the_package() -> None:
    # style.md: tests/rules/test_fire.py <-> rules/fire.py, folders included
    # (rules/musg/moves.py <-> tests/rules/musg/test_moves.py).
    missing = []
    for part in PARTS:
        for module in sorted((ROOT / part).rglob("*.py")):
            path = module.relative_to(ROOT)
            mirror = ROOT / "tests" / path.parent / f"test_{path.name}"
            if module.name == "__init__.py" or mirror.is_file():
                continue
            if path.as_posix() not in UNMIRRORED:
                missing.append(path.as_posix())
    assert missing == []
    stale = [
        name
        for name in UNMIRRORED
        if not (ROOT / name).is_file()
        or (ROOT / "tests" / Path(name).parent / f"test_{Path(name).name}").is_file()
    ]
    assert stale == []  # an exemption outlives neither its module nor its missing test
