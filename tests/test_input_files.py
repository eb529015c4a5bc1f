"""Input files that are not what they claim (a device, a FIFO, a folder, deeply nested or
aliased YAML, a huge file) are refused in one line naming the file, never a traceback and
never a hang: camera.yaml, table.yaml, roster.yaml, board.yaml and arbitre.yaml."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

import arbitre.files
from arbitre.api.settings import load_settings, save_terrain
from arbitre.calibration.board import load_board
from arbitre.calibration.camera import load_camera
from arbitre.calibration.errors import CalibrationError, CalibrationFileError
from arbitre.calibration.table import load_roster, load_table
from arbitre.files import (
    MAX_YAML_NESTING,
    BoundedLoader,
    FileReadError,
    in_python,
    load_yaml,
    read_bounded,
)

LOADERS: dict[str, Callable[[Path], Any]] = {
    "camera": load_camera,
    "table": load_table,
    "roster": load_roster,
    "board": load_board,
    "arbitre": load_settings,
}

TABLE = """\
width_mm: 900
depth_mm: 600
anchors:
  - {id: 0, x_mm: 35, y_mm: 35, size_mm: 40}
  - {id: 1, x_mm: 865, y_mm: 35, size_mm: 40}
  - {id: 2, x_mm: 865, y_mm: 565, size_mm: 40}
  - {id: 3, x_mm: 35, y_mm: 565, size_mm: 40}
"""

CAMERA = """\
image_size: [1280, 720]
camera_matrix: [[930, 0, 639.5], [0, 930, 359.5], [0, 0, 1]]
dist_coeffs: [0, 0, 0, 0, 0]
"""


def _one_line(error: BaseException, name: str) -> str:
    text = str(error)
    assert "\n" not in text
    assert text.startswith(name)
    return text


@pytest.mark.parametrize("kind", sorted(LOADERS))
def test_deep_nesting_is_refused_in_one_line(kind: str, tmp_path: Path, yaml_backend: str) -> None:
    deep = tmp_path / f"{kind}.yaml"
    deep.write_text("[" * 100_000)
    with pytest.raises(CalibrationError) as refused:
        LOADERS[kind](deep)
    assert f"nested deeper than {MAX_YAML_NESTING} levels" in _one_line(refused.value, str(deep))


@pytest.mark.parametrize("kind", sorted(LOADERS))
def test_aliases_are_refused_in_one_line(kind: str, tmp_path: Path) -> None:
    aliased = tmp_path / f"{kind}.yaml"
    aliased.write_text("a: &x [1, 2]\nb: [*x, *x, *x]\n")
    with pytest.raises(CalibrationError) as refused:
        LOADERS[kind](aliased)
    assert "aliases (*name) are not read" in _one_line(refused.value, str(aliased))


def _refusal_in_a_child(kind: str, path: Path) -> str:
    """The one line a loader refuses ``path`` with, read in a child process that is given
    30 s: a reader that waited for a FIFO's writer or read ``/dev/zero`` for ever fails the
    test instead of hanging it."""
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from tests.test_input_files import LOADERS\n"
        "from arbitre.calibration.errors import CalibrationError\n"
        "try:\n"
        f"    LOADERS[{kind!r}](Path(sys.argv[1]))\n"
        "except CalibrationError as error:\n"
        "    print(error)\n"
    )
    answer = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert answer.returncode == 0, answer.stderr
    return answer.stdout.strip()


@pytest.mark.parametrize("kind", sorted(LOADERS))
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_refused_without_reading_it(kind: str, device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    assert _refusal_in_a_child(kind, Path(device)) == (
        f"{device}: cannot read the file (not a regular file: a device, a pipe or a socket)"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("kind", sorted(LOADERS))
def test_a_fifo_is_refused_without_waiting_for_a_writer(kind: str, tmp_path: Path) -> None:
    fifo = tmp_path / f"{kind}.yaml"
    os.mkfifo(fifo)
    assert _refusal_in_a_child(kind, fifo) == (
        f"{fifo}: cannot read the file (not a regular file: a device, a pipe or a socket)"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("option", ["--camera", "--table", "--roster"])
def test_locate_refuses_a_fifo_in_one_line(option: str, tmp_path: Path) -> None:
    files = {"--camera": tmp_path / "camera.yaml", "--table": tmp_path / "table.yaml"}
    files["--camera"].write_text(CAMERA)
    files["--table"].write_text(TABLE)
    fifo = tmp_path / "p.yaml"
    os.mkfifo(fifo)
    files[option] = fifo
    image = tmp_path / "frame.png"
    image.write_bytes(b"")
    argv = ["locate", str(image), *(part for o, p in files.items() for part in (o, str(p)))]
    answer = subprocess.run(
        [sys.executable, "-m", "arbitre", *argv], capture_output=True, text=True, timeout=30
    )
    assert answer.returncode == 2
    assert answer.stderr.count("\n") == 1
    assert answer.stderr.startswith("arbitre: ")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_serve_refuses_a_fifo_config_in_one_line(tmp_path: Path) -> None:
    fifo = tmp_path / "arbitre.yaml"
    os.mkfifo(fifo)
    answer = subprocess.run(
        [sys.executable, "-m", "arbitre", "serve", "--config", str(fifo)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert answer.returncode == 2
    assert answer.stderr == (
        f"arbitre: {fifo}: cannot read the file (not a regular file: a device, a pipe or "
        "a socket)\n"
    )


@pytest.mark.parametrize("kind", sorted(LOADERS))
def test_a_folder_is_refused_in_one_line(kind: str, tmp_path: Path) -> None:
    with pytest.raises(CalibrationError) as refused:
        LOADERS[kind](tmp_path)
    assert "a directory, not a file" in _one_line(refused.value, str(tmp_path))


@pytest.mark.parametrize("kind", sorted(LOADERS))
def test_a_huge_file_is_refused_unread(kind: str, tmp_path: Path) -> None:
    huge = tmp_path / f"{kind}.yaml"
    with huge.open("wb") as out:
        out.truncate(200_000_000)  # sparse: 200 MB of zeros on no disk
    with pytest.raises(CalibrationError) as refused:
        LOADERS[kind](huge)
    assert "200,000,000 bytes, more than 10,000,000" in _one_line(refused.value, str(huge))


def test_too_many_values_are_refused(tmp_path: Path) -> None:
    many = tmp_path / "roster.yaml"
    many.write_text("figures: [" + "0, " * 200_000 + "]\n")
    with pytest.raises(CalibrationFileError, match="more than 150,000 values"):
        load_roster(many)


def test_save_terrain_refuses_what_load_settings_refuses(tmp_path: Path, yaml_backend: str) -> None:
    deep = tmp_path / "arbitre.yaml"
    deep.write_text("[" * 100_000)
    with pytest.raises(CalibrationError, match="nested deeper than"):
        save_terrain(deep, [])
    assert deep.read_text() == "[" * 100_000


def test_read_bounded_reads_a_regular_file_whole(tmp_path: Path) -> None:
    file = tmp_path / "a.yaml"
    file.write_bytes(b"x" * 5000)
    assert read_bounded(file, 5000) == b"x" * 5000
    with pytest.raises(FileReadError, match="5,000 bytes, more than 4,999") as refused:
        read_bounded(file, 4999)
    assert refused.value.path == str(file)
    with pytest.raises(FileReadError) as missing:
        read_bounded(tmp_path / "absent.yaml", 10)
    assert missing.value.missing and not missing.value.folder
    with pytest.raises(FileReadError) as folder:
        read_bounded(tmp_path, 10)
    assert folder.value.folder and not folder.value.missing
    assert isinstance(folder.value, OSError)  # the command line's one line


def test_load_yaml_reads_ordinary_files_as_safe_load_does(yaml_backend: str) -> None:
    text = TABLE + "notes: {when: 2024-09-14, ok: yes, n: 010}\n"
    assert load_yaml(text) == yaml.safe_load(text)
    # 40 brackets are 40 lists, each the only item of the one around it, the innermost
    # empty: the deepest nesting read, [[[...[]...]]].
    deepest: list[Any] = []
    for _ in range(MAX_YAML_NESTING - 1):
        deepest = [deepest]
    assert MAX_YAML_NESTING == 40
    assert load_yaml("[" * 40 + "]" * 40) == deepest


def _refusal(text: str) -> tuple[str, int, int]:
    """What `load_yaml` refuses ``text`` for, and where (line and column, from 1)."""
    with pytest.raises(yaml.YAMLError) as refused:
        load_yaml(text)
    mark = refused.value.problem_mark  # type: ignore[attr-defined]
    return refused.value.problem, mark.line + 1, mark.column + 1  # type: ignore[attr-defined]


# Nesting written four ways. The root is level 1; the composer refuses any value at level 41:
#   flow: "figures: " is 9 characters, the 40th "[" (level 41) is at column 9 + 40 = 49;
#   dashes on one line: "- " is 2 characters, the 41st dash is at column 2 * 40 + 1 = 81;
#   dashes on lines: line k + 1 holds a dash at column k + 1, the 41st at line 41, column 41;
#   flow mappings: "{a: " is 4 characters; the key "a" of the 40th mapping is at level 41,
#   column 4 * 39 + 2 = 158.
NESTINGS = {
    "flow": (lambda n: "figures: " + "[" * n + "]" * n + "\n", (1, 49)),
    "dashes": (lambda n: "- " * n + "x\n", (1, 81)),
    "dashes on lines": (lambda n: "".join(" " * k + "-\n" for k in range(n)), (41, 41)),
    "flow mappings": (lambda n: "{a: " * n + "}" * n + "\n", (1, 158)),
}


@pytest.mark.parametrize("depth", [41, 999, 1001, 5000])
@pytest.mark.parametrize("shape", sorted(NESTINGS))
def test_deep_nesting_is_refused_in_the_same_words_by_libyaml_and_in_python(
    shape: str, depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PyYAML 6.0.4's libyaml stops at its own limit of 1,000 levels while its scanner looks
    ahead, before the composer counts to 40 ("exceeded maximum nesting depth"); arbitre says
    the same thing at the same place whichever parser PyYAML reads with."""
    write, (line, column) = NESTINGS[shape]
    text = write(depth)
    said = {}
    for libyaml in (True, False):
        if libyaml and not hasattr(yaml, "CSafeLoader"):
            continue
        monkeypatch.setattr(arbitre.files, "LIBYAML", libyaml)
        said[libyaml] = _refusal(text)
    assert set(said.values()) == {(f"nested deeper than {MAX_YAML_NESTING} levels", line, column)}


def test_the_python_reading_runs_without_libyaml() -> None:
    python = in_python(BoundedLoader)
    order = python.__mro__
    assert order.index(yaml.parser.Parser) < order.index(yaml.composer.Composer)
    if hasattr(yaml, "CSafeLoader"):
        assert order.index(yaml.parser.Parser) < order.index(yaml.CSafeLoader)
        assert issubclass(BoundedLoader, yaml.CSafeLoader)
    assert in_python(python) is python


def test_a_deep_nest_after_a_large_file_is_refused_at_its_own_line(yaml_backend: str) -> None:
    """2,000 lines of a list, then 2,000 levels on line 2,002: the refusal names that line,
    at the 40th "[" after "b: " (column 3 + 40 = 43)."""
    text = "a:\n" + "".join(f"  - [{i}, {i + 1}]\n" for i in range(2000))
    text += "b: " + "[" * 2000 + "]" * 2000 + "\n"
    assert _refusal(text) == (f"nested deeper than {MAX_YAML_NESTING} levels", 2002, 43)


def test_a_deep_key_is_refused_in_the_same_words_by_libyaml_and_in_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A key of 500 "[" and 500 "]": the 40th "[" is at level 41, line 2, column 40."""
    text = "a: 1\n" + "[" * 500 + "]" * 500 + ": v\n"
    for libyaml in (True, False):
        monkeypatch.setattr(arbitre.files, "LIBYAML", libyaml)
        assert _refusal(text) == (f"nested deeper than {MAX_YAML_NESTING} levels", 2, 40)


def _libyaml_limits_nesting() -> bool:
    """Whether this PyYAML's libyaml stops at its own nesting limit (PyYAML 6.0.4 and on)."""
    if not hasattr(yaml, "CSafeLoader"):
        return False
    try:
        yaml.load("[" * 1001 + "]" * 1001, Loader=yaml.CSafeLoader)
    except yaml.YAMLError as error:
        return "maximum nesting depth" in str(getattr(error, "problem", ""))
    return False


def test_a_key_too_long_and_too_deep_is_refused_in_one_line_at_once(yaml_backend: str) -> None:
    """A key of 4,000 characters nesting 2,000 levels: YAML lets a key run 1,024 characters,
    and PyYAML's parser gives up on it before composing anything, naming where it grew too
    long (column 1,024 + 2 = 1,026), as a libyaml without a nesting limit does. A libyaml
    with one stops first at it, at the 1,000th "[" (the key starts line 2: column 1,000):
    the text before ends inside the key, and the refusal is arbitre's, at that place.
    Either way one line, and no text is read twice in Python."""
    text = "a: 1\n" + "[" * 2000 + "]" * 2000 + ": v\n"
    said = (
        (f"nested deeper than {MAX_YAML_NESTING} levels", 2, 1000)
        if yaml_backend == "libyaml" and _libyaml_limits_nesting()
        else ("could not find expected ':'", 2, 1026)
    )
    assert _refusal(text) == said


# YAML 1.1 line breaks (NEL, LS, PS) are left out: inside quotes libyaml keeps them and
# PyYAML folds them, as PyYAML has always done; arbitre's files have no use for them.
_TEXT = st.text(
    st.characters(exclude_categories=["Cs"], exclude_characters="\x85\u2028\u2029"), max_size=8
)
_DATA = st.recursive(
    st.none() | st.booleans() | st.integers() | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=30,
)


@given(data=_DATA, flow=st.booleans())
def test_libyaml_and_python_read_the_same_data(data: Any, flow: bool) -> None:
    text = yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True)
    python = load_yaml(text, in_python(BoundedLoader))
    assert python == data
    assert load_yaml(text) == python
