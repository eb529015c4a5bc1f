"""``arbitre calibrate camera``: the inner-corner mistake, no progress bar off a terminal,
and a camera file never overwritten without --force."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from arbitre.calibration.camera import load_camera
from arbitre.vision.simulate import Camera, look_at, render_plane
from tests.api.cli.invoke import board_yaml, quiet, refused, run


def _chessboard_photos(folder: Path, views: int = 4) -> list[Path]:
    """A chessboard of 10 x 7 squares of 30 mm (9 x 6 inner corners) photographed by a
    640 x 480 camera from a few angles."""
    px_per_mm = 4
    flat = np.full((7 * 30 * px_per_mm, 10 * 30 * px_per_mm), 255, np.uint8)
    side = 30 * px_per_mm
    for j in range(7):
        for i in range(10):
            if (i + j) % 2 == 0:
                flat[j * side : (j + 1) * side, i * side : (i + 1) * side] = 0
    flat = cv2.copyMakeBorder(flat, 80, 80, 80, 80, cv2.BORDER_CONSTANT, value=255)
    matrix = np.array([[600.0, 0.0, 319.5], [0.0, 600.0, 239.5], [0.0, 0.0, 1.0]])
    paths = []
    for index, (dx, dy) in enumerate([(-120, -60), (110, -50), (-90, 80), (100, 90)][:views]):
        # The board's centre, in the frame of the bordered sheet (20 mm border).
        target = np.array([170.0, 125.0, 0.0])
        rvec, tvec = look_at(target + [dx, dy, -480.0], target, up=(0.1 * index, -1.0, 0.0))
        image = render_plane(Camera(matrix, np.zeros(5), (640, 480), rvec, tvec), flat, 0.25)
        path = folder / f"shot{index}.png"
        cv2.imwrite(str(path), image)
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return _chessboard_photos(tmp_path_factory.mktemp("shots"))


def test_a_chessboard_counted_by_its_inner_corners_exits_2_naming_the_squares(
    tmp_path: Path, photos: list[Path]
) -> None:
    board = board_yaml(tmp_path, "type: chessboard\nsquares_x: 9\nsquares_y: 6\nsquare_mm: 30\n")
    code, stdout, stderr = run(
        "calibrate", "camera", *map(str, photos), "--board", str(board),
        "--out", str(tmp_path / "camera.yaml"),
    )  # fmt: skip
    assert code == 2 and stdout == ""
    assert stderr == (
        "arbitre: the board file counts squares, not inner corners: these images show a "
        "chessboard of 10 x 7 squares (9 x 6 inner corners); write squares_x: 10, "
        "squares_y: 7\n"
    )


@pytest.mark.parametrize("as_json", [False, True])
def test_calibration_shows_no_progress_bar_off_a_terminal(
    tmp_path: Path, photos: list[Path], as_json: bool
) -> None:
    board = board_yaml(tmp_path, "type: chessboard\nsquares_x: 10\nsquares_y: 7\nsquare_mm: 30\n")
    code, stdout, stderr = run(
        "calibrate", "camera", *map(str, photos), "--board", str(board),
        "--out", str(tmp_path / "camera.yaml"), *(["--json"] if as_json else []),
    )  # fmt: skip
    assert code == 0, stderr
    assert quiet(stdout, stderr)
    if as_json:
        assert len(json.loads(stdout)["images_used"]) == 4
    else:
        assert stdout.startswith(f"{tmp_path / 'camera.yaml'}: RMS ")


def _chessboard_photo(folder: Path, name: str, offset: tuple[float, float]) -> Path:
    """A 10 x 7 chessboard of 30 mm squares seen by a 640 x 480 camera (fx = fy = 600 px)
    from 480 mm, moved ``offset`` mm sideways: the board is tilted towards the camera."""
    px_per_mm, side = 4, 30 * 4
    flat = np.full((7 * side, 10 * side), 255, np.uint8)
    for j in range(7):
        for i in range(10):
            if (i + j) % 2 == 0:
                flat[j * side : (j + 1) * side, i * side : (i + 1) * side] = 0
    flat = cv2.copyMakeBorder(flat, 80, 80, 80, 80, cv2.BORDER_CONSTANT, value=255)
    matrix = np.array([[600.0, 0.0, 319.5], [0.0, 600.0, 239.5], [0.0, 0.0, 1.0]])
    target = np.array([170.0, 125.0, 0.0])
    rvec, tvec = look_at(target + [offset[0], offset[1], -480.0], target, up=(0.1, -1.0, 0.0))
    image = render_plane(Camera(matrix, np.zeros(5), (640, 480), rvec, tvec), flat, 1 / px_per_mm)
    path = folder / name
    cv2.imwrite(str(path), image)
    return path


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("shots")
    offsets = [(-120, -60), (110, -50), (-90, 80), (100, 90)]
    return [_chessboard_photo(folder, f"shot{i}.png", xy) for i, xy in enumerate(offsets)]


@pytest.fixture
def board(tmp_path: Path) -> Path:
    path = tmp_path / "board.yaml"
    path.write_text("type: chessboard\nsquares_x: 10\nsquares_y: 7\nsquare_mm: 30\n")
    return path


def test_calibrate_camera_keeps_a_camera_unless_forced(
    tmp_path: Path, shots: list[Path], board: Path
) -> None:
    out = tmp_path / "camera.yaml"
    out.write_text("a good camera\n", encoding="utf-8")
    args = ("calibrate", "camera", *map(str, shots), "--board", str(board), "--out", str(out))
    assert run(*args)[0::2] == (2, refused(out))
    assert out.read_text(encoding="utf-8") == "a good camera\n"
    code, _, stderr = run(*args, "--force")
    assert code == 0, stderr
    assert load_camera(out).fx == pytest.approx(600.0, rel=0.05)


def test_three_identical_photos_are_an_error_and_write_nothing(
    tmp_path: Path, shots: list[Path], board: Path
) -> None:
    out = tmp_path / "camera.yaml"
    out.write_text("a good camera\n", encoding="utf-8")
    copies = []
    for name in ("a.png", "b.png", "c.png"):
        copies.append(tmp_path / name)
        copies[-1].write_bytes(shots[0].read_bytes())
    code, stdout, stderr = run(
        "calibrate", "camera", *map(str, copies), "--board", str(board), "--out", str(out),
        "--force",
    )  # fmt: skip
    same = f"the same view as {copies[0]} (every corner within 2 px)"
    assert (code, stdout) == (2, "")
    assert stderr == (
        f"arbitre: only 1 of 3 images can be used (need 3); rejected {copies[1]}: {same}; "
        f"{copies[2]}: {same}\n"
    )
    assert out.read_text(encoding="utf-8") == "a good camera\n"
