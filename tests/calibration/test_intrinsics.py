"""Camera calibration: the real chessboard and ChArUco photos reproduce their published
references; unusable images are rejected with their reason; too few views is a failure value."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from arbitre.calibration.board import Board
from arbitre.calibration.camera import CameraIntrinsics, load_camera
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.intrinsics import (
    BoardView,
    CalibrationFailure,
    CalibrationResult,
    RejectedImage,
    calibrate_camera,
    calibrate_camera_from_files,
    find_board,
    why_degenerate,
)

REAL = Path(os.environ.get("ARBITRE_REAL_DATA", "/nonexistent"))  # set by tests/conftest.py
CHESS = REAL / "opencv-chessboard-9x6"
TUTORIAL = REAL / "opencv-aruco-charuco-tutorial"
needs_real_data = pytest.mark.skipif(not REAL.is_dir(), reason="shared/data/real is not present")

# The 9x6-inner-corner, 25 mm chessboard of OpenCV's samples (README: square_size 0.025 m).
CHESSBOARD = Board("chessboard", squares_x=10, squares_y=7, square_mm=25.0)
# The tutorial's ChArUco board (README: 5x7 squares, 40 / 20 mm, DICT_6X6_250).
TUTORIAL_BOARD = Board("charuco", 5, 7, 40.0, 20.0, "DICT_6X6_250")


def _read(path: Path, flags: int = cv2.IMREAD_COLOR) -> NDArray[np.uint8]:
    image = cv2.imread(str(path), flags)
    assert image is not None, path
    return np.asarray(image, dtype=np.uint8)


def _expected(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def chessboard_result() -> CalibrationResult:
    paths = [CHESS / name for name in _expected(CHESS)["images"]]
    result = calibrate_camera_from_files(paths, CHESSBOARD)
    assert isinstance(result, CalibrationResult), result
    return result


@needs_real_data
def test_chessboard_set_reproduces_the_reference(chessboard_result: CalibrationResult) -> None:
    checks = _expected(CHESS)["suggested_checks"]
    result = chessboard_result
    camera = result.intrinsics
    assert len(result.images_used) == 13 and result.images_rejected == ()
    assert result.rms_px <= checks["rms_px_max"]
    assert checks["fx_fy_range"][0] <= camera.fx <= checks["fx_fy_range"][1]
    assert checks["fx_fy_range"][0] <= camera.fy <= checks["fx_fy_range"][1]
    assert checks["cx_range"][0] <= camera.cx <= checks["cx_range"][1]
    assert checks["cy_range"][0] <= camera.cy <= checks["cy_range"][1]
    # Within the README's +-0.6 % of the upstream reference (fx = fy = 535.92).
    reference = _expected(CHESS)["reference_upstream"]
    assert camera.fx == pytest.approx(reference["fx"], rel=0.006)
    assert camera.fy == pytest.approx(reference["fy"], rel=0.006)
    # Our corners are cornerSubPix (5, 5): the README's run with that window and flags 0.
    run = _expected(CHESS)["verified"]["calibration_subpix5_flags0"]
    assert result.rms_px == pytest.approx(run["rms_px"], abs=0.002)
    assert (camera.fx, camera.fy) == pytest.approx((run["fx"], run["fy"]), abs=0.05)
    assert (camera.cx, camera.cy) == pytest.approx((run["cx"], run["cy"]), abs=0.05)
    assert result.warnings == ()


@needs_real_data
def test_chessboard_corners_match_the_recorded_ones() -> None:
    expected = _expected(CHESS)["corners_subpix_5x5"]
    for name in ("left01.jpg", "left02.jpg", "left14.jpg"):
        image = _read(CHESS / name, cv2.IMREAD_GRAYSCALE)
        view = find_board(image, CHESSBOARD, name=name)
        assert isinstance(view, BoardView)
        assert np.abs(view.image_points_px - np.array(expected[name])).max() < 0.01


@needs_real_data
def test_charuco_tutorial_corners_rms_and_reprojection() -> None:
    """Only RMS and reprojection are tested on 4 views: their intrinsics are ill-conditioned
    (README trap 3: fx from 326 to 480 with the same RMS)."""
    expected = _expected(TUTORIAL)
    names = expected["charuco_calibration_check"]["images"]
    result = calibrate_camera_from_files([TUTORIAL / n for n in names], TUTORIAL_BOARD)
    assert isinstance(result, CalibrationResult), result
    assert result.corners_per_view == (24, 24, 24, 24)
    assert 0.15 <= result.rms_px <= 0.25  # README: 0.188 +- versions; published 0.182
    assert all(0.1 <= e <= 0.3 for e in result.per_view_rms_px)
    assert result.legacy_pattern is False
    assert any("poorly constrained" in w for w in result.warnings)
    # The four photos tilt the board about 23 degrees, all the same way (within 4 degrees).
    assert any("turned the same way in every view (within 3.9 deg)" in w for w in result.warnings)

    # The corners agree with the recorded ones (OpenCV >= 4.14 convention; the +0.5 px bias of
    # older versions is removed by find_board).
    reference = load_camera(TUTORIAL / "tutorial_camera_charuco.yml")
    for name in names:
        image = _read(TUTORIAL / name)
        view = find_board(image, TUTORIAL_BOARD, name=name)
        assert isinstance(view, BoardView)
        truth = expected["images"][name]["expected_charuco_corners"]["opencv>=4.14"]["corners"]
        recorded = np.array([truth[str(i)] for i in view.corner_ids])
        assert np.abs(view.image_points_px - recorded).max() < 0.02

        # The published intrinsics reproject each view's corners at 0.13-0.24 px (README).
        ok, rvec, tvec = cv2.solvePnP(
            view.object_points_mm,
            view.image_points_px,
            reference.camera_matrix,
            reference.dist_coeffs,
        )
        assert ok
        projected = cv2.projectPoints(
            view.object_points_mm, rvec, tvec, reference.camera_matrix, reference.dist_coeffs
        )[0].reshape(-1, 2)
        rms = float(np.sqrt(np.mean(np.sum((projected - view.image_points_px) ** 2, axis=1))))
        assert 0.1 <= rms <= 0.3


@needs_real_data
def test_unusable_images_are_rejected_with_their_reason(tmp_path: Path) -> None:
    grey = _read(TUTORIAL / "img_00.jpg", cv2.IMREAD_GRAYSCALE)
    cropped = np.ascontiguousarray(grey[:240, :320])
    blank = np.full((480, 640), 255, np.uint8)
    few = grey.copy()
    few[:, 250:] = 255  # leaves a strip of the board: markers, but too few ChArUco corners
    images: list[tuple[str, NDArray[Any] | None]] = [
        (f"img_0{i}.jpg", cv2.imread(str(TUTORIAL / f"img_0{i}.jpg"))) for i in range(4)
    ]
    images += [("small.png", cropped), ("blank.png", blank), ("gone.jpg", None), ("few.png", few)]
    result = calibrate_camera(images, TUTORIAL_BOARD)
    assert isinstance(result, CalibrationResult)
    reasons = {r.name: r.reason for r in result.images_rejected}
    assert reasons["small.png"] == "image size 320x240 differs from 640x480"
    assert reasons["blank.png"] == "board not found"
    assert reasons["gone.jpg"] == "cannot read the image"
    assert (
        reasons["few.png"].startswith("only ") and "ChArUco corners (need 6)" in reasons["few.png"]
    )
    assert len(result.images_used) == 4

    payload = result.to_json()
    assert set(payload) >= {"rms_px", "images_used", "images_rejected", "camera_matrix"}
    assert {"image": "blank.png", "reason": "board not found"} in payload["images_rejected"]

    missing = calibrate_camera_from_files([tmp_path / "none.jpg"], TUTORIAL_BOARD)
    assert isinstance(missing, CalibrationFailure)
    assert missing.images_rejected[0].reason.startswith("cannot read the image")


@needs_real_data
def test_too_few_views_is_a_failure_value_with_a_message() -> None:
    images = [(n, cv2.imread(str(TUTORIAL / n))) for n in ("img_00.jpg", "img_01.jpg")]
    result = calibrate_camera(images, TUTORIAL_BOARD)
    assert isinstance(result, CalibrationFailure)
    assert result.message == "only 2 of 2 images can be used (need 3)"
    assert result.images_used == ("img_00.jpg", "img_01.jpg")
    assert result.to_json()["error"] == result.message


TILTED = ((0.3, 0.0, 0.0), (-0.3, 0.1, 0.05), (0.1, 0.35, 0.1), (0.0, -0.35, 0.15))


def _render_views(
    board: Board,
    legacy: bool | None,
    rotations: tuple[tuple[float, float, float], ...] = TILTED,
) -> list[tuple[str, NDArray[np.uint8]]]:
    """The board (ChArUco printed with one layout, or a chessboard) seen by a pinhole camera
    (fx = fy = 900 px, 1280 x 960) 700 mm away, turned by each rotation vector (radians)."""
    px_per_mm, margin = 4.0, 40
    width_mm, height_mm = board.squares_x * board.square_mm, board.squares_y * board.square_mm
    size = (int(width_mm * px_per_mm) + 2 * margin, int(height_mm * px_per_mm) + 2 * margin)
    if board.type == "charuco":
        flat = board.charuco_board(legacy_pattern=legacy).generateImage(size, marginSize=margin)
    else:
        flat = np.full(size[::-1], 255, np.uint8)
        side = int(board.square_mm * px_per_mm)
        for j in range(board.squares_y):
            for i in range(board.squares_x):
                if (i + j) % 2 == 0:
                    top, left = margin + j * side, margin + i * side
                    flat[top : top + side, left : left + side] = 0
    # board-image pixel -> board mm (OpenCV's board frame: x right, y down)
    to_mm = np.array(
        [
            [1 / px_per_mm, 0, -margin / px_per_mm],
            [0, 1 / px_per_mm, -margin / px_per_mm],
            [0, 0, 1],
        ]
    )
    k = np.array([[900.0, 0, 640], [0, 900.0, 480], [0, 0, 1]])
    views = []
    for i, rotation_vector in enumerate(rotations):
        rotation = cv2.Rodrigues(np.array(rotation_vector))[0]
        centre = np.array([width_mm / 2, height_mm / 2, 0.0])
        t = np.array([0.0, 0.0, 700.0]) - rotation @ centre
        homography = k @ np.column_stack([rotation[:, 0], rotation[:, 1], t]) @ to_mm
        image = cv2.warpPerspective(flat, homography, (1280, 960), borderValue=(255,))
        views.append((f"view{i}.png", np.asarray(image, dtype=np.uint8)))
    return views


def test_the_legacy_charuco_layout_is_found_for_even_rows() -> None:
    board = Board("charuco", 7, 6, 30.0, 22.0, "DICT_5X5_100")  # 6 rows: the layouts differ
    views = _render_views(board, legacy=True)

    wrong = find_board(views[0][1], board, name="view0.png", legacy_pattern=False)
    assert isinstance(wrong, RejectedImage)
    assert wrong.reason.startswith("only 0 ChArUco corners")

    result = calibrate_camera(views, board)
    assert isinstance(result, CalibrationResult), result
    assert result.legacy_pattern is True
    assert len(result.images_used) == 4
    assert result.rms_px < 0.5
    assert any("legacy_pattern: true" in w for w in result.warnings)

    pinned = Board("charuco", 7, 6, 30.0, 22.0, "DICT_5X5_100", legacy_pattern=False)
    failure = calibrate_camera(views, pinned)
    assert isinstance(failure, CalibrationFailure)
    assert "is legacy_pattern right in board.yaml" in failure.message


def test_a_chessboard_counted_by_its_inner_corners_is_named_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The usual "9x6" chessboard: 9 x 6 inner corners, 10 x 7 squares, written as 9 x 6.
    views = _render_views(Board("chessboard", 10, 7, 30.0), legacy=None)
    counted_by_corners = Board("chessboard", 9, 6, 30.0)

    def no_full_search(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the board was searched for in every image")

    # Caught on the first images, before the slow search of every image.
    monkeypatch.setattr("arbitre.calibration.intrinsics.find_board", no_full_search)
    with pytest.raises(CalibrationError) as error:
        calibrate_camera(views, counted_by_corners)
    assert str(error.value) == (
        "the board file counts squares, not inner corners: these images show a chessboard of "
        "10 x 7 squares (9 x 6 inner corners); write squares_x: 10, squares_y: 7"
    )


def test_the_right_square_counts_calibrate_and_report_progress() -> None:
    views = _render_views(Board("chessboard", 10, 7, 30.0), legacy=None)
    seen: list[tuple[int, int]] = []
    result = calibrate_camera(
        views, Board("chessboard", 10, 7, 30.0), progress=lambda *step: seen.append(step)
    )
    assert isinstance(result, CalibrationResult), result
    assert len(result.images_used) == 4
    # One step per image searched, then the fit: 4 + 1.
    assert seen == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]


def test_an_even_row_charuco_board_counts_both_layouts_in_its_progress() -> None:
    board = Board("charuco", 7, 6, 30.0, 22.0, "DICT_5X5_100")
    seen: list[tuple[int, int]] = []
    calibrate_camera(_render_views(board, legacy=False), board, progress=lambda *s: seen.append(s))
    # Each of the 4 images is searched with both layouts, then the fit: 2 x 4 + 1.
    assert [done for done, _ in seen] == list(range(1, 10))
    assert {total for _, total in seen} == {9}


@needs_real_data
def test_the_real_9x6_chessboard_counted_by_its_inner_corners_is_named() -> None:
    paths = [CHESS / name for name in _expected(CHESS)["images"]]
    with pytest.raises(CalibrationError, match="write squares_x: 10, squares_y: 7$"):
        calibrate_camera_from_files(paths, Board("chessboard", 9, 6, 25.0))


def test_the_same_view_three_times_is_one_view() -> None:
    board = Board("chessboard", 10, 7, 30.0)
    (_, image), *_ = _render_views(board, legacy=None)
    copies = [("a.png", image), ("b.png", image.copy()), ("c.png", image.copy())]
    result = calibrate_camera(copies, board)
    assert isinstance(result, CalibrationFailure)
    same = "the same view as a.png (every corner within 2 px)"
    assert result.message == (
        f"only 1 of 3 images can be used (need 3); rejected b.png: {same}; c.png: {same}"
    )
    assert result.images_used == ("a.png",)
    # A fourth, different view does not make three: two are still copies.
    fourth = _render_views(board, legacy=None)[1]
    assert isinstance(calibrate_camera([*copies, fourth], board), CalibrationFailure)


def test_a_board_always_square_on_leaves_the_focal_length_free() -> None:
    # Turned about the optical axis only: no view foreshortens the board, so any focal
    # length fits as well as 900 px (with the board farther away). OpenCV still answers,
    # with a small RMS: the answer is refused.
    board = Board("chessboard", 10, 7, 30.0)
    flat = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.3), (0.0, 0.0, -0.4), (0.0, 0.0, 0.6))
    result = calibrate_camera(_render_views(board, legacy=None, rotations=flat), board)
    assert isinstance(result, CalibrationFailure)
    assert result.message.startswith("the board faces the camera square-on in every view")
    assert "the 4 views do not constrain the camera (RMS " in result.message
    assert result.images_used == ("view0.png", "view1.png", "view2.png", "view3.png")


def test_the_board_tilted_but_always_the_same_way_is_a_warning() -> None:
    board = Board("chessboard", 10, 7, 30.0)
    # Each view tilted 0.3 rad (17 deg) about x, turned differently about z: the board's
    # direction is nearly the same in all (at most 0.1 rad of turn between them).
    same_way = ((0.3, 0.0, 0.0), (0.3, 0.0, 0.05), (0.3, 0.0, 0.1), (0.3, 0.0, 0.15))
    result = calibrate_camera(_render_views(board, legacy=None, rotations=same_way), board)
    assert isinstance(result, CalibrationResult), result
    assert any(
        w.startswith("the board is turned the same way in every view") for w in result.warnings
    )
    tilted = calibrate_camera(_render_views(board, legacy=None), board)
    assert isinstance(tilted, CalibrationResult)
    assert not any("turned the same way" in w for w in tilted.warnings)


TILTED_NORMALS = np.array([[0.0, 0.5, np.sqrt(0.75)]])  # a board tilted 30 degrees


@pytest.mark.parametrize(
    ("matrix", "std", "problem"),
    [
        # 2 atan(320 / 8e9) = 4.58e-6 degrees across the 640 px width: no lens.
        (
            [[8e9, 0, 320], [0, 8e9, 240], [0, 0, 1]],
            (1.0, 1.0, 1.0, 1.0),
            "fx = 8e+09 px gives a field of view of 4.58e-06 deg across 640 px",
        ),
        # 2 atan(240 / 10) = 175 degrees across the 480 px height: wider than a pinhole sees.
        (
            [[500, 0, 320], [0, 10, 240], [0, 0, 1]],
            (1.0, 1.0, 1.0, 1.0),
            "fy = 10 px gives a field of view of 175 deg across 480 px",
        ),
        # 1800 / 900 = 2: pixels twice as tall as wide.
        (
            [[900, 0, 320], [0, 1800, 240], [0, 0, 1]],
            (1.0, 1.0, 1.0, 1.0),
            "fx = 900 px and fy = 1800 px differ by a factor 2.00",
        ),
        # 300 / 900 = 33 %.
        (
            [[900, 0, 320], [0, 900, 240], [0, 0, 1]],
            (300.0, 10.0, 1.0, 1.0),
            "the focal length is uncertain to +-33 % (1 sigma)",
        ),
    ],
)
def test_intrinsics_no_camera_has_are_refused(
    matrix: list[list[float]], std: tuple[float, float, float, float], problem: str
) -> None:
    camera = CameraIntrinsics((640, 480), matrix, [0.0] * 5)
    found = why_degenerate(camera, std, TILTED_NORMALS)
    assert found is not None and found.startswith(problem)


def test_a_plausible_camera_passes() -> None:
    camera = CameraIntrinsics((640, 480), [[535, 0, 342], [0, 535, 235], [0, 0, 1]], [0.0] * 5)
    assert why_degenerate(camera, (0.44, 0.46, 0.46, 0.51), TILTED_NORMALS) is None


def test_a_lens_model_that_folds_near_the_centre_is_refused() -> None:
    # k3 = -3e5 (what three identical photos once fitted): r (1 - 3e5 r^6) stops growing at
    # r = (1 / 2.1e6)^(1/6) = 0.088, under a quarter of the way to the corners (1.10).
    # A webcam's k1 = -0.25, k2 = 0.06 grows all the way: nothing to say.
    camera = [[1000.0, 0.0, 960.0], [0.0, 1000.0, 540.0], [0.0, 0.0, 1.0]]
    tilted = np.array([[0.0, 0.5, 0.866], [0.5, 0.0, 0.866]])
    folded = CameraIntrinsics((1920, 1080), camera, [0.0, 0.0, 0.0, 0.0, -3e5])
    problem = why_degenerate(folded, (1.0, 1.0, 1.0, 1.0), tilted)
    assert problem is not None and problem.startswith("the lens distortion folds back 0.088")
    webcam = CameraIntrinsics((1920, 1080), camera, [-0.25, 0.06, 0.0, 0.0, 0.0])
    assert why_degenerate(webcam, (1.0, 1.0, 1.0, 1.0), tilted) is None


def test_images_given_more_than_once_are_counted_as_given(tmp_path: Path) -> None:
    blank = tmp_path / "v0.png"
    other = tmp_path / "v1.png"
    for path in (blank, other):
        cv2.imwrite(str(path), np.full((120, 160), 255, np.uint8))
    paths = [blank, blank, blank, other]
    result = calibrate_camera_from_files(paths, CHESSBOARD)
    assert isinstance(result, CalibrationFailure)
    assert result.message.startswith("only 0 of 4 images can be used (need 3)")
    reasons = [(r.name, r.reason) for r in result.images_rejected]
    assert len(reasons) == 4
    twice = (str(blank), "given more than once: the same file counts once")
    assert reasons.count(twice) == 2
    assert reasons.count((str(blank), "board not found")) == 1
    assert twice[1] in result.message


def test_an_unreadable_image_gives_its_reason_in_the_message(tmp_path: Path) -> None:
    ok, encoded = cv2.imencode(".jpg", np.full((120, 160), 128, np.uint8))
    assert ok
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(encoded.tobytes()[: len(encoded) // 2])
    result = calibrate_camera_from_files([cut, tmp_path], CHESSBOARD)
    assert isinstance(result, CalibrationFailure)
    assert f"{cut}: cannot read the image (not a readable image:" in result.message
    assert f"{tmp_path}: cannot read the image (a directory, not a file)" in result.message
